package contacts_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/viewtest"
)

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
	e := fakeContacts(t, 30*time.Second, 150*time.Second, 50*time.Minute)
	now := viewtest.Now
	e.ctx.Now = func() time.Time { return now }
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
	e := fakeContacts(t, time.Hour)
	m := newList(e, 100, 100, 10)
	var cmd tea.Cmd
	m, cmd = m.Update(contacts.SearchMsg{Text: "anna"})
	m = viewtest.Settle(m, cmd, wait)
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
	before := len(e.rec.requests("GET", "/contact_identities/"))
	var cmds []tea.Cmd
	for range 3 {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key("o"))
		cmds = append(cmds, cmd)
	}
	want := contacts.OrderingCycle[3]
	header := strings.Split(m.View(), "\n")[0]
	if m.Query().Ordering != want || !strings.Contains(header, "order:"+contacts.OrderingLabel(want)) ||
		!strings.Contains(header, "… contacts") {
		t.Fatalf("three o: ordering %q, header %q", m.Query().Ordering, header)
	}
	for _, c := range cmds {
		m = viewtest.Settle(m, c, wait)
	}
	reqs := e.rec.requests("GET", "/contact_identities/")[before:]
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

// TestListHeaderSaysWhatTheTimeIs: the time at the end of a row is the last message, or
// the creation in the created_at orderings, and the header says which.
func TestListHeaderSaysWhatTheTimeIs(t *testing.T) {
	e := fakeContacts(t, 50*time.Minute)
	m := newList(e, 100, 100, 10)
	m = viewtest.Settle(m, m.Load(false), wait)
	if v := m.View(); !strings.Contains(strings.Split(v, "\n")[0], "time: last message") || !strings.HasSuffix(rowLine(v, 0), " 50m") {
		t.Fatalf("default order:\n%s", v)
	}
	m = viewtest.Settle(m, m.SetQuery(contacts.Query{Ordering: "-created_at"}), wait)
	if v := m.View(); !strings.Contains(strings.Split(v, "\n")[0], "time: created") || !strings.HasSuffix(rowLine(v, 0), " Jan 1") {
		t.Fatalf("created order:\n%s", v)
	}
}
