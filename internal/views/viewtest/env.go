package viewtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/sandbox"
)

// Env is a sandbox of the test's own (for tests that write) with its request log and a
// client on it.
type Env struct {
	Sandbox *sandbox.Running
	Log     *RequestLog
	Client  *client.Client
	Info    sandbox.Info
}

// NewEnv starts a sandbox with opts (its request log goes to Log) and a client on it with
// the customer token, on a Transport that wrap, when not nil, wraps (to record requests).
func NewEnv(t testing.TB, opts sandbox.Options, wrap func(http.RoundTripper) http.RoundTripper) *Env {
	t.Helper()
	e := &Env{Log: &RequestLog{}}
	opts.RequestLog = e.Log
	e.Sandbox = Sandbox(t, opts)
	var rt http.RoundTripper = Transport(t)
	if wrap != nil {
		rt = wrap(rt)
	}
	e.Info = e.Sandbox.Server.Info()
	e.Client = ClientVia(t, e.Sandbox, rt, client.Config{})
	return e
}

// RequestLog collects the sandbox's request log (sandbox.Options.RequestLog); it may be
// read while the sandbox writes.
type RequestLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write adds to the log.
func (r *RequestLog) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

// Logged is one request of the log.
type Logged struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Status int    `json:"status"`
}

// Lines are the requests logged so far.
func (r *RequestLog) Lines() []Logged {
	r.mu.Lock()
	data := append([]byte(nil), r.buf.Bytes()...)
	r.mu.Unlock()
	var out []Logged
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var l Logged
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			out = append(out, l)
		}
	}
	return out
}

// Count counts the logged requests of method whose path ends with suffix.
func (r *RequestLog) Count(method, suffix string) int {
	n := 0
	for _, l := range r.Lines() {
		if l.Method == method && strings.HasSuffix(l.Path, suffix) {
			n++
		}
	}
	return n
}

// Screen is a screen under test: in a Host, run by a Loop.
type Screen struct {
	*Loop
	H *Host
}

// RunScreen runs screen (built on ctx) in a Host under a Loop at w×h: sized, then shown.
func RunScreen(t testing.TB, ctx *common.Ctx, screen common.Screen, w, h int) *Screen {
	host := NewHost(ctx, screen)
	l := NewLoop(t, host)
	l.Deliver(tea.WindowSizeMsg{Width: w, Height: h})
	l.Run(host.Init())
	return &Screen{Loop: l, H: host}
}

// Modal waits for a modal to open (keys open them through a command) and for its Init
// (focus, cursor) to settle, and returns it.
func (s *Screen) Modal() common.Modal {
	s.t.Helper()
	s.Until("a modal", func() bool { return s.H.Top() != nil })
	s.Settle()
	return s.H.Top()
}
