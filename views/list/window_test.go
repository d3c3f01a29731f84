package list

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/keymap"
)

// clampRef is the clamp the lists had before they shared Window.
func clampRef(cursor, offset, fit, n int) (int, int) {
	v := max(1, fit)
	if cursor >= n {
		cursor = max(0, n-1)
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+v {
		offset = cursor - v + 1
	}
	return cursor, max(0, min(offset, n-v))
}

func TestWindowClampKeepsTheCursorInView(t *testing.T) {
	for n := 0; n < 12; n++ {
		for fit := 0; fit < 6; fit++ {
			for cursor := 0; cursor < 14; cursor++ {
				for offset := 0; offset < 14; offset++ {
					w := Window{Cursor: cursor, Offset: offset}
					w.SetSize(fit)
					w.Clamp(n)
					c, o := clampRef(cursor, offset, fit, n)
					if w.Cursor != c || w.Offset != o {
						t.Fatalf("n %d fit %d from %d/%d: got %d/%d, want %d/%d", n, fit, cursor, offset, w.Cursor, w.Offset, c, o)
					}
					if n > 0 && (w.Cursor < w.Offset || w.Cursor >= w.End(n)) {
						t.Fatalf("n %d fit %d: cursor %d outside %d..%d", n, fit, w.Cursor, w.Offset, w.End(n))
					}
				}
			}
		}
	}
}

func TestWindowMoveKeys(t *testing.T) {
	k := keymap.Default()
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	steps := []struct {
		msg            tea.KeyMsg
		cursor, offset int
	}{
		{runes("j"), 1, 0},
		{tea.KeyMsg{Type: tea.KeyCtrlD}, 6, 2},
		{runes("G"), 19, 15},
		{tea.KeyMsg{Type: tea.KeyCtrlU}, 14, 14},
		{runes("k"), 13, 13},
		{runes("g"), 0, 0},
		{runes("k"), 0, 0},
	}
	w := Window{}
	w.SetSize(5)
	for i, s := range steps {
		if !w.HandleMoveKey(s.msg, k, 20) {
			t.Fatalf("step %d: %q is a move key", i, s.msg)
		}
		if w.Cursor != s.cursor || w.Offset != s.offset {
			t.Fatalf("step %d (%q): cursor %d offset %d, want %d %d", i, s.msg, w.Cursor, w.Offset, s.cursor, s.offset)
		}
	}
	if w.HandleMoveKey(runes("x"), k, 20) {
		t.Fatal("x is not a move key")
	}
	w = Window{Overlap: 1}
	w.SetSize(5)
	w.HandleMoveKey(tea.KeyMsg{Type: tea.KeyCtrlD}, k, 20)
	if w.Cursor != 4 {
		t.Fatalf("a page with one row of overlap moved to %d, want 4", w.Cursor)
	}
	w = Window{}
	w.HandleMoveKey(runes("j"), k, 0)
	if w.Cursor != 0 || w.Offset != 0 {
		t.Fatalf("moved in an empty list: %+v", w)
	}
}
