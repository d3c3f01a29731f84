//go:build keyring

package keyringtest

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dbus "github.com/godbus/dbus/v5"
)

// hangingSecretService answers Unlock (the first call go-keyring makes for every
// operation) never, like a Secret Service waiting on a prompt nobody answers.
type hangingSecretService struct{ release chan struct{} }

func (h hangingSecretService) Unlock(_ []dbus.ObjectPath) ([]dbus.ObjectPath, dbus.ObjectPath, *dbus.Error) {
	<-h.release
	return nil, "/", nil
}

// privateBus starts a dbus-daemon of its own and returns its address.
func privateBus(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon address: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestHungSecretService checks with the binary that a Secret Service that never answers
// costs one timeout, after which the keyring is left alone for the rest of the run.
func TestHungSecretService(t *testing.T) {
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Fatal("dbus-daemon is missing (package dbus)")
	}
	addr := privateBus(t)
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	h := hangingSecretService{release: make(chan struct{})}
	defer close(h.release)
	if err := conn.Export(h, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName("org.freedesktop.secrets", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("request name: %v %v", reply, err)
	}

	// The binary: login gives up after the 3 s timeout with the two ways on.
	dir := t.TempDir()
	bin := filepath.Join(dir, "parley")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/parley-tui/parley").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PARLEY_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") && !strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") {
			env = append(env, kv)
		}
	}
	env = append(env, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "DBUS_SESSION_BUS_ADDRESS="+addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "auth", "login", "--with-token", "--base-url", "http://127.0.0.1:9")
	cmd.Env = env
	cmd.Stdin = strings.NewReader("tok-0123456789abcdef\n")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start)
	if err == nil || !strings.Contains(out.String(), "no answer within 3s") || !strings.Contains(out.String(), "--insecure-storage") {
		t.Fatalf("login: %v\n%s", err, out.String())
	}
	if took > 5*time.Second {
		t.Fatalf("login took %v", took)
	}

	// Status with an organization looks up two profiles (with and without it): only the
	// first keyring call waits, then the keyring is left alone.
	cmd = exec.CommandContext(ctx, bin, "auth", "status", "--base-url", "http://127.0.0.1:9", "--org", "5")
	cmd.Env = env
	out.Reset()
	cmd.Stdout, cmd.Stderr = &out, &out
	start = time.Now()
	err = cmd.Run()
	took = time.Since(start)
	if err == nil || !strings.Contains(out.String(), "Keyring:      unavailable (read: no answer within 3s") || !strings.Contains(out.String(), "Token:        none") {
		t.Fatalf("status: %v\n%s", err, out.String())
	}
	if took > 5*time.Second {
		t.Fatalf("status took %v: the keyring was asked again after a timeout", took)
	}
}
