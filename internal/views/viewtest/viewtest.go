// Package viewtest has helpers for the views' tests: an in-process sandbox with a fixed
// clock, a view context on it, a runner that executes commands the way Bubble Tea would,
// a stand-in root (Host) and a message loop to run it (Loop). It is imported only by tests.
package viewtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

// Now is the fixed clock of view tests; the sandbox seeds its data relative to it.
var Now = time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)

// Clock returns Now.
func Clock() time.Time { return Now }

// Sandbox starts an in-process sandbox (small, seed 1, fixed clock, no burst limit) that
// lives until the test ends; its data set is seeded once per test process (sandboxtest).
func Sandbox(t testing.TB, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	if opts.Size == "" {
		opts.Size = "small"
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Now == nil {
		opts.Now = Clock
	}
	if opts.BurstRate == 0 {
		opts.BurstRate = -1
	}
	return sandboxtest.Start(t, opts)
}

// Transport is an HTTP transport of the test's own. Its idle connections close when the
// test ends, before a sandbox started earlier in the test shuts down (cleanups run last
// first): a connection dialled but never used would hold the shutdown for 5 s.
func Transport(t testing.TB) *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

// FailingPages answers every request for a page after the first (one with the query
// parameter Param: "offset" when empty, "cursor" for messages) with 503 while Fail is set,
// and passes everything else to Next.
type FailingPages struct {
	Next  http.RoundTripper
	Param string
	Fail  atomic.Bool
}

// RoundTrip implements http.RoundTripper.
func (f *FailingPages) RoundTrip(req *http.Request) (*http.Response, error) {
	param := f.Param
	if param == "" {
		param = "offset"
	}
	if f.Fail.Load() && req.URL.Query().Get(param) != "" {
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable",
			Header: http.Header{"Content-Type": {"application/json"}}, Request: req,
			Body: io.NopCloser(strings.NewReader(`{"detail":"try later"}`))}, nil
	}
	return f.Next.RoundTrip(req)
}

// Client is a client on sb with the customer token, on a Transport.
func Client(t testing.TB, sb *sandbox.Running) *client.Client {
	t.Helper()
	return ClientVia(t, sb, nil, client.Config{})
}

// ClientVia is a client on sb with the customer token that sends its requests through tr
// (nil: a Transport), configured by cfg otherwise; without a clock in cfg its clock is Clock.
func ClientVia(t testing.TB, sb *sandbox.Running, tr http.RoundTripper, cfg client.Config) *client.Client {
	t.Helper()
	if tr == nil {
		tr = Transport(t)
	}
	if cfg.Now == nil {
		cfg.Now = Clock
	}
	cfg.BaseURL, cfg.Token, cfg.HTTPClient = sb.URL, sb.Server.Info().CustomerToken, &http.Client{Transport: tr}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Ctx is a view context on c with plain styles (no escape codes), default keys and the
// clock.
func Ctx(c *client.Client) *common.Ctx {
	return &common.Ctx{
		Styles:    theme.Plain(false),
		Keys:      keymap.Default(),
		Now:       Clock,
		Timer:     After, // the test's clock: a Loop moves it (Advance)
		Client:    c,
		PageSize:  100,
		Operators: map[int64]string{},
		// The root's default budget; auto-refresh off (a test that wants it sets Interval).
		Budget: common.Budget{PerDay: 400},
	}
}

// Run executes cmd and everything it batches or sequences, concurrently like Bubble Tea,
// and returns the messages produced. Commands still running after wait (listeners) are
// abandoned; a timer armed on the test's clock (a Timer) gives its message when it falls
// due within wait, and nothing otherwise.
func Run(cmd tea.Cmd, wait time.Duration) []tea.Msg { return run(cmd, wait, nil) }

// RunSkippingTicks is Run without the commands that only wait for a time (timers on the
// test's clock, tea.Tick, tea.Every, cursor blinks), so nothing waits for them;
// everything else (requests included) is awaited for up to wait.
func RunSkippingTicks(cmd tea.Cmd, wait time.Duration) []tea.Msg { return run(cmd, wait, sleeps) }

func run(cmd tea.Cmd, wait time.Duration, skip func(tea.Cmd) bool) []tea.Msg {
	if cmd == nil {
		return nil
	}
	var (
		mu  sync.Mutex
		out []tea.Msg
		wg  sync.WaitGroup
	)
	var exec func(c tea.Cmd)
	exec = func(c tea.Cmd) {
		defer wg.Done()
		if c == nil || skip != nil && skip(c) {
			return
		}
		done := make(chan tea.Msg, 1)
		go func() { done <- c() }()
		var msg tea.Msg
		select {
		case msg = <-done:
		case <-time.After(wait):
			return
		}
		if t, ok := msg.(Timer); ok {
			if skip != nil || t.D > wait {
				return
			}
			msg = t.Msg
		}
		if msg == nil {
			return
		}
		if cmds, ok := SubCommands(msg); ok {
			for _, sc := range cmds {
				wg.Add(1)
				go exec(sc)
			}
			return
		}
		mu.Lock()
		out = append(out, msg)
		mu.Unlock()
	}
	wg.Add(1)
	exec(cmd)
	wg.Wait()
	return out
}

// SubCommands unpacks tea.Batch and tea.Sequence messages.
func SubCommands(msg tea.Msg) ([]tea.Cmd, bool) {
	if b, ok := msg.(tea.BatchMsg); ok {
		return b, true
	}
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		out := make([]tea.Cmd, v.Len())
		for i := range out {
			out[i] = v.Index(i).Interface().(tea.Cmd)
		}
		return out, true
	}
	return nil, false
}

// Key is the key press message Bubble Tea's input reader delivers for a key named as its
// String() names it ("enter", "esc", "tab", "shift+tab", "ctrl+s", "pgdown", "f2",
// "space" or " ", "j", "G", "?"). Text of several characters is not one key: type it with
// Keys.
func Key(k string) tea.KeyPressMsg {
	if k == " " {
		k = "space"
	}
	if press, ok := keymap.Press(k); ok {
		return press
	}
	// A character a key map cannot name (a control character in typed text) arrives as
	// itself.
	if r, size := utf8.DecodeRuneInString(k); size == len(k) && r != utf8.RuneError {
		return tea.KeyPressMsg{Code: r, Text: k}
	}
	panic(fmt.Sprintf("viewtest.Key: %q is not one key (type text with Keys)", k))
}

// Keys are the key presses of text typed (one message a character, as the input reader
// delivers keys read together).
func Keys(text string) []tea.Msg {
	var out []tea.Msg
	for _, r := range text {
		out = append(out, Key(string(r)))
	}
	return out
}

// CheckNewestFirst fails the test unless rows (at least 10) are newest first by at, the
// time each row shows: no row is newer than the one above it.
func CheckNewestFirst[R any](t testing.TB, rows []R, id func(R) int64, at func(R) time.Time) {
	t.Helper()
	if len(rows) < 10 {
		t.Fatalf("only %d rows", len(rows))
	}
	for i := 1; i < len(rows); i++ {
		if at(rows[i]).After(at(rows[i-1])) {
			t.Fatalf("row %d (#%d, %v) is newer than row %d (#%d, %v): the time column jumps",
				i, id(rows[i]), at(rows[i]), i-1, id(rows[i-1]), at(rows[i-1]))
		}
	}
}

// ListShown matches a list's header once its first page is in: the count, then the noun
// (conversations, contacts) where the pane has room for it, then " · ". While the list
// loads its header has no count.
func ListShown(noun string) *regexp.Regexp {
	return regexp.MustCompile(`[│┃] [0-9][0-9,]*\+?( ` + regexp.QuoteMeta(noun) + `)? · `)
}

// CheckSize fails the test unless view is exactly w×h: h lines, each w cells wide. what
// names the view in the failure.
func CheckSize(t testing.TB, view string, w, h int, what string) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("%s: %d lines, want %d:\n%s", what, len(lines), h, view)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw != w {
			t.Fatalf("%s: line %d is %d wide, want %d: %q", what, i, lw, w, l)
		}
	}
}

// LineWith is the last line of view, without styles, that contains part ("" when none does).
func LineWith(view, part string) string {
	var line string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, part) {
			line = l
		}
	}
	return line
}

// Pane is a view whose Update returns its own type (a list or a pane, not a screen).
type Pane[M any] interface {
	Update(tea.Msg) (M, tea.Cmd)
}

// Apply hands msgs to m in order and returns it with the commands they produced.
func Apply[M Pane[M]](m M, msgs []tea.Msg) (M, []tea.Cmd) {
	var cmds []tea.Cmd
	for _, msg := range msgs {
		var c tea.Cmd
		m, c = m.Update(msg)
		cmds = append(cmds, c)
	}
	return m, cmds
}

// Settle runs cmd (as Run does, abandoning what still runs after wait), hands its
// messages to m, and does the same with the commands they produce until none are left.
func Settle[M Pane[M]](m M, cmd tea.Cmd, wait time.Duration) M {
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		var next []tea.Cmd
		m, next = Apply(m, Run(c, wait))
		pending = append(pending, next...)
	}
	return m
}

// Handle hands msg to m and settles what it starts, as Settle does.
func Handle[M Pane[M]](m M, msg tea.Msg, wait time.Duration) M {
	m, cmd := m.Update(msg)
	return Settle(m, cmd, wait)
}

// Down presses the down key (j) n times on m.
func Down[M Pane[M]](m M, n int) M {
	for range n {
		m, _ = m.Update(Key("j"))
	}
	return m
}

// sleeps reports the commands that only sleep: tea.Tick, tea.Every and cursor blinks.
func sleeps(c tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name()
	return strings.Contains(name, "bubbletea/v2.Tick") || strings.Contains(name, "bubbletea/v2.Every") ||
		strings.Contains(name, "cursor.(*Model).Blink")
}

// Read is what Bubble Tea's own input reader makes of input written to the terminal in one
// write ("jj" as two presses arrive over a slow link, a bracketed paste, an escape
// sequence): the key presses, pastes and mouse events, in order. It runs a program on input and ends it
// with a ctrl+] written after it.
func Read(t testing.TB, input string) []tea.Msg {
	t.Helper()
	rec := &reader{}
	p := tea.NewProgram(rec, tea.WithInput(strings.NewReader(input+"\x1d")), tea.WithOutput(io.Discard),
		tea.WithoutRenderer(), tea.WithoutSignalHandler(), tea.WithWindowSize(80, 24))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("read %q: %v", input, err)
		}
	case <-time.After(20 * time.Second):
		p.Kill()
		t.Fatalf("read %q: the input reader never delivered the end mark", input)
	}
	return rec.msgs
}

// reader records the keys, pastes and mouse events a program reads, up to ctrl+].
type reader struct{ msgs []tea.Msg }

func (r *reader) Init() tea.Cmd  { return nil }
func (r *reader) View() tea.View { return tea.NewView("") }
func (r *reader) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+]" {
			return r, tea.Quit
		}
		r.msgs = append(r.msgs, msg)
	case tea.PasteMsg, tea.MouseMsg:
		r.msgs = append(r.msgs, msg)
	}
	return r, nil
}

// AgentAndMate are two operators of sb's default organization: the first agent, and the
// first operator who is not an agent (a teammate who hands conversations over).
func AgentAndMate(t testing.TB, sb *sandbox.Running) (agent, mate int64) {
	t.Helper()
	ops, err := Client(t, sb).AllOperators(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range ops {
		switch {
		case o.Role == client.RoleAgent && agent == 0:
			agent = o.ID
		case o.Role != client.RoleAgent && mate == 0:
			mate = o.ID
		}
	}
	if agent == 0 || mate == 0 {
		t.Fatalf("no agent and other operator among the %d operators", len(ops))
	}
	return agent, mate
}
