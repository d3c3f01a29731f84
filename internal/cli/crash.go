package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/parley-tui/parley/internal/credentials"
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
	version string // parley's, named in each report

	mu      sync.Mutex
	written int
	secrets secrets
}

// newCrashLog places the log in the user cache directory; its reports name version.
func newCrashLog(version string) *crashLog {
	dir, err := os.UserCacheDir()
	if err != nil {
		return &crashLog{pathErr: fmt.Errorf("find the cache directory: %w", err), now: time.Now, version: version}
	}
	return &crashLog{path: filepath.Join(dir, "parley", "crash.log"), now: time.Now, version: version}
}

// addSecret registers a value that must never be written.
func (l *crashLog) addSecret(s string) { l.secrets.add(s) }

// redact masks every registered secret in s.
func (l *crashLog) redact(s string) string { return l.secrets.redact(s) }

// secrets are values that must never be written (the API token): a log masks them.
type secrets struct {
	mu   sync.Mutex
	list []string
}

// add registers a secret ("" is none).
func (s *secrets) add(secret string) {
	if secret == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, secret)
}

// redact is text with every secret masked (credentials.Redact).
func (s *secrets) redact(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sec := range s.list {
		text = credentials.Redact(text, sec)
	}
	return text
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
		l.now().UTC().Format(time.RFC3339), l.version, where, cause, strings.TrimRight(string(stack), "\n"))
	report = l.secrets.redact(report)
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

// Process is what parley's own goroutines and the main goroutine fall back on when a panic
// escapes Bubble Tea's recovery: it puts the terminal back, writes the crash log and ends
// the process with a short message.
type Process struct {
	log    *crashLog
	tty    *ttyGuard
	stderr io.Writer
	exit   func(code int)
	once   sync.Once

	mu      sync.Mutex
	crashed map[int]func(summary string) // run before the process ends (atCrash)
	nextID  int
}

// crashHookWait bounds what the atCrash functions may take before the process ends.
const crashHookWait = 3 * time.Second

// atCrash makes Recover run f, with the panic's one-line summary, before it ends the
// process (the hub tells its sessions why they end); undo takes f back.
func (p *Process) atCrash(f func(summary string)) (undo func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.crashed == nil {
		p.crashed = map[int]func(string){}
	}
	p.nextID++
	id := p.nextID
	p.crashed[id] = f
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.crashed, id)
	}
}

// runCrashHooks runs the atCrash functions for at most crashHookWait.
func (p *Process) runCrashHooks(summary string) {
	p.mu.Lock()
	hooks := make([]func(string), 0, len(p.crashed))
	for _, f := range p.crashed {
		hooks = append(hooks, f)
	}
	p.mu.Unlock()
	if len(hooks) == 0 {
		return
	}
	// The process is ending already: a second panic here does not stop it from ending with
	// the first one's report.
	runWithin(crashHookWait, func() {
		for _, f := range hooks {
			f(summary)
		}
	})
}

// crashExitCode is the exit status after an uncaught internal error (the Go runtime's own
// for a panic).
const crashExitCode = 2

// NewProcess is the guard of one run of parley version: Recover writes to stderr and ends
// the process with exit. The API token of the environment is masked in every report.
func NewProcess(version string, stderr io.Writer, exit func(int)) *Process {
	p := &Process{log: newCrashLog(version), tty: &ttyGuard{}, stderr: stderr, exit: exit}
	p.log.addSecret(os.Getenv(credentials.EnvToken))
	return p
}

type processKey struct{}

// withProcess makes p reachable by the code ctx reaches (the commands and their
// goroutines).
func withProcess(ctx context.Context, p *Process) context.Context {
	return context.WithValue(ctx, processKey{}, p)
}

// processFrom is the process of ctx, or nil (in tests that call a command's code
// directly); a nil process lets panics run their course.
func processFrom(ctx context.Context) *Process {
	p, _ := ctx.Value(processKey{}).(*Process)
	return p
}

// Recover is deferred first thing in main and in every goroutine parley starts: a panic
// restores the terminal, goes to the crash log and ends the process (exit status 2) with
// a line on stderr that names the cause and the log.
func (p *Process) Recover(where string) {
	r := recover()
	if r == nil {
		return
	}
	if p == nil {
		panic(r)
	}
	stack := debug.Stack()
	p.once.Do(func() {
		p.tty.restore(restoreWait)
		summary, path, err := p.log.write(where, r, stack)
		msg := fmt.Sprintf("parley stopped after an internal error (%s)", summary)
		if err != nil {
			msg += "; " + err.Error()
		} else {
			msg += "; details in " + path
		}
		writeWithin(p.stderr, "parley: "+sanitize.Text(msg)+"\n", restoreWait)
		p.runCrashHooks(summary)
		p.exit(crashExitCode)
	})
}
