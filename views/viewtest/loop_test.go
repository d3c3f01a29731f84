package viewtest

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// recorder records the keys and the messages it gets; cmd gives each key's command.
type recorder struct {
	got []string
	cmd func(key string) tea.Cmd
}

func (r *recorder) Init() tea.Cmd  { return nil }
func (r *recorder) View() tea.View { return tea.NewView("") }
func (r *recorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		r.got = append(r.got, "key "+msg.String())
		return r, r.cmd(msg.String())
	case string:
		r.got = append(r.got, msg)
	}
	return r, nil
}

// wrapped is cmd inside another function, as the root's panic guard wraps every command.
func wrapped(cmd tea.Cmd) tea.Cmd { return func() tea.Msg { return cmd() } }

// A key's command that takes a while (a request to a slow server) has delivered its message
// when Key returns, and the next key comes after it, however long it took.
func TestKeyWaitsForWhatTheKeyStarted(t *testing.T) {
	r := &recorder{cmd: func(k string) tea.Cmd {
		if k != "r" {
			return nil
		}
		return wrapped(tea.Sequence(func() tea.Msg {
			time.Sleep(100 * time.Millisecond) // the server is slow: no outcome depends on how slow
			return "answer"
		}, func() tea.Msg { return "then this" }))
	}}
	l := NewLoop(t, r)
	l.Key("r", "j")
	if want := []string{"key r", "answer", "then this", "key j"}; !slices.Equal(r.got, want) {
		t.Fatalf("delivered %q, want %q", r.got, want)
	}
}

// Timers are not waited for, however they are wrapped: a tick of an hour or a cursor blink
// does not hold Key, and a timer that fires is delivered like any message.
func TestKeyDoesNotWaitForTimers(t *testing.T) {
	r := &recorder{cmd: func(k string) tea.Cmd {
		switch k {
		case "t":
			return wrapped(tea.Tick(time.Hour, func(time.Time) tea.Msg { return "an hour later" }))
		case "s":
			return tea.Batch(wrapped(tea.Tick(time.Millisecond, func(time.Time) tea.Msg { return "soon" })),
				tea.Every(time.Hour, func(time.Time) tea.Msg { return "hourly" }))
		}
		return nil
	}}
	l := NewLoop(t, r)
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Key("t", "s")
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Key waited for a timer") // it would wait an hour
	}
	l.Until("the short timer", func() bool { return slices.Contains(r.got, "soon") })
	if slices.Contains(r.got, "an hour later") || slices.Contains(r.got, "hourly") {
		t.Fatalf("delivered %q", r.got)
	}
}
