//go:build unix

package export_test

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/parley-tui/parley/internal/export"
)

// An export holds API data: the file is 0600 under the common umask 022, whether it is new,
// replaces a file that was 0644, or takes a name CreateNew held.
//
// Not parallel: the umask is the process's.
func TestExportFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.csv")
	if err := os.WriteFile(existing, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path   string
		create func(string) (*export.File, error)
	}{
		{filepath.Join(dir, "new.csv"), export.Create},
		{existing, export.Create},
		{filepath.Join(dir, "auto.csv"), export.CreateNew},
	} {
		f, err := c.create(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("data")); err != nil {
			t.Fatal(err)
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(c.path), perm)
		}
	}
}

// A target that is not a regular file (a pipe here; a terminal or /dev/null alike) is
// written to directly: it is not replaced by a file.
func TestCreateWritesToAPipeDirectly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		r, err := os.Open(path)
		if err != nil {
			got <- err.Error()
			return
		}
		defer r.Close()
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	f, err := export.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("the reader got %q", s)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
}
