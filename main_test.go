package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A release build sets the version with -ldflags "-X main.version=…"; main hands it to the
// commands, and every place that names parley's version shows it: --version, the
// User-Agent of each API request (the commands' client and auth's verification client)
// and the start line of the --debug log.
func TestVersionFromLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	const v = "9.8.7-ldflags"
	bin := filepath.Join(t.TempDir(), "parley")
	if out, err := exec.Command("go", "build", "-ldflags", "-X main.version="+v, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || string(out) != "parley version "+v+"\n" {
		t.Fatalf("--version: %q, %v", out, err)
	}

	var mu sync.Mutex
	var agents []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.URL.Path+" "+r.UserAgent())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"count": 0, "next": null, "previous": null, "results": []}`)
	}))
	t.Cleanup(srv.Close)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "PARLEY_") || k == "DBUS_SESSION_BUS_ADDRESS" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(),
		"XDG_RUNTIME_DIR="+t.TempDir(), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN=tok-version-0123456789")
	debugLog := filepath.Join(t.TempDir(), "debug.log")
	for _, args := range [][]string{
		{"contacts", "search", "--debug", debugLog, "zoe"},
		{"auth", "status"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("parley %v: %v\n%s", args, err, out)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := " parley/" + v + " (+https://github.com/parley-tui/parley)"
	paths := map[string]bool{}
	for _, a := range agents {
		path, _, _ := strings.Cut(a, " ")
		paths[path] = true
		if !strings.HasSuffix(a, want) {
			t.Errorf("request %q; want the User-Agent%s", a, want)
		}
	}
	if !paths["/api/um/v3/contact_identities/"] || !paths["/api/um/v3/operators/"] {
		t.Errorf("requests %q: want contacts search's and auth status's", agents)
	}
	logged, err := os.ReadFile(debugLog)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logged), "msg=start version="+v+" ") {
		t.Errorf("the debug log's start line does not name version %s:\n%s", v, logged)
	}
}
