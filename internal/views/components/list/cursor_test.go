package list_test

import (
	"testing"

	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// TestCursorIDIsTheRowUnderTheCursor: no row before the first page, then the id of the row
// under the cursor, the pinned row's while the cursor is on it.
func TestCursorIDIsTheRowUnderTheCursor(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, _ := newPane(t, c, nil, 10, 80, 12, list.Options{})
	if id := p.l.CursorID(); id != 0 {
		t.Fatalf("no rows yet, the cursor is on %d", id)
	}
	p = viewtest.Settle(p, p.l.Load(false), wait)
	p, _ = p.key("j")
	if id, want := p.l.CursorID(), p.l.Rows()[1].ID; id != want {
		t.Fatalf("on the second row the cursor is on %d, want %d", id, want)
	}
	last := oldest(t, c)
	p.l.Pin(row{ID: last, Name: "pinned"}, "from a test")
	if id := p.l.CursorID(); id != last {
		t.Fatalf("on the pinned row the cursor is on %d, want %d", id, last)
	}
}
