package operators_test

import (
	"testing"
	"time"

	"github.com/parley-tui/parley/views/viewtest"
)

// Keys pressed while r is in flight move the cursor, and the answer keeps it on the operator
// it was moved to.
func TestRefreshKeepsTheRowMovedToWhileInFlight(t *testing.T) {
	e := newEnv(t)
	_, m, _ := open(t, e, e.Client, 80, 24)
	if len(m.Rows()) < 4 {
		t.Fatalf("the test needs 4 operators, got %d", len(m.Rows()))
	}
	_, refresh := m.Update(viewtest.Key("r"))
	for range 3 {
		m.Update(viewtest.Key("j"))
	}
	moved, _ := m.Selected()
	for _, msg := range viewtest.RunSkippingTicks(refresh, 5*time.Second) {
		m.Update(msg)
	}
	if m.Loading() {
		t.Fatal("the refresh did not land")
	}
	if r, _ := m.Selected(); r.ID != moved.ID || r.ID != m.Rows()[3].ID {
		t.Fatalf("after the refresh the cursor is on operator %d, not on %d (the fourth row) where it was moved while the refresh ran", r.ID, moved.ID)
	}
}
