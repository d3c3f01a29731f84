package conversations_test

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

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

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
func loadedFake(t *testing.T, f *fakeMergeAPI, q conversations.Query) conversations.Model {
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

func ids(rows []conversations.Row) []int64 {
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
// top in the default order and counts, and an old conversation edited elsewhere stays
// where it belongs: not loaded, not counted. The merge query's own count (the number of
// changed conversations) never becomes the list's total.
func TestMergeInsertsOnlyNewConversationsOnTop(t *testing.T) {
	f := &fakeMergeAPI{total: 500, list: tenRows(), changed: []fakeConv{
		{id: 50, lastAt: viewtest.Now.Add(-30 * 24 * time.Hour), topic: "edited elsewhere"},
		{id: 95, lastAt: viewtest.Now.Add(-6 * time.Hour), topic: "billing"},
		{id: 120, lastAt: viewtest.Now.Add(-time.Minute)},
		{id: 121, lastAt: viewtest.Now},
	}}
	m := loadedFake(t, f, conversations.Query{})
	selected, _ := m.Selected()
	m = viewtest.Settle(m, m.RefreshChanged(), wait)

	if q := f.last(); !q.Has("updated_at_from_date") || q.Has("ordering") {
		t.Fatalf("merge query %v: want updated_at_from_date and no ordering (the default)", q)
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
	changed := []fakeConv{
		{id: 50, lastAt: viewtest.Now.Add(-30 * 24 * time.Hour), topic: "old, edited"},
		{id: 30, lastAt: viewtest.Now.Add(-time.Minute), topic: "old, new message"},
		{id: 120, lastAt: viewtest.Now},
		{id: 95, lastAt: viewtest.Now.Add(-6 * time.Hour), topic: "billing"},
	}
	loaded := ids(conversationsOf(tenRows()))
	for _, tc := range []struct {
		q       conversations.Query
		want    []int64
		total   int
		sendsOr string
	}{
		{conversations.Query{Ordering: "id"}, loaded, 500, "id"},
		{conversations.Query{Ordering: "-contact_last_update_at"}, loaded, 500, "-contact_last_update_at"},
		{conversations.Query{Ordering: "-last_message_sent_at"}, append([]int64{120, 30}, loaded...), 501, "-last_message_sent_at"},
		{conversations.Query{Ordering: "id", Search: "anna"}, loaded, 500, ""},
		{conversations.Query{Search: "anna"}, loaded, 500, ""},
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

func conversationsOf(cs []fakeConv) []conversations.Row {
	out := make([]conversations.Row, len(cs))
	for i, c := range cs {
		out[i] = conversations.Row{ID: c.id}
	}
	return out
}

// TestMergeKeepsAnOldEditedConversationOutOfTheList: against the sandbox, an old
// conversation that is not loaded gets new topics; the auto-refresh finds it changed but
// neither puts it on top nor counts it, while a loaded conversation edited the same way
// changes in place.
func TestMergeKeepsAnOldEditedConversationOutOfTheList(t *testing.T) {
	e := viewtest.NewEnv(t, sandbox.Options{}, nil)
	for _, ordering := range []string{"", "-last_message_sent_at"} {
		m := newList(t, e.Client, 10, 120, 20)
		m = viewtest.Settle(m, m.SetQuery(conversations.Query{Ordering: ordering}), wait)
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
