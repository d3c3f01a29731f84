package layout

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Part is a fraction of a width: N/D of it, rounded down.
type Part struct{ N, D int }

func (p Part) of(w int) int { return w * p.N / p.D }

// Column is one column of a table whose rows are drawn from values of type R. Its width
// comes from one of: Width cells; a Part of the pane (Pane) or of the room the other
// columns leave (Flex), kept within Min and Max; Rest, what is left at the end. Grow then
// widens it, and Drop, From and Until say when it is shown at all.
type Column[R any] struct {
	// Title heads the column; Short stands for it where it does not fit ("" = Title, cut).
	Title, Short string
	// Right aligns the column (its title too) to the right.
	Right bool
	// Width is a fixed width.
	Width int
	// Min and Max bound a Pane or Flex width (Max 0: no bound); Min is the least width of
	// any other column (see Drop), and with Whole, Max the width it grows to.
	Min, Max int
	// Pane: the width is this part of the pane's; Flex: this part of the room the columns
	// of a fixed or Pane width leave (see Table.MinFlex).
	Pane, Flex Part
	// Rest: the column takes the room left at the end (at most one shown column).
	Rest bool
	// Grow: the width the column grows to with the room left, the columns in their order
	// (0: it does not grow).
	Grow int
	// Whole: the column is Min or Max wide, never between: it grows to Max, in the order
	// of Drop, when the whole of it fits.
	Whole bool
	// Drop: a column with Drop > 0 gives way when the pane is too narrow: such columns
	// come in by ascending Drop while their least width fits, the always shown ones at
	// theirs (Width, the Pane part, else Min: a Rest column's Min is the room it keeps
	// before a column that may be dropped comes in). 0: always shown.
	Drop int
	// From and Until are the pane widths the column is shown in, From included, Until not
	// (0: no bound).
	From, Until int
	// Cell draws row's cell exactly w cells wide.
	Cell func(row R, w int) string
}

// least is the width the column is shown at, at least, in a pane w cells wide: its Width,
// its part of the pane, else Min.
func (c Column[R]) least(w int) int {
	switch {
	case c.Width > 0:
		return c.Width
	case c.Pane.D > 0:
		return clamp(c.Pane.of(w), c.Min, c.Max)
	}
	return c.Min
}

// in reports whether the column is shown in a pane w cells wide, Drop aside.
func (c Column[R]) in(w int) bool { return w >= c.From && (c.Until == 0 || w < c.Until) }

// Table is a list's one-line row as columns: Lead cells first (the mark), then each column
// shown, followed by one space.
type Table[R any] struct {
	Lead int
	// MinFlex is the least room the Flex and Rest columns share, however narrow the pane
	// (the row is then cut at the pane's edge).
	MinFlex int
	Columns []Column[R]
}

// Widths lays the columns out in a pane w cells wide: dst (reused) gets each column's
// width, -1 for a column not shown. In order: the columns within From and Until come in,
// those that may be dropped by Drop while they fit; Width and Pane widths are set; Flex
// widths are parts of what they leave (at least MinFlex); Whole columns grow by Drop while
// the whole growth fits, then Grow columns by Drop (in their order where it is the same)
// take the room left up to their Grow; the Rest column takes what remains. Room left after
// that stays blank at the end.
func (t Table[R]) Widths(w int, dst []int) []int {
	dst = dst[:0]
	for range t.Columns {
		dst = append(dst, -1)
	}
	used := t.Lead
	for i, c := range t.Columns {
		if c.Drop == 0 && c.in(w) {
			dst[i] = c.least(w)
			used += dst[i] + 1
		}
	}
	drops := t.byDrop()
	for _, i := range drops {
		if c := t.Columns[i]; c.Drop > 0 && c.in(w) && used+c.least(w)+1 <= w {
			dst[i] = c.least(w)
			used += dst[i] + 1
		}
	}
	fixed := t.Lead
	for i, c := range t.Columns {
		if dst[i] < 0 {
			continue
		}
		switch {
		case c.Pane.D > 0:
			dst[i] = clamp(c.Pane.of(w), c.Min, c.Max)
		case c.Flex.D > 0 || c.Rest:
			dst[i] = 0
		}
		fixed += dst[i] + 1
	}
	flex := max(t.MinFlex, w-fixed)
	left := flex
	for i, c := range t.Columns {
		if dst[i] >= 0 && c.Flex.D > 0 {
			dst[i] = clamp(c.Flex.of(flex), c.Min, c.Max)
			left -= dst[i]
		}
	}
	for _, i := range drops {
		if c := t.Columns[i]; dst[i] >= 0 && c.Whole && dst[i] < c.Max && c.Max-dst[i] <= left {
			left -= c.Max - dst[i]
			dst[i] = c.Max
		}
	}
	for n := range t.Columns {
		i := n
		if drops != nil {
			i = drops[n]
		}
		if c := t.Columns[i]; dst[i] >= 0 && c.Grow > dst[i] && left > 0 {
			add := min(c.Grow-dst[i], left)
			dst[i] += add
			left -= add
		}
	}
	for i, c := range t.Columns {
		if dst[i] >= 0 && c.Rest {
			dst[i] = max(0, left)
			left = 0
		}
	}
	return dst
}

// byDrop are the indexes of the columns that may be dropped or grow whole, by ascending
// Drop, in their order where it is the same; nil when there are none (most tables).
func (t Table[R]) byDrop() []int {
	if !slices.ContainsFunc(t.Columns, func(c Column[R]) bool { return c.Drop > 0 || c.Whole }) {
		return nil
	}
	idx := make([]int, len(t.Columns))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return t.Columns[a].Drop - t.Columns[b].Drop })
	return idx
}

// clamp keeps v within lo and hi (hi 0: no upper bound).
func clamp(v, lo, hi int) int {
	v = max(lo, v)
	if hi > 0 {
		v = min(hi, v)
	}
	return v
}

// Row draws row at the widths (Widths): lead, then each column shown and a space.
func (t Table[R]) Row(lead string, row R, widths []int) string {
	var b strings.Builder
	b.WriteString(lead)
	for i, c := range t.Columns {
		if widths[i] < 0 {
			continue
		}
		b.WriteString(c.Cell(row, widths[i]))
		b.WriteByte(' ')
	}
	return b.String()
}

// Line is row as one line of a pane w cells wide: the columns laid out for w (Widths),
// the row drawn at their widths (Row) and cut at the pane's edge.
func (t Table[R]) Line(lead string, row R, w int) string {
	var widths [16]int
	return Fit(t.Row(lead, row, t.Widths(w, widths[:0])), w)
}

// Header is the titles line of a pane w cells wide: blank over the lead cells, then the
// columns' titles laid out for w (Titles), cut at the pane's edge.
func (t Table[R]) Header(w int) string {
	var widths [16]int
	return Fit(strings.Repeat(" ", t.Lead)+t.Titles(t.Widths(w, widths[:0])), w)
}

// Titles are the columns' titles at the widths (Widths), each padded to its column and
// aligned as it is, a space between two: the Title where it fits, else the Short one.
func (t Table[R]) Titles(widths []int) string {
	var b strings.Builder
	first := true
	for i, c := range t.Columns {
		w := widths[i]
		if w < 0 {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		title := c.Title
		if c.Short != "" && ansi.StringWidth(title) > w {
			title = c.Short
		}
		if c.Right {
			b.WriteString(PadLeft(title, w))
		} else {
			b.WriteString(Pad(title, w))
		}
	}
	return b.String()
}
