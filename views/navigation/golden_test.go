package navigation_test

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/parley-tui/parley/views/navigation"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestGoldenNavigation renders the screen against the in-process sandbox (small, seed 1,
// fixed clock, no colour) once the first page is in.
// Regenerate with: go test ./views/navigation -run Golden -update
func TestGoldenNavigation(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			e := newEnv(t)
			ctx := viewtest.Ctx(e.Client)
			h := viewtest.NewHost(ctx, navigation.New(ctx))
			tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(size[0], size[1]))
			h.WaitSeen(t, map[string]int{"navigation.pageMsg": 1})
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			golden.RequireEqual(t, []byte(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()))
		})
	}
}
