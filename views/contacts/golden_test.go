package contacts_test

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestGoldenContacts renders the contacts screen against the in-process sandbox (seed 1,
// fixed clock, no colour): the ranked results of a search typed right after the screen
// opens, and the first result opened. Regenerate with:
// go test ./views/contacts -run Golden -update
func TestGoldenContacts(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, step := range []string{"search", "detail"} {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], step), func(t *testing.T) {
				e := readOnly(t)
				h := viewtest.NewHost(e.ctx, contacts.New(e.ctx))
				tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(size[0], size[1]))
				h.WaitSeen(t, map[string]int{"common.OpenModalMsg": 1})
				tm.Type("paris")
				tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
				h.WaitSeen(t, map[string]int{"contacts.SearchMsg": 1, "list.PageMsg": 2})
				if step == "detail" {
					tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
					h.WaitSeen(t, map[string]int{"contacts.contactMsg": 1, "contacts.convPageMsg": 1, "contacts.notePageMsg": 1})
				}
				tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
				golden.RequireEqual(t, []byte(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()))
			})
		}
	}
}
