package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/waitfor"
	"github.com/parley-tui/parley/sandbox"
)

// syncBuffer is a bytes.Buffer safe for the command goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// shellSafe is a NAME=value line that a shell's eval reads as one assignment, without quoting.
var shellSafe = regexp.MustCompile(`^[A-Z_]+=[A-Za-z0-9_.:/-]+$`)

// runSandboxCmd starts `parley sandbox` with args, reads the four variables it prints and
// returns them with its stderr and a function that stops it (as an interrupt would) and
// waits for it.
func runSandboxCmd(t *testing.T, args ...string) (vars map[string]string, stderr *syncBuffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr = &syncBuffer{}
	cmd := newSandboxCmd()
	cmd.SetArgs(args)
	cmd.SetOut(pw)
	cmd.SetErr(stderr)
	done := make(chan error, 1)
	go func() {
		err := cmd.ExecuteContext(ctx)
		_ = pw.Close()
		done <- err
	}()
	stopped := false
	stop = func() {
		t.Helper()
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("sandbox command: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the sandbox did not stop")
		}
	}
	t.Cleanup(stop)
	sc := bufio.NewScanner(pr)
	vars = map[string]string{}
	var order []string
	for len(order) < 4 && sc.Scan() {
		line := sc.Text()
		if !shellSafe.MatchString(line) {
			t.Fatalf("stdout line %q is not a NAME=value assignment that eval reads as it is", line)
		}
		k, v, _ := strings.Cut(line, "=")
		vars[k] = v
		order = append(order, k)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	want := []string{"PARLEY_BASE_URL", "PARLEY_TOKEN", "PARLEY_ORG_TOKEN", "PARLEY_RESTRICTED_OPERATOR_ID"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("stdout variables %v, want %v; stderr: %s", order, want, stderr.String())
	}
	return vars, stderr, stop
}

// waitStderr waits until the command's stderr holds want (it writes after stdout).
func waitStderr(t *testing.T, stderr *syncBuffer, want string) string {
	t.Helper()
	return waitfor.Value(t, fmt.Sprintf("%q on stderr", want), stderr.String, func(s string) bool { return strings.Contains(s, want) })
}

func getStatus(t *testing.T, url, token string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

func TestSandboxCommandPrintsEnvAndServes(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "requests.jsonl")
	db := filepath.Join(dir, "s.db")
	args := []string{"--addr", "127.0.0.1:0", "--db", db, "--size", "small", "--seed", "2", "--request-log", logPath}
	vars, stderr, stop := runSandboxCmd(t, args...)
	if s := getStatus(t, vars["PARLEY_BASE_URL"]+"/api/um/v3/operators/", vars["PARLEY_TOKEN"]); s != 200 {
		t.Fatalf("status %d", s)
	}
	waitStderr(t, stderr, "serving")
	if s := getStatus(t, vars["PARLEY_BASE_URL"]+"/api/um/v3/conversations/", vars["PARLEY_ORG_TOKEN"]); s != 200 {
		t.Fatalf("organization token: status %d", s)
	}
	stop()
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logged), `"path":"/api/um/v3/operators/"`) || strings.Contains(string(logged), vars["PARLEY_TOKEN"]) ||
		strings.Contains(string(logged), vars["PARLEY_ORG_TOKEN"]) {
		t.Fatalf("request log: %s", logged)
	}
	if fi, err := os.Stat(logPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("request log mode: %v %v", fi.Mode(), err)
	}
	if !strings.Contains(stderr.String(), "seeded") {
		t.Fatalf("stderr: %s", stderr.String())
	}
	if strings.Contains(stderr.String(), "reachable from other machines") {
		t.Fatalf("a sandbox on 127.0.0.1 warns that other machines reach it: %s", stderr.String())
	}
	// The database holds the tokens.
	if fi, err := os.Stat(db); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("database mode: %v %v", fi.Mode(), err)
	}

	// The second start reuses the seeded file: same tokens, nothing seeded again, and the
	// request log is appended to.
	again, stderr2, stop2 := runSandboxCmd(t, args...)
	if !strings.Contains(stderr2.String(), "reused the seeded data") {
		t.Fatalf("second start did not reuse the database: %s", stderr2.String())
	}
	for _, k := range []string{"PARLEY_TOKEN", "PARLEY_ORG_TOKEN", "PARLEY_RESTRICTED_OPERATOR_ID"} {
		if again[k] != vars[k] {
			t.Fatalf("%s changed on the second start: %s, then %s", k, vars[k], again[k])
		}
	}
	if s := getStatus(t, again["PARLEY_BASE_URL"]+"/api/um/v3/conversations/", again["PARLEY_TOKEN"]); s != 200 {
		t.Fatalf("second start: status %d", s)
	}
	stop2()
	logged2, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(logged2, logged) || bytes.Count(logged2, []byte("\n")) != bytes.Count(logged, []byte("\n"))+1 {
		t.Fatalf("request log after the second run:\n%s", logged2)
	}
}

// The built binary shuts down cleanly on SIGINT and on SIGTERM: exit status 0, the database
// closed (no write-ahead log left behind) and the port released.
func TestSandboxCommandStopsOnSignals(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	db := filepath.Join(t.TempDir(), "s.db")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		var stderr syncBuffer
		cmd := exec.Command(bin, "sandbox", "--addr", "127.0.0.1:0", "--db", db, "--size", "small")
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		vars := map[string]string{}
		sc := bufio.NewScanner(out)
		for len(vars) < 4 && sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), "=")
			vars[k] = v
		}
		if len(vars) < 4 {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("%v: the sandbox printed %v; stderr: %s", sig, vars, stderr.String())
		}
		if s := getStatus(t, vars["PARLEY_BASE_URL"]+"/api/um/v3/conversations/", vars["PARLEY_TOKEN"]); s != 200 {
			t.Fatalf("%v: status %d", sig, s)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%v: %v; stderr: %s", sig, err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: the sandbox did not stop", sig)
		}
		if !strings.Contains(stderr.String(), "shutting down") {
			t.Fatalf("%v: stderr: %s", sig, stderr.String())
		}
		if _, err := os.Stat(db + "-wal"); !os.IsNotExist(err) {
			t.Fatalf("%v: the write-ahead log is left behind (%v): the database was not closed", sig, err)
		}
		if _, err := http.Get(vars["PARLEY_BASE_URL"] + "/"); err == nil {
			t.Fatalf("%v: the port still answers after the shutdown", sig)
		}
	}
}

func TestSandboxCommandValidatesFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--size", "huge"},
		{"--size", ""},
		{"--seed", "0"},
		{"--seed", "-3"},
		{"--addr", "nohostport"},
		{"--addr", "127.0.0.1:99999"},
		{"--db", t.TempDir()},
		{"--daily-limit", "0"},
		{"--burst-rate", "-1"},
		{"--burst", "0"},
		{"--latency", "-1s"},
		{"--latency", "300"},
		{"--variant", "nope"},
		{"--variant", "capped-count,slots-used-max", "--variant", "slots-list"},
		{"extra"},
	} {
		cmd := newSandboxCmd()
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		if err := cmd.Execute(); err == nil {
			t.Fatalf("%v: no error", args)
		}
	}
}

// --daily-limit, --burst-rate and --burst reach the server: a tight daily limit answers 429
// with Retry-After once spent, and a burst of 2 at one per 10 s throttles the third request.
func TestSandboxCommandLimits(t *testing.T) {
	dir := t.TempDir()
	vars, _, stop := runSandboxCmd(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "s.db"), "--size", "small",
		"--daily-limit", "3", "--burst-rate", "0")
	defer stop()
	url := vars["PARLEY_BASE_URL"] + "/api/um/v3/contact_identities/"
	for i := range 3 {
		if s := getStatus(t, url, vars["PARLEY_TOKEN"]); s != 200 {
			t.Fatalf("request %d: status %d", i+1, s)
		}
	}
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", vars["PARLEY_TOKEN"])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); res.StatusCode != http.StatusTooManyRequests || err != nil || secs <= 0 {
		t.Fatalf("past the daily limit: status %d, Retry-After %q; want 429 with a number of seconds", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if s := getStatus(t, vars["PARLEY_BASE_URL"]+"/api/um/v3/operators/", vars["PARLEY_TOKEN"]); s != 200 {
		t.Fatalf("another family: status %d", s)
	}
	stop()

	vars, _, stop2 := runSandboxCmd(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "s.db"), "--size", "small",
		"--burst-rate", "0.1", "--burst", "2")
	defer stop2()
	url = vars["PARLEY_BASE_URL"] + "/api/um/v3/operators/"
	got := []int{getStatus(t, url, vars["PARLEY_TOKEN"]), getStatus(t, url, vars["PARLEY_TOKEN"]), getStatus(t, url, vars["PARLEY_TOKEN"])}
	if got[0] != 200 || got[1] != 200 || got[2] != http.StatusTooManyRequests {
		t.Fatalf("burst of 2: statuses %v, want 200 200 429", got)
	}
}

// On an address other machines reach (here every interface), the sandbox says so on stderr,
// with what it holds, and serves all the same.
func TestSandboxCommandWarnsWhenOtherMachinesReachIt(t *testing.T) {
	vars, stderr, stop := runSandboxCmd(t, "--addr", "0.0.0.0:0", "--db", filepath.Join(t.TempDir(), "s.db"), "--size", "small")
	defer stop()
	got := waitStderr(t, stderr, "serving")
	for _, want := range []string{"warning", "reachable from other machines", "demo tokens and demo data", "--addr 127.0.0.1:PORT"} {
		if !strings.Contains(got, want) {
			t.Fatalf("stderr lacks %q: %s", want, got)
		}
	}
	u, err := url.Parse(vars["PARLEY_BASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	local := "http://" + net.JoinHostPort("127.0.0.1", u.Port())
	if s := getStatus(t, local+"/api/um/v3/operators/", vars["PARLEY_TOKEN"]); s != 200 {
		t.Fatalf("status %d", s)
	}
}

// --latency holds every answer back that long.
func TestSandboxCommandLatency(t *testing.T) {
	const latency = 250 * time.Millisecond
	vars, stderr, stop := runSandboxCmd(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "s.db"), "--size", "small",
		"--latency", latency.String())
	defer stop()
	for _, path := range []string{"/api/um/v3/operators/", "/api/um/v3/conversations/?limit=1"} {
		began := time.Now()
		if s := getStatus(t, vars["PARLEY_BASE_URL"]+path, vars["PARLEY_TOKEN"]); s != 200 {
			t.Fatalf("%s: status %d", path, s)
		}
		if took := time.Since(began); took < latency {
			t.Fatalf("%s answered after %v, within the latency of %v", path, took, latency)
		}
	}
	if got := waitStderr(t, stderr, "serving"); !strings.Contains(got, "every answer is held back 250ms") {
		t.Fatalf("stderr does not tell the latency: %s", got)
	}
}

// --variant reaches the server, repeated and comma-separated; stderr names each variant at
// start; the help has one line per variant; an unknown name is refused with the names. The
// same database then serves without variants, reused, as before.
func TestSandboxCommandVariants(t *testing.T) {
	help := newSandboxCmd()
	var out bytes.Buffer
	help.SetOut(&out)
	help.SetArgs([]string{"--help"})
	if err := help.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, v := range sandbox.Variants() {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(string(v.Name)) + ` +` + regexp.QuoteMeta(v.Summary) + `$`).MatchString(out.String()) {
			t.Fatalf("--help has no line for %s: %s", v.Name, out.String())
		}
	}
	bad := newSandboxCmd()
	bad.SetArgs([]string{"--variant", "capped-count,uncapped"})
	bad.SetOut(io.Discard)
	bad.SetErr(io.Discard)
	if err := bad.Execute(); err == nil || !strings.Contains(err.Error(), `"uncapped"`) || !strings.Contains(err.Error(), "away-independent") {
		t.Fatalf("unknown variant: %v", err)
	}

	db := filepath.Join(t.TempDir(), "s.db")
	vars, stderr, stop := runSandboxCmd(t, "--addr", "127.0.0.1:0", "--db", db, "--size", "small",
		"--variant", "field-errors,away-independent", "--variant", "capped-count")
	got := waitStderr(t, stderr, "serving")
	for _, v := range []sandbox.Variant{sandbox.VariantFieldErrors, sandbox.VariantAwayIndependent, sandbox.VariantCappedCount} {
		if !strings.Contains(got, "variant "+string(v)+":") {
			t.Fatalf("stderr does not name variant %s: %s", v, got)
		}
	}
	if strings.Contains(got, "variant "+string(sandbox.VariantBareLists)) {
		t.Fatalf("stderr names a variant not chosen: %s", got)
	}
	badLimit := func(vars map[string]string) string {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, vars["PARLEY_BASE_URL"]+"/api/um/v3/conversations/?limit=x", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", vars["PARLEY_TOKEN"])
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusBadRequest {
			t.Fatalf("limit=x: status %d, %v", res.StatusCode, err)
		}
		return string(b)
	}
	if body := badLimit(vars); !strings.HasPrefix(body, `{"limit":[`) {
		t.Fatalf("field-errors: %s", body)
	}
	stop()
	again, stderr2, stop2 := runSandboxCmd(t, "--addr", "127.0.0.1:0", "--db", db, "--size", "small")
	defer stop2()
	if got := waitStderr(t, stderr2, "serving"); !strings.Contains(got, "reused the seeded data") || strings.Contains(got, "variant") {
		t.Fatalf("second start without variants: %s", got)
	}
	if body := badLimit(again); !strings.HasPrefix(body, `{"detail":`) {
		t.Fatalf("without variants: %s", body)
	}
}

// A taken port is said in those words, with the address, and before anything is made: no
// database is opened or seeded and no request log is created (listen, then seed, then serve).
func TestSandboxCommandOnATakenPort(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	dir := t.TempDir()
	db, logPath := filepath.Join(dir, "s.db"), filepath.Join(dir, "requests.jsonl")
	r := runParley(t, bin, headlessEnv(t), "", "sandbox", "--addr", addr, "--db", db, "--size", "small", "--request-log", logPath)
	if r.err == nil {
		t.Fatalf("the sandbox started on a taken port; stderr:\n%s", r.stderr)
	}
	want := "parley: --addr " + addr + ": address already in use"
	if !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr %q, want it to start with %q", r.stderr, want)
	}
	for _, bad := range []string{"cannot reach", "cannot connect", "opening", "seeded"} {
		if strings.Contains(r.stderr, bad) {
			t.Errorf("stderr says %q: %s", bad, r.stderr)
		}
	}
	for _, p := range []string{db, logPath} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s was made before the port was checked (stat: %v)", filepath.Base(p), err)
		}
	}
	if r.stdout != "" {
		t.Errorf("stdout %q, want nothing", r.stdout)
	}
}
