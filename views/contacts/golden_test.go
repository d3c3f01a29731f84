package contacts_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
)

// host runs the contacts screen as a program: it shows the screen on start (as pressing 2
// does), keeps a modal stack for the search prompt, and counts the messages it saw so the
// test waits for data, not for time.
type host struct {
	s      *contacts.Model
	modals []common.Modal
	mu     sync.Mutex
	seen   map[string]int
}

func (h *host) Init() tea.Cmd { return h.s.Focus() }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	h.mu.Lock()
	h.seen[fmt.Sprintf("%T", msg)]++
	h.mu.Unlock()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.s.SetSize(msg.Width, msg.Height)
		return h, nil
	case common.OpenModalMsg:
		msg.Modal.SetSize(80, 1)
		h.modals = append(h.modals, msg.Modal)
		return h, msg.Modal.Init()
	case common.CloseModalMsg:
		if len(h.modals) > 0 {
			h.modals = h.modals[:len(h.modals)-1]
		}
		return h, nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyCtrlC {
			return h, tea.Quit
		}
		if n := len(h.modals); n > 0 {
			var cmd tea.Cmd
			h.modals[n-1], cmd = h.modals[n-1].Update(msg)
			return h, cmd
		}
	}
	_, cmd := h.s.Update(msg)
	return h, cmd
}

func (h *host) View() string { return h.s.View() }

func (h *host) count(name string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seen[name]
}

func (h *host) waitSeen(t *testing.T, want map[string]int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok := true
		for name, n := range want {
			ok = ok && h.count(name) >= n
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("never received %v", want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestGoldenContacts renders the contacts screen against the in-process sandbox (seed 1,
// fixed clock, no colour): the ranked results of a search typed right after the screen
// opens, and the first result opened. Regenerate with:
// go test ./views/contacts -run Golden -update
func TestGoldenContacts(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, step := range []string{"search", "detail"} {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], step), func(t *testing.T) {
				e := readOnly(t)
				h := &host{s: contacts.New(e.ctx), seen: map[string]int{}}
				tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(size[0], size[1]))
				h.waitSeen(t, map[string]int{"common.OpenModalMsg": 1})
				tm.Type("paris")
				tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
				h.waitSeen(t, map[string]int{"contacts.SearchMsg": 1, "contacts.pageMsg": 2})
				if step == "detail" {
					tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
					h.waitSeen(t, map[string]int{"contacts.contactMsg": 1, "contacts.convPageMsg": 1, "contacts.notePageMsg": 1})
				}
				tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
				golden.RequireEqual(t, []byte(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()))
			})
		}
	}
}
