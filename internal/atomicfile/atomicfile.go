// Package atomicfile replaces small files so that a crash at any moment (of the process or
// of the machine) leaves either the old file or the new one, whole: the new content goes
// into a temporary file beside the old one, is synced to the disk, and is renamed over it;
// then the directory is synced so that the rename lasts too. A file that cannot be read is
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
func WriteWith(path, pattern string, data []byte, prepare func(*os.File) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return fmt.Errorf("create a temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("write: %w", err)
	}
	if prepare != nil {
		if err = prepare(tmp); err != nil {
			_ = tmp.Close()
			return err
		}
	}
	if err = tmp.Sync(); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("sync: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename into place: %w", err)
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // not every system syncs a directory; the file itself is synced
		_ = d.Close()
	}
	return nil
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
