package list

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/sat"
)

// Window is the cursor and scroll offset of a list that shows only the items that fit.
// It does not hold the items: every call that needs their number takes it (n), so the
// window cannot disagree with the list about how many there are.
type Window struct {
	Cursor int // the selected item
	Offset int // the first visible item
	// Overlap is how many items a page move keeps in view (0: a page is a whole window).
	Overlap int

	fit int // items that fit (see Visible)
}

// SetSize sets how many items fit. Call Clamp afterwards to keep the cursor in view.
func (w *Window) SetSize(fit int) { w.fit = fit }

// Visible is how many items fit: at least one.
func (w Window) Visible() int { return max(1, w.fit) }

// End is one past the last visible item of n.
func (w Window) End(n int) int { return min(n, sat.Add(w.Offset, w.Visible())) }

// Reset puts the cursor and the offset on the first item.
func (w *Window) Reset() { w.Cursor, w.Offset = 0, 0 }

// Move moves the cursor by d among n items and scrolls it into view. A single step (up or
// down) that takes the cursor past an edge of the window scrolls half a window at once (the
// cursor lands in the middle), not one item: the next half window of steps then scrolls
// nothing. Every scroll redraws the whole list on the terminal, while a step inside the
// window redraws two rows, so holding j through a list sends a fraction of the bytes
// (the bytes per key of docs/performance.md). Longer moves scroll just enough.
func (w *Window) Move(d, n int) {
	if n == 0 {
		return
	}
	// n may be a count the server sent (a gap of rows not loaded): the sums saturate
	// instead of wrapping round (bottom moves by n from a cursor past 0).
	w.Cursor = max(0, min(n-1, sat.Add(w.Cursor, d)))
	v := w.Visible()
	if jump := v / 2; jump > 1 && (d == 1 || d == -1) {
		switch below := sat.Add(w.Offset, v); {
		case w.Cursor >= below && w.Cursor < sat.Add(below, jump): // just below the window
			w.Offset = w.Cursor - v + jump
		case w.Cursor < w.Offset && w.Cursor >= w.Offset-jump: // just above it
			w.Offset = w.Cursor - jump + 1
		}
	}
	w.Clamp(n)
}

// Clamp keeps the cursor on one of n items and scrolls just enough to show it, without
// leaving room after the last item.
func (w *Window) Clamp(n int) {
	v := w.Visible()
	w.Cursor = max(0, min(w.Cursor, n-1))
	w.Offset = max(min(w.Offset, w.Cursor), w.Cursor-v+1)
	w.Offset = max(0, min(w.Offset, n-v))
}

// HandleMoveKey moves the cursor among n items for the move keys (up, down, a page up or
// down, top, bottom) and reports whether msg was one of them.
func (w *Window) HandleMoveKey(msg tea.KeyPressMsg, keys *keymap.KeyMap, n int) bool {
	page := max(1, w.Visible()-w.Overlap)
	switch {
	case key.Matches(msg, keys.Down):
		w.Move(1, n)
	case key.Matches(msg, keys.Up):
		w.Move(-1, n)
	case key.Matches(msg, keys.PageDown):
		w.Move(page, n)
	case key.Matches(msg, keys.PageUp):
		w.Move(-page, n)
	case key.Matches(msg, keys.Top):
		w.Move(-n, n)
	case key.Matches(msg, keys.Bottom):
		w.Move(n, n)
	default:
		return false
	}
	return true
}
