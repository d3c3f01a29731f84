package contacts_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/views/viewtest"
)

// Keys pressed while r is in flight move the cursor, and the answer keeps it on the contact
// it was moved to.
func TestRefreshKeepsTheRowMovedToWhileInFlight(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if len(m.Rows()) < 20 {
		t.Fatalf("the test needs 20 rows, got %d", len(m.Rows()))
	}
	for range 5 {
		m, _ = m.Update(viewtest.Key("j"))
	}
	var refresh tea.Cmd
	m, refresh = m.Update(viewtest.Key("r"))
	for range 3 {
		m, _ = m.Update(viewtest.Key("j"))
	}
	moved, _ := m.Selected()
	m = viewtest.Settle(m, refresh, wait)
	if r, _ := m.Selected(); r.ID != moved.ID || m.Cursor() != 8 {
		t.Fatalf("after the refresh the cursor is on contact %d (row %d), not on %d (row 8) where it was moved while the refresh ran",
			r.ID, m.Cursor(), moved.ID)
	}
}

// A contact created under a search reloads the first page with the cursor on the new
// contact; a move made while that page is in flight wins over it.
func TestReloadAfterACreateKeepsAMoveMadeMeanwhile(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if len(m.Rows()) < 20 {
		t.Fatalf("the test needs 20 rows, got %d", len(m.Rows()))
	}
	target := m.Rows()[10].ID // stands for the contact just created
	m = viewtest.Settle(m, m.Reload(target), wait)
	if r, _ := m.Selected(); r.ID != target {
		t.Fatalf("the reload put the cursor on %d, not on contact %d", r.ID, target)
	}

	m, _ = m.Update(viewtest.Key("g"))
	reload := m.Reload(target)
	for range 2 {
		m, _ = m.Update(viewtest.Key("j"))
	}
	moved, _ := m.Selected()
	m = viewtest.Settle(m, reload, wait)
	if r, _ := m.Selected(); r.ID != moved.ID {
		t.Fatalf("the reload put the cursor on %d, not on %d where it was moved meanwhile", r.ID, moved.ID)
	}
}
