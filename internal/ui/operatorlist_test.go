package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/operatorpick"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestOperatorListRequestsOfAVisitToEveryScreen: the operator list is read by the root
// (the directory), the operators screen, the assign picker and the analytics screen (the
// names of other organizations' operators). Starting parley, showing every screen once and
// opening the assign picker costs at most these operator list requests, with the client's
// memory on (as the TUI runs) and off (every read goes out).
func TestOperatorListRequestsOfAVisitToEveryScreen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ttl  time.Duration
		want int
	}{
		{"memory on", 2 * time.Minute, 3},
		{"memory off", 0, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &viewtest.RequestLog{}
			sb := viewtest.Sandbox(t, sandbox.Options{RequestLog: log})
			info := sb.Server.Info()
			c, err := client.New(client.Config{BaseURL: sb.URL, Token: info.CustomerToken, Now: viewtest.Clock, CacheTTL: tc.ttl,
				HTTPClient: &http.Client{Transport: viewtest.Transport(t)}})
			if err != nil {
				t.Fatal(err)
			}
			viewtest.Ctx(c) // plain colours
			app := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: viewtest.Clock,
				Demo: true, RequestBudget: 400, PageSize: 100, DefaultOperatorID: info.OwnerOperatorID})
			l := &appLoop{Loop: viewtest.NewLoop(t, app), t: t, app: app, log: log}
			l.Run(app.Init())
			l.Deliver(tea.WindowSizeMsg{Width: 160, Height: 40})
			l.Until("the operator directory", func() bool { return len(app.opList) > 0 })

			conv := app.Screen().(*conversations.Model)
			l.Until("the conversations", func() bool { return conv.List.Loaded() && !conv.List.Loading() })
			l.Key("A")
			l.Until("the assign picker", func() bool {
				n := len(app.route.Modals)
				if n == 0 {
					return false
				}
				_, ok := app.route.Modals[n-1].(*operatorpick.Model)
				return ok
			})
			l.Key("esc")
			l.Key("2")
			l.Key("esc") // the search prompt the first visit opens
			l.Key("3")
			ops := app.Screen().(*operators.Model)
			l.Until("the operators", func() bool { return ops.Loaded() && !ops.Busy() })
			l.Key("4")
			an := app.Screen().(*analytics.Model)
			l.Until("the analytics", func() bool { return an.Loaded() })
			l.Key("5")
			l.Quiet(20 * time.Millisecond)

			n := 0
			for _, r := range log.Lines() {
				if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/operators/") {
					n++
				}
			}
			if n > tc.want {
				for _, r := range log.Lines() {
					t.Logf("%s %s?%s %d", r.Method, r.Path, r.Query, r.Status)
				}
				t.Fatalf("%d operator list requests, want at most %d", n, tc.want)
			}
			t.Logf("%d operator list requests", n)
		})
	}
}
