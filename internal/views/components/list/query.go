package list

import (
	"context"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
)

// Query is what a searchable list shows: its filters, its ordering ("" = the server's
// default) and a server search (search_query: results then come in rank order).
type Query[F interface{ IsZero() bool }] struct {
	Filter   F
	Ordering string
	Search   string
}

// Searchable is a list with a query: searches, filters and orderings change the query, and
// the list then shows the new query's rows from the first; esc clears the marks, then the
// search, then the filters. source makes the Source of a query.
type Searchable[R any, F interface{ IsZero() bool }] struct {
	Model[R]
	q      Query[F]
	source func(Query[F]) Source[R]
}

// NewSearchable returns an empty list of the empty query's rows; Load fetches the first page.
func NewSearchable[R any, F interface{ IsZero() bool }](m Model[R], source func(Query[F]) Source[R]) Searchable[R, F] {
	s := Searchable[R, F]{Model: m, source: source}
	s.SetSource(source(s.q))
	return s
}

// Query is the current query.
func (m Searchable[R, F]) Query() Query[F] { return m.q }

// SetQuery replaces the query and shows its rows from the first.
func (m *Searchable[R, F]) SetQuery(q Query[F]) tea.Cmd {
	m.q = q
	return m.Show(m.source(q))
}

// Preset replaces the query before the list's first load (the view restored at start-up):
// nothing is asked until Load.
func (m *Searchable[R, F]) Preset(q Query[F]) {
	m.q = q
	m.SetSource(m.source(q))
}

// SetQuerySoon is SetQuery after ReloadDelay, unless the query changes again first (a key
// cycling through orderings): the header shows the new query at once.
func (m *Searchable[R, F]) SetQuerySoon(q Query[F]) tea.Cmd {
	m.q = q
	return m.ShowSoon(m.source(q))
}

// Search sets the server search (text trimmed; "" clears it).
func (m *Searchable[R, F]) Search(text string) tea.Cmd {
	q := m.q
	q.Search = strings.TrimSpace(text)
	return m.SetQuery(q)
}

// Filter replaces every filter.
func (m *Searchable[R, F]) Filter(f F) tea.Cmd {
	q := m.q
	q.Filter = f
	return m.SetQuery(q)
}

// CanClear reports whether esc has something to clear: marks, the search, the filters.
func (m Searchable[R, F]) CanClear() bool {
	return len(m.marked) > 0 || m.q.Search != "" || !m.q.Filter.IsZero()
}

// Update is the list's Update with the query's own messages: a SearchMsg or FilterMsg of
// its filter changes the query, and back (esc), when focused, clears what Clear clears.
func (m Searchable[R, F]) Update(msg tea.Msg) (Searchable[R, F], tea.Cmd) {
	switch msg := msg.(type) {
	case SearchMsg[F]:
		return m, m.Search(msg.Text)
	case FilterMsg[F]:
		return m, m.Filter(msg.Filter)
	case tea.KeyPressMsg:
		if m.focused && key.Matches(msg, m.ctx.Keys.Back) {
			return m, m.Clear()
		}
	}
	var cmd tea.Cmd
	m.Model, cmd = m.Model.Update(msg)
	return m, cmd
}

// Clear drops the marks; without marks the search, or when there is none the filters, and
// shows the query left.
func (m *Searchable[R, F]) Clear() tea.Cmd {
	q := m.q
	switch {
	case len(m.marked) > 0:
		m.ClearMarks()
		return nil
	case q.Search != "":
		q.Search = ""
	case !q.Filter.IsZero():
		var none F
		q.Filter = none
	default:
		return nil
	}
	return m.SetQuery(q)
}

// SearchMsg sets (or with "" clears) the server search of the searchable list of filter
// F: F tells the lists apart, so a contact search never reaches the conversation list.
type SearchMsg[F any] struct{ Text string }

// FilterMsg replaces every filter of the searchable list of filter F.
type FilterMsg[F any] struct{ Filter F }

// Declaration declares a searchable list of a resource whose API items are T and whose
// rows are R: the resource's query (filters, orderings, the ordering shown by default),
// the screen the config file names its own default ordering under, how rows are named and
// made, and the endpoints that list them. Each such list has one.
type Declaration[F client.ListFilter, T, R any] struct {
	Resource client.Resource[F, T]
	Screen   string // the screen's name in the config file (common.ViewsContacts)
	// One names one row, Many the rows ("contact", "contacts").
	One, Many string
	// Row makes an item a row (sanitizing its text); ID is a row's id.
	Row func(T) R
	ID  func(R) int64
	// List fetches a page of the offset endpoint ((*client.Client).ListContacts), All one of
	// the /all/ cursor endpoint ((*client.Client).ContactsAllPage).
	List func(*client.Client, context.Context, client.FilteredListOptions[F]) (*client.Page[T], error)
	All  func(*client.Client, context.Context, client.AllOptions[F]) (*client.CursorPage[T], error)
}

// FilterForm is the `f` modal with the list's filters (Resource) over f: applying it sends
// the list's FilterMsg.
func (d Declaration[F, T, R]) FilterForm(ctx *common.Ctx, f F, o forms.FilterOptions[F]) common.Modal {
	o.Send = func(f F) tea.Msg { return FilterMsg[F]{Filter: f} }
	return forms.Filter(ctx, d.Resource, f, o)
}

// Default is the ordering of a query that names none: the config file's for the screen,
// else the resource's Shown.
func (d Declaration[F, T, R]) Default(ctx *common.Ctx) string {
	return ctx.DefaultOrdering(d.Screen, d.Resource.Shown)
}

// Of is the ordering in effect without a search for a query's ordering: it, or Default
// when it is "".
func (d Declaration[F, T, R]) Of(ctx *common.Ctx, ordering string) string {
	if ordering == "" {
		return d.Default(ctx)
	}
	return ordering
}

// Next is the ordering after the one in effect in the order the ordering key walks
// (client.Resource.OrderingCycle), "" when that is Default.
func (d Declaration[F, T, R]) Next(ctx *common.Ctx, ordering string) string {
	cycle := d.Resource.OrderingCycle()
	next := cycle[(slices.Index(cycle, d.Of(ctx, ordering))+1)%len(cycle)]
	if next == d.Default(ctx) {
		return ""
	}
	return next
}

// ListOptions are the paging, search and ordering of q's page at offset: no ordering with
// a search (results come in rank order) or for the server's default (client.Resource.Request).
func (d Declaration[F, T, R]) ListOptions(ctx *common.Ctx, q Query[F], limit, offset int) client.ListOptions {
	o := client.ListOptions{Limit: limit, Offset: offset, Search: q.Search}
	if q.Search == "" {
		o.Ordering = d.Resource.Request(d.Of(ctx, q.Ordering))
	}
	return o
}

// Endpoints are q's endpoints, with what they send read from ctx now (they run in
// commands): its pages from the offset endpoint in q's ordering (ListOptions) and, when
// browsing may go on (continues), past the offset cap from /all/ by id, walked backwards
// for id descending. The list adds Lookup and, for a query not ranked, Whole.
func (d Declaration[F, T, R]) Endpoints(ctx *common.Ctx, q Query[F]) Endpoints[T, R] {
	e := Endpoints[T, R]{What: d.Many, One: d.One, Row: d.Row, ID: d.ID, Ranked: q.Search != ""}
	opts := client.FilteredListOptions[F]{ListOptions: d.ListOptions(ctx, q, 0, 0), Filter: q.Filter}
	e.Offset = func(cx context.Context, c *client.Client, limit, offset int) (*client.Page[T], error) {
		opts := opts
		opts.Limit, opts.Offset = limit, offset
		return d.List(c, cx, opts)
	}
	if !d.continues(ctx, q) {
		return e
	}
	e.Desc = d.Of(ctx, q.Ordering) != "id"
	e.All = func(cx context.Context, c *client.Client, cursor string, limit int) (*client.CursorPage[T], error) {
		return d.All(c, cx, client.AllOptions[F]{Filter: q.Filter, CursorOptions: client.CursorOptions{Cursor: cursor, Limit: limit, Ordering: "id"}})
	}
	e.Newest = func(cx context.Context, c *client.Client, limit int) (*client.Page[T], error) {
		// The server's order (id descending): its first page is the newest items.
		return d.List(c, cx, client.FilteredListOptions[F]{ListOptions: client.ListOptions{Limit: limit}, Filter: q.Filter})
	}
	return e
}

// continues reports whether browsing q may go on past the offset cap through /all/: without
// a search, in an id ordering the resource declares (the one order that endpoint serves,
// walked either way).
func (d Declaration[F, T, R]) continues(ctx *common.Ctx, q Query[F]) bool {
	o := d.Of(ctx, q.Ordering)
	return q.Search == "" && (o == "-id" || o == "id") && slices.Contains(d.Resource.OrderingCycle(), o)
}
