package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// fakeWatch is a signalWatch whose program never ends by itself and whose clock only
// moves when the test says so.
type fakeWatch struct {
	*signalWatch
	stopped chan struct{}
	armed   chan struct{} // the grace period started
	forced  chan os.Signal
	timer   chan time.Time
}

func newFakeWatch() *fakeWatch {
	f := &fakeWatch{stopped: make(chan struct{}, 4), armed: make(chan struct{}, 4), forced: make(chan os.Signal, 4), timer: make(chan time.Time)}
	f.signalWatch = newSignalWatch(
		func() { f.stopped <- struct{}{} },
		func(s os.Signal) { f.forced <- s },
		shutdownGrace,
		func(d time.Duration) <-chan time.Time {
			if d != shutdownGrace {
				panic("unexpected wait " + d.String())
			}
			f.armed <- struct{}{}
			return f.timer
		})
	go f.run()
	return f
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s within 5 s", what)
	}
	var zero T
	return zero
}

func TestSecondSignalForcesTheExit(t *testing.T) {
	w := newFakeWatch()
	w.sigs <- syscall.SIGTERM
	recv(t, w.stopped, "request to stop after the first signal")
	recv(t, w.armed, "the grace period to start")
	select {
	case s := <-w.forced:
		t.Fatalf("forced out (%v) before the grace period or a second signal", s)
	default:
	}
	// The program does not end (it is stuck), and the grace period has not passed.
	w.sigs <- syscall.SIGINT
	if s := recv(t, w.forced, "forced exit after the second signal"); s != syscall.SIGTERM {
		t.Fatalf("forced with %v, want the first signal's SIGTERM", s)
	}
}

func TestStuckShutdownIsForcedAfterTheGracePeriod(t *testing.T) {
	w := newFakeWatch()
	w.sigs <- syscall.SIGHUP
	recv(t, w.stopped, "request to stop")
	recv(t, w.armed, "the grace period to start")
	select {
	case s := <-w.forced:
		t.Fatalf("forced out (%v) before the grace period ended", s)
	default:
	}
	w.timer <- time.Now()
	if s := recv(t, w.forced, "forced exit after the grace period"); s != syscall.SIGHUP {
		t.Fatalf("forced with %v, want SIGHUP", s)
	}
	if err := w.finish(nil, true); err == nil || err.(*signalExit).code() != 129 {
		t.Fatalf("finish after SIGHUP = %v, want exit status 129", err)
	}
}

func TestSignalExitCodes(t *testing.T) {
	for sig, want := range map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143, syscall.SIGHUP: 129} {
		w := newFakeWatch()
		w.sigs <- sig
		recv(t, w.stopped, "request to stop")
		var se *signalExit
		if err := w.finish(errors.New("program was killed"), true); !errors.As(err, &se) || se.code() != want {
			t.Errorf("%v: finish = %v, want exit status %d", sig, err, want)
		}
	}
}

// SIGTERM also cancels the process's own context (main's), which ends the TUI; Bubble Tea
// v2 ends within milliseconds, so the TUI's result can come back before this watch took
// the same signal from its channel. The result is still the signal's exit status (143),
// never 0.
func TestSignalNotedAfterTheTUIEndedIsItsResult(t *testing.T) {
	w := newFakeWatch()
	res := make(chan error, 1)
	go func() { res <- w.finish(nil, true) }() // the TUI ended: its context was cancelled
	recv(t, w.armed, "finish to wait for the signal")
	select {
	case err := <-res:
		t.Fatalf("finish returned %v before the signal was noted", err)
	default:
	}
	w.sigs <- syscall.SIGTERM
	var se *signalExit
	if err := recv(t, res, "finish's result"); !errors.As(err, &se) || se.code() != 143 {
		t.Fatalf("finish = %v, want SIGTERM's exit status 143", err)
	}
}

func TestNoSignalLeavesTheResultAndStopsWatching(t *testing.T) {
	w := newFakeWatch()
	want := errors.New("some error")
	if err := w.finish(want, false); err != want {
		t.Fatalf("finish = %v, want the TUI's own result", err)
	}
	recv(t, w.ended, "the watch to end")
	if w.finish(nil, false) != nil {
		t.Fatal("a second finish changed the result")
	}
}

// openRawPTY is a terminal put in raw mode the way Bubble Tea does, after its settings
// were saved in a ttyGuard writing to out (the terminal itself when out is nil).
func openRawPTY(t *testing.T, out io.Writer) (g *ttyGuard, ptmx, tty *os.File) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ptmx.Close(); _ = tty.Close() })
	if out == nil {
		out = tty
	}
	g = &ttyGuard{}
	if err := g.save(tty.Fd(), out); err != nil {
		t.Fatal(err)
	}
	if _, err := term.MakeRaw(tty.Fd()); err != nil {
		t.Fatal(err)
	}
	if !isRaw(t, tty) {
		t.Fatal("MakeRaw left the pty cooked")
	}
	return g, ptmx, tty
}

func isRaw(t *testing.T, tty *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&(unix.ICANON|unix.ECHO) == 0
}

func TestRestoreOnAStuckTerminalReturns(t *testing.T) {
	pr, pw := io.Pipe() // nobody reads: every write blocks
	defer pr.Close()
	g, _, tty := openRawPTY(t, pw)
	done := make(chan bool, 1)
	go func() { done <- g.restore(restoreWait) }()
	if !recv(t, done, "restore to return on a terminal that takes no output") {
		t.Fatal("restore did nothing")
	}
	if isRaw(t, tty) {
		t.Fatal("the terminal was left in raw mode")
	}
}

// A crash hook with a bug of its own must not end the process before the first report.
func TestRunWithinSwallowsAPanic(t *testing.T) {
	ran := false
	runWithin(time.Minute, func() {
		ran = true
		panic("a crash hook's own bug")
	})
	if !ran {
		t.Fatal("f did not run")
	}
}

func TestRestoreWritesTheResetSequenceOnce(t *testing.T) {
	g, ptmx, tty := openRawPTY(t, nil)
	if !g.restore(restoreWait) {
		t.Fatal("restore did nothing")
	}
	if isRaw(t, tty) {
		t.Fatal("the terminal was left in raw mode")
	}
	got := readUntil(t, ptmx, "\x1b[?1049l")
	for _, seq := range []string{"\x1b[?25h", "\x1b[?2004l", "\x1b[?1000l"} {
		if !strings.Contains(got, seq) {
			t.Errorf("reset sequence %q not written; got %q", seq, got)
		}
	}
	if g.restore(restoreWait) {
		t.Fatal("a second restore wrote again")
	}
}

// written records what is written to it.
type written struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *written) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *written) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func TestRestoreAfterBubbleTeaDidNothing(t *testing.T) {
	out := &written{}
	g, _, tty := openRawPTY(t, out)
	g.released()
	if g.restore(restoreWait) {
		t.Fatal("restore wrote over a terminal Bubble Tea had restored")
	}
	if !isRaw(t, tty) {
		t.Fatal("restore changed the settings")
	}
	if got := out.String(); got != "" {
		t.Fatalf("written: %q", got)
	}
	if (&ttyGuard{}).restore(restoreWait) {
		t.Fatal("restore without saved settings did something")
	}
}

// readUntil reads the pty's master side until want shows up and returns what it read.
func readUntil(t *testing.T, ptmx *os.File, want string) string {
	t.Helper()
	var b bytes.Buffer
	buf := make([]byte, 4096)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), want) {
		left := time.Until(deadline)
		if left <= 0 {
			t.Fatalf("%q not written within 5 s; got %q", want, b.String())
		}
		pfd := []unix.PollFd{{Fd: int32(ptmx.Fd()), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, int(left/time.Millisecond)+1)
		if err != nil && !errors.Is(err, unix.EINTR) {
			t.Fatal(err)
		}
		if n > 0 {
			k, err := ptmx.Read(buf)
			b.Write(buf[:k])
			if err != nil {
				t.Fatalf("read the pty: %v", err)
			}
		}
	}
	return b.String()
}
