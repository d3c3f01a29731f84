package viewtest

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// ModalRun runs a modal the way a Bubble Tea program does, on the test's goroutine:
// messages are handled one at a time in the order they were sent; a command's message is
// sent after the messages already waiting (keys read in the same read as the key that
// started it); a batch's commands all send before the sequence they belong to goes on;
// ticks and cursor blinks never fire. Messages for the root (a toast, a task's result, and
// whatever the keep function given to RunModal names) are kept in Out.
type ModalRun struct {
	M   common.Modal
	Out []tea.Msg

	keep  func(tea.Msg) bool
	queue []tea.Msg
}

// RunModal sizes m to w×h, runs its Init and what that starts. keep (nil: none) names more
// messages to keep in Out rather than hand back to the modal.
func RunModal(m common.Modal, w, h int, keep func(tea.Msg) bool) *ModalRun {
	m.SetSize(w, h)
	r := &ModalRun{M: m, keep: keep}
	r.exec(m.Init())
	r.run()
	return r
}

func (r *ModalRun) exec(cmd tea.Cmd) {
	if cmd == nil || sleeps(cmd) {
		return
	}
	msg := cmd()
	if msg == nil {
		return
	}
	if cmds, ok := SubCommands(msg); ok { // a batch or a sequence: in order
		for _, c := range cmds {
			r.exec(c)
		}
		return
	}
	switch msg.(type) {
	case Timer: // never fires
		return
	case common.ToastMsg, common.TaskDoneMsg:
		r.Out = append(r.Out, msg)
		return
	}
	if r.keep != nil && r.keep(msg) {
		r.Out = append(r.Out, msg)
		return
	}
	r.queue = append(r.queue, msg)
}

func (r *ModalRun) run() {
	for n := 0; len(r.queue) > 0 && n < 1000; n++ {
		msg := r.queue[0]
		r.queue = r.queue[1:]
		var cmd tea.Cmd
		r.M, cmd = r.M.Update(msg)
		r.exec(cmd)
	}
}

// Batch sends keys as one read delivers them (nothing runs in between), then runs what
// they started. An argument that names no key is text, a key a character.
func (r *ModalRun) Batch(keys ...string) {
	for _, k := range keys {
		r.queue = append(r.queue, KeysOf(k)...)
	}
	r.run()
}

// Read sends what Bubble Tea's input reader makes of input written in one write (nothing
// runs in between), then runs what it started.
func (r *ModalRun) Read(t testing.TB, input string) {
	t.Helper()
	r.queue = append(r.queue, Read(t, input)...)
	r.run()
}

// Deliver hands one message to the modal and runs what it starts.
func (r *ModalRun) Deliver(msg tea.Msg) {
	r.queue = append(r.queue, msg)
	r.run()
}
