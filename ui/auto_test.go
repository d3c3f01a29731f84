package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/viewtest"
)

// feed delivers msgs (and what they lead to, one level deep per round) to the app.
func feed(a *App, msgs []tea.Msg) {
	for len(msgs) > 0 {
		var next []tea.Msg
		for _, m := range msgs {
			_, cmd := a.Update(m)
			next = append(next, viewtest.Run(cmd, time.Second)...)
		}
		msgs = next
	}
}

// TestAutoRefreshKeepsTickingUnderAForm: with the filter form open, the auto-refresh tick
// still refreshes the visible page (asking only for what changed) and schedules the next.
func TestAutoRefreshKeepsTickingUnderAForm(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	a := New(Options{Client: c, Styles: theme.New(nil, theme.Default(), false), Keys: keymap.Default(),
		Now: viewtest.Clock, RefreshInterval: 30 * time.Second, RequestBudget: 400, PageSize: 100})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	feed(a, viewtest.Run(a.Init(), time.Second))
	if !strings.Contains(a.View(), "conversations ·") {
		t.Fatalf("list not loaded:\n%s", a.View())
	}
	feed(a, viewtest.Run(func() tea.Msg { return viewtest.Key("f") }, time.Second))
	if len(a.overlays) != 1 {
		t.Fatalf("the filter form did not open (%d overlays)", len(a.overlays))
	}
	before := c.Usage(client.FamilyConversations)
	_, cmd := a.Update(autoTickMsg{gen: a.autoGen})
	msgs := viewtest.Run(cmd, time.Second)
	var merged bool
	for _, m := range msgs {
		merged = merged || fmt.Sprintf("%T", m) == "conversations.mergeMsg"
	}
	if !merged {
		t.Fatalf("the tick under an open form did not refresh the list; got %T", msgs)
	}
	if used := c.Usage(client.FamilyConversations) - before; used != 1 {
		t.Fatalf("an auto-refresh cost %d requests, want 1", used)
	}
	if len(a.overlays) != 1 {
		t.Fatal("the auto-refresh closed the form")
	}
}
