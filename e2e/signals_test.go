//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// signalBudget is how long parley may take to end after SIGINT, SIGTERM or SIGHUP.
const signalBudget = time.Second

// slowAPI is a reverse proxy to the sandbox that holds every request for delay before
// passing it on (or until the client gives up), so parley's lists stay loading.
type slowAPI struct {
	URL      string
	inFlight atomic.Int64
}

func startSlowAPI(t *testing.T, target string, delay time.Duration) *slowAPI {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	s := &slowAPI{}
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-timer.C:
			rp.ServeHTTP(w, r)
		case <-r.Context().Done():
		case <-release:
			http.Error(w, "test over", http.StatusServiceUnavailable)
		}
	}))
	s.URL = srv.URL
	t.Cleanup(func() {
		close(release)
		srv.Close()
	})
	return s
}

// TestSignalEndsParleyWhileListsLoad sends SIGTERM to 20 fresh parleys and SIGHUP to 20
// more, each while its lists are loading (requests held by a slow API), and checks each
// ends within a second with the terminal restored: main screen, cursor shown, and the tty
// back in canonical mode with echo (stty -a, run in the pane after parley exits).
func TestSignalEndsParleyWhileListsLoad(t *testing.T) {
	sb := StartSandbox(t, "small")
	api := startSlowAPI(t, sb.BaseURL, time.Minute)
	env := []string{"PARLEY_BASE_URL=" + api.URL, "PARLEY_TOKEN=" + sb.Token}
	const runs = 20
	var all []time.Duration
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		var took []time.Duration
		for i := range runs {
			t.Run(fmt.Sprintf("%s-%d", unix.SignalName(sig), i+1), func(t *testing.T) {
				took = append(took, signalWhileLoading(t, env, api, sig))
			})
		}
		if len(took) > 0 {
			t.Logf("%s: %d runs, signal to exit: median %v, max %v", unix.SignalName(sig), len(took), median(took), slices.Max(took))
		}
		all = append(all, took...)
	}
	if len(all) > 0 {
		t.Logf("all %d runs: signal to exit: median %v, max %v", len(all), median(all), slices.Max(all))
	}
}

// signalWhileLoading runs one parley in a pane under a shell that reports its exit
// status and the tty's settings once it ends, signals it while it loads and checks the
// result. It returns the time from the signal to the exit.
func signalWhileLoading(t *testing.T, env []string, api *slowAPI, sig syscall.Signal) time.Duration {
	tui, pidFile := startUnderShell(t, 120, 30, env)
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "Loading conversations") && api.inFlight.Load() > 0
	}, 30*time.Second, "the conversation list loading")
	if on := tui.format("#{alternate_on}"); on != "1" {
		t.Fatalf("parley is not on the alternate screen while loading (alternate_on=%s)", on)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	took, ended := signalAndWait(t, pid, sig, 10*time.Second)
	if !ended {
		t.Fatalf("parley still runs 10 s after %s", unix.SignalName(sig))
	}
	if took > signalBudget {
		t.Errorf("parley took %v to end after %s, want at most %v", took, unix.SignalName(sig), signalBudget)
	}
	screen := tui.WaitFor("stty-done", 10*time.Second)
	if want := fmt.Sprintf("parley-exit=%d", 128+int(sig)); !strings.Contains(screen, want) {
		t.Errorf("exit status: want %s; screen:\n%s", want, screen)
	}
	if on := tui.format("#{alternate_on}"); on != "0" {
		t.Errorf("still on the alternate screen after parley ended (alternate_on=%s)", on)
	}
	if c := tui.format("#{cursor_flag}"); c != "1" {
		t.Errorf("cursor hidden after parley ended (cursor_flag=%s)", c)
	}
	for _, flag := range []string{"icanon", "echo"} {
		if !regexp.MustCompile(`(^|\s)` + flag + `(\s|$)`).MatchString(screen) {
			t.Errorf("the tty is left without %s; stty -a:\n%s", flag, screen)
		}
	}
	return took
}

// startUnderShell runs parley in a new tmux session like StartTUI, but under a shell that
// stays in the pane: parley's own shell writes its pid to pidFile and becomes parley; once
// parley ends, the outer shell prints "parley-exit=STATUS", then `stty -a` of the pane's
// tty, then "stty-done".
func startUnderShell(t *testing.T, w, h int, env []string) (tui *TUI, pidFile string) {
	t.Helper()
	sessionSeq.Lock()
	sessionSeq.n++
	n := sessionSeq.n
	sessionSeq.Unlock()
	dir := t.TempDir()
	tui = &TUI{t: t, session: fmt.Sprintf("parley-signals-%d-%d", os.Getpid(), n), socket: filepath.Join(dir, "tmux.sock"), dir: dir, W: w, H: h}
	pidFile = filepath.Join(dir, "pid")
	var script strings.Builder
	script.WriteString("export TERM=xterm-256color XDG_CONFIG_HOME=" + shq(filepath.Join(dir, "config")) +
		" XDG_CACHE_HOME=" + shq(filepath.Join(dir, "cache")) + "; ")
	script.WriteString("unset DBUS_SESSION_BUS_ADDRESS NO_COLOR PARLEY_BASE_URL PARLEY_TOKEN PARLEY_ORG_ID PARLEY_OPERATOR_ID PARLEY_CONFIG; ")
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		script.WriteString("export " + k + "=" + shq(v) + "; ")
	}
	parley := "exec " + shq(binary) + " 2>" + shq(filepath.Join(dir, "stderr"))
	script.WriteString("sh -c " + shq("echo $$ >"+shq(pidFile)+"; "+parley) +
		"; echo parley-exit=$?; stty -a; echo stty-done; exec sleep 86400")
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g status off\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tui.tmux("-f", conf, "new-session", "-d", "-s", tui.session, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh", "-c", script.String())
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("screen at failure:\n%s", tui.Screen())
			t.Logf("stderr:\n%s", tui.Stderr())
		}
		_ = exec.Command("tmux", "-S", tui.socket, "kill-server").Run()
	})
	return tui, pidFile
}

// format is a tmux format (#{…}) evaluated for the pane.
func (tui *TUI) format(f string) string {
	tui.t.Helper()
	return strings.TrimSpace(tui.tmux("display-message", "-p", "-t", tui.session, f))
}

// signalAndWait sends sig to pid and waits up to limit for the process to end, which a
// pidfd tells the moment it happens (the test is not the process's parent). It returns
// the time from the signal to the end.
func signalAndWait(t *testing.T, pid int, sig syscall.Signal, limit time.Duration) (time.Duration, bool) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	defer unix.Close(fd)
	start := time.Now()
	if err := unix.PidfdSendSignal(fd, sig, nil, 0); err != nil {
		t.Fatalf("send %s: %v", unix.SignalName(sig), err)
	}
	for {
		left := limit - time.Since(start)
		if left <= 0 {
			return time.Since(start), false
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(left/time.Millisecond)+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			t.Fatalf("poll pidfd: %v", err)
		}
		if n > 0 {
			return time.Since(start), true
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestSignalEndsParleyOnAStuckTerminal: a terminal that takes no more output (an SSH
// connection that stalled) blocks every write, Bubble Tea's shutdown included. SIGTERM
// still ends parley within a second with the tty out of raw mode.
func TestSignalEndsParleyOnAStuckTerminal(t *testing.T) {
	sb := StartSandbox(t, "small")
	api := startSlowAPI(t, sb.BaseURL, time.Minute)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	// The size is set without ptmx.Fd(), which would make reads blocking and their
	// deadlines useless.
	rc, err := ptmx.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	if cerr := rc.Control(func(fd uintptr) {
		err = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: 30, Col: 100})
	}); cerr != nil || err != nil {
		t.Fatalf("set the terminal's size: %v %v", cerr, err)
	}
	dir := t.TempDir()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd := exec.Command(binary)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TERM=xterm-256color", "COLORFGBG=15;0",
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"PARLEY_BASE_URL=" + api.URL, "PARLEY_TOKEN=" + sb.Token}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()

	// Read the output until the list is loading, then never again.
	var out []byte
	buf := make([]byte, 32<<10)
	deadline := time.Now().Add(30 * time.Second)
	for !(strings.Contains(string(out), "Loading conversations") && api.inFlight.Load() > 0) {
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(stderr.Name())
			t.Fatalf("the list never showed as loading; output %q, stderr %q", out, b)
		}
		_ = ptmx.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, err := ptmx.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read the terminal: %v", err)
		}
	}
	if !raw(t, tty) {
		t.Fatal("parley did not put the tty in raw mode")
	}
	// Fill the terminal's output buffer: from now on every write to it blocks.
	fill, err := unix.Open(tty.Name(), unix.O_WRONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fill)
	fillUp(t, fill)

	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		took := time.Since(start)
		exited <- err // for the deferred cleanup
		t.Logf("ended %v after SIGTERM on a stuck terminal", took)
		if took > signalBudget {
			t.Errorf("took %v, want at most %v", took, signalBudget)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) {
			t.Errorf("exit: %v, want status %d", err, 128+int(syscall.SIGTERM))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("parley still runs 10 s after SIGTERM on a stuck terminal")
	}
	if raw(t, tty) {
		t.Error("the tty was left in raw mode")
	}
}

// fillUp writes to the tty until it takes no more: the kernel moves output between its
// buffers in the background, so it is full once it stays unwritable for a while.
func fillUp(t *testing.T, fd int) {
	t.Helper()
	junk := []byte(strings.Repeat("x", 4096))
	for {
		for size := len(junk); size > 0; {
			_, err := unix.Write(fd, junk[:size])
			switch {
			case errors.Is(err, unix.EAGAIN):
				size /= 2
			case err != nil:
				t.Fatalf("fill the terminal's buffer: %v", err)
			}
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}, 200)
		if err != nil && !errors.Is(err, unix.EINTR) {
			t.Fatalf("poll the terminal: %v", err)
		}
		if n == 0 {
			return
		}
	}
}

// raw reports whether the tty is in raw mode (no canonical input, no echo).
func raw(t *testing.T, tty *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	canon, echo := tio.Lflag&unix.ICANON != 0, tio.Lflag&unix.ECHO != 0
	if canon != echo {
		t.Fatalf("the tty is half raw: icanon %v, echo %v", canon, echo)
	}
	return !canon
}
