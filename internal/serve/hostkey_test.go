package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The host key is made with mode 0600 (its directory 0700) on the first start and the
// same key is read on the next.
func TestHostKeyIsMadePrivateAndReused(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state", "parley", "hub_host_ed25519_key")
	s1, created, err := HostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Error("first start: created = false")
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("host key mode %04o, want 0600", perm)
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := di.Mode().Perm(); perm != 0o700 {
		t.Errorf("host key directory mode %04o, want 0700", perm)
	}
	s2, created, err := HostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if created {
		t.Error("second start: created = true")
	}
	if Fingerprint(s1) != Fingerprint(s2) {
		t.Errorf("second start read another key: %s, then %s", Fingerprint(s1), Fingerprint(s2))
	}
	if s1.PublicKey().Type() != "ssh-ed25519" {
		t.Errorf("key type %s", s1.PublicKey().Type())
	}
}

// A key file others may read is refused (anyone who reads it can pose as the hub), and
// so is a file that is not a key.
func TestHostKeyRefusesAnOpenOrBadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	if _, _, err := HostKey(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := HostKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a key of mode 0644: error %v, want one that says chmod 600", err)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := HostKey(bad); err == nil || !strings.Contains(err.Error(), "is not a private key") {
		t.Errorf("a file that is not a key: error %v", err)
	}
}
