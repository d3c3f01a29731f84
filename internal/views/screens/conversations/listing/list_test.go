package listing_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

const wait = 5 * time.Second

func newList(t *testing.T, c *client.Client, pageSize, w, h int) listing.Model {
	t.Helper()
	m, _ := newListCtx(t, c, pageSize, w, h)
	return m
}

// newListCtx is newList with its context, through which the list opens its modals.
func newListCtx(t *testing.T, c *client.Client, pageSize, w, h int) (listing.Model, *common.Ctx) {
	t.Helper()
	ctx := viewtest.Ctx(c)
	ctx.PageSize = pageSize
	m := listing.New(ctx)
	m.SetSize(w, h)
	m.Focus()
	return m, ctx
}

func TestStaleResultsAreDropped(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 100, 20)
	// Two queries in a row; the answer to the first arrives last and must be ignored.
	first := m.SetQuery(listing.Query{Filter: client.ConversationFilter{Status: client.StatusEnded}})
	second := m.SetQuery(listing.Query{Filter: client.ConversationFilter{Status: client.StatusNew}})
	m, _ = viewtest.Apply(m, viewtest.Run(second, wait))
	m, _ = viewtest.Apply(m, viewtest.Run(first, wait))
	if len(m.Rows()) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range m.Rows() {
		if r.Status != client.StatusNew {
			t.Fatalf("row %d has status %q: a stale page overwrote the newer query", r.ID, r.Status)
		}
	}
}

func TestStatusOrderSearchAndEsc(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	m = viewtest.Handle(m, viewtest.Key("s"), wait)
	if m.Query().Filter.Status != client.StatusNew {
		t.Fatalf("s set status %q, want new", m.Query().Filter.Status)
	}
	for _, r := range m.Rows() {
		if r.Status != client.StatusNew {
			t.Fatalf("status filter new shows a %q row", r.Status)
		}
	}
	m = viewtest.Handle(m, viewtest.Key("o"), wait)
	if m.Query().Ordering != "last_message_sent_at" {
		t.Fatalf("o after the default -last_message_sent_at gave %q, want last_message_sent_at", m.Query().Ordering)
	}
	rows := m.Rows()
	for i := 1; i < len(rows); i++ {
		if rows[i].LastAt.Before(rows[i-1].LastAt) {
			t.Fatalf("ordering last_message_sent_at: %d (%v) listed after %d (%v)", rows[i].ID, rows[i].LastAt, rows[i-1].ID, rows[i-1].LastAt)
		}
	}
	m = viewtest.Handle(m, listing.SearchMsg{Text: "zzzznotaword"}, wait)
	// The empty list names what hides rows: the search and the status, and the key that
	// clears them.
	if want := `No conversations match the search "zzzznotaword" and the filter status new. esc clears the search, then again the filters.`; m.Total() != 0 || !strings.Contains(strings.Join(strings.Fields(ansi.Strip(m.View())), " "), want) {
		t.Fatalf("search for nonsense: total %d, want %q in the view:\n%s", m.Total(), want, m.View())
	}
	if !strings.Contains(m.View(), `search:"zzzznotaword"`) {
		t.Fatalf("header does not show the search:\n%s", m.View())
	}
	m = viewtest.Handle(m, viewtest.Key("esc"), wait) // clears the search
	if m.Query().Search != "" || m.Query().Filter.Status != client.StatusNew {
		t.Fatalf("first esc: query %+v, want search cleared and filters kept", m.Query())
	}
	m = viewtest.Handle(m, viewtest.Key("esc"), wait) // then the filters
	if !m.Query().Filter.IsZero() {
		t.Fatalf("second esc left filters %+v", m.Query().Filter)
	}
}

func TestViewIsExactlyItsSize(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	for _, size := range [][2]int{{40, 10}, {60, 22}, {76, 30}, {120, 40}, {200, 50}} {
		m := newList(t, c, 100, size[0], size[1])
		m = viewtest.Settle(m, m.Load(false), wait)
		for _, k := range []string{"j", "j", " ", "G", "g"} {
			m = viewtest.Handle(m, viewtest.Key(k), wait)
			lines := strings.Split(m.View(), "\n")
			if len(lines) != size[1] {
				t.Fatalf("%dx%d after %q: %d lines", size[0], size[1], k, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != size[0] {
					t.Fatalf("%dx%d after %q: line %d is %d wide: %q", size[0], size[1], k, i, w, l)
				}
			}
		}
	}
}

func TestRowsAreSanitized(t *testing.T) {
	t.Parallel()
	r := listing.RowFrom(client.Conversation{
		ID:          1,
		Status:      "new",
		Contact:     client.Contact{Name: ptr("\x1b]0;pwned\x07Eve\u202e\u200c\U000E0041\u3164")},
		LastMessage: &client.Message{Body: "hi\x1b[2J\nthere\u009b" + viewtest.Invisible, Sender: client.Sender{Type: "contact"}},
		Topics:      []client.Topic{{ID: 3, Text: "bad\x07topic" + viewtest.Invisible}},
	})
	for _, s := range append([]string{r.Name, r.Preview}, r.Topics...) {
		viewtest.CheckInertLine(t, s, "a row")
	}
	if want := "␛]0;pwned␇Eve"; r.Name != want {
		t.Fatalf("name %q, want %q", r.Name, want)
	}
	_ = layout.StatusSymbol
}

func ptr(s string) *string { return &s }

// TestPastTheOffsetCapByCursor: with the server's offset cap lowered to 30, id-ordered
// browsing continues through /conversations/all/ by cursor to the last conversation, in
// both directions; other orderings stop at the cap and say so.
func TestPastTheOffsetCapByCursor(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{OffsetCap: 30})
	c := viewtest.Client(t, sb)
	for _, ordering := range []string{"-id", "id"} {
		m := newList(t, c, 10, 100, 20)
		m = viewtest.Settle(m, m.SetQuery(listing.Query{Ordering: ordering}), wait)
		total := m.Total()
		if total <= 30 {
			t.Fatalf("only %d conversations", total)
		}
		for i := 0; i < 100 && len(m.Rows()) < total; i++ {
			m = viewtest.Handle(m, viewtest.Key("G"), wait)
		}
		rows := m.Rows()
		if len(rows) != total {
			t.Fatalf("ordering %q: browsed %d of %d conversations past the cap of 30", ordering, len(rows), total)
		}
		for i := 1; i < len(rows); i++ {
			if (ordering == "id") != (rows[i].ID > rows[i-1].ID) {
				t.Fatalf("ordering %q: %d follows %d", ordering, rows[i].ID, rows[i-1].ID)
			}
		}
		if !strings.Contains(m.View(), "via /all/") {
			t.Fatalf("the footer does not say browsing went on through /all/:\n%s", m.View())
		}
	}
	// The default ordering (by last message) is a time ordering.
	for _, ordering := range []string{"", "-last_message_sent_at"} {
		m := newList(t, c, 10, 100, 20)
		m = viewtest.Settle(m, m.SetQuery(listing.Query{Ordering: ordering}), wait)
		for i := 0; i < 20; i++ {
			m = viewtest.Handle(m, viewtest.Key("G"), wait)
		}
		if got := len(m.Rows()); got != 30 {
			t.Fatalf("ordering %q browsed %d rows, want the cap of 30", ordering, got)
		}
		if !strings.Contains(m.View(), "order by id") {
			t.Fatalf("ordering %q: the footer does not explain the cap:\n%s", ordering, m.View())
		}
	}
}

// TestNewQueryStartsAtTheTopAndRefreshKeepsTheRow: a changed ordering, status, search or
// filter shows its rows from the first (even when they hold the row that was selected);
// r refreshes the same query and keeps the cursor on its row.
func TestNewQueryStartsAtTheTopAndRefreshKeepsTheRow(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if len(m.Rows()) < 60 || len(m.Rows()) != m.Total() {
		t.Fatalf("the test needs one page of 60 to 100 rows, got %d of %d", len(m.Rows()), m.Total())
	}
	m = viewtest.Down(m, 40)
	sel, _ := m.Selected()
	m = viewtest.Handle(m, viewtest.Key("r"), wait)
	if r, _ := m.Selected(); r.ID != sel.ID {
		t.Fatalf("r moved the cursor from %d to %d", sel.ID, r.ID)
	}
	m = viewtest.Handle(m, viewtest.Key("o"), wait) // id ascending: the same rows, the selected one elsewhere
	if r, _ := m.Selected(); r.ID != m.Rows()[0].ID {
		t.Fatalf("after o the cursor is on %d, not on the first row %d", r.ID, m.Rows()[0].ID)
	}
	m = viewtest.Down(m, 30)
	sel, _ = m.Selected()
	m = viewtest.Handle(m, listing.SearchMsg{Text: sel.Name}, wait)
	if len(m.Rows()) < 2 {
		t.Fatalf("the search for %q found %d rows", sel.Name, len(m.Rows()))
	}
	if r, _ := m.Selected(); r.ID != m.Rows()[0].ID {
		t.Fatalf("after a search the cursor is on %d, not on the best match %d", r.ID, m.Rows()[0].ID)
	}
}

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
	return viewtest.ClientVia(t, sb, log, client.Config{CacheTTL: 2 * time.Minute}), log
}

// listRequests are the list requests sent so far.
func listRequests(_ *testing.T, l *sentLog) []url.Values {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.qs)
}

// press hands the keys to m one after the other, as fast as a typist, and returns the
// commands they produced.
func press(m listing.Model, keys ...string) (listing.Model, []tea.Cmd) {
	var cmds []tea.Cmd
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key(k))
		cmds = append(cmds, cmd)
	}
	return m, cmds
}

// settleAll runs the commands (and what they lead to) in order.
func settleAll(m listing.Model, cmds []tea.Cmd) listing.Model {
	for _, c := range cmds {
		m = viewtest.Settle(m, c, wait)
	}
	return m
}

// TestOrderingAndStatusKeysSendOneRequest: five quick `o` cost one list request, for the
// ordering the header showed at once; two quick `s` likewise. Cycling back to the
// default ordering (by last message) sends the first load's URL again, so the response
// cache answers it, and the header still names it.
func TestOrderingAndStatusKeysSendOneRequest(t *testing.T) {
	t.Parallel()
	c, e := listEnv(t)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if reqs := listRequests(t, e); len(reqs) != 1 || reqs[0].Get("ordering") != client.Conversations.Shown {
		t.Fatalf("first load: %v, want one request with ordering %s", reqs, client.Conversations.Shown)
	}

	m, cmds := press(m, "o", "o", "o", "o", "o")
	cycle := client.Conversations.OrderingCycle()
	start := slices.Index(cycle, client.Conversations.Shown)
	want := cycle[(start+5)%len(cycle)]
	if m.Query().Ordering != want {
		t.Fatalf("five o: ordering %q, want %q", m.Query().Ordering, want)
	}
	header := strings.SplitN(m.View(), "\n", 2)[0]
	if !strings.Contains(header, client.Conversations.OrderingSays(want)) || !strings.Contains(header, "… conversations") {
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
	if !strings.Contains(m.View(), "· "+client.Conversations.OrderingSays(client.Conversations.Shown)) || len(m.Rows()) == 0 {
		t.Fatalf("header at the default ordering:\n%s", m.View())
	}
}

// TestReloadDroppedWhenTheQueryChangesAgain: a search submitted while an `o` waits to
// reload supersedes it: only the search is asked for.
func TestReloadDroppedWhenTheQueryChangesAgain(t *testing.T) {
	t.Parallel()
	c, e := listEnv(t)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	m, cmds := press(m, "o")
	var cmd tea.Cmd
	m, cmd = m.Update(listing.SearchMsg{Text: "thanks"})
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
	t.Parallel()
	c, e := listEnv(t)
	m := newList(t, c, 100, 160, 20)
	m = viewtest.Settle(m, m.SetQuery(listing.Query{Ordering: "-contact_last_message_sent_at"}), wait)
	var cmd tea.Cmd
	m = viewtest.Handle(m, listing.SearchMsg{Text: "thanks"}, wait)
	reqs := listRequests(t, e)
	last := reqs[len(reqs)-1]
	if last.Get("search_query") != "thanks" || last.Has("ordering") {
		t.Fatalf("search request %v: want search_query and no ordering", last)
	}
	if m.Total() == 0 {
		t.Fatal("search thanks found nothing")
	}
	header := strings.SplitN(m.View(), "\n", 2)[0]
	if !strings.Contains(header, `search:"thanks" (ranked)`) || strings.Contains(header, "first") {
		t.Fatalf("header with a search: %q", header)
	}
	m, cmd = m.Update(viewtest.Key("o"))
	if m.Query().Ordering != "-contact_last_message_sent_at" || m.Loading() || cmd == nil {
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
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.SetQuery(listing.Query{Search: "thanks",
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
	m = viewtest.Handle(m, viewtest.Key("esc"), wait)
	if m.Query().Search != "" || m.Query().Filter.Status != client.StatusPending {
		t.Fatalf("second esc: query %+v, want the search cleared and the filters kept", m.Query())
	}
	m = viewtest.Handle(m, viewtest.Key("esc"), wait)
	if !m.Query().Filter.IsZero() || m.CanClear() {
		t.Fatalf("third esc left filters %+v", m.Query().Filter)
	}
}

// preloaded is a list of width w on convs (count total) with a clock the test moves.
func preloaded(t *testing.T, w int, convs []client.Conversation, total int) (*listing.Model, *time.Time) {
	t.Helper()
	ctx := viewtest.Ctx(nil)
	now := viewtest.Now
	ctx.Now = func() time.Time { return now }
	ctx.Operators = map[int64]string{7: "Zora Quint"}
	m := listing.New(ctx)
	m.SetSize(w, 12)
	m.Focus()
	m.Preload(convs, total)
	return &m, &now
}

func conv(id int64, lastAt time.Time) client.Conversation {
	name := "Contact"
	op := int64(7)
	return client.Conversation{ID: id, Status: client.StatusPending, Contact: client.Contact{Name: &name},
		LastMessageSentAt: client.Time{Time: lastAt}, OperatorAssignedTo: &op,
		Topics:      []client.Topic{{ID: 1, Text: "billing"}},
		LastMessage: &client.Message{Body: "a preview long enough to be cut wherever the row needs the room"}}
}

// line is the view's line of row i (0 = the first row, below the header) at one line a row.
func line(v string, i int) string { return strings.Split(v, "\n")[1+i] }

// TestAgesStayCurrent: a row's age follows the clock between two frames although rows are
// rendered once and cached.
func TestAgesStayCurrent(t *testing.T) {
	t.Parallel()
	m, now := preloaded(t, 100, []client.Conversation{
		conv(3, viewtest.Now.Add(-30*time.Second)),
		conv(2, viewtest.Now.Add(-150*time.Second)),
		conv(1, viewtest.Now.Add(-50*time.Minute)),
	}, 3)
	v := m.View()
	for i, want := range []string{"now", "2m", "50m"} {
		if !strings.HasSuffix(strings.TrimRight(line(v, i), " "), " "+want) {
			t.Fatalf("row %d: %q, want the age %s", i, line(v, i), want)
		}
	}
	*now = now.Add(20 * time.Second) // 2m30s becomes 2m50s: still 2m
	if m.View() != v {
		t.Fatal("the view changed although no age did")
	}
	*now = now.Add(20 * time.Minute)
	v = m.View()
	for i, want := range []string{"20m", "22m", "1h"} {
		if !strings.HasSuffix(strings.TrimRight(line(v, i), " "), " "+want) {
			t.Fatalf("20 minutes later, row %d: %q, want the age %s", i, line(v, i), want)
		}
	}
}

// TestOneLineRowsShowOperatorAndTopics: from 76 columns (a pane at 80 or at 200 columns)
// a row names the assigned operator and the topics; every line keeps the pane width.
func TestOneLineRowsShowOperatorAndTopics(t *testing.T) {
	t.Parallel()
	for _, w := range []int{76, 78, 95, 96, 109, 140} {
		m, _ := preloaded(t, w, []client.Conversation{conv(2, viewtest.Now), conv(1, viewtest.Now)}, 2)
		v := m.View()
		viewtest.CheckSize(t, v, w, 12, "list")
		row := line(v, 1) // not selected
		for _, want := range []string{"Zora", "billing", "a preview"} {
			if !strings.Contains(row, want) {
				t.Errorf("%d columns: %q missing: %q", w, want, row)
			}
		}
		if ansi.StringWidth(row) != w {
			t.Errorf("%d columns: row is %d wide", w, ansi.StringWidth(row))
		}
	}
}

// TestNarrowRowsShowTopicsAndTheWholeOperator: at 78 columns several topics shrink to the
// first and a count; on two-line rows (a narrow pane) the topics never cut the operator.
func TestNarrowRowsShowTopicsAndTheWholeOperator(t *testing.T) {
	t.Parallel()
	c := conv(1, viewtest.Now)
	c.Topics = []client.Topic{{ID: 1, Text: "Product question"}, {ID: 2, Text: "Sales lead"}, {ID: 3, Text: "Billing"}}
	m, _ := preloaded(t, 78, []client.Conversation{conv(2, viewtest.Now), c}, 2)
	row := line(m.View(), 1)
	if !strings.Contains(row, " +2 ") || !strings.Contains(row, "Zora") {
		t.Errorf("78 columns: want the first topic and +2, and the operator: %q", row)
	}
	for _, w := range []int{38, 50, 60} {
		m, _ := preloaded(t, w, []client.Conversation{conv(2, viewtest.Now), c}, 2)
		v := m.View()
		viewtest.CheckSize(t, v, w, 12, "list")
		second := strings.Split(v, "\n")[4] // row 1 takes lines 3 and 4
		if !strings.HasSuffix(strings.TrimRight(second, " "), "Zora Quint") {
			t.Errorf("%d columns: the operator is cut: %q", w, second)
		}
		if !strings.Contains(second, "+") {
			t.Errorf("%d columns: no sign of the topics: %q", w, second)
		}
	}
}

func TestTopicsCell(t *testing.T) {
	t.Parallel()
	topics := []string{"Product question", "Sales lead", "Billing"}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{40, "Product question, Sales lead, Billing"},
		{37, "Product question, Sales lead, Billing"},
		{36, "Product question, Sales lead +1"},
		{19, "Product question +2"},
		{18, "Product questi… +2"},
		{7, "Pro… +2"},
		{6, "+3"},
		{2, "+3"},
		{1, ""},
	} {
		got := listing.TopicsCell(topics, tc.w)
		if got != tc.want {
			t.Errorf("width %d: %q, want %q", tc.w, got, tc.want)
		}
		if ansi.StringWidth(got) > tc.w {
			t.Errorf("width %d: %q is too wide", tc.w, got)
		}
	}
	if got := listing.TopicsCell([]string{"🇺🇦 Україна"}, 6); got != "🇺🇦 Ук…" {
		t.Errorf("a wide first topic: %q", got)
	}
	if got := listing.TopicsCell([]string{"Technical issue"}, 11); got != "Technical…" {
		t.Errorf("a cut at a space: %q", got)
	}
	if got := listing.TopicsCell(nil, 20); got != "" {
		t.Errorf("no topics: %q", got)
	}
}

// TestCountsAreSingularForOne: one conversation reads "1 conversation".
func TestCountsAreSingularForOne(t *testing.T) {
	t.Parallel()
	m, _ := preloaded(t, 100, []client.Conversation{conv(1, viewtest.Now)}, 1)
	header := line(m.View(), -1)
	if !strings.HasPrefix(header, " 1 conversation ·") {
		t.Fatalf("header %q", header)
	}
	m2, _ := preloaded(t, 100, []client.Conversation{conv(2, viewtest.Now), conv(1, viewtest.Now)}, 2)
	if header := line(m2.View(), -1); !strings.HasPrefix(header, " 2 conversations ·") {
		t.Fatalf("header %q", header)
	}
}

// TestHeaderKeepsEveryPartVisible: in the list pane's widths of the 100–159 column layout
// (52 and 38 cells at 120 columns without and with the detail, 43 and 32 at 100), the header
// shortens its parts, and when that is not enough takes a second line, instead of cutting off
// the filters, the search or the ordering.
func TestHeaderKeepsEveryPartVisible(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 52, 38)
	m = viewtest.Settle(m, m.Load(false), wait)
	var topic client.ConversationFilter
	var name string
	var row listing.Row
	for _, r := range m.Rows() {
		if len(r.Topics) > 0 && len(r.TopicIDs) > 0 && r.Name != "" && r.Status != client.StatusNew {
			topic.TopicID, name, row = r.TopicIDs[0], r.Topics[0], r
			break
		}
	}
	if name == "" {
		t.Fatal("no row with a topic")
	}
	withStatus := topic
	withStatus.Status = row.Status
	search := row.Name + " altenberg"
	for _, tc := range []struct {
		name string
		q    listing.Query
		want []string // each in one of its forms
	}{
		{"topic", listing.Query{Filter: topic, Ordering: "-last_message_sent_at"},
			[]string{name, "last msg↓|-last_message_sent_at"}},
		{"search", listing.Query{Filter: withStatus, Search: search},
			[]string{name, row.Status, fmt.Sprintf("%q|%q", search, list.ShortValue(search, 12))}},
	} {
		for _, w := range []int{52, 43, 38, 32} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, w), func(t *testing.T) {
				m.SetSize(w, 20)
				m := viewtest.Settle(m, m.SetQuery(tc.q), wait)
				v := m.View()
				viewtest.CheckSize(t, v, w, 20, "list")
				lines := strings.Split(v, "\n")
				if m.Total() == 0 {
					t.Fatalf("nothing matches %+v", tc.q)
				}
				header := lines[0]
				if !strings.Contains(lines[1], "●") && !strings.Contains(lines[1], "◐") && !strings.Contains(lines[1], "○") {
					header += "\n" + lines[1] // a second header line
				}
				want := append([]string{fmt.Sprint(m.Total())}, tc.want...)
				for _, part := range want {
					found := false
					for _, form := range strings.Split(part, "|") {
						found = found || strings.Contains(header, form)
					}
					if !found {
						t.Errorf("the header lacks %q:\n%s", part, header)
					}
				}
			})
		}
	}
}

func jump(t *testing.T, ctx *common.Ctx, m listing.Model, text string) (listing.Model, []string) {
	t.Helper()
	return viewtest.KeyAnswer(t, ctx, m, "#", text, wait)
}

// # goes to a loaded conversation at once; one that is not loaded yet is asked for by id
// (id__gt and id__lt around it, with the list's filters) and shows pinned with the cursor on
// it; one the list's filters leave out, and text that is no id, are said so.
func TestJumpToID(t *testing.T) {
	t.Parallel()
	c, log := listEnv(t)
	m, ctx := newListCtx(t, c, 10, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	target := m.Rows()[7]
	before := len(listRequests(t, log))
	m, _ = jump(t, ctx, m, fmt.Sprint(target.ID))
	for _, q := range listRequests(t, log)[before:] {
		if q.Has("id__gt") {
			t.Fatalf("# %d asked the server %v for a loaded row", target.ID, q)
		}
	}
	if r, _ := m.Selected(); r.ID != target.ID {
		t.Fatalf("# %d: cursor on %d, want the loaded row", target.ID, r.ID)
	}

	all, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100, Ordering: "id"}})
	if err != nil {
		t.Fatal(err)
	}
	far := all.Results[0] // the oldest: the last page of the list
	if _, loaded := m.Row(far.ID); loaded {
		t.Fatalf("conversation %d is loaded already", far.ID)
	}
	before = len(listRequests(t, log))
	m, _ = jump(t, ctx, m, fmt.Sprintf("#%d", far.ID))
	sent := listRequests(t, log)[before:]
	if len(sent) != 1 || sent[0].Get("id__gt") != fmt.Sprint(far.ID-1) || sent[0].Get("id__lt") != fmt.Sprint(far.ID+1) {
		t.Fatalf("# %d sent %v, want one request by id", far.ID, sent)
	}
	if r, _ := m.Selected(); r.ID != far.ID || m.Pinned() != far.ID || r.Name == "" {
		t.Fatalf("# %d: cursor on %+v, pinned %d", far.ID, r, m.Pinned())
	}
	if !strings.Contains(m.View(), fmt.Sprintf("» #%d in this list, not loaded yet", far.ID)) {
		t.Fatalf("the footer does not say what the pinned row is:\n%s", m.View())
	}

	m = viewtest.Settle(m, m.SetQuery(listing.Query{Filter: client.ConversationFilter{Status: client.StatusNew}}), wait)
	var ended client.Conversation
	for _, conv := range all.Results {
		if conv.Status == client.StatusEnded {
			ended = conv
			break
		}
	}
	m, toasts := jump(t, ctx, m, fmt.Sprint(ended.ID))
	if want := fmt.Sprintf("This list has no conversation #%d.", ended.ID); len(toasts) != 1 || toasts[0] != want {
		t.Fatalf("# of an ended conversation in the new ones: toasts %q, want %q", toasts, want)
	}
	if _, toasts = jump(t, ctx, m, "abc"); len(toasts) != 1 || !strings.Contains(toasts[0], "not a positive whole number") {
		t.Fatalf("# abc: toasts %q", toasts)
	}

	// The largest id has no id above it: the server is asked with id__gt alone (id+1 wrapped
	// round to the smallest int, and the list said no such id without asking).
	m = viewtest.Settle(m, m.SetQuery(listing.Query{}), wait)
	before = len(listRequests(t, log))
	m, toasts = jump(t, ctx, m, "9223372036854775807")
	sent = listRequests(t, log)[before:]
	if len(sent) != 1 || sent[0].Get("id__gt") != "9223372036854775806" || sent[0].Has("id__lt") {
		t.Fatalf("# largest id sent %v, want one request with id__gt alone", sent)
	}
	if want := "This list has no conversation #9223372036854775807."; len(toasts) != 1 || toasts[0] != want {
		t.Fatalf("# largest id: toasts %q, want %q", toasts, want)
	}
}

// fakeConv is a conversation the fake API serves.
type fakeConv struct {
	id     int64
	lastAt time.Time
	topic  string
}

func (c fakeConv) json() map[string]any {
	topics := []map[string]any{}
	if c.topic != "" {
		topics = append(topics, map[string]any{"id": 1, "text": c.topic})
	}
	return map[string]any{
		"id": c.id, "status": "pending", "contact": map[string]any{"id": 1000 + c.id, "name": fmt.Sprintf("Contact %d", c.id)},
		"last_message_sent_at": c.lastAt.Format(time.RFC3339), "updated_at": c.lastAt.Format(time.RFC3339),
		"topics": topics, "marked_read_operator": true,
	}
}

// fakeMergeAPI serves a conversation list: list (in the order asked for, count total) for
// a query without updated_at_from_date, and changed (count len(changed)) with it, the
// auto-refresh's "updated since" query. It records every query.
type fakeMergeAPI struct {
	total   int
	list    []fakeConv
	changed []fakeConv

	mu      sync.Mutex
	queries []url.Values
}

func (f *fakeMergeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/conversations/") {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	rows, count := f.list, f.total
	if q.Has("updated_at_from_date") {
		rows, count = f.changed, len(f.changed)
	}
	res := []map[string]any{}
	for _, c := range rows {
		res = append(res, c.json())
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"count": count, "next": nil, "previous": nil, "results": res})
}

func (f *fakeMergeAPI) last() url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queries[len(f.queries)-1]
}

// loadedFake is a list on f, loaded with query q, the cursor on the third row.
func loadedFake(t *testing.T, f *fakeMergeAPI, q listing.Query) listing.Model {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "t", MaxRetries: -1, Now: viewtest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.SetQuery(q), wait)
	if m.Total() != f.total || len(m.Rows()) != len(f.list) {
		t.Fatalf("loaded %d rows of %d, want %d of %d", len(m.Rows()), m.Total(), len(f.list), f.total)
	}
	m, _ = m.Update(viewtest.Key("j"))
	m, _ = m.Update(viewtest.Key("j"))
	return m
}

func ids(rows []listing.Row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

// tenRows are conversations 100..91, the last message of each an hour before the previous.
func tenRows() []fakeConv {
	var out []fakeConv
	for i := range 10 {
		out = append(out, fakeConv{id: int64(100 - i), lastAt: viewtest.Now.Add(-time.Duration(i+1) * time.Hour)})
	}
	return out
}

// TestMergeInsertsOnlyNewConversationsOnTop: of the rows the "updated since" query returns,
// loaded ones change in place, a new conversation (an id above every loaded one) goes on
// top in the order by id and counts, and an old conversation edited elsewhere stays
// where it belongs: not loaded, not counted. The merge query's own count (the number of
// changed conversations) never becomes the list's total.
func TestMergeInsertsOnlyNewConversationsOnTop(t *testing.T) {
	t.Parallel()
	f := &fakeMergeAPI{total: 500, list: tenRows(), changed: []fakeConv{
		{id: 50, lastAt: viewtest.Now.Add(-30 * 24 * time.Hour), topic: "edited elsewhere"},
		{id: 95, lastAt: viewtest.Now.Add(-6 * time.Hour), topic: "billing"},
		{id: 120, lastAt: viewtest.Now.Add(-time.Minute)},
		{id: 121, lastAt: viewtest.Now},
	}}
	m := loadedFake(t, f, listing.Query{Ordering: "-id"})
	selected, _ := m.Selected()
	m = viewtest.Settle(m, m.RefreshChanged(), wait)

	if q := f.last(); !q.Has("updated_at_from_date") || q.Has("ordering") {
		t.Fatalf("merge query %v: want updated_at_from_date and no ordering (the server's, id descending)", q)
	}
	want := []int64{121, 120, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91}
	if got := ids(m.Rows()); !slices.Equal(got, want) {
		t.Fatalf("rows after the merge %v, want %v", got, want)
	}
	if m.Total() != 502 {
		t.Fatalf("total %d after two new conversations, want 502", m.Total())
	}
	if !strings.Contains(m.View(), " 502 conversations ·") {
		t.Fatalf("header does not show the count:\n%s", m.View())
	}
	r := m.Rows()[7]
	if r.ID != 95 || !slices.Equal(r.Topics, []string{"billing"}) {
		t.Fatalf("loaded row 95 not updated in place: %+v", r)
	}
	if cur, _ := m.Selected(); cur.ID != selected.ID {
		t.Fatalf("cursor moved from %d to %d", selected.ID, cur.ID)
	}

	// A second merge bringing the same rows again changes nothing.
	m = viewtest.Settle(m, m.RefreshChanged(), wait)
	if got := ids(m.Rows()); !slices.Equal(got, want) || m.Total() != 502 {
		t.Fatalf("repeated merge: rows %v, total %d", got, m.Total())
	}
}

// TestMergeInOtherOrderings: ascending and the orderings by times the rows do not carry
// insert nothing and keep the count; -last_message_sent_at puts a row on top only when its
// last message is later than every loaded row's, and counts it only when it is new (an id
// above every loaded one); a search inserts nothing and sends no ordering.
func TestMergeInOtherOrderings(t *testing.T) {
	t.Parallel()
	changed := []fakeConv{
		{id: 50, lastAt: viewtest.Now.Add(-30 * 24 * time.Hour), topic: "old, edited"},
		{id: 30, lastAt: viewtest.Now.Add(-time.Minute), topic: "old, new message"},
		{id: 120, lastAt: viewtest.Now},
		{id: 95, lastAt: viewtest.Now.Add(-6 * time.Hour), topic: "billing"},
	}
	loaded := ids(conversationsOf(tenRows()))
	for _, tc := range []struct {
		q       listing.Query
		want    []int64
		total   int
		sendsOr string
	}{
		{listing.Query{Ordering: "id"}, loaded, 500, "id"},
		{listing.Query{Ordering: "-contact_last_update_at"}, loaded, 500, "-contact_last_update_at"},
		{listing.Query{Ordering: "-last_message_sent_at"}, append([]int64{120, 30}, loaded...), 501, "-last_message_sent_at"},
		{listing.Query{Ordering: "id", Search: "anna"}, loaded, 500, ""},
		{listing.Query{Search: "anna"}, loaded, 500, ""},
	} {
		f := &fakeMergeAPI{total: 500, list: tenRows(), changed: changed}
		m := loadedFake(t, f, tc.q)
		m = viewtest.Settle(m, m.RefreshChanged(), wait)
		q := f.last()
		if q.Get("ordering") != tc.sendsOr || q.Get("search_query") != tc.q.Search {
			t.Fatalf("%+v: merge query %v, want ordering %q", tc.q, q, tc.sendsOr)
		}
		if got := ids(m.Rows()); !slices.Equal(got, tc.want) {
			t.Fatalf("%+v: rows %v, want %v", tc.q, got, tc.want)
		}
		if m.Total() != tc.total {
			t.Fatalf("%+v: total %d, want %d", tc.q, m.Total(), tc.total)
		}
		if i := slices.Index(ids(m.Rows()), 95); m.Rows()[i].Topics[0] != "billing" {
			t.Fatalf("%+v: loaded row 95 not updated in place", tc.q)
		}
	}
}

func conversationsOf(cs []fakeConv) []listing.Row {
	out := make([]listing.Row, len(cs))
	for i, c := range cs {
		out[i] = listing.Row{ID: c.id}
	}
	return out
}

// TestMergeKeepsAnOldEditedConversationOutOfTheList: against the sandbox, an old
// conversation that is not loaded gets new topics; the auto-refresh finds it changed but
// neither puts it on top nor counts it, while a loaded conversation edited the same way
// changes in place.
func TestMergeKeepsAnOldEditedConversationOutOfTheList(t *testing.T) {
	t.Parallel()
	e := viewtest.NewEnv(t, sandbox.Options{}, nil)
	for _, ordering := range []string{"", "-last_message_sent_at"} {
		m := newList(t, e.Client, 10, 120, 20)
		m = viewtest.Settle(m, m.SetQuery(listing.Query{Ordering: ordering}), wait)
		total, before := m.Total(), ids(m.Rows())
		oldest, err := e.Client.ListConversations(t.Context(), client.ConversationListOptions{
			ListOptions: client.ListOptions{Limit: 1, Ordering: "id"}})
		if err != nil || len(oldest.Results) != 1 {
			t.Fatalf("oldest conversation: %v", err)
		}
		old := oldest.Results[0].ID
		if slices.Contains(before, old) {
			t.Fatalf("ordering %q: the oldest conversation %d is loaded; the test needs it not to be", ordering, old)
		}
		topic := "merge-test" + ordering
		if _, err := e.Client.SetConversationTopics(t.Context(), old, []string{topic}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Client.SetConversationTopics(t.Context(), before[3], []string{topic}); err != nil {
			t.Fatal(err)
		}
		var cmd tea.Cmd = m.RefreshChanged()
		m = viewtest.Settle(m, cmd, wait)
		if got := ids(m.Rows()); !slices.Equal(got, before) {
			t.Fatalf("ordering %q: rows %v after the merge, want %v (conversation %d edited elsewhere must not jump to the top)",
				ordering, got, before, old)
		}
		if m.Total() != total {
			t.Fatalf("ordering %q: total %d after the merge, want the server's %d", ordering, m.Total(), total)
		}
		if r := m.Rows()[3]; !slices.Contains(r.Topics, topic) {
			t.Fatalf("ordering %q: loaded row %d not updated: topics %v", ordering, r.ID, r.Topics)
		}
	}
}

// skewedList is a sandbox whose clock the test moves, a list on a client whose local clock
// (the client's and the view's) runs skew ahead of it, and a second client (another agent)
// to change data on the server.
func skewedList(t *testing.T, skew time.Duration, pageSize, height int) (*viewtest.MovingClock, listing.Model, *client.Client) {
	t.Helper()
	s := viewtest.NewSkewed(t, skew, sandbox.Options{})
	ctx := s.Ctx()
	ctx.PageSize = pageSize
	m := listing.New(ctx)
	m.SetSize(120, height)
	m.Focus()
	return s.Server, m, viewtest.Client(t, s.Sandbox)
}

// TestRefreshMissesNothingWithASkewedClock: a change made on the server between two
// auto-refreshes is merged into the list whether the local clock runs 10 minutes fast or
// slow: the "updated since" window is told by the server's clock.
func TestRefreshMissesNothingWithASkewedClock(t *testing.T) {
	t.Parallel()
	for _, skew := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		t.Run("local clock off by "+skew.String(), func(t *testing.T) {
			server, m, other := skewedList(t, skew, 100, 40)
			m = viewtest.Settle(m, m.Load(false), wait)
			if len(m.Rows()) < 5 {
				t.Fatalf("loaded %d rows", len(m.Rows()))
			}
			id := m.Rows()[4].ID
			server.Add(30 * time.Second)
			if _, err := other.SetConversationTopics(t.Context(), id, []string{"Clock skew"}); err != nil {
				t.Fatal(err)
			}
			server.Add(30 * time.Second) // the next auto-refresh
			m = viewtest.Settle(m, m.RefreshChanged(), wait)
			r, ok := m.Row(id)
			if !ok || !slices.Contains(r.Topics, "Clock skew") {
				t.Fatalf("conversation %d changed on the server between two refreshes; the list shows topics %q", id, r.Topics)
			}
			// The next window starts from the server's time of this refresh.
			server.Add(time.Minute)
			if _, err := other.SetConversationTopics(t.Context(), id, []string{"Clock skew again"}); err != nil {
				t.Fatal(err)
			}
			m = viewtest.Settle(m, m.RefreshChanged(), wait)
			if r, _ := m.Row(id); !slices.Contains(r.Topics, "Clock skew again") {
				t.Fatalf("the second change was missed; topics %q", r.Topics)
			}
		})
	}
}

// TestRefreshWindowIsNotMovedByALaterPage: a page loaded later (scrolling down) does not
// move the "updated since" window past changes to the rows loaded before it.
func TestRefreshWindowIsNotMovedByALaterPage(t *testing.T) {
	t.Parallel()
	server, m, other := skewedList(t, 0, 10, 12)
	m = viewtest.Settle(m, m.Load(false), wait)
	loaded := len(m.Rows())
	if loaded < 10 {
		t.Fatalf("first pages have %d rows, want 10 or more", loaded)
	}
	id := m.Rows()[2].ID
	server.Add(time.Minute)
	if _, err := other.SetConversationTopics(t.Context(), id, []string{"Changed early"}); err != nil {
		t.Fatal(err)
	}
	server.Add(10 * time.Minute) // auto-refresh had stopped (idle), then the user scrolls
	for i := 0; i < 10 && len(m.Rows()) <= loaded; i++ {
		m = viewtest.Handle(m, viewtest.Key("ctrl+d"), wait)
	}
	if len(m.Rows()) <= loaded {
		t.Fatal("the next page did not load")
	}
	m = viewtest.Settle(m, m.RefreshChanged(), wait)
	if r, _ := m.Row(id); !slices.Contains(r.Topics, "Changed early") {
		t.Fatalf("conversation %d changed before the second page loaded; the refresh after it missed that (topics %q)", id, r.Topics)
	}
}

// TestRowAgesFollowTheServerClock: with the local clock 10 minutes fast, a row's age is
// told from the server's clock (learnt from its Date header), not "10m" more.
func TestRowAgesFollowTheServerClock(t *testing.T) {
	t.Parallel()
	server, m, _ := skewedList(t, 10*time.Minute, 100, 40)
	m = viewtest.Settle(m, m.Load(false), wait)
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	checked := 0
	for _, r := range m.Rows()[:20] {
		want, wrong := layout.RelTime(r.LastAt, server.Now()), layout.RelTime(r.LastAt, server.Now().Add(10*time.Minute))
		var found []string
		for _, l := range lines {
			if r.Name != "" && strings.Contains(l, r.Name) {
				found = append(found, l)
			}
		}
		if want == wrong || len(found) != 1 {
			continue // the same age either way, or the name does not tell its line
		}
		if f := strings.Fields(found[0]); f[len(f)-1] != want {
			t.Errorf("row %d (last message %s before the server's now) shows %q, want %q", r.ID,
				server.Now().Sub(r.LastAt), f[len(f)-1], want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no visible row whose age differs by the skew: the seed has no recent conversation")
	}
}

// TestDefaultOrderFollowsTheTimeColumn: a query that names no ordering lists the
// conversations by their last message, newest first, which is what each row's time shows,
// so the times never go up down the list; the header says so in words.
func TestDefaultOrderFollowsTheTimeColumn(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	viewtest.CheckNewestFirst(t, m.Rows(), func(r listing.Row) int64 { return r.ID }, func(r listing.Row) time.Time { return r.LastAt })
	if header := strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0]; !strings.Contains(header, "by last message, newest first") {
		t.Fatalf("header %q does not name the order", header)
	}
}

// TestConfiguredDefaultOrder: the config file's default order (id descending here) is what
// a query that names none lists: no ordering sent (the server's own), the header's words,
// o going on from it, and browsing past the offset cap through /all/.
func TestConfiguredDefaultOrder(t *testing.T) {
	t.Parallel()
	e := viewtest.NewEnv(t, sandbox.Options{OffsetCap: 30}, nil)
	ctx := viewtest.Ctx(e.Client)
	ctx.PageSize = 10
	ctx.Orderings = map[string]string{common.ViewsConversations: "-id"}
	m := listing.New(ctx)
	m.SetSize(100, 20)
	m.Focus()
	m = viewtest.Settle(m, m.Load(false), wait)
	for _, l := range e.Log.Lines() {
		if strings.Contains(l.Query, "ordering") {
			t.Fatalf("request %+v: want the first page without an ordering", l)
		}
	}
	if header := strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0]; !strings.Contains(header, "· newest first") {
		t.Fatalf("header %q", header)
	}
	total := m.Total()
	for i := 0; i < 100 && len(m.Rows()) < total; i++ {
		m = viewtest.Handle(m, viewtest.Key("G"), wait)
	}
	rows := m.Rows()
	if len(rows) != total || total <= 30 {
		t.Fatalf("browsed %d of %d conversations past the cap of 30", len(rows), total)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].ID > rows[i-1].ID {
			t.Fatalf("%d follows %d in the order by id", rows[i].ID, rows[i-1].ID)
		}
	}
	m = viewtest.Handle(m, viewtest.Key("o"), wait)
	if m.Query().Ordering != "id" {
		t.Fatalf("o after the configured -id gave %q", m.Query().Ordering)
	}
}
