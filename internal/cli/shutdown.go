package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
)

// Shutdown on a signal. SIGINT, SIGTERM and SIGHUP (a dropped SSH connection) end the TUI
// within a second with the terminal restored, whatever it is doing:
//   - the first signal cancels the TUI's context: start-up stops and Bubble Tea ends its
//     program and restores the terminal (Bubble Tea's own signal handler is off: it could
//     block forever sending to an event loop that had already stopped);
//   - if the process has not ended shutdownGrace later (a terminal that takes no more
//     output blocks every write, and Bubble Tea's shutdown with it), or at a second signal,
//     parley restores the terminal itself and exits.
//
// Bubble Tea's own shutdown takes tens of milliseconds; the short grace leaves most of the
// second to a machine under load.
//
// The exit status after a signal is 128 + its number, as a shell reports a process killed
// by it: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
const (
	shutdownGrace = 300 * time.Millisecond
	// restoreWait bounds each write to a terminal that may be gone or stuck.
	restoreWait = 100 * time.Millisecond
)

// shutdownSignals are the signals that end the TUI.
var shutdownSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// resetSequence undoes what Bubble Tea turned on: mouse reporting, focus reporting,
// bracketed paste, the hidden cursor and the alternate screen.
const resetSequence = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[?1049l"

// ttyGuard keeps the terminal's state from before the TUI took it over, so that parley can
// put it back when Bubble Tea cannot.
type ttyGuard struct {
	mu    sync.Mutex
	fd    uintptr
	state *term.State
	out   io.Writer
	done  bool // put back already (by Bubble Tea or by restore)
}

// save records the state of the terminal on fd (the TUI's input) and the output the
// reset sequence goes to.
func (t *ttyGuard) save(fd uintptr, out io.Writer) error {
	st, err := term.GetState(fd)
	if err != nil {
		return fmt.Errorf("read the terminal's settings: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fd, t.state, t.out, t.done = fd, st, out, false
	return nil
}

// released records that Bubble Tea restored the terminal itself.
func (t *ttyGuard) released() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done = true
}

// restore puts the saved settings back (raw mode off; this never blocks) and writes the
// reset sequence, waiting at most wait for a terminal that takes no output. It does
// nothing when nothing was saved or the terminal was restored already, and reports
// whether it did anything.
func (t *ttyGuard) restore(wait time.Duration) bool {
	t.mu.Lock()
	if t.state == nil || t.done {
		t.mu.Unlock()
		return false
	}
	t.done = true
	fd, st, out := t.fd, t.state, t.out
	t.mu.Unlock()
	_ = term.Restore(fd, st)
	writeWithin(out, resetSequence, wait)
	return true
}

// writeWithin writes s to w, giving up after wait: after SIGHUP the terminal may be gone,
// and a terminal that stopped reading blocks writes forever.
func writeWithin(w io.Writer, s string, wait time.Duration) {
	runWithin(wait, func() { _, _ = io.WriteString(w, s) })
}

// runWithin runs f, giving up on it after wait, for a process that is ending right after:
// a panic in f is swallowed (it must not stop the ending or replace its report) and an f
// that blocks is left behind.
func runWithin(wait time.Duration, f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = recover() }()
		f()
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
	}
}

// signalExit is runTUI's result when a signal ended it; Execute returns its code and main
// exits with it.
type signalExit struct{ sig os.Signal }

func (e *signalExit) Error() string { return "stopped by " + signalName(e.sig) }

// code is 128 + the signal's number.
func (e *signalExit) code() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// signalWatch ends the TUI on a signal (see the top of this file).
type signalWatch struct {
	sigs  chan os.Signal
	stop  func()          // asks the TUI to end: cancels its context
	force func(os.Signal) // restores the terminal and exits at once
	grace time.Duration
	after func(time.Duration) <-chan time.Time
	quit  chan struct{} // closed by finish when no signal came
	ended chan struct{} // closed when run returns (it returns only without a signal)
	noted chan struct{} // closed once the first signal is recorded

	mu    sync.Mutex
	first os.Signal
	once  sync.Once
}

// watchSignals starts the watch for the TUI: its context is cancelled by the first
// signal. finish must be called when the TUI returns.
func watchSignals(ctx context.Context, p *Process) (context.Context, *signalWatch) {
	ctx, cancel := context.WithCancel(ctx)
	w := newSignalWatch(cancel, func(sig os.Signal) {
		p.tty.restore(restoreWait)
		p.exit((&signalExit{sig}).code())
	}, shutdownGrace, time.After)
	signal.Notify(w.sigs, shutdownSignals...)
	go func() {
		defer p.Recover("the signal handler")
		w.run()
	}()
	return ctx, w
}

func newSignalWatch(stop func(), force func(os.Signal), grace time.Duration, after func(time.Duration) <-chan time.Time) *signalWatch {
	return &signalWatch{
		sigs: make(chan os.Signal, 2), stop: stop, force: force, grace: grace, after: after,
		quit: make(chan struct{}), ended: make(chan struct{}), noted: make(chan struct{}),
	}
}

func (w *signalWatch) run() {
	var first os.Signal
	select {
	case first = <-w.sigs:
	case <-w.quit:
		close(w.ended)
		return
	}
	w.mu.Lock()
	w.first = first
	w.mu.Unlock()
	close(w.noted)
	w.stop()
	// From here the process ends: by main once the TUI has returned, or here.
	select {
	case <-w.sigs:
	case <-w.after(w.grace):
	}
	w.force(first)
}

// received is the first signal, or nil.
func (w *signalWatch) received() os.Signal {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

// finish is called with the TUI's result: after a signal it is the signal's exit (the
// watch stays armed until the process ends); otherwise the watch stops and err stands.
// cancelled says the TUI's context was cancelled: a signal ended it, possibly through the
// process's own SIGTERM context before this watch recorded the signal (Bubble Tea ends
// within milliseconds), so finish waits for the signal, up to the grace period.
func (w *signalWatch) finish(err error, cancelled bool) error {
	if cancelled {
		select {
		case <-w.noted:
		case <-w.after(w.grace):
		}
	}
	if sig := w.received(); sig != nil {
		return &signalExit{sig}
	}
	w.once.Do(func() {
		signal.Stop(w.sigs)
		close(w.quit)
	})
	return err
}
