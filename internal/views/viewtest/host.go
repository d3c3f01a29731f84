package viewtest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/waitfor"
)

// Host stands in for the root model in a screen's tests. It owns the screen and a modal
// stack and routes with the root's own router (common.Router, as ui.App does): keys and
// pastes to the top modal, else to the screen (ctrl+c quits); every other message to every
// modal and the screen; modals opened and closed through the context's OpenModal and
// CloseModal applied right after the Update that asked, and through OpenModalMsg and
// CloseModalMsg from a command; modals sized as the root sizes them. It has no global keys,
// tab bar or status bar: a WindowSizeMsg's whole size is the screen's. Toasts and screen
// switches are kept instead of shown, every message is counted by type (Seen), and so are
// the modals opened (Opens).
//
// Host is a tea.Model, so a Loop or teatest can run it. Its fields belong to whoever runs
// it: read them from the test's goroutine with a Loop, and only through Seen while
// teatest runs it.
type Host struct {
	Seen
	Toasts   []common.ToastMsg
	Switched []common.SwitchScreenMsg
	// Opens counts the modals opened, both ways.
	Opens int

	route common.Router
}

// NewHost returns a host for screen, which was built on ctx.
func NewHost(ctx *common.Ctx, screen common.Screen) *Host {
	h := &Host{route: common.Router{Ctx: ctx, Screens: []common.Screen{screen}}}
	h.route.Hooks.First = func(msg tea.Msg) (tea.Cmd, bool) {
		if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+c" {
			return tea.Quit, true
		}
		return nil, false
	}
	return h
}

// Init shows the screen, as switching to it does.
func (h *Host) Init() tea.Cmd { return tea.Batch(h.Screen().Focus(), h.settle()) }

// Update routes msg and then applies the modal changes the context was asked for.
func (h *Host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	h.Seen.Add(msg)
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case common.ToastMsg:
		h.Toasts = append(h.Toasts, msg)
	case common.SwitchScreenMsg:
		h.Switched = append(h.Switched, msg)
	default:
		cmd = h.route.Route(msg)
	}
	return h, tea.Batch(cmd, h.settle())
}

// settle applies the modal changes asked for (common.Router.Settle) and counts the modals
// it opened.
func (h *Host) settle() tea.Cmd {
	before := slices.Clone(h.route.Modals)
	cmd := h.route.Settle()
	for _, m := range h.route.Modals {
		if !slices.Contains(before, m) {
			h.Opens++
		}
	}
	return cmd
}

// Screen is the screen.
func (h *Host) Screen() common.Screen { return h.route.Screen() }

// Modals is the modal stack, the top last.
func (h *Host) Modals() []common.Modal { return h.route.Modals }

// View is the screen's view (modals are drawn over it by the root only).
func (h *Host) View() tea.View { return tea.NewView(h.Render()) }

// Render is the screen's view as text.
func (h *Host) Render() string { return h.Screen().View() }

// Top is the top modal, or nil.
func (h *Host) Top() common.Modal { return h.route.Top() }

// LastToast is the text of the last toast, or "".
func (h *Host) LastToast() string {
	if len(h.Toasts) == 0 {
		return ""
	}
	return h.Toasts[len(h.Toasts)-1].Text
}

// Seen counts messages by type, named as %T prints them ("navigation.pageMsg",
// "common.OpenModalMsg"). It is safe to use while a program runs the model that adds to
// it, so a test can wait for data instead of for time.
type Seen struct {
	mu sync.Mutex
	n  map[string]int
}

// Add counts msg.
func (s *Seen) Add(msg tea.Msg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == nil {
		s.n = map[string]int{}
	}
	name, _, _ := strings.Cut(fmt.Sprintf("%T", msg), "[") // list.PageMsg, whatever its rows
	s.n[name]++
}

// Count is how many messages of the named type were seen.
func (s *Seen) Count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n[name]
}

// WaitSeen waits until every named type was seen at least as often as want says, and
// fails the test after waitfor.Deadline.
func (s *Seen) WaitSeen(t testing.TB, want map[string]int) {
	t.Helper()
	waitfor.True(t, fmt.Sprintf("the messages %v", want), func() bool {
		for name, n := range want {
			if s.Count(name) < n {
				return false
			}
		}
		return true
	})
}

// Opened is the last modal that the updates since the last look asked to open (nil when
// none), taking the asked changes as the root does after every update: a view test that
// drives a screen without a Host sees through it what the root would have opened.
func Opened(ctx *common.Ctx) common.Modal {
	_, opening := ctx.TakeModalChanges()
	if len(opening) == 0 {
		return nil
	}
	return opening[len(opening)-1]
}

// Closed reports whether the updates since the last look asked to close a modal, taking
// the asked changes as the root does after every update.
func Closed(ctx *common.Ctx) bool {
	closing, _ := ctx.TakeModalChanges()
	return len(closing) > 0
}
