package list_test

import (
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// lineOf is line y of the list's view.
func lineOf(p pane, y int) string { return strings.Split(p.l.View(), "\n")[y] }

// A click selects the row drawn on the line clicked (one-line and two-line rows, after the
// window scrolled); a second click on it reports it as selected (to open); the header, the
// footer and the room below the last row reach nothing.
func TestClickSelectsTheRowDrawnThere(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, _ := newPane(t, c, nil, 100, 80, 12, list.Options{})
	p = viewtest.Settle(p, p.l.Load(false), wait)
	for _, y := range []int{3, 1, 10} {
		hit, _ := p.l.Click(y)
		r, _ := p.l.Selected()
		if hit != list.HitMoved || !strings.Contains(lineOf(p, y), r.Name) {
			t.Fatalf("click on line %d: %v, selected %q, the line shows %q", y, hit, r.Name, lineOf(p, y))
		}
		if hit, _ := p.l.Click(y); hit != list.HitSelected {
			t.Fatalf("a second click on line %d: %v, want HitSelected", y, hit)
		}
	}
	before := p.l.Cursor()
	for _, y := range []int{0, 11, -1, 12} {
		if hit, _ := p.l.Click(y); hit != list.HitNone || p.l.Cursor() != before {
			t.Fatalf("click on line %d: %v, cursor %d (was %d)", y, hit, p.l.Cursor(), before)
		}
	}

	p = viewtest.Down(p, 25) // the window scrolled
	for _, y := range []int{1, 6} {
		hit, _ := p.l.Click(y)
		r, _ := p.l.Selected()
		if hit != list.HitMoved || !strings.Contains(lineOf(p, y), r.Name) || p.l.Cursor() < 10 {
			t.Fatalf("scrolled, click on line %d: %v, cursor %d on %q, the line shows %q", y, hit, p.l.Cursor(), r.Name, lineOf(p, y))
		}
	}

	p.l.SetSize(40, 12) // two lines a row: a header, five rows, a footer
	p.l.Click(1)
	first := p.l.Cursor()
	for y, want := range map[int]int{2: 0, 3: 1, 4: 1, 9: 4, 10: 4} {
		p.l.Click(y)
		if p.l.Cursor() != first+want {
			t.Fatalf("two-line rows, click on line %d: cursor %d, want %d", y, p.l.Cursor(), first+want)
		}
	}
}

// Empty, a list's lines reach no row.
func TestClickOnAnEmptyListReachesNothing(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, _ := newPane(t, c, nil, 100, 80, 12, list.Options{})
	if hit, cmd := p.l.Click(2); hit != list.HitNone || cmd != nil {
		t.Fatalf("a click before the first page: %v", hit)
	}
}

// The pinned row is clicked like any other: onto it, then a second click reports it
// selected; a click on a row below leaves it.
func TestClickOnAndOffThePinnedRow(t *testing.T) {
	t.Parallel()
	p, _ := pinnedPane(t)
	if hit, _ := p.l.Click(1); hit != list.HitSelected {
		t.Fatalf("a click on the pinned row under the cursor: %v", hit)
	}
	if hit, _ := p.l.Click(3); hit != list.HitMoved || p.l.OnPinned() {
		t.Fatalf("a click on the second row: %v, on pinned %v", hit, p.l.OnPinned())
	}
	if r, _ := p.l.Selected(); r.ID != p.l.Rows()[1].ID {
		t.Fatalf("selected %d, want the second row %d", r.ID, p.l.Rows()[1].ID)
	}
	if hit, _ := p.l.Click(1); hit != list.HitMoved || !p.l.OnPinned() {
		t.Fatalf("a click back on the pinned row: %v, on pinned %v", hit, p.l.OnPinned())
	}
}

// The wheel moves the cursor a row a step, onto and off the pinned row, and the next page
// is asked for as the cursor nears the loaded end, as with the keys.
func TestWheelMovesTheCursorAndLoadsAhead(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, _ := newPane(t, c, nil, 10, 80, 6, list.Options{}) // four rows in view
	p = viewtest.Settle(p, p.l.Load(false), wait)
	if n := len(p.l.Rows()); n != 10 {
		t.Fatalf("%d rows loaded, want a page of 10", n)
	}
	for range 3 {
		p = viewtest.Settle(p, p.l.Wheel(1), wait)
	}
	if p.l.Cursor() != 3 {
		t.Fatalf("three steps down: cursor %d", p.l.Cursor())
	}
	for range 5 {
		p = viewtest.Settle(p, p.l.Wheel(1), wait)
	}
	if n := len(p.l.Rows()); p.l.Cursor() != 8 || n != 20 {
		t.Fatalf("cursor %d of 10 rows: %d rows loaded, want the next page too", p.l.Cursor(), n)
	}
	p = viewtest.Settle(p, p.l.Wheel(-20), wait)
	if p.l.Cursor() != 0 {
		t.Fatalf("a long step up: cursor %d", p.l.Cursor())
	}

	last := oldest(t, c)
	p.l.Pin(row{ID: last, Name: "pinned"}, "from a test")
	p.l.Wheel(1)
	if r, _ := p.l.Selected(); p.l.OnPinned() || r.ID != p.l.Rows()[0].ID {
		t.Fatalf("down from the pinned row: on pinned %v, selected %d", p.l.OnPinned(), r.ID)
	}
	p.l.Wheel(-1)
	if !p.l.OnPinned() {
		t.Fatal("up from the first row did not go onto the pinned row")
	}
	p.l.Wheel(-1)
	if !p.l.OnPinned() {
		t.Fatal("up from the pinned row left it")
	}
}
