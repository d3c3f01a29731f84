package operators_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/viewtest"
)

// host stands in for the root model: it owns the screen and a modal stack, routes keys to
// the top modal or the screen and every other message to all of them, and keeps toasts.
// It is a tea.Model so teatest can run it too.
type host struct {
	mu       sync.Mutex
	seen     map[string]int
	screen   common.Screen
	modals   []common.Modal
	toasts   []common.ToastMsg
	switched []common.SwitchScreenMsg
	w, h     int
}

func newHost(s common.Screen) *host { return &host{screen: s, seen: map[string]int{}} }

func (h *host) Init() tea.Cmd { return h.screen.Focus() }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	h.mu.Lock()
	h.seen[fmt.Sprintf("%T", msg)]++
	h.mu.Unlock()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.w, h.h = msg.Width, msg.Height
		h.screen.SetSize(msg.Width, msg.Height)
		for _, m := range h.modals {
			m.SetSize(max(20, h.w-4), max(6, h.h-2))
		}
		return h, nil
	case tea.KeyMsg:
		if msg.Type == tea.KeyCtrlC {
			return h, tea.Quit
		}
		if n := len(h.modals); n > 0 {
			var c tea.Cmd
			h.modals[n-1], c = h.modals[n-1].Update(msg)
			return h, c
		}
		var c tea.Cmd
		h.screen, c = h.screen.Update(msg)
		return h, c
	case common.OpenModalMsg:
		h.modals = append(h.modals, msg.Modal)
		msg.Modal.SetSize(max(20, h.w-4), max(6, h.h-2))
		return h, msg.Modal.Init()
	case common.CloseModalMsg:
		if n := len(h.modals); n > 0 {
			h.modals = h.modals[:n-1]
		}
		return h, nil
	case common.ToastMsg:
		h.toasts = append(h.toasts, msg)
		return h, nil
	case common.SwitchScreenMsg:
		h.switched = append(h.switched, msg)
		return h, nil
	}
	var cmds []tea.Cmd
	for i, m := range h.modals {
		var c tea.Cmd
		h.modals[i], c = m.Update(msg)
		cmds = append(cmds, c)
	}
	var c tea.Cmd
	h.screen, c = h.screen.Update(msg)
	return h, tea.Batch(append(cmds, c)...)
}

func (h *host) View() string { return h.screen.View() }

func (h *host) count(name string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seen[name]
}

func (h *host) top() common.Modal {
	if len(h.modals) == 0 {
		return nil
	}
	return h.modals[len(h.modals)-1]
}

func (h *host) lastToast() string {
	if len(h.toasts) == 0 {
		return ""
	}
	return h.toasts[len(h.toasts)-1].Text
}

// loop runs a host like Bubble Tea does, but on the test's goroutine: commands run on
// their own goroutines and only send messages back; the test delivers them while it waits
// for a condition. Nothing waits for a fixed time.
type loop struct {
	t    *testing.T
	h    *host
	msgs chan tea.Msg
}

func newLoop(t *testing.T, s common.Screen, w, h int) *loop {
	l := &loop{t: t, h: newHost(s), msgs: make(chan tea.Msg, 256)}
	l.deliver(tea.WindowSizeMsg{Width: w, Height: h})
	l.run(l.h.Init())
	return l
}

func (l *loop) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			l.msgs <- msg
		}
	}()
}

func (l *loop) deliver(msg tea.Msg) {
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			l.run(c)
		}
		return
	}
	if cmds, ok := viewtest.SubCommands(msg); ok { // a sequence: in order
		go func() {
			for _, c := range cmds {
				if c == nil {
					continue
				}
				if m := c(); m != nil {
					l.msgs <- m
				}
			}
		}()
		return
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		return
	}
	_, cmd := l.h.Update(msg)
	l.run(cmd)
}

// key delivers key presses, each after the messages the previous one caused right away
// (a form moves to the next field through a command).
func (l *loop) key(keys ...string) {
	for _, k := range keys {
		l.deliver(viewtest.Key(k))
		l.quiet(15 * time.Millisecond)
	}
}

// quiet delivers messages until none arrived for d.
func (l *loop) quiet(d time.Duration) {
	for {
		select {
		case m := <-l.msgs:
			l.deliver(m)
		case <-time.After(d):
			return
		}
	}
}

// modal waits for a modal to open (keys open them through a command).
func (l *loop) modal() common.Modal {
	l.t.Helper()
	l.until("a modal", func() bool { return l.h.top() != nil })
	l.quiet(30 * time.Millisecond) // its Init (focus, cursor) before the next key
	return l.h.top()
}

// until delivers messages until cond holds.
func (l *loop) until(what string, cond func() bool) {
	l.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		select {
		case m := <-l.msgs:
			l.deliver(m)
		case <-time.After(5 * time.Millisecond):
			if time.Now().After(deadline) {
				l.t.Fatalf("waited 15s for %s; view:\n%s", what, l.h.View())
			}
		}
	}
}

// drain delivers what arrives within d (to show that nothing more happens).
func (l *loop) drain(d time.Duration) {
	end := time.After(d)
	for {
		select {
		case m := <-l.msgs:
			l.deliver(m)
		case <-end:
			return
		}
	}
}

// reqLog collects the sandbox's request log.
type reqLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *reqLog) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

type logged struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Status int    `json:"status"`
}

func (r *reqLog) lines() []logged {
	r.mu.Lock()
	data := append([]byte(nil), r.buf.Bytes()...)
	r.mu.Unlock()
	var out []logged
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var l logged
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			out = append(out, l)
		}
	}
	return out
}

// count counts logged requests of method whose path ends with suffix.
func (r *reqLog) count(method, suffix string) int {
	n := 0
	for _, l := range r.lines() {
		if l.Method == method && strings.HasSuffix(l.Path, suffix) {
			n++
		}
	}
	return n
}

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

// env is a fresh sandbox (tests here write) with a request log and a client on it.
type env struct {
	sb     *sandbox.Running
	log    *reqLog
	bodies *bodies
	client *client.Client
	info   sandbox.Info
}

func newEnv(t *testing.T) *env { return newEnvWith(t, sandbox.Options{}) }

func newEnvWith(t *testing.T, opts sandbox.Options) *env {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	e := &env{log: &reqLog{}, bodies: &bodies{next: tr}}
	opts.RequestLog = e.log
	e.sb = viewtest.Sandbox(t, opts)
	// Before the sandbox shuts down (cleanups run last first): a connection dialled but
	// never used would hold its shutdown for 5 s.
	t.Cleanup(tr.CloseIdleConnections)
	e.info = e.sb.Server.Info()
	c, err := client.New(client.Config{BaseURL: e.sb.URL, Token: e.info.CustomerToken, Now: viewtest.Clock,
		HTTPClient: &http.Client{Transport: e.bodies}})
	if err != nil {
		t.Fatal(err)
	}
	e.client = c
	return e
}
