package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/layout"
	"github.com/parley-tui/parley/views/operators"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestOperatorsRefreshOnTheRootsTimerAtTheirPace: the operators screen has no timer of its
// own. While it is shown, the root's auto-refresh ticks at the pace of the operators
// family's budget and of what one refresh of the screen costs (the list and the slots in
// view), the status bar says that pace, and a tick refreshes the screen.
func TestOperatorsRefreshOnTheRootsTimerAtTheirPace(t *testing.T) {
	log := &viewtest.RequestLog{}
	sb := viewtest.Sandbox(t, sandbox.Options{RequestLog: log})
	clock := viewtest.NewMovingClock(viewtest.Now)
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken, Now: clock.Now,
		HTTPClient: &http.Client{Transport: viewtest.Transport(t)}})
	if err != nil {
		t.Fatal(err)
	}
	viewtest.Ctx(c) // plain colours
	app := New(Options{Client: c, Styles: theme.New(nil, theme.Default(), false), Keys: keymap.Default(),
		Now: clock.Now, RefreshInterval: 30 * time.Second, RequestBudget: 400, PageSize: 100})
	l := &appLoop{Loop: viewtest.NewLoop(t, app), t: t, app: app, log: log}
	l.Run(app.Init())
	l.Deliver(tea.WindowSizeMsg{Width: 120, Height: 30})
	conv, _ := app.autoInterval()

	l.Key("3")
	ops := app.Screen().(*operators.Model)
	l.Until("operators and slots", func() bool { return ops.Loaded() && !ops.Busy() })
	want, paused := ops.AutoInterval()
	if got, _ := app.autoInterval(); paused || got != want || got == conv {
		t.Fatalf("the root paces the operators screen at %v, want its own %v (conversations: %v)", got, want, conv)
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto "+layout.ShortDuration(want)) {
		t.Fatalf("the status bar does not show the operators' pace %v: %q", want, bar)
	}
	lists := log.Count("GET", "/v3/operators/")
	clock.Add(want)
	l.Deliver(autoTickMsg{gen: app.autoGen})
	l.Until("the refresh", func() bool { return log.Count("GET", "/v3/operators/") == lists+1 && !ops.Busy() })
}
