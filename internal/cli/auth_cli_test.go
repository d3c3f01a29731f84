package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/credentials"
	"github.com/parley-tui/parley/internal/testrun"
)

// These tests run the built parley binary, as a user would.

// built is the parley binary, built once per test run (TestMain removes it).
var built struct {
	sync.Once
	dir, bin string
	err      error
	out      []byte
}

// parleyBinary builds the binary (the module root's main package) once into a temporary
// directory.
func parleyBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	built.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "parley-bin")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "parley")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, "github.com/parley-tui/parley").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// TestMain runs four of the package's parallel tests at once (they wait on the parley
// binaries they run) and removes the binary built for them.
func TestMain(m *testing.M) {
	if err := testrun.WaitBound(4); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// headlessEnv is an environment without any D-Bus session: no DBUS_SESSION_BUS_ADDRESS,
// XDG_RUNTIME_DIR an empty directory, and fresh config and home directories (the request
// ledger then goes under the fresh home).
func headlessEnv(t testing.TB) []string {
	t.Helper()
	bus := fmt.Sprintf("/run/user/%d/bus", os.Getuid())
	if _, err := os.Stat(bus); err == nil {
		t.Skipf("%s exists: this machine has a D-Bus session", bus)
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "DBUS_SESSION_BUS_ADDRESS", k == "XDG_RUNTIME_DIR", k == "XDG_CONFIG_HOME", k == "XDG_STATE_HOME", k == "HOME", strings.HasPrefix(k, "PARLEY_"):
			continue
		}
		env = append(env, kv)
	}
	return append(env, "XDG_RUNTIME_DIR="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "HOME="+t.TempDir())
}

func envListValue(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

type cliResult struct {
	stdout, stderr string
	err            error
	took           time.Duration
}

// run runs the binary bin and fails the test when any output contains the token.
func runParley(t *testing.T, bin string, env []string, stdin string, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	r := cliResult{out.String(), errOut.String(), err, time.Since(start)}
	if strings.Contains(r.stdout+r.stderr, authTestToken) {
		t.Fatalf("parley %v printed the token:\nstdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
	}
	return r
}

func TestCLILoginWithoutDBus(t *testing.T) {
	bin := parleyBinary(t)
	_, srv := newFakeAuthAPI(t, 1)
	env := headlessEnv(t)
	credPath := filepath.Join(envListValue(env, "XDG_CONFIG_HOME"), "parley", "credentials")

	r := runParley(t, bin, env, authTestToken+"\n", "auth", "login", "--with-token", "--base-url", srv.URL)
	if r.err == nil {
		t.Fatalf("login without a keyring succeeded:\n%s", r.stderr)
	}
	if r.took > 5*time.Second {
		t.Fatalf("login without a keyring took %v", r.took)
	}
	for _, want := range []string{"OS keyring unavailable", "no D-Bus session", "set PARLEY_TOKEN", "--insecure-storage", credPath} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("message lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, err := os.Stat(credPath); !os.IsNotExist(err) {
		t.Fatal("a failed login wrote the credentials file")
	}

	r = runParley(t, bin, env, authTestToken+"\n", "auth", "login", "--with-token", "--base-url", srv.URL, "--insecure-storage")
	if r.err != nil {
		t.Fatalf("login --insecure-storage: %v\n%s", r.err, r.stderr)
	}
	fi, err := os.Stat(credPath)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", fi, err)
	}
	if !strings.Contains(r.stderr, "stored in the file "+credPath) || !strings.Contains(r.stderr, "config.yaml: set base_url") {
		t.Errorf("login output:\n%s", r.stderr)
	}

	// Without any flag or variable, the recorded base URL and the file are used.
	r = runParley(t, bin, env, "", "auth", "status")
	if r.err != nil || !strings.Contains(r.stdout, "****cdef from the file "+credPath) || !strings.Contains(r.stdout, "Works:        yes") {
		t.Fatalf("status: %v\n%s%s", r.err, r.stdout, r.stderr)
	}

	// A credentials file others may read is refused, with the fix.
	if err := os.Chmod(credPath, 0o640); err != nil {
		t.Fatal(err)
	}
	r = runParley(t, bin, env, "", "auth", "status")
	if r.err == nil || !strings.Contains(r.stderr, "chmod 600 "+credPath) {
		t.Fatalf("status with mode 0640: %v\n%s", r.err, r.stderr)
	}

	r = runParley(t, bin, env, "", "auth", "logout")
	if r.err != nil || !strings.Contains(r.stderr, "Removed the token") {
		t.Fatalf("logout: %v\n%s", r.err, r.stderr)
	}
	if _, err := os.Stat(credPath); !os.IsNotExist(err) {
		t.Fatal("logout left the credentials file")
	}
}

// The real root command rewrites pflag's errors: the message names the flag and what to
// do, never the value.
func TestCLIFlagValueNotRepeated(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	env := headlessEnv(t)
	r := runParley(t, bin, env, "", "auth", "login", "--base-url", "http://127.0.0.1:1", "--with-token="+authTestToken)
	want := "parley: --with-token takes no value; pipe the token on stdin"
	if r.err == nil || !strings.HasPrefix(r.stderr, want) || r.stdout != "" {
		t.Fatalf("got %v\nstdout:\n%s\nstderr:\n%s\nwant a line starting %q", r.err, r.stdout, r.stderr, want)
	}
	r = runParley(t, bin, env, "", "sandbox", "--seed="+authTestToken)
	if want := "parley: invalid value for --seed: it takes a whole number"; r.err == nil || !strings.HasPrefix(r.stderr, want) {
		t.Fatalf("got %v\n%s\nwant %q", r.err, r.stderr, want)
	}
}

// TestCLINeverPrintsToken runs every auth and config command, their help and their
// errors, with the token in the environment and on stdin; run fails on any output
// holding it.
func TestCLINeverPrintsToken(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	_, srv := newFakeAuthAPI(t, 1, 2)
	base := headlessEnv(t)
	withEnvToken := append(append([]string(nil), base...), "PARLEY_TOKEN="+authTestToken, "PARLEY_BASE_URL="+srv.URL)
	wrongEnvToken := append(append([]string(nil), base...), "PARLEY_TOKEN=tok-WRONG-0123456789abcdef", "PARLEY_BASE_URL="+srv.URL)
	cases := []struct {
		env   []string
		stdin string
		args  []string
	}{
		{withEnvToken, "", []string{"--help"}},
		{withEnvToken, "", []string{"auth", "--help"}},
		{withEnvToken, "", []string{"auth", "login", "--help"}},
		{withEnvToken, "", []string{"auth", "status", "--help"}},
		{withEnvToken, "", []string{"auth", "logout", "--help"}},
		{withEnvToken, "", []string{"config", "--help"}},
		{withEnvToken, "", []string{"config", "init", "--help"}},
		{withEnvToken, "", []string{"auth", "status"}},
		{wrongEnvToken, "", []string{"auth", "status"}},
		{withEnvToken, "", []string{"auth", "logout"}},
		{base, authTestToken, []string{"auth", "login", "--with-token", "--base-url", srv.URL, "--insecure-storage"}},
		{base, authTestToken, []string{"auth", "login", "--with-token", "--base-url", srv.URL}},
		{base, authTestToken + " " + authTestToken, []string{"auth", "login", "--with-token", "--base-url", srv.URL, "--insecure-storage"}},
		{base, "", []string{"auth", "login", "--with-token", "--base-url", srv.URL, authTestToken}},
		{base, "", []string{"auth", authTestToken}},
		{base, "", []string{"auth", "login", "--base-url", authTestToken}},
		{base, "", []string{"auth", "login", "--base-url", "https://x.example.com/?t=" + authTestToken}},
		{base, "", []string{"auth", "login", "--org", authTestToken}},
		{base, "", []string{"auth", "status"}},
		{base, "", []string{"auth", "status", "--operator", authTestToken}},
		{base, "", []string{"auth", "logout"}},
		{base, "", []string{"config", "init", authTestToken}},
		{withEnvToken, "", []string{"config", "init"}},
		{withEnvToken, "", []string{"config", "path"}},
		// A token typed where an argument goes is never repeated in the error.
		{withEnvToken, "", []string{"conversations", "export", authTestToken}},
		{withEnvToken, "", []string{"conversations", authTestToken}},
		{withEnvToken, "", []string{"contacts", authTestToken}},
		{withEnvToken, "", []string{"analytics", authTestToken}},
		{withEnvToken, "", []string{"analytics", "metrics", authTestToken}},
		{withEnvToken, "", []string{"analytics", "export", authTestToken, "--from", "2026-01-01", "--to", "2026-01-02"}},
		{withEnvToken, "", []string{"sandbox", authTestToken}},
		// Nor where a flag's value goes, or as a flag name.
		{base, "", []string{"auth", "login", "--base-url", srv.URL, "--with-token=" + authTestToken}},
		{base, "", []string{"auth", "login", "--base-url", srv.URL, "--insecure-storage=" + authTestToken}},
		{base, "", []string{"--demo=" + authTestToken}},
		{base, "", []string{"sandbox", "--seed=" + authTestToken}},
		{base, "", []string{"analytics", "export", "--" + authTestToken}},
		{base, "", []string{"contacts", "search", "-" + authTestToken}},
		{base, "", []string{"auth", "status", "---" + authTestToken}},
	}
	for _, c := range cases {
		r := runParley(t, bin, c.env, c.stdin, c.args...)
		if r.stdout+r.stderr == "" {
			t.Errorf("parley %v printed nothing", c.args)
		}
	}
}

// hangingBus is a D-Bus address whose socket accepts connections and never answers, like a
// session bus (or Secret Service) that is stuck.
func hangingBus(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bus")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "unix:path=" + path
}

// With a keyring that never answers, start-up waits for the keyring timeout once, says so
// on stderr and in the --debug log (never the token), and goes on with the file's token.
func TestCLIUnresponsiveKeyring(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	run := smallSandbox(t)
	token := run.Server.Info().CustomerToken
	env := headlessEnv(t)
	if r := runParley(t, bin, env, token, "auth", "login", "--with-token", "--base-url", run.URL, "--insecure-storage"); r.err != nil {
		t.Fatalf("login: %v\n%s", r.err, r.stderr)
	}

	env = append(env, "DBUS_SESSION_BUS_ADDRESS="+hangingBus(t))
	logPath := filepath.Join(t.TempDir(), "debug.log")
	r := runParley(t, bin, env, "", "--debug", logPath, "contacts", "search", "smith", "--limit", "1")
	if r.err != nil {
		t.Fatalf("search: %v\n%s", r.err, r.stderr)
	}
	if r.took < credentials.DefaultTimeout || r.took > credentials.DefaultTimeout+5*time.Second {
		t.Errorf("took %v; the keyring timeout is %v", r.took, credentials.DefaultTimeout)
	}
	want := "parley: the OS keyring did not answer within 3s; not using it this run\n"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, want := range []string{"level=WARN msg=keyring problem=\"OS keyring unavailable: read: no answer within 3s", "msg=token source=file"} {
		if !strings.Contains(log, want) {
			t.Errorf("the debug log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log+r.stdout+r.stderr, token) {
		t.Fatalf("the token was printed or logged:\n%s\n%s", log, r.stderr)
	}
}
