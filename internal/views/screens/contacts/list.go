package contacts

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// Query is what the list shows: filters, ordering ("" = the list's default,
// client.Contacts.Shown unless the config file names another) and search (server
// search_query: results then come in rank order).
type Query = list.Query[client.ContactFilter]

// declared is the contact list: its query (client.Contacts: the `o` key walks the server's
// order, newest first, then the spec's six orderings), its rows and their names.
var declared = list.Declaration[client.ContactFilter, client.Contact, Row]{
	Resource: client.Contacts, Screen: common.ViewsContacts, One: "contact", Many: "contacts", Row: RowFrom, ID: rowID,
	List: (*client.Client).ListContacts, All: (*client.Client).ContactsAllPage,
}

// orderingOrDefault is the ordering in effect without a search: the query's, or the list's
// default.
func orderingOrDefault(ctx *common.Ctx, q Query) string { return declared.Of(ctx, q.Ordering) }

// OrderingLabel names an ordering for the header.
func OrderingLabel(o string) string { return client.Contacts.OrderingWords(o) }

// SearchMsg sets (or with "" clears) the server search.
type SearchMsg = list.SearchMsg[client.ContactFilter]

// FilterMsg replaces every contact filter.
type FilterMsg = list.FilterMsg[client.ContactFilter]

// List is the contact list pane: the searchable list component (whose methods it has) fed
// by the contact source of its query.
type List struct {
	list.Searchable[Row, client.ContactFilter]
	ctx *common.Ctx
}

// NewList returns an empty list; Load fetches the first page.
func NewList(ctx *common.Ctx) List {
	src := func(q Query) list.Source[Row] { return source{ctx: ctx, q: q} }
	return List{ctx: ctx, Searchable: list.NewSearchable(list.New(ctx, src(Query{}), list.Options{Marks: true}), src)}
}

// FilterForm is the `f` modal with the 7 contact filters (client.Contacts); applying it
// sends a FilterMsg.
func (m List) FilterForm() common.Modal {
	return declared.FilterForm(m.ctx, m.Query().Filter, forms.FilterOptions[client.ContactFilter]{
		Title: "Filter contacts",
		Width: 64,
		Hint:  forms.Hint(m.ctx, "applies"),
	})
}

// source is the contact list's side of the list component for query q.
type source struct {
	ctx *common.Ctx
	q   Query
}

func rowID(r Row) int64 { return r.ID }

// Pages lists q's contacts: from the offset endpoint, and past the offset cap through
// /contact_identities/all/ for the server's order (newest first, id descending) without a
// search, the one order that endpoint serves: walked backwards with `previous` cursors,
// each page reversed. Filters apply to both endpoints.
func (s source) Pages() list.Fetcher[Row] {
	q := s.q
	e := declared.Endpoints(s.ctx, q)
	byID := declared.ListOptions(s.ctx, q, 1, 0)
	e.Lookup = func(ctx context.Context, c *client.Client, id int64) (*client.Page[client.Contact], error) {
		if q.Filter.ID != 0 && q.Filter.ID != id {
			return &client.Page[client.Contact]{}, nil // the query is another contact
		}
		f := q.Filter
		f.ID = id
		return c.ListContacts(ctx, client.ContactListOptions{ListOptions: byID, Filter: f})
	}
	if !e.Ranked {
		e.Whole = "order " + client.Contacts.OrderingSays(client.Contacts.Default)
	}
	return e
}

// Arrived names the contacts of a page for other screens.
func (s source) Arrived(_ *list.Model[Row], p list.Page[Row]) tea.Cmd {
	for _, r := range p.Rows {
		s.ctx.LearnContact(r.ID, r.Name)
	}
	return nil
}

// Update handles the ordering key when focused; the searchable list the rest (pages,
// search and filter messages, its keys).
func (m List) Update(msg tea.Msg) (List, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && m.Model.Focused() && key.Matches(k, m.ctx.Keys.Order) {
		return m, m.CycleOrdering()
	}
	var cmd tea.Cmd
	m.Searchable, cmd = m.Searchable.Update(msg)
	return m, cmd
}

// UpdateRow replaces one row in place (after an edit) when it is loaded; a conversation
// count the row does not know (-1) stays the one shown.
func (m *List) UpdateRow(r Row) {
	if old, ok := m.Model.Row(r.ID); ok && r.ConversationCount < 0 {
		r.ConversationCount = old.ConversationCount
	}
	m.Model.UpdateRow(r)
}

// InsertTop puts a new contact first (after a create, in a newest-first order).
func (m *List) InsertTop(r Row) {
	if _, ok := m.Model.Row(r.ID); ok {
		m.UpdateRow(r)
		return
	}
	m.Model.InsertTop(r)
}

// CycleOrdering moves to the next ordering and shows it at once; the list reloads
// list.ReloadDelay after the last press.
func (m *List) CycleOrdering() tea.Cmd {
	q := m.Query()
	q.Ordering = declared.Next(m.ctx, q.Ordering)
	return m.SetQuerySoon(q)
}

// wideRow is the width from which a contact takes one line instead of two.
const wideRow = 60

// RowHeight is one line from wideRow columns, else two.
func (s source) RowHeight(w int) int {
	if w >= wideRow {
		return 1
	}
	return 2
}

// createdTimes reports whether the time column shows when contacts were created (the
// created_at orderings, the default one among them) rather than their last message (a
// search's ranked results without an ordering of their own).
func (s source) createdTimes() bool {
	o := s.q.Ordering
	if s.q.Search == "" {
		o = orderingOrDefault(s.ctx, s.q)
	}
	return strings.HasSuffix(o, "created_at")
}

// Stamp is the time column: creation for the created_at orderings, else the last message
// ("—" for a contact that never wrote).
func (s source) Stamp(r *Row, now time.Time) string {
	if s.createdTimes() {
		return layout.RelTime(r.CreatedAt, now)
	}
	return layout.RelTime(r.LastAt, now)
}

// Render lays a row out at the pane width.
func (s source) Render(r *Row, c list.Cell) string {
	st := s.ctx.Styles
	w, when := c.Width, c.Stamp
	name := r.Name
	if name == "" {
		name = "(no name)"
	}
	cc := cells{r: r, st: st, name: name, when: when}
	if w >= wideRow {
		var widths [8]int
		return layout.Fit(columns.Row(c.Mark, cc, columns.Widths(w, widths[:0])), w)
	}
	const timeW = 6
	nameW := max(1, w-1-2-1-timeW)
	line1 := c.Mark + verifiedCell(cc, 1) + " " + st.Bold.Render(layout.Pad(name, nameW)) + " " + st.Muted.Render(layout.PadLeft(when, timeW))
	second := r.Email
	if p := r.Place(); p != "" {
		if second != "" {
			second += " · "
		}
		second += p
	}
	line2 := "   " + st.Muted.Render(layout.Pad(second, max(0, w-3)))
	return layout.Fit(line1, w) + "\n" + layout.Fit(line2, w)
}

// Header describes the query in one line, or two when one cannot show every part: count,
// search, filters, ordering and what the row time is. Each part has forms from the longest
// to the shortest: the noun goes first, then the word "search:", the ordering's words (to
// its short ones) and the long time label, then long search and filter values are cut, each on its own.
func (s source) Header(st list.Status) []string {
	parts := []list.HeaderPart{list.CountPart(st, declared.One, declared.Many)}
	if p, ok := list.SearchPart(s.q.Search); ok {
		parts = append(parts, p)
	}
	parts = append(parts, list.FilterParts(list.Describe(client.Contacts, s.q.Filter, nil))...)
	if s.q.Search == "" {
		o := orderingOrDefault(s.ctx, s.q)
		says := client.Contacts.OrderingSays(o)
		parts = append(parts, list.HeaderPart{says, says, OrderingLabel(o)})
	}
	// What the time at the end of each row is (see Stamp).
	if s.createdTimes() {
		parts = append(parts, list.HeaderPart{"time: created"})
	} else {
		parts = append(parts, list.HeaderPart{"time: last message", "time: last message", "time: last msg"})
	}
	return list.HeaderLines(st, s.ctx.Styles.HeaderLine, parts)
}

// Empty says that no contact matches, naming the search and filters that hide rows and
// the key that clears them.
func (s source) Empty(list.Status) string {
	return list.EmptyWhy(declared.Many, s.q.Search, list.Describe(client.Contacts, s.q.Filter, nil), s.ctx.Keys.Back.Help().Key)
}
