package layout

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func text(s string) func(string, int) string {
	return func(_ string, w int) string { return Pad(s, w) }
}

// Widths sets fixed and Pane widths, gives Flex columns their part of the room those
// leave, lets Grow columns take what is left up to their Grow and the Rest column the
// remainder, and shows a column only within From and Until; a row fills the pane exactly.
func TestTableWidths(t *testing.T) {
	tb := Table[string]{Lead: 1, MinFlex: 3, Columns: []Column[string]{
		{Title: "A", Width: 4, Cell: text("a")},
		{Title: "B", Pane: Part{1, 10}, Min: 5, Max: 9, Cell: text("b")},
		{Title: "C", Flex: Part{1, 2}, Max: 20, Cell: text("c")},
		{Title: "D", Rest: true, Cell: text("d")},
		{Title: "E", Width: 3, From: 60, Cell: text("e")},
		{Title: "F", Grow: 6, Until: 60, Cell: text("f")},
	}}
	for _, tc := range []struct {
		w    int
		want []int
	}{
		// 1 + 5 gaps + 4 + 5 = 15: flex 25, C 12, F 6, D 7.
		{40, []int{4, 5, 12, 7, -1, 6}},
		// B is 5 (59/10): flex 44, C 20 (its Max), F 6, D 18.
		{59, []int{4, 5, 20, 18, -1, 6}},
		// From 60: E comes, F goes; B 6; flex 60-1-5-4-6-3 = 41, C 20, D 21.
		{60, []int{4, 6, 20, 21, 3, -1}},
		// Narrower than the fixed columns: the flex room is MinFlex, the row is cut.
		{10, []int{4, 5, 1, 0, -1, 2}},
	} {
		got := tb.Widths(tc.w, nil)
		if !slices.Equal(got, tc.want) {
			t.Errorf("at %d: %v, want %v", tc.w, got, tc.want)
			continue
		}
		if row := tb.Row(" ", "", got); tc.w >= 40 && len(row) != tc.w {
			t.Errorf("at %d the row is %d wide: %q", tc.w, len(row), row)
		}
	}
}

// Columns that may be dropped come in by Drop while their least width fits; Whole ones
// grow to their Max only when all of it fits, then Grow ones take the rest up to theirs;
// what is left stays blank. Titles use the short form where the title does not fit.
func TestTableDropAndWhole(t *testing.T) {
	tb := Table[string]{Lead: 2, Columns: []Column[string]{
		{Title: "time", Min: 5, Max: 8, Whole: true, Drop: 1, Cell: text("t")},
		{Title: "value", Short: "v", Right: true, Min: 1, Max: 5, Whole: true, Drop: 2, Cell: text("1")},
		{Title: "description", Short: "desc", Min: 4, Max: 11, Grow: 11, Whole: true, Drop: 4, Cell: text("x")},
		{Title: "kind", Min: 4, Max: 4, Drop: 3, Cell: text("k")},
	}}
	for _, tc := range []struct {
		w      int
		want   []int
		titles string
	}{
		{5, []int{-1, 1, -1, -1}, "v"},
		{10, []int{5, 1, -1, -1}, "time  v"},
		// Every column at its least: 2 + 6 + 2 + 5 + 5 = 20.
		{20, []int{5, 1, 4, 4}, "time  v desc kind"},
		// 7 left: time grows whole (3), then value (4).
		{27, []int{8, 5, 4, 4}, "time     value desc kind"},
		// 10 left: the description cannot grow whole (7 of 3 left), so it takes the 3.
		{30, []int{8, 5, 7, 4}, "time     value desc    kind"},
		{40, []int{8, 5, 11, 4}, "time     value description kind"},
	} {
		got := tb.Widths(tc.w, nil)
		if !slices.Equal(got, tc.want) {
			t.Errorf("at %d: %v, want %v", tc.w, got, tc.want)
			continue
		}
		if titles := strings.TrimRight(tb.Titles(got), " "); titles != tc.titles {
			t.Errorf("at %d: titles %q, want %q", tc.w, titles, tc.titles)
		}
	}
}

// The same width gives the same layout, whatever was laid out before into the buffer.
func TestTableWidthsReuseTheBuffer(t *testing.T) {
	tb := Table[string]{Columns: []Column[string]{{Width: 2, Cell: text("")}, {Rest: true, Cell: text("")}}}
	buf := make([]int, 0, 8)
	a := slices.Clone(tb.Widths(30, buf))
	_ = tb.Widths(300, buf)
	if b := tb.Widths(30, buf); !slices.Equal(a, b) || !slices.Equal(a, []int{2, 26}) {
		t.Errorf("%v then %v", a, b)
	}
}

// A line and the header laid out for the same pane put each column's title over its cell,
// and neither is wider than the pane, however narrow.
func TestTableLineUnderItsHeader(t *testing.T) {
	tb := Table[string]{Lead: 2, MinFlex: 3, Columns: []Column[string]{
		{Title: "ID", Width: 4, Cell: text("1234")},
		{Title: "NAME", Flex: Part{1, 2}, Min: 4, Cell: text("Ada Lovelace")},
		{Title: "WHEN", Width: 5, Right: true, Cell: func(_ string, w int) string { return PadLeft("3m", w) }},
	}}
	for _, w := range []int{40, 20, 12, 3} {
		line, header := tb.Line("> ", "", w), tb.Header(w)
		if ansi.StringWidth(line) > w || ansi.StringWidth(header) > w {
			t.Errorf("at %d: line %q or header %q is wider than the pane", w, line, header)
		}
		if w < 20 {
			continue
		}
		if !strings.HasPrefix(header, "  ID") || !strings.HasPrefix(line, "> 1234") {
			t.Errorf("at %d: the id is not under its title:\n%q\n%q", w, header, line)
		}
		if i, j := strings.Index(header, "NAME"), strings.Index(line, "Ada"); i != j {
			t.Errorf("at %d: the name is not under its title:\n%q\n%q", w, header, line)
		}
	}
}
