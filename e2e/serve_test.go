//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// Hub is a running `parley serve`.
type Hub struct {
	Addr, Port string
	Dir        string // its XDG directories and files
	cmd        *exec.Cmd
	stderr     *lockedBuffer
	done       chan error
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// sshKey makes an OpenSSH key pair with ssh-keygen and returns the private key's path and
// the public key's line.
func sshKey(t *testing.T, dir, name string) (string, string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// StartHub runs `parley serve` against the sandbox with the users file users and the
// config file config ("" for none), on a free port.
func StartHub(t *testing.T, sb *Sandbox, users, config string) *Hub {
	t.Helper()
	dir := t.TempDir()
	h := &Hub{Dir: dir, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	if err := os.WriteFile(filepath.Join(dir, "users.yaml"), []byte(users), 0o600); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		if err := os.MkdirAll(filepath.Join(dir, "config", "parley"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config", "parley", "config.yaml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h.cmd = exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--users", filepath.Join(dir, "users.yaml"))
	h.cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "TMUX=")
	h.cmd.Env = append(h.cmd.Env, sb.Env...)
	h.cmd.Stderr = h.stderr
	out, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.done <- h.cmd.Wait() }()
	t.Cleanup(func() {
		_ = h.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-h.done:
		case <-time.After(10 * time.Second):
			_ = h.cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("parley serve's stderr:\n%s", h.stderr.String())
		}
	})
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case line <- sc.Text():
			default:
			}
		}
	}()
	select {
	case l := <-line:
		addr, ok := strings.CutPrefix(l, "PARLEY_SSH_ADDR=")
		if !ok {
			t.Fatalf("parley serve printed %q", l)
		}
		h.Addr = addr
		h.Port = addr[strings.LastIndex(addr, ":")+1:]
	case err := <-h.done:
		t.Fatalf("parley serve ended: %v\n%s", err, h.stderr.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("parley serve did not listen:\n%s", h.stderr.String())
	}
	return h
}

// StartSSH runs a real OpenSSH client in a tmux pane of w×h, connected to the hub with
// the key at keyPath.
func StartSSH(t *testing.T, h *Hub, keyPath string, w, h2 int) *TUI {
	t.Helper()
	sessionSeq.Lock()
	sessionSeq.n++
	n := sessionSeq.n
	sessionSeq.Unlock()
	dir := t.TempDir()
	tui := &TUI{t: t, session: fmt.Sprintf("parley-ssh-%d-%d", os.Getpid(), n), socket: filepath.Join(dir, "tmux.sock"), dir: dir, W: w, H: h2}
	ssh := strings.Join([]string{"ssh", "-t", "-p", h.Port, "-i", shq(keyPath), "-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "127.0.0.1"}, " ")
	// ssh's stderr stays on the pane: the hub's messages come on the session's stderr.
	script := "export TERM=xterm-256color; " + ssh + "; echo \"ssh exited with status $?\"; exec sleep 86400"
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g status off\nset -g remain-on-exit on\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tui.tmux("-f", conf, "new-session", "-d", "-s", tui.session, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h2), "sh", "-c", script)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s at failure:\n%s", tui.session, tui.Screen())
		}
		_ = exec.Command("tmux", "-S", tui.socket, "kill-server").Run()
	})
	return tui
}

// body is a screen without its last two lines (the status bar, which names the user, and
// the footer).
func body(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) > 2 {
		lines = lines[:len(lines)-2]
	}
	return strings.Join(lines, "\n")
}

// Two real OpenSSH clients in tmux panes against `parley serve`: each sees the same list,
// and a change made in one reaches the other.
func TestServeTwoSSHClients(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	var admin int64
	for op, err := range c.Operators(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if op.Role == "admin" && admin == 0 {
			admin = op.ID
		}
	}
	first, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil || len(first.Results) == 0 {
		t.Fatalf("first conversation: %v", err)
	}
	keys := t.TempDir()
	claraKey, claraPub := sshKey(t, keys, "clara")
	samKey, samPub := sshKey(t, keys, "sam")
	users := fmt.Sprintf("- name: Clara\n  key: %s\n  operator: %s\n  role: agent\n- name: Sam\n  key: %s\n  operator: %d\n  role: supervisor\n",
		claraPub, sb.RestrictedOperatorID, samPub, admin)
	hub := StartHub(t, sb, users, "refresh_interval: 5s\n")

	clara := StartSSH(t, hub, claraKey, 120, 40)
	sam := StartSSH(t, hub, samKey, 120, 40)
	waitList(t, clara)
	waitList(t, sam)
	header := regexp.MustCompile(fmt.Sprintf(`[│┃] %d (conversations )?· `, first.Count)) // narrow: no noun
	clara.WaitUntil(header.MatchString, 10*time.Second, header.String())
	want := body(clara.Screen())
	sam.WaitUntil(func(s string) bool { return body(s) == body(clara.Screen()) }, 15*time.Second,
		"Sam's screen to show what Clara's shows:\n"+want)
	if log := hub.stderr.String(); !strings.Contains(log, `msg="session started" user=Clara role=agent`) ||
		!strings.Contains(log, `msg="session started" user=Sam role=supervisor`) {
		t.Errorf("the hub's log:\n%s", hub.stderr.String())
	}

	// Clara sets a topic on the first conversation; Sam's list shows it after a poll.
	clara.Keys("t")
	clara.WaitFor("Topics of conversation", 10*time.Second)
	clara.Keys("Tab")
	clara.Type("Escalated")
	clara.Keys("Enter")
	clara.WaitFor("Topics saved", 10*time.Second)
	sam.WaitFor("Escalated", 30*time.Second)
	got, err := c.GetConversation(t.Context(), first.Results[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, tp := range got.Topics {
		texts = append(texts, tp.Text)
	}
	if !strings.Contains(strings.Join(texts, ","), "Escalated") {
		t.Fatalf("topics on the server: %q", texts)
	}
	audit, err := os.ReadFile(filepath.Join(hub.Dir, "state", "parley", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(audit), `"user":"Clara"`) || !strings.Contains(string(audit), fmt.Sprintf(`"ids":[%d]`, first.Results[0].ID)) {
		t.Errorf("the audit log:\n%s", audit)
	}

	clara.Keys("q")
	clara.WaitFor("ssh exited with status 0", 10*time.Second)
	if err := hub.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s := sam.WaitFor("ssh exited with status 1", 15*time.Second)
	if !strings.Contains(s, "parley hub: the hub is shutting down (SIGTERM); when it is back, connect again the same way") {
		t.Errorf("Sam's pane after the hub stopped:\n%s", s)
	}
	if alt := sam.PaneFlag("#{alternate_on}"); alt != "0" {
		t.Errorf("Sam's pane is left on the alternate screen (%s)", alt)
	}
}

// TestServeTenAgents plays the agent session of TestAgentSession (a queue of six
// conversations walked with j and k, a thread read back now and then, the detail pane on
// for a while, another agent's edit midway) in ten SSH sessions of one hub at once, at
// parley's default auto-refresh of 30 s (scaled with the session, PARLEY_AGENT_SCALE
// times faster than life, default 6), and counts the conversation-family requests of the
// whole team in the sandbox's request log. Ten separate parleys playing it cost ten times
// what one does (TestAgentSession with PARLEY_AGENT_REFRESH=30s); the hub polls once for
// all and shares what they read, so it must cost less than two of them.
//
// With PARLEY_TEAM_QUEUES=own each agent works on six conversations of their own (agent n
// on rows 6n-5 to 6n of the list) instead of all ten on the same six: what the team reads
// is then shared only by the polls, and the team costs what ten agents' own reading costs
// plus one poller.
func TestServeTenAgents(t *testing.T) {
	const (
		agents = 10
		steps  = 30
		queue  = 6
	)
	own := false
	switch q := os.Getenv("PARLEY_TEAM_QUEUES"); q {
	case "", "shared":
	case "own":
		own = true
	default:
		t.Fatalf("PARLEY_TEAM_QUEUES=%q: want shared or own", q)
	}
	k := agentScale(t)
	step := 20 * time.Second / time.Duration(k)
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	rows := queue
	if own {
		rows = queue * agents
	}
	first, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: rows}})
	if err != nil || len(first.Results) < rows {
		t.Fatalf("the first %d conversations: %v (%v)", rows, first, err)
	}
	var all []int64
	for _, cv := range first.Results {
		all = append(all, cv.ID)
	}
	// queueOf is agent i's six conversations, and how many rows below the top they start.
	queueOf := func(i int) ([]int64, int) {
		if !own {
			return all[:queue], 0
		}
		return all[i*queue : (i+1)*queue], i * queue
	}
	keys := t.TempDir()
	var users strings.Builder
	paths := make([]string, agents)
	for i := range agents {
		var pub string
		paths[i], pub = sshKey(t, keys, fmt.Sprintf("agent%d", i+1))
		fmt.Fprintf(&users, "- name: Agent %d\n  key: %s\n  operator: %s\n  role: agent\n", i+1, pub, sb.RestrictedOperatorID)
	}
	refresh := 30 * time.Second / time.Duration(k)
	// The queues are the API's first rows in its id order: the sessions list in that order too
	// (the config's all entry), as the figures were measured.
	hub := StartHub(t, sb, users.String(), fmt.Sprintf("refresh_interval: %s\n"+
		"views:\n  - name: all\n    screen: conversations\n    ordering: -id\n", refresh))
	// All ten sessions are connected at once before the session begins (subtests marked
	// parallel would run only as many at a time as the machine has processors), then each
	// plays its script in a goroutine of its own; what went wrong is reported afterwards.
	tuis := make([]*TUI, agents)
	for i := range agents {
		tuis[i] = StartSSH(t, hub, paths[i], 120, 40)
	}
	for _, tui := range tuis {
		waitList(t, tui)
	}
	before := len(sb.Requests(t))
	began := time.Now()
	var changedOnce sync.Once
	problems := make(chan string, agents+1)
	var wg sync.WaitGroup
	for i, tui := range tuis {
		wg.Add(1)
		go func() {
			defer wg.Done()
			problems <- playQueue(tui, i, queueOf, steps, step, began, func() {
				changedOnce.Do(func() {
					if _, err := c.SetConversationTopics(context.Background(), all[2], []string{"Follow-up"}); err != nil {
						problems <- fmt.Sprintf("another agent's edit: %v", err)
					}
				})
			})
		}()
	}
	wg.Wait()
	close(problems)
	for p := range problems {
		if p != "" {
			t.Error(p)
		}
	}
	pace(began.Add(steps*step - step/2))
	// Ten panes on a small machine may run behind the session's rhythm: the hub polled for
	// as long as they were connected.
	took := time.Since(began)
	log := sb.Requests(t)[before:]
	spent, polls := 0, 0
	for _, r := range log {
		if r.Method == "GET" && strings.Contains(r.Path, "/api/um/v3/conversations/") {
			spent++
			if strings.Contains(r.Query, "updated_at_from_date=") {
				polls++
			}
		}
	}
	queues := "the same six conversations"
	if own {
		queues = "six conversations each of their own"
	}
	t.Logf("%d agents on %s, a 10-minute session each at %d× (played in %s), auto-refresh every 30 s of it: %d conversation-family requests for the team, %d of them shared polls",
		agents, queues, k, took.Round(time.Second), spent, polls)
	if ticks := int(took/refresh) + 1; polls > ticks {
		t.Errorf("%d polls for the team, more than one each of the %d ticks", polls, ticks)
	}
	// One parley alone costs 32 at 6× (34 in real time) at 30 s: the team must cost less
	// than two of them.
	switch {
	case own:
		// Each agent's own reading stays within what one parley's budget leaves beside
		// its polls (16, TestAgentSession); the polls are the team's, one a tick.
		if others := spent - polls; others > agents*16 {
			t.Errorf("the team of %d read %d conversation-family requests besides the polls, more than %d each", agents, others, 16)
		}
	case spent >= 64:
		t.Errorf("the team of %d cost %d conversation-family requests, not less than two separate parleys (64)", agents, spent)
	}
}

// playQueue plays one agent's session on tui: down to the agent's queue, then a move every
// step (j down the queue, k back up), the thread read back now and then and the detail
// pane on for a while; edit is the other agent's change, made at step 12. It returns what
// went wrong ("" when nothing did); it never stops the test from its goroutine.
func playQueue(tui *TUI, agent int, queueOf func(int) ([]int64, int), steps int, step time.Duration, began time.Time, edit func()) string {
	showing := func(id int64) bool {
		want := fmt.Sprintf("#%d · ", id)
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(tui.Screen(), want) {
				return true
			}
			time.Sleep(100 * time.Millisecond) // polling the pane, not deciding an outcome
		}
		return false
	}
	ids, start := queueOf(agent)
	for range start {
		tui.Keys("j") // down to the agent's own queue
	}
	if !showing(ids[0]) {
		return fmt.Sprintf("agent %d: the thread of %d never showed:\n%s", agent+1, ids[0], tui.Screen())
	}
	pos, down := 0, true
	for s := 1; s < steps; s++ {
		pace(began.Add(time.Duration(s) * step)) // the session's rhythm
		if s == 12 {
			edit()
		}
		if down && pos == len(ids)-1 || !down && pos == 0 {
			down = !down
		}
		if down {
			pos++
			tui.Keys("j")
		} else {
			pos--
			tui.Keys("k")
		}
		if !showing(ids[pos]) {
			return fmt.Sprintf("agent %d, step %d: the thread of %d never showed:\n%s", agent+1, s, ids[pos], tui.Screen())
		}
		switch s {
		case 5, 14:
			tui.Keys("p")
		case 4, 10, 22:
			tui.Keys("Tab", "C-u", "C-u", "C-u", "BTab")
		}
	}
	return ""
}
