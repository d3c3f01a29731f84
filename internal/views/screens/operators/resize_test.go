package operators_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A taller terminal shows more operators: their slots load once it is resized (the root
// tells the active screen, common.Resizer), without a key or an auto-refresh. A Host given
// the list before its size (as a fast answer can come) is the same case.
func TestSlotsLoadForOperatorsAResizeShows(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 9) // 3 operators visible
	l.Until("three slot requests", func() bool { return e.Log.Count("GET", "/slots/") >= 3 })
	l.Deliver(tea.WindowSizeMsg{Width: 80, Height: 24})
	l.Until("the slots of every operator shown", func() bool {
		for _, r := range m.Rows() {
			if _, _, ok := m.Slots(r.ID); !ok {
				return false
			}
		}
		return !m.Busy()
	})
	if n, rows := e.Log.Count("GET", "/slots/"), len(m.Rows()); n != rows {
		t.Fatalf("%d slot requests for %d operators", n, rows)
	}
}
