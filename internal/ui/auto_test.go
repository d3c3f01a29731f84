package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// counting is the root model with the messages it handled counted by type.
type counting struct {
	*App
	viewtest.Seen
}

func (c *counting) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	c.Add(msg)
	_, cmd := c.App.Update(msg)
	return c, cmd
}

// TestAutoRefreshKeepsTickingUnderAForm: with the filter form open, the auto-refresh tick
// still refreshes the visible page (asking only for what changed) and schedules the next.
func TestAutoRefreshKeepsTickingUnderAForm(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	clock := viewtest.NewMovingClock(viewtest.Now)
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(),
		Now: clock.Now, RefreshInterval: 30 * time.Second, RequestBudget: 400, PageSize: 100})
	m := &counting{App: a}
	l := viewtest.NewLoop(t, m)
	l.Deliver(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.Run(a.Init())
	tri := a.Screen().(*conversations.Model)
	// The list, then the thread of the row the cursor rests on (after the rest timer).
	l.Until("the list and the first thread", func() bool {
		r, ok := tri.List.Selected()
		return ok && tri.Msgs.ConversationID() == r.ID && tri.Msgs.Loaded() > 0
	})
	l.Settle()
	l.Key("f")
	if len(a.route.Modals) != 1 {
		t.Fatalf("the filter form did not open (%d overlays)", len(a.route.Modals))
	}
	before, merges := c.Usage(client.FamilyConversations), m.Count("listing.mergeMsg")
	clock.Add(30 * time.Second)
	l.Deliver(autoTickMsg{gen: a.autoGen})
	l.Settle()
	if m.Count("listing.mergeMsg") == merges {
		t.Fatal("the tick under an open form did not refresh the list")
	}
	if used := c.Usage(client.FamilyConversations) - before; used != 1 {
		t.Fatalf("an auto-refresh cost %d requests, want 1", used)
	}
	if len(a.route.Modals) != 1 {
		t.Fatal("the auto-refresh closed the form")
	}
}
