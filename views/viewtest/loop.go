package viewtest

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Loop runs a model (a Host, or the root model) like Bubble Tea does, but on the test's
// goroutine: commands run on their own goroutines and only send their messages back; the
// test delivers them while it waits for a condition, so the model's state is the test's to
// read between calls. Nothing waits for a fixed time except Quiet and Drain.
type Loop struct {
	Model tea.Model

	t    testing.TB
	msgs chan tea.Msg
}

// NewLoop returns a loop for m; nothing is delivered yet.
func NewLoop(t testing.TB, m tea.Model) *Loop {
	return &Loop{t: t, Model: m, msgs: make(chan tea.Msg, 256)}
}

// Run starts cmd; its message is delivered by a later Key, Quiet, Until or Drain.
func (l *Loop) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			l.msgs <- msg
		}
	}()
}

// Deliver hands msg to the model and starts the command it returns. A batch starts its
// commands; a sequence runs its commands in order; a quit is dropped.
func (l *Loop) Deliver(msg tea.Msg) {
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			l.Run(c)
		}
		return
	}
	if cmds, ok := SubCommands(msg); ok { // a sequence: in order
		go func() {
			for _, c := range cmds {
				if c == nil {
					continue
				}
				if m := c(); m != nil {
					l.msgs <- m
				}
			}
		}()
		return
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		return
	}
	var cmd tea.Cmd
	l.Model, cmd = l.Model.Update(msg)
	l.Run(cmd)
}

// Key delivers key presses ("j", "enter", "ctrl+d", …), each after the messages the
// previous one caused right away (a form moves to its next field through a command).
func (l *Loop) Key(keys ...string) {
	for _, k := range keys {
		l.Deliver(Key(k))
		l.Quiet(15 * time.Millisecond)
	}
}

// Quiet delivers messages until none arrived for d.
func (l *Loop) Quiet(d time.Duration) {
	for {
		select {
		case m := <-l.msgs:
			l.Deliver(m)
		case <-time.After(d):
			return
		}
	}
}

// Until delivers messages until cond holds, and fails the test after 15 seconds.
func (l *Loop) Until(what string, cond func() bool) {
	l.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		select {
		case m := <-l.msgs:
			l.Deliver(m)
		case <-time.After(5 * time.Millisecond):
			if time.Now().After(deadline) {
				l.t.Fatalf("waited 15s for %s; view:\n%s", what, l.Model.View())
			}
		}
	}
}

// Drain delivers what arrives within d (to show that nothing more happens).
func (l *Loop) Drain(d time.Duration) {
	end := time.After(d)
	for {
		select {
		case m := <-l.msgs:
			l.Deliver(m)
		case <-end:
			return
		}
	}
}
