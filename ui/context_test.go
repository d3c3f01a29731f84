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

// appLoop runs the root model in a viewtest.Loop: on the test's goroutine, with commands on
// their own goroutines sending their messages back.
type appLoop struct {
	*viewtest.Loop
	t   *testing.T
	app *App
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
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: tok, Now: viewtest.Clock, HTTPClient: &http.Client{Transport: viewtest.Transport(t)}})
	if err != nil {
		t.Fatal(err)
	}
	viewtest.Ctx(c) // plain colours
	app := New(Options{Client: c, Styles: theme.New(nil, theme.Default(), false), Keys: keymap.Default(),
		Now: viewtest.Clock, Demo: true, RequestBudget: 400, PageSize: 100, DefaultOperatorID: info.OwnerOperatorID})
	l := &appLoop{Loop: viewtest.NewLoop(t, app), t: t, app: app}
	l.Run(app.Init())
	l.Deliver(tea.WindowSizeMsg{Width: w, Height: h})
	l.Until("the operator directory", func() bool { return len(app.opList) > 0 })
	return l, info
}

func (l *appLoop) picker() *picker {
	l.t.Helper()
	l.Until("a picker", func() bool {
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
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })

	l.Key("ctrl+p")
	p := l.picker()
	if len(p.items) != 1+7 || !strings.HasPrefix(p.items[0].label, "default (the token's own operator)") || !p.items[0].current {
		t.Fatalf("picker items %+v", p.items)
	}
	l.Key(strconv.FormatInt(info.RestrictedOperatorID, 10), "enter")
	l.Until("the switch", func() bool { return l.app.ctx.Client.OperatorID() == info.RestrictedOperatorID })
	if l.app.ctx.ActingOperatorID != info.RestrictedOperatorID {
		t.Fatalf("acting %d", l.app.ctx.ActingOperatorID)
	}
	l.Until("the operators screen reloaded", func() bool { return ops.Loaded() && !ops.Busy() })
	if ops.SelfID() != info.RestrictedOperatorID {
		t.Fatalf("the screen acts as %d", ops.SelfID())
	}
	if bar := l.statusBar(); !strings.Contains(bar, "org 1001 · as Greta") {
		t.Fatalf("status bar %q", bar)
	}

	l.Key("ctrl+p")
	p = l.picker()
	if !p.items[len(p.items)-2].current { // Greta, the agent, is second to last (before the bot)
		t.Fatalf("current not marked: %+v", p.items)
	}
	l.Key("g", "enter")
	l.Until("back to the default", func() bool { return l.app.ctx.Client.OperatorID() == 0 })
	l.Until("the status bar", func() bool { return strings.Contains(l.statusBar(), "as Clara") })
	if l.app.ctx.ActingOperatorID != 0 || ops.SelfID() != info.OwnerOperatorID {
		t.Fatalf("acting %d, screen self %d", l.app.ctx.ActingOperatorID, ops.SelfID())
	}
}

func TestPickOrganization(t *testing.T) {
	l, info := startApp(t, nil, 100, 30)
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	l.Key("ctrl+o")
	p := l.picker()
	l.Until("the probe", func() bool { return !p.loading })
	var ids []int64
	for _, it := range p.items[1:] {
		ids = append(ids, it.org)
	}
	if len(ids) != len(info.OrgIDs) || !strings.Contains(p.note, "Customer token") {
		t.Fatalf("organizations %v (sandbox has %v); note %q", ids, info.OrgIDs, p.note)
	}
	other := info.OrgIDs[1]
	l.Key("G", "enter")
	l.Until("the switch", func() bool { return l.app.ctx.Client.OrganizationID() == other })
	l.Until("the new directory", func() bool { return l.app.opsOrg == other })
	l.Until("the operators of the other organization", func() bool {
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
	l2.Key("ctrl+o")
	p := l2.picker()
	l2.Until("the probe", func() bool { return !p.loading })
	if !strings.Contains(p.note, "organization token is fixed to its organization") {
		t.Fatalf("note %q", p.note)
	}
	other := info.OrgIDs[1]
	l2.Key(strconv.FormatInt(other, 10), "enter")
	l2.Until("the warning", func() bool { return strings.Contains(l2.toasts(), "not available to this token") })
	want := "org " + strconv.FormatInt(info.DefaultOrgID, 10) + " (not " + strconv.FormatInt(other, 10) + ")"
	if bar := l2.statusBar(); !strings.Contains(bar, want) {
		t.Fatalf("status bar %q lacks %q", bar, want)
	}
}

func TestPickerTakesOnlyIDs(t *testing.T) {
	l, _ := startApp(t, nil, 100, 30)
	l.Key("ctrl+p")
	p := l.picker()
	l.Key("x", "1", "2")
	if got := p.input.Value(); got != "12" {
		t.Fatalf("typed %q", got)
	}
	l.Key("esc")
	l.Until("closed", func() bool { return len(l.app.overlays) == 0 })
	if l.app.ctx.Client.OperatorID() != 0 {
		t.Fatal("esc switched")
	}
}

// An edit on the operators screen reaches the directory (names, the ctrl+p picker).
func TestOperatorEditReloadsTheDirectory(t *testing.T) {
	l, info := startApp(t, nil, 100, 30)
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	l.Key("j", "e")
	l.Until("the form", func() bool { return len(l.app.overlays) == 1 })
	l.Quiet(30 * time.Millisecond)
	l.Key("tab")
	for range 10 {
		l.Deliver(viewtest.Key("backspace"))
	}
	l.Key("Benno", "enter", "enter", "enter")
	id := info.OwnerOperatorID + 1
	l.Until("the new name in the directory", func() bool { return l.app.ctx.Operators[id] == "Benno" })
}
