package export

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parley-tui/parley/internal/atomicfile"
)

// File is an export file being written. Exports hold API data, so the file is 0600, like
// every file parley writes. The data goes to a temporary file beside the target, and Commit
// renames it to the target (package atomicfile, which syncs the file and its directory):
// no one ever finds half an export under the target's name, and
// an export that fails (or is interrupted) leaves what the target held before untouched.
// A target that exists and is not a regular file (a terminal, /dev/null, a pipe) is written
// to directly: there is nothing to replace.
//
// Create and CreateNew check everything they can before any data is fetched: a missing or
// unwritable directory, a directory as the target, a target that may not be written.
type File struct {
	direct   *os.File            // the target itself, when it is written to directly
	pending  *atomicfile.Pending // else the replacement of the target (symbolic links resolved)
	path     string              // the target, as given
	reserved bool                // CreateNew made the target (empty) to hold its name: Abort removes it
	done     bool                // committed or aborted
}

// Create opens an export to path that replaces the file there, if any.
func Create(path string) (*File, error) { return create(path, false) }

// CreateNew opens an export to path, which must not exist: it holds the name at once with an
// empty 0600 file, and an error that wraps fs.ErrExist says that the name is taken.
func CreateNew(path string) (*File, error) { return create(path, true) }

// CreateFree opens an export to path, which must not exist, or when that name is taken to
// the first free one of path-2, path-3, … (the number before the extension), up to 999;
// Name says which.
func CreateFree(path string) (*File, error) {
	ext := filepath.Ext(path)
	target := path
	for i := 2; ; i++ {
		f, err := CreateNew(target)
		if err == nil || !errors.Is(err, fs.ErrExist) || i > 999 {
			return f, err
		}
		target = strings.TrimSuffix(path, ext) + "-" + strconv.Itoa(i) + ext
	}
}

func create(path string, isNew bool) (*File, error) {
	if path == "" {
		return nil, errors.New("no file name")
	}
	out := &File{path: path}
	real := path // the target with symbolic links resolved: what Commit replaces
	if isNew {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", path, reason(err))
		}
		if err := f.Close(); err != nil {
			_ = os.Remove(path)
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
		out.reserved = true
	} else if fi, err := os.Stat(path); err == nil {
		if r, err := filepath.EvalSymlinks(path); err == nil {
			real = r
		}
		switch {
		case fi.IsDir():
			return nil, fmt.Errorf("%s is a directory", path)
		case !fi.Mode().IsRegular():
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return nil, fmt.Errorf("open %s: %w", path, reason(err))
			}
			out.direct = f
			return out, nil
		}
		// The new file replaces this one; whoever made it read-only meant it to stay.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("%s cannot be overwritten: %w", path, reason(err))
		}
		_ = f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, reason(err))
	}
	pending, err := atomicfile.Begin(real, "."+filepath.Base(real)+".*.part") // mode 0600
	if err != nil {
		out.abortReserved()
		return nil, fmt.Errorf("cannot create %s: %w", path, reason(err))
	}
	out.pending = pending
	return out, nil
}

// reason is the cause of a file system error without the paths, which the messages above
// name themselves (and which, for the temporary file, mean nothing to the user).
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// Name is the target's path, as given.
func (f *File) Name() string { return f.path }

// Write writes to the export.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("write %s: the export is closed", f.path)
	}
	var w io.Writer = f.pending
	if f.direct != nil {
		w = f.direct
	}
	n, err := w.Write(p)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", f.path, reason(err))
	}
	return n, nil
}

// Commit finishes the export: the data is flushed to disk and the temporary file takes the
// target's name. After a failed Commit nothing is left of the export.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("commit %s: the export is closed", f.path)
	}
	f.done = true
	if f.direct != nil {
		if err := f.direct.Close(); err != nil {
			return fmt.Errorf("close %s: %w", f.path, reason(err))
		}
		return nil
	}
	if err := f.pending.Commit(); err != nil {
		f.abortReserved()
		return fmt.Errorf("write %s: %w", f.path, reason(err))
	}
	return nil
}

// Abort gives the export up: the temporary file (and a name CreateNew held) is removed,
// and a file the target held before stays as it was. It does nothing after Commit or
// another Abort, or on a nil File, so that it can be deferred.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	if f.direct != nil {
		_ = f.direct.Close()
	} else {
		f.pending.Abort()
	}
	f.abortReserved()
}

func (f *File) abortReserved() {
	if f.reserved {
		_ = os.Remove(f.path)
		f.reserved = false
	}
}
