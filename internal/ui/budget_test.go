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
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/navigation"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// policyApp runs the root model with auto-refresh every 30 s on a sandbox whose clock, like
// the app's and the client's, is clock; the client's events reach the app (through the
// loop, as messages of their own: a command that waits on Options.Events would never let
// the loop settle), and cfg (when not nil) may change the client's configuration first.
// The conversations screen is loaded.
func policyApp(t *testing.T, opts sandbox.Options, o Options, cfg ...func(*client.Config, *sandbox.Running)) (*appLoop, *viewtest.MovingClock) {
	t.Helper()
	log := &viewtest.RequestLog{}
	clock := viewtest.NewMovingClock(viewtest.Now)
	opts.RequestLog, opts.Now = log, clock.Now
	sb := viewtest.Sandbox(t, opts)
	var loop *viewtest.Loop // set before the first request
	cc := client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken, Now: clock.Now,
		HTTPClient: &http.Client{Transport: viewtest.Transport(t)},
		OnEvent: func(e client.Event) {
			loop.Run(func() tea.Msg { return eventMsg{e} })
		}}
	for _, f := range cfg {
		f(&cc, sb)
	}
	c, err := client.New(cc)
	if err != nil {
		t.Fatal(err)
	}
	viewtest.Ctx(c) // plain colours
	o.Client, o.Styles, o.Keys, o.Now, o.PageSize = c, theme.Plain(false), keymap.Default(), clock.Now, 100
	o.Timer = viewtest.After
	if o.RefreshInterval == 0 {
		o.RefreshInterval = 30 * time.Second
	}
	app := New(o)
	tap := &rawTap{App: app}
	loop = viewtest.NewLoop(t, tap)
	l := &appLoop{Loop: loop, t: t, app: app, log: log, raw: tap}
	l.Run(app.Init())
	l.Deliver(tea.WindowSizeMsg{Width: 160, Height: 30})
	tr := app.Screen().(*conversations.Model)
	l.Until("the conversations", func() bool { return tr.List.Loaded() && !tr.List.Loading() && len(tr.List.Rows()) > 0 })
	l.Quiet(30 * time.Millisecond)
	return l, clock
}

// tick moves the clock to the armed auto-refresh tick and delivers it; it reports
// whether the app asked the screen for an auto-refresh.
func (l *appLoop) tick(clock *viewtest.MovingClock) bool {
	l.t.Helper()
	due := l.app.AutoDue()
	if due.IsZero() {
		l.t.Fatalf("no auto-refresh tick armed; status bar %q", l.statusBar())
	}
	clock.Add(due.Sub(clock.Now()))
	before := l.app.auto.lastRun
	l.Deliver(l.app.AutoTick())
	return !l.app.auto.lastRun.Equal(before)
}

// poll is tick for the conversations screen: when the app refreshed, it waits for the
// request in the sandbox's log.
func (l *appLoop) poll(clock *viewtest.MovingClock) bool {
	l.t.Helper()
	n := l.conversationsPolled()
	if !l.tick(clock) {
		l.Quiet(10 * time.Millisecond)
		return false
	}
	deadline := time.Now().Add(10 * time.Second)
	l.Until("the auto-refresh", func() bool {
		if time.Now().After(deadline) {
			for _, r := range l.log.Lines() {
				l.t.Logf("%s %s %s %d", r.Method, r.Path, r.Query, r.Status)
			}
			l.t.Fatalf("no auto-refresh request")
		}
		return l.conversationsPolled() == n+1
	})
	return true
}

// conversationsPolled counts the sandbox's conversations list requests of auto-refresh
// (they ask for what changed since the last refresh).
func (l *appLoop) conversationsPolled() int {
	n := 0
	for _, r := range l.log.Lines() {
		if r.Method == "GET" && strings.HasSuffix(r.Path, "/conversations/") && strings.Contains(r.Query, "updated_at_from_date") {
			n++
		}
	}
	return n
}

// TestOperatorsListOnTheRootsTimerAndSlotsSlower: the operators screen has no timer of
// its own. While it is shown the root's auto-refresh refreshes its list (one operators
// request) at the configured interval, the status bar says so, and the slots of the rows
// in view come along only every common.SlotsFactor refreshes. An away change made by
// someone else shows within one interval.
func TestOperatorsListOnTheRootsTimerAndSlotsSlower(t *testing.T) {
	t.Parallel()
	l, clock := policyApp(t, sandbox.Options{}, Options{RequestBudget: 500})
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators and slots", func() bool { return ops.Loaded() && !ops.Busy() })
	if p, _ := l.app.autoPace(); p.Every != 30*time.Second {
		t.Fatalf("the root paces the operators screen at %v, want 30s", p.Every)
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto 30s") {
		t.Fatalf("the status bar does not show the pace: %q", bar)
	}
	info := l.app.ctx.Client
	other := ops.Rows()[2]
	if _, err := info.SetOperatorAway(t.Context(), other.ID, !other.IsAway.V); err != nil {
		t.Fatal(err)
	}
	lists, slots := l.log.Count("GET", "/operators/"), l.log.Count("GET", "/slots/")
	l.tick(clock)
	l.Until("the refresh", func() bool { return l.log.Count("GET", "/operators/") == lists+1 && !ops.Busy() })
	if r := ops.Rows()[2]; r.IsAway == other.IsAway {
		t.Fatalf("the away change of %s does not show after one interval", r.Name)
	}
	if n := l.log.Count("GET", "/slots/"); n != slots {
		t.Fatalf("the refresh asked for %d slots, want none", n-slots)
	}
	for i := range common.SlotsFactor - 1 {
		l.Key([]string{"j", "k"}[i%2]) // someone works: the pace stays
		l.tick(clock)
		l.Until("the refresh", func() bool { return !ops.Busy() })
	}
	if n := l.log.Count("GET", "/operators/"); n != lists+common.SlotsFactor {
		t.Fatalf("%d list requests in %d intervals", n-lists, common.SlotsFactor)
	}
	if n := l.log.Count("GET", "/slots/"); n == slots {
		t.Fatalf("no slots after %d refreshes", common.SlotsFactor)
	}
}

// TestEachScreenPacedByWhatItRefreshes: the navigation screen's auto-refresh is paced by
// the navigation family's use, not by the conversations family's; the contacts and
// analytics screens never auto-refresh, so no tick is armed while they are shown and the
// status bar does not claim a pace for them.
func TestEachScreenPacedByWhatItRefreshes(t *testing.T) {
	t.Parallel()
	l, _ := policyApp(t, sandbox.Options{}, Options{RequestBudget: 50})
	c := l.app.ctx.Client
	for c.Usage(client.FamilyConversations) < 36 { // 4 of the allowance of 40 left: 8 intervals
		if _, err := c.ListConversations(client.Fresh(t.Context()), client.ConversationListOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	l.Key("j") // the status bar is drawn again
	if bar := l.statusBar(); !strings.Contains(bar, "auto 4m (budget)") {
		t.Fatalf("conversations: %q", bar)
	}

	l.Key("5")
	nav := l.app.Screen().(*navigation.Model)
	l.Until("the navigation events", nav.Loaded)
	if p, _ := l.app.autoPace(); p.Every != 30*time.Second {
		t.Fatalf("the root paces the navigation screen at %v, want 30s (its own family is unspent)", p.Every)
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto 30s") || strings.Contains(bar, "(budget)") {
		t.Fatalf("navigation: %q", bar)
	}

	for _, s := range []struct{ key, name string }{{"2", "contacts"}, {"4", "analytics"}} {
		l.Key(s.key)
		l.Settle()
		if due := l.app.AutoDue(); !due.IsZero() {
			t.Errorf("%s: a tick is armed for %v", s.name, due)
		}
		if bar := l.statusBar(); strings.Contains(bar, "auto ") || !strings.Contains(bar, "no auto-refresh here") {
			t.Errorf("%s: %q", s.name, bar)
		}
	}

	l.Key("1")
	if due := l.app.AutoDue(); due.IsZero() {
		t.Fatal("back on the conversations no tick is armed")
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto 4m (budget)") {
		t.Fatalf("back on the conversations: %q", bar)
	}
}
