package contacts_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

func newList(e *env, pageSize, w, h int) contacts.List {
	e.ctx.PageSize = pageSize
	m := contacts.NewList(e.ctx)
	m.SetSize(w, h)
	m.Focus()
	return m
}

func TestListPrefetchesWithinAScreenOfTheEnd(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 20, 100, 12) // 10 rows visible
	m = viewtest.Settle(m, m.Load(false), wait)
	if len(m.Rows()) != 20 {
		t.Fatalf("first page: %d rows", len(m.Rows()))
	}
	before := len(e.rec.Requests("GET", "/contact_identities/"))
	var cmd tea.Cmd
	for i := 0; i < 5; i++ { // cursor 5: 15 rows left, more than a screen
		m, cmd = m.Update(viewtest.Key("j"))
		if cmd != nil {
			t.Fatalf("fetched at cursor %d, far from the end", m.Cursor())
		}
	}
	for i := 0; i < 5 && cmd == nil; i++ {
		m, cmd = m.Update(viewtest.Key("j"))
	}
	if cmd == nil {
		t.Fatal("no prefetch within a screen of the end")
	}
	m = viewtest.Settle(m, cmd, wait)
	if len(m.Rows()) != 40 || len(e.rec.Requests("GET", "/contact_identities/"))-before != 1 {
		t.Fatalf("after prefetch: %d rows, %d requests", len(m.Rows()), len(e.rec.Requests("GET", "/contact_identities/"))-before)
	}
}

func TestListStaleResultsAreDropped(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 100, 20)
	// Two queries in a row; the answer to the first arrives last and must be ignored.
	first := m.SetQuery(contacts.Query{Ordering: "name"})
	second := m.SetQuery(contacts.Query{Search: "berlin"})
	m, _ = viewtest.Apply(m, viewtest.Run(second, wait))
	m, _ = viewtest.Apply(m, viewtest.Run(first, wait))
	wantSearched(t, e, m, "berlin", "a stale page overwrote the newer query")
}

// wantSearched fails the test unless m's rows are the contacts the server finds for text,
// in its rank order (there are some); why says what a difference means.
func wantSearched(t *testing.T, e *env, m contacts.List, text, why string) {
	t.Helper()
	p, err := e.c.SearchContacts(client.Fresh(t.Context()), text, 100)
	if err != nil || len(p.Results) == 0 {
		t.Fatalf("search: %d contacts, %v", len(p.Results), err)
	}
	if len(m.Rows()) != len(p.Results) {
		t.Fatalf("%d rows, the search has %d: %s", len(m.Rows()), len(p.Results), why)
	}
	for i, r := range m.Rows() {
		if r.ID != p.Results[i].ID {
			t.Fatalf("row %d is contact %d; the server ranked %d there: %s", i, r.ID, p.Results[i].ID, why)
		}
	}
}

func TestListSearchOrderingFiltersAndEsc(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	// o walks the six other orderings after the default, each sent to the server but the
	// server's own order, which is sent as no ordering.
	cycle := client.Contacts.OrderingCycle()
	start := slices.Index(cycle, client.Contacts.Shown)
	for i := 1; i < len(cycle); i++ {
		want := cycle[(start+i)%len(cycle)]
		m = viewtest.Handle(m, viewtest.Key("o"), wait)
		if m.Query().Ordering != want {
			t.Fatalf("o gave %q, want %q", m.Query().Ordering, want)
		}
		reqs := e.rec.Requests("GET", "/contact_identities/")
		if q, _ := url.ParseQuery(reqs[len(reqs)-1].Query); q.Get("ordering") != client.Contacts.Request(want) {
			t.Fatalf("request for %q sent ordering=%q", want, q.Get("ordering"))
		}
		if !strings.Contains(m.View(), client.Contacts.OrderingSays(want)) {
			t.Fatalf("header lacks the ordering %q:\n%s", want, m.View())
		}
		if want != "-email" {
			continue
		}
		rows := m.Rows()
		for i := 1; i < len(rows); i++ {
			if rows[i].Email != "" && rows[i-1].Email != "" && strings.ToLower(rows[i].Email) > strings.ToLower(rows[i-1].Email) {
				t.Fatalf("-email: %q after %q", rows[i].Email, rows[i-1].Email)
			}
		}
	}
	var cmd tea.Cmd
	m = viewtest.Handle(m, viewtest.Key("o"), wait) // back to the default
	if m.Query().Ordering != "" {
		t.Fatalf("o after the whole cycle gave %q, want the default", m.Query().Ordering)
	}

	m = viewtest.Handle(m, contacts.FilterMsg{Filter: client.ContactFilter{Locale: "de_DE"}}, wait)
	m = viewtest.Handle(m, contacts.SearchMsg{Text: "berlin"}, wait)
	if m.Total() == 0 {
		t.Fatal("search berlin with locale de_DE found nothing")
	}
	for _, r := range m.Rows() {
		if r.Locale != "de_DE" {
			t.Fatalf("locale filter: row %d has %q", r.ID, r.Locale)
		}
	}
	v := m.View()
	if !strings.Contains(v, `search:"berlin" (ranked)`) || !strings.Contains(v, "locale:de_DE") {
		t.Fatalf("header does not show search and filter:\n%s", v)
	}
	last := e.rec.Requests("GET", "/contact_identities/")
	if q, _ := url.ParseQuery(last[len(last)-1].Query); q.Get("search_query") != "berlin" || q.Get("locale") != "de_DE" || q.Has("ordering") {
		t.Fatalf("search request: %s", last[len(last)-1].Query)
	}
	m, _ = m.Update(viewtest.Key(" "))
	if len(m.Marked()) != 1 {
		t.Fatal("space did not mark")
	}
	m, cmd = m.Update(viewtest.Key("esc")) // clears the marks first
	if cmd != nil || len(m.Marked()) != 0 || m.Query().Search != "berlin" {
		t.Fatalf("esc with marks: marks %d, query %+v", len(m.Marked()), m.Query())
	}
	m = viewtest.Handle(m, viewtest.Key("esc"), wait) // then the search
	if m.Query().Search != "" || m.Query().Filter.Locale != "de_DE" {
		t.Fatalf("first esc: %+v", m.Query())
	}
	m = viewtest.Handle(m, viewtest.Key("esc"), wait) // then the filters
	if !m.Query().Filter.IsZero() {
		t.Fatalf("second esc left %+v", m.Query().Filter)
	}
	m = viewtest.Handle(m, contacts.SearchMsg{Text: "zzzznotaword"}, wait)
	if want := `No contacts match the search "zzzznotaword". esc clears it.`; m.Total() != 0 || !strings.Contains(m.View(), want) {
		t.Fatalf("nonsense search: total %d\n%s", m.Total(), m.View())
	}
}

func TestListSearchIsRanked(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 120, 20)
	m = viewtest.Handle(m, contacts.SearchMsg{Text: "berlin"}, wait)
	wantSearched(t, e, m, "berlin", "the list is not the server's ranking")
}

func TestListViewIsExactlyItsSize(t *testing.T) {
	e := readOnly(t)
	for _, size := range [][2]int{{30, 6}, {43, 20}, {59, 10}, {60, 22}, {78, 20}, {120, 40}, {200, 50}} {
		m := newList(e, 100, size[0], size[1])
		viewtest.CheckSize(t, m.View(), size[0], size[1], "loading")
		m = viewtest.Settle(m, m.Load(false), wait)
		for _, k := range []string{"j", "j", " ", "G", "g", "o"} {
			m = viewtest.Handle(m, viewtest.Key(k), wait)
			viewtest.CheckSize(t, m.View(), size[0], size[1], fmt.Sprintf("%dx%d after %q", size[0], size[1], k))
		}
	}
}

func TestRowsAreSanitized(t *testing.T) {
	t.Parallel()
	r := contacts.RowFrom(client.Contact{ID: 1, Name: ptr("\x1b]0;pwned\x07Eve\u202e\u200c\U000E0041\u3164"), Email: ptr("e\x1b[2J@x.io" + viewtest.Invisible),
		City: ptr("Ber\u009blin\nX" + viewtest.Invisible), Country: ptr("D\x07E" + viewtest.Invisible)})
	for _, s := range []string{r.Name, r.Email, r.City, r.Country, r.Place()} {
		viewtest.CheckInertLine(t, s, "a row")
	}
	if want := "␛]0;pwned␇Eve"; r.Name != want {
		t.Fatalf("name %q, want %q", r.Name, want)
	}
}

// fakeCapped serves a contacts list of total contacts with ids total..1 whose offset list
// stops at 10,000 like the API, and /all/ by cursor in both directions. Offset next links
// carry a marker, so the test sees they are followed verbatim.
type fakeCapped struct {
	total int
	mu    sync.Mutex
	all   []string // /all/ queries
	pages int
}

func (f *fakeCapped) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 {
		limit = 10
	}
	contact := func(id int) map[string]any {
		return map[string]any{"id": id, "name": fmt.Sprintf("Contact %d", id), "email": fmt.Sprintf("c%d@example.com", id),
			"created_at": "2026-01-01T00:00:00Z", "locale": "en_US"}
	}
	base := "http://" + r.Host + r.URL.Path
	switch {
	case strings.HasSuffix(r.URL.Path, "/contact_identities/all/"):
		f.mu.Lock()
		f.all = append(f.all, r.URL.RawQuery)
		f.mu.Unlock()
		cursor := q.Get("cursor")
		cur, _ := strconv.Atoi(strings.TrimPrefix(cursor, "-"))
		lo, hi := cur+1, min(f.total, cur+limit) // after the cursor (none: from the first)
		if strings.HasPrefix(cursor, "-") {
			lo, hi = max(1, cur-limit), cur-1 // before it
		}
		var res []map[string]any
		for id := lo; id <= hi; id++ {
			res = append(res, contact(id))
		}
		var prev, next any
		if lo > 1 && len(res) > 0 {
			prev = fmt.Sprintf("%s?cursor=-%d&limit=%d&ordering=id", base, lo, limit)
		}
		if hi < f.total && len(res) > 0 {
			next = fmt.Sprintf("%s?cursor=%d&limit=%d&ordering=id", base, hi, limit)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"count": f.total, "next": next, "previous": prev, "results": res})
	case strings.HasSuffix(r.URL.Path, "/contact_identities/"):
		f.mu.Lock()
		f.pages++
		f.mu.Unlock()
		// Bottom asks for the last page the cap reaches by its offset; every other offset
		// page comes from a next link.
		if q.Get("offset") != "" && q.Get("marker") != "kept" && q.Get("offset") != "9900" {
			http.Error(w, `{"detail":"next link not followed verbatim"}`, http.StatusBadRequest)
			return
		}
		off, _ := strconv.Atoi(q.Get("offset"))
		var res []map[string]any
		for i := off; i < min(off+limit, 10000, f.total); i++ {
			res = append(res, contact(f.total-i))
		}
		var next any
		if off+limit < min(10000, f.total) {
			next = fmt.Sprintf("%s?limit=%d&offset=%d&marker=kept", base, limit, off+limit)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"count": f.total, "next": next, "previous": nil, "results": res})
	default:
		http.NotFound(w, r)
	}
}

func TestListContinuesPastTheOffsetCapThroughAll(t *testing.T) {
	t.Parallel()
	f := &fakeCapped{total: 10250}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "t", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{c: c, ctx: viewtest.Ctx(c)}
	inServerOrder(e.ctx) // the one order /all/ serves
	m := newList(e, 100, 100, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	for i := 0; i < 1000 && len(m.Rows()) < f.total; i++ {
		m = viewtest.Handle(m, viewtest.Key("ctrl+d"), wait)
	}
	if got := len(m.Rows()); got != f.total {
		t.Fatalf("browsed %d of %d contacts", got, f.total)
	}
	for i, r := range m.Rows() {
		if want := int64(f.total - i); r.ID != want {
			t.Fatalf("row %d is contact %d, want %d (newest first, no gap or repeat at the cap)", i, r.ID, want)
		}
	}
	if f.pages != 100 {
		t.Fatalf("%d offset pages, want 100", f.pages)
	}
	if len(f.all) != 3 {
		t.Fatalf("%d /all/ requests, want 3: %v", len(f.all), f.all)
	}
	if q, _ := url.ParseQuery(f.all[0]); q.Get("cursor") != "-251" || q.Get("ordering") != "id" {
		t.Fatalf("first /all/ request %q: want cursor=-251 (below the last row) and ordering=id", f.all[0])
	}
	if !strings.Contains(m.View(), "past 10,000 via /all/") {
		t.Fatalf("footer does not say where the rows come from:\n%s", m.View())
	}

	// G goes to the last contact at once: the first /all/ page (the oldest contacts),
	// placed by its count, not the 10,000th row.
	f.all = nil
	m = newList(e, 100, 100, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	var cmd tea.Cmd
	m = viewtest.Handle(m, viewtest.Key("G"), wait)
	if r, ok := m.Selected(); !ok || r.ID != 1 || !strings.Contains(m.View(), " 10,250/10,250") {
		t.Fatalf("after G the cursor is on contact %d (%v), want the last one, 1:\n%s", r.ID, ok, m.View())
	}
	if len(f.all) != 1 || f.all[0] != "limit=100&ordering=id" {
		t.Fatalf("G sent %v: want the first /all/ page", f.all)
	}

	// Orderings the cursor endpoint cannot serve stop at the cap and say so; G goes to the
	// last row the offset endpoint reaches, and says that it stops there.
	m2 := newList(e, 100, 120, 20)
	m2 = viewtest.Settle(m2, m2.SetQuery(contacts.Query{Ordering: "name"}), wait)
	m2, cmd = m2.Update(viewtest.Key("G"))
	msgs := viewtest.Run(cmd, wait)
	toast, _ := find[common.ToastMsg](msgs)
	m2, cmds := viewtest.Apply(m2, msgs)
	for _, c := range cmds {
		m2 = viewtest.Settle(m2, c, wait)
	}
	if r, ok := m2.Selected(); !ok || r.ID != int64(f.total-9999) || !strings.Contains(m2.View(), " 10,000/10,250") {
		t.Fatalf("ordering by name: after G the cursor is on %d (%v), want the 10,000th row (%d):\n%s", r.ID, ok, f.total-9999, m2.View())
	}
	if !strings.Contains(toast.Text, "at most 10,000 contacts in this order") {
		t.Fatalf("G did not say where it stops: toast %q", toast.Text)
	}
	m2 = newList(e, 100, 120, 20)
	m2 = viewtest.Settle(m2, m2.SetQuery(contacts.Query{Ordering: "name"}), wait)
	for i := 0; i < 1000 && len(m2.Rows()) < 10000; i++ {
		m2, cmd = m2.Update(viewtest.Key("ctrl+d"))
		m2 = viewtest.Settle(m2, cmd, wait)
	}
	for range 3 {
		m2, cmd = m2.Update(viewtest.Key("ctrl+d"))
		m2 = viewtest.Settle(m2, cmd, wait)
	}
	if len(m2.Rows()) != 10000 || !strings.Contains(m2.View(), "at most 10,000") {
		t.Fatalf("ordering by name: %d rows\n%s", len(m2.Rows()), m2.View())
	}
}

func TestJoinersAreDroppedEmojiKept(t *testing.T) {
	t.Parallel()
	r := contacts.RowFrom(client.Contact{ID: 1, Name: ptr("a\u200db 👩\u200d💻 x\u200d")})
	if r.Name != "ab 👩💻 x" {
		t.Fatalf("name %q", r.Name)
	}
}

// TestNewQueryStartsAtTheTopAndRefreshKeepsTheRow: a changed ordering, search, filter or
// query, and esc clearing the search, show their rows from the first (even when they hold
// the row that was selected before); r refreshes the same query and keeps the cursor on its
// row.
func TestNewQueryStartsAtTheTopAndRefreshKeepsTheRow(t *testing.T) {
	e := readOnly(t)
	atTop := func(m contacts.List, after string) {
		t.Helper()
		if len(m.Rows()) < 2 {
			t.Fatalf("after %s: %d rows", after, len(m.Rows()))
		}
		if r, _ := m.Selected(); m.Cursor() != 0 || r.ID != m.Rows()[0].ID {
			t.Fatalf("after %s the cursor is on row %d (contact %d), not on the first (%d)",
				after, m.Cursor(), r.ID, m.Rows()[0].ID)
		}
	}
	m := newList(e, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if len(m.Rows()) < 30 || len(m.Rows()) != m.Total() {
		t.Fatalf("the test needs one page of 30 to 100 rows, got %d of %d", len(m.Rows()), m.Total())
	}
	m = viewtest.Down(m, 20)
	sel, _ := m.Selected()
	m = viewtest.Handle(m, viewtest.Key("r"), wait)
	if r, _ := m.Selected(); r.ID != sel.ID {
		t.Fatalf("r moved the cursor from %d to %d", sel.ID, r.ID)
	}

	m = viewtest.Handle(m, viewtest.Key("o"), wait) // created, newest first
	atTop(m, "o")
	m = viewtest.Down(m, 20)
	m = viewtest.Handle(m, viewtest.Key("o"), wait) // created, oldest first: the rows reversed
	atTop(m, "o to created ↑")

	m = viewtest.Down(m, 20)
	m = viewtest.Settle(m, m.SetQuery(contacts.Query{Ordering: "name"}), wait)
	atTop(m, "a new query")

	m = viewtest.Down(m, 20)
	m = viewtest.Handle(m, contacts.SearchMsg{Text: "example"}, wait)
	atTop(m, "a search")

	m = viewtest.Down(m, 1)
	m = viewtest.Handle(m, viewtest.Key("esc"), wait) // clears the search: back to the name ordering
	atTop(m, "esc")

	m = viewtest.Down(m, 20)
	m = viewtest.Handle(m, contacts.FilterMsg{Filter: client.ContactFilter{Locale: "de_DE"}}, wait)
	atTop(m, "a filter")
}

// A contact created under a search reloads the first page with the cursor on the new
// contact; a move made while that page is in flight wins over it.
func TestReloadAfterACreateKeepsAMoveMadeMeanwhile(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if len(m.Rows()) < 20 {
		t.Fatalf("the test needs 20 rows, got %d", len(m.Rows()))
	}
	target := m.Rows()[10].ID // stands for the contact just created
	m = viewtest.Settle(m, m.Reload(target), wait)
	if r, _ := m.Selected(); r.ID != target {
		t.Fatalf("the reload put the cursor on %d, not on contact %d", r.ID, target)
	}

	m, _ = m.Update(viewtest.Key("g"))
	reload := m.Reload(target)
	for range 2 {
		m, _ = m.Update(viewtest.Key("j"))
	}
	moved, _ := m.Selected()
	m = viewtest.Settle(m, reload, wait)
	if r, _ := m.Selected(); r.ID != moved.ID {
		t.Fatalf("the reload put the cursor on %d, not on %d where it was moved meanwhile", r.ID, moved.ID)
	}
}

// fakeContacts serves a contacts list of these contacts (ages of their last message).
func fakeContacts(t *testing.T, ages ...time.Duration) *env {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/contact_identities/") {
			http.NotFound(w, r)
			return
		}
		// Its Date is the clock its data is stamped by (net/http would send the machine's).
		w.Header().Set("Date", viewtest.Now.Format(http.TimeFormat))
		res := []map[string]any{}
		for i, age := range ages {
			res = append(res, map[string]any{"id": 100 - i, "name": "Contact", "email": "c@example.com",
				"created_at": "2026-01-01T00:00:00Z", "last_message_sent_at": viewtest.Now.Add(-age).Format(time.RFC3339)})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"count": len(res), "next": nil, "previous": nil, "results": res})
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "t", MaxRetries: -1, Now: viewtest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	return &env{c: c, ctx: viewtest.Ctx(c)}
}

// rowLine is the view's line of row i (one line a row).
func rowLine(v string, i int) string { return strings.TrimRight(strings.Split(v, "\n")[1+i], " ") }

// TestListAgesStayCurrent: a row's age follows the clock between two frames although rows
// are rendered once and cached.
func TestListAgesStayCurrent(t *testing.T) {
	t.Parallel()
	e := fakeContacts(t, 30*time.Second, 150*time.Second, 50*time.Minute)
	now := viewtest.Now
	e.ctx.Now = func() time.Time { return now }
	inServerOrder(e.ctx) // its rows show the last message's age
	m := newList(e, 100, 100, 10)
	m = viewtest.Settle(m, m.Load(false), wait)
	check := func(when string, want ...string) {
		t.Helper()
		v := m.View()
		for i, age := range want {
			if l := rowLine(v, i); !strings.HasSuffix(l, " "+age) {
				t.Fatalf("%s, row %d: %q, want the age %s", when, i, l, age)
			}
		}
	}
	check("at first", "now", "2m", "50m")
	now = now.Add(20 * time.Minute)
	check("20 minutes later", "20m", "22m", "1h")
}

// TestListCountIsSingularForOne: one contact reads "1 contact", with a search too.
func TestListCountIsSingularForOne(t *testing.T) {
	t.Parallel()
	e := fakeContacts(t, time.Hour)
	m := newList(e, 100, 100, 10)
	m = viewtest.Handle(m, contacts.SearchMsg{Text: "anna"}, wait)
	header := strings.Split(m.View(), "\n")[0]
	if !strings.HasPrefix(header, ` 1 contact · search:"anna" (ranked)`) {
		t.Fatalf("header %q", header)
	}
	e2 := fakeContacts(t, time.Hour, time.Hour)
	m2 := newList(e2, 100, 100, 10)
	m2 = viewtest.Settle(m2, m2.Load(false), wait)
	if header := strings.Split(m2.View(), "\n")[0]; !strings.HasPrefix(header, " 2 contacts ·") {
		t.Fatalf("header %q", header)
	}
}

// TestListOrderingKeySendsOneRequest: three quick `o` show the third ordering at once and
// cost one request, for that ordering.
func TestListOrderingKeySendsOneRequest(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	before := len(e.rec.Requests("GET", "/contact_identities/"))
	var cmds []tea.Cmd
	for range 3 {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key("o"))
		cmds = append(cmds, cmd)
	}
	cycle := client.Contacts.OrderingCycle()
	start := slices.Index(cycle, client.Contacts.Shown)
	want := cycle[(start+3)%len(cycle)]
	header := strings.Split(m.View(), "\n")[0]
	if m.Query().Ordering != want || !strings.Contains(header, client.Contacts.OrderingSays(want)) ||
		!strings.Contains(header, "… contacts") {
		t.Fatalf("three o: ordering %q, header %q", m.Query().Ordering, header)
	}
	for _, c := range cmds {
		m = viewtest.Settle(m, c, wait)
	}
	reqs := e.rec.Requests("GET", "/contact_identities/")[before:]
	if len(reqs) != 1 {
		t.Fatalf("three o sent %d requests, want 1", len(reqs))
	}
	if q, _ := url.ParseQuery(reqs[0].Query); q.Get("ordering") != want {
		t.Fatalf("the request asked for %q, want %q", q.Get("ordering"), want)
	}
	if m.Loading() || len(m.Rows()) == 0 {
		t.Fatal("the list did not load the new ordering")
	}
}

// TestListHeaderSaysWhatTheTimeIs: the time at the end of a row is the creation in the
// created_at orderings (the default one among them), else the last message, and the header
// says which.
func TestListHeaderSaysWhatTheTimeIs(t *testing.T) {
	t.Parallel()
	e := fakeContacts(t, 50*time.Minute)
	m := newList(e, 100, 100, 10)
	m = viewtest.Settle(m, m.Load(false), wait)
	if v := m.View(); !strings.Contains(strings.Split(v, "\n")[0], "by creation, newest first · time: created") || !strings.HasSuffix(rowLine(v, 0), " Jan 1") {
		t.Fatalf("default order:\n%s", v)
	}
	m = viewtest.Settle(m, m.SetQuery(contacts.Query{Ordering: client.Contacts.Default}), wait)
	if v := m.View(); !strings.Contains(strings.Split(v, "\n")[0], "newest first · time: last message") || !strings.HasSuffix(rowLine(v, 0), " 50m") {
		t.Fatalf("the server's order:\n%s", v)
	}
}

// TestHeaderKeepsEveryPartVisible: in the list pane of the side-by-side layout (52 cells at
// 120 columns, 43 at 100) the header shortens its parts, and when that is not enough takes
// a second line, instead of cutting off the search, the filters or the ordering.
func TestHeaderKeepsEveryPartVisible(t *testing.T) {
	e := readOnly(t)
	yes := true
	for _, tc := range []struct {
		name string
		q    contacts.Query
		want []string // each in one of its forms
	}{
		{"search", contacts.Query{Search: "berlin schmidt", Filter: client.ContactFilter{Verified: &yes}},
			[]string{`"berlin schmidt"`, "verified", "time: last"}},
		{"order", contacts.Query{Ordering: "-created_at", Filter: client.ContactFilter{Locale: "de_DE", Verified: &yes}},
			[]string{"by creation, newest first", "locale:de_DE", "verified", "time: created"}},
	} {
		for _, w := range []int{52, 43} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, w), func(t *testing.T) {
				m := newList(e, 100, w, 20)
				m = viewtest.Settle(m, m.SetQuery(tc.q), wait)
				if m.Total() == 0 {
					t.Fatalf("nothing matches %+v", tc.q)
				}
				v := m.View()
				viewtest.CheckSize(t, v, w, 20, "list")
				lines := strings.Split(v, "\n")
				first := string([]rune(m.Rows()[0].Name)[:6]) // the first row's name begins so
				header := lines[0]
				if !strings.Contains(lines[1], first) {
					header += "\n" + lines[1] // a second header line
				}
				for _, part := range append([]string{fmt.Sprint(m.Total())}, tc.want...) {
					if !strings.Contains(header, part) {
						t.Errorf("the header lacks %q:\n%s", part, header)
					}
				}
				if !strings.Contains(v, first) {
					t.Errorf("the first row is not shown:\n%s", v)
				}
			})
		}
	}
}

// # goes to a loaded contact at once; one that is not loaded yet is asked for by the `id`
// filter (with the list's other filters) and shows pinned with the cursor on it; one the
// list's filters leave out is said so.
func TestJumpToID(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 10, 100, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	target := m.Rows()[6]
	before := len(e.rec.Requests("GET", "/contact_identities/"))
	m, _ = viewtest.KeyAnswer(t, e.ctx, m, "#", fmt.Sprint(target.ID), wait)
	if r, _ := m.Selected(); r.ID != target.ID {
		t.Fatalf("# %d: cursor on %d, want the loaded row", target.ID, r.ID)
	}
	for _, s := range e.rec.Requests("GET", "/contact_identities/")[before:] {
		if q, _ := url.ParseQuery(s.Query); q.Has("id") {
			t.Fatalf("# %d asked the server %q for a loaded row", target.ID, s.Query)
		}
	}

	far := e.contactWith(t, func(ct client.Contact) bool { _, loaded := m.Row(ct.ID); return !loaded })
	before = len(e.rec.Requests("GET", "/contact_identities/"))
	m, _ = viewtest.KeyAnswer(t, e.ctx, m, "#", fmt.Sprint(far.ID), wait)
	sent := e.rec.Requests("GET", "/contact_identities/")[before:]
	if len(sent) != 1 || !strings.Contains("&"+sent[0].Query+"&", fmt.Sprintf("&id=%d&", far.ID)) {
		t.Fatalf("# %d sent %v, want one request by id", far.ID, sent)
	}
	if r, _ := m.Selected(); r.ID != far.ID || r.Name == "" || !strings.Contains(m.View(), fmt.Sprintf("» #%d in this list", far.ID)) {
		t.Fatalf("# %d: cursor on %+v\n%s", far.ID, r, m.View())
	}

	verified := true
	m = viewtest.Settle(m, m.SetQuery(contacts.Query{Filter: client.ContactFilter{Verified: &verified}}), wait)
	unverified := e.contactWith(t, func(ct client.Contact) bool { return !ct.Verified })
	_, toasts := viewtest.KeyAnswer(t, e.ctx, m, "#", fmt.Sprint(unverified.ID), wait)
	if want := fmt.Sprintf("This list has no contact #%d.", unverified.ID); len(toasts) != 1 || toasts[0] != want {
		t.Fatalf("# of an unverified contact among the verified: toasts %q, want %q", toasts, want)
	}
}

// TestDefaultOrderFollowsTheTimeColumn: a query that names no ordering lists the contacts
// by creation, newest first, and each row's time is its creation, so the times never go up
// down the list; the header says both.
func TestDefaultOrderFollowsTheTimeColumn(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	viewtest.CheckNewestFirst(t, m.Rows(), func(r contacts.Row) int64 { return r.ID }, func(r contacts.Row) time.Time { return r.CreatedAt })
	if header := strings.SplitN(m.View(), "\n", 2)[0]; !strings.Contains(header, "by creation, newest first · time: created") {
		t.Fatalf("header %q does not name the order and the time", header)
	}
}
