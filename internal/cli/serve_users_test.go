package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/waitfor"
)

// `parley serve users add` while the hub runs: the key added connects without a restart
// (the hub watches its users file), and list shows the new user; remove takes her out
// again and her session ends.
func TestServeUsersAddConnectsWithoutARestart(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	run, info := hubSandbox(t)
	dir := t.TempDir()
	_, annaKey := testKey(t)
	users := usersFile(t, dir, fmt.Sprintf("# the team\n- name: Anna   # support\n  key: %s\n  operator: %d\n  role: agent\n",
		annaKey, info.RestrictedOperatorID))
	env := environ(hubVars(dir, run, info))
	p := startServe(t, env, "--addr", "127.0.0.1:0", "--users", users, "--log-format", "json")

	ben, benKey := testKey(t)
	keyFile := filepath.Join(dir, "ben.pub")
	if err := os.WriteFile(keyFile, []byte(benKey+" ben@desk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := gossh.Dial("tcp", p.addr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(ben)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second}); err == nil {
		_ = c.Close()
		t.Fatal("Ben got in before he was added")
	}
	bin := parleyBinary(t)
	r := runParley(t, bin, env, "", "serve", "users", "add", "--users", users, "--name", "Ben", "--key", keyFile, "--role", "viewer")
	if r.err != nil || !strings.Contains(r.stdout, `added "Ben" (viewer) to `+users) {
		t.Fatalf("users add: %v\nstdout: %s\nstderr: %s", r.err, r.stdout, r.stderr)
	}
	waitfor.True(t, "the hub to read the file", func() bool { return logged(t, p.stderr.String(), "users reloaded", "users", "2") })
	_, out, _, done := sshTerminal(t, p.addr, ben)
	waitfor.True(t, "Ben's conversations", func() bool { return strings.Contains(ansi.Strip(out.String()), "conversations") })

	r = runParley(t, bin, env, "", "serve", "users", "list", "--users", users)
	if r.err != nil {
		t.Fatalf("users list: %v\n%s", r.err, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "NAME") || !strings.HasPrefix(lines[1], "Anna ") ||
		!strings.HasPrefix(lines[2], "Ben ") || !strings.Contains(lines[2], "viewer") || !strings.Contains(lines[2], "ben@desk") ||
		!strings.Contains(lines[2], "SHA256:") {
		t.Errorf("users list:\n%s", r.stdout)
	}
	data, _ := os.ReadFile(users)
	if !strings.Contains(string(data), "# the team") || !strings.Contains(string(data), "# support") {
		t.Errorf("the file lost its comments:\n%s", data)
	}

	r = runParley(t, bin, env, "", "serve", "users", "remove", "--users", users, "ben")
	if r.err != nil || !strings.Contains(r.stdout, `removed "Ben" (viewer)`) {
		t.Fatalf("users remove: %v\nstdout: %s\nstderr: %s", r.err, r.stdout, r.stderr)
	}
	endsWithStatus1(t, done, "Ben", "his removal")
	if !strings.Contains(ansi.Strip(out.String()), "your key was removed from the hub's users file") {
		t.Errorf("Ben was told %q", ansi.Strip(out.String()))
	}
}

// add refuses a bad key, an operator the API does not list and a name the file has, each
// with the reason and exit status 1, and leaves the file as it was; check says what is
// wrong with a file and that a good one checks out.
func TestServeUsersAddRefusesWithTheReason(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	run, info := hubSandbox(t)
	dir := t.TempDir()
	_, annaKey := testKey(t)
	content := fmt.Sprintf("- name: Anna\n  key: %s\n  operator: %d\n  role: agent\n", annaKey, info.RestrictedOperatorID)
	users := usersFile(t, dir, content)
	env := environ(hubVars(dir, run, info))
	bin := parleyBinary(t)
	_, goodKey := testKey(t)
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.pub", goodKey)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--name", "Ben", "--key", write("bad.pub", "ssh-ed25519 AAAAnotakey ben"), "--role", "viewer"},
			`user "Ben" not added: key: not a public key in authorized_keys form`},
		{[]string{"--name", "Ben", "--key", write("id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----\n"),
			"--role", "viewer"}, "key: this is a private key; give the public one"},
		{[]string{"--name", "Ben", "--key", good, "--role", "agent", "--operator", "999999"},
			"operator: 999999 is not an operator of"},
		{[]string{"--name", "anna", "--key", good, "--role", "viewer"}, `name: "Anna" is on line 1 already`},
		{[]string{"--name", "Ben", "--key", good, "--role", "agent"}, "operator: an agent needs the operator id"},
		{[]string{"--name", "Ben", "--role", "viewer"}, "parley serve users add needs --key"},
		{[]string{"--name", "Ben", "--key", filepath.Join(dir, "none.pub"), "--role", "viewer"}, "read the key:"},
	} {
		r := runParley(t, bin, env, "", append([]string{"serve", "users", "add", "--users", users}, c.args...)...)
		if r.err == nil || !strings.Contains(r.stderr, c.want) {
			t.Errorf("add %q: %v, stderr %q, want %q", c.args, r.err, r.stderr, c.want)
		}
		if data, _ := os.ReadFile(users); string(data) != content {
			t.Errorf("add %q changed the file:\n%s", c.args, data)
		}
	}
	r := runParley(t, bin, env, goodKey+"\n", "serve", "users", "add", "--users", users, "--name", "Cleo", "--key", "-", "--role", "viewer")
	if r.err != nil {
		t.Errorf("a key on stdin: %v\n%s", r.err, r.stderr)
	}
	r = runParley(t, bin, env, "", "serve", "users", "check", "--users", users)
	if r.err != nil || !strings.Contains(r.stdout, "2 users, each checked against the API") {
		t.Errorf("check: %v\nstdout: %s\nstderr: %s", r.err, r.stdout, r.stderr)
	}
	bad := write("bad.yaml", fmt.Sprintf("- name: Anna\n  key: %s\n  operator: 999999\n  role: agent\n", annaKey))
	r = runParley(t, bin, env, "", "serve", "users", "check", "--users", bad)
	if r.err == nil || !strings.Contains(r.stderr, bad+`:1: user "Anna": operator: 999999 is not an operator of`) {
		t.Errorf("check of a bad file: %v\n%s", r.err, r.stderr)
	}
}
