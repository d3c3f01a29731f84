package credentials

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

const (
	secret  = "tok-SECRET-0123456789abcdef"
	secret2 = "tok-OTHER-9876543210fedcba"
)

var prof = Profile{BaseURL: "https://api.example.com", OrganizationID: "12"}

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// newMockStore returns a Store on go-keyring's mock provider and a file in a temp dir.
func newMockStore(t *testing.T, env map[string]string) *Store {
	t.Helper()
	keyring.MockInit()
	return New(Options{
		Env:          envOf(env),
		FilePath:     filepath.Join(t.TempDir(), "parley", "credentials"),
		KeyringCheck: func() error { return nil },
	})
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "****", "12345678": "****", "123456789": "****6789", secret: "****cdef"} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokenNeverFormatsItsValue(t *testing.T) {
	tok := Token{value: secret, Source: SourceKeyring, Profile: prof.Key()}
	type holder struct {
		Name  string
		Token Token
		Ptr   *Token
	}
	h := holder{"x", tok, &tok}
	var out []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3s", "%T"} {
		out = append(out, fmt.Sprintf(verb, tok), fmt.Sprintf(verb, h), fmt.Sprintf(verb, &h))
	}
	out = append(out, fmt.Sprint(tok), fmt.Sprintln(h), tok.String(), tok.GoString(), fmt.Errorf("wrapped: %v", tok).Error())
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("token", "t", tok, "h", h)
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("token", "t", tok)
	out = append(out, buf.String())
	for _, s := range out {
		if strings.Contains(s, secret) || strings.Contains(s, fmt.Sprintf("%x", secret)) || strings.Contains(strings.ToLower(s), strings.ToLower(fmt.Sprintf("%X", secret))) {
			t.Fatalf("token leaked in %q", s)
		}
	}
	if tok.Reveal() != secret {
		t.Fatal("Reveal must return the value")
	}
}

func TestRedact(t *testing.T) {
	err := fmt.Errorf("request with %s failed: %w", secret, context.DeadlineExceeded)
	r := RedactError(err, secret)
	if strings.Contains(r.Error(), secret) || !strings.Contains(r.Error(), "****cdef") {
		t.Fatalf("got %q", r.Error())
	}
	if !errors.Is(r, context.DeadlineExceeded) {
		t.Fatal("redaction broke the error chain")
	}
	plain := errors.New("nothing to hide")
	if RedactError(plain, secret) != plain || RedactError(nil, secret) != nil {
		t.Fatal("errors without the token must stay as they are")
	}
}

func TestCleanToken(t *testing.T) {
	if v, err := CleanToken("  " + secret + "\r\n"); err != nil || v != secret {
		t.Fatalf("got %q, %v", v, err)
	}
	for _, bad := range []string{"", " \n", "short", secret + " " + secret2, secret + "\n" + secret2, "tok-é-0123456789", strings.Repeat("a", 5000)} {
		_, err := CleanToken(bad)
		if err == nil {
			t.Errorf("%q: want an error", bad)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error repeats the token: %v", err)
		}
	}
}

func TestProfileKeys(t *testing.T) {
	if k := prof.Key(); k != "https://api.example.com#org=12" {
		t.Fatalf("key %q", k)
	}
	if k := (Profile{BaseURL: "https://api.example.com/"}).Key(); k != "https://api.example.com" {
		t.Fatalf("key %q", k)
	}
}

func TestLookupPrecedence(t *testing.T) {
	ctx := context.Background()
	s := newMockStore(t, nil)

	if _, err := s.Lookup(ctx, prof); !errors.Is(err, ErrNoToken) {
		t.Fatalf("empty stores: %v", err)
	}

	// File only.
	if _, err := s.Save(ctx, prof, secret2, ToFile); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Lookup(ctx, prof)
	if err != nil || tok.Reveal() != secret2 || tok.Source != SourceFile || tok.Path != s.FilePath() {
		t.Fatalf("file: %v %v %v", tok, tok.Source, err)
	}

	// The keyring wins over the file (Save to the keyring also drops the file's copy, so
	// put one back by hand).
	if err := keyring.Set(Service, prof.Key(), secret); err != nil {
		t.Fatal(err)
	}
	tok, err = s.Lookup(ctx, prof)
	if err != nil || tok.Reveal() != secret || tok.Source != SourceKeyring || tok.Profile != prof.Key() {
		t.Fatalf("keyring: %v %v %v", tok, tok.Source, err)
	}
	if !strings.Contains(tok.Origin(), "OS keyring") {
		t.Errorf("origin %q", tok.Origin())
	}

	// The environment wins over everything.
	env := New(Options{Env: envOf(map[string]string{EnvToken: " env-token-000111222\n"}), FilePath: s.FilePath(), KeyringCheck: func() error { return nil }})
	tok, err = env.Lookup(ctx, prof)
	if err != nil || tok.Reveal() != "env-token-000111222" || tok.Source != SourceEnv || !strings.Contains(tok.Origin(), EnvToken) {
		t.Fatalf("env: %v %v %v", tok, tok.Source, err)
	}
}

func TestLookupOrganizationFallsBackToBaseProfile(t *testing.T) {
	ctx := context.Background()
	s := newMockStore(t, nil)
	base := Profile{BaseURL: prof.BaseURL}
	if _, err := s.Save(ctx, base, secret, ToKeyring); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Lookup(ctx, prof)
	if err != nil || tok.Reveal() != secret || tok.Profile != base.Key() {
		t.Fatalf("fallback: %v %v", tok, err)
	}
	// A token stored for the organization is preferred, even in the file.
	if _, err := s.Save(ctx, prof, secret2, ToFile); err != nil {
		t.Fatal(err)
	}
	tok, err = s.Lookup(ctx, prof)
	if err != nil || tok.Reveal() != secret2 || tok.Source != SourceFile {
		t.Fatalf("specific: %v %v %v", tok, tok.Source, err)
	}
	// Another organization does not see it.
	tok, err = s.Lookup(ctx, Profile{BaseURL: prof.BaseURL, OrganizationID: "13"})
	if err != nil || tok.Reveal() != secret {
		t.Fatalf("other org: %v %v", tok, err)
	}
}

func TestSaveKeepsOneCopy(t *testing.T) {
	ctx := context.Background()
	s := newMockStore(t, nil)
	if _, err := s.Save(ctx, prof, secret, ToKeyring); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Save(ctx, prof, secret2, ToFile)
	if err != nil || tok.Source != SourceFile {
		t.Fatal(err)
	}
	if _, err := keyring.Get(Service, prof.Key()); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("the keyring copy survived a save to the file: %v", err)
	}
	fi, err := os.Stat(s.FilePath())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi, err)
	}
	data, _ := os.ReadFile(s.FilePath())
	if !strings.Contains(string(data), prof.Key()+" "+secret2+"\n") {
		t.Fatalf("file content:\n%s", data)
	}
	if _, err := s.Save(ctx, prof, secret, ToKeyring); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.FilePath()); !os.IsNotExist(err) {
		t.Fatalf("the file copy survived a save to the keyring: %v", err)
	}
}

func TestFileModeRefused(t *testing.T) {
	ctx := context.Background()
	s := newMockStore(t, nil)
	if _, err := s.Save(ctx, prof, secret, ToFile); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.FilePath(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Lookup(ctx, prof)
	var me *FileModeError
	if !errors.As(err, &me) {
		t.Fatalf("want *FileModeError, got %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "0644") || !strings.Contains(msg, "chmod 600 "+s.FilePath()) || strings.Contains(msg, secret) {
		t.Fatalf("message %q", msg)
	}
	// Logging out still cleans it up.
	r, err := s.Delete(ctx, prof)
	if err != nil || len(r.File) != 1 {
		t.Fatalf("delete: %+v %v", r, err)
	}
}

func TestMalformedFileDoesNotEchoToken(t *testing.T) {
	s := newMockStore(t, nil)
	if err := os.MkdirAll(filepath.Dir(s.FilePath()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.FilePath(), []byte("# c\n"+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.Lookup(context.Background(), prof)
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), ":2: malformed") {
		t.Fatalf("got %v", err)
	}
}

func TestKeyringUnavailable(t *testing.T) {
	ctx := context.Background()
	s := newMockStore(t, nil)
	if _, err := s.Save(ctx, prof, secret2, ToFile); err != nil {
		t.Fatal(err)
	}
	keyring.MockInitWithError(errors.New("org.freedesktop.DBus.Error.ServiceUnknown: no secrets service"))

	tok, err := s.Lookup(ctx, prof)
	if err != nil || tok.Source != SourceFile {
		t.Fatalf("lookup must fall back to the file: %v %v", tok, err)
	}
	if p := s.KeyringProblem(); !errors.Is(p, ErrKeyringUnavailable) {
		t.Fatalf("problem %v", p)
	}
	if err := s.CheckKeyring(ctx, prof); !errors.Is(err, ErrKeyringUnavailable) {
		t.Fatalf("check: %v", err)
	}
	_, err = s.Save(ctx, prof, secret, ToKeyring)
	if !errors.Is(err, ErrKeyringUnavailable) || strings.Contains(err.Error(), secret) {
		t.Fatalf("save: %v", err)
	}
	r, err := s.Delete(ctx, prof)
	if err != nil || !errors.Is(r.KeyringErr, ErrKeyringUnavailable) || len(r.File) != 1 {
		t.Fatalf("delete: %+v %v", r, err)
	}
	_, err = s.Lookup(ctx, prof)
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), "could not be searched") {
		t.Fatalf("not found: %v", err)
	}
}

func TestKeyringPrecheck(t *testing.T) {
	var calls atomic.Int32
	b := &funcBackend{get: func() (string, error) { calls.Add(1); return "", keyring.ErrNotFound }}
	s := New(Options{Env: envOf(nil), Keyring: b, KeyringCheck: func() error { return errors.New("no D-Bus session") }})
	for range 3 {
		if err := s.CheckKeyring(context.Background(), prof); !errors.Is(err, ErrKeyringUnavailable) || !strings.Contains(err.Error(), "no D-Bus session") {
			t.Fatalf("got %v", err)
		}
	}
	if calls.Load() != 0 {
		t.Fatal("the keyring was called although the precheck failed")
	}
}

func TestSessionBusCheck(t *testing.T) {
	if err := SessionBusCheck(envOf(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/x"}))(); err != nil {
		t.Fatalf("with an address: %v", err)
	}
	bus := fmt.Sprintf("/run/user/%d/bus", os.Getuid())
	if _, err := os.Stat(bus); err == nil {
		t.Skipf("%s exists here", bus)
	}
	for _, addr := range []string{"", "autolaunch:"} {
		err := SessionBusCheck(envOf(map[string]string{"DBUS_SESSION_BUS_ADDRESS": addr}))()
		if err == nil || !strings.Contains(err.Error(), bus) {
			t.Fatalf("%q: got %v", addr, err)
		}
	}
}

// funcBackend is a Backend whose calls run the given functions.
type funcBackend struct {
	get func() (string, error)
	set func() error
}

func (f *funcBackend) Get(_, _ string) (string, error) { return f.get() }
func (f *funcBackend) Set(_, _, _ string) error {
	if f.set == nil {
		return nil
	}
	return f.set()
}
func (f *funcBackend) Delete(_, _ string) error { _, err := f.get(); return err }

func TestKeyringTimeoutDisablesKeyring(t *testing.T) {
	ctx := context.Background()
	block := make(chan struct{})
	defer close(block)
	var calls atomic.Int32
	b := &funcBackend{
		get: func() (string, error) { calls.Add(1); <-block; return "", nil },
		set: func() error { calls.Add(1); <-block; return nil },
	}
	s := New(Options{Env: envOf(nil), FilePath: filepath.Join(t.TempDir(), "credentials"), Keyring: b, Timeout: 50 * time.Millisecond, KeyringCheck: func() error { return nil }})
	if _, err := s.Save(ctx, prof, secret2, ToFile); err != nil { // its keyring delete times out
		t.Fatal(err)
	}
	start := time.Now()
	tok, err := s.Lookup(ctx, prof)
	if err != nil || tok.Source != SourceFile {
		t.Fatalf("lookup: %v %v", tok, err)
	}
	_, err = s.Save(ctx, prof, secret, ToKeyring)
	if !errors.Is(err, ErrKeyringUnavailable) || !strings.Contains(err.Error(), "no answer within 50ms") {
		t.Fatalf("save: %v", err)
	}
	if d := time.Since(start); d > 40*time.Millisecond {
		t.Fatalf("calls after a timeout must not wait (took %v)", d)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("the keyring was called %d times; after the first timeout it must not be called again", n)
	}
}

func TestKeyringTimeoutBoundsTheCall(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	b := &funcBackend{get: func() (string, error) { <-block; return "", nil }}
	s := New(Options{Env: envOf(nil), Keyring: b, Timeout: 80 * time.Millisecond, KeyringCheck: func() error { return nil }})
	start := time.Now()
	_, err := s.Lookup(context.Background(), prof)
	d := time.Since(start)
	if !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), "no answer within") {
		t.Fatalf("got %v", err)
	}
	if d < 80*time.Millisecond || d > time.Second {
		t.Fatalf("lookup took %v", d)
	}
	// The caller can tell a timeout from other unavailability (to say so at start-up).
	if p := s.KeyringProblem(); !errors.Is(p, ErrKeyringTimeout) || !errors.Is(p, ErrKeyringUnavailable) {
		t.Fatalf("keyring problem %v does not match ErrKeyringTimeout", p)
	}
}

func TestKeyringContextCancel(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	b := &funcBackend{get: func() (string, error) { <-block; return "", nil }}
	s := New(Options{Env: envOf(nil), Keyring: b, KeyringCheck: func() error { return nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err := s.Lookup(ctx, prof)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if s.KeyringProblem() != nil {
		t.Fatal("a cancelled call must not disable the keyring")
	}
}

func TestKeyringPanicIsUnavailable(t *testing.T) {
	b := &funcBackend{get: func() (string, error) { panic("interface conversion") }}
	s := New(Options{Env: envOf(nil), Keyring: b, KeyringCheck: func() error { return nil }})
	err := s.CheckKeyring(context.Background(), prof)
	if !errors.Is(err, ErrKeyringUnavailable) || !strings.Contains(err.Error(), "interface conversion") {
		t.Fatalf("got %v", err)
	}
}

func TestDefaults(t *testing.T) {
	s := New(Options{})
	if s.kr.timeout != 3*time.Second || s.FilePath() != "" {
		t.Fatalf("timeout %v, file %q", s.kr.timeout, s.FilePath())
	}
}

func TestDeleteEverywhere(t *testing.T) {
	ctx := context.Background()
	s := newMockStore(t, nil)
	base := Profile{BaseURL: prof.BaseURL}
	if _, err := s.Save(ctx, base, secret, ToKeyring); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, prof, secret2, ToFile); err != nil {
		t.Fatal(err)
	}
	r, err := s.Delete(ctx, prof)
	if err != nil || len(r.Keyring) != 1 || r.Keyring[0] != base.Key() || len(r.File) != 1 || r.File[0] != prof.Key() {
		t.Fatalf("removed %+v, %v", r, err)
	}
	if _, err := s.Lookup(ctx, prof); !errors.Is(err, ErrNoToken) {
		t.Fatalf("after logout: %v", err)
	}
	if _, err := os.Stat(s.FilePath()); !os.IsNotExist(err) {
		t.Fatal("an empty credentials file must be removed")
	}
}
