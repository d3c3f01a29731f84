package viewtest

import (
	"runtime"
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
	started, answer := make(chan struct{}), make(chan struct{})
	r := &recorder{cmd: func(k string) tea.Cmd {
		if k != "r" {
			return nil
		}
		return wrapped(tea.Sequence(func() tea.Msg {
			close(started)
			<-answer // the server answers when it answers
			return "answer"
		}, func() tea.Msg { return "then this" }))
	}}
	go func() {
		<-started
		runtime.Gosched()
		close(answer)
	}()
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

// The timers a view arms on the test's clock (After) fire only when the loop's clock moves:
// never while Key settles, in the order they fall due when Advance lets time pass, and one
// at a time while Until waits with nothing else on its way.
func TestTimersFireWhenTheLoopsClockMoves(t *testing.T) {
	r := &recorder{}
	r.cmd = func(k string) tea.Cmd {
		switch k {
		case "t":
			return tea.Batch(wrapped(After(150*time.Millisecond, "rested")), After(50*time.Millisecond, "soon"),
				After(time.Hour, "an hour later"))
		}
		return nil
	}
	l := NewLoop(t, r)
	l.Key("t")
	if want := []string{"key t"}; !slices.Equal(r.got, want) {
		t.Fatalf("after the key: %q, want %q", r.got, want)
	}
	l.Advance(100 * time.Millisecond)
	if want := []string{"key t", "soon"}; !slices.Equal(r.got, want) {
		t.Fatalf("after 100ms: %q, want %q", r.got, want)
	}
	l.Advance(100 * time.Millisecond)
	if want := []string{"key t", "soon", "rested"}; !slices.Equal(r.got, want) {
		t.Fatalf("after 200ms: %q, want %q", r.got, want)
	}
	if e := l.Timers.Elapsed(); e != 200*time.Millisecond {
		t.Errorf("the clock shows %v, want 200ms", e)
	}
	l.Until("the timer of an hour", func() bool { return slices.Contains(r.got, "an hour later") })
	if e := l.Timers.Elapsed(); e != time.Hour {
		t.Errorf("the clock shows %v after the hour's timer, want 1h", e)
	}
	if l.Timers.Pending() != 0 {
		t.Errorf("%d timers left", l.Timers.Pending())
	}
}

// Run gives a timer's message when it falls due within the wait it is given, and nothing
// otherwise; RunSkippingTicks never waits for one.
func TestRunTakesTimersDueWithinItsWait(t *testing.T) {
	cmd := tea.Batch(After(150*time.Millisecond, "rested"), After(time.Minute, "later"), func() tea.Msg { return "now" })
	got := Run(cmd, time.Second)
	if len(got) != 2 || !slices.Contains(got, tea.Msg("rested")) || !slices.Contains(got, tea.Msg("now")) {
		t.Errorf("Run gave %v, want now and rested", got)
	}
	if got := RunSkippingTicks(cmd, time.Second); len(got) != 1 || got[0] != "now" {
		t.Errorf("RunSkippingTicks gave %v, want now", got)
	}
}
