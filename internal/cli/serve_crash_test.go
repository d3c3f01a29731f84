package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/waitfor"
)

// A panic that ends the hub's process (in a goroutine of its own, caught by the process's
// guard) first ends every session, each told why, and the process then ends with status 2.
func TestAHubCrashTellsEverySession(t *testing.T) {
	run, info := hubSandbox(t)
	dir := t.TempDir()
	key, pub := testKey(t)
	users := usersFile(t, dir, fmt.Sprintf("- name: Ben\n  key: %s\n  role: viewer\n", pub))
	env := mapEnv(hubVars(dir, run, info))
	exited := make(chan int, 1)
	stderr := &syncBuffer{}
	proc := &Process{log: testCrashLog(t), tty: &ttyGuard{}, stderr: stderr, exit: func(code int) { exited <- code }}
	ctx, cancel := context.WithCancel(withProcess(context.Background(), proc))
	defer cancel()
	f := defaultServeFlags()
	f.addr, f.users = "127.0.0.1:0", users
	stdout := &syncBuffer{}
	served := make(chan error, 1)
	go func() {
		served <- runServe(ctx, &globalFlags{}, f, func(string) bool { return false }, env, stdout, stderr)
	}()
	waitfor.True(t, "the hub's address", func() bool { return strings.HasSuffix(stdout.String(), "\n") })
	addr := strings.TrimSpace(strings.TrimPrefix(stdout.String(), "PARLEY_SSH_ADDR="))

	_, out, _, done := sshTerminal(t, addr, key)
	waitfor.True(t, "Ben's conversations", func() bool { return strings.Contains(ansi.Strip(out.String()), "conversations") })

	go func() {
		defer proc.Recover("a goroutine of the hub")
		panic("a test panic")
	}()
	endsWithStatus1(t, done, "Ben", "the hub's panic")
	text := ansi.Strip(out.String())
	if !strings.Contains(text, "parley hub: the hub stopped after an internal error (its log has the details); when it is back, connect again the same way") {
		t.Errorf("Ben was told %q", text)
	}
	if !strings.Contains(out.String(), "\x1b[?1049l") {
		t.Error("Ben's terminal was not taken off the alternate screen")
	}
	select {
	case code := <-exited:
		if code != crashExitCode {
			t.Errorf("exit status %d, want %d", code, crashExitCode)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the process was not ended after the panic")
	}
	cancel() // the test's process goes on: the hub, told to stop, returns
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("the hub: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the hub did not stop")
	}
}
