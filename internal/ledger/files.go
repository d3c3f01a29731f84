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

	"github.com/parley-tui/parley/internal/atomicfile"
)

// formatVersion is the version of the day files this parley writes.
const formatVersion = 1

var (
	// errDamaged: a day file that cannot be read as a ledger file; it is kept aside
	// (<day>.json.damaged-<time>) and the day starts again (see damagedError).
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
	// Restarted says that the day's counts started again from zero after its file was
	// found damaged (absent when they never did): every process reading the file learns
	// it, not only the one that found the damage.
	Restarted *restartRecord `json:"restarted,omitempty"`
}

type result struct {
	Org       int64  `json:"org"`
	Family    string `json:"family"`
	Answered  int    `json:"answered"`
	Refused   int    `json:"refused"`
	Unreached int    `json:"unreached"`
}

type restartRecord struct {
	At     string `json:"at"`     // RFC 3339, UTC
	Kept   string `json:"kept"`   // the damaged file's new name, in the same directory
	Reason string `json:"reason"` // a Damage
}

// Damage is why a day file could not be read as a ledger file.
type Damage string

// The damages a day file may have.
const (
	DamageNotJSON  Damage = "not-json"  // not JSON, or cut short
	DamageNotOurs  Damage = "not-ours"  // JSON, but not a ledger file (no version)
	DamageShape    Damage = "shape"     // a ledger file whose fields have the wrong types
	DamageOtherDay Damage = "other-day" // a ledger file of another day
)

// Words says the damage in a few words that follow "the file was": "cut short or not
// JSON".
func (d Damage) Words() string {
	switch d {
	case DamageNotJSON:
		return "cut short or not JSON"
	case DamageNotOurs:
		return "not a ledger file"
	case DamageShape:
		return "of the wrong shape"
	case DamageOtherDay:
		return "of another day"
	}
	return "damaged"
}

// Restart is the day's counts starting again from zero: the day file was damaged (Reason)
// and is kept aside under the name Kept (in the directory of Ledger.Path) since At.
type Restart struct {
	At     time.Time
	Kept   string
	Reason Damage
}

// damagedError is a day file that cannot be read as a ledger file; it matches errDamaged.
type damagedError struct {
	path   string
	damage Damage
	detail string // the decoder's words, when it has some
}

func (e *damagedError) Error() string {
	s := fmt.Sprintf("ledger: %s: damaged (%s)", e.path, e.damage.Words())
	if e.detail != "" {
		s += ": " + e.detail
	}
	return s
}

func (e *damagedError) Is(target error) bool { return target == errDamaged }

// parseDay reads the bytes of day's file of the ledger of api (its canonical base URL):
// the counts (never nil, none below zero, sums of one key's rows saturated at the largest
// int) and the restart the file records, if any. A file that is not a ledger file is a
// *damagedError; one of a newer format, or of another base URL, is an error that says so
// (its counts are none: the caller leaves it alone).
func parseDay(b []byte, api, day, path string) (map[Key]Counts, *Restart, error) {
	counts := map[Key]Counts{}
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		damage := DamageNotJSON
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			damage = DamageNotOurs
		}
		return counts, nil, &damagedError{path: path, damage: damage, detail: err.Error()}
	}
	if head.Version <= 0 {
		return counts, nil, &damagedError{path: path, damage: DamageNotOurs}
	}
	if head.Version > formatVersion { // its other fields may mean something else now
		return counts, nil, fmt.Errorf("ledger: %s is of a newer parley (format %d); not changing it", path, head.Version)
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return counts, nil, &damagedError{path: path, damage: DamageShape, detail: err.Error()}
	}
	if rec.API != api {
		return counts, nil, fmt.Errorf("ledger: %s counts for another API (%q); not changing it", path, rec.API)
	}
	if rec.Day != day {
		return counts, nil, &damagedError{path: path, damage: DamageOtherDay, detail: fmt.Sprintf("it names the day %q", rec.Day)}
	}
	for _, r := range rec.Counts {
		if r.Family == "" {
			continue
		}
		k := Key{Org: r.Org, Family: r.Family}
		counts[k] = counts[k].Plus(Counts{Answered: max(0, r.Answered), Refused: max(0, r.Refused), Unreached: max(0, r.Unreached)})
	}
	return counts, rec.restart(day), nil
}

// restart is the restart the record states, when it states one that parley could have
// written.
func (rec record) restart(day string) *Restart {
	r := rec.Restarted
	if r == nil || !atomicfile.IsAside(day+".json", r.Kept) {
		return nil
	}
	at, err := time.Parse(time.RFC3339, r.At)
	if err != nil {
		return nil
	}
	return &Restart{At: at.UTC(), Kept: r.Kept, Reason: Damage(r.Reason)}
}

// encodeDay is the bytes of day's file holding counts (zero counters left out) and the
// restart, if any.
func encodeDay(api, day string, counts map[Key]Counts, rs *Restart) ([]byte, error) {
	rec := record{Version: formatVersion, API: api, Day: day, Counts: make([]result, 0, len(counts))}
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
	if rs != nil {
		rec.Restarted = &restartRecord{At: rs.At.UTC().Format(time.RFC3339), Kept: rs.Kept, Reason: string(rs.Reason)}
	}
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return append(b, '\n'), nil
}

// read reads day's file; a missing file is an empty day (see parseDay). The counts are
// non-nil in every case.
func (f files) read(day string) (map[Key]Counts, *Restart, error) {
	b, err := os.ReadFile(f.path(day))
	if errors.Is(err, fs.ErrNotExist) {
		return map[Key]Counts{}, nil, nil
	}
	if err != nil {
		return map[Key]Counts{}, nil, fmt.Errorf("ledger: %w", err)
	}
	return parseDay(b, f.api, day, f.path(day))
}

// write replaces day's file with counts and the restart, if any (package atomicfile: a
// reader sees the old file or the new one, never a part, and a crash of parley or of the
// machine leaves one of the two whole).
func (f files) write(day string, counts map[Key]Counts, rs *Restart) error {
	b, err := encodeDay(f.api, day, counts, rs)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(f.path(day), "."+day+".*.tmp", b); err != nil {
		return fmt.Errorf("ledger: write %s: %w", f.path(day), err)
	}
	return nil
}

// setAside keeps a damaged day file aside (atomicfile.SetAside:
// <day>.json.damaged-<UTC time>) and returns the restart that records it.
func (f files) setAside(day string, damage Damage, now time.Time) (*Restart, error) {
	name, err := atomicfile.SetAside(f.path(day), now)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	if name == "" {
		return nil, nil // gone meanwhile: nothing was kept, nothing restarts
	}
	return &Restart{At: now.UTC().Truncate(time.Second), Kept: name, Reason: damage}, nil
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
