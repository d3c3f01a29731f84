package contacts

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/list"
)

// Query is what the list shows: filters, ordering and search.
type Query struct {
	Filter   client.ContactFilter
	Ordering string // "" = the server's default (newest first: id descending)
	Search   string // server search_query; results then come in rank order
}

// OrderingCycle is the order `o` walks through: the default (newest first), then the
// spec's six contact orderings.
var OrderingCycle = []string{"", "-created_at", "created_at", "name", "-name", "email", "-email"}

// OrderingLabel names an ordering for the header.
func OrderingLabel(o string) string {
	switch o {
	case "":
		return "newest"
	case "created_at":
		return "created ↑"
	case "-created_at":
		return "created ↓"
	case "name":
		return "name A→Z"
	case "-name":
		return "name Z→A"
	case "email":
		return "email A→Z"
	case "-email":
		return "email Z→A"
	}
	return o
}

// requestTimeout bounds one request (retries included).
const requestTimeout = 90 * time.Second

// SearchMsg sets (or with "" clears) the server search.
type SearchMsg struct{ Text string }

// FilterMsg replaces every contact filter.
type FilterMsg struct{ Filter client.ContactFilter }

// List is the contact list pane: the list component fed by the contact source of its query.
type List struct {
	ctx *common.Ctx
	q   Query
	l   list.Model[Row]
}

// NewList returns an empty list; Load fetches the first page.
func NewList(ctx *common.Ctx) List {
	return List{ctx: ctx, l: list.New[Row](ctx, source{ctx: ctx}, list.Options{Marks: true})}
}

// source is the contact list's side of the list component for query q.
type source struct {
	ctx *common.Ctx
	q   Query
}

func rowID(r Row) int64 { return r.ID }

// Pages lists q's contacts: from the offset endpoint, and past the offset cap through
// /contact_identities/all/ for the default order (newest first, id descending) without a
// search, the one order that endpoint serves: walked backwards with `previous` cursors,
// each page reversed. Filters apply to both endpoints.
func (s source) Pages() list.Fetcher[Row] {
	q := s.q
	e := list.Endpoints[client.Contact, Row]{
		What: "contacts", One: "contact", Row: RowFrom, ID: rowID,
		Offset: func(ctx context.Context, c *client.Client, limit, offset int) (*client.Page[client.Contact], error) {
			return c.ListContacts(ctx, contactListOptions(q, limit, offset))
		},
		Ranked: q.Search != "",
		Lookup: func(ctx context.Context, c *client.Client, id int64) (*client.Page[client.Contact], error) {
			if q.Filter.ID != 0 && q.Filter.ID != id {
				return &client.Page[client.Contact]{}, nil // the query is another contact
			}
			byID := q
			byID.Filter.ID = id
			return c.ListContacts(ctx, contactListOptions(byID, 1, 0))
		},
	}
	if !e.Ranked {
		e.Whole = "use the default order"
	}
	if q.Search == "" && q.Ordering == "" {
		e.Desc = true
		e.All = func(ctx context.Context, c *client.Client, cursor string, limit int) (*client.CursorPage[client.Contact], error) {
			return c.ContactsAllPage(ctx, client.AllContactsOptions{
				Filter:        q.Filter,
				CursorOptions: client.CursorOptions{Cursor: cursor, Limit: limit, Ordering: "id"},
			})
		}
	}
	return e
}

// contactListOptions are the request options of q's page at offset.
func contactListOptions(q Query, limit, offset int) client.ContactListOptions {
	ordering := q.Ordering
	if q.Search != "" {
		ordering = "" // ranked by the server; an ordering would be ignored anyway
	}
	return client.ContactListOptions{
		ListOptions: client.ListOptions{Limit: limit, Offset: offset, Ordering: ordering, Search: q.Search},
		Filter:      q.Filter,
	}
}

// Arrived names the contacts of a page for other screens.
func (s source) Arrived(_ *list.Model[Row], p common.Page[Row]) tea.Cmd {
	for _, r := range p.Rows {
		s.ctx.LearnContact(r.ID, r.Name)
	}
	return nil
}

// Query is the current query.
func (m List) Query() Query { return m.q }

// Rows are the loaded rows.
func (m List) Rows() []Row { return m.l.Rows() }

// Total is the server's count for the query.
func (m List) Total() int { return m.l.Total() }

// Loading reports a request in flight.
func (m List) Loading() bool { return m.l.Loading() }

// Loaded reports that the first page arrived (or failed).
func (m List) Loaded() bool { return m.l.Loaded() }

// Cursor is the cursor's position.
func (m List) Cursor() int { return m.l.Cursor() }

// Selected returns the row under the cursor.
func (m List) Selected() (Row, bool) { return m.l.Selected() }

// Row returns a loaded row by id.
func (m List) Row(id int64) (Row, bool) { return m.l.Row(id) }

// Marked returns the marked rows in list order.
func (m List) Marked() []Row { return m.l.Marked() }

// SetSize sets the pane's inner size.
func (m *List) SetSize(w, h int) { m.l.SetSize(w, h) }

// Focus marks the list as focused.
func (m *List) Focus() { m.l.Focus() }

// Blur marks the list as not focused.
func (m *List) Blur() { m.l.Blur() }

// SetQuery replaces the query and loads its first page, shown from the top.
func (m *List) SetQuery(q Query) tea.Cmd {
	m.q = q
	return m.l.Show(source{ctx: m.ctx, q: q})
}

// Load fetches the first page of the current query again (fresh skips the response
// cache); the cursor stays on the selected row when the new rows have it.
func (m *List) Load(fresh bool) tea.Cmd { return m.l.Load(fresh) }

// Reload fetches the first page of the current query again past the response cache, with
// the cursor on contact keep when the new rows have it, unless the cursor moved while the
// page was in flight (else on the row selected).
func (m *List) Reload(keep int64) tea.Cmd { return m.l.Reload(keep) }

// CanContinue reports whether browsing may go on past the offset cap through
// /contact_identities/all/: only in the default order without a search.
func (m List) CanContinue() bool { return m.q.Search == "" && m.q.Ordering == "" }

// Update handles pages, search and filter messages and, when focused, keys.
func (m List) Update(msg tea.Msg) (List, tea.Cmd) {
	switch msg := msg.(type) {
	case SearchMsg:
		m.q.Search = strings.TrimSpace(msg.Text)
		return m, m.SetQuery(m.q)
	case FilterMsg:
		m.q.Filter = msg.Filter
		return m, m.SetQuery(m.q)
	case tea.KeyMsg:
		if m.l.Focused() {
			return m.onKey(msg)
		}
	}
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg)
	return m, cmd
}

func (m List) onKey(msg tea.KeyMsg) (List, tea.Cmd) {
	k := m.ctx.Keys
	switch {
	case key.Matches(msg, k.Order):
		return m, m.CycleOrdering()
	case key.Matches(msg, k.Back):
		return m, m.Clear()
	}
	var cmd tea.Cmd
	m.l, cmd, _ = m.l.HandleKey(msg)
	return m, cmd
}

// UpdateRow replaces one row in place (after an edit) when it is loaded; a conversation
// count the row does not know (-1) stays the one shown.
func (m *List) UpdateRow(r Row) {
	if old, ok := m.l.Row(r.ID); ok && r.ConversationCount < 0 {
		r.ConversationCount = old.ConversationCount
	}
	m.l.UpdateRow(r)
}

// InsertTop puts a new contact first (after a create, in the default newest-first order).
func (m *List) InsertTop(r Row) {
	if _, ok := m.l.Row(r.ID); ok {
		m.UpdateRow(r)
		return
	}
	m.l.InsertTop(r)
}

// Select moves the cursor to a loaded contact.
func (m *List) Select(id int64) bool { return m.l.Select(id) }

// Owner is the list's owner id: its pages and its delete tasks carry it.
func (m List) Owner() int { return m.l.Owner() }

// ConfirmDelete asks d's question; yes starts the list's delete task (see list.Delete).
func (m *List) ConfirmDelete(d list.Delete) tea.Cmd { return m.l.ConfirmDelete(d) }

// RemoveRows drops rows by id (after a delete) and keeps the cursor near where it was.
func (m *List) RemoveRows(ids []int64) { m.l.RemoveRows(ids) }

// ClearMarks unmarks every row.
func (m *List) ClearMarks() { m.l.ClearMarks() }

// CanClear reports whether esc has something to clear (marks, search, then filters).
func (m List) CanClear() bool {
	return len(m.l.Marked()) > 0 || m.q.Search != "" || !m.q.Filter.IsZero()
}

// Clear drops the marks; without marks the search, or when there is none the filters, and
// reloads.
func (m *List) Clear() tea.Cmd {
	switch {
	case len(m.l.Marked()) > 0:
		m.l.ClearMarks()
		return nil
	case m.q.Search != "":
		m.q.Search = ""
	case !m.q.Filter.IsZero():
		m.q.Filter = client.ContactFilter{}
	default:
		return nil
	}
	return m.SetQuery(m.q)
}

// CycleOrdering moves to the next ordering and shows it at once; the list reloads
// list.ReloadDelay after the last press.
func (m *List) CycleOrdering() tea.Cmd {
	i := slices.Index(OrderingCycle, m.q.Ordering)
	m.q.Ordering = OrderingCycle[(i+1)%len(OrderingCycle)]
	return m.l.ShowSoon(source{ctx: m.ctx, q: m.q})
}

// ToggleMark marks or unmarks the selected row and moves down.
func (m *List) ToggleMark() { m.l.ToggleMark() }

// ShortHelp lists the list's main keys.
func (m List) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{k.Down, k.Up, k.Open, k.Search, k.Filter, k.Order, k.Mark, k.Delete}
}

// FullHelp lists the list's keys by group.
func (m List) FullHelp() [][]key.Binding {
	k := m.ctx.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom, k.PageDown, k.PageUp, k.Open},
		{k.Search, k.Filter, k.Order, k.Back, k.Refresh, k.Mark, k.Delete, k.JumpID, k.Edit, k.Upsert, k.Note},
	}
}

// View renders the header, the visible window of entries and the footer, exactly
// width×height.
func (m *List) View() string { return m.l.View() }

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
// created_at orderings) rather than their last message.
func (s source) createdTimes() bool { return strings.HasSuffix(s.q.Ordering, "created_at") }

// Stamp is the time column: creation for the created_at orderings, else the last message
// ("—" for a contact that never wrote).
func (s source) Stamp(r *Row, now time.Time) string {
	if s.createdTimes() {
		return common.RelTime(r.CreatedAt, now)
	}
	return common.RelTime(r.LastAt, now)
}

// Render lays a row out at the pane width.
func (s source) Render(r *Row, c list.Cell) string {
	st := s.ctx.Styles
	paint := common.PaintIf(c.Styled)
	w, when := c.Width, c.Stamp
	verified := "  "
	if r.Verified {
		verified = paint("✓", st.Success) + " "
	}
	if r.Blocked {
		verified = paint("⊘", st.Error) + " "
	}
	name := r.Name
	if name == "" {
		name = "(no name)"
	}
	const timeW = 6
	if w >= wideRow {
		nameW := clamp(w/4, 12, 28)
		emailW := clamp(w/4, 10, 32)
		locW, phoneW, companyW := 0, 0, 0
		if w >= 90 {
			locW = 5
		}
		if w >= 120 {
			phoneW = 16
		}
		if w >= 140 {
			companyW = clamp(w/8, 10, 22)
		}
		fixed := 1 + 2 + nameW + 1 + emailW + 1 + timeW + 1
		for _, x := range []int{locW, phoneW, companyW} {
			if x > 0 {
				fixed += x + 1
			}
		}
		placeW := max(0, w-fixed)
		var b strings.Builder
		b.WriteString(c.Mark)
		b.WriteString(verified)
		b.WriteString(paint(common.Pad(name, nameW), st.Bold))
		b.WriteString(" ")
		b.WriteString(common.Pad(r.Email, emailW))
		b.WriteString(" ")
		b.WriteString(paint(common.Pad(r.Place(), placeW), st.Muted))
		if phoneW > 0 {
			b.WriteString(" ")
			b.WriteString(paint(common.Pad(r.Phone, phoneW), st.Muted))
		}
		if companyW > 0 {
			b.WriteString(" ")
			b.WriteString(paint(common.Pad(r.Company, companyW), st.Muted))
		}
		if locW > 0 {
			b.WriteString(" ")
			b.WriteString(paint(common.Pad(r.Locale, locW), st.Muted))
		}
		b.WriteString(" ")
		b.WriteString(paint(common.PadLeft(when, timeW), st.Muted))
		b.WriteString(" ")
		return common.Fit(b.String(), w)
	}
	nameW := max(1, w-1-2-1-timeW)
	line1 := c.Mark + verified + paint(common.Pad(name, nameW), st.Bold) + " " + paint(common.PadLeft(when, timeW), st.Muted)
	second := r.Email
	if p := r.Place(); p != "" {
		if second != "" {
			second += " · "
		}
		second += p
	}
	line2 := "   " + paint(common.Pad(second, max(0, w-3)), st.Muted)
	return common.Fit(line1, w) + "\n" + common.Fit(line2, w)
}

// Header describes the query in one line, or two when one cannot show every part: count,
// search, filters, ordering and what the row time is. Each part has forms from the longest
// to the shortest: the noun goes first, then the words "search:" and "order:" and the long
// time label, then long search and filter values are cut, each on its own.
func (s source) Header(st list.Status) []string {
	parts := []common.HeaderPart{list.CountPart(st, "contact", "contacts")}
	if q := sanitize.Line(s.q.Search); q != "" {
		parts = append(parts, common.HeaderPart{fmt.Sprintf("search:%q (ranked)", q), fmt.Sprintf("search:%q", q),
			fmt.Sprintf("%q", q), fmt.Sprintf("%q", common.ShortValue(q, 12))})
	}
	for _, f := range DescribeFilter(s.q.Filter) {
		parts = append(parts, common.HeaderPart{f, f, f, common.ShortValue(f, 16)})
	}
	if s.q.Search == "" {
		o := OrderingLabel(s.q.Ordering)
		parts = append(parts, common.HeaderPart{"order:" + o, "order:" + o, o})
	}
	// What the time at the end of each row is (see Stamp).
	if s.createdTimes() {
		parts = append(parts, common.HeaderPart{"time: created"})
	} else {
		parts = append(parts, common.HeaderPart{"time: last message", "time: last message", "time: last msg"})
	}
	return list.HeaderLines(st, s.ctx.Styles.HeaderLine, parts)
}

// Empty says that no contact matches (the search, with how to clear it).
func (s source) Empty(list.Status) string {
	if s.q.Search != "" {
		return "No contact matches the search. " + s.ctx.Keys.Back.Help().Key + " clears it."
	}
	return "No contacts match."
}

// DescribeFilter lists the set filters in short words.
func DescribeFilter(f client.ContactFilter) []string {
	var out []string
	ts := func(t time.Time) string { return common.FormatWhen(t) }
	if f.ID != 0 {
		out = append(out, fmt.Sprintf("id:%d", f.ID))
	}
	if f.Email != "" {
		out = append(out, "email:"+sanitize.Line(f.Email))
	}
	if f.Name != "" {
		out = append(out, fmt.Sprintf("name:%q", sanitize.Line(f.Name)))
	}
	if !f.FromDateTime.IsZero() {
		out = append(out, "active≥"+ts(f.FromDateTime))
	}
	if !f.ToDateTime.IsZero() {
		out = append(out, "active≤"+ts(f.ToDateTime))
	}
	if f.Verified != nil {
		if *f.Verified {
			out = append(out, "verified")
		} else {
			out = append(out, "unverified")
		}
	}
	if f.Locale != "" {
		out = append(out, "locale:"+sanitize.Line(f.Locale))
	}
	return out
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }
