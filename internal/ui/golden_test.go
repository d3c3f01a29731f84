package ui_test

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/detail"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// observed wraps the root model and counts the messages it saw, so a test can wait for data
// rather than for time. It keeps the timers the App arms on its own clock: none fires
// unless the test moves it (advance), so a frame never depends on how fast the test's keys
// came.
type observed struct {
	*ui.App
	viewtest.Seen
	timers viewtest.Timers
}

// newObserved is newAppWith (set may be nil) observed, its timers on the observer's clock.
func newObserved(t *testing.T, c *client.Client, set func(*ui.Options)) *observed {
	o := &observed{}
	o.App = newAppWith(t, c, func(opts *ui.Options) {
		opts.Timer = o.timers.Arm
		if set != nil {
			set(opts)
		}
	})
	return o
}

func (o *observed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	o.Add(msg)
	_, cmd := o.App.Update(msg)
	return o, cmd
}

// advance moves the clock of the App's timers on by d and sends the program the timers that
// fall due, in their order.
func (o *observed) advance(tm *teatest.TestModel, d time.Duration) { o.timers.Advance(d, tm.Send) }

// TestGoldenConversations renders the conversations screen against the in-process sandbox
// (seed 1, fixed clock) at 80, 120, 160 and 200 columns: the list as it opens (its first
// page and the operators loaded, before any time passed: the cursor has not rested on the
// first row yet), and the third row's thread (the hostile one) opened with j, j, enter.
// Regenerate with:
// go test ./internal/ui -run Golden -update
func TestGoldenConversations(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}, {200, 50}} {
		name := fmt.Sprintf("%dx%d", size[0], size[1])
		t.Run(name, func(t *testing.T) {
			sb := testSandbox(t)
			o := newObserved(t, newClient(t, sb, client.Config{}), nil)
			tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(size[0], size[1]))
			o.WaitSeen(t, map[string]int{fmt.Sprintf("%T", common.OperatorsLoadedMsg{}): 1, fmt.Sprintf("%T", common.RefreshedMsg{}): 1})
			tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
			golden.RequireEqual(t, []byte(viewtest.Plain(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)))
		})
		t.Run(name+"/thread", func(t *testing.T) {
			sb := testSandbox(t)
			o := newObserved(t, newClient(t, sb, client.Config{}), nil)
			tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(size[0], size[1]))
			o.WaitSeen(t, map[string]int{fmt.Sprintf("%T", common.OperatorsLoadedMsg{}): 1, fmt.Sprintf("%T", common.RefreshedMsg{}): 1})
			tm.Send(tea.KeyPressMsg{Code: 'j', Text: "j"})
			tm.Send(tea.KeyPressMsg{Code: 'j', Text: "j"})
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
			want := map[string]int{"thread.pageMsg": 1}
			if size[0] >= conversations.WideWidth {
				want[fmt.Sprintf("%T", detail.LoadedMsg{})] = 1 // the detail loads only where it is shown
			}
			o.WaitSeen(t, want)
			tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
			golden.RequireEqual(t, []byte(viewtest.Plain(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)))
		})
	}
}
