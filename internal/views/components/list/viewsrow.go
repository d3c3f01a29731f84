package list

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/sanitize"
)

// ViewsAll is the name of the first view of every row of views: the whole list.
const ViewsAll = "all"

// ViewsRow is the row of saved views above a list (gh-dash's sections): "all" first, then
// the saved ones in the config file's order, the active one highlighted, each with the
// count the server sent for its query when it was last loaded (none before that, and none
// when the answer carried no count) and the screen's mark (SetMark).
type ViewsRow struct {
	names  []string
	counts map[string]string
	marks  map[string]string
	active int
}

// NewViewsRow returns the row of views: "all", then names (sanitized when drawn).
func NewViewsRow(names []string) ViewsRow {
	return ViewsRow{names: append([]string{ViewsAll}, names...), counts: map[string]string{}, marks: map[string]string{}}
}

// Len is the number of views, "all" included.
func (v ViewsRow) Len() int { return len(v.names) }

// Names are the views' names, "all" first.
func (v ViewsRow) Names() []string { return v.names }

// Active is the active view's index (0: all).
func (v ViewsRow) Active() int { return v.active }

// ActiveName is the active view's name.
func (v ViewsRow) ActiveName() string { return v.names[v.active] }

// Index is the index of the view named name (case-insensitive), or -1.
func (v ViewsRow) Index(name string) int {
	for i, n := range v.names {
		if strings.EqualFold(n, name) {
			return i
		}
	}
	return -1
}

// Move makes the view d places on (wrapping around) the active one and returns its index.
func (v *ViewsRow) Move(d int) int {
	n := len(v.names)
	v.active = ((v.active+d)%n + n) % n
	return v.active
}

// Select makes view i the active one.
func (v *ViewsRow) Select(i int) {
	if i >= 0 && i < len(v.names) {
		v.active = i
	}
}

// Add adds a view at the end, or when one of that name is there, replaces nothing but its
// count (its query changed); it returns the view's index.
func (v *ViewsRow) Add(name string) int {
	if i := v.Index(name); i >= 0 {
		delete(v.counts, v.names[i])
		v.names[i] = name
		return i
	}
	v.names = append(v.names, name)
	return len(v.names) - 1
}

// SetCount records the count the server sent for view i's query ("" forgets it).
func (v *ViewsRow) SetCount(i int, count string) { v.set(v.counts, i, count) }

// Count is view i's count as last sent ("" when none is known).
func (v ViewsRow) Count(i int) string { return v.get(v.counts, i) }

// SetMark puts mark after view i's count ("" takes it away): what arrived in the view
// since (the conversations screen's "•2").
func (v *ViewsRow) SetMark(i int, mark string) { v.set(v.marks, i, mark) }

// Mark is view i's mark ("" when none).
func (v ViewsRow) Mark(i int) string { return v.get(v.marks, i) }

// set records s for view i in by (counts or marks, by the view's name); "" forgets it.
func (v *ViewsRow) set(by map[string]string, i int, s string) {
	switch {
	case i < 0 || i >= len(v.names):
	case s == "":
		delete(by, v.names[i])
	default:
		by[v.names[i]] = s
	}
}

// get is what by (counts or marks) holds for view i ("" when nothing).
func (v ViewsRow) get(by map[string]string, i int) string {
	if i < 0 || i >= len(v.names) {
		return ""
	}
	return by[v.names[i]]
}

// View draws the row in w cells. modified marks the active view with "*" when the list's
// query is no longer that view's (a filter or a search changed since). When the views do
// not fit, the row shows those around the active one, with "…" where some are left out.
func (v ViewsRow) View(st *theme.Styles, w int, modified bool) string {
	if w <= 0 {
		return ""
	}
	items, lo, hi := v.arrange(st, w, modified)
	var b strings.Builder
	if lo > 0 {
		b.WriteString(st.Muted.Render(moreMark + " "))
	}
	for i := lo; i < hi; i++ {
		b.WriteString(items[i])
	}
	if hi < len(items) {
		b.WriteString(st.Muted.Render(" " + moreMark))
	}
	return layout.Pad(b.String(), w)
}

// At is the view drawn at cell x of the row View(st, w, modified) draws (false: none
// there, a "…" mark or the blank after the views).
func (v ViewsRow) At(st *theme.Styles, w int, modified bool, x int) (int, bool) {
	if w <= 0 || x < 0 || x >= w {
		return 0, false
	}
	items, lo, hi := v.arrange(st, w, modified)
	left := 0
	if lo > 0 {
		left = ansi.StringWidth(moreMark + " ")
	}
	for i := lo; i < hi; i++ {
		right := left + ansi.StringWidth(items[i])
		if x >= left && x < right {
			return i, true
		}
		left = right
	}
	return 0, false
}

// moreMark stands for views left out of a row too narrow for all.
const moreMark = "…"

// arrange draws every view's item and picks the widest run around the active one that
// fits w cells with its "…" marks: items[lo:hi] are shown.
func (v ViewsRow) arrange(st *theme.Styles, w int, modified bool) (items []string, lo, hi int) {
	items = make([]string, len(v.names))
	widths := make([]int, len(v.names))
	for i, n := range v.names {
		text := sanitize.Line(n)
		if i == v.active && modified {
			text += "*"
		}
		if c := v.Count(i); c != "" {
			text += " " + c
		}
		if m := v.Mark(i); m != "" {
			text += " " + m
		}
		style := st.Tab
		if i == v.active {
			style = st.TabActive
		}
		items[i] = style.Render(ShortValue(text, max(4, w-4)))
		widths[i] = ansi.StringWidth(items[i])
	}
	lo, hi = v.active, v.active+1
	width := func(lo, hi int) int {
		n := 0
		for i := lo; i < hi; i++ {
			n += widths[i]
		}
		if lo > 0 {
			n += 2
		}
		if hi < len(items) {
			n += 2
		}
		return n
	}
	for grew := true; grew; {
		grew = false
		if hi < len(items) && width(lo, hi+1) <= w {
			hi, grew = hi+1, true
		}
		if lo > 0 && width(lo-1, hi) <= w {
			lo, grew = lo-1, true
		}
	}
	return items, lo, hi
}
