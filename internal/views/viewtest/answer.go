package viewtest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// Answer types text into modal m (an inline prompt) and presses enter: it returns the
// command enter produced (the modal's close and what the answer asks for).
func Answer(m common.Modal, text string) tea.Cmd {
	m.SetSize(80, 1)
	for _, k := range Keys(text) {
		m, _ = m.Update(k)
	}
	_, cmd := m.Update(Key("enter"))
	return cmd
}

// Toasts are the texts of the toasts among msgs.
func Toasts(msgs []tea.Msg) []string {
	var out []string
	for _, msg := range msgs {
		if t, ok := msg.(common.ToastMsg); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// KeyAnswer presses key on m, answers the prompt it opens through ctx with text and settles
// what follows (as Settle does); it returns m and the toasts said on the way.
func KeyAnswer[M Pane[M]](t testing.TB, ctx *common.Ctx, m M, key, text string, wait time.Duration) (M, []string) {
	t.Helper()
	m, cmd := m.Update(Key(key))
	Run(cmd, wait)
	prompt := Opened(ctx)
	if prompt == nil {
		t.Fatalf("%s opened no prompt", key)
	}
	var toasts []string
	pending := []tea.Cmd{Answer(prompt, text)}
	for len(pending) > 0 {
		msgs := Run(pending[0], wait)
		pending = pending[1:]
		toasts = append(toasts, Toasts(msgs)...)
		var cmds []tea.Cmd
		m, cmds = Apply(m, msgs)
		pending = append(pending, cmds...)
	}
	return m, toasts
}

// Jump presses the go-to-id key on the screen s runs, types text into the prompt and
// presses enter, and waits until done holds.
func (s *Screen) Jump(text string, done func() bool) {
	s.Key("#")
	s.Modal()
	s.Key(text, "enter")
	s.Until("the jump", done)
}
