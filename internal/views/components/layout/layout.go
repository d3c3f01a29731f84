// Package layout holds the layout helpers the screens share: fitting and padding text to
// cells, frames, relative times, counts, the status symbols and a record's field block.
package layout

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
)

// Pad cuts s (which may be styled) to w cells with an ellipsis and pads it with spaces to
// exactly w cells.
func Pad(s string, w int) string { return fit(s, w, "…") }

// PadLeft right-aligns s in w cells.
func PadLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-sw) + s
}

// Fit makes a styled line exactly w cells wide, cutting without an ellipsis.
func Fit(s string, w int) string { return fit(s, w, "") }

// fit cuts s to w cells, ending a cut with tail, and pads it with spaces to w cells.
func fit(s string, w int, tail string) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, tail)
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// Spread puts left at the start and right at the end of w cells; left alone when they do
// not fit with a space between.
func Spread(left, right string, w int) string {
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

// OrDash is s, or "—" when s is blank.
func OrDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// Block makes lines exactly w×h: each line fitted, missing lines blank, extra lines cut.
func Block(lines []string, w, h int) string {
	var b strings.Builder
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(lines) {
			b.WriteString(Fit(lines[i], w))
		} else {
			b.WriteString(strings.Repeat(" ", w))
		}
	}
	return b.String()
}

// StatusSymbol is a conversation status as a symbol and a word (never colour alone).
func StatusSymbol(status string) (symbol, word string) {
	switch status {
	case client.StatusNew:
		return "●", "new"
	case client.StatusPending:
		return "◐", "pending"
	case client.StatusEnded:
		return "○", "ended"
	case "":
		return "?", "unknown"
	}
	return "◇", status
}

// StatusStyle is the style of a conversation status.
func StatusStyle(st *theme.Styles, status string) lipgloss.Style {
	switch status {
	case client.StatusNew:
		return st.StatusNew
	case client.StatusPending:
		return st.StatusPending
	case client.StatusEnded:
		return st.StatusEnded
	}
	return st.StatusUnknown
}

// RelTime is a compact relative time: "now", "5m", "3h", "2d", then a date.
func RelTime(t, now time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d < 7*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	case t.Year() == now.Year():
		return t.In(now.Location()).Format("Jan 2")
	}
	return t.In(now.Location()).Format("2006-01")
}

// Ago says how long before now t was: "just now", "5m ago", "30h ago" (hours up to two
// days), then "3d ago"; "in the future" a minute or more after now. Less than a minute
// after now is "just now": a server's clock as the client knows it (Ctx.ServerNow) is good
// to a second or so, and a message just sent must not read as one to come.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d <= -time.Minute:
		return "in the future"
	case d < time.Minute: // within a minute either side of now
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m ago"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h ago"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d ago"
}

// ShortDuration is a compact duration: "45s", "3m05s", "2h07m".
func ShortDuration(d time.Duration) string {
	switch {
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

// Frame draws a rounded border around body (which must be exactly (w-2)×(h-2): every line
// already fitted, as the views' View methods guarantee) with title
// in the top edge. The border is drawn by hand: cheaper than lipgloss borders per frame,
// and it carries the title.
func Frame(st FrameStyles, title, body string, w, h int, focused bool) string {
	if w < 2 || h < 2 {
		return ""
	}
	border, titleStyle := st.Blurred, st.TitleBlurred
	if focused {
		border, titleStyle = st.Focused, st.TitleFocused
	}
	paint := Painter(border)
	inner := w - 2
	tl, tr, bl, br, hz, vt := "╭", "╮", "╰", "╯", "─", "│"
	if focused && st.Thick {
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
	}
	title = ansi.Truncate(title, max(0, inner-4), "…")
	tw := ansi.StringWidth(title)
	var b strings.Builder
	b.Grow((w + 24) * h)
	if tw > 0 {
		b.WriteString(paint(tl+hz) + titleStyle.Render(" "+title+" ") + paint(strings.Repeat(hz, max(0, inner-tw-3))+tr))
	} else {
		b.WriteString(paint(tl + strings.Repeat(hz, inner) + tr))
	}
	left, right := paint(vt), paint(vt)
	blank := strings.Repeat(" ", inner)
	// Views hand over bodies of exactly the inner size, so lines are copied as they are:
	// measuring every line of every pane per frame was the biggest cost of a keystroke.
	rest := body
	for i := 0; i < h-2; i++ {
		b.WriteByte('\n')
		b.WriteString(left)
		if rest != "" || i == 0 {
			line, tail, found := strings.Cut(rest, "\n")
			b.WriteString(line)
			rest = tail
			if !found {
				rest = ""
			}
		} else {
			b.WriteString(blank)
		}
		b.WriteString(right)
	}
	b.WriteByte('\n')
	b.WriteString(paint(bl + strings.Repeat(hz, inner) + br))
	return b.String()
}

// FrameStyles are the styles Frame uses.
type FrameStyles struct {
	Focused, Blurred           lipgloss.Style
	TitleFocused, TitleBlurred lipgloss.Style
	Thick                      bool // mono: the focused pane gets a heavy border
}

// JoinHorizontal puts blocks of equal height side by side, line by line.
func JoinHorizontal(blocks ...string) string {
	if len(blocks) == 1 {
		return blocks[0]
	}
	split := make([][]string, len(blocks))
	n := 0
	for i, bl := range blocks {
		split[i] = strings.Split(bl, "\n")
		n = max(n, len(split[i]))
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, s := range split {
			if i < len(s) {
				b.WriteString(s[i])
			}
		}
	}
	return b.String()
}

// Painter returns a function that applies a simple style (colours and attributes, no
// padding, margins or width) to single-line text without lipgloss measuring the text every
// time: the style's opening and closing sequences are taken once from a one-rune sample.
func Painter(style lipgloss.Style) func(string) string {
	const sample = "\u00a4"
	r := style.Render(sample)
	i := strings.Index(r, sample)
	if i < 0 {
		return func(s string) string { return style.Render(s) }
	}
	open, end := r[:i], r[i+len(sample):]
	return func(s string) string { return open + s + end }
}

// GapEntry stands for a row of a list's gap (rows not loaded yet, which load when the
// cursor nears them): "⋯" on the first of its height lines, each w cells wide.
func GapEntry(st *theme.Styles, height, w int) []string {
	style := st.Muted
	lines := make([]string, height)
	for j := range lines {
		text := ""
		if j == 0 {
			text = "   ⋯"
		}
		lines[j] = style.Render(Fit(text, w))
	}
	return lines
}

// RenderLines renders each line of s in style (a multi-line row highlighted as a whole,
// without lipgloss padding the lines to one width).
func RenderLines(s string, style lipgloss.Style) string {
	lines := strings.Split(s, "\n")
	for j, l := range lines {
		lines[j] = style.Render(l)
	}
	return strings.Join(lines, "\n")
}

// Panes draws a screen's panes side by side in order, each in its frame widths[p] wide and
// h lines tall, the focused one marked. pane gives a pane's title and body for its width.
// next, when the screen shows one pane at a time, is the key to the next pane, which every
// title then names ("" otherwise).
func Panes[P comparable](fs FrameStyles, order []P, widths map[P]int, h int, focus P, next string,
	pane func(p P, w int) (title, body string)) string {
	hint := ""
	if next != "" {
		hint = "  (" + next + ": next pane)"
	}
	blocks := make([]string, 0, len(order))
	for _, p := range order {
		title, body := pane(p, widths[p])
		blocks = append(blocks, Frame(fs, title+hint, body, widths[p], h, p == focus))
	}
	return JoinHorizontal(blocks...)
}

// PaneAt is the pane drawn at column x when panes are drawn side by side in order, each
// widths[p] wide, and that pane's left column (false: none there).
func PaneAt[P comparable](x int, order []P, widths map[P]int) (p P, left int, ok bool) {
	if x < 0 {
		return p, 0, false
	}
	for _, q := range order {
		if x < left+widths[q] {
			return q, left, true
		}
		left += widths[q]
	}
	return p, 0, false
}
