package ui

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/operators"
	"github.com/parley-tui/parley/views/viewtest"
)

// appLoop runs the root model like Bubble Tea does, on the test's goroutine: commands run
// on their own goroutines and send their messages back; the test delivers them while it
// waits for a condition.
type appLoop struct {
	t    *testing.T
	app  *App
	msgs chan tea.Msg
}

// startApp runs the root model on a fresh sandbox with the token token picks (nil: the
// customer token).
func startApp(t *testing.T, token func(sandbox.Info) string, w, h int) (*appLoop, sandbox.Info) {
	t.Helper()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	info := sb.Server.Info()
	tok := info.CustomerToken
	if token != nil {
		tok = token(info)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: tok, Now: viewtest.Clock, HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	viewtest.Ctx(c) // plain colours
	app := New(Options{Client: c, Styles: theme.New(nil, theme.Default(), false), Keys: keymap.Default(),
		Now: viewtest.Clock, Demo: true, RequestBudget: 400, PageSize: 100, DefaultOperatorID: info.OwnerOperatorID})
	l := &appLoop{t: t, app: app, msgs: make(chan tea.Msg, 256)}
	l.run(app.Init())
	l.deliver(tea.WindowSizeMsg{Width: w, Height: h})
	l.until("the operator directory", func() bool { return len(app.opList) > 0 })
	return l, info
}

func (l *appLoop) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			l.msgs <- msg
		}
	}()
}

func (l *appLoop) deliver(msg tea.Msg) {
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			l.run(c)
		}
		return
	}
	if cmds, ok := viewtest.SubCommands(msg); ok {
		go func() {
			for _, c := range cmds {
				if c == nil {
					continue
				}
				if m := c(); m != nil {
					l.msgs <- m
				}
			}
		}()
		return
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		return
	}
	_, cmd := l.app.Update(msg)
	l.run(cmd)
}

func (l *appLoop) key(keys ...string) {
	for _, k := range keys {
		l.deliver(viewtest.Key(k))
		l.quiet(15 * time.Millisecond)
	}
}

func (l *appLoop) quiet(d time.Duration) {
	for {
		select {
		case m := <-l.msgs:
			l.deliver(m)
		case <-time.After(d):
			return
		}
	}
}

func (l *appLoop) until(what string, cond func() bool) {
	l.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		select {
		case m := <-l.msgs:
			l.deliver(m)
		case <-time.After(5 * time.Millisecond):
			if time.Now().After(deadline) {
				l.t.Fatalf("waited 15s for %s; view:\n%s", what, l.app.View())
			}
		}
	}
}

func (l *appLoop) picker() *picker {
	l.t.Helper()
	l.until("a picker", func() bool {
		if n := len(l.app.overlays); n > 0 {
			_, ok := l.app.overlays[n-1].(*picker)
			return ok
		}
		return false
	})
	return l.app.overlays[len(l.app.overlays)-1].(*picker)
}

func (l *appLoop) statusBar() string {
	lines := strings.Split(l.app.View(), "\n")
	return lines[len(lines)-1]
}

func (l *appLoop) toasts() string {
	var out []string
	for _, t := range l.app.toasts {
		out = append(out, t.text)
	}
	return strings.Join(out, "\n")
}

func TestActAsOperatorAndBack(t *testing.T) {
	l, info := startApp(t, nil, 100, 30)
	if bar := l.statusBar(); !strings.Contains(bar, "org 1001 · as Clara") {
		t.Fatalf("status bar without organization and operator: %q", bar)
	}
	l.key("3")
	ops := l.app.Screen().(*operators.Model)
	l.until("operators", func() bool { return ops.Loaded() && !ops.Busy() })

	l.key("ctrl+p")
	p := l.picker()
	if len(p.items) != 1+7 || !strings.HasPrefix(p.items[0].label, "default (the token's own operator)") || !p.items[0].current {
		t.Fatalf("picker items %+v", p.items)
	}
	l.key(strconv.FormatInt(info.RestrictedOperatorID, 10), "enter")
	l.until("the switch", func() bool { return l.app.ctx.Client.OperatorID() == info.RestrictedOperatorID })
	if l.app.ctx.ActingOperatorID != info.RestrictedOperatorID {
		t.Fatalf("acting %d", l.app.ctx.ActingOperatorID)
	}
	l.until("the operators screen reloaded", func() bool { return ops.Loaded() && !ops.Busy() })
	if ops.SelfID() != info.RestrictedOperatorID {
		t.Fatalf("the screen acts as %d", ops.SelfID())
	}
	if bar := l.statusBar(); !strings.Contains(bar, "org 1001 · as Greta") {
		t.Fatalf("status bar %q", bar)
	}

	l.key("ctrl+p")
	p = l.picker()
	if !p.items[len(p.items)-2].current { // Greta, the agent, is second to last (before the bot)
		t.Fatalf("current not marked: %+v", p.items)
	}
	l.key("g", "enter")
	l.until("back to the default", func() bool { return l.app.ctx.Client.OperatorID() == 0 })
	l.until("the status bar", func() bool { return strings.Contains(l.statusBar(), "as Clara") })
	if l.app.ctx.ActingOperatorID != 0 || ops.SelfID() != info.OwnerOperatorID {
		t.Fatalf("acting %d, screen self %d", l.app.ctx.ActingOperatorID, ops.SelfID())
	}
}

func TestPickOrganization(t *testing.T) {
	l, info := startApp(t, nil, 100, 30)
	l.key("3")
	ops := l.app.Screen().(*operators.Model)
	l.until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	l.key("ctrl+o")
	p := l.picker()
	l.until("the probe", func() bool { return !p.loading })
	var ids []int64
	for _, it := range p.items[1:] {
		ids = append(ids, it.org)
	}
	if len(ids) != len(info.OrgIDs) || !strings.Contains(p.note, "Customer token") {
		t.Fatalf("organizations %v (sandbox has %v); note %q", ids, info.OrgIDs, p.note)
	}
	other := info.OrgIDs[1]
	l.key("G", "enter")
	l.until("the switch", func() bool { return l.app.ctx.Client.OrganizationID() == other })
	l.until("the new directory", func() bool { return l.app.opsOrg == other })
	l.until("the operators of the other organization", func() bool {
		return ops.Loaded() && !ops.Busy() && len(ops.Rows()) > 0 && ops.Rows()[0].ID != info.OwnerOperatorID
	})
	if bar := l.statusBar(); !strings.Contains(bar, "org "+strconv.FormatInt(other, 10)+" · as ") {
		t.Fatalf("status bar %q", bar)
	}
	if l.app.ctx.DefaultOperatorID == info.OwnerOperatorID || l.app.ctx.DefaultOperatorID == 0 {
		t.Fatalf("default operator %d: want the other organization's owner", l.app.ctx.DefaultOperatorID)
	}
}

// An organization token is fixed to its organization: the picker says so, and a switch
// is reported as not taking effect.
func TestOrganizationTokenCannotSwitch(t *testing.T) {
	l2, info := startApp(t, func(i sandbox.Info) string { return i.OrgTokens[i.DefaultOrgID] }, 100, 30)
	l2.key("ctrl+o")
	p := l2.picker()
	l2.until("the probe", func() bool { return !p.loading })
	if !strings.Contains(p.note, "organization token is fixed to its organization") {
		t.Fatalf("note %q", p.note)
	}
	other := info.OrgIDs[1]
	l2.key(strconv.FormatInt(other, 10), "enter")
	l2.until("the warning", func() bool { return strings.Contains(l2.toasts(), "not available to this token") })
	want := "org " + strconv.FormatInt(info.DefaultOrgID, 10) + " (not " + strconv.FormatInt(other, 10) + ")"
	if bar := l2.statusBar(); !strings.Contains(bar, want) {
		t.Fatalf("status bar %q lacks %q", bar, want)
	}
}

func TestPickerTakesOnlyIDs(t *testing.T) {
	l, _ := startApp(t, nil, 100, 30)
	l.key("ctrl+p")
	p := l.picker()
	l.key("x", "1", "2")
	if got := p.input.Value(); got != "12" {
		t.Fatalf("typed %q", got)
	}
	l.key("esc")
	l.until("closed", func() bool { return len(l.app.overlays) == 0 })
	if l.app.ctx.Client.OperatorID() != 0 {
		t.Fatal("esc switched")
	}
}

// An edit on the operators screen reaches the directory (names, the ctrl+p picker).
func TestOperatorEditReloadsTheDirectory(t *testing.T) {
	l, info := startApp(t, nil, 100, 30)
	l.key("3")
	ops := l.app.Screen().(*operators.Model)
	l.until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	l.key("j", "e")
	l.until("the form", func() bool { return len(l.app.overlays) == 1 })
	l.quiet(30 * time.Millisecond)
	l.key("tab")
	for range 10 {
		l.deliver(viewtest.Key("backspace"))
	}
	l.key("Benno", "enter", "enter", "enter")
	id := info.OwnerOperatorID + 1
	l.until("the new name in the directory", func() bool { return l.app.ctx.Operators[id] == "Benno" })
}
