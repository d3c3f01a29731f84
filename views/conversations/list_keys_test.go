package conversations_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

// sentLog records the query of every list request a client sends (before it is sent, so
// a test reading it after the answer arrived sees it).
type sentLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	qs   []url.Values
}

func (l *sentLog) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/conversations/") {
		l.mu.Lock()
		l.qs = append(l.qs, req.URL.Query())
		l.mu.Unlock()
	}
	return l.next.RoundTrip(req)
}

// listEnv is a sandbox of the test's own and a client on it, with the response cache the
// app uses, whose list requests log records.
func listEnv(t *testing.T) (*client.Client, *sentLog) {
	t.Helper()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	log := &sentLog{next: viewtest.Transport(t)}
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken, Now: viewtest.Clock,
		CacheTTL: 2 * time.Minute, HTTPClient: &http.Client{Transport: log}})
	if err != nil {
		t.Fatal(err)
	}
	return c, log
}

// listRequests are the list requests sent so far.
func listRequests(_ *testing.T, l *sentLog) []url.Values {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.qs)
}

// press hands the keys to m one after the other, as fast as a typist, and returns the
// commands they produced.
func press(m conversations.Model, keys ...string) (conversations.Model, []tea.Cmd) {
	var cmds []tea.Cmd
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key(k))
		cmds = append(cmds, cmd)
	}
	return m, cmds
}

// settleAll runs the commands (and what they lead to) in order.
func settleAll(m conversations.Model, cmds []tea.Cmd) conversations.Model {
	for _, c := range cmds {
		m = viewtest.Settle(m, c, wait)
	}
	return m
}

// TestOrderingAndStatusKeysSendOneRequest: five quick `o` cost one list request, for the
// ordering the header showed at once; two quick `s` likewise. Cycling back to the
// default ordering sends no ordering (the default request's URL, so the response cache
// answers it) and the header still names it.
func TestOrderingAndStatusKeysSendOneRequest(t *testing.T) {
	c, e := listEnv(t)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if reqs := listRequests(t, e); len(reqs) != 1 || reqs[0].Has("ordering") {
		t.Fatalf("first load: %v, want one request without ordering", reqs)
	}

	m, cmds := press(m, "o", "o", "o", "o", "o")
	want := conversations.OrderingCycle[5]
	if m.Query().Ordering != want {
		t.Fatalf("five o: ordering %q, want %q", m.Query().Ordering, want)
	}
	header := strings.SplitN(m.View(), "\n", 2)[0]
	if !strings.Contains(header, "order:"+want) || !strings.Contains(header, "… conversations") {
		t.Fatalf("the header does not show the new ordering (with its count pending) at once: %q", header)
	}
	m = settleAll(m, cmds)
	reqs := listRequests(t, e)
	if len(reqs) != 2 {
		t.Fatalf("five o sent %d list requests, want 1: %v", len(reqs)-1, reqs[1:])
	}
	if got := reqs[1].Get("ordering"); got != want {
		t.Fatalf("the request asked for ordering %q, want %q", got, want)
	}
	if m.Loading() || len(m.Rows()) == 0 || strings.Contains(m.View(), "… conversations") {
		t.Fatalf("the list did not load the new ordering:\n%s", m.View())
	}

	m, cmds = press(m, "s", "s")
	if m.Query().Filter.Status != client.StatusPending {
		t.Fatalf("two s: status %q", m.Query().Filter.Status)
	}
	m = settleAll(m, cmds)
	reqs = listRequests(t, e)
	if len(reqs) != 3 || reqs[2].Get("status") != client.StatusPending || reqs[2].Get("ordering") != want {
		t.Fatalf("two s: requests %v, want one more with status pending and ordering %s", reqs, want)
	}
	for _, r := range m.Rows() {
		if r.Status != client.StatusPending {
			t.Fatalf("status pending shows a %s row", r.Status)
		}
	}
	m, cmds = press(m, "s", "s") // ended, then all statuses again
	m = settleAll(m, cmds)

	// Five more o: back to the default, which is the first load's URL again.
	before := len(listRequests(t, e))
	m, cmds = press(m, "o", "o", "o", "o", "o")
	m = settleAll(m, cmds)
	if m.Query().Ordering != "" {
		t.Fatalf("ten o: ordering %q, want the default (\"\")", m.Query().Ordering)
	}
	if reqs := listRequests(t, e)[before:]; len(reqs) != 0 {
		t.Fatalf("back at the default ordering the list asked the server again (%v): the cached first load should answer", reqs)
	}
	if !strings.Contains(m.View(), "order:-id") || len(m.Rows()) == 0 {
		t.Fatalf("header at the default ordering:\n%s", m.View())
	}
}

// TestReloadDroppedWhenTheQueryChangesAgain: a search submitted while an `o` waits to
// reload supersedes it: only the search is asked for.
func TestReloadDroppedWhenTheQueryChangesAgain(t *testing.T) {
	c, e := listEnv(t)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	m, cmds := press(m, "o")
	var cmd tea.Cmd
	m, cmd = m.Update(conversations.SearchMsg{Text: "thanks"})
	m = settleAll(m, append(cmds, cmd))
	reqs := listRequests(t, e)
	if len(reqs) != 2 || reqs[1].Get("search_query") != "thanks" {
		t.Fatalf("requests %v, want the first load and the search only", reqs)
	}
}

// TestSearchIsRankedAndSendsNoOrdering: with a search the request carries no ordering and
// the header says the results are ranked instead of naming an ordering; o then changes
// nothing (it says why).
func TestSearchIsRankedAndSendsNoOrdering(t *testing.T) {
	c, e := listEnv(t)
	m := newList(t, c, 100, 160, 20)
	m = viewtest.Settle(m, m.SetQuery(conversations.Query{Ordering: "-last_message_sent_at"}), wait)
	var cmd tea.Cmd
	m, cmd = m.Update(conversations.SearchMsg{Text: "thanks"})
	m = viewtest.Settle(m, cmd, wait)
	reqs := listRequests(t, e)
	last := reqs[len(reqs)-1]
	if last.Get("search_query") != "thanks" || last.Has("ordering") {
		t.Fatalf("search request %v: want search_query and no ordering", last)
	}
	if m.Total() == 0 {
		t.Fatal("search thanks found nothing")
	}
	header := strings.SplitN(m.View(), "\n", 2)[0]
	if !strings.Contains(header, `search:"thanks" (ranked)`) || strings.Contains(header, "order:") {
		t.Fatalf("header with a search: %q", header)
	}
	m, cmd = m.Update(viewtest.Key("o"))
	if m.Query().Ordering != "-last_message_sent_at" || m.Loading() || cmd == nil {
		t.Fatalf("o with a search: ordering %q, loading %v", m.Query().Ordering, m.Loading())
	}
	if msgs := viewtest.Run(cmd, wait); len(msgs) != 1 || !strings.Contains(toastText(msgs[0]), "rank order") {
		t.Fatalf("o with a search gave %v, want a notice", msgs)
	}
	if n := len(listRequests(t, e)); n != len(reqs) {
		t.Fatalf("o with a search sent %d requests", n-len(reqs))
	}
}

func toastText(msg tea.Msg) string {
	if t, ok := msg.(common.ToastMsg); ok {
		return t.Text
	}
	return ""
}

// TestEscClearsMarksThenSearchThenFilters: esc drops the marks first (so d cannot act on
// rows marked before the list changed under them), then the search, then the filters,
// as in the contacts list.
func TestEscClearsMarksThenSearchThenFilters(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.SetQuery(conversations.Query{Search: "thanks",
		Filter: client.ConversationFilter{Status: client.StatusPending}}), wait)
	if len(m.Rows()) < 2 {
		t.Fatalf("the search found %d rows; the test needs two", len(m.Rows()))
	}
	m, _ = press(m, " ", " ")
	if len(m.Marked()) != 2 || !strings.Contains(m.View(), "2 marked") || !m.CanClear() {
		t.Fatalf("space space: %d marked\n%s", len(m.Marked()), m.View())
	}
	var cmd tea.Cmd
	m, cmd = m.Update(viewtest.Key("esc"))
	if cmd != nil || len(m.Marked()) != 0 || m.Query().Search != "thanks" {
		t.Fatalf("first esc: %d marked, query %+v, command %v: want the marks cleared and nothing else", len(m.Marked()), m.Query(), cmd != nil)
	}
	if v := m.View(); strings.Contains(v, "marked") || strings.Contains(v, "\n*") {
		t.Fatalf("a row still shows its mark:\n%s", v)
	}
	m, cmd = m.Update(viewtest.Key("esc"))
	m = viewtest.Settle(m, cmd, wait)
	if m.Query().Search != "" || m.Query().Filter.Status != client.StatusPending {
		t.Fatalf("second esc: query %+v, want the search cleared and the filters kept", m.Query())
	}
	m, cmd = m.Update(viewtest.Key("esc"))
	m = viewtest.Settle(m, cmd, wait)
	if !m.Query().Filter.IsZero() || m.CanClear() {
		t.Fatalf("third esc left filters %+v", m.Query().Filter)
	}
}
