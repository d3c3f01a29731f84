package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/viewtest"
)

// boom is a screen that panics on a key and in a command.
type boom struct{ common.Screen }

func (b boom) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch k.String() {
		case "x":
			panic("bad data in Update")
		case "z":
			return b, tea.Batch(nil, func() tea.Msg { panic("bad data in a command") })
		}
	}
	return b, nil
}

func (b boom) Capturing() bool { return false }

func newBoomApp(t *testing.T) *App {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Client: c, Styles: theme.New(nil, theme.Default(), false), Keys: keymap.Default(), Now: viewtest.Clock})
	a.screens = append(a.screens, screenEntry{id: 99, key: key.NewBinding(key.WithKeys("9")), screen: boom{a.screens[0].screen}})
	a.active = len(a.screens) - 1
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return a
}

func TestPanicInUpdateQuitsCleanly(t *testing.T) {
	a := newBoomApp(t)
	_, cmd := a.Update(viewtest.Key("x"))
	if cmd == nil {
		t.Fatal("no command after a panic")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("a panic in Update did not quit")
	}
	if a.Crash() == nil || !strings.Contains(a.Crash().Error(), "bad data in Update") || len(a.Crash().Stack) == 0 {
		t.Fatalf("crash not recorded: %+v", a.Crash())
	}
}

func TestPanicInACommandQuitsCleanly(t *testing.T) {
	a := newBoomApp(t)
	_, cmd := a.Update(viewtest.Key("z"))
	msgs := viewtest.Run(cmd, time.Second)
	if len(msgs) != 1 {
		t.Fatalf("got %d messages", len(msgs))
	}
	_, quit := a.Update(msgs[0])
	if _, ok := quit().(tea.QuitMsg); !ok || a.Crash() == nil || !strings.Contains(a.Crash().Error(), "bad data in a command") {
		t.Fatalf("a panic in a command did not quit cleanly: %+v", a.Crash())
	}
}
