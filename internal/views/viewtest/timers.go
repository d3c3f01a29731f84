package viewtest

import (
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Timer is what a timer armed on a test's context (Ctx, whose Timer is After) sends at
// once instead of waiting: a Loop, or a test's own Timers, keeps it and delivers Msg once
// the test's clock has moved D past the moment it arrived. No timer of a view fires by
// itself in a test, so none can overtake the keys a test sends.
type Timer struct {
	D   time.Duration
	Msg tea.Msg
}

// After is common.Ctx.Timer in tests: its command returns a Timer for d and msg.
func After(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return Timer{D: d, Msg: msg} }
}

// Timers is a test's clock for the Timers its model armed: it keeps them, and gives their
// messages back in the order they fall due (in the order they were armed when they fall
// due together) as the test moves it. Its time is the time since it started; it has
// nothing to do with the clock views read the time of day from (Ctx.Now). It is safe to
// use from a program's goroutine and the test's at once.
type Timers struct {
	mu      sync.Mutex
	now     time.Duration
	seq     int
	pending []armed
}

type armed struct {
	at  time.Duration
	seq int
	msg tea.Msg
}

// Hold keeps msg and reports true when it is a Timer (it falls due D from now); any other
// message it leaves alone and reports false.
func (c *Timers) Hold(msg tea.Msg) bool {
	t, ok := msg.(Timer)
	if ok {
		c.Arm(t.D, t.Msg)
	}
	return ok
}

// Arm is a common.Timer on this clock that keeps the timer at once, while the Update that
// arms it runs, and returns no command: for a test that runs its model in a program
// (teatest), where a Timer message would come back at a moment the test cannot know.
func (c *Timers) Arm(d time.Duration, msg tea.Msg) tea.Cmd {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.pending = append(c.pending, armed{at: c.now + max(d, 0), seq: c.seq, msg: msg})
	return nil
}

// Next takes the message of the timer that falls due first, when that is no later than
// by (a time since the start), and moves the clock to when it falls due.
func (c *Timers) Next(by time.Duration) (tea.Msg, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		return nil, false
	}
	i := 0
	for j, a := range c.pending {
		if a.at < c.pending[i].at || a.at == c.pending[i].at && a.seq < c.pending[i].seq {
			i = j
		}
	}
	a := c.pending[i]
	if a.at > by {
		return nil, false
	}
	c.pending = slices.Delete(c.pending, i, i+1)
	c.now = max(c.now, a.at)
	return a.msg, true
}

// Due takes the message of the timer that falls due first, however far off, and moves
// the clock to it.
func (c *Timers) Due() (tea.Msg, bool) { return c.Next(time.Duration(1<<63 - 1)) }

// Advance moves the clock on by d and hands deliver the message of each timer that falls
// due meanwhile, in their order; a timer armed while it delivers fires too when it falls
// due within d.
func (c *Timers) Advance(d time.Duration, deliver func(tea.Msg)) {
	end := c.Elapsed() + d
	for {
		msg, ok := c.Next(end)
		if !ok {
			break
		}
		deliver(msg)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = max(c.now, end)
}

// Elapsed is the clock's time since it started.
func (c *Timers) Elapsed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Pending is how many timers wait for their time.
func (c *Timers) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}
