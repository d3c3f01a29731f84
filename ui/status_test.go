package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestStatusBarShowsRateLimitCountdown: a retry after a 429 shows "rate-limited, retrying
// in Ns" and the count goes down with the clock until the wait is over.
func TestStatusBarShowsRateLimitCountdown(t *testing.T) {
	now := viewtest.Now
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Client: c, Styles: theme.New(nil, theme.Default(), false), Keys: keymap.Default(),
		Now: func() time.Time { return now }})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	a.Update(eventMsg{client.Event{Kind: client.EventRetry, Family: client.FamilyConversations, Status: 429, Delay: 5 * time.Second}})
	if v := a.View(); !strings.Contains(v, "rate-limited, retrying in 5s") {
		t.Fatalf("no countdown in the status bar:\n%s", lastLine(v))
	}
	now = now.Add(2 * time.Second)
	a.Update(statusTickMsg{})
	if v := a.View(); !strings.Contains(v, "rate-limited, retrying in 3s") {
		t.Fatalf("the countdown did not go down:\n%s", lastLine(v))
	}
	now = now.Add(4 * time.Second)
	a.Update(statusTickMsg{})
	if v := a.View(); strings.Contains(v, "rate-limited") {
		t.Fatalf("the wait is over but the status bar still says rate-limited:\n%s", lastLine(v))
	}
	a.Update(eventMsg{client.Event{Kind: client.EventQueued, Family: "analytics:um_conversation_duration", Delay: 30 * time.Second}})
	if v := a.View(); !strings.Contains(v, "analytics:um_conversation_duration queued, 30s") {
		t.Fatalf("no queue countdown:\n%s", lastLine(v))
	}
}

func lastLine(v string) string {
	lines := strings.Split(v, "\n")
	return lines[len(lines)-1]
}
