package list_test

import (
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/screens/navigation"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// The tests here run one scenario of the list component against each of parley's lists
// built on it (conversations, contacts, navigation, operators), each with its own source.

// under is one of parley's lists under test, whatever its type.
type under struct {
	update func(tea.Msg) tea.Cmd
	ids    func() []int64
	sel    func() (int64, bool)
	view   func() string
	total  func() int
	remove func(ids []int64) // nil: the list removes no rows
}

func (u under) key(k string) tea.Cmd { return u.update(viewtest.Key(k)) }

// settle runs cmd and hands its messages to the list, and so on until nothing is left.
func (u under) settle(cmd tea.Cmd) {
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 {
		msgs := viewtest.Run(pending[0], wait)
		pending = pending[1:]
		for _, msg := range msgs {
			pending = append(pending, u.update(msg))
		}
	}
}

// press presses key and settles what it starts.
func (u under) press(k string) { u.settle(u.key(k)) }

func (u under) selected() int64 {
	id, _ := u.sel()
	return id
}

// subject makes a list under test of update (which hands a message to the list), its rows
// and the row under its cursor.
func subject[R any](update func(tea.Msg) tea.Cmd, rows func() []R, id func(R) int64, sel func() (R, bool), view func() string) under {
	return under{update: update,
		ids: func() []int64 { return list.Map(rows(), id) },
		sel: func() (int64, bool) {
			r, ok := sel()
			return id(r), ok
		},
		view: view,
	}
}

// paneUpdate hands messages to the list pane *m (conversations, contacts).
func paneUpdate[M viewtest.Pane[M]](m *M) func(tea.Msg) tea.Cmd {
	return func(msg tea.Msg) tea.Cmd {
		var cmd tea.Cmd
		*m, cmd = (*m).Update(msg)
		return cmd
	}
}

// searchable is a searchable list pane (conversations, contacts) under test.
type searchable[R any] interface {
	Rows() []R
	Selected() (R, bool)
	View() string
	Total() int
	RemoveRows(ids []int64) int
}

// paneList is list pane *m (conversations, contacts; l is m) under test, once show settled.
func paneList[M viewtest.Pane[M], R any](m *M, l searchable[R], id func(R) int64, show tea.Cmd) under {
	u := subject(paneUpdate(m), l.Rows, id, l.Selected, l.View)
	u.total, u.remove = l.Total, func(ids []int64) { l.RemoveRows(ids) }
	u.settle(show)
	return u
}

// screenList is the list of screen s (navigation, operators) under test, once shown.
func screenList[R any](s common.Screen, rows func() []R, sel func() (R, bool), total func() int, id func(R) int64, w, h int) under {
	s.SetSize(w, h)
	u := subject(func(msg tea.Msg) tea.Cmd { _, cmd := s.Update(msg); return cmd }, rows, id, sel, s.View)
	u.total = total
	u.settle(s.Focus())
	return u
}

// ready sizes and focuses a list pane.
func ready(l interface {
	SetSize(w, h int)
	Focus()
}, w, h int) {
	l.SetSize(w, h)
	l.Focus()
}

func conversationList(ctx *common.Ctx, q listing.Query, w, h int) under {
	m := listing.New(ctx)
	ready(&m, w, h)
	return paneList(&m, &m, func(r listing.Row) int64 { return r.ID }, m.SetQuery(q))
}

func contactList(ctx *common.Ctx, q contacts.Query, w, h int) under {
	m := contacts.NewList(ctx)
	ready(&m, w, h)
	return paneList(&m, &m, func(r contacts.Row) int64 { return r.ID }, m.SetQuery(q))
}

func navigationScreen(ctx *common.Ctx, w, h int) under {
	m := navigation.New(ctx)
	return screenList(m, m.Rows, m.Selected, m.Total, func(r navigation.Row) int64 { return r.ID }, w, h)
}

func operatorsScreen(ctx *common.Ctx, w, h int) under {
	m := operators.New(ctx)
	return screenList(m, m.Rows, m.Selected, func() int { return len(m.Rows()) }, func(r operators.Row) int64 { return r.ID }, w, h)
}

// Keys pressed while r is in flight move the cursor, and the answer keeps it on the row it
// was moved to, by id: in the conversations list an ended conversation above it went
// meanwhile, so that row's place in the new rows is one higher than it was.
func TestRefreshKeepsTheRowMovedToWhileInFlight(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		open   func(*common.Ctx) under
		before int                                       // rows moved down before r
		above  func(*testing.T, *client.Client, []int64) // deletes a row above the cursor
	}{
		{name: "conversations", before: 5, open: func(ctx *common.Ctx) under {
			return conversationList(ctx, listing.Query{Filter: client.ConversationFilter{Status: client.StatusEnded}}, 120, 20)
		}, above: func(t *testing.T, c *client.Client, rows []int64) {
			if err := c.DeleteConversation(t.Context(), rows[2]); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "contacts", before: 5, open: func(ctx *common.Ctx) under { return contactList(ctx, contacts.Query{}, 120, 20) }},
		{name: "navigation", before: 5, open: func(ctx *common.Ctx) under { return navigationScreen(ctx, 80, 24) }},
		{name: "operators", open: func(ctx *common.Ctx) under { return operatorsScreen(ctx, 80, 24) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := env(t)
			u := tc.open(viewtest.Ctx(c))
			if n := len(u.ids()); n < tc.before+4 {
				t.Fatalf("the test needs %d rows, got %d", tc.before+4, n)
			}
			for range tc.before {
				u.key("j")
			}
			refresh := u.key("r")
			for range 3 {
				u.key("j")
			}
			moved, at := u.selected(), tc.before+3
			if moved != u.ids()[at] {
				t.Fatalf("j moved the cursor to %d, not to row %d (%d)", moved, at, u.ids()[at])
			}
			if tc.above != nil {
				tc.above(t, c, u.ids())
				at--
			}
			u.settle(refresh)
			if u.selected() != moved || u.ids()[at] != moved {
				t.Fatalf("after the refresh the cursor is on %d, row %d is %d; want %d, where it was moved while the refresh ran",
					u.selected(), at, u.ids()[at], moved)
			}
		})
	}
}

// capped is, for each list that goes on past the offset cap, a sandbox whose offset lists
// stop at a lowered cap and report the capped count (the capped-count variant: count =
// min(count, cap), as a server does whose count stops where its offset lists do), with
// the true count only on /all/.
type capped struct {
	name, noun, path string
	cap              int
	// orderings go on through /all/; other does not.
	orderings []string
	other     string
	open      func(ctx *common.Ctx, ordering string) under
	// all lists every id of the default organization, oldest first, through /all/.
	all  func(*testing.T, *client.Client) []int64
	opts sandbox.Options
}

var cappedLists = []capped{
	{name: "conversations", noun: "conversations", path: "/conversations/", cap: 30,
		orderings: []string{"-id", "id"}, other: "", // the default, by last message
		open: func(ctx *common.Ctx, o string) under {
			return conversationList(ctx, listing.Query{Ordering: o}, 120, 20)
		},
		all: func(t *testing.T, c *client.Client) []int64 {
			return allIDs(t, c.ConversationsAll(t.Context(), client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 100}}),
				func(x client.Conversation) int64 { return x.ID })
		}},
	{name: "contacts", noun: "contacts", path: "/contact_identities/", cap: 20,
		orderings: []string{"-id"}, other: "name",
		open: func(ctx *common.Ctx, o string) under { return contactList(ctx, contacts.Query{Ordering: o}, 120, 20) },
		all: func(t *testing.T, c *client.Client) []int64 {
			return allIDs(t, c.ContactsAll(t.Context(), client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}),
				func(x client.Contact) int64 { return x.ID })
		},
		opts: sandbox.Options{DailyLimit: 1 << 30}},
}

func allIDs[T any](t *testing.T, items iter.Seq2[T, error], id func(T) int64) []int64 {
	t.Helper()
	var out []int64
	for it, err := range items {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, id(it))
	}
	return out
}

// start starts the sandbox and returns it with every id of the list's rows oldest first
// and newest first, and a list opener that knows the lowered cap (10 rows a page).
func (cl capped) start(t *testing.T) (e *viewtest.Env, oldestFirst, newestFirst []int64, open func(string) under) {
	t.Helper()
	opts := cl.opts
	opts.OffsetCap, opts.Variants = cl.cap, []sandbox.Variant{sandbox.VariantCappedCount}
	e = viewtest.NewEnv(t, opts, nil)
	oldestFirst = cl.all(t, e.Client)
	newestFirst = slices.Clone(oldestFirst)
	slices.Reverse(newestFirst)
	if len(oldestFirst) < 2*cl.cap {
		t.Fatalf("%d %s: the test needs several pages past the cap of %d", len(oldestFirst), cl.noun, cl.cap)
	}
	return e, oldestFirst, newestFirst, func(ordering string) under {
		ctx := viewtest.Ctx(e.Client)
		ctx.PageSize, ctx.OffsetCap = 10, cl.cap
		return cl.open(ctx, ordering)
	}
}

// listed are the list requests the sandbox logged from the nth on: offset pages and /all/
// pages, by their query.
func (cl capped) listed(t *testing.T, e *viewtest.Env, from int) (offset, all []url.Values) {
	t.Helper()
	for _, l := range e.Log.Lines()[from:] {
		q, err := url.ParseQuery(l.Query)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(l.Path, cl.path+"all/"):
			all = append(all, q)
		case strings.HasSuffix(l.Path, cl.path):
			offset = append(offset, q)
		}
	}
	return offset, all
}

// With a server that reports the capped count, a list in id order that has loaded the cap's
// rows goes on through /all/ as the cursor nears its end (PgDn), to the last row, each page
// once; the header says "30+" until /all/ tells the true total. Before, the list stopped at
// 30/30.
func TestPagesPastTheCapWhenTheCountIsCapped(t *testing.T) {
	t.Parallel()
	for _, cl := range cappedLists {
		t.Run(cl.name, func(t *testing.T) {
			e, oldestFirst, newestFirst, open := cl.start(t)
			for _, ordering := range cl.orderings {
				want := newestFirst
				if ordering == "id" {
					want = oldestFirst
				}
				start := len(e.Log.Lines())
				u := open(ordering)
				v := u.view()
				if !strings.Contains(v, fmt.Sprintf(" %d+ %s", cl.cap, cl.noun)) || !strings.Contains(v, fmt.Sprintf(" 1/%d+", cl.cap)) {
					t.Errorf("ordering %q: the header does not say the count may be more:\n%s", ordering, v)
				}
				for i := 0; i < 100 && len(u.ids()) < len(want); i++ {
					u.press("ctrl+d")
				}
				if got := u.ids(); !slices.Equal(got, want) {
					t.Fatalf("ordering %q: browsed %d of %d rows past the cap of %d:\n%v\nwant\n%v", ordering, len(got), len(want), cl.cap, got, want)
				}
				lines := strings.Split(u.view(), "\n")
				if header, footer := lines[0], lines[len(lines)-1]; !strings.HasPrefix(header, fmt.Sprintf(" %d %s ", len(want), cl.noun)) ||
					strings.Contains(footer, "+") || !strings.Contains(footer, "via /all/") {
					t.Fatalf("ordering %q: the header does not show the true total %d, or the footer where the rows come from:\n%s", ordering, len(want), u.view())
				}
				offset, all := cl.listed(t, e, start)
				if len(offset) != cl.cap/10 {
					t.Fatalf("ordering %q: %d offset pages, want %d: %v", ordering, len(offset), cl.cap/10, offset)
				}
				if n := (len(want) - cl.cap + 9) / 10; len(all) != n {
					t.Fatalf("ordering %q: %d /all/ pages, want %d: %v", ordering, len(all), n, all)
				}
				cursor := fmt.Sprintf("-%d", want[cl.cap-1])
				if ordering == "id" {
					cursor = fmt.Sprint(want[cl.cap-1])
				}
				if q := all[0]; q.Get("cursor") != cursor || q.Get("ordering") != "id" {
					t.Fatalf("ordering %q: the first /all/ request is %v, want cursor=%s and ordering=id", ordering, q, cursor)
				}
			}
		})
	}
}

// With the capped count, G goes to the true last row (not to the 30th): for id descending
// with one /all/ request (its first page is the oldest rows), for id ascending with the
// newest page and the /all/ page before it. The header shows the true total at once, and
// the rows in between load as the cursor walks up to the top, each page once, to the
// server's whole list. Before, G jumped to 30/30.
func TestBottomReachesTheLastRowPastTheCap(t *testing.T) {
	t.Parallel()
	for _, cl := range cappedLists {
		t.Run(cl.name, func(t *testing.T) {
			e, oldestFirst, newestFirst, open := cl.start(t)
			for _, ordering := range cl.orderings {
				want, requests := newestFirst, 1
				if ordering == "id" {
					want, requests = oldestFirst, 2
				}
				u := open(ordering) // 18 one-line rows in view
				start := len(e.Log.Lines())
				u.press("G")
				if last := want[len(want)-1]; u.selected() != last {
					t.Fatalf("ordering %q: after G the cursor is on %d, want the last row %d:\n%s", ordering, u.selected(), last, u.view())
				}
				v := u.view()
				if n := fmt.Sprint(len(want)); !strings.Contains(v, " "+n+" "+cl.noun) || !strings.Contains(v, " "+n+"/"+n) {
					t.Fatalf("ordering %q: after G the list does not show the last of %s:\n%s", ordering, n, v)
				}
				if strings.Contains(v, "⋯") {
					t.Fatalf("ordering %q: rows on screen are not loaded:\n%s", ordering, v)
				}
				// The last rows, then the pages before them that the screen shows: not the
				// pages between.
				offset, all := cl.listed(t, e, start)
				if n := len(offset) + len(all); n < requests || n > requests+(18+2)/10 {
					t.Fatalf("ordering %q: G sent %v and %v, want %d requests and those the screen needs", ordering, offset, all, requests)
				}
				if q := all[0]; q.Get("ordering") != "id" || (ordering == "-id") != (q.Get("cursor") == "") {
					t.Fatalf("ordering %q: the first /all/ request is %v", ordering, q)
				}
				if ordering == "id" {
					if q := offset[0]; q.Get("offset") != "" || q.Get("ordering") != "" {
						t.Fatalf("ordering id: the newest rows asked for with %v", q)
					}
					if q := all[0]; q.Get("cursor") != fmt.Sprintf("-%d", newestFirst[9]) {
						t.Fatalf("ordering id: the /all/ page before the newest asked for with %v, want cursor=-%d", q, newestFirst[9])
					}
				}
				// With more rows than the first pages, the last ones and those in view, some
				// are not loaded.
				if len(want) > 60 && len(u.ids()) >= len(want) {
					t.Fatalf("ordering %q: G loaded every row (%d)", ordering, len(u.ids()))
				}

				// Up through the gap to the top: every row once, in the server's order.
				for range 40 {
					if u.selected() == want[0] {
						break
					}
					u.press("ctrl+u")
					viewtest.CheckSize(t, u.view(), 120, 20, "up")
				}
				if got := u.ids(); !slices.Equal(got, want) {
					t.Fatalf("ordering %q: rows after walking up from the end:\n%v\nwant\n%v", ordering, got, want)
				}
				if u.selected() != want[0] || !strings.Contains(u.view(), fmt.Sprintf(" 1/%d", len(want))) {
					t.Fatalf("ordering %q: at the top the cursor is on %d\n%s", ordering, u.selected(), u.view())
				}
				offset, all = cl.listed(t, e, start)
				seen := map[string]bool{}
				for _, q := range append(offset, all...) {
					if k := q.Encode(); seen[k] {
						t.Fatalf("ordering %q: %s asked for twice", ordering, k)
					} else {
						seen[k] = true
					}
				}
				// The pages: the rows not loaded before G, 10 a page, and at most one more
				// where the walk from above meets the one from below.
				if pages, most := len(offset)+len(all), requests+(len(want)-10+9)/10+1; pages > most {
					t.Fatalf("ordering %q: %d requests for %d rows, want at most %d:\n%v\n%v", ordering, pages, len(want)-10, most, offset, all)
				}
			}
		})
	}
}

// An ordering /all/ cannot serve stops at the cap; the count stays "30+" (the true total
// is not known), the footer says why, and G says plainly that it stops at the last row the
// API lists (naming the bottom keys as bound).
func TestOtherOrderingsStopAtTheCapAndSaySo(t *testing.T) {
	t.Parallel()
	for _, cl := range cappedLists {
		t.Run(cl.name, func(t *testing.T) {
			e, _, _, open := cl.start(t)
			start := len(e.Log.Lines())
			u := open(cl.other)
			var toasts []string
			for range 10 {
				msgs := viewtest.Run(u.key("G"), wait)
				toasts = append(toasts, viewtest.Toasts(msgs)...)
				for _, msg := range msgs {
					u.settle(u.update(msg))
				}
			}
			if got := len(u.ids()); got != cl.cap {
				t.Fatalf("ordering %s browsed %d rows, want the cap of %d", cl.other, got, cl.cap)
			}
			if v := u.view(); !strings.Contains(v, fmt.Sprintf(" %d+ %s", cl.cap, cl.noun)) || !strings.Contains(v, "(o) to browse all") {
				t.Fatalf("the header or footer does not explain the cap:\n%s", v)
			}
			if len(toasts) == 0 || !strings.Contains(toasts[0], fmt.Sprintf("at most %d %s in this order: G/end goes to the last of those", cl.cap, cl.noun)) {
				t.Fatalf("G did not say where it stops, naming the bottom keys as bound: toasts %q", toasts)
			}
			if _, all := cl.listed(t, e, start); len(all) != 0 {
				t.Fatalf("/all/ asked for in ordering %s: %v", cl.other, all)
			}
		})
	}
}

// paged is, for each list that loads page by page from an offset endpoint, how to open it
// and where its requests go.
type paged struct {
	name, path string
	family     client.Family
	open       func(ctx *common.Ctx, w, h int) under
	// last is the id of the query's row at offset (the default order).
	at func(t *testing.T, c *client.Client, offset int) int64
}

var pagedLists = []paged{
	{name: "conversations", path: "/conversations/", family: client.FamilyConversations,
		open: func(ctx *common.Ctx, w, h int) under { return conversationList(ctx, listing.Query{}, w, h) },
		at: func(t *testing.T, c *client.Client, offset int) int64 {
			p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Offset: offset}})
			return firstID(t, p, err, func(x client.Conversation) int64 { return x.ID })
		}},
	{name: "contacts", path: "/contact_identities/", family: client.FamilyContacts,
		open: func(ctx *common.Ctx, w, h int) under { return contactList(ctx, contacts.Query{}, w, h) },
		at: func(t *testing.T, c *client.Client, offset int) int64 {
			p, err := c.ListContacts(t.Context(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 1, Offset: offset}})
			return firstID(t, p, err, func(x client.Contact) int64 { return x.ID })
		}},
	{name: "navigation", path: "/navigation/", family: client.FamilyNavigation,
		open: func(ctx *common.Ctx, w, h int) under { return navigationScreen(ctx, w, h) },
		at: func(t *testing.T, c *client.Client, offset int) int64 {
			p, err := c.ListNavigation(t.Context(), client.NavigationListOptions{ListOptions: client.ListOptions{Limit: 1, Offset: offset, Ordering: "-id"}})
			return firstID(t, p, err, func(x client.NavigationEvent) int64 { return x.ID })
		}},
}

func firstID[T any](t *testing.T, p *client.Page[T], err error, id func(T) int64) int64 {
	t.Helper()
	if err != nil || len(p.Results) != 1 {
		t.Fatalf("one row: %v", err)
	}
	return id(p.Results[0])
}

// sent are the queries of the requests for pl's pages the sandbox logged from the nth on.
func (pl paged) sent(t *testing.T, e *viewtest.Env, from int) []url.Values {
	t.Helper()
	var out []url.Values
	for _, l := range e.Log.Lines()[from:] {
		if strings.HasSuffix(l.Path, pl.path) {
			q, err := url.ParseQuery(l.Query)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, q)
		}
	}
	return out
}

// pagedEnv is a sandbox of the test's own with a client whose pages after the first fail
// while fail is set (no retries).
func pagedEnv(t *testing.T, pageSize int) (*viewtest.Env, *common.Ctx, *viewtest.FailingPages) {
	t.Helper()
	e := viewtest.NewEnv(t, sandbox.Options{DailyLimit: 1 << 30}, nil)
	fail := &viewtest.FailingPages{Next: viewtest.Transport(t)}
	c := viewtest.ClientVia(t, e.Sandbox, fail, client.Config{MaxRetries: -1})
	e.Client = c
	ctx := viewtest.Ctx(c)
	ctx.PageSize = pageSize
	// The lists in the server's own order (id descending), which the tests read the rows
	// and pages against.
	ctx.Orderings = map[string]string{common.ViewsConversations: client.Conversations.Default, common.ViewsContacts: client.Contacts.Default}
	return e, ctx, fail
}

// Paging walks every row once, newest first, one request a page: the first page, then
// each next link as the cursor comes within a screen of the end, never before.
func TestPagingWalksEveryRowOnce(t *testing.T) {
	t.Parallel()
	for _, pl := range pagedLists {
		t.Run(pl.name, func(t *testing.T) {
			e, ctx, _ := pagedEnv(t, 10)
			start := len(e.Log.Lines())
			u := pl.open(ctx, 120, 20)
			total := u.total()
			if total <= 30 || len(u.ids()) >= total {
				t.Fatalf("first load: %d rows of %d; want a few pages of a longer list", len(u.ids()), total)
			}
			for i := 0; i < 200 && len(u.ids()) < total; i++ {
				u.press("ctrl+d")
			}
			ids := u.ids()
			if len(ids) != total {
				t.Fatalf("walked %d rows, count is %d", len(ids), total)
			}
			for i := 1; i < len(ids); i++ {
				if ids[i] >= ids[i-1] {
					t.Fatalf("not newest first, or listed twice: %d after %d", ids[i], ids[i-1])
				}
			}
			sent := pl.sent(t, e, start)
			if pages := (total + 9) / 10; len(sent) != pages || e.Client.Usage(pl.family) != pages {
				t.Fatalf("walking %d pages took %d requests (%d counted)", pages, len(sent), e.Client.Usage(pl.family))
			}
			for _, q := range sent[1:] {
				if q.Get("offset") == "" || q.Get("limit") != "10" {
					t.Fatalf("a later page was not the server's next link: %v", q)
				}
			}
		})
	}
}

// G goes to the last row of the whole list by asking for the last page by its offset (and
// the page before it when the screen shows part of it), not for every page in between; the
// rows in between then load a page at a time from both ends as the cursor reaches them,
// each page once, and end up exactly the server's list.
func TestBottomLoadsTheLastPageDirectly(t *testing.T) {
	t.Parallel()
	for _, pl := range pagedLists {
		t.Run(pl.name, func(t *testing.T) {
			e, ctx, _ := pagedEnv(t, 10)
			u := pl.open(ctx, 120, 20)
			total := u.total()
			start := len(e.Log.Lines())
			u.press("G")
			sent := pl.sent(t, e, start)
			last := (total - 1) / 10 * 10
			if len(sent) == 0 || len(sent) > 3 || sent[0].Get("offset") != fmt.Sprint(last) {
				t.Fatalf("G sent %v; want the last page (offset %d) and the pages in view before it", sent, last)
			}
			v := u.view()
			if u.selected() != pl.at(t, e.Client, total-1) || !strings.Contains(v, fmt.Sprintf(" %d/%d", total, total)) {
				t.Fatalf("after G the cursor is on %d, not on the last row:\n%s", u.selected(), v)
			}
			// With more rows than the first pages, the last ones and those in view, some are
			// not loaded; those on screen are.
			if strings.Contains(v, "⋯") || total > 60 && len(u.ids()) >= total {
				t.Fatalf("after G: %d rows of %d loaded, or rows on screen not loaded:\n%s", len(u.ids()), total, v)
			}
			viewtest.CheckSize(t, v, 120, 20, "after G")

			// Up through the gap to the top: every row once, in the server's order.
			for i := 0; i < 200 && u.selected() != u.ids()[0] || i == 0; i++ {
				u.press("ctrl+u")
				viewtest.CheckSize(t, u.view(), 120, 20, "up")
			}
			for range 3 {
				u.press("ctrl+u")
			}
			ids := u.ids()
			if len(ids) != total || ids[0] != pl.at(t, e.Client, 0) || !strings.Contains(u.view(), fmt.Sprintf(" 1/%d", total)) {
				t.Fatalf("after walking up from the end: %d rows of %d, cursor on %d\n%s", len(ids), total, u.selected(), u.view())
			}
			for i := 1; i < len(ids); i++ {
				if ids[i] >= ids[i-1] {
					t.Fatalf("rows not in the server's order, or twice: %d after %d", ids[i], ids[i-1])
				}
			}
			offsets := map[string]bool{}
			for _, q := range pl.sent(t, e, start) {
				if offsets[q.Get("offset")] {
					t.Fatalf("offset %q asked for twice", q.Get("offset"))
				}
				offsets[q.Get("offset")] = true
			}
		})
	}
}

// When the page after the loaded ones fails, the footer says so and r asks for that page
// again, keeping the rows and the cursor, instead of reloading the first page; when the
// rows before it are gone meanwhile (all deleted), there is no page after them to ask for,
// and r loads the first page instead of doing nothing.
func TestRRetriesTheFailedNextPage(t *testing.T) {
	t.Parallel()
	for _, pl := range pagedLists {
		t.Run(pl.name, func(t *testing.T) {
			e, ctx, fail := pagedEnv(t, 10)
			u := pl.open(ctx, 120, 12)
			fail.Fail.Store(true)
			for i := 0; i < 10 && !strings.Contains(u.view(), "next page failed"); i++ {
				u.press("ctrl+d")
			}
			loaded := len(u.ids())
			if loaded%10 != 0 || loaded+10 > u.total() || !strings.Contains(u.view(), "next page failed; r retries it") {
				t.Fatalf("%d rows of %d after a failed next page; view:\n%s", loaded, u.total(), u.view())
			}
			sel := u.selected()
			fail.Fail.Store(false)
			start := len(e.Log.Lines())
			u.press("r")
			sent := pl.sent(t, e, start)
			if len(sent) == 0 || sent[0].Get("offset") != fmt.Sprint(loaded) {
				t.Fatalf("r sent %v; want the failed page (offset %d) first", sent, loaded)
			}
			for _, q := range sent {
				if q.Get("offset") == "" {
					t.Fatalf("r asked for the first page again: %v", sent)
				}
			}
			if len(u.ids()) < loaded+10 || u.selected() != sel || strings.Contains(u.view(), "failed") {
				t.Fatalf("after r: %d rows (want %d and the retried page), cursor on %d (was %d):\n%s", len(u.ids()), loaded, u.selected(), sel, u.view())
			}

			if u.remove == nil {
				return // the screen removes no rows
			}
			fail.Fail.Store(true)
			for i := 0; i < 20 && !strings.Contains(u.view(), "next page failed"); i++ {
				u.press("ctrl+d")
			}
			u.remove(u.ids())
			fail.Fail.Store(false)
			start = len(e.Log.Lines())
			u.press("r")
			if sent := pl.sent(t, e, start); len(sent) == 0 || sent[0].Get("offset") != "" || len(u.ids()) == 0 || strings.Contains(u.view(), "failed") {
				t.Fatalf("r with no rows before the failed page sent %v; want the first page:\n%s", sent, u.view())
			}
		})
	}
}
