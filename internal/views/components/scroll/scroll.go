// Package scroll is parley's one scroller of text: a pane of lines taller than its room,
// held by bubbles' viewport (the lines and the scroll position, kept within them), moved
// by the key map's move keys (keymap.Scroll) and the mouse wheel, and drawn exactly w×h
// from the lines in view. The conversation detail, the contact detail, the analytics
// breakdown, the metric picker and help scroll with it. Lists with a cursor over rows use
// internal/views/components/list's Window; the thread keeps its own window over messages that are laid out as
// they come into view (thread.go says why).
package scroll

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// Pane is lines that scroll in a room w×h. The zero value is an empty pane of no size.
type Pane struct {
	vp    viewport.Model
	lines []string
	w, h  int
	// More, when set, makes the last line of a pane with lines below it say how many
	// ("↓ 12 more lines"), drawn in its style.
	More *theme.Styles
}

// New is an empty pane; more (nil for none) draws the "↓ N more lines" hint.
func New(more *theme.Styles) Pane {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{} // moved by parley's key map (Key), never by bubbles' defaults
	vp.MouseWheelEnabled = false  // a wheel step is Wheel's, by the caller's step
	return Pane{vp: vp, More: more}
}

// SetSize sets the room; the position stays within the lines.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = max(0, w), max(0, h)
	p.vp.SetWidth(p.w)
	p.vp.SetHeight(p.h)
	p.SetOffset(p.Offset())
}

// SetLines replaces the lines (each one line, at most w cells: the caller lays them out);
// the position stays where it was, within the new lines.
func (p *Pane) SetLines(lines []string) {
	p.lines = lines
	p.vp.SetContentLines(lines)
	p.SetOffset(p.Offset())
}

// Lines are the pane's lines.
func (p Pane) Lines() []string { return p.lines }

// Height is the room's height.
func (p Pane) Height() int { return p.h }

// Offset is the first line in view.
func (p Pane) Offset() int { return p.vp.YOffset() }

// SetOffset scrolls to line n, kept between the top and the last line at the bottom.
func (p *Pane) SetOffset(n int) { p.vp.SetYOffset(max(0, min(n, p.MaxOffset()))) }

// MaxOffset is the offset that shows the last line at the bottom.
func (p Pane) MaxOffset() int { return max(0, len(p.lines)-p.h) }

// AtBottom reports whether the last line is in view.
func (p Pane) AtBottom() bool { return p.Offset() >= p.MaxOffset() }

// Show scrolls the least that puts lines from to to (one past the last) in view; when
// they do not all fit, their first lines.
func (p *Pane) Show(from, to int) {
	off := p.Offset()
	if to > off+p.h {
		off = to - p.h
	}
	if from < off {
		off = from
	}
	p.SetOffset(off)
}

// Key scrolls for the move keys as bound (a line, a page, the top, the bottom) and
// reports whether msg was one of them.
func (p *Pane) Key(keys *keymap.KeyMap, msg tea.KeyPressMsg) bool {
	to, ok := keys.Scroll(msg, p.Offset(), max(1, p.h-1), len(p.lines))
	if ok {
		p.SetOffset(to)
	}
	return ok
}

// Wheel scrolls d lines (negative: up).
func (p *Pane) Wheel(d int) { p.SetOffset(p.Offset() + d) }

// hint reports whether the last line of the room shows the "more" hint.
func (p Pane) hint() bool { return p.More != nil && p.h > 0 && p.Offset()+p.h < len(p.lines) }

// InView are the lines in view, from to to (one past the last), the line under the
// "more" hint left out.
func (p Pane) InView() (from, to int) {
	end := min(len(p.lines), p.Offset()+p.h)
	if p.hint() {
		end--
	}
	return p.Offset(), max(p.Offset(), end)
}

// Shown reports whether line i is in view (not under the "more" hint).
func (p Pane) Shown(i int) bool {
	from, to := p.InView()
	return i >= from && i < to
}

// View draws the lines in view, exactly w×h; with More, a pane with lines below says how
// many on its last line.
func (p Pane) View() string { return p.ViewWith(-1, "") }

// ViewWith is View with line i drawn as line instead (a line drawn another way while it is
// in view, such as a marked one); i outside the lines changes nothing.
func (p Pane) ViewWith(i int, line string) string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	off := p.Offset()
	var b strings.Builder
	b.Grow((p.w + 16) * p.h)
	for r := range p.h {
		if r > 0 {
			b.WriteByte('\n')
		}
		j := off + r
		switch {
		case j >= len(p.lines):
			b.WriteString(strings.Repeat(" ", p.w))
		case r == p.h-1 && p.hint():
			b.WriteString(layout.Fit(p.More.Muted.Render(fmt.Sprintf(" ↓ %d more lines", len(p.lines)-j)), p.w))
		case j == i:
			b.WriteString(layout.Fit(line, p.w))
		default:
			b.WriteString(layout.Fit(p.lines[j], p.w))
		}
	}
	return b.String()
}
