package ui

import (
	"net/http"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestHubSessionsShareTheOperatorsRefresh: two sessions of the hub (one client with shared
// reads, each session its own operator) show the operators screen; when both auto-refresh
// at the same tick, the operators list is asked for once: the second takes the first's
// answer (common.Ctx.SharePolls). Two parleys outside the hub ask twice, and a session's
// own answer of the last tick is too old for its next one.
func TestHubSessionsShareTheOperatorsRefresh(t *testing.T) {
	t.Parallel()
	for _, hub := range []bool{true, false} {
		log := &viewtest.RequestLog{}
		clock := viewtest.NewMovingClock(viewtest.Now)
		sb := viewtest.Sandbox(t, sandbox.Options{RequestLog: log, Now: clock.Now})
		c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken, Now: clock.Now,
			CacheTTL: 2 * time.Minute, HTTPClient: &http.Client{Transport: viewtest.Transport(t)}})
		if err != nil {
			t.Fatal(err)
		}
		viewtest.Ctx(c) // plain colours
		shared := c.ShareReads(0)
		var loops []*appLoop
		for i := range 2 {
			o := Options{Timer: viewtest.After, Client: shared.WithContext(0, int64(2001+i)), Styles: theme.Plain(false), Keys: keymap.Default(),
				Now: clock.Now, PageSize: 100, RefreshInterval: 30 * time.Second, RequestBudget: 5000}
			if hub {
				o.Team = &fakeTeam{sessions: map[int64]int{1001: 2}, every: 30 * time.Second}
			}
			app := New(o)
			l := &appLoop{Loop: viewtest.NewLoop(t, app), t: t, app: app, log: log}
			l.Run(app.Init())
			l.Deliver(tea.WindowSizeMsg{Width: 160, Height: 30})
			l.Key("3")
			l.Until("the operators", func() bool {
				op, ok := app.Screen().(*operators.Model)
				return ok && op.Loaded() && !op.Loading()
			})
			l.Quiet(30 * time.Millisecond)
			loops = append(loops, l)
		}
		list := func() int { return log.Count("GET", "/api/um/v3/operators/") }
		for round := 1; round <= 2; round++ {
			before := list()
			for _, l := range loops {
				if !l.tick(clock) {
					t.Fatalf("hub=%v, round %d: the tick asked for no auto-refresh", hub, round)
				}
				l.Until("the refreshed operators", func() bool {
					op := l.app.Screen().(*operators.Model)
					return !op.Loading()
				})
				l.Quiet(30 * time.Millisecond)
			}
			want := 2
			if hub {
				want = 1
			}
			if got := list() - before; got != want {
				t.Errorf("hub=%v, round %d: the two sessions' auto-refresh asked for the operators list %d times, want %d", hub, round, got, want)
			}
		}
	}
}
