//go:build keyring

// This test needs a real Secret Service on a D-Bus session bus, unlocked, and secret-tool.
// .ci/keyring-test.sh provides them (gnome-keyring in dbus-run-session) and runs:
//
//	go test -tags keyring ./internal/credentials/...

package keyringtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/credentials"
)

func randomToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "tok-" + hex.EncodeToString(b)
}

func requireSession(t *testing.T) {
	t.Helper()
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		t.Fatal("no D-Bus session: run this test through .ci/keyring-test.sh")
	}
	if _, err := exec.LookPath("secret-tool"); err != nil {
		t.Fatal("secret-tool is missing (package libsecret-tools)")
	}
}

// secretToolSearch lists the keyring items of service parley.
func secretToolSearch(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("secret-tool", "search", "--all", "service", credentials.Service).CombinedOutput()
	if err != nil && len(out) > 0 {
		t.Fatalf("secret-tool search: %v\n%s", err, out)
	}
	return string(out)
}

func TestRealKeyringStore(t *testing.T) {
	requireSession(t)
	ctx := context.Background()
	tok := randomToken(t)
	p := credentials.Profile{BaseURL: "https://store-test.example.com", OrganizationID: "42"}
	s := credentials.New(credentials.Options{
		Env: func(k string) string {
			if k == credentials.EnvToken {
				return ""
			}
			return os.Getenv(k)
		},
		FilePath: filepath.Join(t.TempDir(), "credentials"),
	})
	if err := s.CheckKeyring(ctx, p); err != nil {
		t.Fatalf("keyring: %v", err)
	}
	saved, err := s.Save(ctx, p, tok, credentials.ToKeyring)
	if err != nil || saved.Source != credentials.SourceKeyring {
		t.Fatalf("save: %v", err)
	}
	if out := secretToolSearch(t); !strings.Contains(out, "attribute.username = "+p.Key()) {
		t.Fatalf("secret-tool does not list the entry:\n%s", out)
	}
	got, err := s.Lookup(ctx, p)
	if err != nil || got.Reveal() != tok || got.Source != credentials.SourceKeyring {
		t.Fatalf("lookup: %v %v", got, err)
	}
	r, err := s.Delete(ctx, p)
	if err != nil || len(r.Keyring) != 1 || r.KeyringErr != nil {
		t.Fatalf("delete: %+v %v", r, err)
	}
	if _, err := s.Lookup(ctx, p); !errors.Is(err, credentials.ErrNoToken) {
		t.Fatalf("after delete: %v", err)
	}
	if out := secretToolSearch(t); strings.Contains(out, p.Key()) {
		t.Fatalf("the entry is still listed:\n%s", out)
	}
}

// TestRealKeyringThroughCLI stores, reads and deletes a token with the parley binary.
func TestRealKeyringThroughCLI(t *testing.T) {
	requireSession(t)
	tok := randomToken(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != tok {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"detail": "Invalid token."}`))
			return
		}
		if strings.Contains(r.URL.Path, "/analytics/") {
			w.Write([]byte(`{"results": [{"organization_id": 1, "time": "2026-01-02T03:04:05", "um_widget_id": [1]}]}`))
			return
		}
		w.Write([]byte(`{"count": 1, "next": null, "previous": null, "results": [{"id": 1}]}`))
	}))
	defer srv.Close()

	dir := t.TempDir()
	bin := filepath.Join(dir, "parley")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/parley-tui/parley").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PARLEY_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	parley := func(stdin string, args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if strings.Contains(out.String(), tok) {
			t.Fatalf("parley %v printed the token:\n%s", args, out.String())
		}
		return out.String(), err
	}

	out, err := parley(tok+"\n", "auth", "login", "--with-token", "--base-url", srv.URL)
	if err != nil || !strings.Contains(out, "stored in the OS keyring") {
		t.Fatalf("login: %v\n%s", err, out)
	}
	if s := secretToolSearch(t); !strings.Contains(s, "attribute.username = "+srv.URL) || !strings.Contains(s, "secret = "+tok) {
		t.Fatalf("secret-tool does not list the token:\n%s", s)
	}
	// No flag and no variable: the base URL comes from the config file login wrote.
	out, err = parley("", "auth", "status")
	if err != nil || !strings.Contains(out, "from the OS keyring") || !strings.Contains(out, "Works:        yes") || !strings.Contains(out, credentials.Mask(tok)) {
		t.Fatalf("status: %v\n%s", err, out)
	}
	out, err = parley("", "auth", "logout")
	if err != nil || !strings.Contains(out, "from the OS keyring") {
		t.Fatalf("logout: %v\n%s", err, out)
	}
	if s := secretToolSearch(t); strings.Contains(s, srv.URL) {
		t.Fatalf("the token is still in the keyring:\n%s", s)
	}
	out, err = parley("", "auth", "status")
	if err == nil || !strings.Contains(out, "not logged in") {
		t.Fatalf("status after logout: %v\n%s", err, out)
	}
}
