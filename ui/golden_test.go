package ui_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/ui"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/detail"
)

// observed wraps the root model and records which results have arrived, so a test can wait
// for data rather than for time.
type observed struct {
	*ui.App
	mu   sync.Mutex
	seen map[string]int
}

func (o *observed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	o.mu.Lock()
	o.seen[fmt.Sprintf("%T", msg)]++
	o.mu.Unlock()
	_, cmd := o.App.Update(msg)
	return o, cmd
}

func (o *observed) waitSeen(t *testing.T, names ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		o.mu.Lock()
		all := true
		for _, n := range names {
			all = all && o.seen[n] > 0
		}
		o.mu.Unlock()
		if all {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("never received %v", names)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestGoldenConversations renders the conversations screen against the in-process sandbox
// (seed 1, fixed clock) at the three layouts: the list as it opens, and a thread opened
// with j, enter. Regenerate with: go test ./ui -run Golden -update
func TestGoldenConversations(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 50}} {
		name := fmt.Sprintf("%dx%d", size[0], size[1])
		t.Run(name, func(t *testing.T) {
			sb := testSandbox(t)
			o := &observed{App: newApp(t, newClient(t, sb, client.Config{})), seen: map[string]int{}}
			tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(size[0], size[1]))
			o.waitSeen(t, fmt.Sprintf("%T", common.OperatorsLoadedMsg{}), fmt.Sprintf("%T", common.RefreshedMsg{}))
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			golden.RequireEqual(t, []byte(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()))
		})
		t.Run(name+"/thread", func(t *testing.T) {
			sb := testSandbox(t)
			o := &observed{App: newApp(t, newClient(t, sb, client.Config{})), seen: map[string]int{}}
			tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(size[0], size[1]))
			o.waitSeen(t, fmt.Sprintf("%T", common.OperatorsLoadedMsg{}), fmt.Sprintf("%T", common.RefreshedMsg{}))
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			o.waitSeen(t, "messages.pageMsg", fmt.Sprintf("%T", detail.LoadedMsg{}))
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			golden.RequireEqual(t, []byte(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()))
		})
	}
}
