//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
)

// The fault soak: parley in tmux talks to the sandbox through a FaultProxy that spoils
// about a fifth of the answers (resets before and after the request body is read, hangs
// past the request timeout, truncated, empty and HTML bodies, 500/502/503, 429 with and
// without Retry-After) while the test drives at least soakMinActions actions over every
// screen: moving, opening threads, scrolling back through the long one, searching,
// filtering, topics, notes, away toggles, analytics, navigation. It asserts that
//   - parley never dies and never stops answering keys (a help-screen round trip after
//     every block of actions, with a generous bound);
//   - every edit the UI reported as saved is on the server exactly once, and every edit it
//     reported as not saved is not there (checked directly against the sandbox, never
//     through the proxy);
//   - after q the terminal is restored (alternate screen off, cursor visible, the tty's
//     modes as they were before parley started).
//
// Along the way it also holds parley to what its screens say: a key a failed load names
// ("r retries", "enter tries again") sends a request, and the conversation list never
// shows an empty answer as "0 conversations" (the sandbox has them and the soak deletes
// none).
//
// Run it on its own (it prints its figures with -v):
//
//	go test -tags e2e -run '^TestFaultSoak$' -v ./e2e/
//
// PARLEY_SOAK_SEED replays a run: the seed decides the proxy's faults (per request, see
// FaultProxy) and the test's choice of actions. PARLEY_SOAK_ACTIONS sets the number of
// actions (default soakMinActions; the last round of blocks is always finished), and
// PARLEY_SOAK_TRACE=1 logs every action and every screen that was not reached.
//
// How the UI's verdict on an edit is read (the forms keep what was typed when a save
// fails, so the form itself says how the save ended; formState):
//   - note and topic forms: the form closing is "saved". The form still open, with
//     neither "Saving…" nor "checking" on the screen and an error line (✗) in its box, is
//     "not saved" — unless that error says the save "may have been saved" or "could not
//     confirm" it without a "not saved" (a check that could not be made), which is
//     "unknown". A save whose answer was lost shows "May have been saved: …; checking…"
//     first and then its verdict: the form closes (saved) or keeps an error saying "Not
//     saved: …". Toasts outside the box (an older error) are not the form's verdict.
//   - away toggles: the operator's row, once it no longer shows a pending "…" and nothing
//     on the screen says "checking", shows what the UI reports (with a toast "… is now
//     away" or an error); within awaySettle it must show what the server has. A screen
//     that says "may have been set" or "could not confirm" makes it "unknown", as does a
//     row that shows the status as unknown ("—") after the UI said so (its toast may be
//     gone by the end of the wait).
//
// Unknown verdicts are allowed, but never hide a duplicate: a note reported unknown must
// be on the server at most once.
const (
	envSoakSeed    = "PARLEY_SOAK_SEED"
	envSoakActions = "PARLEY_SOAK_ACTIONS"
	soakMinActions = 300
	soakFaultRate  = 0.2
	// soakRequestTimeout is parley's request timeout in the soak (a hang costs that much).
	soakRequestTimeout = "3s"
	soakW, soakH       = 120, 40
	pollEvery          = 30 * time.Millisecond
	// liveBound is how long parley may take to answer a key before the soak calls it stuck.
	liveBound = 30 * time.Second
	// verdictBound is how long a save may take to end in a verdict: a lost answer costs a
	// request timeout, and a check of the outcome may need a few retried reads.
	verdictBound = 60 * time.Second
	// awaySettle is how long an operator's row may keep showing another status than the
	// server's once the UI is no longer busy with the toggle (no pending "…", no
	// "checking").
	awaySettle = 10 * time.Second
)

// Verdicts the UI gives an edit.
type verdict string

const (
	saved    verdict = "saved"
	notSaved verdict = "not saved"
	unknown  verdict = "unknown"
)

var (
	soakFooter   = regexp.MustCompile(`[│┃] (\d+)/(\d+)\b`)
	emptyList    = regexp.MustCompile(`[│┃] 0( conversations)? · all statuses · `)
	listHeader   = regexp.MustCompile(`[│┃] \d[\d,]*( conversations?)? · [^│┃]*`)
	threadLoaded = regexp.MustCompile(`#\d+ · [\d,]+ loaded ·`)
	threadHeader = regexp.MustCompile(`#\d+ · [^│┃]*`)
	// threadPosition is a thread header's place in a thread taller than its pane, below
	// its top (none when the whole thread fits).
	threadPosition = regexp.MustCompile(` · (bottom|\d+%|\d+ older|\d+ newer) · `)
	navLoaded      = regexp.MustCompile(`\d+ navigation events? ·`)
	topicsTitle    = regexp.MustCompile(`Topics of conversation #(\d+)`)
	metricTitle    = regexp.MustCompile(`Analytics · (um_[a-z_]+)`)
	fetchedAt      = regexp.MustCompile(`fetched \d\d:\d\d:\d\d[^│┃]*?\d+ free`)
	refreshedAt    = regexp.MustCompile(`(refreshed|as of) \d\d:\d\d:\d\d`)
	contactsHeader = regexp.MustCompile(`[│┃] \d[\d,]*( contacts?)? ·`)
	statusHeader   = regexp.MustCompile(`all statuses|only [a-z]+`)
	orderHeader    = regexp.MustCompile(`order:[-a-z_]+|(by [a-z' ]+, )?(newest|oldest) first|by [a-z]+, [AZ] to [AZ]`)
	pickedMetric   = regexp.MustCompile(`▸ (um_[a-z_]+)`)
	exitedStatus   = regexp.MustCompile(`parley exited with status (\d+)`)
	maySaved       = regexp.MustCompile(`(?i)(may|might) have been (saved|set|made)|could not confirm`)
	notSavedText   = regexp.MustCompile(`(?i)\bnot saved\b`)
	checkingText   = regexp.MustCompile(`(?i)checking`)
	loadFailedText = regexp.MustCompile(`Could not load:|load failed; |page failed; |refresh failed; |failed: r retries|tries again|to try again`)
)

type noteEdit struct {
	body     string
	where    string
	verdicts []verdict
}

type topicEdit struct {
	conv    int64
	topic   string
	verdict verdict
}

type awayEdit struct {
	op      client.Operator
	want    bool
	verdict verdict
}

type soak struct {
	t     *testing.T
	seed  uint64
	rng   *rand.Rand
	sb    *Sandbox
	proxy *FaultProxy
	api   *client.Client // straight to the sandbox
	tui   *TUI

	ops           []client.Operator // in the screen's order (by id)
	contactWords  []string
	convWords     []string
	longRank      int
	longID        int64
	usedConvs     map[int64]bool
	want          int  // actions asked for
	trace         bool // log every action (PARLEY_SOAK_TRACE=1)
	quitting      bool
	noteSeq       int
	topicSeq      int
	actions       int
	kinds         map[string]int
	settled       int
	unsettled     int
	recoveries    int
	probes        int
	notes         []*noteEdit
	topics        []*topicEdit
	aways         []*awayEdit
	skippedEdits  int
	violations    []string
	started       time.Time
	unsettledLast []string
}

func soakSeed(t *testing.T) uint64 {
	if v := os.Getenv(envSoakSeed); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: not a seed: %v", envSoakSeed, v, err)
		}
		return n
	}
	return uint64(time.Now().UnixNano())
}

func TestFaultSoak(t *testing.T) {
	seed := soakSeed(t)
	want := soakMinActions
	if v := os.Getenv(envSoakActions); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a number of actions", envSoakActions, v)
		}
		want = n
	}
	t.Logf("fault soak: seed %d (replay: %s=%d), %d actions, %.0f%% faults", seed, envSoakSeed, seed, want, 100*soakFaultRate)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("fault soak failed with seed %d: replay with %s=%d", seed, envSoakSeed, seed)
		}
	})
	s := &soak{t: t, seed: seed, rng: rand.New(rand.NewPCG(seed, 0x50a4)), usedConvs: map[int64]bool{},
		kinds: map[string]int{}, started: time.Now(), want: want, trace: os.Getenv("PARLEY_SOAK_TRACE") == "1"}
	s.sb = StartSandbox(t, "small")
	s.api = s.sb.Client(t)
	s.prepare()
	s.proxy = StartFaultProxy(t, s.sb.BaseURL, seed, soakFaultRate)
	t.Cleanup(func() {
		if t.Failed() {
			f := s.proxy.Figures()
			t.Logf("proxy: %s\nits last faults:\n  %s\nits problems: %q", f, strings.Join(f.Recent, "\n  "), f.Problems)
		}
	})
	env := []string{"PARLEY_BASE_URL=" + s.proxy.URL, "PARLEY_TOKEN=" + s.sb.Token, "PARLEY_REQUEST_TIMEOUT=" + soakRequestTimeout}
	s.tui = StartTUIInShell(t, soakW, soakH, env)
	s.expect("start", 60*time.Second, listReady)

	// Every screen once a round, and the edits twice.
	blocks := []func(){s.browseConversations, s.editTopics, s.noteFromConversation, s.scrollBack,
		s.searchAndFilter, s.contacts, s.operators, s.analytics, s.navigation,
		s.editTopics, s.noteFromConversation, s.operators}
	for s.actions < want {
		order := s.rng.Perm(len(blocks))
		for _, i := range order {
			blocks[i]()
			s.probe()
		}
	}
	s.quit()
	s.checkNotes()
	s.checkTopics()
	s.report()
}

// prepare reads, straight from the sandbox, what the test needs to know to drive the UI:
// the operators in the screen's order, words that find contacts and conversations, and
// the long thread's rank in its search.
func (s *soak) prepare() {
	t := s.t
	ctx := t.Context()
	for op, err := range s.api.Operators(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		s.ops = append(s.ops, op)
	}
	sortLikeTheScreen(s.ops)
	if len(s.ops) < 3 || !slices.ContainsFunc(s.ops, func(op client.Operator) bool { return op.Role == client.RoleOwner }) {
		t.Fatalf("operators: want the owner among at least 3, got %+v", s.ops)
	}
	seen := map[string]bool{}
	word := regexp.MustCompile(`^[A-Za-z]{4,}$`)
	for ct, err := range s.api.ContactsAll(ctx, client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(client.Str(ct.Name))
		if len(f) < 2 || !word.MatchString(f[len(f)-1]) || seen[strings.ToLower(f[len(f)-1])] {
			continue
		}
		w := strings.ToLower(f[len(f)-1])
		seen[w] = true
		if len(s.contactWords) < 6 {
			s.contactWords = append(s.contactWords, w)
		} else if len(s.convWords) < 6 {
			s.convWords = append(s.convWords, w)
		}
	}
	if len(s.contactWords) < 3 || len(s.convWords) < 3 {
		t.Fatalf("too few contact names to search for: %v %v", s.contactWords, s.convWords)
	}
	p, err := s.api.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Search: "Start of the long thread", Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range p.Results {
		mp, err := s.api.MessagesPage(ctx, c.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}})
		if err == nil && mp.Next != "" {
			s.longRank, s.longID = i, c.ID
			break
		}
	}
	if s.longID == 0 {
		t.Fatal("no long thread among the results for \"Start of the long thread\"")
	}
}

// ---- driving ----

// screen is the pane's text; a parley that exited ends the test.
func (s *soak) screen() string {
	scr := s.tui.Screen()
	if !s.quitting {
		if m := exitedStatus.FindStringSubmatch(scr); m != nil {
			s.t.Fatalf("parley died during the soak (exit status %s) after %d actions; stderr:\n%s\nscreen:\n%s",
				m[1], s.actions, s.tui.Stderr(), scr)
		}
	}
	return scr
}

// poll waits until ok holds for the screen, at most d; it returns the last screen.
func (s *soak) poll(d time.Duration, ok func(string) bool) (string, bool) {
	deadline := time.Now().Add(d)
	for {
		scr := s.screen()
		if ok(scr) {
			return scr, true
		}
		if time.Now().After(deadline) {
			return scr, false
		}
		time.Sleep(pollEvery)
	}
}

// must is poll that ends the test when ok does not hold in time. A parley that does not
// answer is asked for its goroutines (SIGQUIT: the Go runtime writes them to stderr, which
// the harness shows) before the test ends.
func (s *soak) must(d time.Duration, what string, ok func(string) bool) string {
	s.t.Helper()
	scr, fine := s.poll(d, ok)
	if !fine {
		if pid := s.tui.Pid(); pid > 0 && !s.quitting {
			if p, err := os.FindProcess(pid); err == nil && p.Signal(syscall.SIGQUIT) == nil {
				s.quitting = true
				s.poll(10*time.Second, exitedStatus.MatchString)
			}
		}
		s.t.Fatalf("after %d actions, waited %s for %s; screen:\n%s", s.actions, d, what, scr)
	}
	return scr
}

// act sends keys as one action of kind.
func (s *soak) act(kind string, keys ...string) {
	if s.trace {
		s.t.Logf("%s action %d: %s %q", time.Since(s.started).Round(time.Millisecond), s.actions+1, kind, keys)
	}
	s.tui.Keys(keys...)
	s.actions++
	s.kinds[kind]++
}

// expect waits for the effect of an action: ok, or a load failure, which is retried with
// retryKey (r) a few times. Faults may keep a screen from loading; that is counted, not
// failed (a stuck parley is caught by the probe).
func (s *soak) expect(kind string, d time.Duration, ok func(string) bool) (string, bool) {
	return s.expectRetry(kind, d, ok, "r")
}

// await waits for an overlay (a form, a question, a prompt) to open or close: a load
// failure behind it is not its business, and a key pressed to retry the load would go into
// the overlay.
func (s *soak) await(kind string, d time.Duration, ok func(string) bool) (string, bool) {
	return s.expectRetry(kind, d, ok, "")
}

func (s *soak) expectRetry(kind string, d time.Duration, ok func(string) bool, retryKey string) (string, bool) {
	for attempt := 0; ; attempt++ {
		scr, fine := s.poll(d, func(scr string) bool { return ok(scr) || (retryKey != "" && loadFailedText.MatchString(scr)) })
		if fine && ok(scr) {
			s.settled++
			return scr, true
		}
		if attempt == 3 || !fine || retryKey == "" {
			s.unsettled++
			s.unsettledLast = append(s.unsettledLast[max(0, len(s.unsettledLast)-19):], kind)
			if s.trace {
				s.t.Logf("%s: not reached; screen:\n%s", kind, scr)
			}
			return scr, false
		}
		// The screen says which key tries again: that key must send a request (or at least
		// take the failure off the screen while it waits to send one).
		sent := s.proxy.Figures().Requests
		s.act("recover ("+retryKey+")", retryKey)
		s.recoveries++
		if _, ok := s.poll(5*time.Second, func(scr string) bool {
			return !loadFailedText.MatchString(scr) || s.proxy.Figures().Requests > sent
		}); !ok {
			s.violations = append(s.violations, fmt.Sprintf("%s: the screen says %q, but %s sent no request in 5s; screen:\n%s",
				kind, loadFailedText.FindString(scr), retryKey, s.screen()))
			s.unsettled++
			return s.screen(), false
		}
		// The failure text goes once the retry starts; wait for that before looking again.
		s.poll(5*time.Second, func(scr string) bool { return !loadFailedText.MatchString(scr) })
	}
}

// probe proves parley still answers keys: the help screen opens and closes.
func (s *soak) probe() {
	s.t.Helper()
	s.closeOverlays()
	s.tui.Keys("?")
	s.must(liveBound, "the help screen (is parley still answering keys?)", func(scr string) bool { return strings.Contains(scr, "Keys: ") })
	s.tui.Keys("Escape")
	s.must(liveBound, "the help screen to close", func(scr string) bool { return !strings.Contains(scr, "Keys: ") })
	s.probes++
}

// closeOverlays leaves no form, question or prompt open (a block may end in one when a
// fault cut it short). Each is closed with its key, and the next key waits until it is
// gone: an esc followed at once by another key reaches parley in one read, as alt+key.
func (s *soak) closeOverlays() {
	type overlay struct {
		open func(string) bool
		key  string
	}
	overlays := []overlay{
		{func(scr string) bool { return strings.Contains(scr, "Discard your changes?") }, "y"},
		{func(scr string) bool { return strings.Contains(scr, "Set operator") }, "Escape"},
		{func(scr string) bool { return strings.Contains(scr, "Pick a metric") }, "Escape"},
		{func(scr string) bool { return strings.Contains(scr, "Date range (UTC)") }, "Escape"},
		{func(scr string) bool { return strings.Contains(scr, "New note about") }, "Escape"},
		{topicsTitle.MatchString, "Escape"},
		{func(scr string) bool { return strings.Contains(scr, "Filter conversations") }, "Escape"},
		{func(scr string) bool { return strings.Contains(scr, "Search conversations:") }, "Escape"},
		{func(scr string) bool { return strings.Contains(scr, "Search contacts:") }, "Escape"},
		{func(scr string) bool { return strings.Contains(scr, "Keys: ") }, "Escape"},
	}
	for range 6 {
		scr := s.screen()
		i := slices.IndexFunc(overlays, func(o overlay) bool { return o.open(scr) })
		if i < 0 {
			return
		}
		s.tui.Keys(overlays[i].key)
		// A form with typed text asks before it closes: that question is the next overlay.
		s.must(liveBound, "an overlay to close", func(next string) bool {
			return !overlays[i].open(next) || (overlays[i].key == "Escape" && strings.Contains(next, "Discard your changes?"))
		})
	}
}

func listReady(scr string) bool {
	return listLoaded.MatchString(scr) && !strings.Contains(scr, "loading…")
}

func footer(scr string) string {
	m := soakFooter.FindStringSubmatch(scr)
	if m == nil {
		return ""
	}
	return m[1] + "/" + m[2]
}

// move presses a move key that changes the cursor (from the footer's "i/n") and waits for
// the footer to change.
func (s *soak) move(n int) {
	for range n {
		scr := s.screen()
		pos, total := 0, 0
		if m := soakFooter.FindStringSubmatch(scr); m != nil {
			pos, _ = strconv.Atoi(m[1])
			total, _ = strconv.Atoi(m[2])
		}
		var k string
		switch {
		case total <= 1:
			return
		case pos <= 1:
			k = []string{"j", "j", "C-d", "G"}[s.rng.IntN(4)]
		case pos >= total:
			k = []string{"k", "k", "C-u", "g"}[s.rng.IntN(4)]
		default:
			k = []string{"j", "k", "j", "C-d", "C-u", "g", "G", "Down", "Up"}[s.rng.IntN(9)]
		}
		before := footer(scr)
		s.act("move", k)
		s.expect("move", 5*time.Second, func(scr string) bool { f := footer(scr); return f != "" && f != before })
	}
}

// refresh presses r, as a user does to see what changed. The status bar's time of the
// last refresh changes when it is done; a refresh within the same second shows no change,
// so it is waited for a moment only (the next action waits for its own effect).
func (s *soak) refresh() {
	before := refreshedAt.FindString(s.screen())
	s.act("refresh", "r")
	s.poll(1500*time.Millisecond, func(scr string) bool { return refreshedAt.FindString(scr) != before })
}

// ---- the blocks ----

// toConversations shows the conversation screen with the focus on the list.
func (s *soak) toConversations() bool {
	s.act("screen", "1")
	s.back() // before r may be pressed: it refreshes the pane with the focus
	scr, ok := s.expect("screen", 20*time.Second, listReady)
	if ok && emptyList.MatchString(scr) {
		// The sandbox has conversations and the soak deletes none: an empty list without
		// a filter is an answer taken for what it is not (an empty body, say).
		s.violations = append(s.violations, fmt.Sprintf("the conversation list shows no conversations without a filter or search; screen:\n%s", scr))
		s.refresh()
		_, ok = s.expect("screen", 20*time.Second, func(scr string) bool { return listReady(scr) && !emptyList.MatchString(scr) })
	}
	return ok
}

// open opens the conversation under the cursor and waits for its messages. Enter moves
// the focus to the thread and starts loading it in one step, so once the thread pane has
// the focus a loaded thread is the one asked for.
func (s *soak) open() bool {
	s.act("open", "Enter")
	if !s.focusOn("Messages") {
		return false
	}
	_, ok := s.expect("open", 20*time.Second, func(scr string) bool {
		return threadLoaded.MatchString(scr) && !strings.Contains(scr, "loading")
	})
	return ok
}

// back takes the focus from the thread back to the conversation list.
func (s *soak) back() { s.focusBack("Messages", "Conversations") }

// focusBack moves the focus from the pane titled from back to the list pane titled to with
// esc, when from has it. The esc is sent only then, and the next key only once the list
// has the focus: in the list esc would clear the search, and a key sent right after an esc
// reaches parley in the same read, as alt+key.
func (s *soak) focusBack(from, to string) {
	raw := s.tui.ScreenRaw()
	if paneFocused(raw, to) || from != "" && !paneFocused(raw, from) {
		return
	}
	s.act("back", "Escape")
	s.focusOn(to)
}

// focusOn waits until the pane titled title has the focus (its title is drawn in bold).
// After an esc that only moves the focus this is the sign that parley read it: a key sent
// before would reach parley in the same read and turn the esc into alt+key.
func (s *soak) focusOn(title string) bool {
	_, ok := s.await("focus", 10*time.Second, func(string) bool { return paneFocused(s.tui.ScreenRaw(), title) })
	return ok
}

// paneFocused reports whether the pane frame titled title is drawn focused in raw (a
// screen with its SGR sequences): the focused pane's title is bold.
func paneFocused(raw, title string) bool {
	for _, l := range strings.Split(raw, "\n") {
		at := strings.Index(l, "m "+title+" ")
		if at < 0 || !strings.Contains(l[:at], "─") && !strings.Contains(l[:at], "━") {
			continue
		}
		start := strings.LastIndex(l[:at], "\x1b[")
		if start < 0 {
			return false
		}
		return slices.Contains(strings.Split(l[start+2:at], ";"), "1")
	}
	return false
}

func (s *soak) browseConversations() {
	if !s.toConversations() {
		return
	}
	s.move(1 + s.rng.IntN(3))
	s.refresh()
	if s.open() && strings.Contains(threadHeader.FindString(s.screen()), "%") {
		// In a thread longer than the pane: scroll a little, then back to the list.
		for range 1 + s.rng.IntN(3) {
			before := threadHeader.FindString(s.screen())
			k := []string{"C-u", "k", "C-d", "j"}[s.rng.IntN(4)]
			if strings.Contains(before, "100%") {
				k = []string{"C-u", "k"}[s.rng.IntN(2)]
			}
			s.act("scroll", k)
			s.expect("scroll", 3*time.Second, func(scr string) bool { return threadHeader.FindString(scr) != before })
		}
	}
	s.back()
}

// editTopics adds a new topic to two conversations the soak has not edited yet.
func (s *soak) editTopics() {
	if !s.toConversations() || !s.clearList() {
		return
	}
	for range 2 {
		s.move(1 + s.rng.IntN(3))
		s.editTopic()
	}
}

// editTopic opens the topics form of the conversation under the cursor, or of one a few
// rows further when that one had its edit already.
func (s *soak) editTopic() {
	var scr string
	var id int64
	for try := 0; ; try++ {
		s.act("topics", "t")
		var ok bool
		scr, ok = s.await("topics", 10*time.Second, topicsTitle.MatchString)
		if !ok {
			s.skippedEdits++
			s.closeOverlays()
			return
		}
		id, _ = strconv.ParseInt(topicsTitle.FindStringSubmatch(scr)[1], 10, 64)
		if !s.usedConvs[id] {
			break
		}
		s.act("cancel", "Escape")
		s.must(liveBound, "the topics form to close", func(scr string) bool { return !topicsTitle.MatchString(scr) })
		if try == 3 {
			return
		}
		s.move(1 + s.rng.IntN(3))
	}
	s.usedConvs[id] = true
	s.topicSeq++
	e := &topicEdit{conv: id, topic: fmt.Sprintf("soak-topic-%d", s.topicSeq)}
	s.topics = append(s.topics, e)
	if strings.Contains(scr, " toggles · ") { // the known topics are shown: their hint names the toggle key
		s.tui.Keys("Tab") // from the known topics to the new ones
	}
	s.tui.Type(e.topic)
	s.must(liveBound, "the typed topic", func(scr string) bool { return strings.Contains(scr, e.topic) })
	s.act("save", "C-s")
	e.verdict = s.formVerdict(fmt.Sprintf("Topics of conversation #%d", id))
	if e.verdict != saved {
		s.discardForm()
	}
}

// noteFromConversation writes notes about the contacts of two conversations.
func (s *soak) noteFromConversation() {
	if !s.toConversations() {
		return
	}
	for range 2 {
		s.move(1 + s.rng.IntN(3))
		s.writeNote("conversation")
	}
}

// writeNote writes a note with a body of its own from where the cursor is. A note the UI
// reports as not saved is written again once, as a user would.
func (s *soak) writeNote(where string) {
	s.noteSeq++
	e := &noteEdit{body: fmt.Sprintf("soak-note-%d", s.noteSeq), where: where}
	for attempt := 0; attempt < 2; attempt++ {
		s.act("note", "n")
		if _, ok := s.await("note", 10*time.Second, func(scr string) bool { return strings.Contains(scr, "New note about") }); !ok {
			s.skippedEdits++
			s.closeOverlays()
			break
		}
		s.tui.Type(e.body)
		s.must(liveBound, "the typed note", func(scr string) bool { return strings.Contains(scr, e.body) })
		s.act("save", "C-s")
		v := s.formVerdict("New note about")
		e.verdicts = append(e.verdicts, v)
		if v == saved {
			break
		}
		s.discardForm()
		if v == unknown {
			break // sending it again could make a second copy: the user is told to look first
		}
	}
	if len(e.verdicts) > 0 {
		s.notes = append(s.notes, e)
	}
}

// formVerdict waits for the verdict on the submitted form whose title line contains title
// (see the file comment).
func (s *soak) formVerdict(title string) verdict {
	s.t.Helper()
	var v verdict
	scr := s.must(verdictBound, "the save's verdict", func(scr string) bool {
		var done bool
		v, done = formState(scr, title)
		return done
	})
	if s.trace {
		s.t.Logf("verdict %s on %q; screen:\n%s", v, title, scr)
	}
	return v
}

// formState reads the verdict of a submitted form from the screen; done is false while
// the save (or a check of its outcome) is still going on.
func formState(scr, title string) (v verdict, done bool) {
	box, open := modalLines(scr, title)
	if !open {
		// Closed: saved, once nothing says it is still being checked.
		return saved, !checkingText.MatchString(scr)
	}
	if checkingText.MatchString(scr) {
		return "", false
	}
	for i, l := range box {
		if strings.HasPrefix(l, "Saving…") {
			return "", false
		}
		if !strings.HasPrefix(l, "✗ ") {
			continue
		}
		text := strings.Join(box[i:], " ")
		switch {
		case notSavedText.MatchString(text):
			return notSaved, true
		case maySaved.MatchString(text):
			return unknown, true
		}
		return notSaved, true
	}
	return "", false
}

// modalLines returns the text lines inside the modal box whose title line contains title,
// from the title down to the box's bottom border, cut to the box's columns (toasts and
// the panes around it left out); open is false when no such box is on the screen.
func modalLines(scr, title string) (box []string, open bool) {
	lines := strings.Split(scr, "\n")
	for i, l := range lines {
		at := strings.Index(l, title)
		if at < 0 {
			continue
		}
		right := strings.Index(l[at:], "│")
		if right < 0 {
			continue
		}
		left := ansi.StringWidth(l[:at])
		width := ansi.StringWidth(l[at : at+right])
		for _, b := range lines[i:] {
			if strings.HasPrefix(ansi.Cut(b, left-2, left+width+1), "╰") {
				break
			}
			box = append(box, strings.TrimSpace(ansi.Cut(b, left, left+width)))
		}
		return box, true
	}
	return nil, false
}

// discardForm closes a form that kept what was typed.
func (s *soak) discardForm() {
	s.act("cancel", "Escape")
	scr := s.must(liveBound, "the form to ask or close", func(scr string) bool {
		return strings.Contains(scr, "Discard your changes?") || (!strings.Contains(scr, "New note about") && !topicsTitle.MatchString(scr))
	})
	if strings.Contains(scr, "Discard your changes?") {
		s.act("cancel", "y")
		s.must(liveBound, "the form to close", func(scr string) bool {
			return !strings.Contains(scr, "New note about") && !topicsTitle.MatchString(scr)
		})
	}
}

// enterSearch waits for the search prompt labelled label, replaces what it holds with
// text and runs the search.
func (s *soak) enterSearch(label, text string) bool {
	if _, ok := s.await("search", 10*time.Second, func(scr string) bool { return strings.Contains(scr, label) }); !ok {
		return false
	}
	s.tui.Keys("C-u") // the prompt starts with the search in force
	s.tui.Type(text)
	if _, ok := s.await("search", 10*time.Second, func(scr string) bool { return strings.Contains(scr, label+" "+text) }); !ok {
		s.closeOverlays()
		return false
	}
	s.act("search", "Enter")
	return true
}

// scrollBack opens the long thread and scrolls back through it, then jumps to its start.
func (s *soak) scrollBack() {
	if !s.toConversations() {
		return
	}
	if !s.clearList() {
		return
	}
	s.act("search", "/")
	if !s.enterSearch("Search conversations:", "Start of the long thread") {
		return
	}
	if _, ok := s.expect("search", 20*time.Second, func(scr string) bool {
		return strings.Contains(scr, `search:"Start`) && listReady(scr)
	}); !ok {
		return
	}
	s.act("move", "g")
	for range s.longRank {
		s.act("move", "j")
	}
	want := fmt.Sprintf("%d/", s.longRank+1)
	if _, ok := s.expect("move", 5*time.Second, func(scr string) bool { return strings.HasPrefix(footer(scr), want) }); !ok {
		return
	}
	defer s.back()
	if !s.open() || !strings.Contains(s.screen(), fmt.Sprintf("#%d · ", s.longID)) {
		return
	}
	for range 3 + s.rng.IntN(4) {
		before := threadHeader.FindString(s.screen())
		s.act("scroll back", "C-u")
		s.expect("scroll back", 10*time.Second, func(scr string) bool {
			return threadHeader.FindString(scr) != before && !strings.Contains(scr, "loading")
		})
	}
	// g goes to the first message loaded and loads older ones: a few of them reach the
	// thread's first message.
	for range 4 {
		scr := s.screen()
		if strings.Contains(scr, "Start of the long thread:") {
			break
		}
		before := threadHeader.FindString(scr)
		s.act("scroll back", "g")
		if _, ok := s.expect("scroll back", 8*time.Second, func(scr string) bool {
			return threadHeader.FindString(scr) != before && !strings.Contains(scr, "loading")
		}); !ok {
			break
		}
	}
	s.act("scroll back", "G")
	s.expect("scroll back", 10*time.Second, func(scr string) bool { return strings.Contains(scr, "100%") })
}

// clearList clears the search and the filters of the conversation list.
func (s *soak) clearList() bool {
	for range 3 {
		before := listHeader.FindString(s.screen())
		if before == "" {
			return false // not loaded: esc would have nothing to clear
		}
		if strings.Contains(before, "all statuses") && !strings.Contains(before, "search:") {
			return true
		}
		s.act("clear", "Escape")
		s.expect("clear", 20*time.Second, func(next string) bool { return listHeader.FindString(next) != before && listReady(next) })
	}
	h := listHeader.FindString(s.screen())
	return strings.Contains(h, "all statuses") && !strings.Contains(h, "search:")
}

// searchAndFilter searches the conversations for a name, cycles the status filter and the
// ordering, and opens and closes the filters form.
func (s *soak) searchAndFilter() {
	if !s.toConversations() {
		return
	}
	s.clearList()
	s.act("search", "/")
	if w := s.convWords[s.rng.IntN(len(s.convWords))]; s.enterSearch("Search conversations:", w) {
		s.expect("search", 20*time.Second, func(scr string) bool { return strings.Contains(scr, `search:"`+w) && listReady(scr) })
		s.move(1 + s.rng.IntN(2))
	}
	s.clearList()
	for range 1 + s.rng.IntN(3) {
		before := statusHeader.FindString(s.screen())
		s.act("filter", "s")
		s.expect("filter", 20*time.Second, func(scr string) bool {
			return statusHeader.FindString(scr) != before && listReady(scr)
		})
	}
	before := orderHeader.FindString(s.screen())
	s.act("order", "o")
	s.expect("order", 20*time.Second, func(scr string) bool { return orderHeader.FindString(scr) != before && listReady(scr) })
	s.move(1 + s.rng.IntN(3))
	s.act("filters form", "f")
	if _, ok := s.await("filters form", 10*time.Second, func(scr string) bool { return strings.Contains(scr, "Filter conversations") }); ok {
		s.act("cancel", "Escape")
		s.await("cancel", 10*time.Second, func(scr string) bool { return !strings.Contains(scr, "Filter conversations") })
	}
}

func contactsReady(scr string) bool {
	return contactsHeader.MatchString(scr) && !strings.Contains(scr, "Loading contacts")
}

func contactOpen(scr string) bool {
	return strings.Contains(scr, "Notes (") && strings.Contains(scr, "Conversations (") &&
		!strings.Contains(scr, "loading…") && !strings.Contains(scr, "Loading contact")
}

// contacts searches for a contact, opens it and writes a note about it.
func (s *soak) contacts() {
	s.act("screen", "2")
	s.act("search", "/")
	w := s.contactWords[s.rng.IntN(len(s.contactWords))]
	if !s.enterSearch("Search contacts:", w) {
		return
	}
	quoted := fmt.Sprintf("search:%q", w)
	if _, ok := s.expect("search", 20*time.Second, func(scr string) bool { return strings.Contains(scr, quoted) && contactsReady(scr) }); !ok {
		return
	}
	s.refresh()
	s.expect("search", 20*time.Second, contactsReady)
	s.act("open", "Enter")
	if _, ok := s.expect("open", 20*time.Second, contactOpen); !ok {
		return
	}
	s.writeNote("contact")
	s.focusBack("", "Contacts") // from the contact's pane, titled with its name
	s.move(1 + s.rng.IntN(2))
}

func operatorsReady(scr string) bool {
	return operatorsLoaded.MatchString(scr) && !strings.Contains(scr, "refreshing…")
}

// awayState reads an operator's status from the row of name: away, and whether the row
// shows a settled status (not a pending "…").
func awayState(scr, name string) (away, settled bool) {
	for _, l := range strings.Split(scr, "\n") {
		if !strings.Contains(l, name) {
			continue
		}
		switch {
		case strings.Contains(l, "◌ away"):
			return true, true
		case strings.Contains(l, "● available"):
			return false, true
		}
	}
	return false, false
}

// awayUnknown reports whether the row of operator name shows its away status as unknown
// ("—": the server's answer did not say, or a change could not be confirmed).
func awayUnknown(scr, name string) bool {
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, name) && !strings.Contains(l, "◌ away") && !strings.Contains(l, "● available") {
			return strings.Contains(l, "—")
		}
	}
	return false
}

// operators toggles the away status of two operators, each checked against the server
// as soon as the UI settles.
func (s *soak) operators() {
	s.act("screen", "3")
	if _, ok := s.expect("screen", 20*time.Second, operatorsReady); !ok {
		return
	}
	s.refresh()
	for range 2 {
		s.toggleAway(s.rng.IntN(len(s.ops)))
	}
	s.move(1 + s.rng.IntN(2))
}

func (s *soak) toggleAway(i int) {
	op := s.ops[i]
	s.act("move", "g")
	for range i {
		s.act("move", "j")
	}
	want := fmt.Sprintf("%d/%d", i+1, len(s.ops))
	scr, ok := s.expect("move", 10*time.Second, func(scr string) bool {
		_, settled := awayState(scr, op.Name)
		return footer(scr) == want && settled && !strings.Contains(scr, "Set operator")
	})
	if !ok {
		s.skippedEdits++
		return
	}
	before, _ := awayState(scr, op.Name)
	path := fmt.Sprintf("/api/um/v3/operators/%d/away/", op.ID)
	sent := s.proxy.Finished("PATCH", path)
	s.act("away", "w")
	if op.Role != client.RoleOwner { // the owner is the default operator: no question
		if _, ok := s.await("away", 10*time.Second, func(scr string) bool { return strings.Contains(scr, "Set operator") }); !ok {
			s.skippedEdits++
			return
		}
		s.act("away", "y")
	}
	if _, ok := s.poll(30*time.Second, func(string) bool { return s.proxy.Finished("PATCH", path) > sent }); !ok {
		s.violations = append(s.violations, fmt.Sprintf("away of %s: w sent no request in 30s", op.Name))
		return
	}
	e := &awayEdit{op: op, want: !before}
	s.aways = append(s.aways, e)
	// The request is over, so the server holds its outcome. The server is read again while
	// waiting: the UI may check a lost answer and send the change again.
	// The UI has given its verdict once the row shows a status again and nothing says
	// "checking"; it gets awaySettle from then on to show what the server has.
	var truth bool
	var read time.Time
	busy := time.Now()
	// unsure: the UI said it could not tell (an error toast, gone after its seconds) and
	// the row shows the status as unknown rather than the one it had.
	unsure := false
	scr, ok = s.poll(verdictBound, func(scr string) bool {
		if maySaved.MatchString(scr) && !checkingText.MatchString(scr) {
			unsure = true
		}
		if time.Since(read) > 250*time.Millisecond {
			got, err := s.api.GetOperator(client.Fresh(context.Background()), op.ID)
			if err != nil {
				s.t.Fatalf("read operator %d from the sandbox: %v", op.ID, err)
			}
			truth, read = got.IsAway.V, time.Now()
		}
		away, settled := awayState(scr, op.Name)
		if !settled || checkingText.MatchString(scr) {
			busy = time.Now()
			return false
		}
		return away == truth || time.Since(busy) > awaySettle
	})
	if shown, _ := awayState(scr, op.Name); ok && shown != truth {
		ok = false
	}
	switch {
	case ok && truth == e.want:
		e.verdict = saved
	case ok:
		e.verdict = notSaved
	case maySaved.MatchString(scr) && !checkingText.MatchString(scr):
		e.verdict = unknown
	case unsure && awayUnknown(scr, op.Name):
		e.verdict = unknown
	default:
		shown, _ := awayState(scr, op.Name)
		e.verdict = saved
		if shown == before {
			e.verdict = notSaved
		}
		s.violations = append(s.violations, fmt.Sprintf("away of %s: asked for away=%v, the UI reports %s (its row shows away=%v), the server has away=%v",
			op.Name, e.want, e.verdict, shown, truth))
	}
}

// analytics opens the analytics screen, picks another metric and refreshes.
func (s *soak) analytics() {
	analyticsReady := func(scr string) bool {
		return metricTitle.MatchString(scr) && strings.Contains(scr, "cached, 0 requests")
	}
	s.act("screen", "4")
	if _, ok := s.expectRetry("screen", 30*time.Second, analyticsReady, "Enter"); !ok {
		return
	}
	s.act("metric", "m")
	scr, ok := s.await("metric", 10*time.Second, func(scr string) bool { return strings.Contains(scr, "Pick a metric") })
	if !ok {
		return
	}
	cur := pickedMetric.FindStringSubmatch(scr)
	moved := func(scr string) bool {
		m := pickedMetric.FindStringSubmatch(scr)
		return m != nil && (cur == nil || m[1] != cur[1])
	}
	s.act("metric", "Down")
	if scr, ok = s.poll(3*time.Second, moved); !ok {
		s.act("metric", "Up") // the last metric
		if scr, ok = s.await("metric", 10*time.Second, moved); !ok {
			s.closeOverlays()
			return
		}
	}
	metric := pickedMetric.FindStringSubmatch(scr)[1]
	s.act("metric", "Enter")
	if _, ok := s.expectRetry("metric", 30*time.Second, func(scr string) bool {
		return strings.Contains(scr, "Analytics · "+metric) && analyticsReady(scr)
	}, "Enter"); !ok {
		return
	}
	before := fetchedAt.FindString(s.screen())
	s.act("refresh", "r")
	s.expectRetry("refresh", 30*time.Second, func(scr string) bool {
		return analyticsReady(scr) && fetchedAt.FindString(scr) != before
	}, "Enter")
}

// navigation walks the navigation events and toggles their order.
func (s *soak) navigation() {
	navReady := func(scr string) bool { return navLoaded.MatchString(scr) && !strings.Contains(scr, "loading") }
	s.act("screen", "5")
	if _, ok := s.expect("screen", 20*time.Second, navReady); !ok {
		return
	}
	s.move(2 + s.rng.IntN(4))
	s.refresh()
	before := orderHeader.FindString(s.screen())
	s.act("order", "o")
	s.expect("order", 20*time.Second, func(scr string) bool { return orderHeader.FindString(scr) != before && navReady(scr) })
	s.move(1 + s.rng.IntN(3))
}

// ---- the end ----

// quit presses q and checks that the terminal is as it was before parley started.
func (s *soak) quit() {
	t := s.t
	s.closeOverlays()
	s.quitting = true
	s.act("quit", "q")
	scr := s.must(liveBound, "parley to exit on q", exitedStatus.MatchString)
	if m := exitedStatus.FindStringSubmatch(scr); m[1] != "0" {
		t.Errorf("parley exited with status %s after q; stderr:\n%s", m[1], s.tui.Stderr())
	}
	if v := s.tui.PaneFlag("#{alternate_on}"); v != "0" {
		t.Errorf("after q the alternate screen is still on (#{alternate_on} = %q)", v)
	}
	if v := s.tui.PaneFlag("#{cursor_flag}"); v != "1" {
		t.Errorf("after q the cursor is hidden (#{cursor_flag} = %q)", v)
	}
	var before, after []string
	s.must(liveBound, "the terminal settings after the run", func(string) bool {
		before, after = s.tui.TerminalSettings()
		return len(after) > 0
	})
	if len(before) == 0 {
		t.Fatal("no terminal settings from before the run")
	}
	slices.Sort(before)
	slices.Sort(after)
	if !slices.Equal(before, after) {
		t.Errorf("after q the terminal's modes differ from before parley started:\nbefore: %v\nafter:  %v", before, after)
	}
	for _, f := range []string{"icanon", "echo", "isig", "icrnl", "opost"} {
		if !slices.Contains(after, f) {
			t.Errorf("after q the terminal lacks %q (still in raw mode?): %v", f, after)
		}
	}
}

// checkNotes: a note reported saved is on the server exactly once, a note reported not
// saved is not there, a note with an unknown outcome at most once.
func (s *soak) checkNotes() {
	count := map[string]int{}
	ctx := client.Fresh(context.Background())
	p, err := s.api.ListNotes(ctx, client.NoteListOptions{ListOptions: client.ListOptions{Limit: 100}})
	for err == nil {
		for _, n := range p.Results {
			count[strings.TrimSpace(n.Body)]++
		}
		if p.Next == "" {
			break
		}
		p, err = client.FetchPage[client.Note](ctx, s.api, p.Next)
	}
	if err != nil {
		s.t.Fatalf("list the notes on the sandbox: %v", err)
	}
	for _, e := range s.notes {
		n := count[e.body]
		switch last := e.verdicts[len(e.verdicts)-1]; {
		case last == saved && n != 1:
			s.violations = append(s.violations, fmt.Sprintf("note %q (from a %s) reported %v: on the server %d times, want exactly once",
				e.body, e.where, e.verdicts, n))
		case last == notSaved && n != 0:
			s.violations = append(s.violations, fmt.Sprintf("note %q (from a %s) reported %v: on the server %d times, want none",
				e.body, e.where, e.verdicts, n))
		case last == unknown && n > 1:
			s.violations = append(s.violations, fmt.Sprintf("note %q (from a %s) reported %v: on the server %d times, want at most once",
				e.body, e.where, e.verdicts, n))
		}
	}
}

// checkTopics: a topic reported saved is on its conversation, one reported not saved is not.
func (s *soak) checkTopics() {
	for _, e := range s.topics {
		if e.verdict == "" || e.verdict == unknown {
			continue
		}
		conv, err := s.api.GetConversation(client.Fresh(context.Background()), e.conv)
		if err != nil {
			s.t.Fatalf("read conversation %d from the sandbox: %v", e.conv, err)
		}
		has := slices.ContainsFunc(conv.Topics, func(tp client.Topic) bool { return strings.EqualFold(strings.TrimSpace(tp.Text), e.topic) })
		if (e.verdict == saved) != has {
			s.violations = append(s.violations, fmt.Sprintf("topic %q on conversation %d reported %s, but the server %s it",
				e.topic, e.conv, e.verdict, map[bool]string{true: "has", false: "does not have"}[has]))
		}
	}
}

func tally[T any](edits []T, v func(T) verdict) string {
	n := map[verdict]int{}
	for _, e := range edits {
		n[v(e)]++
	}
	return fmt.Sprintf("%d (%d saved, %d not saved, %d unknown)", len(edits), n[saved], n[notSaved], n[unknown])
}

// report prints the figures and fails on every violation found.
func (s *soak) report() {
	t := s.t
	f := s.proxy.Figures()
	var kinds []string
	for k, n := range s.kinds {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(kinds)
	resent := 0
	for _, e := range s.notes {
		resent += len(e.verdicts) - 1
	}
	edits := len(s.notes) + len(s.topics) + len(s.aways)
	t.Logf("fault soak figures (seed %d, %s):\n"+
		"actions: %d (%s)\n"+
		"  reached their screen: %d, cut short by faults: %d, retried with r/enter: %d, liveness probes: %d\n"+
		"proxy: %s\n"+
		"edits checked against the sandbox: %d\n"+
		"  notes  %s, %d written again after \"not saved\"\n"+
		"  topics %s\n"+
		"  away   %s\n"+
		"  edits skipped (form or row not reachable under faults): %d\n"+
		"violations: %d",
		s.seed, time.Since(s.started).Round(time.Second),
		s.actions, strings.Join(kinds, ", "),
		s.settled, s.unsettled, s.recoveries, s.probes,
		f, edits,
		tally(s.notes, func(e *noteEdit) verdict { return e.verdicts[len(e.verdicts)-1] }), resent,
		tally(s.topics, func(e *topicEdit) verdict { return e.verdict }),
		tally(s.aways, func(e *awayEdit) verdict { return e.verdict }),
		s.skippedEdits, len(s.violations))
	if len(f.Problems) > 0 {
		t.Errorf("the proxy could not reach the sandbox:\n  %s", strings.Join(f.Problems, "\n  "))
	}
	for _, v := range s.violations {
		t.Errorf("%s", v)
	}
	// A soak that did not get through is no evidence: the UI must have made progress.
	if s.settled < s.actions/2 {
		t.Errorf("only %d of %d actions reached their screen (cut short: %v)", s.settled, s.actions, s.unsettledLast)
	}
	if edits < s.want/15 || edits < 2*(edits+s.skippedEdits)/3 {
		t.Errorf("too few edits reached a verdict: %d notes, %d topics, %d away toggles; %d could not be made",
			len(s.notes), len(s.topics), len(s.aways), s.skippedEdits)
	}
	if f.TotalFaults() == 0 {
		t.Error("the proxy injected no faults")
	}
}

// soakScreen draws a 100-column screen: list rows (with wide characters) under a modal box
// titled title holding lines (none: no box), and a toast in the bottom-right corner.
func soakScreen(title string, lines []string, toast string) string {
	const w, boxW, left = 100, 72, 12
	row := func(i int) string { return "│ ● new   王 伟 row " + strconv.Itoa(i) }
	fit := func(s string, n int) string { return s + strings.Repeat(" ", max(0, n-ansi.StringWidth(s))) }
	var out []string
	for i := range 24 {
		out = append(out, fit(row(i), w))
	}
	if title != "" {
		box := []string{"╭" + strings.Repeat("─", boxW-2) + "╮", "│ " + fit(title, boxW-4) + " │", "│" + strings.Repeat(" ", boxW-2) + "│"}
		for _, l := range lines {
			box = append(box, "│ "+fit(l, boxW-4)+" │")
		}
		box = append(box, "╰"+strings.Repeat("─", boxW-2)+"╯")
		for i, b := range box {
			l := out[3+i]
			out[3+i] = ansi.Cut(l, 0, left) + b + ansi.Cut(l, left+boxW, w)
		}
	}
	if toast != "" {
		tw := ansi.StringWidth(toast) + 4
		for i, b := range []string{"╭" + strings.Repeat("─", tw-2) + "╮", "│ " + toast + " │", "╰" + strings.Repeat("─", tw-2) + "╯"} {
			l := out[20+i]
			out[20+i] = ansi.Cut(l, 0, w-tw-2) + b + ansi.Cut(l, w-2, w)
		}
	}
	return strings.Join(out, "\n")
}

// The verdict of a form is read from the form's own box, whatever toasts say around it,
// and a save whose outcome is being checked has no verdict yet.
func TestSoakReadsFormVerdicts(t *testing.T) {
	const title = "New note about Freya Roberts"
	body := []string{"┃ Note", "┃ soak-note-3", ""}
	cases := []struct {
		name  string
		scr   string
		want  verdict
		ready bool
	}{
		{"saving", soakScreen(title, append(body, "Saving…"), ""), "", false},
		{"refused", soakScreen(title, append(body, "✗ Cannot reach 127.0.0.1:34367 (read: connection reset by peer)."), ""), notSaved, true},
		{"checking", soakScreen(title, append(body, "✗ The answer was lost: may have been saved; checking…"), ""), "", false},
		{"checked: not saved", soakScreen(title, append(body, "✗ The answer was lost and the note is not on the", "server: not saved."), ""), notSaved, true},
		{"checked both ways", soakScreen(title, append(body, "✗ may have been saved; checked: not saved"), ""), notSaved, true},
		{"check failed", soakScreen(title, append(body, "✗ The answer was lost: it may have been saved (the", "check could not reach the API)."), ""), unknown, true},
		{"could not confirm", soakScreen(title, append(body, "✗ could not confirm whether the note was saved (no", "answer came within 3s; reading it back: connection lost)"), ""), unknown, true},
		{"checking, as parley says it", soakScreen(title, append(body, "May have been saved: the connection was lost before", "the server answered; checking…"), ""), "", false},
		{"checked, as parley says it", soakScreen(title, append(body, "✗ Not saved: the API answered 500 Internal Server", "Error, and the note is not on the server."), ""), notSaved, true},
		{"an old error toast", soakScreen(title, body, "✗ API error 500: A server error occurred."), "", false},
		{"another form's title", soakScreen("Topics of conversation #700150", append(body, "✗ API error 500"), ""), saved, true},
		{"closed", soakScreen("", nil, "Note saved"), saved, true},
		{"closed, checking", soakScreen("", nil, "Note may have been saved; checking…"), "", false},
	}
	for _, c := range cases {
		v, ready := formState(c.scr, title)
		if ready != c.ready || (ready && v != c.want) {
			t.Errorf("%s: got %q (ready %v), want %q (ready %v)\n%s", c.name, v, ready, c.want, c.ready, c.scr)
		}
	}
}
