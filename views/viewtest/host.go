package viewtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/views/common"
)

// Host stands in for the root model in a screen's tests. It owns the screen and a modal
// stack and routes like the root: keys and pastes to the top modal, else to the screen
// (ctrl+c quits); every other message to every modal and
// the screen. Modals open and close both ways the root supports: through the context's
// OpenModal and CloseModal, applied right after the Update that asked, as ui.App does, and
// through OpenModalMsg and CloseModalMsg from a command. Modals are sized as the root sizes
// them. Toasts and screen switches are kept, every message is counted by type (Seen), and
// so are the modals opened (Opens).
//
// Host is a tea.Model, so a Loop or teatest can run it. Its fields belong to whoever runs
// it: read them from the test's goroutine with a Loop, and only through Seen while
// teatest runs it.
type Host struct {
	Seen
	Screen   common.Screen
	Modals   []common.Modal
	Toasts   []common.ToastMsg
	Switched []common.SwitchScreenMsg
	// W and H are the size of the last WindowSizeMsg, all of it the screen's.
	W, H int
	// Opens counts the modals opened, both ways.
	Opens int

	ctx *common.Ctx
}

// NewHost returns a host for screen, which was built on ctx.
func NewHost(ctx *common.Ctx, screen common.Screen) *Host {
	return &Host{ctx: ctx, Screen: screen}
}

// Init shows the screen, as switching to it does.
func (h *Host) Init() tea.Cmd { return tea.Batch(h.Screen.Focus(), h.applyModalChanges()) }

// Update routes msg and then applies the modal changes the context was asked for.
func (h *Host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	h.Seen.Add(msg)
	cmd := h.route(msg)
	if opened := h.applyModalChanges(); opened != nil {
		cmd = tea.Batch(cmd, opened)
	}
	return h, cmd
}

func (h *Host) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.W, h.H = msg.Width, msg.Height
		h.Screen.SetSize(msg.Width, msg.Height)
		for _, m := range h.Modals {
			h.sizeModal(m)
		}
		if r, ok := h.Screen.(common.Resizer); ok {
			return r.Resized() // as the root tells the active screen
		}
		return nil
	case tea.KeyPressMsg:
		return h.routeKey(msg)
	case tea.PasteMsg:
		return h.routeKey(msg)
	case common.OpenModalMsg:
		h.Opens++
		h.Modals = append(h.Modals, msg.Modal)
		h.sizeModal(msg.Modal)
		return msg.Modal.Init()
	case common.CloseModalMsg:
		if n := len(h.Modals); n > 0 {
			h.Modals = h.Modals[:n-1]
		}
		return nil
	case common.ToastMsg:
		h.Toasts = append(h.Toasts, msg)
		return nil
	case common.SwitchScreenMsg:
		h.Switched = append(h.Switched, msg)
		return nil
	}
	cmds := make([]tea.Cmd, 0, len(h.Modals)+1)
	for i, m := range h.Modals {
		var c tea.Cmd
		h.Modals[i], c = m.Update(msg)
		cmds = append(cmds, c)
	}
	var c tea.Cmd
	h.Screen, c = h.Screen.Update(msg)
	return tea.Batch(append(cmds, c)...)
}

func (h *Host) routeKey(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+c" {
		return tea.Quit
	}
	var c tea.Cmd
	if n := len(h.Modals); n > 0 {
		h.Modals[n-1], c = h.Modals[n-1].Update(msg)
	} else {
		h.Screen, c = h.Screen.Update(msg)
	}
	return c
}

func (h *Host) applyModalChanges() tea.Cmd {
	var inits tea.Cmd
	h.Modals, inits = h.ctx.ApplyModalChanges(h.Modals, func(m common.Modal) {
		h.Opens++
		h.sizeModal(m)
	})
	return inits
}

// sizeModal gives a modal the room the root would: the bottom line for an inline one, the
// screen less a margin for a box.
func (h *Host) sizeModal(m common.Modal) {
	if m.Inline() {
		m.SetSize(h.W, 1)
		return
	}
	m.SetSize(max(20, h.W-4), max(6, h.H-2))
}

// View is the screen's view (modals are drawn over it by the root only).
func (h *Host) View() tea.View { return tea.NewView(h.Render()) }

// Render is the screen's view as text.
func (h *Host) Render() string { return h.Screen.View() }

// Top is the top modal, or nil.
func (h *Host) Top() common.Modal {
	if len(h.Modals) == 0 {
		return nil
	}
	return h.Modals[len(h.Modals)-1]
}

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
// fails the test after 20 seconds.
func (s *Seen) WaitSeen(t testing.TB, want map[string]int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok := true
		for name, n := range want {
			ok = ok && s.Count(name) >= n
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
