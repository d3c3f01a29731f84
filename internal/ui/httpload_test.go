package ui_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// loadThroughHTTP is the root model on a client of the sandbox at url (its memory on, at
// its default size, as the TUI configures it), loaded at 120×40 the way a user loads it:
// the first page, then ctrl+d (the next page loads before the cursor reaches the end),
// each page drawn, until at least rows conversations are in; then conversation thread
// opened and scrolled back a page at a time (ctrl+u; g would jump to the first message and
// leave the rest unloaded) to its first message. The thread has the focus. It returns the
// app and its conversations screen.
func loadThroughHTTP(tb testing.TB, url, token string, rows int, thread int64) (*ui.App, *conversations.Model) {
	tb.Helper()
	c, err := client.New(client.Config{BaseURL: url, Token: token, Now: clock, CacheTTL: 2 * time.Minute})
	if err != nil {
		tb.Fatal(err)
	}
	// In the server's id order, the one that browses past the offset cap (the default, by
	// last message, stops at 10,000 rows).
	app := ui.New(ui.Options{Client: c, Styles: theme.New(theme.Default(), true, false), Keys: keymap.Default(),
		Now: clock, RefreshInterval: 30 * time.Second, RequestBudget: 5000, PageSize: 100,
		Orderings: map[string]string{common.ViewsConversations: "-id"}})
	loop := viewtest.NewLoop(tb, app)
	loop.Run(app.Init())
	loop.Deliver(tea.WindowSizeMsg{Width: 120, Height: 40})
	tri := app.Screen().(*conversations.Model)
	loop.Until("the first page", func() bool { return len(tri.List.Rows()) > 0 && !tri.List.Loading() })
	for stalled := 0; len(tri.List.Rows()) < rows; {
		had := len(tri.List.Rows())
		loop.Deliver(viewtest.Key("ctrl+d"))
		_ = app.Render()
		loop.Until("the next page", func() bool { return !tri.List.Loading() })
		if stalled++; len(tri.List.Rows()) > had {
			stalled = 0
		} else if stalled > 200 { // a page holds 100 rows, ctrl+d moves less: it stopped
			tb.Fatalf("the list stopped at %d rows of the %d wanted (total %d)", had, rows, tri.List.Total())
		}
	}
	loop.Deliver(common.OpenConversationMsg{ConversationID: thread, From: "the test"})
	loop.Until("the thread", func() bool {
		return tri.Msgs.ConversationID() == thread && tri.Msgs.Loaded() > 0 && !tri.Msgs.Loading()
	})
	for tri.Msgs.HasOlder() {
		loop.Deliver(viewtest.Key("ctrl+u"))
		_ = app.Render()
		loop.Until("the older messages", func() bool { return !tri.Msgs.Loading() })
	}
	return app, tri
}
