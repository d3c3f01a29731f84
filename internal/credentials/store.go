package credentials

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// Options configure a Store. The zero value uses the process environment, the OS keyring
// with DefaultTimeout, and no credentials file.
type Options struct {
	// Env looks up environment variables (PARLEY_TOKEN, DBUS_SESSION_BUS_ADDRESS); nil
	// means os.Getenv.
	Env func(string) string
	// FilePath is the credentials file used with --insecure-storage; "" disables it.
	FilePath string
	// Timeout bounds each keyring call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Keyring is the keyring backend; nil means go-keyring (the OS keyring).
	Keyring Backend
	// KeyringCheck tells whether the keyring is reachable at all before the first call
	// (nil: SessionBusCheck(Env)). It runs once per Store.
	KeyringCheck func() error
}

// Store finds, saves and removes tokens. Create one per run and share it: it remembers
// a keyring timeout. Its methods may block for up to the keyring timeout (a few per
// call at most), so a UI calls them from a background command, never from its event loop.
// A Store is safe for concurrent use.
type Store struct {
	env      func(string) string
	filePath string
	kr       *guard
}

// New returns a Store.
func New(o Options) *Store {
	if o.Env == nil {
		o.Env = os.Getenv
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Keyring == nil {
		o.Keyring = goKeyring{}
	}
	if o.KeyringCheck == nil {
		o.KeyringCheck = SessionBusCheck(o.Env)
	}
	return &Store{
		env:      o.Env,
		filePath: o.FilePath,
		kr:       &guard{backend: o.Keyring, timeout: o.Timeout, precheck: o.KeyringCheck},
	}
}

// FilePath returns the credentials file path ("" when the file store is disabled).
func (s *Store) FilePath() string { return s.filePath }

// KeyringProblem returns why the keyring was last found unusable, or nil when it worked
// or was not tried.
func (s *Store) KeyringProblem() error { return s.kr.problem() }

// ErrNoToken is matched (errors.Is) by the error Lookup returns when no store has a token.
var ErrNoToken = errors.New("no API token")

// NotFoundError is returned by Lookup when no store holds a token for the profile.
type NotFoundError struct {
	Profile Profile
	// KeyringErr is why the keyring could not be searched, or nil.
	KeyringErr error
	// FilePath is the credentials file searched ("" when disabled).
	FilePath string
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no API token for %s: %s is not set", e.Profile.Key(), EnvToken)
	if e.KeyringErr != nil {
		fmt.Fprintf(&b, ", the OS keyring could not be searched (%v)", e.KeyringErr)
	} else {
		b.WriteString(", the OS keyring has none")
	}
	if e.FilePath != "" {
		fmt.Fprintf(&b, ", and %s has none", e.FilePath)
	}
	b.WriteString(`; run "parley auth login"`)
	return b.String()
}

// Is matches ErrNoToken.
func (e *NotFoundError) Is(target error) bool { return target == ErrNoToken }

// Lookup finds the token for p: PARLEY_TOKEN, then for each of p's keys (with its
// organization, then without) the keyring and the credentials file. An unusable keyring
// is skipped (see KeyringProblem). A credentials file with too wide a mode is an error
// (*FileModeError). With no token anywhere the error is a *NotFoundError.
func (s *Store) Lookup(ctx context.Context, p Profile) (Token, error) {
	if v := strings.TrimSpace(s.env(EnvToken)); v != "" {
		return Token{value: v, Source: SourceEnv}, nil
	}
	if p.BaseURL == "" {
		return Token{}, &NotFoundError{Profile: p, FilePath: s.filePath}
	}
	var (
		krErr    error
		entries  map[string]string
		fileRead bool
	)
	for _, key := range p.lookupKeys() {
		if krErr == nil {
			v, err := s.kr.get(ctx, key)
			switch {
			case err == nil && v != "":
				return Token{value: v, Source: SourceKeyring, Profile: key}, nil
			case err == nil, errors.Is(err, errNotFound):
			case ctx.Err() != nil:
				return Token{}, fmt.Errorf("look up token: %w", ctx.Err())
			default:
				krErr = err
			}
		}
		if s.filePath == "" {
			continue
		}
		if !fileRead {
			var err error
			entries, err = readFile(s.filePath, true)
			if err != nil {
				return Token{}, err
			}
			fileRead = true
		}
		if v, ok := entries[key]; ok {
			return Token{value: v, Source: SourceFile, Path: s.filePath, Profile: key}, nil
		}
	}
	return Token{}, &NotFoundError{Profile: p, KeyringErr: krErr, FilePath: s.filePath}
}

// CheckKeyring tells whether the keyring can be used: nil, or an error matching
// ErrKeyringUnavailable (or ctx's error). It asks the keyring for p's entry.
func (s *Store) CheckKeyring(ctx context.Context, p Profile) error {
	_, err := s.kr.get(ctx, p.Key())
	if err == nil || errors.Is(err, errNotFound) {
		return nil
	}
	return err
}

// Destination says where Save stores a token.
type Destination int

// The destinations.
const (
	// ToKeyring stores the token in the OS keyring.
	ToKeyring Destination = iota
	// ToFile stores the token in the credentials file (mode 0600); only on the user's
	// explicit request (--insecure-storage).
	ToFile
)

// Save stores value for p in dest and returns it as a Token. Storing in the keyring also
// removes p's entry from the credentials file, and storing in the file removes p's keyring
// entry (when the keyring is usable), so exactly one copy remains. value is checked with
// CleanToken. Errors never contain the token; an unusable keyring matches
// ErrKeyringUnavailable.
func (s *Store) Save(ctx context.Context, p Profile, value string, dest Destination) (Token, error) {
	value, err := CleanToken(value)
	if err != nil {
		return Token{}, err
	}
	if p.BaseURL == "" {
		return Token{}, errors.New("store token: no base URL")
	}
	key := p.Key()
	switch dest {
	case ToKeyring:
		if err := s.kr.set(ctx, key, value); err != nil {
			return Token{}, RedactError(err, value)
		}
		if s.filePath != "" {
			if _, err := s.removeFromFile([]string{key}); err != nil {
				return Token{}, fmt.Errorf("token stored in the OS keyring, but the old copy in the credentials file could not be removed: %w", err)
			}
		}
		return Token{value: value, Source: SourceKeyring, Profile: key}, nil
	case ToFile:
		if s.filePath == "" {
			return Token{}, errors.New("store token: no credentials file configured")
		}
		entries, err := readFile(s.filePath, false)
		if err != nil {
			return Token{}, err
		}
		if entries == nil {
			entries = map[string]string{}
		}
		entries[key] = value
		if err := writeFile(s.filePath, entries); err != nil {
			return Token{}, err
		}
		// Best effort: an older keyring entry would shadow the file.
		_ = s.kr.delete(ctx, key)
		if ctx.Err() != nil {
			return Token{}, fmt.Errorf("store token: %w", ctx.Err())
		}
		return Token{value: value, Source: SourceFile, Path: s.filePath, Profile: key}, nil
	}
	return Token{}, fmt.Errorf("store token: unknown destination %d", dest)
}

// Removed says what Delete removed.
type Removed struct {
	// Keyring lists the profile keys removed from the keyring.
	Keyring []string
	// File lists the profile keys removed from the credentials file.
	File []string
	// KeyringErr is why the keyring could not be cleaned, or nil.
	KeyringErr error
}

// Delete removes the tokens Lookup could find for p (stored with p's organization and
// without) from the keyring and the credentials file. PARLEY_TOKEN is not touched. An
// unusable keyring is reported in Removed.KeyringErr, not as an error.
func (s *Store) Delete(ctx context.Context, p Profile) (Removed, error) {
	var r Removed
	if p.BaseURL == "" {
		return r, errors.New("remove token: no base URL")
	}
	keys := p.lookupKeys()
	for _, key := range keys {
		err := s.kr.delete(ctx, key)
		switch {
		case err == nil:
			r.Keyring = append(r.Keyring, key)
		case errors.Is(err, errNotFound):
		case ctx.Err() != nil:
			return r, fmt.Errorf("remove token: %w", ctx.Err())
		default:
			r.KeyringErr = err
		}
		if r.KeyringErr != nil {
			break
		}
	}
	if s.filePath != "" {
		removed, err := s.removeFromFile(keys)
		r.File = removed
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// removeFromFile deletes keys from the credentials file and returns those it held. The
// file is read even when its mode is too wide: nothing is taken from it.
func (s *Store) removeFromFile(keys []string) ([]string, error) {
	entries, err := readFile(s.filePath, false)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	var removed []string
	for _, k := range keys {
		if _, ok := entries[k]; ok {
			delete(entries, k)
			removed = append(removed, k)
		}
	}
	if len(removed) == 0 {
		return nil, nil
	}
	return removed, writeFile(s.filePath, entries)
}
