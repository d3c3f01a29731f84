//go:build unix

package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

// The database file holds the tokens: it and the files SQLite keeps beside it are readable
// by their owner only, under the common umask 022 (with which SQLite itself would create
// them 0644), both for a new file and for one an earlier version left 0644.
//
// Not parallel: the umask is the process's, and no parallel test runs while it is changed.
func TestDatabaseFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "sandbox.db")
	opts := sandbox.Options{DBPath: path, Size: sandbox.SizeSmall, Seed: 2, Now: clock}
	check := func(when string, reused bool) {
		t.Helper()
		s, err := sandbox.Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if s.Reused() != reused {
			t.Fatalf("%s: reused %v, want %v", when, s.Reused(), reused)
		}
		// While it is open, a database in WAL mode has its -wal and -shm files.
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if perm := fi.Mode().Perm(); perm != 0o600 {
				t.Errorf("%s: %s has mode %v, want 0600", when, filepath.Base(p), perm)
			}
		}
	}
	check("a new database", false)
	// As an earlier version left it: the database 0644, and (after a crash) its -wal and
	// -shm files too.
	for _, p := range []string{path + "-wal", path + "-shm"} {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check("a database left 0644", true)
}
