package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// formatVersion is the version of the day files this parley writes.
const formatVersion = 1

var (
	// errDamaged: a day file that cannot be read as a ledger file; the next write keeps it
	// aside (<day>.json.damaged) and starts the day again.
	errDamaged = errors.New("damaged")
	// errLockTimeout: another process held the lock longer than LockWait.
	errLockTimeout = errors.New("another parley holds the ledger's lock")
)

// DefaultDir is where the ledgers live: $XDG_STATE_HOME/parley/ledger, else the platform's
// equivalent: %LocalAppData%\parley\ledger on Windows, ~/Library/Application
// Support/parley/ledger on macOS, ~/.local/state/parley/ledger elsewhere. env looks up
// environment variables.
func DefaultDir(env func(string) string) (string, error) {
	if x := env("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "parley", "ledger"), nil
	}
	switch runtime.GOOS {
	case "windows":
		if a := env("LocalAppData"); a != "" {
			return filepath.Join(a, "parley", "ledger"), nil
		}
		return "", errors.New("cannot find the state directory: %LocalAppData% is not set")
	case "darwin":
		if h := env("HOME"); h != "" {
			return filepath.Join(h, "Library", "Application Support", "parley", "ledger"), nil
		}
	default:
		if h := env("HOME"); h != "" {
			return filepath.Join(h, ".local", "state", "parley", "ledger"), nil
		}
	}
	return "", errors.New("cannot find the state directory: neither XDG_STATE_HOME nor HOME is set")
}

// CanonicalBaseURL is the form of a base URL the ledger keys on and stores: scheme and host
// in lower case, without a default port, user info, query, fragment or trailing slash.
func CanonicalBaseURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("ledger: base URL: %w", err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("ledger: base URL %q has no scheme or host", u.Redacted())
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	switch {
	case port != "":
		host = net.JoinHostPort(host, port)
	case strings.Contains(host, ":"):
		host = "[" + host + "]"
	}
	return scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/"), nil
}

// files are the day files of one base URL.
type files struct {
	root     string // every base URL's directory is in it
	dir      string // root/<hash>
	api      string // the canonical base URL, stored in each file
	lockWait time.Duration
}

func newFiles(root, baseURL string, lockWait time.Duration) (files, error) {
	api, err := CanonicalBaseURL(baseURL)
	if err != nil {
		return files{}, err
	}
	if lockWait <= 0 {
		lockWait = DefaultLockWait
	}
	sum := sha256.Sum256([]byte(api))
	return files{root: root, dir: filepath.Join(root, hex.EncodeToString(sum[:8])), api: api, lockWait: lockWait}, nil
}

// prepare creates the directories (0700), narrowing them when they are wider.
func (f files) prepare() error {
	for _, d := range []string{f.root, f.dir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("ledger: %w", err)
		}
		st, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("ledger: %w", err)
		}
		if !st.IsDir() {
			return fmt.Errorf("ledger: %s is not a directory", d)
		}
		if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(d, 0o700); err != nil {
				return fmt.Errorf("ledger: %w", err)
			}
		}
	}
	return nil
}

// lock takes the base URL's lock file, waiting at most lockWait for another process.
func (f files) lock() (unlock func(), err error) {
	lf, err := os.OpenFile(filepath.Join(f.dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	if err := lockFile(lf, f.lockWait); err != nil {
		_ = lf.Close()
		if errors.Is(err, errLockTimeout) {
			return nil, fmt.Errorf("ledger: %s: %w for more than %s", f.dir, err, f.lockWait)
		}
		return nil, fmt.Errorf("ledger: lock %s: %w", lf.Name(), err)
	}
	return func() {
		_ = unlockFile(lf)
		_ = lf.Close()
	}, nil
}

func (f files) path(day string) string { return filepath.Join(f.dir, day+".json") }

// record is a day file.
type record struct {
	Version int      `json:"version"`
	API     string   `json:"api"`
	Day     string   `json:"day"`
	Counts  []result `json:"counts"`
}

type result struct {
	Org       int64  `json:"org"`
	Family    string `json:"family"`
	Answered  int    `json:"answered"`
	Refused   int    `json:"refused"`
	Unreached int    `json:"unreached"`
}

// read reads day's file; a missing file is an empty day. A file that is not a ledger file
// is errDamaged; one of a newer format, or of another base URL, is an error that leaves it
// alone. The counts are non-nil in every case.
func (f files) read(day string) (map[Key]Counts, error) {
	counts := map[Key]Counts{}
	b, err := os.ReadFile(f.path(day))
	if errors.Is(err, fs.ErrNotExist) {
		return counts, nil
	}
	if err != nil {
		return counts, fmt.Errorf("ledger: %w", err)
	}
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil || head.Version <= 0 {
		return counts, fmt.Errorf("ledger: %s: %w (not a ledger file)", f.path(day), errDamaged)
	}
	if head.Version > formatVersion { // its other fields may mean something else now
		return counts, fmt.Errorf("ledger: %s is of a newer parley (format %d); not changing it", f.path(day), head.Version)
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return counts, fmt.Errorf("ledger: %s: %w (%v)", f.path(day), errDamaged, err)
	}
	if rec.API != f.api {
		return counts, fmt.Errorf("ledger: %s counts for another API (%q); not changing it", f.path(day), rec.API)
	}
	if rec.Day != day {
		return counts, fmt.Errorf("ledger: %s: %w (it names the day %q)", f.path(day), errDamaged, rec.Day)
	}
	for _, r := range rec.Counts {
		if r.Family == "" {
			continue
		}
		k := Key{Org: r.Org, Family: r.Family}
		counts[k] = counts[k].Plus(Counts{Answered: max(0, r.Answered), Refused: max(0, r.Refused), Unreached: max(0, r.Unreached)})
	}
	return counts, nil
}

// write replaces day's file with counts: written beside it, then renamed over it, so a
// reader sees the old file or the new one, never a part.
func (f files) write(day string, counts map[Key]Counts) (err error) {
	rec := record{Version: formatVersion, API: f.api, Day: day, Counts: make([]result, 0, len(counts))}
	for k, c := range counts {
		if c.IsZero() {
			continue
		}
		rec.Counts = append(rec.Counts, result{Org: k.Org, Family: k.Family, Answered: c.Answered, Refused: c.Refused, Unreached: c.Unreached})
	}
	sort.Slice(rec.Counts, func(i, j int) bool {
		a, b := rec.Counts[i], rec.Counts[j]
		if a.Org != b.Org {
			return a.Org < b.Org
		}
		return a.Family < b.Family
	})
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	tmp, err := os.CreateTemp(f.dir, "."+day+".*.tmp") // mode 0600
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f.path(day))
	}
	if err != nil {
		return fmt.Errorf("ledger: write %s: %w", f.path(day), err)
	}
	return nil
}

// setAside keeps a damaged day file as <day>.json.damaged (replacing an older one).
func (f files) setAside(day string) error {
	if err := os.Rename(f.path(day), f.path(day)+".damaged"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

// staleTemp is how old a temporary file must be before pruning removes it (a write still
// in progress is younger).
const staleTemp = time.Hour

// prune removes the files of days before `before` of every base URL, and temporary files
// left by a process that stopped while writing.
func (f files) prune(before string) error {
	dirs, err := os.ReadDir(f.root)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	var errs []error
	for _, d := range dirs {
		if !d.IsDir() || !isHashName(d.Name()) {
			continue
		}
		dir := filepath.Join(f.root, d.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, e := range entries {
			name := e.Name()
			old := false
			switch {
			case strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp"):
				if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
					old = true
				}
			case len(name) > 10 && validDay(name[:10]) && name[10] == '.':
				old = name[:10] < before
			}
			if old {
				if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
				}
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("ledger: prune: %w", err)
	}
	return nil
}

// isHashName reports a directory name of the ledger's own: 16 lower-case hex digits.
func isHashName(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
