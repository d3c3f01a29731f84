package credentials

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// DefaultTimeout bounds every keyring call.
const DefaultTimeout = 3 * time.Second

// ErrKeyringUnavailable is matched (errors.Is) by every error meaning the OS keyring cannot
// be used: no D-Bus session, no Secret Service, a locked collection, a timeout, ….
var ErrKeyringUnavailable = errors.New("OS keyring unavailable")

// ErrKeyringTimeout is matched (errors.Is) by the error of a keyring call that got no
// answer within the timeout; after it the keyring is not asked again by that Store.
var ErrKeyringTimeout = errors.New("no answer")

// KeyringError says why the keyring cannot be used. It matches ErrKeyringUnavailable.
type KeyringError struct {
	Err error
}

func (e *KeyringError) Error() string { return "OS keyring unavailable: " + e.Err.Error() }

// Unwrap returns the cause.
func (e *KeyringError) Unwrap() error { return e.Err }

// Is matches ErrKeyringUnavailable.
func (e *KeyringError) Is(target error) bool { return target == ErrKeyringUnavailable }

// Backend is the keyring API parley uses; the default calls go-keyring (whose provider
// tests replace with keyring.MockInit).
type Backend interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

type goKeyring struct{}

func (goKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (goKeyring) Set(service, user, pw string) error       { return keyring.Set(service, user, pw) }
func (goKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// errNotFound is what the guard returns for go-keyring's ErrNotFound.
var errNotFound = keyring.ErrNotFound

// guard runs keyring calls off the caller's goroutine with a timeout, and stops using the
// keyring for good after a timeout.
type guard struct {
	backend Backend
	timeout time.Duration
	// precheck returns a reason when the keyring cannot be reached at all (nil: try it).
	precheck func() error

	mu       sync.Mutex
	checked  bool
	disabled error // set after a timeout or a failed precheck
	last     error // the last unavailability seen, for status displays
}

// usable runs the precheck once and reports a standing reason not to use the keyring.
func (g *guard) usable() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.checked {
		g.checked = true
		if g.precheck != nil {
			if err := g.precheck(); err != nil {
				g.disabled = &KeyringError{Err: err}
				g.last = g.disabled
			}
		}
	}
	return g.disabled
}

func (g *guard) note(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.last = err
}

// problem returns the last reason the keyring could not be used, or nil.
func (g *guard) problem() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.last
}

// call runs fn with the timeout. Errors: errNotFound as is; ctx errors as is; everything
// else as *KeyringError.
func (g *guard) call(ctx context.Context, op string, fn func() error) error {
	if err := g.usable(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("keyring library failed: %v", r)
			}
		}()
		done <- fn()
	}()
	timer := time.NewTimer(g.timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		switch {
		case err == nil:
			return nil
		case errors.Is(err, keyring.ErrNotFound):
			return errNotFound
		}
		kerr := &KeyringError{Err: fmt.Errorf("%s: %w", op, err)}
		g.note(kerr)
		return kerr
	case <-timer.C:
		kerr := &KeyringError{Err: fmt.Errorf("%s: %w within %s (not asked again during this run)", op, ErrKeyringTimeout, g.timeout)}
		g.mu.Lock()
		g.disabled, g.last = kerr, kerr
		g.mu.Unlock()
		// The goroutine stays blocked in the library; it holds no lock of ours.
		return kerr
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *guard) get(ctx context.Context, user string) (string, error) {
	var v string
	err := g.call(ctx, "read", func() error {
		var err error
		v, err = g.backend.Get(Service, user)
		return err
	})
	if err != nil {
		return "", err
	}
	return v, nil
}

func (g *guard) set(ctx context.Context, user, value string) error {
	return g.call(ctx, "store", func() error { return g.backend.Set(Service, user, value) })
}

func (g *guard) delete(ctx context.Context, user string) error {
	return g.call(ctx, "delete", func() error { return g.backend.Delete(Service, user) })
}

// SessionBusCheck returns the default keyring precheck. On Linux and the BSDs, whose
// keyring is the Secret Service on the D-Bus session bus, it reports an error when there
// is no session bus to talk to: DBUS_SESSION_BUS_ADDRESS unset (or "autolaunch:") and no
// /run/user/$UID/bus socket. Without this check the D-Bus library would launch a new
// bus daemon on every call. env looks up environment variables.
func SessionBusCheck(env func(string) string) func() error {
	return func() error {
		switch runtime.GOOS {
		case "darwin", "windows", "ios", "android", "plan9":
			return nil
		}
		if a := env("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
			return nil
		}
		bus := "/run/user/" + strconv.Itoa(os.Getuid()) + "/bus"
		if _, err := os.Stat(bus); err == nil {
			return nil
		}
		return fmt.Errorf("no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set and %s does not exist", bus)
	}
}
