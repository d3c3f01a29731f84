package ui

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestAutoRefreshWithAFastClockMissesNothing: with the local clock (the app's and the
// client's) 10 minutes ahead of the server's, a conversation changed on the server between
// two auto-refresh ticks shows after the second.
func TestAutoRefreshWithAFastClockMissesNothing(t *testing.T) {
	t.Parallel()
	s := viewtest.NewSkewed(t, 10*time.Minute, sandbox.Options{})
	a := New(Options{Timer: viewtest.After, Client: s.Client, Styles: theme.Plain(false), Keys: keymap.Default(),
		Now: s.Local, RefreshInterval: 30 * time.Second, RequestBudget: 400, PageSize: 100})
	l := viewtest.NewLoop(t, a)
	l.Deliver(tea.WindowSizeMsg{Width: 120, Height: 40})
	l.Run(a.Init())
	tr := a.route.Screens[0].(*conversations.Model)
	l.Until("the conversations", func() bool { return len(tr.List.Rows()) >= 5 && !tr.List.Loading() })
	l.Settle()
	id := tr.List.Rows()[4].ID
	s.Server.Add(30 * time.Second)
	if _, err := viewtest.Client(t, s.Sandbox).SetConversationTopics(t.Context(), id, []string{"Clock skew"}); err != nil {
		t.Fatal(err)
	}
	s.Server.Add(30 * time.Second)
	l.Deliver(autoTickMsg{gen: a.autoGen})
	l.Settle()
	if r, _ := tr.List.Row(id); !slices.Contains(r.Topics, "Clock skew") {
		t.Fatalf("conversation %d changed on the server between two ticks; the list shows topics %q", id, r.Topics)
	}
}
