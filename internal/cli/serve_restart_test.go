package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/ledger"
	"github.com/parley-tui/parley/internal/waitfor"
)

// A hub killed with SIGKILL while an agent works in it (as the out-of-memory killer would)
// leaves its audit log and request ledger readable, and started again as a supervisor
// starts it (the same command, address and directories) it serves again with the same
// host key, appending to the same files.
func TestHubKilledRestartsFromItsFiles(t *testing.T) {
	run, info := hubSandbox(t)
	dir := t.TempDir()
	anna, annaKey := testKey(t)
	users := usersFile(t, dir, fmt.Sprintf("- name: Anna\n  key: %s\n  operator: %d\n  role: agent\n", annaKey, info.RestrictedOperatorID))
	vars := hubVars(dir, run, info)
	env := environ(vars)
	auditLog := filepath.Join(dir, "state", "parley", "audit.jsonl")
	ledgerDir, err := ledger.DefaultDir(mapEnv(vars))
	if err != nil {
		t.Fatal(err)
	}

	p := startServe(t, env, "--addr", "127.0.0.1:0", "--users", users)
	var hostKey gossh.PublicKey
	s := openAgent(t, p.addr, anna, func(_ string, _ net.Addr, k gossh.PublicKey) error { hostKey = k; return nil })
	s.setTopic(t, "Restarted")
	waitfor.True(t, "the write in the audit log", func() bool { return len(auditLines(t, auditLog)) == 1 })

	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		p.done <- err
	case <-time.After(15 * time.Second):
		t.Fatal("the hub did not die of SIGKILL")
	}
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		t.Fatal("the session outlived its hub")
	}

	// What the dead hub left: every audit line whole, the ledger readable and counting.
	if lines := auditLines(t, auditLog); len(lines) != 1 || lines[0]["user"] != "Anna" {
		t.Fatalf("the audit log after the kill: %v", lines)
	}
	before := answered(t, ledgerDir, run.URL)
	if before == 0 {
		t.Fatal("the ledger counts nothing after the kill")
	}

	p2 := startServe(t, env, "--addr", p.addr, "--users", users)
	if p2.addr != p.addr {
		t.Fatalf("started again on %s, want %s", p2.addr, p.addr)
	}
	if strings.Contains(p2.stderr.String(), "made=true") {
		t.Error("the hub made a new host key after the restart")
	}
	again := openAgent(t, p2.addr, anna, gossh.FixedHostKey(hostKey))
	again.setTopic(t, "Back")
	waitfor.True(t, "the second write in the audit log", func() bool { return len(auditLines(t, auditLog)) == 2 })
	if err := p2.stop(t, syscall.SIGTERM); err != nil {
		t.Errorf("SIGTERM after the restart: %v; stderr:\n%s", err, p2.stderr.String())
	}
	if after := answered(t, ledgerDir, run.URL); after <= before {
		t.Errorf("the ledger counts %d answered requests after the restart, %d before: the day did not go on", after, before)
	}
	err = filepath.WalkDir(ledgerDir, func(path string, _ fs.DirEntry, err error) error {
		if strings.Contains(filepath.Base(path), ".damaged") {
			t.Errorf("the ledger set a damaged file aside: %s", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// listCount is the list's header once its first page is in ("50 conversations").
var listCount = regexp.MustCompile(`[0-9] conversations`)

// agentSession is an SSH session of the hub with a terminal.
type agentSession struct {
	out  *syncBuffer
	in   io.Writer
	done chan error
}

// openAgent opens a session at addr with key, checking the host key with hostKey, and
// waits for the conversations.
func openAgent(t *testing.T, addr string, key gossh.Signer, hostKey gossh.HostKeyCallback) *agentSession {
	t.Helper()
	_, out, in, done := sshTerminalChecked(t, addr, key, hostKey)
	a := &agentSession{out: out, in: in, done: done}
	waitfor.True(t, "the session's list", func() bool { return listCount.MatchString(ansi.Strip(a.out.String())) })
	return a
}

func (a *agentSession) wait(t *testing.T, text string) {
	t.Helper()
	waitfor.True(t, "the session to show "+text, func() bool { return strings.Contains(ansi.Strip(a.out.String()), text) })
}

// setTopic adds a topic to the first conversation in the topics form.
func (a *agentSession) setTopic(t *testing.T, topic string) {
	t.Helper()
	if _, err := io.WriteString(a.in, "t"); err != nil {
		t.Fatal(err)
	}
	a.wait(t, "Topics of conversation")
	if _, err := io.WriteString(a.in, "\t"+topic+"\r"); err != nil {
		t.Fatal(err)
	}
}

// auditLines reads the audit log; every line must be a whole JSON object.
func auditLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit log line %d is not whole: %q: %v", i+1, line, err)
		}
		out = append(out, m)
	}
	return out
}

// answered is how many requests the ledger at dir counts as answered today for baseURL.
func answered(t *testing.T, dir, baseURL string) int {
	t.Helper()
	l, err := ledger.Open(ledger.Options{Dir: dir, BaseURL: baseURL})
	if err != nil {
		t.Fatalf("open the ledger: %v", err)
	}
	defer func() { _ = l.Close() }()
	n := 0
	for _, r := range l.Snapshot(ledger.DayOf(time.Now())) {
		n += r.Answered
	}
	return n
}
