package list

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
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

// Update is the list's Update with the query's own key: back (esc), when focused, clears
// what Clear clears.
func (m Searchable[R, F]) Update(msg tea.Msg) (Searchable[R, F], tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && m.focused && key.Matches(k, m.ctx.Keys.Back) {
		return m, m.Clear()
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

// Orderings are a searchable list's orderings: the cycle the order key walks through and
// the ordering of a query that names none, the config file's for the list's screen, else
// the list's own.
type Orderings struct {
	Cycle  []string
	Screen string // the screen's name in the config file (common.ViewsContacts)
	Own    string // the list's default ordering when the config file names none
}

// Default is the ordering of a query that names none: the config file's, else Own.
func (o Orderings) Default(ctx *common.Ctx) string { return ctx.DefaultOrdering(o.Screen, o.Own) }

// Of is the ordering in effect without a search for a query's ordering: it, or Default
// when it is "".
func (o Orderings) Of(ctx *common.Ctx, ordering string) string {
	if ordering == "" {
		return o.Default(ctx)
	}
	return ordering
}

// Next is the ordering after the one in effect in the cycle, "" when that is Default.
func (o Orderings) Next(ctx *common.Ctx, ordering string) string {
	next := o.Cycle[(slices.Index(o.Cycle, o.Of(ctx, ordering))+1)%len(o.Cycle)]
	if next == o.Default(ctx) {
		return ""
	}
	return next
}
