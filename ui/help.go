package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/layout"
)

// helpModal lists the bindings valid where the user is, built from keymap. The groups flow
// into as many columns as the width allows; when they still do not fit the height, the
// body scrolls (up/down, page keys, top/bottom) and the footer says how much more there
// is. help, back and quit close it; other keys do nothing.
type helpModal struct {
	ctx    *common.Ctx
	title  string
	groups [][]key.Binding
	width  int // the room for the box, border included
	height int
	offset int // first body line shown

	// The body laid out for layoutW×layoutH (recomputed when the size changes).
	lines            []string
	layoutW, layoutH int
	layoutContentW   int // the widest body line
}

// helpGap separates two columns.
const helpGap = 3

// helpTargetRows is the column height help aims for when the terminal is tall: fewer,
// longer columns read better than a single very long one.
const helpTargetRows = 16

func newHelp(ctx *common.Ctx, title string, groups [][]key.Binding) *helpModal {
	return &helpModal{ctx: ctx, title: title, groups: dedupeBindings(groups)}
}

// dedupeBindings keeps the first binding of every key across the groups (a screen's group
// and its focused pane's group often name the same key; the first, most specific one is
// the one that acts), drops disabled bindings and those without help, and drops groups
// left empty.
func dedupeBindings(groups [][]key.Binding) [][]key.Binding {
	seen := map[string]bool{}
	var out [][]key.Binding
	for _, g := range groups {
		var kept []key.Binding
		for _, b := range g {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			dup := false
			for _, k := range b.Keys() {
				if seen[k] {
					dup = true
				}
			}
			if dup {
				continue
			}
			for _, k := range b.Keys() {
				seen[k] = true
			}
			kept = append(kept, b)
		}
		if len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}

func (h *helpModal) Init() tea.Cmd { return nil }
func (h *helpModal) Inline() bool  { return false }

// ShortHelp lists the keys that scroll and close help.
func (h *helpModal) ShortHelp() []key.Binding {
	k := h.ctx.Keys
	as := func(b key.Binding, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
	}
	var closeKeys []string
	for _, b := range []key.Binding{k.Help, k.Back, k.Quit} {
		closeKeys = append(closeKeys, b.Keys()...)
	}
	return []key.Binding{
		key.NewBinding(key.WithKeys(closeKeys...), key.WithHelp(k.Help.Help().Key+"/"+k.Back.Help().Key+"/"+k.Quit.Help().Key, "close")),
		as(k.Down, "scroll down"), as(k.Up, "scroll up"), as(k.PageDown, "page down"), as(k.PageUp, "page up"),
	}
}

func (h *helpModal) SetSize(w, hh int) {
	h.width, h.height = w, hh
	h.clamp()
}

// helpChromeLines: the border (2 lines, the title in the top one) and the footer.
const helpChromeLines = 3

// innerW is the text width inside the border and padding.
func (h *helpModal) innerW() int { return max(10, h.width-4) }

// bodyH is the lines the body may use.
func (h *helpModal) bodyH() int { return max(1, h.height-helpChromeLines) }

func (h *helpModal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return h, nil
	}
	k := h.ctx.Keys
	page := max(1, h.bodyH()-1)
	switch {
	case key.Matches(km, k.Help), key.Matches(km, k.Back), key.Matches(km, k.Quit):
		return h, h.ctx.CloseModal(h)
	case key.Matches(km, k.Down):
		h.offset++
	case key.Matches(km, k.Up):
		h.offset--
	case key.Matches(km, k.PageDown):
		h.offset += page
	case key.Matches(km, k.PageUp):
		h.offset -= page
	case key.Matches(km, k.Top):
		h.offset = 0
	case key.Matches(km, k.Bottom):
		h.offset = len(h.body())
	}
	h.clamp()
	return h, nil
}

// clamp keeps the offset within the body.
func (h *helpModal) clamp() {
	h.offset = max(0, min(h.offset, len(h.body())-h.bodyH()))
}

// helpEntry is one binding's line: its keys and what they do.
type helpEntry struct{ key, desc string }

// body lays the groups out for the current size (cached).
func (h *helpModal) body() []string {
	w, bh := h.innerW(), h.bodyH()
	if h.lines != nil && h.layoutW == w && h.layoutH == bh {
		return h.lines
	}
	h.layoutW, h.layoutH = w, bh
	h.lines, h.layoutContentW = layoutHelp(h.ctx, h.groups, w, bh)
	return h.lines
}

// layoutHelp flows the groups (a blank line between two) into columns: the fewest columns
// that fit the height (aiming at helpTargetRows lines on tall terminals), else the most
// that fit the width. It returns the lines, each exactly as wide as the widest, and that
// width.
func layoutHelp(ctx *common.Ctx, groups [][]key.Binding, w, bodyH int) ([]string, int) {
	var items []*helpEntry // nil = the gap between two groups
	for i, g := range groups {
		if i > 0 {
			items = append(items, nil)
		}
		for _, b := range g {
			items = append(items, &helpEntry{key: b.Help().Key, desc: b.Help().Desc})
		}
	}
	if len(items) == 0 {
		none := "No keys here."
		return []string{ctx.Styles.Muted.Render(none)}, len(none)
	}
	target := min(bodyH, helpTargetRows)
	var best [][]*helpEntry
	for n := 1; n <= len(items); n++ {
		cols := splitColumns(items, n)
		if n > 1 && columnsWidth(cols) > w {
			break // more columns are no narrower
		}
		best = cols
		if columnHeight(cols) <= target {
			break
		}
	}
	cw := min(w, columnsWidth(best))
	return renderColumns(ctx, best, cw), cw
}

// splitColumns cuts items into n columns of about equal height, never starting a column
// with a group gap.
func splitColumns(items []*helpEntry, n int) [][]*helpEntry {
	per := (len(items) + n - 1) / n
	var cols [][]*helpEntry
	var col []*helpEntry
	for _, it := range items {
		if it == nil && len(col) == 0 {
			continue
		}
		if len(col) >= per && len(cols) < n-1 {
			cols = append(cols, col)
			col = nil
			if it == nil {
				continue
			}
		}
		col = append(col, it)
	}
	if len(col) > 0 {
		cols = append(cols, col)
	}
	for i := range cols { // nor ending with one
		for len(cols[i]) > 0 && cols[i][len(cols[i])-1] == nil {
			cols[i] = cols[i][:len(cols[i])-1]
		}
	}
	return cols
}

func columnKeyWidth(col []*helpEntry) int {
	n := 0
	for _, e := range col {
		if e != nil {
			n = max(n, ansi.StringWidth(e.key))
		}
	}
	return n
}

func columnWidth(col []*helpEntry) int {
	kw, n := columnKeyWidth(col), 0
	for _, e := range col {
		if e != nil {
			n = max(n, kw+2+ansi.StringWidth(e.desc))
		}
	}
	return n
}

func columnsWidth(cols [][]*helpEntry) int {
	n := 0
	for i, c := range cols {
		if i > 0 {
			n += helpGap
		}
		n += columnWidth(c)
	}
	return n
}

func columnHeight(cols [][]*helpEntry) int {
	n := 0
	for _, c := range cols {
		n = max(n, len(c))
	}
	return n
}

// renderColumns draws the columns side by side, each line exactly w cells; descriptions
// are cut with an ellipsis when even one column is too wide.
func renderColumns(ctx *common.Ctx, cols [][]*helpEntry, w int) []string {
	st := ctx.Styles
	key, desc := layout.Painter(st.HelpKey), layout.Painter(st.HelpDesc)
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = columnWidth(c)
	}
	if over := columnsWidth(cols) - w; over > 0 && len(cols) > 0 {
		widths[len(widths)-1] = max(1, widths[len(widths)-1]-over)
	}
	lines := make([]string, columnHeight(cols))
	for r := range lines {
		var b strings.Builder
		for i, c := range cols {
			if i > 0 {
				b.WriteString(strings.Repeat(" ", helpGap))
			}
			cell := strings.Repeat(" ", widths[i])
			if r < len(c) && c[r] != nil {
				ks := layout.Pad(c[r].key, min(columnKeyWidth(c), widths[i]))
				cell = key(ks)
				if rest := widths[i] - ansi.StringWidth(ks); rest > 0 {
					cell += desc(layout.Pad("  "+c[r].desc, rest))
				}
			}
			b.WriteString(cell)
		}
		lines[r] = layout.Fit(b.String(), w)
	}
	return lines
}

func (h *helpModal) View() string {
	st := h.ctx.Styles
	k := h.ctx.Keys
	bh := h.bodyH()
	lines := h.body()
	off := max(0, min(h.offset, len(lines)-bh)) // SetSize and Update keep it so already
	end := min(len(lines), off+bh)
	shown := lines[off:end]

	// The first key of each binding, the last of the page keys (pgdown rather than ctrl+d).
	first := func(b key.Binding) string {
		if ks := b.Keys(); len(ks) > 0 {
			return displayKey(ks[0])
		}
		return ""
	}
	last := func(b key.Binding) string {
		if ks := b.Keys(); len(ks) > 0 {
			return displayKey(ks[len(ks)-1])
		}
		return ""
	}
	closeKeys := first(k.Help) + "/" + first(k.Back) + "/" + first(k.Quit) + " close"
	scrollKeys := " · " + first(k.Down) + "/" + first(k.Up) + " " + last(k.PageDown) + "/" + last(k.PageUp) + " scroll · " + closeKeys
	more := func(above, below int) string {
		var parts []string
		if above > 0 {
			parts = append(parts, fmt.Sprintf("↑ %d more", above))
		}
		if below > 0 {
			parts = append(parts, fmt.Sprintf("↓ %d more", below))
		}
		return strings.Join(parts, " ")
	}
	var footer string
	footerW := ansi.StringWidth(closeKeys)
	if len(lines) > bh {
		hidden := len(lines) - bh
		footer = st.Warning.Render(more(off, len(lines)-end)) + st.Muted.Render(scrollKeys)
		// The widest the footer gets while scrolling, so the box keeps its width.
		footerW = ansi.StringWidth(more(hidden, hidden) + scrollKeys)
	} else {
		footer = st.Muted.Render(closeKeys)
	}
	title := "Keys: " + h.title
	// The box is as wide as its content, within the room given.
	inner := min(h.innerW(), max(h.layoutContentW, ansi.StringWidth(title)+4, footerW))
	var b strings.Builder
	for _, l := range shown {
		b.WriteString(" " + layout.Fit(l, inner) + " \n")
	}
	b.WriteString(" " + layout.Fit(footer, inner) + " ")
	fs := layout.FrameStyles{Focused: st.BorderFocused, TitleFocused: st.ModalTitle}
	return layout.Frame(fs, title, b.String(), inner+4, len(shown)+3, true)
}

// displayKey shows a key the way help does ("space", "↓").
func displayKey(k string) string {
	switch k {
	case " ":
		return "space"
	case "up":
		return "↑"
	case "down":
		return "↓"
	}
	return k
}
