package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/internal/views/components/scroll"
)

// helpModal lists the bindings valid where the user is, built from keymap. The groups flow
// into as many columns as the width allows; when they still do not fit the height, the
// body scrolls with the cursor (internal/views/components/scroll) and the footer says how much more there is.
//
// Help is a picker (internal/views/components/picker) over the bindings, with the keys of every picker: typing
// filters them (the field at the top), the move keys that type nothing move the cursor from
// key to key, enter runs the key under the cursor as the palette does (it closes help and
// presses that key), esc clears the filter, then closes; the help key closes it too.
type helpModal struct {
	ctx         *common.Ctx
	title       string
	groups      [][]key.Binding // every binding help lists
	flat        []key.Binding   // the same, one after the other: the picker's items
	group       []int           // the group of every binding of flat
	pick        picker.Model
	pane        scroll.Pane // the body
	picker.Room             // the room for the box, border included

	// shown are the groups' bindings the filter keeps, in order, and marks the runes of
	// each that the query matched ("key desc"), in the same order.
	shown [][]key.Binding
	marks [][][]int
	// The body laid out for layoutW×layoutH, the filter and the cursor (recomputed when
	// one of them changes); rowOf is the body line of every entry.
	rowOf            []int
	layoutW, layoutH int
	layoutQuery      string
	layoutCursor     int
	layoutContentW   int // the widest body line
	laid             bool
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
	h := &helpModal{ctx: ctx, title: title, groups: groups, pane: scroll.New(nil)}
	var texts []string
	for gi, g := range groups {
		for _, b := range g {
			h.flat = append(h.flat, b)
			h.group = append(h.group, gi)
			texts = append(texts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	h.pick = picker.New(ctx, texts, picker.Options{Prompt: "filter: ", Placeholder: "a key or what it does", Order: picker.Kept})
	h.filter()
	return h
}

// filter regroups the bindings the query keeps, each group's in order (the cursor is on
// the first).
func (h *helpModal) filter() {
	h.shown, h.marks = h.shown[:0], h.marks[:0]
	last := -1
	for _, mt := range h.pick.Shown() {
		if g := h.group[mt.Item]; g != last {
			h.shown, h.marks, last = append(h.shown, nil), append(h.marks, nil), g
		}
		n := len(h.shown) - 1
		h.shown[n] = append(h.shown[n], h.flat[mt.Item])
		h.marks[n] = append(h.marks[n], mt.Runes)
	}
	h.laid = false
	h.pane.SetOffset(0)
}

// selected is the binding under the cursor.
func (h *helpModal) selected() (key.Binding, bool) {
	mt, ok := h.pick.Selected()
	if !ok {
		return key.Binding{}, false
	}
	return h.flat[mt.Item], true
}

// ShortHelp lists the keys that move, run and close help (esc clears a filter first).
func (h *helpModal) ShortHelp() []key.Binding {
	k := h.ctx.Keys
	keys := h.pick.ShortHelp("run", "close")
	if h.pick.Query() != "" {
		return append(keys, keymap.As(k.Help, "close"))
	}
	both := key.NewBinding(key.WithKeys(append(k.Help.Keys(), k.Back.Keys()...)...),
		key.WithHelp(k.Help.Help().Key+"/"+k.Back.Help().Key, "close"))
	return append(keys[:2], both)
}

func (h *helpModal) SetSize(w, hh int) {
	h.Room = picker.Room{Width: w, Height: hh}
	h.pick.SetWidth(h.innerW())
	h.pick.SetRows(max(1, h.bodyH()-1))
	h.body()
}

// helpChromeLines: the border (2 lines, the title in the top one), the filter line and the
// footer.
const helpChromeLines = 4

// innerW is the text width inside the border and padding.
func (h *helpModal) innerW() int { return max(10, h.Width-4) }

// bodyH is the lines the body may use.
func (h *helpModal) bodyH() int { return max(1, h.Height-helpChromeLines) }

func (h *helpModal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok && h.pick.Acts(km, h.ctx.Keys.Help) {
		return h, h.ctx.CloseModal(h)
	}
	bottom := false
	if km, ok := msg.(tea.KeyPressMsg); ok {
		bottom = h.pick.Acts(km, h.ctx.Keys.Bottom)
	}
	ev, cmd := h.pick.Update(msg)
	switch ev {
	case picker.Closed:
		return h, h.ctx.CloseModal(h)
	case picker.Chosen:
		b, _ := h.selected()
		h.ctx.CloseModal(h)
		return h, runBinding(b)
	case picker.Filtered:
		h.filter()
	case picker.Moved:
		h.showCursor()
		if bottom {
			h.toEnd()
		}
	}
	return h, cmd
}

// showCursor scrolls the cursor's line into view.
func (h *helpModal) showCursor() {
	h.body()
	if c := h.pick.Cursor(); c >= 0 && c < len(h.rowOf) {
		h.pane.Show(h.rowOf[c], h.rowOf[c]+1)
	}
}

// toEnd scrolls to the body's last line when the cursor's line stays in view there (the
// last entry ends the last column, which may be shorter than the first).
func (h *helpModal) toEnd() {
	end := h.pane.MaxOffset()
	if c := h.pick.Cursor(); c >= 0 && c < len(h.rowOf) && h.rowOf[c] >= end {
		h.pane.SetOffset(end)
	}
}

// helpEntry is one binding's line: its keys and what they do, and its place in the
// entries (the cursor's order).
type helpEntry struct {
	key, desc string
	idx       int
	marks     []int // the runes of "key desc" the query matched
}

// body lays the groups out for the current size, filter and cursor into the pane (cached)
// and returns its lines.
func (h *helpModal) body() []string {
	w, bh := h.innerW(), h.bodyH()
	q, c := h.pick.Query(), h.pick.Cursor()
	if h.laid && h.layoutW == w && h.layoutH == bh && h.layoutQuery == q && h.layoutCursor == c {
		return h.pane.Lines()
	}
	h.laid, h.layoutW, h.layoutH, h.layoutQuery, h.layoutCursor = true, w, bh, q, c
	lines, rowOf, cw := layoutHelp(h.ctx, h.shown, h.marks, w, bh, c)
	if len(h.shown) == 0 && q != "" {
		none := fmt.Sprintf("No keys match %q.", q)
		lines, cw = []string{h.ctx.Styles.Muted.Render(layout.Pad(none, w))}, min(w, ansi.StringWidth(none))
	}
	h.rowOf, h.layoutContentW = rowOf, cw
	h.pane.SetSize(w, bh)
	h.pane.SetLines(lines)
	return lines
}

// layoutHelp flows the groups (a blank line between two) into columns: the fewest columns
// that fit the height (aiming at helpTargetRows lines on tall terminals), else the most
// that fit the width. It returns the lines, each exactly as wide as the widest, the line
// of every entry, and that width. The entry sel is drawn selected.
func layoutHelp(ctx *common.Ctx, groups [][]key.Binding, marks [][][]int, w, bodyH, sel int) ([]string, []int, int) {
	var items []*helpEntry // nil = the gap between two groups
	n := 0
	for i, g := range groups {
		if i > 0 {
			items = append(items, nil)
		}
		for j, b := range g {
			e := &helpEntry{key: b.Help().Key, desc: b.Help().Desc, idx: n}
			if i < len(marks) && j < len(marks[i]) {
				e.marks = marks[i][j]
			}
			items = append(items, e)
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
// selected; the runes a filter matched are marked as every picker marks them.
func renderColumns(ctx *common.Ctx, cols [][]*helpEntry, w, sel int) []string {
	st := ctx.Styles
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
			if r >= len(c) || c[r] == nil {
				b.WriteString(strings.Repeat(" ", widths[i]))
				continue
			}
			e := c[r]
			keySt, descSt := st.HelpKey, st.HelpDesc
			if e.idx == sel {
				keySt, descSt = st.Selected, st.Selected
			}
			n := utf8.RuneCountInString(e.key) + 1 // the match's text: the key, a space, the description
			split := picker.Below(e.marks, n)
			kw := min(columnKeyWidth(c), widths[i])
			b.WriteString(picker.Cell(e.key, e.marks[:split], kw, keySt, st.Match))
			if rest := widths[i] - kw; rest > 0 {
				b.WriteString(picker.Cell("  "+e.desc, picker.Shift(e.marks[split:], 2-n), rest, descSt, st.Match))
			}
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
	off := h.pane.Offset()
	end := min(len(lines), off+bh)
	fullW, fullH := h.fullSize()

	keys := picker.Untyped(k.Up) + "/" + picker.Untyped(k.Down) + " move · " + k.Open.Help().Key + " run · "
	if h.pick.Query() != "" {
		keys += k.Back.Help().Key + " clear · " + k.Help.Help().Key + " close"
	} else {
		keys += k.Help.Help().Key + "/" + k.Back.Help().Key + " close"
	}
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
	return picker.Box{Title: title, Field: h.pick.Field(), Rows: lines[off:end], Height: min(bh, fullH),
		Footer: footer}.Render(st, inner)
}

// fullSize is the width and height of the body unfiltered, at the current size (cached).
func (h *helpModal) fullSize() (w, lines int) {
	if h.pick.Query() == "" {
		h.fullW, h.fullH, h.fullKey = h.layoutContentW, len(h.body()), [2]int{h.layoutW, h.layoutH}
		return h.fullW, h.fullH
	}
	if size := [2]int{h.innerW(), h.bodyH()}; h.fullKey != size {
		all, _, cw := layoutHelp(h.ctx, h.groups, nil, size[0], size[1], -1)
		h.fullW, h.fullH, h.fullKey = cw, len(all), size
	}
	return h.fullW, h.fullH
}
