package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Write replaces the file, leaves no temporary file behind, keeps it private, and on a
// failure leaves the old file as it was.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	for _, content := range []string{"first\n", "second, longer\n", ""} {
		if err := Write(path, ".state-*.tmp", []byte(content)); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != content {
			t.Fatalf("read back %q, %v; want %q", b, err, content)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	// A directory in the way: the rename fails, the temporary file goes.
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Write(blocked, ".blocked-*.tmp", []byte("x")); err == nil {
		t.Fatal("renamed over a directory that is not empty")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left behind after a failure: %v", entries)
	}
}

// SetAside keeps a file under <name>.damaged-<UTC time>, a second one of the same second
// under a name of its own, and IsAside knows those names and no others.
func TestSetAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	at := time.Date(2026, 11, 20, 14, 2, 0, 0, time.FixedZone("CET", 3600))
	var names []string
	for _, content := range []string{"{damaged", "{again"} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		name, err := SetAside(path, at)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != content {
			t.Fatalf("%s holds %q, %v", name, b, err)
		}
		names = append(names, name)
	}
	if want := []string{"state.json.damaged-20261120T130200Z", "state.json.damaged-20261120T130200Z.2"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file is still there: %v", err)
	}
	if name, err := SetAside(path, at); name != "" || err != nil {
		t.Errorf("a missing file: %q, %v", name, err)
	}
	for name, want := range map[string]bool{
		names[0]: true, names[1]: true, "state.json.damaged-20261120T130200Z.10": true,
		"state.json.damaged-20261120T130200Z.1": false, "state.json.damaged-20261120T130200Z.02": false,
		"state.json.damaged-2026-11-20": false, "other.json.damaged-20261120T130200Z": false,
		"state.json.damaged-20261320T130200Z": false, "../state.json.damaged-20261120T130200Z": false, "": false,
	} {
		if got := IsAside("state.json", name); got != want {
			t.Errorf("IsAside(%q) = %v", name, got)
		}
	}
}

// WriteWith gives prepare the temporary file with the data in it: a mode it sets stays,
// and its error leaves the old file as it was and no temporary file.
func TestWriteWithPrepare(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "users.yaml")
	if err := WriteWith(path, ".users-*", []byte("new\n"), func(f *os.File) error { return f.Chmod(0o640) }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, %v; want 0640", fi.Mode().Perm(), err)
	}
	refuse := errors.New("no owner")
	if err := WriteWith(path, ".users-*", []byte("other\n"), func(*os.File) error { return refuse }); !errors.Is(err, refuse) {
		t.Fatalf("a refusing prepare: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("the file holds %q after a refused replacement", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want the file alone", len(entries))
	}
}

// A replacement written as a stream takes the file's place on Commit; one given up with
// Abort leaves the file as it was and no temporary file.
func TestBeginCommitAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "export.csv")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Begin(path, ".export-*.part")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("half")); err != nil {
		t.Fatal(err)
	}
	p.Abort()
	if b, err := os.ReadFile(path); err != nil || string(b) != "old\n" {
		t.Fatalf("after Abort: %q, %v", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind after Abort: %v", entries)
	}
	if p, err = Begin(path, ".export-*.part"); err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"a,b\n", "1,2\n"} {
		if _, err := p.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "a,b\n1,2\n" {
		t.Fatalf("after Commit: %q, %v", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind after Commit: %v", entries)
	}
}
