package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/credentials"
	"github.com/parley-tui/parley/internal/ui"
)

const testToken = "cust_0123456789abcdef0123456789abcdef"

func testCrashLog(t *testing.T) *crashLog {
	t.Helper()
	l := &crashLog{path: filepath.Join(t.TempDir(), "parley", "crash.log"),
		now: func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }, version: "1.2.3-test"}
	l.addSecret(testToken)
	return l
}

func readLog(t *testing.T, l *crashLog) string {
	t.Helper()
	b, err := os.ReadFile(l.path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCrashLogIsPrivateAndNeverHasTheToken(t *testing.T) {
	l := testCrashLog(t)
	// The last run's log, readable by everybody.
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.path, []byte("an old crash\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	value := fmt.Errorf("request with Authorization: Bearer %s failed", testToken)
	stack := []byte("goroutine 1 [running]:\nmain.handler(" + testToken + ")\n")
	summary, path, err := l.write("Update", value, stack)
	if err != nil {
		t.Fatal(err)
	}
	if path != l.path {
		t.Fatalf("path %q, want %q", path, l.path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("crash log mode %v, want 0600", fi.Mode().Perm())
	}
	got := readLog(t, l)
	if strings.Contains(got, "an old crash") {
		t.Fatalf("the first report of a run did not replace the last run's:\n%s", got)
	}
	if strings.Contains(got, testToken) || strings.Contains(summary, testToken) {
		t.Fatalf("the token was written:\nsummary %q\n%s", summary, got)
	}
	for _, want := range []string{"2026-03-04T05:06:07Z parley 1.2.3-test: internal error in Update", "request with Authorization: Bearer ****cdef failed", "main.handler(****cdef)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the log lacks %q:\n%s", want, got)
		}
	}
	// A second report of the same run is added after the first.
	if _, _, err := l.write("View", "second", []byte("stack two")); err != nil {
		t.Fatal(err)
	}
	got = readLog(t, l)
	first, second := strings.Index(got, "internal error in Update"), strings.Index(got, "internal error in View: second")
	if first < 0 || second < first {
		t.Fatalf("the reports are not both there in order:\n%s", got)
	}
}

func TestCrashLogKeepsTheFirstReportsOfAStorm(t *testing.T) {
	l := testCrashLog(t)
	for i := range maxCrashReports {
		if _, _, err := l.write("Update", fmt.Sprintf("panic %d", i), []byte("stack")); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := l.write("Update", "one too many", []byte("stack"))
	if err == nil || !strings.Contains(err.Error(), "has the first ones") {
		t.Fatalf("report %d: err = %v, want a refusal", maxCrashReports+1, err)
	}
	if got := readLog(t, l); !strings.Contains(got, "panic 0") || strings.Contains(got, "one too many") {
		t.Fatalf("the log does not hold the first reports only:\n%s", got)
	}
}

// TestPanicOutsideBubbleTeaRestoresTheTerminal: a panic in the main goroutine or in a
// goroutine of parley's own, while the TUI has the terminal in raw mode, restores the
// terminal, goes to the crash log and ends the process with status 2 and a line that
// names the cause and the log.
func TestPanicOutsideBubbleTeaRestoresTheTerminal(t *testing.T) {
	out := &written{}
	g, _, tty := openRawPTY(t, out)
	stderr := &written{}
	exited := make(chan int, 2)
	p := &Process{log: testCrashLog(t), tty: g, stderr: stderr, exit: func(code int) { exited <- code }}
	go func() {
		defer p.Recover("the signal handler")
		panic(errors.New("bad state in the signal handler"))
	}()
	if code := recv(t, exited, "exit after the panic"); code != crashExitCode {
		t.Fatalf("exit status %d, want %d", code, crashExitCode)
	}
	if isRaw(t, tty) {
		t.Fatal("the terminal was left in raw mode")
	}
	if !strings.Contains(out.String(), "\x1b[?1049l") {
		t.Fatalf("the alternate screen was not left: %q", out.String())
	}
	msg := stderr.String()
	if !strings.Contains(msg, "parley: parley stopped after an internal error (bad state in the signal handler); details in "+p.log.path) {
		t.Fatalf("stderr: %q", msg)
	}
	log := readLog(t, p.log)
	if !strings.Contains(log, "internal error in the signal handler: bad state in the signal handler") ||
		!strings.Contains(log, "TestPanicOutsideBubbleTeaRestoresTheTerminal") {
		t.Fatalf("the log does not name the cause and its stack:\n%s", log)
	}
}

// The process main builds writes its reports to the user cache directory with parley's
// version in each, and masks the token of the environment.
func TestNewProcessReportsItsVersionAndMasksTheEnvToken(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv(credentials.EnvToken, testToken)
	stderr := &written{}
	exited := make(chan int, 2)
	p := NewProcess("4.5.6-test", stderr, func(code int) { exited <- code })
	go func() {
		defer p.Recover("a goroutine")
		panic("token " + testToken + " rejected")
	}()
	if code := recv(t, exited, "exit after the panic"); code != crashExitCode {
		t.Fatalf("exit status %d, want %d", code, crashExitCode)
	}
	b, err := os.ReadFile(filepath.Join(cache, "parley", "crash.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), " parley 4.5.6-test: internal error in a goroutine: token ****cdef rejected") ||
		strings.Contains(string(b)+stderr.String(), testToken) {
		t.Fatalf("crash log:\n%s\nstderr: %q", b, stderr.String())
	}
}

func TestWithoutAProcessAPanicRunsItsCourse(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the original panic", r)
		}
	}()
	func() {
		defer processFrom(context.Background()).Recover("main")
		panic("boom")
	}()
}

func TestStormMessageNamesTheFirstCauseAndTheLog(t *testing.T) {
	l := testCrashLog(t)
	s := &ui.Stopped{First: &ui.Crash{Where: "Update", Value: "token " + testToken + " rejected", Stack: debug.Stack()}, Count: 5, Within: 10 * time.Second}
	err := crashError(s, l)
	want := "parley stopped after 5 internal errors within 10s (the first: token ****cdef rejected); the terminal was restored; details in " + l.path
	if err.Error() != want {
		t.Fatalf("got  %q\nwant %q", err, want)
	}
	l.pathErr = errors.New("no cache directory")
	if err := crashError(s, l); !strings.Contains(err.Error(), "the crash log could not be written: no cache directory") {
		t.Fatalf("got %q", err)
	}
}
