package viewtest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
)

// Throttling is an API server of the test's own that answers 429 (Retry-After: 1 s) to
// every request whose path contains a given part, and 200 with a given body to every other.
type Throttling struct {
	Client    *client.Client // a client on it (with its retries)
	throttled atomic.Int32
}

// NewThrottling starts a Throttling server that lives until the test ends: it throttles the
// paths that contain part and answers the others with body.
func NewThrottling(t testing.TB, part, body string) *Throttling {
	t.Helper()
	s := &Throttling{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, part) {
			s.throttled.Add(1)
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"detail":"slow down"}`)
			return
		}
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "t", Now: Clock})
	if err != nil {
		t.Fatal(err)
	}
	s.Client = c
	return s
}

// Leave runs open, a command whose request the server throttles, until it was throttled,
// then calls leave (which opens something else) and waits for open to end. The test fails
// unless open ends within 30 s having been throttled once: leaving cancelled its request,
// and the client waited out no Retry-After to send it again. Leave returns leave's command.
func (s *Throttling) Leave(t testing.TB, open tea.Cmd, leave func() tea.Cmd) tea.Cmd {
	t.Helper()
	done := make(chan []tea.Msg, 1)
	go func() { done <- Run(open, time.Minute) }()
	for s.throttled.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	next := leave()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the request for what was left never ended")
	}
	if n := s.throttled.Load(); n != 1 {
		t.Fatalf("what was left was asked for %d times, want once (no retries after leaving it)", n)
	}
	return next
}
