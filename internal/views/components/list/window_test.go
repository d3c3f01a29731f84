package list

import (
	"math"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/viewtest"
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
	t.Parallel()
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

// A step past an edge of the window scrolls half a window, so that j held from the top of
// a list scrolls once every half window, not on every press; at the end of the list the
// window stops at the last row.
func TestWindowScrollsHalfAWindowAtAStep(t *testing.T) {
	t.Parallel()
	w := Window{}
	w.SetSize(10)
	var scrolls []int // the cursor positions at which the window scrolled
	for i := 1; i < 30; i++ {
		before := w.Offset
		w.Move(1, 30)
		if w.Offset != before {
			scrolls = append(scrolls, w.Cursor)
			if p := w.Cursor - w.Offset; w.Offset < 20 && p != 5 {
				t.Fatalf("after a scroll at %d the cursor is on row %d of the window, want the middle (5)", w.Cursor, p)
			}
		}
	}
	if want := []int{10, 15, 20, 25}; !slices.Equal(scrolls, want) {
		t.Fatalf("j from the top of 30 rows in a window of 10 scrolled at %v, want %v", scrolls, want)
	}
	if w.Cursor != 29 || w.Offset != 20 {
		t.Fatalf("at the end: cursor %d offset %d, want 29 20", w.Cursor, w.Offset)
	}
	for w.Cursor > 0 {
		before := w.Offset
		w.Move(-1, 30)
		if w.Offset != before && w.Offset > 0 && w.Cursor-w.Offset != 4 {
			t.Fatalf("k: after a scroll at %d the cursor is on row %d, want 4", w.Cursor, w.Cursor-w.Offset)
		}
	}
	if w.Offset != 0 {
		t.Fatalf("k back to the top left the offset at %d", w.Offset)
	}
}

func TestWindowMoveKeys(t *testing.T) {
	t.Parallel()
	k := keymap.Default()
	runes := viewtest.Key
	steps := []struct {
		msg            tea.KeyPressMsg
		cursor, offset int
	}{
		{runes("j"), 1, 0},
		{tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, 6, 2},
		{runes("G"), 19, 15},
		{tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}, 14, 14},
		{runes("k"), 13, 12}, // a step past the top scrolls half a window (two rows)
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
	w.HandleMoveKey(tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, k, 20)
	if w.Cursor != 4 {
		t.Fatalf("a page with one row of overlap moved to %d, want 4", w.Cursor)
	}
	w = Window{}
	w.HandleMoveKey(runes("j"), k, 0)
	if w.Cursor != 0 || w.Offset != 0 {
		t.Fatalf("moved in an empty list: %+v", w)
	}
}

// A list whose count is the largest int (a server's count over a gap of rows not loaded):
// bottom, page moves and steps from anywhere keep the cursor on the list and the window
// around it, without any sum wrapping round.
func TestWindowOverTheLargestCount(t *testing.T) {
	t.Parallel()
	const n = math.MaxInt
	var w Window
	w.SetSize(20)
	w.Cursor = 5
	w.Move(n, n) // bottom, from a cursor past the first item
	if w.Cursor != n-1 || w.Offset != n-20 || w.End(n) != n {
		t.Fatalf("bottom: cursor %d, offset %d, end %d", w.Cursor, w.Offset, w.End(n))
	}
	w.Move(1, n)
	w.Move(19, n)
	if w.Cursor != n-1 {
		t.Fatalf("past the end: cursor %d", w.Cursor)
	}
	w.Move(-1, n)
	w.Move(-n, n)
	if w.Cursor != 0 || w.Offset != 0 {
		t.Fatalf("top: cursor %d, offset %d", w.Cursor, w.Offset)
	}
	w.Offset = n - 1
	if got := w.End(n); got != n {
		t.Fatalf("End near the largest int: %d", got)
	}
}

// A gap of rows opened by a count at the largest int (100 rows before it, the last 50 of
// the count after it) has positions up to it and maps them to the rows both ways.
func TestGapUpToTheLargestCount(t *testing.T) {
	t.Parallel()
	p := Pager{Gap: Gap{At: 100, N: math.MaxInt - 150}, Loaded: true}
	if got := p.Len(150); got != math.MaxInt {
		t.Fatalf("Len = %d", got)
	}
	if i, ok := p.RowAt(math.MaxInt - 1); !ok || i != 149 || p.PosOf(i) != math.MaxInt-1 {
		t.Fatalf("RowAt(largest-1) = %d, %v; PosOf = %d", i, ok, p.PosOf(i))
	}
	if _, ok := p.RowAt(math.MaxInt / 2); ok {
		t.Fatal("a position in the gap has a row")
	}
	if w, ok := p.Want(150, math.MaxInt-50, 20); !ok || w != BeforeLast && w != AfterLoaded {
		t.Fatalf("at the end of the gap the list wants %v, %v", w, ok)
	}
	// A gap larger than the positions left saturates instead of wrapping round.
	p.Gap.N = math.MaxInt
	if p.Len(150) != math.MaxInt || p.PosOf(120) != math.MaxInt {
		t.Fatalf("Len %d, PosOf %d", p.Len(150), p.PosOf(120))
	}
}
