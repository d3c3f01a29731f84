package thread_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations/thread"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

const wait = 5 * time.Second

func apply(m thread.Model, msgs []tea.Msg) (thread.Model, tea.Cmd) {
	m, cmds := viewtest.Apply(m, msgs)
	return m, tea.Batch(cmds...)
}

func open(t *testing.T, w, h int) (thread.Model, *client.Client, int64) {
	t.Helper()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	long := sb.Server.Info().LongConversationID
	m := thread.New(viewtest.Ctx(c))
	m.SetSize(w, h)
	m.Focus()
	m, _ = apply(m, viewtest.Run(m.Open(long, "Long thread", false), wait))
	return m, c, long
}

// step presses key and runs the request it asks for, if any, but not what the answer
// asks for next.
func step(m thread.Model, key string) thread.Model {
	m, cmd := m.Update(viewtest.Key(key))
	m, _ = apply(m, viewtest.Run(cmd, wait))
	return m
}

// untilAsked presses key until a press asks for a page and returns that request unrun; the
// test fails when 5,000 presses ask for none.
func untilAsked(t *testing.T, m thread.Model, key string) (thread.Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for i := 0; i < 5000 && cmd == nil; i++ {
		m, cmd = m.Update(viewtest.Key(key))
	}
	if cmd == nil {
		t.Fatalf("pressing %s never asked for a page", key)
	}
	return m, cmd
}

func TestOpensAtNewestAndScrollsBackWithOneRequestPerPage(t *testing.T) {
	t.Parallel()
	m, c, long := open(t, 80, 30)
	if !strings.Contains(m.View(), "100 loaded") {
		t.Fatalf("first page not shown:\n%s", m.View())
	}
	// The newest message is at the bottom of the first view.
	newest, err := c.MessagesPage(t.Context(), long, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.View(), firstWords(newest.Results[0].Body)) {
		t.Fatalf("the thread does not open at the newest message %q:\n%s", firstWords(newest.Results[0].Body), m.View())
	}
	total := 0
	for _, err := range c.Messages(t.Context(), long, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		total++
	}
	if total < 1500 {
		t.Fatalf("the long conversation has %d messages", total)
	}
	// Scroll up a page at a time until everything is loaded and the top is reached.
	for i := 0; i < 5000 && (m.HasOlder() || m.Loading() || !strings.Contains(m.View(), "Start of the long thread")); i++ {
		m = press(m, "ctrl+u")
	}
	if m.Loaded() != total {
		t.Fatalf("loaded %d of %d messages", m.Loaded(), total)
	}
	if want := (total + 99) / 100; m.Requests() != want {
		t.Fatalf("scrolling back through %d messages took %d requests, want %d", total, m.Requests(), want)
	}
	if !strings.Contains(m.View(), "Start of the long thread") {
		t.Fatalf("the top does not show the first message:\n%s", m.View())
	}
}

func TestPrependDoesNotMoveTheView(t *testing.T) {
	t.Parallel()
	m, _, _ := open(t, 80, 30)
	// Scroll up until a prefetch is in flight, but do not run it yet.
	m, pending := untilAsked(t, m, "k")
	if !m.Loading() {
		t.Fatal("a request is in flight but the pane does not say it is loading")
	}
	if !strings.Contains(m.View(), "loading older") {
		t.Fatalf("no loading line while a page is in flight:\n%s", m.View())
	}
	before := body(m.View())
	m, _ = apply(m, viewtest.Run(pending, wait))
	after := body(m.View())
	if before != after {
		t.Fatalf("the view moved when older messages were prepended:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if m.Loaded() != 200 {
		t.Fatalf("loaded %d messages after one older page, want 200", m.Loaded())
	}
}

func TestStalePageOfAnotherConversationIsDropped(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	info := sb.Server.Info()
	m := thread.New(viewtest.Ctx(c))
	m.SetSize(80, 30)
	first := m.Open(info.LongConversationID, "long", false)
	second := m.Open(info.HostileConversationID, "hostile", false)
	m, _ = apply(m, viewtest.Run(second, wait))
	m, _ = apply(m, viewtest.Run(first, wait))
	if m.ConversationID() != info.HostileConversationID {
		t.Fatalf("showing %d", m.ConversationID())
	}
	if strings.Contains(m.View(), "Start of the long thread") || m.Loaded() > 100 {
		t.Fatal("a page of the previously opened conversation was shown")
	}
}

// A page carries its pane's owner id: another thread pane showing the same conversation,
// with a request of the same generation and number in flight, does not take it.
func TestAnotherPanesPageIsDropped(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	info := sb.Server.Info()
	ctx := viewtest.Ctx(c)
	a, b := thread.New(ctx), thread.New(ctx)
	a.SetSize(80, 30)
	b.SetSize(80, 30)
	fromA := a.Open(info.LongConversationID, "long", false)
	_ = b.Open(info.LongConversationID, "long", false)
	b, _ = apply(b, viewtest.Run(fromA, wait))
	if b.Loaded() != 0 || !b.Loading() {
		t.Fatalf("pane b took pane a's page: %d loaded, loading %v", b.Loaded(), b.Loading())
	}
}

func TestHostileThreadFitsAndIsInert(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := thread.New(viewtest.Ctx(c))
	m.SetSize(70, 40)
	m.Focus()
	m, _ = apply(m, viewtest.Run(m.Open(sb.Server.Info().HostileConversationID, "hostile", false), wait))
	for i := 0; i < 400; i++ {
		v := m.View()
		for j, l := range strings.Split(v, "\n") {
			if w := ansi.StringWidth(l); w != 70 {
				t.Fatalf("line %d is %d wide: %q", j, w, l)
			}
		}
		viewtest.CheckInert(t, v, fmt.Sprintf("the thread after %d×k", i))
		m = step(m, "k")
	}
}

func body(v string) string {
	lines := strings.Split(v, "\n")
	return strings.Join(lines[1:], "\n") // the header line counts loaded messages
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, " ")
}

// The header keeps the reading position once every message is loaded, renames the open
// conversation only, and ends without a dangling separator when there is no name yet.
func TestHeaderPositionAndTitle(t *testing.T) {
	t.Parallel()
	m, _, long := open(t, 80, 30)
	for m.HasOlder() || m.Loading() {
		m = step(m, "pgup")
	}
	head := strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0]
	if !strings.Contains(head, " · all · ") || !strings.Contains(head, "%") {
		t.Fatalf("fully loaded header lacks the position: %q", head)
	}
	m.SetTitle(long+1, "Someone else")
	m.SetTitle(long, "Renamed")
	head = strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0]
	if !strings.HasSuffix(strings.TrimRight(head, " "), "· Renamed") {
		t.Fatalf("SetTitle: %q", head)
	}
	m.SetTitle(long, "")
	head = strings.TrimRight(strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0], " ")
	if strings.HasSuffix(head, "·") {
		t.Fatalf("header ends with a separator: %q", head)
	}
}

// Message text keeps one column off both sides of the pane.
func TestMessagesKeepAMargin(t *testing.T) {
	t.Parallel()
	m, _, _ := open(t, 60, 30)
	for i, l := range strings.Split(ansi.Strip(m.View()), "\n")[1:] {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "─") {
			continue
		}
		if l[0] != ' ' || ansi.StringWidth(strings.TrimRight(l, " ")) > 59 {
			t.Fatalf("line %d touches an edge: %q", i+1, l)
		}
	}
}

// A narrow pane wraps a message's header at its separators: the sender's name and the
// delivery state stay whole, and every line keeps the width.
func TestNarrowHeadersKeepNameAndState(t *testing.T) {
	t.Parallel()
	m := thread.New(viewtest.Ctx(nil))
	at := client.Time{Time: viewtest.Now.Add(-time.Minute)}
	m.Preload(1, "t", []client.Message{
		{ID: "1.1.2", Body: "On its way.", SentAt: at, DisplayName: "Greta", OperatorDisplayName: "Greta",
			Sender: client.Sender{Type: client.SenderOperator, ID: 7}, State: client.MessageState{Type: 4, Message: "Read by user"}},
		{ID: "1.1.1", Body: "Where is my parcel?", SentAt: at, DisplayName: "Maximiliane Oberhuber",
			Sender: client.Sender{Type: client.SenderContact, ID: 9}},
	})
	for _, w := range []int{30, 42, 53, 80} {
		m.SetSize(w, 20)
		v := ansi.Strip(m.View())
		viewtest.CheckSize(t, m.View(), w, 20, "messages")
		for _, want := range []string{"Greta", "Read by user", "Maximiliane Oberhuber"} {
			if w < 40 && want == "Maximiliane Oberhuber" {
				continue
			}
			if !strings.Contains(v, want) {
				t.Errorf("%d columns: %q is cut:\n%s", w, want, v)
			}
		}
	}
}

// r after a failed older page asks for that page again and keeps the loaded messages and
// the reading position, instead of reopening the thread at its newest message. The pane
// names the refresh key as bound (R when rebound).
func TestRRetriesAFailedOlderPage(t *testing.T) {
	t.Parallel()
	for _, refresh := range []string{"r", "R"} {
		t.Run(refresh, func(t *testing.T) {
			sb := viewtest.Sandbox(t, sandbox.Options{})
			tr := &viewtest.FailingPages{Next: viewtest.Transport(t), Param: "cursor"}
			c := viewtest.ClientVia(t, sb, tr, client.Config{MaxRetries: -1})
			ctx := viewtest.Ctx(c)
			if err := ctx.Keys.Apply(map[string][]string{"refresh": {refresh}}); err != nil {
				t.Fatal(err)
			}
			m := thread.New(ctx)
			m.SetSize(80, 30)
			m.Focus()
			m, _ = apply(m, viewtest.Run(m.Open(sb.Server.Info().LongConversationID, "long", false), wait))
			tr.Fail.Store(true)
			m, cmd := untilAsked(t, m, "k")
			m, _ = apply(m, viewtest.Run(cmd, wait))
			if !strings.Contains(m.View(), "failed: "+refresh+" retries") || m.Loaded() != 100 {
				t.Fatalf("after a failed older page: %d loaded\n%s", m.Loaded(), m.View())
			}
			before := body(m.View())
			tr.Fail.Store(false)
			m, cmd = m.Update(viewtest.Key(refresh))
			m, _ = apply(m, viewtest.Run(cmd, wait))
			if m.Loaded() != 200 || body(m.View()) != before {
				t.Fatalf("after %s: %d loaded (want 200) and the view moved:\nbefore:\n%s\nafter:\n%s", refresh, m.Loaded(), before, body(m.View()))
			}
		})
	}
}

// fakeThread serves one conversation's messages, newest first, pages of limit following
// next links by cursor; the test adds messages while the pane is open.
type fakeThread struct {
	mu       sync.Mutex
	n        int // messages 1..n; n is the newest
	requests int
}

func (f *fakeThread) add(k int) {
	f.mu.Lock()
	f.n += k
	f.mu.Unlock()
}

func (f *fakeThread) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	top := f.n
	if c := r.URL.Query().Get("cursor"); c != "" {
		top, _ = strconv.Atoi(c[strings.LastIndex(c, ".")+1:])
		top--
	}
	var res []map[string]any
	for i := top; i > 0 && len(res) < limit; i-- {
		res = append(res, map[string]any{"id": fmt.Sprintf("1.1.%d", i), "body": fmt.Sprintf("message number %d", i),
			"sent_at": viewtest.Now.Add(time.Duration(i-150) * time.Minute).Format(time.RFC3339), // a message's time never changes
			"sender":  map[string]any{"type": "contact", "id": 9}, "display_name": "Ann"})
	}
	var next any
	if low := top - len(res); low > 0 {
		next = fmt.Sprintf("http://%s%s?cursor=1.1.%d&limit=%d", r.Host, r.URL.Path, low+1, limit)
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"next": next, "previous": nil, "results": res})
}

// Refresh adds the messages that arrived below the others: a view at the newest message
// follows them, a view further up stays where it is, a refresh with nothing new changes
// nothing, and more new messages than a page starts the thread over from the newest page.
func TestRefreshAppendsNewMessages(t *testing.T) {
	t.Parallel()
	f := &fakeThread{n: 150}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "t", MaxRetries: -1, Now: viewtest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	m := thread.New(viewtest.Ctx(c))
	m.SetSize(60, 20)
	m.Focus()
	m, _ = apply(m, viewtest.Run(m.Open(1, "Ann", false), wait))
	if m.Loaded() != 100 || !strings.Contains(m.View(), "message number 150") {
		t.Fatalf("opened with %d messages:\n%s", m.Loaded(), m.View())
	}
	f.add(2)
	m, _ = apply(m, viewtest.Run(m.Refresh(), wait))
	if m.Loaded() != 102 || !strings.Contains(m.View(), "message number 152") {
		t.Fatalf("at the newest message a refresh should show 152 (%d loaded):\n%s", m.Loaded(), m.View())
	}
	// Scrolled up a little: new messages do not move the view.
	for range 5 {
		m, _ = m.Update(viewtest.Key("k"))
	}
	before := body(m.View())
	f.add(1)
	m, _ = apply(m, viewtest.Run(m.Refresh(), wait))
	if m.Loaded() != 103 || body(m.View()) != before {
		t.Fatalf("a refresh moved a view scrolled up (%d loaded):\nbefore:\n%s\nafter:\n%s", m.Loaded(), before, body(m.View()))
	}
	// Nothing new: nothing changes.
	m, _ = apply(m, viewtest.Run(m.Refresh(), wait))
	if m.Loaded() != 103 || body(m.View()) != before {
		t.Fatalf("a refresh without news changed the view (%d loaded)", m.Loaded())
	}
	// More than a page arrived: the newest page, at its newest message.
	f.add(130)
	m, _ = apply(m, viewtest.Run(m.Refresh(), wait))
	if m.Loaded() != 100 || !strings.Contains(m.View(), "message number 283") || !m.HasOlder() {
		t.Fatalf("after 130 new messages: %d loaded, older %v:\n%s", m.Loaded(), m.HasOlder(), m.View())
	}
	// Older pages still load by following next, each once.
	reqs := f.requests
	for i := 0; i < 300 && m.Loaded() < 200; i++ {
		m = step(m, "ctrl+u")
	}
	if m.Loaded() != 200 || f.requests-reqs != 1 {
		t.Fatalf("scrolling back: %d loaded with %d requests", m.Loaded(), f.requests-reqs)
	}
}

// Opening another conversation cancels the requests for the one left: a page that waits out
// a 429 for it stops at once instead of retrying (and spending the day's budget) for a
// thread nobody looks at any more.
func TestOpeningAnotherConversationCancelsTheLeftOnesRequests(t *testing.T) {
	t.Parallel()
	api := viewtest.NewThrottling(t, "/conversations/1/", `{"next":null,"previous":null,"results":[]}`)
	m := thread.New(viewtest.Ctx(api.Client))
	m.SetSize(60, 20)
	second := api.Leave(t, m.Open(1, "throttled", false), func() tea.Cmd { return m.Open(2, "next", false) })
	m, _ = apply(m, viewtest.Run(second, wait))
	if m.ConversationID() != 2 || m.Loading() {
		t.Fatalf("showing %d, loading %v", m.ConversationID(), m.Loading())
	}
}

// Refresh (r, a refresh that shows the conversation changed, a switch of the acting
// operator) opens a thread again whose first page failed, instead of leaving the error.
func TestRefreshReopensAThreadWhoseFirstPageFailed(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	tr := &viewtest.FailingPages{Next: viewtest.Transport(t), Param: "limit"} // every page
	c := viewtest.ClientVia(t, sb, tr, client.Config{MaxRetries: -1})
	m := thread.New(viewtest.Ctx(c))
	m.SetSize(80, 30)
	tr.Fail.Store(true)
	m, _ = apply(m, viewtest.Run(m.Open(sb.Server.Info().LongConversationID, "long", false), wait))
	if m.Loaded() != 0 || m.Loading() {
		t.Fatalf("after a failed first page: %d loaded, loading %v", m.Loaded(), m.Loading())
	}
	tr.Fail.Store(false)
	cmd := m.Refresh()
	if cmd == nil {
		t.Fatal("Refresh asked for nothing after the first page failed")
	}
	m, _ = apply(m, viewtest.Run(cmd, wait))
	if m.Loaded() != 100 || m.ConversationID() != sb.Server.Info().LongConversationID {
		t.Fatalf("after Refresh: %d loaded of conversation %d", m.Loaded(), m.ConversationID())
	}
}

// A thread read before opens again from the client's memory at the same version: what was
// loaded, older pages included, without a request, and scrolling on asks only for the
// pages not loaded yet.
func TestReopenAtTheSameVersionComesFromMemory(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	info := sb.Server.Info()
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: info.CustomerToken, Now: viewtest.Clock, CacheTTL: time.Minute,
		HTTPClient: &http.Client{Transport: viewtest.Transport(t)}})
	if err != nil {
		t.Fatal(err)
	}
	long, err := c.GetConversation(t.Context(), info.LongConversationID)
	if err != nil {
		t.Fatal(err)
	}
	v := client.VersionOf(*long)
	m := thread.New(viewtest.Ctx(c))
	m.SetSize(80, 30)
	m.Focus()
	m, _ = apply(m, viewtest.Run(m.OpenAt(long.ID, "long", v, false), wait))
	for i := 0; i < 1000 && m.Loaded() < 200; i++ {
		m = step(m, "ctrl+u")
	}
	if m.Loaded() != 200 || m.Requests() != 2 {
		t.Fatalf("scrolled back to %d messages with %d requests", m.Loaded(), m.Requests())
	}
	m, _ = apply(m, viewtest.Run(m.Open(info.HostileConversationID, "hostile", false), wait))
	used := c.Usage(client.FamilyConversations)
	m, _ = apply(m, viewtest.Run(m.OpenAt(long.ID, "long", v, false), wait))
	if m.Loaded() != 200 || !m.HasOlder() || c.Usage(client.FamilyConversations) != used || m.Requests() != 0 {
		t.Fatalf("reopened with %d messages (older: %v) at %d requests (%d counted)", m.Loaded(), m.HasOlder(),
			m.Requests(), c.Usage(client.FamilyConversations)-used)
	}
	if !strings.Contains(m.View(), "200 loaded") {
		t.Fatalf("the reopened thread does not say what is loaded:\n%s", m.View())
	}
	for i := 0; i < 1000 && m.Loaded() < 300; i++ {
		m = step(m, "ctrl+u")
	}
	if m.Loaded() != 300 || m.Requests() != 1 {
		t.Fatalf("scrolling on loaded %d messages with %d requests, want 300 with 1", m.Loaded(), m.Requests())
	}
}

// A refresh shows the new state of a message already loaded (delivered, then read).
func TestRefreshShowsANewDeliveryState(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	state := "Delivered to contact"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var res []map[string]any
		for i := 3; i > 0; i-- {
			res = append(res, map[string]any{"id": fmt.Sprintf("1.1.%d", i), "body": fmt.Sprintf("answer %d", i),
				"sent_at": viewtest.Now.Add(time.Duration(i-3) * time.Minute).Format(time.RFC3339),
				"sender":  map[string]any{"type": "operator", "id": 3}, "operator_display_name": "Max",
				"state": map[string]any{"type": 3, "message": state}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"next": nil, "previous": nil, "results": res})
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "t", MaxRetries: -1, Now: viewtest.Clock, CacheTTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	m := thread.New(viewtest.Ctx(c))
	m.SetSize(80, 20)
	m, _ = apply(m, viewtest.Run(m.Open(1, "Ann", false), wait))
	if !strings.Contains(m.View(), "Delivered to contact") || strings.Contains(m.View(), "Read by user") {
		t.Fatalf("opened:\n%s", m.View())
	}
	mu.Lock()
	state = "Read by user"
	mu.Unlock()
	m, _ = apply(m, viewtest.Run(m.Refresh(), wait))
	if strings.Contains(m.View(), "Delivered to contact") || strings.Count(m.View(), "Read by user") != 3 || m.Loaded() != 3 {
		t.Fatalf("after the messages were read (%d loaded):\n%s", m.Loaded(), m.View())
	}
}
