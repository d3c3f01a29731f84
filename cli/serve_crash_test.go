package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/sandbox"
)

// A panic that ends the hub's process (in a goroutine of its own, caught by the process's
// guard) first ends every session, each told why, and the process then ends with status 2.
func TestAHubCrashTellsEverySession(t *testing.T) {
	run, err := sandbox.Start(context.Background(), sandbox.Options{Size: sandbox.SizeSmall, BurstRate: -1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = run.Close() })
	info := run.Server.Info()
	dir := t.TempDir()
	key, pub := testKey(t)
	users := filepath.Join(dir, "users.yaml")
	if err := os.WriteFile(users, []byte(fmt.Sprintf("- name: Ben\n  key: %s\n  role: viewer\n", pub)), 0o600); err != nil {
		t.Fatal(err)
	}
	env := mapEnv(map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "c"), "XDG_DATA_HOME": filepath.Join(dir, "d"),
		"XDG_STATE_HOME": filepath.Join(dir, "s"), "XDG_CACHE_HOME": filepath.Join(dir, "cache"),
		"PARLEY_BASE_URL": run.URL, "PARLEY_TOKEN": info.CustomerToken})
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
	waitFor(t, "the hub's address", func() bool { return strings.HasSuffix(stdout.String(), "\n") })
	addr := strings.TrimSpace(strings.TrimPrefix(stdout.String(), "PARLEY_SSH_ADDR="))

	_, out, _, done := sshTerminal(t, addr, key)
	waitFor(t, "Ben's conversations", func() bool { return strings.Contains(ansi.Strip(out.String()), "conversations") })

	go func() {
		defer proc.Recover("a goroutine of the hub")
		panic("a test panic")
	}()
	select {
	case err := <-done:
		if ee, ok := err.(*gossh.ExitError); !ok || ee.ExitStatus() != 1 {
			t.Errorf("Ben's session ended with %v, want status 1", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Ben's session did not end after the hub's panic")
	}
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
