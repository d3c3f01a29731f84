package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// Texts that name a key name it as bound: with next pane, open, back, order and quit
// rebound, the pane titles, the empty thread, the rank-order toasts and the too-small
// screen say the new keys.
func TestTextsNameTheKeysAsBound(t *testing.T) {
	t.Parallel()
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"next_pane": {"ctrl+n"}, "open": {"enter", "right"},
		"back": {"esc", "ctrl+g"}, "order": {"O"}, "quit": {"Q"},
		"reopen": {"R"}}); err != nil { // O is reopen by default
		t.Fatal(err)
	}
	l, _ := startAppWithKeys(t, nil, keys, 80, 24)
	tri := l.app.Screen().(*conversations.Model)
	l.Until("conversations", func() bool { return len(tri.List.Rows()) > 0 })
	view := func() string { return ansi.Strip(l.app.Render()) }
	if v := view(); !strings.Contains(v, "Conversations  (ctrl+n: next pane)") {
		t.Errorf("the pane title names tab, not ctrl+n:\n%s", v)
	}
	l.Deliver(tea.WindowSizeMsg{Width: 120, Height: 40})
	if v := view(); !strings.Contains(v, "Select a conversation (enter/right opens it).") {
		t.Errorf("the empty thread does not name the open keys:\n%s", v)
	}

	l.Key("/")
	l.Key("refund", "enter")
	l.Until("the search", func() bool { return tri.List.Query().Search == "refund" && !tri.List.Loading() })
	l.Key("O")
	if got, want := l.toasts(), "esc/ctrl+g clears the search, then O orders the list."; !strings.Contains(got, want) {
		t.Errorf("conversations: toast %q, want it to say %q", got, want)
	}

	l.Key("2")
	l.Key("/", "refund", "enter")
	ct := l.app.Screen().(*contacts.Model)
	l.Until("the contact search", func() bool { return ct.List.Query().Search == "refund" && !ct.List.Loading() })
	l.Key("O")
	if got, want := l.toasts(), "esc/ctrl+g clears the search, then O orders"; !strings.Contains(got, want) {
		t.Errorf("contacts: toast %q, want it to say %q", got, want)
	}
	l.Deliver(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := view(); !strings.Contains(v, "Contacts  (ctrl+n: next pane)") {
		t.Errorf("the contacts pane title names tab, not ctrl+n:\n%s", v)
	}

	l.Deliver(tea.WindowSizeMsg{Width: 60, Height: 15})
	if v := view(); !strings.Contains(v, "press Q to quit") {
		t.Errorf("the too-small screen does not name Q:\n%s", v)
	}
}

// The status bar says which key still refreshes once the day's budget is spent, as bound.
func TestStatusBarNamesTheRefreshKeyAsBound(t *testing.T) {
	t.Parallel()
	e := viewtest.NewEnv(t, sandbox.Options{Size: "small", Seed: 1}, nil)
	if _, err := e.Client.ListConversations(t.Context(), client.ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"refresh": {"R"}}); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: e.Client, Styles: theme.Plain(false), Keys: keys, Now: viewtest.Clock,
		RequestBudget: 1, RefreshInterval: 30 * time.Second, Label: "api.example.com"})
	a.Update(common.RefreshedMsg{At: viewtest.Now})
	a.Update(tea.WindowSizeMsg{Width: 200, Height: 24})
	if bar := statusLine(a.Render()); !strings.Contains(bar, "auto off: the rest of the budget is kept for your requests (R still works)") {
		t.Fatalf("status bar: %q", bar)
	}
}
