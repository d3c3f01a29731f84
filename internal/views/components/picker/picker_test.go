package picker_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// items of the matches, in order.
func items(ms []picker.Match) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Item
	}
	return out
}

// The one rule: every word of the query matches fuzzily (its characters in order, any
// case), in any order of the words; best first, or in the texts' order with Kept; the
// matched runes are given as rune indexes.
func TestFind(t *testing.T) {
	texts := []string{
		"um_operator_response_time_first", // 0
		"um_conversation_first_message",   // 1
		"Ärger über Öl",                   // 2
		"um_operator_response_time",       // 3
	}
	for _, c := range []struct {
		query string
		order picker.Order
		want  []int
	}{
		{"", picker.Best, []int{0, 1, 2, 3}},
		{"   ", picker.Kept, []int{0, 1, 2, 3}},
		{"resp first", picker.Best, []int{0}},
		{"first resp", picker.Best, []int{0}}, // the words in any order
		{"RESP", picker.Best, []int{3, 0}},    // any case; the shorter text scores higher
		{"resp", picker.Kept, []int{0, 3}},
		{"umfirst", picker.Best, []int{1, 0}},
		{"ärg öl", picker.Best, []int{2}},
		{"zq", picker.Best, []int{}},
		{"first zq", picker.Best, []int{}}, // every word must match
	} {
		got := picker.Find(c.query, texts, c.order)
		if !slices.Equal(items(got), c.want) {
			t.Errorf("%q (order %d): %v, want %v", c.query, c.order, items(got), c.want)
		}
	}
	m := picker.Find("ärg öl", texts, picker.Best)[0]
	var marked []rune
	rs := []rune(texts[2])
	for _, i := range m.Runes {
		marked = append(marked, rs[i])
	}
	if string(marked) != "ÄrgÖl" {
		t.Errorf("the marks of \"ärg öl\" in %q are %q (runes %v)", texts[2], string(marked), m.Runes)
	}
}

func newPicker(t *testing.T, ctx *common.Ctx, texts []string, o picker.Options) *picker.Model {
	t.Helper()
	m := picker.New(ctx, texts, o)
	m.SetRows(3)
	m.SetWidth(40)
	return &m
}

func send(m *picker.Model, keys ...string) (last picker.Event) {
	for _, k := range keys {
		for _, msg := range viewtest.KeysOf(k) {
			last, _ = m.Update(msg)
		}
	}
	return last
}

var names = []string{"Ana Jones", "Ben Kim", "Cem Gül", "Dora Quinn", "Jana Kowalski"}

// Keys that type text are text (j, k, g, q, space); the move bindings' keys that type
// nothing move; enter chooses; esc clears the filter, then closes.
func TestKeys(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	m := newPicker(t, ctx, names, picker.Options{})
	if ev := send(m, "j", "k", "g", "q", "space"); ev != picker.Filtered || m.Query() != "jkgq " {
		t.Fatalf("j k g q space: event %d, query %q", ev, m.Query())
	}
	send(m, "esc")
	if m.Query() != "" || len(m.Shown()) != len(names) {
		t.Fatalf("esc with a filter: query %q, %d shown", m.Query(), len(m.Shown()))
	}
	for _, c := range []struct {
		key  string
		want int
	}{{"down", 1}, {"tab", 2}, {"pgdown", 4}, {"up", 3}, {"shift+tab", 2}, {"home", 0}, {"end", 4}, {"pgup", 1}} {
		if ev := send(m, c.key); ev != picker.Moved || m.Cursor() != c.want {
			t.Fatalf("%s: event %d, cursor %d, want %d", c.key, ev, m.Cursor(), c.want)
		}
	}
	if ev := send(m, "enter"); ev != picker.Chosen {
		t.Fatalf("enter: event %d", ev)
	}
	if ev := send(m, "esc"); ev != picker.Closed {
		t.Fatalf("esc without a filter: event %d", ev)
	}
	send(m, "zzz")
	if ev := send(m, "enter"); ev != picker.None || len(m.Shown()) != 0 {
		t.Fatalf("enter on nothing: event %d", ev)
	}
	if ev, _ := m.Update(tea.PasteMsg{Content: "\x1b[31mx\ny"}); ev != picker.Filtered || m.Query() != "zzz␛[31mx y" {
		t.Fatalf("a paste: event %d, query %q (sanitized, one line)", ev, m.Query())
	}
}

// The picker moves with the bindings as the user bound them: a rebound down key moves and
// the keys down no longer has do not; an action bound to a letter alone keeps it (the
// letter moves), while a letter of a binding that has a key typing nothing is text.
func TestKeysFollowTheUsersBindings(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	if err := ctx.Keys.Apply(map[string][]string{"down": {"alt+n"}, "up": {"v"}, "open": {"f2", "x"}}); err != nil {
		t.Fatal(err)
	}
	m := newPicker(t, ctx, names, picker.Options{})
	send(m, "alt+n", "alt+n", "down")
	if m.Cursor() != 2 || m.Query() != "" {
		t.Fatalf("alt+n alt+n down (unbound): cursor %d, query %q; want 2 and no filter", m.Cursor(), m.Query())
	}
	send(m, "v")
	if m.Cursor() != 1 || m.Query() != "" {
		t.Fatalf("v (up, bound to v alone): cursor %d, query %q", m.Cursor(), m.Query())
	}
	if ev := send(m, "x"); ev != picker.Filtered || m.Query() != "x" {
		t.Fatalf("x (open also has f2): event %d, query %q; want it typed", ev, m.Query())
	}
	if ev := send(m, "backspace", "f2"); ev != picker.Chosen {
		t.Fatalf("f2: event %d, want chosen", ev)
	}
	if !strings.Contains(m.Keys("choose", "cancel"), "↑") && !strings.Contains(m.Keys("choose", "cancel"), "v/alt+n move") {
		t.Errorf("the footer's keys %q do not name the moves as bound", m.Keys("choose", "cancel"))
	}
}

// A typed id offers itself first; SetItems keeps the query and the cursor's item; Group
// keeps the matches of a group together.
func TestTypedRowItemsAndGroups(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	m := newPicker(t, ctx, names, picker.Options{Typed: func(q string) (string, bool) {
		return "operator #" + q, q != "" && strings.Trim(q, "0123456789") == ""
	}})
	send(m, "4", "2")
	if sel, ok := m.Selected(); !ok || sel.Item != picker.Typed || m.Text(sel) != "operator #42" || m.Count() != "1 of 6" {
		t.Fatalf("42: selected %+v %q, count %q", sel, m.Text(sel), m.Count())
	}
	send(m, "esc", "a", "n")
	send(m, "down")
	sel, _ := m.Selected()
	m.SetItems(append([]string{"Zed Anand"}, names...)) // a list that arrived later: the items move by one
	if got, _ := m.Selected(); m.Query() != "an" || got.Item != sel.Item {
		t.Fatalf("after SetItems: query %q, selected item %d, want %d (the index it had)", m.Query(), got.Item, sel.Item)
	}

	groups := []string{"b", "a", "b", "a"}
	g := newPicker(t, ctx, []string{"ab", "xab", "abc", "xxab"}, picker.Options{Group: func(i int) string { return groups[i] }})
	send(g, "ab")
	if got := items(g.Shown()); !slices.Equal(got, []int{0, 2, 1, 3}) {
		t.Fatalf("grouped matches %v, want group b (the best match) first, then a", got)
	}
	k := newPicker(t, ctx, []string{"xxab", "ab", "xab"}, picker.Options{Order: picker.Kept})
	send(k, "ab")
	if got := items(k.Shown()); !slices.Equal(got, []int{0, 1, 2}) || k.Cursor() != 1 {
		t.Fatalf("kept: %v, cursor %d; want the texts' order with the cursor on the best match (1)", got, k.Cursor())
	}
}

// The window follows the cursor; the wheel moves it.
func TestWindowAndWheel(t *testing.T) {
	m := newPicker(t, viewtest.Ctx(nil), names, picker.Options{})
	send(m, "end")
	if from, to := m.Window(); from > 4 || to != 5 || to-from != 3 {
		t.Fatalf("at the end the window is %d..%d", from, to)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.Cursor() != 2 {
		t.Fatalf("two wheel steps up from the end: cursor %d", m.Cursor())
	}
}

// Cell cuts and pads to its width and marks the matched runes over the row's style
// (selected rows keep their style across the marks); plain styles write no codes.
func TestCell(t *testing.T) {
	plain := theme.Plain(false)
	if got := picker.Cell("Ärger über Öl", []int{0, 1, 12}, 8, plain.Base, plain.Match); got != "Ärger ü…" {
		t.Errorf("plain cell %q", got)
	}
	st := theme.New(theme.Default(), true, false)
	got := picker.Cell("Ben Kim", []int{0, 4}, 10, st.Selected, st.Match)
	if ansi.Strip(got) != "Ben Kim   " || !strings.Contains(got, st.Match.Inherit(st.Selected).Render("B")) ||
		!strings.Contains(got, st.Selected.Render("en ")) {
		t.Errorf("styled cell %q", got)
	}
	if line := picker.Line(plain, "Ben", nil, true, 6); line != "› Ben " {
		t.Errorf("selected line %q", line)
	}
}

// Find runs in Update, on every key that changes the query: over 1,000 items (more than
// the palette or an organization's operators hold) it must stay well inside a frame.
func BenchmarkFind1000(b *testing.B) {
	texts := make([]string, 1000)
	for i := range texts {
		texts[i] = fmt.Sprintf("operator %d · Some Name%d · agent · online (#%d)", i, i, i)
	}
	b.ReportAllocs()
	for b.Loop() {
		picker.Find("som age 99", texts, picker.Best)
	}
}

// A picker's box holds, in order, the field, the rule, the rows (blank lines to its
// height), the notes wrapped and the footer, every line as wide as the box, the title in
// its border.
func TestBox(t *testing.T) {
	st := theme.Plain(false)
	b := picker.Box{Title: "Assign to…", Field: "filter: cl", Rule: true, Rows: []string{"  Clara", "› Ben"}, Height: 3,
		Notes: []string{"Requests run as this operator, whatever the role of the one shown now."}, Footer: "2 of 2 · ↑/↓ move"}
	var inner []string
	for _, l := range strings.Split(b.Render(st, 40), "\n") {
		if w := ansi.StringWidth(l); w != 44 {
			t.Fatalf("line %q is %d cells, want the box's 44", l, w)
		}
		inner = append(inner, strings.TrimRight(strings.Trim(l, "│╭╮╰╯"), " "))
	}
	want := []string{"─ Assign to… " + strings.Repeat("─", 29), " filter: cl", " " + strings.Repeat("─", 40), "   Clara",
		" › Ben", "", " Requests run as this operator, whatever", " the role of the one shown now.", " 2 of 2 · ↑/↓ move",
		strings.Repeat("─", 42)}
	if !slices.Equal(inner, want) {
		t.Fatalf("box\n%q\nwant\n%q", inner, want)
	}
	if got, want := picker.BoxWidth(200), 110; got != want {
		t.Errorf("box on 200 columns: %d, want %d", got, want)
	}
	if got := picker.BoxWidth(50); got != 50 {
		t.Errorf("box on 50 columns: %d", got)
	}
}

// Clearing the filter keeps the cursor on the item it was on.
func TestClearingKeepsTheItem(t *testing.T) {
	m := newPicker(t, viewtest.Ctx(nil), names, picker.Options{})
	send(m, "kow")
	if sel, _ := m.Selected(); sel.Item != 4 {
		t.Fatalf("kow: item %d, want Jana Kowalski", sel.Item)
	}
	send(m, "esc")
	if sel, _ := m.Selected(); sel.Item != 4 || m.Query() != "" {
		t.Fatalf("cleared: item %d, query %q; want Jana Kowalski still", sel.Item, m.Query())
	}
}

// In a picker whose rows take clicks, a click selects a row and a click on the selected
// row chooses it; a click above the rows or below the last does nothing.
func TestClicks(t *testing.T) {
	m := newPicker(t, viewtest.Ctx(nil), names, picker.Options{RowsTop: picker.BoxRowsTop})
	click := func(y int) picker.Event {
		ev, _ := m.Update(tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft})
		return ev
	}
	if ev := click(picker.BoxRowsTop + 2); ev != picker.Moved || m.Cursor() != 2 {
		t.Fatalf("a click on the third row: event %d, cursor %d", ev, m.Cursor())
	}
	if ev := click(picker.BoxRowsTop + 2); ev != picker.Chosen {
		t.Fatalf("a click on the selected row: event %d", ev)
	}
	for _, y := range []int{0, picker.BoxRowsTop - 1, picker.BoxRowsTop + 3} {
		if ev := click(y); ev != picker.None || m.Cursor() != 2 {
			t.Fatalf("a click on line %d: event %d, cursor %d", y, ev, m.Cursor())
		}
	}
}
