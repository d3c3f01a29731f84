package operators_test

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/parley-tui/parley/views/operators"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestGoldenOperators renders the screen against the in-process sandbox (small, seed 1,
// fixed clock, no colour) once the list and every visible operator's slots are in.
// Regenerate with: go test ./views/operators -run Golden -update
func TestGoldenOperators(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			e := newEnv(t)
			ctx := viewtest.Ctx(e.Client)
			h := viewtest.NewHost(ctx, operators.New(ctx, operators.Options{}))
			tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(size[0], size[1]))
			h.WaitSeen(t, map[string]int{"operators.listMsg": 1, "operators.slotsMsg": 7})
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			golden.RequireEqual(t, []byte(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()))
		})
	}
}
