package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/parley-tui/parley/credentials"
	"github.com/parley-tui/parley/sanitize"
)

// maxCrashReports bounds the reports one run writes, so a panic repeated for hours does
// not fill the disk.
const maxCrashReports = 20

// crashLog is the crash log, <user cache dir>/parley/crash.log, mode 0600: the first report
// of a run replaces the last run's, later ones are appended. A registered secret (the API
// token) never reaches it: it is masked in every report and summary.
type crashLog struct {
	path    string
	pathErr error // why there is no path
	now     func() time.Time

	mu      sync.Mutex
	written int
	secrets []string
}

// newCrashLog places the log in the user cache directory.
func newCrashLog() *crashLog {
	dir, err := os.UserCacheDir()
	if err != nil {
		return &crashLog{pathErr: fmt.Errorf("find the cache directory: %w", err), now: time.Now}
	}
	return &crashLog{path: filepath.Join(dir, "parley", "crash.log"), now: time.Now}
}

// addSecret registers a value that must never be written.
func (l *crashLog) addSecret(s string) {
	if s == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.secrets = append(l.secrets, s)
}

// redact masks every registered secret in s.
func (l *crashLog) redact(s string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, sec := range l.secrets {
		s = credentials.Redact(s, sec)
	}
	return s
}

// write records a caught panic and returns its one-line description (secrets masked) and
// the log's path.
func (l *crashLog) write(where string, value any, stack []byte) (summary, path string, err error) {
	cause := l.redact(fmt.Sprint(value))
	summary = sanitize.Line(cause)
	if l.pathErr != nil {
		return summary, "", fmt.Errorf("write the crash log: %w", l.pathErr)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.written >= maxCrashReports {
		return summary, l.path, fmt.Errorf("write the crash log: more than %d internal errors in this run; %s has the first ones", maxCrashReports, l.path)
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return summary, l.path, fmt.Errorf("write the crash log: %w", err)
	}
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if l.written == 0 {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(l.path, flags, 0o600)
	if err != nil {
		return summary, l.path, fmt.Errorf("write the crash log: %w", err)
	}
	report := fmt.Sprintf("%s parley %s: internal error in %s: %s\n\n%s\n",
		l.now().UTC().Format(time.RFC3339), version, where, cause, strings.TrimRight(string(stack), "\n"))
	for _, sec := range l.secrets {
		report = credentials.Redact(report, sec)
	}
	// A log that existed with wider permissions is narrowed before the stack goes in.
	err = f.Chmod(0o600)
	if err == nil {
		_, err = io.WriteString(f, report+"\n")
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return summary, l.path, fmt.Errorf("write the crash log: %w", err)
	}
	l.written++
	return summary, l.path, nil
}
