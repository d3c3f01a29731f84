package client

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testToken is distinctive so that any leak into an error text is easy to spot.
const testToken = "tok-Q7zX9vL2-secret-e41c"

const testAgent = "parley-test/1.2.3"

// recorded is one request as the test server saw it.
type recorded struct {
	Method   string
	Path     string
	RawPath  string
	RawQuery string
	Query    url.Values
	Header   http.Header
	Body     []byte
}

// recorder is an httptest server that stores every request and answers with respond.
type recorder struct {
	srv *httptest.Server

	mu      sync.Mutex
	reqs    []recorded
	respond func(w http.ResponseWriter, r *http.Request, n int) // n: 0-based request index
}

func newRecorder(t *testing.T, respond func(w http.ResponseWriter, r *http.Request, n int)) *recorder {
	t.Helper()
	rec := &recorder{respond: respond}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		n := len(rec.reqs)
		rec.reqs = append(rec.reqs, recorded{
			Method:   r.Method,
			Path:     r.URL.Path,
			RawPath:  r.URL.EscapedPath(),
			RawQuery: r.URL.RawQuery,
			Query:    r.URL.Query(),
			Header:   r.Header.Clone(),
			Body:     body,
		})
		fn := rec.respond
		rec.mu.Unlock()
		if fn == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		fn(w, r, n)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.reqs...)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

func (r *recorder) last(t *testing.T) recorded {
	t.Helper()
	reqs := r.requests()
	if len(reqs) == 0 {
		t.Fatal("the server saw no request")
	}
	return reqs[len(reqs)-1]
}

// base is the server URL with a path prefix, as a reverse proxy would mount the API.
func (r *recorder) base() string { return r.srv.URL + "/prefix" }

// waits records the delays the client asked to sleep, without sleeping.
type waits struct {
	mu sync.Mutex
	ds []time.Duration
	// advance, when set, is called with each delay (a fake clock moves forward).
	advance func(time.Duration)
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.ds = append(w.ds, d)
	adv := w.advance
	w.mu.Unlock()
	if adv != nil {
		adv(d)
	}
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.ds...)
}

// newTestClient builds a client for base with the test token and agent; its sleep records
// waits instead of sleeping. mod may adjust the config first.
func newTestClient(t *testing.T, base string, mod func(*Config)) (*Client, *waits) {
	t.Helper()
	cfg := Config{
		BaseURL:   base,
		Token:     testToken,
		UserAgent: testAgent,
		Timeout:   5 * time.Second,
		// Fresh connections per request: the transport then never retries on its own, so the
		// server's request count is exactly the client's attempt count.
		HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}},
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	w := &waits{}
	c.sleep = w.sleep
	c.spread = func(d time.Duration) time.Duration { return d } // waits as the server said
	return c, w
}

// checkNoToken fails when err's text (or its Detail) carries the token.
func checkNoToken(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if strings.Contains(err.Error(), testToken) {
		t.Errorf("error text carries the token: %q", err.Error())
	}
	if strings.Contains(Detail(err), testToken) {
		t.Errorf("error detail carries the token: %q", Detail(err))
	}
}

// mustFail asserts err is non-nil and token-free, and returns it.
func mustFail(t *testing.T, err error) error {
	t.Helper()
	if err == nil {
		t.Fatal("want an error, got nil")
	}
	checkNoToken(t, err)
	return err
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }

func bg() context.Context { return context.Background() }

func (r *recorder) setRespond(fn func(w http.ResponseWriter, r *http.Request, n int)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.respond = fn
}
