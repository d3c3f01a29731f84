package contacts

import (
	"context"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/sanitize"
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
		return columns.Line(c.Mark, cc, w)
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

// Row is the compact, sanitized form of a contact that the list keeps.
type Row struct {
	ID                int64
	Name              string // sanitized, single line
	Email             string
	Phone             string // phone, else mobile
	Company           string
	City              string
	Country           string
	Locale            string
	Verified          bool
	Blocked           bool
	CreatedAt         time.Time
	LastAt            time.Time // last message sent, zero when none
	ConversationCount int       // -1 when the API did not say
}

// RowFrom builds a Row from an API contact, sanitizing every text.
func RowFrom(c client.Contact) Row {
	str := func(p *string) string { return sanitize.Line(strings.TrimSpace(client.Str(p))) }
	r := Row{
		ID:                c.ID,
		Name:              str(c.Name),
		Email:             str(c.Email),
		Phone:             str(c.PhoneNumber),
		Company:           str(c.Company),
		City:              str(c.City),
		Country:           str(c.Country),
		Locale:            sanitize.Line(c.Locale),
		Verified:          c.Verified,
		Blocked:           c.IsBlocked,
		CreatedAt:         c.CreatedAt.Time,
		ConversationCount: -1,
	}
	if r.Phone == "" {
		r.Phone = str(c.MobileNumber)
	}
	if c.LastMessageSentAt != nil {
		r.LastAt = c.LastMessageSentAt.Time
	}
	if c.ConversationCount != nil {
		r.ConversationCount = *c.ConversationCount
	}
	return r
}

// Title is how the contact is named to the user: its name, else its email, else its id.
func (r Row) Title() string {
	switch {
	case r.Name != "":
		return r.Name
	case r.Email != "":
		return r.Email
	}
	return "contact #" + strconv.FormatInt(r.ID, 10)
}

// Place is "city, country" without empty parts.
func (r Row) Place() string {
	switch {
	case r.City != "" && r.Country != "":
		return r.City + ", " + r.Country
	case r.City != "":
		return r.City
	}
	return r.Country
}

// cells is what a one-line row's cells are drawn from.
type cells struct {
	r  *Row
	st *theme.Styles
	// name and when are the row's name and time as shown.
	name, when string
}

// columns lay a one-line row out (from wideRow): mark, verified, name, email, place, then
// from 120 columns the phone, from 140 the company and from 90 the locale, and the time.
// What the fixed columns leave is shared: the name 30 % (12 to 28 cells), the place 25 %
// (10 to 26) and the email the rest, so an email is cut only in a narrow pane: at 78
// columns (an 80-column terminal) name 19, email 30 and place 16, at 86 (the list at 160)
// 21, 34 and 18, at 108 (at 200) 26, 41 and 22.
var columns = layout.Table[cells]{Lead: 1, MinFlex: 3, Columns: []layout.Column[cells]{
	{Title: "✓", Width: 1, Cell: verifiedCell},
	{Title: "NAME", Flex: layout.Part{N: 30, D: 100}, Min: 12, Max: 28, Cell: func(c cells, w int) string {
		return c.st.Bold.Render(layout.Pad(c.name, w))
	}},
	{Title: "EMAIL", Rest: true, Cell: func(c cells, w int) string { return layout.Pad(c.r.Email, w) }},
	{Title: "PLACE", Flex: layout.Part{N: 25, D: 100}, Min: 10, Max: 26, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.Pad(c.r.Place(), w))
	}},
	{Title: "PHONE", Width: 16, From: 120, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.Pad(c.r.Phone, w)) }},
	{Title: "COMPANY", Pane: layout.Part{N: 1, D: 8}, Min: 10, Max: 22, From: 140, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.Pad(c.r.Company, w))
	}},
	{Title: "LOCALE", Width: 5, From: 90, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.Pad(c.r.Locale, w)) }},
	{Title: "TIME", Width: 6, Right: true, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.PadLeft(c.when, w)) }},
}}

// verifiedCell marks a contact verified (✓) or blocked (⊘).
func verifiedCell(c cells, _ int) string {
	switch {
	case c.r.Blocked:
		return c.st.Error.Render("⊘")
	case c.r.Verified:
		return c.st.Success.Render("✓")
	}
	return " "
}

// WideListWidth is the terminal width from which the list takes 55 % beside the detail
// (45 % below it): from there its rows take one line each with the email whole, while the
// detail keeps 70 columns and more.
const WideListWidth = 140

// listWidth is the list pane's width (frame included) beside the detail in width w.
func listWidth(w int) int {
	if w >= WideListWidth {
		return w * 55 / 100
	}
	return w * 45 / 100
}
