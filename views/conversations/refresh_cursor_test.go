package conversations_test

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

// Keys pressed while r is in flight move the cursor, and the answer keeps it on the row it
// was moved to, by id: here an ended conversation above it went meanwhile, so that row's
// place in the new rows is one higher than it was.
func TestRefreshKeepsTheRowMovedToWhileInFlight(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 120, 20)
	// Ended conversations, which may be deleted.
	m = viewtest.Settle(m, m.SetQuery(conversations.Query{Filter: client.ConversationFilter{Status: client.StatusEnded}}), wait)
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
	if moved.ID != m.Rows()[8].ID {
		t.Fatalf("j moved the cursor to %d, not to the ninth row %d", moved.ID, m.Rows()[8].ID)
	}
	if err := c.DeleteConversation(context.Background(), m.Rows()[2].ID); err != nil {
		t.Fatal(err)
	}
	m = viewtest.Settle(m, refresh, wait)
	if r, _ := m.Selected(); r.ID != moved.ID {
		t.Fatalf("after the refresh the cursor is on %d, not on %d where it was moved while the refresh ran", r.ID, moved.ID)
	}
	if m.Rows()[7].ID != moved.ID {
		t.Fatalf("the refresh did not take the deletion: row 8 is %d, want %d", m.Rows()[7].ID, moved.ID)
	}
}
