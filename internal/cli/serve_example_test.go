package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/parley-tui/parley/internal/waitfor"
)

// The example of `parley serve --help` that starts a hub in the background and connects to
// it runs in a shell as written (up to the ssh, replaced by printing the address): it
// gets PARLEY_SSH_ADDR as soon as the hub listens, instead of waiting for the hub's stdout
// to close, which it never does while the hub runs.
func TestServeHelpBackgroundExampleDoesNotHang(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := parleyBinary(t)
	help := runParley(t, bin, headlessEnv(t), "", "serve", "--help")
	var example string
	for _, l := range strings.Split(help.stdout, "\n") {
		if strings.Contains(l, "PARLEY_SSH_ADDR") && strings.Contains(l, "ssh -p") {
			example = strings.TrimSpace(l)
		}
	}
	cut := strings.Index(example, "; ssh ")
	if cut < 0 {
		t.Fatalf("no example that starts a hub and connects to it in:\n%s", help.stdout)
	}
	script := example[:cut] + `; echo "ADDR=$PARLEY_SSH_ADDR"`

	run, info := hubSandbox(t)
	dir := t.TempDir()
	_, key := testKey(t)
	users := filepath.Join(dir, "config", "parley", "users.yaml")
	if err := os.MkdirAll(filepath.Dir(users), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(users, fmt.Appendf(nil, "- name: Anna\n  key: %s\n  role: viewer\n", key), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := hubVars(dir, run, info)
	vars["PATH"] = filepath.Dir(bin) + string(os.PathListSeparator) + vars["PATH"] // `parley` is the binary under test
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = environ(vars)
	var out syncBuffer
	var stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the hub it starts too
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) })
	addr := regexp.MustCompile(`ADDR=127\.0\.0\.1:[0-9]+\n`)
	var ended error
	exited := false
	waitfor.True(t, "the example's address line", func() bool {
		select {
		case ended = <-done:
			exited = true
		default:
		}
		return exited || addr.MatchString(out.String())
	})
	if !addr.MatchString(out.String()) {
		t.Fatalf("the example %q ended (%v) without the address: %q\n%s", script, ended, out.String(), stderr.String())
	}
}
