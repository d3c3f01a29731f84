package ui_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

func clock() time.Time { return viewtest.Now }

var (
	sbOnce sync.Once
	sbRun  *sandbox.Running
	sbErr  error
)

// testSandbox is one in-process sandbox (small, seed 1, fixed clock) shared by the tests of
// this package; tests that write use their own.
func testSandbox(t testing.TB) *sandbox.Running {
	t.Helper()
	sbOnce.Do(func() {
		sbRun, sbErr = sandbox.Start(context.Background(), sandbox.Options{Size: "small", Seed: 1, Now: clock, BurstRate: -1}, "127.0.0.1:0")
	})
	if sbErr != nil {
		t.Fatalf("start sandbox: %v", sbErr)
	}
	return sbRun
}

// newClient is a client of sb with the customer token; without an HTTP client in cfg it
// has a transport of the test's own (viewtest.Transport), whose connections close before
// the sandbox does.
func newClient(t testing.TB, sb *sandbox.Running, cfg client.Config) *client.Client {
	t.Helper()
	cfg.BaseURL = sb.URL
	cfg.Token = sb.Server.Info().CustomerToken
	if cfg.Now == nil {
		cfg.Now = clock
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Transport: viewtest.Transport(t)}
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newApp builds the root model on the shared sandbox with plain (no colour) styles.
func newApp(t testing.TB, c *client.Client) *ui.App {
	t.Helper()
	return newAppWith(t, c, nil)
}

// newAppWith is newApp with the options set changes (nil: none).
func newAppWith(t testing.TB, c *client.Client, set func(*ui.Options)) *ui.App {
	t.Helper()
	o := ui.Options{
		Client:          c,
		Styles:          theme.Plain(false),
		Keys:            keymap.Default(),
		Now:             clock,
		Timer:           viewtest.After, // timers fire when the test moves its clock
		Demo:            true,
		RefreshInterval: 30 * time.Second,
		RequestBudget:   400,
		PageSize:        100,
	}
	if set != nil {
		set(&o)
	}
	return ui.New(o)
}

// driver runs a model in a viewtest.Loop: every message it is given is followed by what it
// leads to (requests answered, forms moved), and waitFor delivers messages until the view
// shows a text. Nothing waits for an amount of time: timers (rest, auto-refresh, toasts)
// run on the loop's clock; they fire, in their order, when the test lets time pass (Quiet)
// or waits for something while nothing else is on its way.
type driver struct {
	*viewtest.Loop
	t testing.TB
}

func newDriver(t testing.TB, m tea.Model, w, h int) *driver {
	d := &driver{Loop: viewtest.NewLoop(t, m), t: t}
	d.Run(m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// startOn runs the App at w×h on a client of sb and waits for the conversation list.
func startOn(t testing.TB, sb *sandbox.Running, w, h int) (*ui.App, *client.Client, *driver) {
	t.Helper()
	c := newClient(t, sb, client.Config{})
	app := newApp(t, c)
	d := newDriver(t, app, w, h)
	d.waitList("conversations")
	return app, c, d
}

// send delivers msg and what it leads to.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	d.Deliver(msg)
	d.Settle()
}

// read delivers what the input reader makes of input written in one write, and what it
// leads to.
func (d *driver) read(input string) {
	d.t.Helper()
	d.Read(input)
	d.Settle()
}

// key sends key presses ("j", "enter", "esc", "tab", "ctrl+d", " " …).
func (d *driver) key(keys ...string) {
	d.t.Helper()
	d.Key(keys...)
}

func (d *driver) view() string { return d.Model.View().Content }

// waitList delivers messages until the view shows a list of noun with its first page.
func (d *driver) waitList(noun string) string {
	d.t.Helper()
	re := viewtest.ListShown(noun)
	d.Until("the view to show the "+noun, func() bool { return re.MatchString(d.view()) })
	return d.view()
}

// waitFor delivers messages until the view contains text.
func (d *driver) waitFor(text string) string {
	d.t.Helper()
	d.Until("the view to show "+text, func() bool { return strings.Contains(d.view(), text) })
	return d.view()
}
