package operators_test

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/viewtest"
)

// bodies records the JSON bodies of PATCH requests.
type bodies struct {
	mu   sync.Mutex
	next http.RoundTripper
	got  []string
}

func (b *bodies) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPatch && r.Body != nil {
		data, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		b.mu.Lock()
		b.got = append(b.got, r.URL.Path+" "+string(data))
		b.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(data))
	}
	return b.next.RoundTrip(r)
}

func (b *bodies) list() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.got...)
}

// env is a fresh sandbox (tests here write) with a request log, a client on it and the
// PATCH bodies that client sent.
type env struct {
	*viewtest.Env
	bodies *bodies
}

func newEnv(t *testing.T) *env { return newEnvWith(t, sandbox.Options{}) }

func newEnvWith(t *testing.T, opts sandbox.Options) *env {
	t.Helper()
	b := &bodies{}
	e := viewtest.NewEnv(t, opts, func(next http.RoundTripper) http.RoundTripper {
		b.next = next
		return b
	})
	return &env{Env: e, bodies: b}
}
