package cli

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/credentials"
)

// request_timeout in the file, PARLEY_REQUEST_TIMEOUT over it, the default without either,
// and a bad value anywhere stops parley naming where it came from.
func TestSettingsRequestTimeout(t *testing.T) {
	ctx := context.Background()
	env := writeTestConfig(t, "")
	s, err := resolveSettings(ctx, &globalFlags{}, mapEnv(env))
	if err != nil || s.RequestTimeout != config.DefaultRequestTimeout {
		t.Fatalf("default: %v, %v", s.RequestTimeout, err)
	}
	env = writeTestConfig(t, "theme: dark\nrequest_timeout: 10s\n")
	s, err = resolveSettings(ctx, &globalFlags{}, mapEnv(env))
	if err != nil || s.RequestTimeout != 10*time.Second {
		t.Fatalf("file: %v, %v", s.RequestTimeout, err)
	}
	env[envTimeout] = "2m"
	s, err = resolveSettings(ctx, &globalFlags{}, mapEnv(env))
	if err != nil || s.RequestTimeout != 2*time.Minute {
		t.Fatalf("env over file: %v, %v", s.RequestTimeout, err)
	}
	env[envTimeout] = "forever"
	if _, err := resolveSettings(ctx, &globalFlags{}, mapEnv(env)); err == nil ||
		!strings.Contains(err.Error(), `PARLEY_REQUEST_TIMEOUT: "forever" is not a duration like 10s or 2m`) {
		t.Fatalf("bad env value: %v", err)
	}
	env = writeTestConfig(t, "theme: dark\nrequest_timeout: 10m\n")
	if _, err := resolveSettings(ctx, &globalFlags{}, mapEnv(env)); err == nil ||
		!strings.Contains(err.Error(), `config.yaml:2: request_timeout: "10m" is out of range (1s to 5m)`) {
		t.Fatalf("bad file value: %v", err)
	}
}

// The client of a session gives up on an attempt after the configured request timeout: a
// save to a server that never answers fails with a deadline of its own while the caller's
// much longer deadline still runs (with the 30-second default the caller's would end
// first).
func TestSessionClientUsesTheRequestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	env := writeTestConfig(t, "")
	env[envBaseURL] = srv.URL
	env[credentials.EnvToken] = "tok-0123456789abcdef"
	env[envTimeout] = "1s"
	s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	dl, err := openDebugLog("")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := sessionFor(context.Background(), s, &strings.Builder{}, dl, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = sess.Client.CreateNote(ctx, client.NewNote{ContactIdentityID: 1, Body: "x"})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a deadline error, got %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("the caller's deadline ended the request, not the 1s request timeout: %v", err)
	}
}
