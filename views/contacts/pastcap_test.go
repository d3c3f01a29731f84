package contacts_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/viewtest"
)

// testCap is the offset cap of these tests: the sandbox's, lowered from 10,000.
const testCap = 20

// cappedEnv is a sandbox whose offset lists stop at testCap and report the capped count
// (the capped-count variant: count = min(count, cap), as a server does whose count stops
// where its offset lists do), with the true count only on /all/; and every contact id of the default organization,
// newest first (read through /all/).
func cappedEnv(t *testing.T) (*viewtest.Env, []int64) {
	t.Helper()
	e := viewtest.NewEnv(t, sandbox.Options{OffsetCap: testCap, DailyLimit: 1 << 30, Variants: []sandbox.Variant{sandbox.VariantCappedCount}}, nil)
	var all []int64
	for ct, err := range e.Client.ContactsAll(t.Context(), client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ct.ID)
	}
	slices.Reverse(all)
	if len(all) < 2*testCap {
		t.Fatalf("%d contacts: the test needs several pages past the cap of %d", len(all), testCap)
	}
	p, err := e.Client.ListContacts(t.Context(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 10}})
	if err != nil || p.Count != testCap {
		t.Fatalf("the offset list's count is %v (%v), want the capped %d", p, err, testCap)
	}
	return e, all
}

// cappedList is a contact list on e that knows the lowered cap, 10 rows a page.
func cappedList(e *viewtest.Env, w, h int) contacts.List {
	ctx := viewtest.Ctx(e.Client)
	ctx.PageSize = 10
	ctx.OffsetCap = testCap
	m := contacts.NewList(ctx)
	m.SetSize(w, h)
	m.Focus()
	return m
}

// contactPages are the contact list requests the sandbox logged from the nth on: offset
// pages and /all/ pages, by their query.
func contactPages(t *testing.T, e *viewtest.Env, from int) (offset, all []url.Values) {
	t.Helper()
	for _, l := range e.Log.Lines()[from:] {
		q, err := url.ParseQuery(l.Query)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(l.Path, "/contact_identities/all/"):
			all = append(all, q)
		case strings.HasSuffix(l.Path, "/contact_identities/"):
			offset = append(offset, q)
		}
	}
	return offset, all
}

func contactIDs(rows []contacts.Row) []int64 {
	out := make([]int64, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

// TestContactsPagePastTheCapWhenTheCountIsCapped: with a server that reports the capped
// count, the contact list in the default order that has loaded the cap's rows goes on
// through /contact_identities/all/ as the cursor nears its end (PgDn), to the last
// contact, each page once; the header says "20+" until /all/ tells the true total.
// Before, the list stopped at 20/20.
func TestContactsPagePastTheCapWhenTheCountIsCapped(t *testing.T) {
	e, want := cappedEnv(t)
	start := len(e.Log.Lines())
	m := cappedList(e, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	v := m.View()
	if !strings.Contains(v, fmt.Sprintf(" %d+ contacts", testCap)) || !strings.Contains(v, fmt.Sprintf(" 1/%d+", testCap)) {
		t.Errorf("the header does not say the count may be more:\n%s", v)
	}
	for i := 0; i < 100 && len(m.Rows()) < len(want); i++ {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key("ctrl+d"))
		m = viewtest.Settle(m, cmd, wait)
	}
	if got := contactIDs(m.Rows()); !slices.Equal(got, want) {
		t.Fatalf("browsed %d of %d contacts past the cap of %d:\n%v\nwant\n%v", len(got), len(want), testCap, got, want)
	}
	v = m.View()
	lines := strings.Split(v, "\n")
	if header, footer := lines[0], lines[len(lines)-1]; !strings.HasPrefix(header, fmt.Sprintf(" %d contacts ", len(want))) ||
		strings.Contains(footer, "+") || !strings.Contains(footer, "via /all/") {
		t.Fatalf("the header does not show the true total %d, or the footer where the rows come from:\n%s", len(want), v)
	}
	offset, all := contactPages(t, e, start)
	if len(offset) != testCap/10 {
		t.Fatalf("%d offset pages, want %d: %v", len(offset), testCap/10, offset)
	}
	if n := (len(want) - testCap + 9) / 10; len(all) != n {
		t.Fatalf("%d /all/ pages, want %d: %v", len(all), n, all)
	}
	if q := all[0]; q.Get("cursor") != fmt.Sprintf("-%d", want[testCap-1]) || q.Get("ordering") != "id" {
		t.Fatalf("the first /all/ request is %v, want cursor=-%d and ordering=id", q, want[testCap-1])
	}
}

// TestContactsBottomReachesTheLastContactPastTheCap: with the capped count, G goes to the
// true last contact (the oldest) with one /all/ request, shows the true total, and the rows
// in between load as the cursor walks up, each page once, to the server's whole list.
// Another ordering stops at the cap, and G says so. Before, G jumped to 20/20.
func TestContactsBottomReachesTheLastContactPastTheCap(t *testing.T) {
	e, want := cappedEnv(t)
	m := cappedList(e, 120, 20) // 18 one-line rows in view
	m = viewtest.Settle(m, m.Load(false), wait)
	start := len(e.Log.Lines())
	var cmd tea.Cmd
	m, cmd = m.Update(viewtest.Key("G"))
	m = viewtest.Settle(m, cmd, wait)
	last := want[len(want)-1]
	if r, ok := m.Selected(); !ok || r.ID != last {
		t.Fatalf("after G the cursor is on %d (%v), want the last contact %d:\n%s", r.ID, ok, last, m.View())
	}
	v := m.View()
	if n := fmt.Sprint(len(want)); !strings.Contains(v, " "+n+" contacts") || !strings.Contains(v, " "+n+"/"+n) {
		t.Fatalf("after G the list does not show the last of %s:\n%s", n, v)
	}
	offset, all := contactPages(t, e, start)
	if len(offset) != 0 || len(all) == 0 || len(all) > 1+(18+2)/10 {
		t.Fatalf("G sent %v and %v: want one /all/ request and those the screen needs", offset, all)
	}
	if q := all[0]; q.Get("cursor") != "" || q.Get("ordering") != "id" {
		t.Fatalf("the first /all/ request is %v, want the first page in id order", q)
	}

	for range 40 {
		if r, _ := m.Selected(); r.ID == want[0] {
			break
		}
		m, cmd = m.Update(viewtest.Key("ctrl+u"))
		m = viewtest.Settle(m, cmd, wait)
		viewtest.CheckSize(t, m.View(), 120, 20, "up")
	}
	if got := contactIDs(m.Rows()); !slices.Equal(got, want) {
		t.Fatalf("rows after walking up from the end:\n%v\nwant\n%v", got, want)
	}
	offset, all = contactPages(t, e, start)
	seen := map[string]bool{}
	for _, q := range append(offset, all...) {
		if k := q.Encode(); seen[k] {
			t.Fatalf("%s asked for twice", k)
		} else {
			seen[k] = true
		}
	}

	// Ordered by name, /all/ cannot go on: the list stops at the cap, and G says so.
	m = cappedList(e, 120, 20)
	m = viewtest.Settle(m, m.SetQuery(contacts.Query{Ordering: "name"}), wait)
	start = len(e.Log.Lines())
	var toast string
	for range 5 {
		m, cmd = m.Update(viewtest.Key("G"))
		msgs := viewtest.Run(cmd, wait)
		if tm, ok := find[common.ToastMsg](msgs); ok {
			toast = tm.Text
		}
		var cmds []tea.Cmd
		m, cmds = viewtest.Apply(m, msgs)
		for _, c := range cmds {
			m = viewtest.Settle(m, c, wait)
		}
	}
	if len(m.Rows()) != testCap || !strings.Contains(m.View(), fmt.Sprintf(" %d+ contacts", testCap)) ||
		!strings.Contains(m.View(), "default order (o)") {
		t.Fatalf("ordered by name: %d rows\n%s", len(m.Rows()), m.View())
	}
	if !strings.Contains(toast, fmt.Sprintf("at most %d contacts in this order", testCap)) {
		t.Fatalf("G did not say where it stops: toast %q", toast)
	}
	if _, all := contactPages(t, e, start); len(all) != 0 {
		t.Fatalf("/all/ asked for in the name order: %v", all)
	}
}
