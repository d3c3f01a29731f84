// Package credentials stores and finds parley's API tokens.
//
// A token belongs to a profile: an API base URL plus, optionally, an organization id.
// Lookup order: the PARLEY_TOKEN environment variable, then the OS keyring (service
// "parley", through go-keyring), then a 0600 file that exists only when the user asked
// for it with --insecure-storage. Every keyring call runs in its own goroutine bounded by a
// timeout; after one timeout the Store leaves the keyring alone for the rest of the run.
//
// A token value is held in a Token, which prints (with any fmt verb, in slog and in
// panics that format it) as its mask; only Reveal returns the value itself.
package credentials

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// Service is the keyring service name parley's tokens are stored under.
const Service = "parley"

// EnvToken is the environment variable whose token overrides every store.
const EnvToken = "PARLEY_TOKEN"

// Source says where a token came from.
type Source int

// The sources, in lookup order.
const (
	SourceNone Source = iota
	SourceEnv
	SourceKeyring
	SourceFile
)

func (s Source) String() string {
	switch s {
	case SourceEnv:
		return "env"
	case SourceKeyring:
		return "keyring"
	case SourceFile:
		return "file"
	}
	return "none"
}

// Token is an API token together with where it was found. Its zero value means "no
// token". Formatting a Token (fmt, slog) shows only its mask.
type Token struct {
	value string
	// Source is where the token was found.
	Source Source
	// Path is the credentials file, when Source is SourceFile.
	Path string
	// Profile is the profile key the token is stored under ("" for SourceEnv).
	Profile string
}

// Reveal returns the token itself, for the Authorization header and nothing else.
func (t Token) Reveal() string { return t.value }

// IsZero reports whether t holds no token.
func (t Token) IsZero() bool { return t.value == "" }

// Masked returns the token's mask (see Mask).
func (t Token) Masked() string { return Mask(t.value) }

// Origin says plainly where the token came from, e.g. "the PARLEY_TOKEN environment
// variable", "the OS keyring (service parley)" or "the file /home/me/.config/parley/credentials".
func (t Token) Origin() string {
	switch t.Source {
	case SourceEnv:
		return "the " + EnvToken + " environment variable"
	case SourceKeyring:
		return "the OS keyring (service " + Service + ")"
	case SourceFile:
		return "the file " + t.Path
	}
	return "nowhere"
}

// String returns the mask, so a Token printed by mistake does not leak.
func (t Token) String() string { return t.Masked() }

// GoString returns the mask, for %#v.
func (t Token) GoString() string { return "credentials.Token(" + t.Masked() + ")" }

// Format writes the mask for every verb, so no fmt verb reveals the token.
func (t Token) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, t.Masked()) }

// LogValue makes log/slog record the mask.
func (t Token) LogValue() slog.Value { return slog.StringValue(t.Masked()) }

// NewToken wraps a token value that did not come from a store (a prompt, a test).
func NewToken(value string) Token { return Token{value: value} }

// Mask shows the last 4 characters of a token behind "****"; a token of 8 characters or
// fewer shows none of them. The empty token masks to "".
func Mask(token string) string {
	if token == "" {
		return ""
	}
	r := []rune(token)
	if len(r) <= 8 {
		return "****"
	}
	return "****" + string(r[len(r)-4:])
}

// Redact replaces every occurrence of token in s with its mask.
func Redact(s, token string) string {
	if token == "" {
		return s
	}
	return strings.ReplaceAll(s, token, Mask(token))
}

// RedactError returns err with token replaced by its mask in its message; errors.Is and
// errors.As still see the original chain. It returns nil for nil.
func RedactError(err error, token string) error {
	if err == nil || token == "" || !strings.Contains(err.Error(), token) {
		return err
	}
	return &redacted{msg: Redact(err.Error(), token), err: err}
}

type redacted struct {
	msg string
	err error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.err }

// Token validation limits.
const (
	minTokenLen = 8
	maxTokenLen = 4096
)

// ErrEmptyToken is returned when an empty token is given to be stored.
var ErrEmptyToken = errors.New("the token is empty")

// CleanToken trims surrounding white space (a pasted or piped token usually ends with a
// newline) and checks that what is left can be sent as a header value. Its errors never
// contain the token.
func CleanToken(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ErrEmptyToken
	}
	if len(s) < minTokenLen {
		return "", fmt.Errorf("the token is too short (%d characters)", len(s))
	}
	if len(s) > maxTokenLen {
		return "", fmt.Errorf("the token is too long (%d characters, at most %d)", len(s), maxTokenLen)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f {
			return "", fmt.Errorf("the token contains a space, a line break or a character that is not printable ASCII (at position %d); paste exactly one token", i+1)
		}
	}
	return s, nil
}
