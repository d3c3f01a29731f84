package ui_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/ui"
	"github.com/parley-tui/parley/views/viewtest"
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

func newClient(t testing.TB, sb *sandbox.Running, cfg client.Config) *client.Client {
	t.Helper()
	cfg.BaseURL = sb.URL
	cfg.Token = sb.Server.Info().CustomerToken
	if cfg.Now == nil {
		cfg.Now = clock
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
	lipgloss.SetColorProfile(termenv.Ascii)
	st := theme.New(nil, theme.Default(), false)
	return ui.New(ui.Options{
		Client:          c,
		Styles:          st,
		Keys:            keymap.Default(),
		Now:             clock,
		Demo:            true,
		RefreshInterval: 30 * time.Second,
		RequestBudget:   400,
		PageSize:        100,
	})
}

// driver feeds messages to a model and runs the commands they return, synchronously, the
// way Bubble Tea would; commands that do not finish within wait (long ticks, listeners)
// are abandoned.
type driver struct {
	t     testing.TB
	model tea.Model
	wait  time.Duration
}

func newDriver(t testing.TB, m tea.Model, w, h int) *driver {
	d := &driver{t: t, model: m, wait: time.Second}
	d.run(m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// send delivers msg and runs everything it leads to.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	var cmd tea.Cmd
	d.model, cmd = d.model.Update(msg)
	d.run(cmd)
}

func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	if cmd == nil {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(d.wait):
		return // a long tick or a listener: not part of this step
	}
	if msg == nil {
		return
	}
	if cmds, ok := viewtest.SubCommands(msg); ok {
		for _, c := range cmds {
			d.run(c)
		}
		return
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		return
	}
	if t := reflect.TypeOf(msg); t != nil && strings.HasSuffix(t.PkgPath(), "bubbles/cursor") {
		return // cursor blinks re-arm themselves forever
	}
	d.send(msg)
}

// key sends key presses ("j", "enter", "esc", "tab", "ctrl+d", " " …).
func (d *driver) key(keys ...string) {
	d.t.Helper()
	for _, k := range keys {
		d.send(viewtest.Key(k))
	}
}

func (d *driver) view() string { return d.model.View() }

// waitFor runs until the view contains text (results may still be arriving).
func (d *driver) waitFor(text string) string {
	d.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := d.view()
		if strings.Contains(v, text) {
			return v
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("view never showed %q:\n%s", text, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
