// Package atomicfile replaces files so that a crash at any moment (of the process or of
// the machine) leaves either the old file or the new one, whole: the new content goes into
// a temporary file beside the old one (in one write, or as a stream: Begin), is synced to
// the disk, and is renamed over it; then the directory is synced so that the rename lasts
// too. A file that cannot be read is
// kept aside under a name of its own (SetAside) rather than overwritten.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Write replaces path with data. The temporary file is created in path's directory with
// os.CreateTemp's pattern (mode 0600, which the file keeps) and removed when anything
// fails; the error says which step did.
func Write(path, pattern string, data []byte) error { return WriteWith(path, pattern, data, nil) }

// WriteWith is Write with prepare (when not nil) called on the temporary file once data is
// in it, before it is synced and renamed: to give it another mode or owner (those of the
// file it replaces). An error of prepare stops the replacement.
func WriteWith(path, pattern string, data []byte, prepare func(*os.File) error) error {
	p, err := Begin(path, pattern)
	if err != nil {
		return err
	}
	if _, err := p.Write(data); err != nil {
		p.Abort()
		return fmt.Errorf("write: %w", err)
	}
	if prepare != nil {
		if err := prepare(p.File()); err != nil {
			p.Abort()
			return err
		}
	}
	return p.Commit()
}

// Pending is the replacement of a file while it is written (Write in one go, or a stream
// of writes of any length): the content goes to a temporary file beside the file, which
// Commit puts in its place and Abort removes.
type Pending struct {
	tmp  *os.File
	path string
}

// Begin starts replacing path. The temporary file is created in path's directory with
// os.CreateTemp's pattern (mode 0600, which the file keeps unless it is changed through
// File).
func Begin(path, pattern string) (*Pending, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return nil, fmt.Errorf("create a temporary file: %w", err)
	}
	return &Pending{tmp: tmp, path: path}, nil
}

// Write writes to the temporary file.
func (p *Pending) Write(b []byte) (int, error) { return p.tmp.Write(b) }

// File is the temporary file, to give it another mode or owner before Commit.
func (p *Pending) File() *os.File { return p.tmp }

// Commit syncs the temporary file to the disk, renames it over the file and syncs the
// directory, so that the rename lasts too. After an error the temporary file is gone and
// the file is as it was; the error says which step failed.
func (p *Pending) Commit() (err error) {
	defer func() {
		if err != nil {
			_ = os.Remove(p.tmp.Name())
		}
	}()
	if err = p.tmp.Sync(); err != nil {
		_ = p.tmp.Close()
		return fmt.Errorf("sync: %w", err)
	}
	if err = p.tmp.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if err = os.Rename(p.tmp.Name(), p.path); err != nil {
		return fmt.Errorf("rename into place: %w", err)
	}
	if d, derr := os.Open(filepath.Dir(p.path)); derr == nil {
		_ = d.Sync() // not every system syncs a directory; the file itself is synced
		_ = d.Close()
	}
	return nil
}

// Abort gives the replacement up: the temporary file is removed and the file stays as it
// was.
func (p *Pending) Abort() {
	_ = p.tmp.Close()
	_ = os.Remove(p.tmp.Name())
}

// stampLayout is the UTC time in the name of a file kept aside: safe in a file name on
// every system (no colon), and sorting as the times do.
const stampLayout = "20060102T150405Z"

// SetAside keeps a file that cannot be read (a damaged state or ledger file) under a new
// name beside it, <name>.damaged-<UTC time> (a second one within the same second gets
// ".2", ".3" …), so that nothing is lost and a new file can take its place. It returns
// the new name (without the directory); a file that is gone already is no error (the name
// is then "").
func SetAside(path string, now time.Time) (string, error) {
	base := filepath.Base(path) + ".damaged-" + now.UTC().Format(stampLayout)
	name := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(filepath.Join(filepath.Dir(path), name)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		name = base + "." + strconv.Itoa(i)
	}
	if err := os.Rename(path, filepath.Join(filepath.Dir(path), name)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", fmt.Errorf("keep the damaged file aside: %w", err)
	}
	return name, nil
}

// IsAside reports whether name is one SetAside gives the file called orig (a name read
// from somewhere else is checked before it is believed).
func IsAside(orig, name string) bool {
	stamp, ok := strings.CutPrefix(name, orig+".damaged-")
	if !ok {
		return false
	}
	stamp, n, counted := strings.Cut(stamp, ".")
	if counted {
		if i, err := strconv.Atoi(n); err != nil || i < 2 || strconv.Itoa(i) != n {
			return false
		}
	}
	t, err := time.Parse(stampLayout, stamp)
	return err == nil && t.Format(stampLayout) == stamp
}
