package conversations_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

// testCap is the offset cap of these tests: the sandbox's, lowered from 10,000.
const testCap = 30

// cappedEnv is a sandbox whose offset lists stop at testCap and report the capped count
// (the capped-count variant: count = min(count, cap), as a server does whose count stops
// where its offset lists do), with the true count only on /all/; and every conversation id of the default
// organization, newest first (read through /all/).
func cappedEnv(t *testing.T) (*viewtest.Env, []int64) {
	t.Helper()
	e := viewtest.NewEnv(t, sandbox.Options{OffsetCap: testCap, Variants: []sandbox.Variant{sandbox.VariantCappedCount}}, nil)
	var all []int64
	for conv, err := range e.Client.ConversationsAll(t.Context(), client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, conv.ID)
	}
	slices.Reverse(all)
	if len(all) < 3*testCap {
		t.Fatalf("%d conversations: the test needs several pages past the cap of %d", len(all), testCap)
	}
	p, err := e.Client.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 10}})
	if err != nil || p.Count != testCap {
		t.Fatalf("the offset list's count is %v (%v), want the capped %d", p, err, testCap)
	}
	return e, all
}

// cappedList is a list on e that knows the lowered cap, 10 rows a page.
func cappedList(e *viewtest.Env, w, h int) conversations.Model {
	ctx := viewtest.Ctx(e.Client)
	ctx.PageSize = 10
	ctx.OffsetCap = testCap
	m := conversations.New(ctx)
	m.SetSize(w, h)
	m.Focus()
	return m
}

// listed are the list requests the sandbox logged from the nth on: offset pages and /all/
// pages, by their query.
func listed(t *testing.T, e *viewtest.Env, from int) (offset, all []url.Values) {
	t.Helper()
	for _, l := range e.Log.Lines()[from:] {
		q, err := url.ParseQuery(l.Query)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(l.Path, "/conversations/all/"):
			all = append(all, q)
		case strings.HasSuffix(l.Path, "/conversations/"):
			offset = append(offset, q)
		}
	}
	return offset, all
}

// TestPagesPastTheCapWhenTheCountIsCapped: with a server that reports the capped count, a
// list in id order that has loaded the cap's rows goes on through /conversations/all/ as
// the cursor nears its end (PgDn), to the last conversation, each page once; the header
// says "30+" until /all/ tells the true total. Before, the list stopped at 30/30.
func TestPagesPastTheCapWhenTheCountIsCapped(t *testing.T) {
	e, newestFirst := cappedEnv(t)
	oldestFirst := slices.Clone(newestFirst)
	slices.Reverse(oldestFirst)
	for _, tc := range []struct {
		ordering string
		want     []int64
	}{{"", newestFirst}, {"id", oldestFirst}} {
		start := len(e.Log.Lines())
		m := cappedList(e, 120, 20)
		m = viewtest.Settle(m, m.SetQuery(conversations.Query{Ordering: tc.ordering}), wait)
		v := m.View()
		if !strings.Contains(v, fmt.Sprintf(" %d+ conversations", testCap)) || !strings.Contains(v, fmt.Sprintf(" 1/%d+", testCap)) {
			t.Errorf("ordering %q: the header does not say the count may be more:\n%s", tc.ordering, v)
		}
		for i := 0; i < 100 && len(m.Rows()) < len(tc.want); i++ {
			var cmd tea.Cmd
			m, cmd = m.Update(viewtest.Key("ctrl+d"))
			m = viewtest.Settle(m, cmd, wait)
		}
		if got := ids(m.Rows()); !slices.Equal(got, tc.want) {
			t.Fatalf("ordering %q: browsed %d of %d conversations past the cap of %d:\n%v\nwant\n%v",
				tc.ordering, len(got), len(tc.want), testCap, got, tc.want)
		}
		v = m.View()
		lines := strings.Split(v, "\n")
		if header, footer := lines[0], lines[len(lines)-1]; !strings.HasPrefix(header, fmt.Sprintf(" %d conversations ", len(tc.want))) ||
			strings.Contains(footer, "+") {
			t.Fatalf("ordering %q: the header does not show the true total %d:\n%s", tc.ordering, len(tc.want), v)
		}
		if !strings.Contains(v, "via /all/") {
			t.Fatalf("ordering %q: the footer does not say the rows come through /all/:\n%s", tc.ordering, v)
		}
		offset, all := listed(t, e, start)
		if len(offset) != testCap/10 {
			t.Fatalf("ordering %q: %d offset pages, want %d: %v", tc.ordering, len(offset), testCap/10, offset)
		}
		if want := (len(tc.want) - testCap + 9) / 10; len(all) != want {
			t.Fatalf("ordering %q: %d /all/ pages, want %d: %v", tc.ordering, len(all), want, all)
		}
		wantCursor := fmt.Sprintf("-%d", tc.want[testCap-1])
		if tc.ordering == "id" {
			wantCursor = fmt.Sprint(tc.want[testCap-1])
		}
		if q := all[0]; q.Get("cursor") != wantCursor || q.Get("ordering") != "id" {
			t.Fatalf("ordering %q: the first /all/ request is %v, want cursor=%s and ordering=id", tc.ordering, q, wantCursor)
		}
	}
}

// TestBottomReachesTheLastConversationPastTheCap: with the capped count, G goes to the
// true last conversation (not to the 30th): for id descending with one /all/ request (its
// first page is the oldest conversations), for id ascending with the newest page and the
// /all/ page before it. The header shows the true total at once, and the rows in between
// load as the cursor walks up to the top, each page once, to the server's whole list.
// Before, G jumped to 30/30.
func TestBottomReachesTheLastConversationPastTheCap(t *testing.T) {
	e, newestFirst := cappedEnv(t)
	oldestFirst := slices.Clone(newestFirst)
	slices.Reverse(oldestFirst)
	for _, tc := range []struct {
		ordering string
		want     []int64
		requests int
	}{{"", newestFirst, 1}, {"id", oldestFirst, 2}} {
		m := cappedList(e, 120, 20) // 18 one-line rows in view
		m = viewtest.Settle(m, m.SetQuery(conversations.Query{Ordering: tc.ordering}), wait)
		start := len(e.Log.Lines())
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key("G"))
		m = viewtest.Settle(m, cmd, wait)
		last := tc.want[len(tc.want)-1]
		if r, ok := m.Selected(); !ok || r.ID != last {
			t.Fatalf("ordering %q: after G the cursor is on %d (%v), want the last conversation %d:\n%s", tc.ordering, r.ID, ok, last, m.View())
		}
		v := m.View()
		if n := fmt.Sprint(len(tc.want)); !strings.Contains(v, " "+n+" conversations") || !strings.Contains(v, " "+n+"/"+n) {
			t.Fatalf("ordering %q: after G the list does not show the last of %s:\n%s", tc.ordering, n, v)
		}
		if strings.Contains(v, "⋯") {
			t.Fatalf("ordering %q: rows on screen are not loaded:\n%s", tc.ordering, v)
		}
		// The last rows, then the pages before them that the screen shows: not the pages
		// between.
		offset, all := listed(t, e, start)
		if n := len(offset) + len(all); n < tc.requests || n > tc.requests+(18+2)/10 {
			t.Fatalf("ordering %q: G sent %v and %v, want %d requests and those the screen needs", tc.ordering, offset, all, tc.requests)
		}
		if q := all[0]; q.Get("ordering") != "id" || (tc.ordering == "") != (q.Get("cursor") == "") {
			t.Fatalf("ordering %q: the first /all/ request is %v", tc.ordering, q)
		}
		if tc.ordering == "id" {
			if q := offset[0]; q.Get("offset") != "" || q.Get("ordering") != "" {
				t.Fatalf("ordering id: the newest conversations asked for with %v", q)
			}
			if q := all[0]; q.Get("cursor") != fmt.Sprintf("-%d", newestFirst[9]) {
				t.Fatalf("ordering id: the /all/ page before the newest asked for with %v, want cursor=-%d", q, newestFirst[9])
			}
		}
		if len(m.Rows()) >= len(tc.want) {
			t.Fatalf("ordering %q: G loaded every row (%d)", tc.ordering, len(m.Rows()))
		}

		// Up through the gap to the top: every row once, in the server's order.
		for range 40 {
			if r, _ := m.Selected(); r.ID == tc.want[0] {
				break
			}
			m, cmd = m.Update(viewtest.Key("ctrl+u"))
			m = viewtest.Settle(m, cmd, wait)
			viewtest.CheckSize(t, m.View(), 120, 20, "up")
		}
		if got := ids(m.Rows()); !slices.Equal(got, tc.want) {
			t.Fatalf("ordering %q: rows after walking up from the end:\n%v\nwant\n%v", tc.ordering, got, tc.want)
		}
		if r, _ := m.Selected(); r.ID != tc.want[0] || !strings.Contains(m.View(), fmt.Sprintf(" 1/%d", len(tc.want))) {
			t.Fatalf("ordering %q: at the top the cursor is on %d\n%s", tc.ordering, r.ID, m.View())
		}
		offset, all = listed(t, e, start)
		seen := map[string]bool{}
		for _, q := range append(offset, all...) {
			k := q.Encode()
			if seen[k] {
				t.Fatalf("ordering %q: %s asked for twice", tc.ordering, k)
			}
			seen[k] = true
		}
		// The pages: the rows not loaded before G, 10 a page, and at most one more where
		// the walk from above meets the one from below.
		if pages, most := len(offset)+len(all), tc.requests+(len(tc.want)-10+9)/10+1; pages > most {
			t.Fatalf("ordering %q: %d requests for %d rows, want at most %d:\n%v\n%v", tc.ordering, pages, len(tc.want)-10, most, offset, all)
		}
	}
}

// TestOtherOrderingsStopAtTheCapAndSaySo: an ordering /all/ cannot serve stops at the
// cap; the count stays "30+" (the true total is not known), the footer says why, and G
// says plainly that it stops at the last row the API lists.
func TestOtherOrderingsStopAtTheCapAndSaySo(t *testing.T) {
	e, _ := cappedEnv(t)
	start := len(e.Log.Lines())
	m := cappedList(e, 120, 20)
	m = viewtest.Settle(m, m.SetQuery(conversations.Query{Ordering: "-last_message_sent_at"}), wait)
	var toast string
	for range 10 {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key("G"))
		msgs := viewtest.Run(cmd, wait)
		for _, msg := range msgs {
			if s := toastText(msg); s != "" {
				toast = s
			}
		}
		var cmds []tea.Cmd
		m, cmds = viewtest.Apply(m, msgs)
		m = settleAll(m, cmds)
	}
	if got := len(m.Rows()); got != testCap {
		t.Fatalf("a time ordering browsed %d rows, want the cap of %d", got, testCap)
	}
	v := m.View()
	if !strings.Contains(v, fmt.Sprintf(" %d+ conversations", testCap)) || !strings.Contains(v, "order by id") {
		t.Fatalf("the header or footer does not explain the cap:\n%s", v)
	}
	if !strings.Contains(toast, fmt.Sprintf("at most %d conversations in this order", testCap)) {
		t.Fatalf("G did not say where it stops: toast %q", toast)
	}
	if _, all := listed(t, e, start); len(all) != 0 {
		t.Fatalf("/all/ asked for in a time ordering: %v", all)
	}
}
