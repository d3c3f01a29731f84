package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/waitfor"
)

// member is one user of a test hub: the entry and the private key.
type member struct {
	name, role string
	operator   int64
	org        int64
	signer     gossh.Signer
	key        string
}

// testHub is a hub on an in-process sandbox, with its users file and connection log.
type testHub struct {
	*Hub
	api     *testAPI
	addr    string
	users   string // the users file's path
	log     *syncBuffer
	members map[string]*member
}

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// usersYAML writes the users file of ms.
func usersYAML(ms ...*member) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "- name: %s\n  key: %s\n  role: %s\n", m.name, m.key, m.role)
		if m.operator != 0 {
			fmt.Fprintf(&b, "  operator: %d\n", m.operator)
		}
		if m.org != 0 {
			fmt.Fprintf(&b, "  org: %d\n", m.org)
		}
	}
	return b.String()
}

// hubOption changes a test hub's options.
type hubOption func(*Options)

// listenHub makes a hub for ms on api (nil: a sandbox of its own) listening on a free
// port; nothing serves it yet.
func listenHub(t testing.TB, api *testAPI, ms []*member, opts ...hubOption) *testHub {
	t.Helper()
	if api == nil {
		api = startAPI(t)
	}
	th := &testHub{api: api, log: &syncBuffer{}, members: map[string]*member{}}
	for _, m := range ms {
		m.signer, m.key = newKey(t, strings.ToLower(m.name)+"@test")
		th.members[m.name] = m
	}
	th.users = filepath.Join(t.TempDir(), "users.yaml")
	if err := os.WriteFile(th.users, []byte(usersYAML(ms...)), 0o600); err != nil {
		t.Fatal(err)
	}
	users, err := LoadUsers(th.users)
	if err != nil {
		t.Fatal(err)
	}
	c := api.client(t, 2*time.Minute)
	users.SetDefaultOrg(c.OrganizationID())
	list := func(ctx context.Context, org int64) ([]OperatorRef, error) {
		var out []OperatorRef
		for op, err := range c.WithContext(org, 0).Operators(ctx) {
			if err != nil {
				return nil, err
			}
			out = append(out, OperatorRef{ID: op.ID, Org: op.OrganizationID})
		}
		return out, nil
	}
	dir, err := CheckOperators(context.Background(), users, list)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := newKey(t, "")
	o := Options{
		Client: c, Users: users, Directory: dir, Operators: list, HostKey: host, Addr: "127.0.0.1:0",
		Logger: slog.New(slog.NewJSONHandler(th.log, nil)), Events: &Events{},
		Keys: keymap.Default,
		Look: func([]string) Look {
			return Look{Profile: colorprofile.ANSI256, Styles: theme.New(theme.Default(), true, false)}
		},
		Label: "test", RefreshInterval: 30 * time.Second, PageSize: 100,
	}
	for _, f := range opts {
		f(&o)
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	a, err := h.Listen(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	th.Hub, th.addr = h, a.String()
	return th
}

// startHub runs a hub for ms on api (nil: a sandbox of its own), shut down when the test
// ends.
func startHub(t testing.TB, api *testAPI, ms []*member, opts ...hubOption) *testHub {
	t.Helper()
	th := listenHub(t, api, ms, opts...)
	th.serve(t)
	return th
}

// serve runs the hub (Serve) until the test ends, then shuts it down.
func (th *testHub) serve(t testing.TB) {
	t.Helper()
	served := make(chan error, 1)
	go func() { served <- th.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := th.Shutdown(ctx); err != nil {
			t.Errorf("shut the hub down: %v", err)
		}
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-ctx.Done():
			t.Error("Serve still running 10s after Shutdown")
		}
	})
}

// dial connects with the member's key.
func (th *testHub) dial(t testing.TB, name string) *gossh.Client {
	t.Helper()
	c, err := dialWith(th.addr, gossh.PublicKeys(th.members[name].signer))
	if err != nil {
		t.Fatalf("%s: connect: %v", name, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func dialWith(addr string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "agent", Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
}

// terminal is an interactive session with a PTY, as ssh -t opens one, drawn on a
// terminal emulator (which also answers the TUI's queries, as a terminal does).
type terminal struct {
	t    *testing.T
	name string
	s    *gossh.Session
	in   io.WriteCloser
	out  *syncBuffer // every byte received
	done chan error

	mu  sync.Mutex
	emu *vt.Emulator
}

func (term *terminal) Write(p []byte) (int, error) {
	_, _ = term.out.Write(p)
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.emu.Write(p)
}

// open starts a shell with a PTY of w×h on c.
func open(t *testing.T, c *gossh.Client, name string, w, h int, env ...string) *terminal {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if err := s.Setenv(k, v); err != nil {
			t.Fatalf("setenv %s: %v", k, err)
		}
	}
	if err := s.RequestPty("xterm-256color", h, w, gossh.TerminalModes{gossh.ECHO: 0}); err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, name: name, s: s, out: &syncBuffer{}, done: make(chan error, 1), emu: vt.NewEmulator(w, h)}
	s.Stdout, s.Stderr = term, term
	if term.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	// The terminal's answers to queries. The emulator's pipe is never closed (its Close
	// races its Read): this goroutine ends with the test binary.
	go func() { _, _ = io.Copy(term.in, term.emu) }()
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { term.done <- s.Wait() }()
	t.Cleanup(func() { _ = s.Close() })
	return term
}

// screen is what the terminal shows now.
func (term *terminal) screen() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.emu.String()
}

// text is everything the session's terminal received, without escape sequences.
func (term *terminal) text() string { return ansi.Strip(term.out.String()) }

// waitText waits until the terminal shows want.
func (term *terminal) waitText(want string) {
	term.t.Helper()
	term.waitScreen("the text "+strconv.Quote(want), func(s string) bool { return strings.Contains(s, want) })
}

// listShown is the conversation list's header once its first page is in ("98
// conversations · …", "98 · …" where the list pane is narrow); while it loads the header
// has no count ("… conversations").
var listShown = regexp.MustCompile(`│ [0-9][0-9,]*( conversations?)? · `)

// waitList waits until the conversation list shows its first page: a key pressed while
// it loads moves no cursor.
func (term *terminal) waitList() {
	term.t.Helper()
	term.waitScreen("the conversation list", listShown.MatchString)
}

// waitScreen waits until ok holds for the screen.
func (term *terminal) waitScreen(what string, ok func(string) bool) string {
	term.t.Helper()
	return waitfor.Value(term.t, term.name+"'s terminal to show "+what, term.screen, ok)
}

// press sends keys as typed.
func (term *terminal) press(keys string) {
	term.t.Helper()
	if _, err := io.WriteString(term.in, keys); err != nil {
		term.t.Fatalf("%s: type %q: %v", term.name, keys, err)
	}
}

// setTopic sets topic on the conversation under the cursor (t, the topics form) and waits
// for it to be saved.
func (term *terminal) setTopic(topic string) {
	term.t.Helper()
	term.press("t")
	term.waitText("Topics of conversation")
	term.press("\t")
	term.press(topic)
	term.press("\r")
	term.waitText("Topics saved")
}

// ended waits for the session to end and returns its exit status.
func (term *terminal) ended() int {
	term.t.Helper()
	select {
	case err := <-term.done:
		if err == nil {
			return 0
		}
		if ee, ok := err.(*gossh.ExitError); ok {
			return ee.ExitStatus()
		}
		if _, ok := err.(*gossh.ExitMissingError); ok {
			return -1
		}
		term.t.Fatalf("%s's session: %v", term.name, err)
	case <-time.After(20 * time.Second):
		term.t.Fatalf("%s's session did not end; its terminal has:\n%s", term.name, tail(term.text(), 2000))
	}
	return 0
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
