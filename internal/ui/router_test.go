package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// routed is a message the routing test broadcasts.
type routed struct{ n int }

// journal is what the screen and the modals of the routing test got, in order.
type journal struct{ lines []string }

func (j *journal) add(who string, msg tea.Msg) {
	if j == nil {
		return
	}
	var what string
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		what = "key " + msg.String()
	case tea.PasteMsg:
		what = "paste " + msg.Content
	case routed:
		what = fmt.Sprintf("routed %d", msg.n)
	default:
		what = fmt.Sprintf("%T", msg)
	}
	j.lines = append(j.lines, who+": "+what)
}

// routeScreen opens modal a through the context on "o" and records every message.
type routeScreen struct {
	common.Base
	ctx *common.Ctx
	log *journal
	a   common.Modal
}

func (s *routeScreen) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	s.log.add("screen", msg)
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "o" {
		return s, s.ctx.OpenModal(s.a)
	}
	return s, nil
}
func (s *routeScreen) View() string { return "" }
func (s *routeScreen) SetSize(w, h int) {
	s.log.lines = append(s.log.lines, fmt.Sprintf("screen: size %d×%d", w, h))
}
func (s *routeScreen) Where() keymap.Where { return keymap.InConvList }

// quietScreen is every other screen of the app in the routing test.
type quietScreen struct{ common.Base }

func (quietScreen) Update(tea.Msg) (common.Screen, tea.Cmd) { return quietScreen{}, nil }
func (quietScreen) View() string                            { return "" }
func (quietScreen) SetSize(int, int)                        {}
func (quietScreen) Where() keymap.Where                     { return keymap.InConvList }

// routeModal records every message; "c" closes closes (itself when nil) through the
// context, "m" opens next through the context.
type routeModal struct {
	name   string
	ctx    *common.Ctx
	log    *journal
	inline bool
	closes common.Modal
	next   common.Modal
}

func (m *routeModal) Init() tea.Cmd {
	m.log.lines = append(m.log.lines, m.name+": init")
	return nil
}
func (m *routeModal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	m.log.add(m.name, msg)
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "c":
			target := m.closes
			if target == nil {
				target = m
			}
			return m, m.ctx.CloseModal(target)
		case "m":
			return m, m.ctx.OpenModal(m.next)
		}
	}
	return m, nil
}
func (m *routeModal) View() string { return m.name }
func (m *routeModal) SetSize(w, h int) {
	m.log.lines = append(m.log.lines, fmt.Sprintf("%s: size %d×%d", m.name, w, h))
}
func (m *routeModal) Inline() bool             { return m.inline }
func (m *routeModal) ShortHelp() []key.Binding { return nil }

// routeRun builds the test's screen and modals on ctx and delivers the sequence to deliver.
func routeRun(ctx *common.Ctx, size tea.WindowSizeMsg, install func(common.Screen), deliver func(tea.Msg)) *journal {
	log := &journal{}
	inner := &routeModal{name: "inner", ctx: ctx, log: log}
	b := &routeModal{name: "b", ctx: ctx, log: log}
	a := &routeModal{name: "a", ctx: ctx, log: log, next: b}
	prompt := &routeModal{name: "prompt", ctx: ctx, log: log, inline: true}
	wrapper := &routeModal{name: "wrapper", ctx: ctx, log: log, closes: inner}
	install(&routeScreen{ctx: ctx, log: log, a: a})
	for _, msg := range []tea.Msg{
		size,
		routed{1},
		viewtest.Key("o"), // the screen opens a
		viewtest.Key("x"), // a
		routed{2},         // a, then the screen
		viewtest.Key("m"), // a opens b over it
		tea.PasteMsg{Content: "hi"},
		viewtest.Key("c"),                  // b closes
		common.OpenModalMsg{Modal: prompt}, // as from a command's result
		viewtest.Key("y"),
		common.CloseModalMsg{}, // closes the prompt
		common.OpenModalMsg{Modal: wrapper},
		viewtest.Key("c"), // asks to close inner, which it wraps: the wrapper closes
		viewtest.Key("c"), // a closes
		viewtest.Key("z"),
		tea.PasteMsg{Content: "there"},
		routed{3},
	} {
		deliver(msg)
	}
	return log
}

// TestHostRoutesAsTheApp drives one sequence of keys, pastes, broadcasts and modal changes
// through ui.App and through viewtest.Host, the stand-in root of the screens' tests: both
// must hand every message to the same screen and modals in the same order, so a screen's
// tests see the routing the program runs.
func TestHostRoutesAsTheApp(t *testing.T) {
	t.Parallel()
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	app := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: viewtest.Clock})
	byApp := routeRun(app.Ctx(), tea.WindowSizeMsg{Width: 100, Height: 30}, func(s common.Screen) {
		for i := range app.route.Screens {
			app.route.Screens[i] = quietScreen{}
		}
		app.route.Screens[0] = s
	}, func(msg tea.Msg) { app.Update(msg) })

	var host *viewtest.Host
	ctx := &common.Ctx{Keys: keymap.Default(), Now: viewtest.Clock}
	// The root's screens have its height less the tab bar, the status bar and the footer.
	byHost := routeRun(ctx, tea.WindowSizeMsg{Width: 100, Height: 27}, func(s common.Screen) {
		host = viewtest.NewHost(ctx, s)
	}, func(msg tea.Msg) { host.Update(msg) })

	want := []string{
		"screen: size 100×27",
		"screen: routed 1",
		"screen: key o", "a: size 96×25", "a: init",
		"a: key x",
		"a: routed 2", "screen: routed 2",
		"a: key m", "b: size 96×25", "b: init",
		"b: paste hi",
		"b: key c",
		"prompt: size 100×1", "prompt: init",
		"prompt: key y",
		"wrapper: size 96×25", "wrapper: init",
		"wrapper: key c",
		"a: key c",
		"screen: key z",
		"screen: paste there",
		"screen: routed 3",
	}
	if !slices.Equal(byHost.lines, want) {
		t.Errorf("the host routed\n  %s\nwant\n  %s", strings.Join(byHost.lines, "\n  "), strings.Join(want, "\n  "))
	}
	if !slices.Equal(byApp.lines, byHost.lines) {
		t.Errorf("the app routed\n  %s\nthe host\n  %s", strings.Join(byApp.lines, "\n  "), strings.Join(byHost.lines, "\n  "))
	}
	if app.route.Top() != nil || host.Top() != nil {
		t.Errorf("modals left open: app %v, host %v", app.route.Top(), host.Top())
	}
}
