package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestEmptyResultsNextNull(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if strings.HasSuffix(r.URL.Path, "/messages/") {
			writeJSON(w, 200, `{"next": null, "previous": null, "results": []}`)
			return
		}
		writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)

	p, err := c.ListConversations(bg(), ConversationListOptions{Filter: ConversationFilter{Status: StatusNew, OperatorID: 99}})
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	if p.Count != 0 || p.Next != "" || p.Previous != "" || p.Results == nil || len(p.Results) != 0 {
		t.Errorf("page = %+v", p)
	}
	cp, err := c.ContactsAllPage(bg(), AllContactsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cp.Count == nil || *cp.Count != 0 || cp.Next != "" || len(cp.Results) != 0 {
		t.Errorf("cursor page = %+v", cp)
	}

	before := rec.count()
	for name, seq := range map[string]iter.Seq2[int64, error]{
		"conversations": ids(c.ConversationsAll(bg(), AllConversationsOptions{}), func(v Conversation) int64 { return v.ID }),
		"contacts":      ids(c.ContactsAll(bg(), AllContactsOptions{}), func(v Contact) int64 { return v.ID }),
		"operators":     ids(c.Operators(bg()), func(v Operator) int64 { return v.ID }),
		"messages":      ids(c.Messages(bg(), 4711, MessageOptions{}), func(m Message) int64 { return m.PartID }),
	} {
		for id, err := range seq {
			t.Errorf("%s: yielded %d, %v from an empty list", name, id, err)
		}
	}
	if n := rec.count() - before; n != 4 {
		t.Errorf("empty walks made %d requests, want 4 (one each)", n)
	}
}

// ids maps an iterator's items to an int for comparisons.
func ids[T any](seq iter.Seq2[T, error], id func(T) int64) iter.Seq2[int64, error] {
	return func(yield func(int64, error) bool) {
		for v, err := range seq {
			if !yield(id(v), err) {
				return
			}
		}
	}
}

func TestOffsetPastTheEnd(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		prev := "http://" + r.Host + "/prefix/api/um/v3/contact_identities/?limit=10&offset=490"
		writeJSON(w, 200, `{"count": 3, "next": null, "previous": "`+prev+`", "results": []}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)
	p, err := c.ListContacts(bg(), ContactListOptions{ListOptions: ListOptions{Offset: 500, Limit: 10}})
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	if p.Count != 3 || p.Next != "" || len(p.Results) != 0 || !strings.HasSuffix(p.Previous, "offset=490") {
		t.Errorf("page = %+v", p)
	}
	assertRequest(t, rec.last(t), "GET", "/prefix/api/um/v3/contact_identities/", url.Values{"offset": {"500"}, "limit": {"10"}}, "")
}

// TestFetchPageVerbatim: a next link under the prefixed base path is requested exactly as
// given; the client does not re-encode or reorder its query.
func TestFetchPageVerbatim(t *testing.T) {
	const rawQuery = "status=new&search_query=jane%20roe&exclude_ids=1%2C2&offset=2&limit=2&ordering=-id"
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		next := "http://" + r.Host + "/prefix/api/um/v3/conversations/?" + rawQuery
		switch n {
		case 0:
			writeJSON(w, 200, `{"count": 3, "next": "`+next+`", "previous": null, "results": [{"id": 3}, {"id": 2}]}`)
		default:
			writeJSON(w, 200, `{"count": 3, "next": null, "previous": "http://x.invalid/", "results": [{"id": 1}]}`)
		}
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OrganizationID = 7; cfg.OperatorID = 3 })
	p, err := c.ListConversations(bg(), ConversationListOptions{
		ListOptions: ListOptions{Limit: 2, Ordering: "-id", Search: "jane roe", ExcludeIDs: []int64{1, 2}},
		Filter:      ConversationFilter{Status: StatusNew},
	})
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	p2, err := FetchPage[Conversation](bg(), c, p.Next)
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	if len(p2.Results) != 1 || p2.Results[0].ID != 1 || p2.Next != "" {
		t.Errorf("second page = %+v", p2)
	}
	got := rec.last(t)
	if got.Path != "/prefix/api/um/v3/conversations/" || got.RawQuery != rawQuery {
		t.Errorf("followed %s?%s, want /prefix/api/um/v3/conversations/?%s", got.Path, got.RawQuery, rawQuery)
	}
	assertHeaders(t, got, 7, 3, false)

	// The cursor variant.
	rec.setRespond(func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"next": null, "previous": null, "results": [{"id": "4711.1.1"}]}`)
	})
	link := rec.srv.URL + "/prefix/api/um/v3/conversations/4711/messages/?cursor=4711.2.10&limit=100"
	mp, err := FetchCursorPage[Message](bg(), c, link)
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	if len(mp.Results) != 1 || mp.Results[0].ID != "4711.1.1" {
		t.Errorf("messages page = %+v", mp)
	}
	if got := rec.last(t); got.Path != "/prefix/api/um/v3/conversations/4711/messages/" || got.RawQuery != "cursor=4711.2.10&limit=100" {
		t.Errorf("followed %s?%s", got.Path, got.RawQuery)
	}
	if _, err := FetchPage[Contact](bg(), c, ""); err == nil {
		t.Error("an empty link was followed")
	}
	if _, err := FetchCursorPage[Contact](bg(), c, ""); err == nil {
		t.Error("an empty cursor link was followed")
	}
}

// TestLinksOutsideTheAPIRefused: a next link elsewhere is never requested, so the token never
// leaves for another host.
func TestLinksOutsideTheAPIRefused(t *testing.T) {
	api := newRecorder(t, nil)
	evil := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"count": 1, "next": null, "previous": null, "results": [{"id": 666}]}`)
	})
	c, _ := newTestClient(t, api.base(), nil)
	apiHost := strings.TrimPrefix(api.srv.URL, "http://")
	evilHost := strings.TrimPrefix(evil.srv.URL, "http://")
	links := []string{
		evil.srv.URL + "/prefix/api/um/v3/conversations/?offset=10",   // another host (port)
		evil.srv.URL + "/api/um/v3/conversations/?offset=10",          // another host, no prefix
		"https://" + apiHost + "/prefix/api/um/v3/conversations/",     // another scheme
		api.srv.URL + "/api/um/v3/conversations/?offset=10",           // outside the base path
		api.srv.URL + "/prefixother/api/um/v3/conversations/",         // a sibling of the prefix
		api.srv.URL + "/prefix",                                       // the prefix itself, no API path
		"/prefix/api/um/v3/conversations/?offset=10",                  // relative
		"//" + evilHost + "/prefix/api/um/v3/conversations/",          // scheme-relative
		"http://" + apiHost + "@" + evilHost + "/prefix/api/um/v3/x/", // user info that looks like the host
		"ftp://" + apiHost + "/prefix/api/um/v3/conversations/",
		"http://[::1]:namedport/prefix/",
	}
	for _, link := range links {
		_, err := FetchPage[Conversation](bg(), c, link)
		mustFail(t, err)
		_, err = FetchCursorPage[Conversation](bg(), c, link)
		mustFail(t, err)
	}
	if api.count() != 0 || evil.count() != 0 {
		t.Errorf("requests: api %d, other host %d; want none", api.count(), evil.count())
	}

	// Inside a walk: the first page's next points elsewhere.
	api.setRespond(func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"count": 3, "next": "`+evil.srv.URL+`/prefix/api/um/v3/conversations/all/?cursor=2", "previous": null, "results": [{"id": 1}, {"id": 2}]}`)
	})
	var got []int64
	errs := 0
	for v, err := range c.ConversationsAll(bg(), AllConversationsOptions{}) {
		if err != nil {
			errs++
			checkNoToken(t, err)
			continue
		}
		got = append(got, v.ID)
	}
	if !slices.Equal(got, []int64{1, 2}) || errs != 1 {
		t.Errorf("walk yielded %v and %d errors, want [1 2] and 1 error", got, errs)
	}
	if evil.count() != 0 {
		t.Errorf("the other host saw %d requests", evil.count())
	}
	for _, r := range evil.requests() {
		if r.Header.Get("Authorization") != "" {
			t.Error("the other host received an Authorization header")
		}
	}
}

// TestRedirectKeepsTokenHome: when the API redirects elsewhere, the HTTP client follows, but
// the token must not travel along.
func TestRedirectKeepsTokenHome(t *testing.T) {
	evil := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 401, `{"detail": "Invalid token."}`)
	})
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		http.Redirect(w, r, evil.srv.URL+"/elsewhere/", http.StatusFound)
	})
	c, _ := newTestClient(t, api.base(), func(cfg *Config) { cfg.MaxRetries = -1 })
	_, err := c.GetConversation(bg(), 1)
	mustFail(t, err)
	for _, r := range evil.requests() {
		if v := r.Header.Values("Authorization"); len(v) != 0 {
			t.Errorf("the redirect target received Authorization %q", v)
		}
	}
	// A redirect that stays inside the API keeps the token.
	api.setRespond(func(w http.ResponseWriter, r *http.Request, n int) {
		if strings.HasSuffix(r.URL.Path, "/moved/") {
			writeJSON(w, 200, `{"id": 1}`)
			return
		}
		http.Redirect(w, r, "/prefix/api/um/v3/conversations/1/moved/", http.StatusMovedPermanently)
	})
	if _, err := c.GetConversation(bg(), 1); err != nil {
		t.Fatal(mustFail(t, err))
	}
	if got := api.last(t); got.Path != "/prefix/api/um/v3/conversations/1/moved/" || got.Header.Get("Authorization") != testToken {
		t.Errorf("redirect inside the API: %s with Authorization %q", got.Path, got.Header.Get("Authorization"))
	}
}

// cursorAPI serves items over cursor pages of size limit: each page's next link carries the
// last id as cursor plus the original query's other parameters.
func cursorAPI(items []string, limit int, withCount bool, fail map[int]int) func(w http.ResponseWriter, r *http.Request, n int) {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		if status, ok := fail[n]; ok {
			writeJSON(w, status, `{"detail": "page failed"}`)
			return
		}
		q := r.URL.Query()
		start := 0
		if cur := q.Get("cursor"); cur != "" {
			start = slices.Index(items, cur) + 1
		}
		end := min(start+limit, len(items))
		page := items[start:end]
		var parts []string
		for _, id := range page {
			if _, err := strconv.Atoi(id); err == nil {
				parts = append(parts, `{"id": `+id+`}`)
			} else {
				parts = append(parts, `{"id": "`+id+`", "msgid": "`+id+`"}`)
			}
		}
		next := "null"
		if end < len(items) {
			q.Set("cursor", page[len(page)-1])
			next = `"http://` + r.Host + r.URL.Path + "?" + q.Encode() + `"`
		}
		count := ""
		if withCount {
			count = fmt.Sprintf(`"count": %d, `, len(items))
		}
		writeJSON(w, 200, `{`+count+`"next": `+next+`, "previous": null, "results": [`+strings.Join(parts, ", ")+`]}`)
	}
}

func TestIterators(t *testing.T) {
	numbers := []string{"11", "12", "13", "14", "15", "16", "17"}
	messages := []string{"4711.2.3", "4711.2.2", "4711.2.1", "4711.1.9", "4711.1.8", "4711.1.2", "4711.1.1"}
	type walker struct {
		name  string
		items []string
		count bool
		path  string
		walk  func(c *Client) iter.Seq2[string, error]
		query url.Values // of the first request
	}
	walkers := []walker{
		{"ConversationsAll", numbers, true, "/prefix/api/um/v3/conversations/all/", func(c *Client) iter.Seq2[string, error] {
			return strs(c.ConversationsAll(bg(), AllConversationsOptions{CursorOptions: CursorOptions{Limit: 3, Ordering: "id"}, Filter: ConversationFilter{Status: StatusEnded}}),
				func(v Conversation) string { return strconv.FormatInt(v.ID, 10) })
		}, url.Values{"limit": {"3"}, "ordering": {"id"}, "status": {"ended"}}},
		{"ConversationsAllJSON", numbers, true, "/prefix/api/um/v3/conversations/all/", func(c *Client) iter.Seq2[string, error] {
			return strs(c.ConversationsAllJSON(bg(), AllConversationsOptions{CursorOptions: CursorOptions{Limit: 3, Ordering: "id"}, Filter: ConversationFilter{Status: StatusEnded}}),
				func(v json.RawMessage) string {
					var conv Conversation
					if err := json.Unmarshal(v, &conv); err != nil {
						return "undecodable: " + string(v)
					}
					return strconv.FormatInt(conv.ID, 10)
				})
		}, url.Values{"limit": {"3"}, "ordering": {"id"}, "status": {"ended"}}},
		{"ContactsAll", numbers, true, "/prefix/api/um/v3/contact_identities/all/", func(c *Client) iter.Seq2[string, error] {
			return strs(c.ContactsAll(bg(), AllContactsOptions{CursorOptions: CursorOptions{Limit: 3}, Filter: ContactFilter{Locale: "de_DE"}}),
				func(v Contact) string { return strconv.FormatInt(v.ID, 10) })
		}, url.Values{"limit": {"3"}, "locale": {"de_DE"}}},
		{"Messages", messages, false, "/prefix/api/um/v3/conversations/4711/messages/", func(c *Client) iter.Seq2[string, error] {
			return strs(c.Messages(bg(), 4711, MessageOptions{CursorOptions: CursorOptions{Limit: 3}}), func(m Message) string { return m.ID })
		}, url.Values{"limit": {"3"}}},
	}
	for _, wk := range walkers {
		t.Run(wk.name+"/to the end", func(t *testing.T) {
			rec := newRecorder(t, cursorAPI(wk.items, 3, wk.count, nil))
			c, _ := newTestClient(t, rec.base(), nil)
			var got []string
			for id, err := range wk.walk(c) {
				if err != nil {
					t.Fatal(mustFail(t, err))
				}
				got = append(got, id)
			}
			if !slices.Equal(got, wk.items) {
				t.Errorf("walked %v, want %v", got, wk.items)
			}
			reqs := rec.requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			assertRequest(t, reqs[0], "GET", wk.path, wk.query, "")
			for i, r := range reqs[1:] {
				want := url.Values{}
				for k, v := range wk.query {
					want[k] = v
				}
				want.Set("cursor", wk.items[3*(i+1)-1])
				assertRequest(t, r, "GET", wk.path, want, "")
				assertHeaders(t, r, 0, 0, false)
			}
		})
		t.Run(wk.name+"/break early", func(t *testing.T) {
			for _, stopAfter := range []int{1, 3, 4} {
				rec := newRecorder(t, cursorAPI(wk.items, 3, wk.count, nil))
				c, _ := newTestClient(t, rec.base(), nil)
				var got []string
				for id, err := range wk.walk(c) {
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, id)
					if len(got) == stopAfter {
						break
					}
				}
				wantReqs := (stopAfter + 2) / 3
				if !slices.Equal(got, wk.items[:stopAfter]) || rec.count() != wantReqs {
					t.Errorf("stop after %d: got %v with %d requests, want %d requests", stopAfter, got, rec.count(), wantReqs)
				}
			}
		})
		t.Run(wk.name+"/error mid-walk", func(t *testing.T) {
			for _, status := range []int{500, 404, 503} {
				rec := newRecorder(t, cursorAPI(wk.items, 3, wk.count, map[int]int{1: status, 2: status}))
				c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 1 })
				var got []string
				var errs []error
				for id, err := range wk.walk(c) {
					if err != nil {
						errs = append(errs, err)
						continue
					}
					got = append(got, id)
				}
				if !slices.Equal(got, wk.items[:3]) || len(errs) != 1 {
					t.Fatalf("status %d: got %v and errors %v", status, got, errs)
				}
				mustFail(t, errs[0])
				if statusOf(errs[0]) != status || Detail(errs[0]) != "page failed" {
					t.Errorf("status %d: error %v", status, errs[0])
				}
				wantReqs := 2
				if status == 503 {
					wantReqs = 3 // one retry
				}
				if rec.count() != wantReqs || len(w.all()) != wantReqs-2 {
					t.Errorf("status %d: %d requests and %d waits", status, rec.count(), len(w.all()))
				}
			}
		})
	}
}

// TestConversationsAllJSONVerbatim: the raw walker yields each conversation exactly as the
// server sent it, with fields the client does not know and the server's timestamp format.
func TestConversationsAllJSONVerbatim(t *testing.T) {
	const item = `{"id": 5, "created_at": "2024-01-02T03:04:05Z", "custom": {"a": [1, 2]}, "future_field": {"x": null}}`
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"count": 1, "next": null, "previous": null, "results": [`+item+`]}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)
	var got []string
	for raw, err := range c.ConversationsAllJSON(bg(), AllConversationsOptions{}) {
		if err != nil {
			t.Fatal(mustFail(t, err))
		}
		got = append(got, string(raw))
	}
	if len(got) != 1 || got[0] != item {
		t.Errorf("yielded %q, want %q", got, item)
	}
	for _, err := range c.ConversationsAllJSON(bg(), AllConversationsOptions{CursorOptions: CursorOptions{Ordering: "-id"}}) {
		if !errors.Is(err, ErrInvalidOrdering) {
			t.Errorf("ordering -id: %v", err)
		}
	}
	if rec.count() != 1 {
		t.Errorf("%d requests, want 1 (a bad ordering sends none)", rec.count())
	}
}

func strs[T any](seq iter.Seq2[T, error], id func(T) string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for v, err := range seq {
			if !yield(id(v), err) {
				return
			}
		}
	}
}

func TestOperatorsIteratorFollowsOffsetLinks(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		var items []string
		for id := off + 1; id <= min(off+100, 250); id++ {
			items = append(items, fmt.Sprintf(`{"id": %d}`, id))
		}
		next := "null"
		if off+100 < 250 {
			next = fmt.Sprintf(`"http://%s/prefix/api/um/v3/operators/?limit=100&offset=%d"`, r.Host, off+100)
		}
		writeJSON(w, 200, `{"count": 250, "next": `+next+`, "previous": null, "results": [`+strings.Join(items, ",")+`]}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)
	var n int64
	for op, err := range c.Operators(context.Background()) {
		if err != nil {
			t.Fatal(mustFail(t, err))
		}
		n++
		if op.ID != n {
			t.Fatalf("operator %d at position %d", op.ID, n)
		}
	}
	if n != 250 || rec.count() != 3 {
		t.Errorf("%d operators in %d requests", n, rec.count())
	}
	if q := rec.requests()[0].Query; !equalValues(q, url.Values{"limit": {"100"}}) {
		t.Errorf("first query %v", q)
	}
}

// AllOperators reads every page and returns the operators by id, whatever order the API
// lists them in (here from the highest id down); the memory answers a second reading.
func TestAllOperatorsReadsEveryPageInOrderOfID(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		var items []string
		for id := 150 - off; id > max(0, 150-off-100); id-- {
			items = append(items, fmt.Sprintf(`{"id": %d}`, id))
		}
		next := "null"
		if off+100 < 150 {
			next = fmt.Sprintf(`"http://%s/prefix/api/um/v3/operators/?limit=100&offset=%d"`, r.Host, off+100)
		}
		writeJSON(w, 200, `{"count": 150, "next": `+next+`, "previous": null, "results": [`+strings.Join(items, ",")+`]}`)
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.CacheTTL = time.Minute })
	for range 2 {
		ops, err := c.AllOperators(context.Background())
		if err != nil {
			t.Fatal(mustFail(t, err))
		}
		if len(ops) != 150 {
			t.Fatalf("%d operators", len(ops))
		}
		for i, op := range ops {
			if op.ID != int64(i+1) {
				t.Fatalf("operator %d at position %d", op.ID, i)
			}
		}
	}
	if rec.count() != 2 {
		t.Errorf("%d requests for two readings of two pages, want 2", rec.count())
	}
}

func equalValues(a, b url.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestIteratorsRefuseBadOrdering: the error comes once, before any request.
func TestIteratorsRefuseBadOrdering(t *testing.T) {
	rec := newRecorder(t, nil)
	c, _ := newTestClient(t, rec.base(), nil)
	seqs := map[string]iter.Seq2[string, error]{
		"ConversationsAll": strs(c.ConversationsAll(bg(), AllConversationsOptions{CursorOptions: CursorOptions{Ordering: "-id"}}), func(v Conversation) string { return "" }),
		"ContactsAll":      strs(c.ContactsAll(bg(), AllContactsOptions{CursorOptions: CursorOptions{Ordering: "name"}}), func(v Contact) string { return "" }),
		"Messages":         strs(c.Messages(bg(), 1, MessageOptions{CursorOptions: CursorOptions{Ordering: "sent_at"}}), func(v Message) string { return "" }),
	}
	for name, seq := range seqs {
		n := 0
		for _, err := range seq {
			n++
			if !errors.Is(err, ErrInvalidOrdering) {
				t.Errorf("%s: yielded %v", name, err)
			}
			checkNoToken(t, err)
		}
		if n != 1 {
			t.Errorf("%s: %d yields, want 1", name, n)
		}
	}
	if rec.count() != 0 {
		t.Errorf("%d requests", rec.count())
	}
}

// A server whose `next` link leads back to a page already read (a cursor that does not
// advance) must end the walk with ErrPagingLoop instead of repeating it forever.
func TestIteratorsStopAtALoopingNextLink(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		self := fmt.Sprintf(`"http://%s%s?cursor=7&limit=100"`, r.Host, r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/operators/") {
			writeJSON(w, 200, `{"count": 9, "next": "http://`+r.Host+r.URL.Path+`?limit=100&offset=100", "previous": null, "results": [{"id": 7}]}`)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/messages/") {
			writeJSON(w, 200, `{"next": `+self+`, "previous": null, "results": [{"id": "1.2.7", "part_id": 2}]}`)
			return
		}
		writeJSON(w, 200, `{"count": 9, "next": `+self+`, "previous": null, "results": [{"id": 7}]}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)
	for name, seq := range map[string]iter.Seq2[int64, error]{
		"conversations": ids(c.ConversationsAll(bg(), AllConversationsOptions{}), func(v Conversation) int64 { return v.ID }),
		"contacts":      ids(c.ContactsAll(bg(), AllContactsOptions{}), func(v Contact) int64 { return v.ID }),
		"operators":     ids(c.Operators(bg()), func(v Operator) int64 { return v.ID }),
		"messages":      ids(c.Messages(bg(), 1, MessageOptions{}), func(m Message) int64 { return m.PartID }),
	} {
		before := rec.count()
		items, steps := 0, 0
		var last error
		for _, err := range seq {
			if steps++; steps > 50 {
				t.Fatalf("%s: still walking after 50 items", name)
			}
			if err != nil {
				last = err
				break
			}
			items++
		}
		if !errors.Is(last, ErrPagingLoop) {
			t.Errorf("%s: walk ended with %v, want ErrPagingLoop", name, last)
		}
		// first page, the linked page, then the link repeats: two requests, two items.
		if n := rec.count() - before; n != 2 || items != 2 {
			t.Errorf("%s: %d items in %d requests, want 2 in 2", name, items, n)
		}
	}
}
