package client

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/waitfor"
)

// changes answers a conversation list: a revalidation (updated_at_from_date) with the
// conversations changed meanwhile (none, or one after changed is called), every other
// read with two rows.
type changes struct {
	mu      sync.Mutex
	pending bool
}

func (c *changes) change() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending = true
}

func (c *changes) respond(w http.ResponseWriter, r *http.Request, _ int) {
	if !r.URL.Query().Has("updated_at_from_date") {
		writeJSON(w, http.StatusOK, twoRows)
		return
	}
	c.mu.Lock()
	changed := c.pending
	c.pending = false
	c.mu.Unlock()
	if changed {
		writeJSON(w, http.StatusOK, `{"count": 1, "next": null, "previous": null, "results": [{"id": 12, "status": "ended"}]}`)
		return
	}
	writeJSON(w, http.StatusOK, `{"count": 0, "next": null, "previous": null, "results": []}`)
}

// A search (here with a status filter too) held past the time-to-live is revalidated: one
// changed-only read of its set (the search kept; the status, which a change can leave, and
// the paging left out; updated since the server's time of the answer less the overlap),
// and when nothing changed the answer held answers again, for another time-to-live. When
// something changed it is fetched again, and the next time it ages directly, without a
// revalidation first; the time after, it is revalidated again.
func TestAnAgedSearchIsRevalidated(t *testing.T) {
	var ch changes
	rec := newRecorder(t, ch.respond)
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var infos []RequestInfo
	c, _ := newTestClient(t, rec.base(), func(c *Config) {
		c.CacheTTL = 2 * time.Minute
		c.Now = func() time.Time { return now }
		c.OnRequest = func(r RequestInfo) { infos = append(infos, r) }
	})
	opts := ConversationListOptions{ListOptions: ListOptions{Limit: 50, Search: "anna berlin", Ordering: "-id"},
		Filter: ConversationFilter{Status: "new", ContactIdentityID: 8}}
	search := func(what string, want int) {
		t.Helper()
		p, err := c.ListConversations(bg(), opts)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(p.Results) != 2 {
			t.Fatalf("%s: %d rows", what, len(p.Results))
		}
		if n := rec.count(); n != want {
			t.Fatalf("%s: %d requests in all, want %d", what, n, want)
		}
	}
	search("the first search", 1)
	reached := c.ServerReached()
	now = now.Add(time.Minute)
	search("within the time-to-live", 1)

	now = now.Add(2 * time.Minute)
	infos = nil
	search("3 minutes later", 2)
	q := rec.last(t).Query
	from, err := time.Parse(timeFormat, q.Get("updated_at_from_date"))
	if err != nil {
		t.Fatalf("the revalidation's updated_at_from_date: %v (%s)", err, rec.last(t).RawQuery)
	}
	if want := reached.Add(-RevalidateOverlap); !from.Equal(want.Truncate(time.Microsecond)) {
		t.Errorf("the revalidation asks for changes since %s, want the answer's server time less the overlap, %s", from, want)
	}
	for k, want := range map[string]string{"search_query": "anna berlin", "contact_identity_id": "8", "limit": "1",
		"status": "", "ordering": "", "offset": ""} {
		if got := q.Get(k); got != want {
			t.Errorf("the revalidation's %s is %q, want %q (%s)", k, got, want, rec.last(t).RawQuery)
		}
	}
	if len(infos) != 2 || !infos[0].Revalidation || infos[0].Cached || !infos[1].Cached {
		t.Errorf("request infos of the revalidated read: %+v", infos)
	}
	now = now.Add(time.Minute)
	search("a minute after the revalidation", 2)

	now = now.Add(2 * time.Minute)
	ch.change()
	search("after a change", 4)
	if q := rec.last(t).Query; q.Has("updated_at_from_date") || q.Get("status") != "new" {
		t.Errorf("after a revalidation that found a change the search was not fetched whole: %s", rec.last(t).RawQuery)
	}
	now = now.Add(3 * time.Minute)
	search("aged again after a change", 5)
	if rec.last(t).Query.Has("updated_at_from_date") {
		t.Error("an answer whose revalidation found a change was revalidated again")
	}
	now = now.Add(3 * time.Minute)
	search("aged once more", 6)
	if !rec.last(t).Query.Has("updated_at_from_date") {
		t.Error("the answer after a direct fetch was not revalidated")
	}
}

// The whole organization's list, and a list that asks for changes itself, are fetched
// again when they age (no revalidation), as before; a user's refresh (Fresh) fetches a
// search whole however recently it was revalidated.
func TestWhatIsNotRevalidated(t *testing.T) {
	var ch changes
	rec := newRecorder(t, ch.respond)
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	c, _ := newTestClient(t, rec.base(), func(c *Config) {
		c.CacheTTL = 2 * time.Minute
		c.Now = func() time.Time { return now }
	})
	for _, o := range []ConversationListOptions{
		{ListOptions: ListOptions{Limit: 50, Ordering: "-last_message_sent_at"}},
		{Filter: ConversationFilter{UpdatedAtFromDate: now.Add(-time.Hour), Status: "new"}},
	} {
		before := rec.count()
		for range 2 {
			if _, err := c.ListConversations(bg(), o); err != nil {
				t.Fatal(err)
			}
			now = now.Add(3 * time.Minute)
		}
		for _, r := range rec.requests()[before:] {
			if strings.Contains(r.RawQuery, "limit=1&") || r.Query.Get("limit") == "1" {
				t.Errorf("%+v was revalidated: %s", o, r.RawQuery)
			}
		}
		if n := rec.count() - before; n != 2 {
			t.Errorf("%+v read twice 3 minutes apart: %d requests, want 2", o, n)
		}
	}
	search := ConversationListOptions{ListOptions: ListOptions{Search: "anna"}}
	if _, err := c.ListConversations(bg(), search); err != nil {
		t.Fatal(err)
	}
	before := rec.count()
	if _, err := c.ListConversations(Fresh(bg()), search); err != nil {
		t.Fatal(err)
	}
	if n := rec.count() - before; n != 1 || rec.last(t).Query.Has("updated_at_from_date") {
		t.Errorf("a Fresh search sent %d requests (%s), want itself", n, rec.last(t).RawQuery)
	}
}

// A revalidation whose answer is an error is the read's error (no full read after it); a
// write that ends while a revalidation is on its way leaves the held answer out of date,
// and the search is fetched whole.
func TestRevalidationErrorsAndWrites(t *testing.T) {
	var ch changes
	var fail, hang bool
	var mu sync.Mutex
	release := make(chan struct{})
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		mu.Lock()
		f, h := fail, hang
		mu.Unlock()
		switch {
		case r.Method != http.MethodGet:
			writeJSON(w, http.StatusOK, `{"id": 5, "body": "x"}`)
		case f && r.URL.Query().Has("updated_at_from_date"):
			writeJSON(w, http.StatusBadRequest, `{"detail": "bad filter"}`)
		case h && r.URL.Query().Has("updated_at_from_date"):
			<-release
			ch.respond(w, r, n)
		default:
			ch.respond(w, r, n)
		}
	})
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var nowMu sync.Mutex
	c, _ := newTestClient(t, rec.base(), func(c *Config) {
		c.CacheTTL = 2 * time.Minute
		c.Now = func() time.Time { nowMu.Lock(); defer nowMu.Unlock(); return now }
	})
	later := func(d time.Duration) { nowMu.Lock(); defer nowMu.Unlock(); now = now.Add(d) }
	search := ConversationListOptions{ListOptions: ListOptions{Search: "anna"}}
	if _, err := c.ListConversations(bg(), search); err != nil {
		t.Fatal(err)
	}
	later(3 * time.Minute)
	mu.Lock()
	fail = true
	mu.Unlock()
	_, err := c.ListConversations(bg(), search)
	var e *Error
	if !errors.As(mustFail(t, err), &e) || e.Status != http.StatusBadRequest {
		t.Fatalf("a failed revalidation: %v", err)
	}
	if n := rec.count(); n != 2 {
		t.Errorf("%d requests after a failed revalidation, want the first read and the revalidation", n)
	}

	mu.Lock()
	fail, hang = false, true
	mu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := c.ListConversations(bg(), search)
		done <- err
	}()
	waitfor.True(t, "the revalidation on its way", func() bool { return rec.count() == 3 })
	if _, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 1, Body: "x"}); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	reqs := rec.requests()
	if len(reqs) != 5 || reqs[4].Query.Has("updated_at_from_date") || reqs[4].Method != http.MethodGet {
		t.Errorf("after a write during the revalidation: %d requests, the last %s %s; want the search fetched whole",
			len(reqs), reqs[len(reqs)-1].Method, reqs[len(reqs)-1].RawQuery)
	}
}
