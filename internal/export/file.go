package export

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// File is an export file being written. Exports hold API data, so the file is 0600, like
// every file parley writes. The data goes to a temporary file beside the target, and Commit
// renames it to the target: no one ever finds half an export under the target's name, and
// an export that fails (or is interrupted) leaves what the target held before untouched.
// A target that exists and is not a regular file (a terminal, /dev/null, a pipe) is written
// to directly: there is nothing to replace.
//
// Create and CreateNew check everything they can before any data is fetched: a missing or
// unwritable directory, a directory as the target, a target that may not be written.
type File struct {
	f        *os.File
	path     string // the target, as given
	real     string // the target with symbolic links resolved: what Commit replaces
	tmp      string // the temporary file; "" when writing to the target directly
	reserved bool   // CreateNew made the target (empty) to hold its name: Abort removes it
	done     bool   // committed or aborted
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
	out := &File{path: path, real: path}
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
		if real, err := filepath.EvalSymlinks(path); err == nil {
			out.real = real
		}
		switch {
		case fi.IsDir():
			return nil, fmt.Errorf("%s is a directory", path)
		case !fi.Mode().IsRegular():
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return nil, fmt.Errorf("open %s: %w", path, reason(err))
			}
			out.f = f
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
	tmp, err := os.CreateTemp(filepath.Dir(out.real), "."+filepath.Base(out.real)+".*.part") // mode 0600
	if err != nil {
		out.abortReserved()
		return nil, fmt.Errorf("cannot create %s: %w", path, reason(err))
	}
	out.f, out.tmp = tmp, tmp.Name()
	return out, nil
}

// reason is the cause of a file system error without the path, which the messages above
// name themselves (and which, for the temporary file, means nothing to the user).
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
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
	n, err := f.f.Write(p)
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
	if f.tmp == "" {
		f.done = true
		if err := f.f.Close(); err != nil {
			return fmt.Errorf("close %s: %w", f.path, reason(err))
		}
		return nil
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp, f.real)
	}
	if err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", f.path, reason(err))
	}
	f.done = true
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
	_ = f.f.Close()
	if f.tmp != "" {
		_ = os.Remove(f.tmp)
	}
	f.abortReserved()
}

func (f *File) abortReserved() {
	if f.reserved {
		_ = os.Remove(f.path)
		f.reserved = false
	}
}
