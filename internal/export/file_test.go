package export_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/export"
)

// leftovers are the files in dir other than want: temporary files an export left behind.
func leftovers(t *testing.T, dir string, want ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		keep := false
		for _, w := range want {
			keep = keep || e.Name() == w
		}
		if !keep {
			out = append(out, e.Name())
		}
	}
	return out
}

func write(t *testing.T, f *export.File, s string) {
	t.Helper()
	if _, err := f.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Nothing shows under the target's name until Commit; then the whole export does, and a
// file that was there before is replaced only then.
func TestCommitPutsTheWholeExportInPlace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	f, err := export.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	write(t, f, "a,b\n")
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the target exists before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // deferred in real use: nothing after Commit
	if got := readFile(t, path); got != "a,b\n" {
		t.Fatalf("file holds %q", got)
	}
	if left := leftovers(t, dir, "out.csv"); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}

	f, err = export.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	write(t, f, "c,d\n")
	if got := readFile(t, path); got != "a,b\n" {
		t.Fatalf("the previous export changed before Commit: %q", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "c,d\n" {
		t.Fatalf("file holds %q after the second export", got)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Fatal("a write after Commit succeeded")
	}
}

// An export given up (a failed fetch, an interrupt) leaves nothing of itself: no temporary
// file, no reserved name, and the file that was there before as it was.
func TestAbortLeavesWhatWasThere(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("before"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := export.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	write(t, f, "half of an exp")
	f.Abort()
	if got := readFile(t, path); got != "before" {
		t.Fatalf("an aborted export changed the file: %q", got)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}

	fresh := filepath.Join(dir, "new.json")
	f, err = export.CreateNew(fresh)
	if err != nil {
		t.Fatal(err)
	}
	write(t, f, "half")
	f.Abort()
	if left := leftovers(t, dir, "out.json"); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// CreateNew holds the name at once (another CreateNew for it fails with fs.ErrExist) and
// never replaces a file.
func TestCreateNewNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.csv")
	f, err := export.CreateNew(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := export.CreateNew(path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("a second CreateNew of a held name: %v, want fs.ErrExist", err)
	}
	write(t, f, "one")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := export.CreateNew(path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreateNew over an export: %v, want fs.ErrExist", err)
	}
	if got := readFile(t, path); got != "one" {
		t.Fatalf("file holds %q", got)
	}
}

// Create fails at once, naming the path, for what it cannot write: a missing directory or a
// directory as the target.
func TestCreateFailsAtOnce(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "missing", "x.csv"), "no such file or directory"},
		{dir, "is a directory"},
	} {
		_, err := export.Create(c.path)
		if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Create(%s): %v, want an error naming it with %q", c.path, err, c.want)
		}
	}
	if os.Geteuid() == 0 {
		return // root writes whatever the modes say
	}
	ro := filepath.Join(dir, "read-only.csv")
	if err := os.WriteFile(ro, []byte("keep"), 0o400); err != nil {
		t.Fatal(err)
	}
	if _, err := export.Create(ro); err == nil || !strings.Contains(err.Error(), "cannot be overwritten") {
		t.Errorf("a read-only file: %v", err)
	}
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o500); err != nil {
		t.Fatal(err)
	}
	if _, err := export.Create(filepath.Join(locked, "x.csv")); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("a directory without write permission: %v", err)
	}
}

// Through a symbolic link the file it points to is replaced, and the link stays.
func TestCreateFollowsASymbolicLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.csv")
	link := filepath.Join(dir, "link.csv")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	f, err := export.Create(link)
	if err != nil {
		t.Fatal(err)
	}
	write(t, f, "new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if got := readFile(t, target); got != "new" {
		t.Fatalf("the linked file holds %q", got)
	}
}

// TestCreateFree: a taken name gets -2, -3, … before its extension; a free one is used.
func TestCreateFree(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "parley-conversation-7.md")
	var names []string
	for range 3 {
		f, err := export.CreateFree(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(f.Name()))
	}
	want := []string{"parley-conversation-7.md", "parley-conversation-7-2.md", "parley-conversation-7-3.md"}
	if !slices.Equal(names, want) {
		t.Fatalf("names %q, want %q", names, want)
	}
}
