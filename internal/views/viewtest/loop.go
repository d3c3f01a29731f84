package viewtest

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/waitfor"
)

// Loop runs a model (a Host, or the root model) like Bubble Tea does, but on the test's
// goroutine: commands run on their own goroutines and only send their messages back; the
// test delivers them while it waits for a condition, so the model's state is the test's to
// read between calls. Key and Settle wait for exactly the messages on their way (requests
// included) and never for an amount of time. The views' timers (a context whose Timer is
// After) run on the loop's own clock (Timers): none fires while the loop settles, so none
// can overtake a key; Advance (and Quiet and Drain) moves the clock and delivers the
// timers that fall due, each after what the one before led to, and Until moves it to the
// next timer whenever nothing else is on its way. Timers the views do not arm (tea.Tick
// and tea.Every in a test's own command, a cursor blink) the loop recognises as commands
// that only wait, and delivers them when they fire.
type Loop struct {
	Model tea.Model
	// Timers is the clock of the timers the model armed (Timer messages).
	Timers Timers

	t    testing.TB
	msgs chan tea.Msg

	mu      sync.Mutex
	started int             // commands started and not finished (their message not yet queued)
	running map[uint64]bool // the goroutines of those that have started running
}

// NewLoop returns a loop for m; nothing is delivered yet.
func NewLoop(t testing.TB, m tea.Model) *Loop {
	return &Loop{t: t, Model: m, msgs: make(chan tea.Msg, 256), running: map[uint64]bool{}}
}

// Run starts cmd; its message is delivered by a later Key, Settle, Quiet, Until or Drain.
func (l *Loop) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	l.start(func() tea.Msg { return cmd() })
}

// start runs f on its own goroutine and queues its message; the loop counts it as running
// until the message is queued.
func (l *Loop) start(f func() tea.Msg) {
	l.mu.Lock()
	l.started++
	l.mu.Unlock()
	go func() {
		id := goroutineID()
		l.mu.Lock()
		l.running[id] = true
		l.mu.Unlock()
		if msg := f(); msg != nil {
			l.msgs <- msg
		}
		l.mu.Lock()
		delete(l.running, id)
		l.started--
		l.mu.Unlock()
	}()
}

// goroutineID is the current goroutine's number, as stack traces show it.
func goroutineID() uint64 {
	var buf [64]byte
	s := strings.TrimPrefix(string(buf[:runtime.Stack(buf[:], false)]), "goroutine ")
	id, _ := strconv.ParseUint(s[:max(0, strings.IndexByte(s, ' '))], 10, 64)
	return id
}

// timerFrames are the frames of a command that only waits for its time.
var timerFrames = []string{"bubbletea/v2.Tick.func", "bubbletea/v2.Every.func", "cursor.(*Model).Blink.func"}

// waiting reports whether every command that is running only waits for a timer (none is
// working, nor on its way to the queue).
func (l *Loop) waiting() bool {
	l.mu.Lock()
	started := l.started
	ids := make(map[uint64]bool, len(l.running))
	for id := range l.running {
		ids[id] = true
	}
	l.mu.Unlock()
	// A command queues its message before it stops counting as started, so a message
	// queued after the caller last looked is seen here: with one on its way the loop is
	// not only waiting for timers (a timer must not overtake the answer that arrived).
	if len(l.msgs) > 0 {
		return false
	}
	if started == 0 {
		return true
	}
	if len(ids) < started {
		return false // one has not begun yet
	}
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, g := range strings.Split(string(buf), "\n\n") {
		head, _, _ := strings.Cut(strings.TrimPrefix(g, "goroutine "), "\n")
		num, state, _ := strings.Cut(head, " ")
		id, err := strconv.ParseUint(num, 10, 64)
		if err != nil || !ids[id] {
			continue
		}
		if strings.HasPrefix(state, "[running") || strings.HasPrefix(state, "[runnable") ||
			!slices.ContainsFunc(timerFrames, func(f string) bool { return strings.Contains(g, f) }) {
			return false
		}
	}
	return len(l.msgs) == 0 // one that ended since the first look has queued its message
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
		l.start(func() tea.Msg {
			for _, c := range cmds {
				if c == nil {
					continue
				}
				if m := c(); m != nil {
					l.msgs <- m
				}
			}
			return nil
		})
		return
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		return
	}
	if l.Timers.Hold(msg) {
		return
	}
	var cmd tea.Cmd
	l.Model, cmd = l.Model.Update(msg)
	l.Run(cmd)
}

// Key delivers key presses ("j", "enter", "ctrl+d", …), each after the messages the
// previous one caused (a form moves to its next field through a command; a key may start
// a request): the loop settles after every key. An argument that names no key is text,
// typed a character at a time ("Zed"), as the input reader delivers it.
func (l *Loop) Key(keys ...string) {
	l.t.Helper()
	for _, k := range keys {
		for _, msg := range KeysOf(k) {
			l.Deliver(msg)
			l.Settle()
		}
	}
}

// Read delivers what Bubble Tea's input reader makes of input written in one write (see
// the package function Read), message after message as the program does with keys that
// arrive together: without waiting for what the one before started.
func (l *Loop) Read(input string) {
	l.t.Helper()
	for _, msg := range Read(l.t, input) {
		l.Deliver(msg)
	}
}

// KeysOf is the key named k ("enter", "ctrl+s", "j"), or the keys that type the text k
// ("Zed"), one message a key as the input reader delivers them.
func KeysOf(k string) []tea.Msg {
	if _, named := keymap.Press(k); named || utf8.RuneCountInString(k) <= 1 {
		return []tea.Msg{Key(k)}
	}
	return Keys(k)
}

// Settle delivers messages until none is waiting and every command still running only
// waits for a timer, and fails the test when that takes waitfor.Deadline (a command that never
// returns).
func (l *Loop) Settle() {
	l.t.Helper()
	deadline := time.After(waitfor.Deadline)
	for {
		if l.deliverQueued() {
			continue
		}
		if l.waiting() {
			if l.deliverQueued() { // queued since the look above
				continue
			}
			return
		}
		select {
		case m := <-l.msgs:
			l.Deliver(m)
		case <-time.After(time.Millisecond):
		case <-deadline:
			l.t.Fatalf("commands still running after %s; view:\n%s", waitfor.Deadline, l.Model.View().Content)
		}
	}
}

// deliverQueued delivers a message that is waiting, if one is, and reports whether it did.
func (l *Loop) deliverQueued() bool {
	select {
	case m := <-l.msgs:
		l.Deliver(m)
		return true
	default:
		return false
	}
}

// Advance settles (Settle), then moves the loop's clock on by d: the timers that fall due
// meanwhile are delivered in their order, each after the loop settled what the one before
// led to (a timer armed by one of them fires too when it falls due within d).
func (l *Loop) Advance(d time.Duration) {
	l.t.Helper()
	l.Settle()
	l.Timers.Advance(d, func(msg tea.Msg) {
		l.Deliver(msg)
		l.Settle()
	})
}

// Quiet lets the time d pass (Advance): the timers due within d fire, in their order.
func (l *Loop) Quiet(d time.Duration) {
	l.t.Helper()
	l.Advance(d)
}

// Until delivers messages until cond holds; whenever nothing is on its way but timers, it
// moves the loop's clock to the next one and delivers it. It fails the test after
// waitfor.Deadline.
func (l *Loop) Until(what string, cond func() bool) {
	l.t.Helper()
	deadline := time.Now().Add(waitfor.Deadline)
	for !cond() {
		if time.Now().After(deadline) {
			l.t.Fatalf("waited %s for %s; view:\n%s", waitfor.Deadline, what, l.Model.View().Content)
		}
		if l.deliverQueued() {
			continue
		}
		if l.waiting() {
			if m, ok := l.Timers.Due(); ok {
				l.Deliver(m)
				continue
			}
		}
		select {
		case m := <-l.msgs:
			l.Deliver(m)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Drain settles (Settle) and lets the time d pass (Advance): it shows that nothing more
// happens, neither from a command still running (a late answer) nor from a timer due
// within d.
func (l *Loop) Drain(d time.Duration) {
	l.t.Helper()
	l.Advance(d)
}
