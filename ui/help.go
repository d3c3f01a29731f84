package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/layout"
)

// helpModal lists the bindings valid where the user is, built from keymap. The groups flow
// into as many columns as the width allows; when they still do not fit the height, the
// body scrolls with the cursor and the footer says how much more there is.
//
// Typing filters the list (the filter line at the top); up/down (and j/k, page keys,
// top/bottom while the filter is empty) move the cursor from key to key, and enter runs
// the key under it, as the palette does: it closes help and presses that key. While the
// filter is empty, help and quit close help and back closes it; with a filter, back clears
// it, help still closes, and every printable key is typed.
type helpModal struct {
	ctx    *common.Ctx
	title  string
	groups [][]key.Binding // every binding help lists
	width  int             // the room for the box, border included
	height int
	offset int // first body line shown
	query  string
	cursor int // the entry under the cursor, in shown's order

	// shown are the groups' bindings the filter keeps, in order.
	shown [][]key.Binding
	// The body laid out for layoutW×layoutH, the filter and the cursor (recomputed when
	// one of them changes); rowOf is the body line of every entry.
	lines            []string
	rowOf            []int
	layoutW, layoutH int
	layoutQuery      string
	layoutCursor     int
	layoutContentW   int // the widest body line
	// The unfiltered body's width and height at fullKey (innerW, bodyH): the box keeps
	// them while a filter is typed.
	fullW, fullH int
	fullKey      [2]int
}

// helpGap separates two columns.
const helpGap = 3

// helpTargetRows is the column height help aims for when the terminal is tall: fewer,
// longer columns read better than a single very long one.
const helpTargetRows = 16

func newHelp(ctx *common.Ctx, title string, groups [][]key.Binding) *helpModal {
	h := &helpModal{ctx: ctx, title: title, groups: groups}
	h.filter()
	return h
}

// filter keeps the bindings whose key or description holds the query (any case), each
// group's in order, and puts the cursor on the first.
func (h *helpModal) filter() {
	q := strings.ToLower(strings.TrimSpace(h.query))
	h.shown = h.shown[:0]
	for _, g := range h.groups {
		var kept []key.Binding
		for _, b := range g {
			if q == "" || strings.Contains(strings.ToLower(b.Help().Key+" "+b.Help().Desc), q) {
				kept = append(kept, b)
			}
		}
		if len(kept) > 0 {
			h.shown = append(h.shown, kept)
		}
	}
	h.cursor, h.offset = 0, 0
	h.lines = nil
}

// entries is the number of bindings shown.
func (h *helpModal) entries() int {
	n := 0
	for _, g := range h.shown {
		n += len(g)
	}
	return n
}

// selected is the binding under the cursor.
func (h *helpModal) selected() (key.Binding, bool) {
	i := h.cursor
	for _, g := range h.shown {
		if i < len(g) {
			return g[i], true
		}
		i -= len(g)
	}
	return key.Binding{}, false
}

func (h *helpModal) Init() tea.Cmd { return nil }
func (h *helpModal) Inline() bool  { return false }

// ShortHelp lists the keys that scroll and close help.
func (h *helpModal) ShortHelp() []key.Binding {
	k := h.ctx.Keys
	var closeKeys []string
	for _, b := range []key.Binding{k.Help, k.Back, k.Quit} {
		closeKeys = append(closeKeys, b.Keys()...)
	}
	return []key.Binding{
		key.NewBinding(key.WithKeys(closeKeys...), key.WithHelp(k.Help.Help().Key+"/"+k.Back.Help().Key+"/"+k.Quit.Help().Key, "close")),
		keymap.As(k.Open, "run"), keymap.As(k.Down, "down"), keymap.As(k.Up, "up"), keymap.As(k.PageDown, "page down"), keymap.As(k.PageUp, "page up"),
	}
}

func (h *helpModal) SetSize(w, hh int) {
	h.width, h.height = w, hh
	h.clamp()
}

// helpChromeLines: the border (2 lines, the title in the top one), the filter line and the
// footer.
const helpChromeLines = 4

// innerW is the text width inside the border and padding.
func (h *helpModal) innerW() int { return max(10, h.width-4) }

// bodyH is the lines the body may use.
func (h *helpModal) bodyH() int { return max(1, h.height-helpChromeLines) }

func (h *helpModal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if p, ok := msg.(tea.PasteMsg); ok {
		h.setQuery(h.query + sanitize.Line(p.Content))
		return h, nil
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return h, nil
	}
	k := h.ctx.Keys
	page := max(1, h.bodyH()-1)
	// With a filter typed, a printable key is text, even j, k or q.
	typing := h.query != "" && common.Typed(km)
	switch {
	case key.Matches(km, k.Help) && !(typing && km.Text != k.Help.Keys()[0]):
		return h, h.ctx.CloseModal(h)
	case key.Matches(km, k.Back) && h.query != "":
		h.setQuery("")
	case key.Matches(km, k.Back), key.Matches(km, k.Quit) && !typing:
		return h, h.ctx.CloseModal(h)
	case key.Matches(km, k.Open):
		b, ok := h.selected()
		if !ok {
			return h, nil
		}
		h.ctx.CloseModal(h)
		return h, runBinding(b)
	case km.Code == tea.KeyBackspace && km.Mod == 0:
		if rs := []rune(h.query); len(rs) > 0 {
			h.setQuery(string(rs[:len(rs)-1]))
		}
	case typing:
		h.setQuery(h.query + sanitize.Line(km.Text))
	case key.Matches(km, k.Down):
		h.moveTo(h.cursor + 1)
	case key.Matches(km, k.Up):
		h.moveTo(h.cursor - 1)
	case key.Matches(km, k.PageDown):
		h.moveTo(h.cursor + page)
	case key.Matches(km, k.PageUp):
		h.moveTo(h.cursor - page)
	case key.Matches(km, k.Top):
		h.moveTo(0)
	case key.Matches(km, k.Bottom):
		h.moveTo(h.entries() - 1)
		h.toEnd()
	case common.Typed(km):
		h.setQuery(h.query + sanitize.Line(km.Text))
	}
	return h, nil
}

// setQuery filters by q.
func (h *helpModal) setQuery(q string) {
	if q != h.query {
		h.query = q
		h.filter()
	}
}

// moveTo puts the cursor on entry i (within the entries) and scrolls its line into view.
func (h *helpModal) moveTo(i int) {
	h.cursor = max(0, min(i, h.entries()-1))
	h.body()
	if h.cursor < len(h.rowOf) {
		row := h.rowOf[h.cursor]
		if row < h.offset {
			h.offset = row
		}
		if row >= h.offset+h.bodyH() {
			h.offset = row - h.bodyH() + 1
		}
	}
	h.clamp()
}

// toEnd scrolls to the body's last line when the cursor's line stays in view there (the
// last entry ends the last column, which may be shorter than the first).
func (h *helpModal) toEnd() {
	end := max(0, len(h.body())-h.bodyH())
	if h.cursor < len(h.rowOf) && h.rowOf[h.cursor] >= end {
		h.offset = end
	}
}

// clamp keeps the offset within the body.
func (h *helpModal) clamp() {
	h.offset = max(0, min(h.offset, len(h.body())-h.bodyH()))
}

// helpEntry is one binding's line: its keys and what they do, and its place in the
// entries (the cursor's order).
type helpEntry struct {
	key, desc string
	idx       int
}

// body lays the groups out for the current size, filter and cursor (cached).
func (h *helpModal) body() []string {
	w, bh := h.innerW(), h.bodyH()
	if h.lines != nil && h.layoutW == w && h.layoutH == bh && h.layoutQuery == h.query && h.layoutCursor == h.cursor {
		return h.lines
	}
	h.layoutW, h.layoutH, h.layoutQuery, h.layoutCursor = w, bh, h.query, h.cursor
	h.lines, h.rowOf, h.layoutContentW = layoutHelp(h.ctx, h.shown, w, bh, h.cursor)
	if len(h.shown) == 0 && h.query != "" {
		none := "No keys match " + strconv.Quote(h.query) + "."
		h.lines, h.layoutContentW = []string{h.ctx.Styles.Muted.Render(layout.Pad(none, w))}, min(w, ansi.StringWidth(none))
	}
	return h.lines
}

// layoutHelp flows the groups (a blank line between two) into columns: the fewest columns
// that fit the height (aiming at helpTargetRows lines on tall terminals), else the most
// that fit the width. It returns the lines, each exactly as wide as the widest, the line
// of every entry, and that width. The entry sel is drawn selected.
func layoutHelp(ctx *common.Ctx, groups [][]key.Binding, w, bodyH, sel int) ([]string, []int, int) {
	var items []*helpEntry // nil = the gap between two groups
	n := 0
	for i, g := range groups {
		if i > 0 {
			items = append(items, nil)
		}
		for _, b := range g {
			items = append(items, &helpEntry{key: b.Help().Key, desc: b.Help().Desc, idx: n})
			n++
		}
	}
	if len(items) == 0 {
		none := "No keys here."
		return []string{ctx.Styles.Muted.Render(none)}, nil, len(none)
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
	rowOf := make([]int, n)
	for _, c := range best {
		for r, e := range c {
			if e != nil {
				rowOf[e.idx] = r
			}
		}
	}
	return renderColumns(ctx, best, cw, sel), rowOf, cw
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
// are cut with an ellipsis when even one column is too wide. The entry sel is drawn
// selected.
func renderColumns(ctx *common.Ctx, cols [][]*helpEntry, w, sel int) []string {
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
				if c[r].idx == sel {
					cell = st.Selected.Render(ansi.Strip(cell))
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
	fullW, fullH := h.fullSize()

	// The first key of each binding.
	first := func(b key.Binding) string {
		if ks := b.Keys(); len(ks) > 0 {
			return displayKey(ks[0])
		}
		return ""
	}
	closeKeys := first(k.Help) + "/" + first(k.Back) + "/" + first(k.Quit) + " close"
	moveKeys := first(k.Down) + "/" + first(k.Up)
	if h.query != "" {
		// Printable keys are typed now: only the others move.
		closeKeys = first(k.Back) + " clear · " + first(k.Help) + " close"
		moveKeys = untyped(k.Down) + "/" + untyped(k.Up)
	}
	keys := moveKeys + " move · " + first(k.Open) + " run · " + closeKeys
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
	footerW := ansi.StringWidth(keys)
	if len(lines) > bh {
		hidden := len(lines) - bh
		footer = st.Warning.Render(more(off, len(lines)-end)) + st.Muted.Render(" · "+keys)
		// The widest the footer gets while scrolling, so the box keeps its width.
		footerW = ansi.StringWidth(more(hidden, hidden) + " · " + keys)
	} else {
		footer = st.Muted.Render(keys)
	}
	title := "Keys: " + h.title
	// The box is as wide as its content unfiltered, within the room given, and keeps the
	// height of the whole list while a filter shortens it.
	inner := min(h.innerW(), max(fullW, ansi.StringWidth(title)+4, footerW))
	filterLine := st.Muted.Render("type to filter")
	if h.query != "" {
		filterLine = st.HelpKey.Render("filter: ") + h.query + "▏"
	}
	var b strings.Builder
	b.WriteString(" " + layout.Fit(filterLine, inner) + " \n")
	for _, l := range shown {
		b.WriteString(" " + layout.Fit(l, inner) + " \n")
	}
	rows := max(len(shown), min(bh, fullH))
	for range rows - len(shown) {
		b.WriteString(" " + strings.Repeat(" ", inner) + " \n")
	}
	b.WriteString(" " + layout.Fit(footer, inner) + " ")
	fs := layout.FrameStyles{Focused: st.BorderFocused, TitleFocused: st.ModalTitle}
	return layout.Frame(fs, title, b.String(), inner+4, rows+helpChromeLines, true)
}

// fullSize is the width and height of the body unfiltered, at the current size (cached).
func (h *helpModal) fullSize() (w, lines int) {
	if h.query == "" {
		h.body()
		h.fullW, h.fullH, h.fullKey = h.layoutContentW, len(h.lines), [2]int{h.layoutW, h.layoutH}
		return h.fullW, h.fullH
	}
	if size := [2]int{h.innerW(), h.bodyH()}; h.fullKey != size {
		all, _, cw := layoutHelp(h.ctx, h.groups, size[0], size[1], -1)
		h.fullW, h.fullH, h.fullKey = cw, len(all), size
	}
	return h.fullW, h.fullH
}

// untyped is the first key of b that types no text ("↓" for "j/↓"), else its first.
func untyped(b key.Binding) string {
	for _, k := range b.Keys() {
		if p, ok := keymap.Press(k); ok && !common.Typed(p) {
			return displayKey(k)
		}
	}
	if ks := b.Keys(); len(ks) > 0 {
		return displayKey(ks[0])
	}
	return ""
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
