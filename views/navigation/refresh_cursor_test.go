package navigation_test

import (
	"testing"
	"time"

	"github.com/parley-tui/parley/views/viewtest"
)

// Keys pressed while r is in flight move the cursor, and the answer keeps it on the event
// it was moved to.
func TestRefreshKeepsTheRowMovedToWhileInFlight(t *testing.T) {
	e := newEnv(t)
	_, m := open(t, e, 80, 24)
	for range 5 {
		m.Update(viewtest.Key("j"))
	}
	_, refresh := m.Update(viewtest.Key("r"))
	for range 3 {
		m.Update(viewtest.Key("j"))
	}
	moved, _ := m.Selected()
	for _, msg := range viewtest.Run(refresh, 5*time.Second) {
		m.Update(msg)
	}
	if m.Loading() {
		t.Fatal("the refresh did not land")
	}
	if r, _ := m.Selected(); r.ID != moved.ID || r.ID != m.Rows()[8].ID {
		t.Fatalf("after the refresh the cursor is on event %d, not on %d (the ninth row) where it was moved while the refresh ran", r.ID, moved.ID)
	}
}
