package ui

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// boom is a screen that panics on a key, in a command and, once told to, in View.
type boom struct {
	common.Screen
	state *boomState
}

type boomState struct {
	mu        sync.Mutex
	viewPanic bool
}

func (b boom) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch k.String() {
		case "x":
			panic("bad data in Update")
		case "z":
			return b, tea.Batch(nil, func() tea.Msg { panic("bad data in a command") })
		case "v":
			b.state.mu.Lock()
			b.state.viewPanic = true
			b.state.mu.Unlock()
		}
	}
	return b, nil
}

func (b boom) View() string {
	b.state.mu.Lock()
	bad := b.state.viewPanic
	b.state.mu.Unlock()
	if bad {
		panic("bad data in View")
	}
	return b.Screen.View()
}

// reports records the crashes given to the reporter.
type reports struct {
	mu      sync.Mutex
	crashes []*Crash
	err     error
}

func (r *reports) report(c *Crash) (string, string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.crashes = append(r.crashes, c)
	return "panic: " + strings.TrimPrefix(c.Error(), "internal error: "), "/var/cache/parley/crash.log", r.err
}

func (r *reports) all() []*Crash {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Crash(nil), r.crashes...)
}

func newBoomApp(t *testing.T, r *reports, now func() time.Time) *App {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: now, ReportCrash: r.report})
	a.specs = append(a.specs, screenSpec{id: 99, name: "boom", title: "Boom", family: client.FamilyConversations, auto: true})
	a.route.Screens = append(a.route.Screens, boom{a.route.Screens[0], &boomState{}})
	a.route.Active = len(a.route.Screens) - 1
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return a
}

// deliver runs cmd like Bubble Tea (ticks skipped) and feeds what it produces back to a,
// until nothing is left.
func deliver(t *testing.T, a *App, cmd tea.Cmd) {
	t.Helper()
	for range 10 {
		msgs := viewtest.RunSkippingTicks(cmd, time.Second)
		if len(msgs) == 0 {
			return
		}
		var next []tea.Cmd
		for _, m := range msgs {
			if _, ok := m.(tea.QuitMsg); ok {
				t.Fatal("the program quit")
			}
			_, c := a.Update(m)
			next = append(next, c)
		}
		cmd = tea.Batch(next...)
	}
}

func TestPanicInUpdateKeepsTheModelAndToasts(t *testing.T) {
	t.Parallel()
	r := &reports{}
	a := newBoomApp(t, r, viewtest.Clock)
	m, cmd := a.Update(viewtest.Key("x"))
	if m != a {
		t.Fatalf("Update returned %v after a panic, want the App itself", m)
	}
	_ = a.Render() // Bubble Tea draws the returned model at once: it must not panic again
	deliver(t, a, cmd)
	got := r.all()
	if len(got) != 1 {
		t.Fatalf("reported %d crashes, want 1", len(got))
	}
	c := got[0]
	if c.Where != "Update" || c.Value != "bad data in Update" {
		t.Fatalf("reported %q in %s, want the first panic in Update", c.Value, c.Where)
	}
	if !strings.Contains(string(c.Stack), "ui.boom.Update") {
		t.Fatalf("the stack does not show where the panic happened:\n%s", c.Stack)
	}
	view := a.Render()
	if !strings.Contains(view, "internal error: panic: bad data in Update; details in") ||
		!strings.Contains(view, "crash.log") {
		t.Fatalf("no toast naming the error and the log:\n%s", view)
	}
	// The program goes on: a key still works and nothing quits.
	_, cmd = a.Update(viewtest.Key("1"))
	deliver(t, a, cmd)
	if a.Stopped() != nil {
		t.Fatal("one panic stopped the program")
	}
}

func TestPanicInACommandToastsAndGoesOn(t *testing.T) {
	t.Parallel()
	r := &reports{}
	a := newBoomApp(t, r, viewtest.Clock)
	_, cmd := a.Update(viewtest.Key("z"))
	deliver(t, a, cmd)
	got := r.all()
	if len(got) != 1 || got[0].Where != "a command" || got[0].Value != "bad data in a command" {
		t.Fatalf("reported %+v, want the command's panic", got)
	}
	if view := a.Render(); !strings.Contains(view, "internal error: panic: bad data in a command; details in") {
		t.Fatalf("no toast for the command's panic:\n%s", view)
	}
	if a.Stopped() != nil {
		t.Fatal("a panic in a command stopped the program")
	}
}

func TestCrashLogNotWrittenIsSaid(t *testing.T) {
	t.Parallel()
	r := &reports{err: errors.New("disk full")}
	a := newBoomApp(t, r, viewtest.Clock)
	_, cmd := a.Update(viewtest.Key("x"))
	deliver(t, a, cmd)
	if view := a.Render(); !strings.Contains(view, "the crash log could not be written: disk full") {
		t.Fatalf("the toast does not say the log was not written:\n%s", view)
	}
}

func TestPanicInViewKeepsTheLastFrame(t *testing.T) {
	t.Parallel()
	r := &reports{}
	a := newBoomApp(t, r, viewtest.Clock)
	good := a.Render()
	_, cmd := a.Update(viewtest.Key("v"))
	deliver(t, a, cmd)
	frame := a.Render()
	goodLines, lines := strings.Split(good, "\n"), strings.Split(frame, "\n")
	if len(lines) != len(goodLines) {
		t.Fatalf("the frame after a panic in View has %d lines, want %d", len(lines), len(goodLines))
	}
	if strings.Join(lines[:len(lines)-1], "\n") != strings.Join(goodLines[:len(goodLines)-1], "\n") {
		t.Fatalf("the last good frame was not kept:\n%s", frame)
	}
	if !strings.Contains(lines[len(lines)-1], "internal error while drawing: bad data in View") {
		t.Fatalf("the bottom line does not show the error: %q", lines[len(lines)-1])
	}
	// The next message reports it; the bottom line then names the crash log.
	_, cmd = a.Update(viewtest.Key("j"))
	deliver(t, a, cmd)
	got := r.all()
	if len(got) != 1 || got[0].Where != "View" || !strings.Contains(string(got[0].Stack), "ui.boom.View") {
		t.Fatalf("reported %+v, want the panic in View", got)
	}
	lines = strings.Split(a.Render(), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "bad data in View; details in") {
		t.Fatalf("the bottom line does not name the crash log: %q", last)
	}
	if a.Stopped() != nil {
		t.Fatal("a panic in View stopped the program")
	}
}

func TestPanicStormQuits(t *testing.T) {
	t.Parallel()
	r := &reports{}
	a := newBoomApp(t, r, viewtest.Clock) // a fixed clock: every panic at the same moment
	for i := 1; i < stormCount; i++ {
		_, cmd := a.Update(viewtest.Key("x"))
		deliver(t, a, cmd)
	}
	if a.Stopped() != nil {
		t.Fatalf("stopped after %d panics", stormCount-1)
	}
	_, cmd := a.Update(viewtest.Key("x"))
	msgs := viewtest.RunSkippingTicks(cmd, time.Second)
	quit := false
	for _, m := range msgs {
		if _, ok := m.(tea.QuitMsg); ok {
			quit = true
		}
	}
	if !quit {
		t.Fatalf("no quit after %d panics at once; got %v", stormCount, msgs)
	}
	if n := len(r.all()); n != stormCount {
		t.Fatalf("%d crashes reported before quitting, want %d (the last one too)", n, stormCount)
	}
	s := a.Stopped()
	if s == nil || s.Count != stormCount || s.First.Value != "bad data in Update" {
		t.Fatalf("Stopped() = %+v", s)
	}
	if _, cmd := a.Update(viewtest.Key("j")); cmd == nil {
		t.Fatal("a message after the storm did not quit")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("a message after the storm did not quit")
	}
}

func TestPanicsSpreadOutDoNotQuit(t *testing.T) {
	t.Parallel()
	r := &reports{}
	now := viewtest.Now
	a := newBoomApp(t, r, func() time.Time { return now })
	for range 3 * stormCount {
		_, cmd := a.Update(viewtest.Key("x"))
		deliver(t, a, cmd)
		now = now.Add(stormWindow / (stormCount - 1))
	}
	if a.Stopped() != nil {
		t.Fatalf("stopped by panics %s apart", stormWindow/(stormCount-1))
	}
}

// TestUpdatePanicInARunningProgram runs the App in a real Bubble Tea program: a panic in
// Update is reported once, with its own cause, and the program goes on until q.
func TestUpdatePanicInARunningProgram(t *testing.T) {
	t.Parallel()
	r := &reports{}
	a := newBoomApp(t, r, viewtest.Clock)
	// The window size a terminal would report: output that is no terminal reports 0×0,
	// and the too-small screen would take the x (when the size arrives first).
	p := tea.NewProgram(a, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(), tea.WithWindowSize(120, 40))
	type result struct {
		m   tea.Model
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := p.Run()
		done <- result{m, err}
	}()
	p.Send(viewtest.Key("x"))
	deadline := time.After(10 * time.Second)
	for len(r.all()) == 0 {
		select {
		case res := <-done:
			t.Fatalf("the program ended after a panic in Update: %v", res.err)
		case <-deadline:
			t.Fatal("the crash was not reported within 10 s")
		case <-time.After(10 * time.Millisecond):
		}
	}
	p.Send(viewtest.Key("q"))
	select {
	case res := <-done:
		if res.err != nil || res.m != a {
			t.Fatalf("Run() = %v, %v; want the App and no error", res.m, res.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("q did not end the program")
	}
	got := r.all()
	if len(got) != 1 || got[0].Value != "bad data in Update" {
		t.Fatalf("reported %+v, want only the panic in Update", got)
	}
}
