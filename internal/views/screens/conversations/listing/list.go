// Package listing is the conversation list pane of the conversations screen: the list
// component fed by conversations, with the refresh merge and the pinned row on top.
package listing

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/sat"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/sanitize"
)

// Query is what the list shows: filters (status included), ordering ("" = the list's
// default, client.Conversations.Shown unless the config file names another) and search.
type Query = list.Query[client.ConversationFilter]

// declared is the conversation list: its query (client.Conversations: the `o` key walks
// the spec's 10 orderings, as declared, the server's default, id descending, first), its
// rows and their names.
var declared = list.Declaration[client.ConversationFilter, client.Conversation, Row]{
	Resource: client.Conversations, Screen: common.ViewsConversations, One: "conversation", Many: "conversations",
	Row: RowFrom, ID: rowID, List: (*client.Client).ListConversations, All: (*client.Client).ConversationsAllPage,
}

// StatusCycle is the order `s` walks through: every status, then each declared one.
var StatusCycle = statusCycle()

func statusCycle() []string {
	out := []string{""}
	p, _ := client.Conversations.Param(client.Conversations.Status)
	for _, c := range p.Choices {
		out = append(out, c.Value)
	}
	return out
}

// mergeMsg is the answer to RefreshChanged: the conversations updated since the last
// refresh, for the list owner's query generation gen.
type mergeMsg struct {
	owner, gen int
	rows       []Row
	convs      []client.Conversation // the rows as the API sent them (arrivals)
	err        error
	at         time.Time // the local time, for "refreshed at"
	reached    time.Time // the server's (client.ServerReached) when it answered
}

// SearchMsg sets (or with "" clears) the server search.
type SearchMsg = list.SearchMsg[client.ConversationFilter]

// FilterMsg replaces every filter, status included.
type FilterMsg = list.FilterMsg[client.ConversationFilter]

// Model is the list pane: the list component (whose methods it has) fed by the conversation
// source of its query, with the refresh merge on top. A conversation opened from elsewhere
// that is not among the rows shows pinned above them (Pin).
type Model struct {
	list.Searchable[Row, client.ConversationFilter]
	ctx *common.Ctx

	// merged is the last refresh merge taken: its generation, local time and the server's
	// time when it was answered.
	merged struct {
		gen         int
		at, reached time.Time
	}
	// gap is the RefreshChanged asked to close a gap before a shared poll's window
	// (onPolled), while its answer has not come: owner and gen of the list it was asked
	// for.
	gap struct {
		open       bool
		owner, gen int
	}

	// Topics and widgets seen on any row loaded in this context, by id (the API lists
	// neither): the filter form and the topics form offer them and the header names them,
	// whatever the current query left.
	seenTopics, seenWidgets map[int64]string
	// seenTopicTexts are the seen topics as the API spells them (never laid out).
	seenTopicTexts map[int64]string
	// operators names the operators the list was asked to show the conversations of
	// (ShowAssigned), for the header and the filter form when the directory does not.
	operators map[int64]string
	// watch finds the arrivals in merges and polls and keeps those not opened yet
	// (arrivals.go).
	watch *watch
}

// source is the conversation list's side of the list component for query q.
type source struct {
	ctx *common.Ctx
	q   Query
	// The seen topics and widgets (shared with the Model): pages teach them, the header
	// names them.
	topics, topicTexts, widgets map[int64]string
	// operators: names given with ShowAssigned (shared with the Model).
	operators map[int64]string
}

// New returns an empty list; Load fetches the first page.
func New(ctx *common.Ctx) Model {
	m := Model{ctx: ctx, seenTopics: map[int64]string{}, seenWidgets: map[int64]string{}, seenTopicTexts: map[int64]string{},
		operators: map[int64]string{}, watch: newWatch()}
	src := m.sourceOf // the maps it shares stay the same ones (ForgetSeen clears them)
	m.Searchable = list.NewSearchable(list.New(ctx, src(Query{}), list.Options{Marks: true}), src)
	return m
}

// FilterForm is the `f` modal with all 16 conversation filters (client.Conversations);
// applying it sends a FilterMsg.
func (m Model) FilterForm() common.Modal {
	topics, widgets := m.known()
	return declared.FilterForm(m.ctx, m.Query().Filter, forms.FilterOptions[client.ConversationFilter]{
		Title: "Filter conversations",
		Width: 72,
		Picks: map[string]forms.Pick{
			"operator": {Options: forms.ByName(operatorNames(m.ctx, m.operators)), Height: 6},
			"topic":    {Options: topics, Height: 6},
			"widget":   {Options: widgets, Height: 5},
		},
		Check: true,
	})
}

// known lists the topics and widgets seen in this context (not only on the rows the current
// query left), by name, for the selects.
func (m Model) known() (topics, widgets []forms.Option) {
	return forms.ByName(m.seenTopics), forms.ByName(m.seenWidgets)
}

// sourceOf is the source of query q.
func (m Model) sourceOf(q Query) list.Source[Row] { return m.source(q) }

// source is the source of query q.
func (m Model) source(q Query) source {
	return source{ctx: m.ctx, q: q, topics: m.seenTopics, topicTexts: m.seenTopicTexts, widgets: m.seenWidgets, operators: m.operators}
}

// remember notes the contacts' names, the topics and the widgets of rows.
func (s source) remember(rows []Row) {
	for _, r := range rows {
		s.ctx.LearnContact(r.ContactID, r.Name)
		for i, id := range r.TopicIDs {
			if i < len(r.Topics) && r.Topics[i] != "" {
				s.topics[id] = r.Topics[i]
			}
			if i < len(r.TopicTexts) {
				s.topicTexts[id] = r.TopicTexts[i]
			}
		}
		if r.WidgetID != 0 && r.WidgetName != "" {
			s.widgets[r.WidgetID] = r.WidgetName
		}
	}
}

// Arrived learns from a page's rows.
func (s source) Arrived(_ *list.Model[Row], p list.Page[Row]) tea.Cmd {
	s.remember(p.Rows)
	return nil
}

func rowID(r Row) int64 { return r.ID }

// Pages lists q's conversations from the offset endpoint and, for the id orderings without
// a search, past the offset cap from /all/ (walked backwards for id descending).
func (s source) Pages() list.Fetcher[Row] {
	q := s.q
	e := declared.Endpoints(s.ctx, q)
	e.Lookup = func(ctx context.Context, c *client.Client, id int64) (*client.Page[client.Conversation], error) {
		// The query with id__gt and id__lt around id, inside any id bounds it has. At the
		// largest id there is no id above it to send: no id__lt then (0), unless the query
		// has one (which no id is below).
		f := q.Filter
		above, ok := sat.AddOK(id, 1)
		if !ok {
			above = 0
		}
		f.IDGreaterThan, f.IDLessThan = max(f.IDGreaterThan, id-1), above
		if q.Filter.IDLessThan != 0 {
			f.IDLessThan = q.Filter.IDLessThan
			if ok {
				f.IDLessThan = min(q.Filter.IDLessThan, above)
			}
		}
		if f.IDGreaterThan >= id || f.IDLessThan != 0 && f.IDLessThan <= id {
			return &client.Page[client.Conversation]{}, nil // outside the query's bounds
		}
		// In the server's order: no ordering sent.
		return c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Search: q.Search}, Filter: f})
	}
	if !e.Ranked {
		e.Whole = "order by id"
	}
	return e
}

// Topic is a topic seen on a row.
type Topic struct {
	Name string // sanitized, for display
	Text string // as the API spells it (not sanitized: never laid out), for edits
}

// SeenTopics are the topics seen on any row loaded in this context (every page, every
// refresh merge, every edit), sorted by name: the topics form offers them, and the filter
// form offers the same topics by id.
func (m Model) SeenTopics() []Topic {
	var out []Topic
	for _, o := range forms.ByName(m.seenTopics) {
		if text, ok := m.seenTopicTexts[o.ID]; ok {
			out = append(out, Topic{Name: o.Name, Text: text})
		}
	}
	return out
}

// ForgetSeen forgets the topics and widgets seen (another organization has its own).
func (m *Model) ForgetSeen() {
	clear(m.seenTopics)
	clear(m.seenTopicTexts)
	clear(m.seenWidgets)
	clear(m.operators)
}

// ShowAssigned lists the conversations assigned to operator id (the spec's operator_id
// filter) from the first row: every status, no search and no other filter, in the current
// ordering. name (sanitized here) names the operator in the header and the filter form
// where the operators directory does not. The status key, the filter form (its Operator
// field shows the operator; "any operator" clears it) and esc work on the query as on any.
func (m *Model) ShowAssigned(id int64, name string) tea.Cmd {
	if n := sanitize.Line(name); n != "" {
		m.operators[id] = n
	}
	return m.SetQuery(Query{Filter: client.ConversationFilter{OperatorID: id}, Ordering: m.Query().Ordering})
}

// operatorNames are the operators' names by id: the directory's, else those ShowAssigned
// was given.
func operatorNames(ctx *common.Ctx, given map[int64]string) map[int64]string {
	if len(given) == 0 {
		return ctx.Operators
	}
	out := maps.Clone(given)
	for id, n := range ctx.Operators {
		if n != "" {
			out[id] = n
		}
	}
	return out
}

// LastRefresh is when the list last got data (a page or a merge).
func (m Model) LastRefresh() time.Time {
	if m.merged.at.After(m.Model.At()) {
		return m.merged.at
	}
	return m.Model.At()
}

// windowFrom is the server's time (client.ServerReached) when the answer that last brought
// every loaded row up to date came: the query's first page or a later merge, never a later
// page (the rows above it are older). The next "updated since" window starts there.
func (m Model) windowFrom() time.Time {
	if m.merged.gen == m.Model.Gen() && m.merged.reached.After(m.Model.Reached()) {
		return m.merged.reached
	}
	return m.Model.Reached()
}

// RefreshOverlap is how far before the server's time of the last refresh the next one
// asks for changes: it covers a Date header's whole second, the time between the server
// stamping a change and answering, and a server clock that steps back a little.
const RefreshOverlap = 2 * time.Minute

// RefreshChanged asks only for conversations updated since the last refresh (minus
// RefreshOverlap) and merges them into the loaded rows. "Since" is told by the server's
// clock (client.ServerReached when that refresh was answered), never by the local one: a
// local clock running fast would otherwise skip the changes between two refreshes.
func (m *Model) RefreshChanged() tea.Cmd {
	if !m.Model.Loaded() || m.Model.Loading() || m.Model.Pending() {
		return nil
	}
	from := m.windowFrom()
	if from.IsZero() {
		from = m.LastRefresh() // no first page has been answered: only the local time is known
	}
	since := from.Add(-RefreshOverlap)
	owner, gen := m.Model.Owner(), m.Model.Gen()
	q := m.Query()
	if q.Filter.UpdatedAtFromDate.After(since) {
		since = q.Filter.UpdatedAtFromDate
	}
	q.Filter.UpdatedAtFromDate = since
	c, opts, now := m.ctx.Client, client.ConversationListOptions{ListOptions: declared.ListOptions(m.ctx, q, m.ctx.PageLimit(), 0), Filter: q.Filter}, m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(common.RequestTimeout, true)
		defer cancel()
		p, err := c.ListConversations(client.Poll(ctx), opts) // one attempt: the next tick asks again
		if err != nil {
			return mergeMsg{owner: owner, gen: gen, err: fmt.Errorf("conversations updated since %s: %w", since.UTC().Format(time.RFC3339), err)}
		}
		return mergeMsg{owner: owner, gen: gen, rows: list.Map(p.Results, RowFrom), convs: p.Results, at: now(), reached: c.ServerReached()}
	}
}

// Update handles merges and, when focused, the status and ordering keys; the searchable
// list the rest (pages, search and filter messages, its keys).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case mergeMsg:
		return m.onMerge(msg)
	case common.PolledMsg:
		return m.onPolled(msg)
	case common.OperatorsLoadedMsg:
		m.Model.Invalidate() // rows show operator names
		return m, nil
	case tea.KeyPressMsg:
		if m.Model.Focused() {
			if cmd, ok := m.onKey(msg); ok {
				return m, cmd
			}
		}
	}
	var cmd tea.Cmd
	m.Searchable, cmd = m.Searchable.Update(msg)
	return m, cmd
}

// onMerge takes the conversations updated since the last refresh. Loaded rows are updated
// in place. An unloaded row is either new or an old conversation edited elsewhere, and the
// list inserts it only where its place is certain: on top, in the order by id (id
// descending) when its id is above every loaded id, and with -last_message_sent_at when its
// last message is later than every loaded row's. The merge query's count is the number
// of changed conversations, not the list's, so the total grows only by the conversations
// that are new to it: those with an id above every loaded id.
func (m Model) onMerge(msg mergeMsg) (Model, tea.Cmd) {
	if msg.owner != m.Model.Owner() || msg.gen != m.Model.Gen() {
		return m, nil
	}
	m.gap.open = false // answered: a later gap may ask again
	if !m.Model.Loaded() || m.Model.Pending() {
		return m, nil
	}
	if msg.err != nil {
		return m, nil // auto-refresh failures stay quiet; the status bar shows rate limits
	}
	m.merged.gen, m.merged.at, m.merged.reached = msg.gen, msg.at, msg.reached
	m.source(m.Query()).remember(msg.rows)
	// The merge asked with the list's query: it lists every row it brought.
	came := m.arrivals(msg.rows, msg.convs, msg.reached, func(int) bool { return true })
	var unloaded []Row
	for _, r := range msg.rows {
		if !m.Model.UpdateRow(r) {
			unloaded = append(unloaded, r)
		}
	}
	m.Model.PutOnTop(m.aboveAll(unloaded))
	at := msg.at
	return m, tea.Batch(arrived(came), func() tea.Msg { return common.RefreshedMsg{At: at} })
}

// onPolled takes an answer of the team hub's shared poller: the organization's
// conversations updated since msg.Since, whatever the list's query. Loaded rows (and the
// pinned one) are updated in place, unless the row shown is newer than the poll's. A
// conversation that is not loaded goes on top only when the list's query certainly lists
// it (Matches: a filter the conversation's fields cannot judge, or a search, keeps it out)
// and its place is certain (aboveAll). A poll whose window starts after the list's own
// (msg.Since after windowFrom: a poll was missed while the list was loading) leaves a gap:
// the list then inserts nothing from it and asks once itself (RefreshChanged), whose answer
// covers the gap and the poll's window. A failed poll, or one answered before what the
// list shows, changes nothing.
func (m Model) onPolled(msg common.PolledMsg) (Model, tea.Cmd) {
	if msg.Err != nil || !m.Model.Loaded() || m.Model.Pending() {
		return m, nil
	}
	from := m.windowFrom()
	if !msg.Reached.IsZero() && msg.Reached.Before(from) {
		return m, nil // the list's rows are newer than this answer
	}
	gap := from.IsZero() || msg.Since.After(from)
	q := m.Query()
	rows := list.Map(msg.Conversations, RowFrom)
	m.source(q).remember(rows)
	came := m.arrivals(rows, msg.Conversations, msg.Reached, func(i int) bool {
		match, known := Matches(q, msg.Conversations[i])
		return match && known
	})
	var candidates []Row
	for i, r := range rows {
		if cur, ok := m.Model.Row(r.ID); ok && older(r, cur) {
			continue
		}
		if m.Model.UpdateRow(r) || gap {
			continue
		}
		if match, known := Matches(q, msg.Conversations[i]); match && known {
			candidates = append(candidates, r)
		}
	}
	m.Model.PutOnTop(m.aboveAll(candidates))
	var ask tea.Cmd
	if gap {
		ask = m.closeGap()
	} else if m.merged.gen != m.Model.Gen() || msg.Reached.After(m.merged.reached) {
		m.merged.gen, m.merged.at, m.merged.reached = m.Model.Gen(), msg.At, msg.Reached
	}
	at := msg.At
	return m, tea.Batch(ask, arrived(came), func() tea.Msg { return common.RefreshedMsg{At: at} })
}

// older reports whether row r is an older version of the conversation than cur.
func older(r, cur Row) bool { return r.UpdatedAt.Before(cur.UpdatedAt) || r.LastAt.Before(cur.LastAt) }

// closeGap asks RefreshChanged for the changes since the list's own window, unless one
// asked for that is still unanswered.
func (m *Model) closeGap() tea.Cmd {
	if m.gap.open && m.gap.owner == m.Model.Owner() && m.gap.gen == m.Model.Gen() {
		return nil
	}
	cmd := m.RefreshChanged()
	if cmd != nil {
		m.gap.open, m.gap.owner, m.gap.gen = true, m.Model.Owner(), m.Model.Gen()
	}
	return cmd
}

// aboveAll picks, of rows that are not loaded, those that certainly sort above every loaded
// row (in list order), and counts those new to the list (id above every loaded id).
func (m Model) aboveAll(rows []Row) (top []Row, added int) {
	loaded := m.Model.Rows()
	if len(rows) == 0 || len(loaded) == 0 || m.Query().Search != "" {
		return nil, 0 // ranked results have no place to compute
	}
	var maxID int64
	var latest time.Time
	for _, r := range loaded {
		maxID = max(maxID, r.ID)
		if r.LastAt.After(latest) {
			latest = r.LastAt
		}
	}
	switch orderingOrDefault(m.ctx, m.Query()) {
	case client.Conversations.Default:
		for _, r := range rows {
			if r.ID > maxID {
				top = append(top, r)
			}
		}
		slices.SortFunc(top, func(a, b Row) int { return cmp.Compare(b.ID, a.ID) })
	case "-last_message_sent_at":
		// The first row without a time could mean the server puts those first: then no
		// place is certain.
		if loaded[0].LastAt.IsZero() {
			return nil, 0
		}
		for _, r := range rows {
			if r.LastAt.After(latest) {
				top = append(top, r)
			}
		}
		slices.SortStableFunc(top, func(a, b Row) int { return b.LastAt.Compare(a.LastAt) })
	}
	for _, r := range top {
		if r.ID > maxID {
			added++
		}
	}
	return top, added
}

// orderingOrDefault is the ordering in effect without a search: the query's, or the
// list's default.
func orderingOrDefault(ctx *common.Ctx, q Query) string { return declared.Of(ctx, q.Ordering) }

// Pin shows conversation id, opened from elsewhere (from: "a contact", "navigation") and not
// among the loaded rows, above them with the cursor on it. Its row fills in with UpdateRow
// (the detail of the conversation brings it).
func (m *Model) Pin(id int64, from string) {
	if from == "" {
		from = "elsewhere"
	}
	m.Model.Pin(Row{ID: id}, "not in this list (from "+from+")")
}

// Pinned is the id of the pinned conversation (0: none).
func (m Model) Pinned() int64 {
	r, _ := m.Model.Pinned()
	return r.ID
}

// Preload shows conversations the caller already has (tests and benchmarks), as if they
// were the loaded pages of the current query, with total as the server's count.
func (m *Model) Preload(convs []client.Conversation, total int) {
	rows := list.Map(convs, RowFrom)
	m.source(m.Query()).remember(rows)
	m.Model.Preload(rows, total)
}

// UpdateRow replaces one row in place (after an edit, or when a detail arrives) when it is
// loaded or pinned.
func (m *Model) UpdateRow(r Row) {
	m.source(m.Query()).remember([]Row{r})
	m.watch.remember(r) // an edit of this session's is no arrival
	m.watch.settle(r, m.ctx.Me())
	m.Model.UpdateRow(r)
}

// SelectID puts the cursor on the row with id when it is loaded (a row pinned before then
// goes), or on the pinned row when it is that one, and reports whether it did.
func (m *Model) SelectID(id int64) bool { return m.Model.Select(id) }

// onKey handles the status and ordering keys (it reports whether msg was one); the other
// keys are the searchable list's.
func (m *Model) onKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.ctx.Keys
	switch {
	case key.Matches(msg, k.Status):
		q := m.Query()
		q.Filter.Status = StatusCycle[(slices.Index(StatusCycle, q.Filter.Status)+1)%len(StatusCycle)]
		return m.SetQuerySoon(q), true
	case key.Matches(msg, k.Order):
		q := m.Query()
		if q.Search != "" {
			return common.Toast("Search results come in rank order: " + k.Back.Help().Key + " clears the search, then " + k.Order.Help().Key + " orders the list."), true
		}
		q.Ordering = declared.Next(m.ctx, q.Ordering)
		return m.SetQuerySoon(q), true
	}
	return nil, false
}

// wideRow is the pane width from which a conversation takes one line.
const wideRow = 76

// RowHeight is 1 line per conversation when the pane is wide enough, else 2.
func (s source) RowHeight(w int) int {
	if w >= wideRow {
		return 1
	}
	return 2
}

// Stamp is the row's age: since its last message.
func (s source) Stamp(r *Row, now time.Time) string { return layout.RelTime(r.LastAt, now) }

// Empty says that no conversation matches.
// Empty says that no conversation matches, naming the search, status and filters that
// hide rows and the key that clears them.
func (s source) Empty(list.Status) string {
	var filters []string
	if st := s.q.Filter.Status; st != "" {
		filters = append(filters, "status "+st)
	}
	filters = append(filters, list.Describe(client.Conversations, s.q.Filter, s.name)...)
	return list.EmptyWhy(declared.Many, s.q.Search, filters, s.ctx.Keys.Back.Help().Key)
}

// Render lays a row out at the pane width with its age (the stamp). The pinned row shows
// its number until its detail arrives, and no age without a last message.
func (s source) Render(row *Row, c list.Cell) string {
	st := s.ctx.Styles
	w, when, mark := c.Width, c.Stamp, c.Mark
	r := row
	if c.Pinned {
		pinned := *row
		if pinned.LastAt.IsZero() {
			when = ""
		}
		if pinned.Status == "" && pinned.Name == "" && pinned.Email == "" {
			pinned.Name = fmt.Sprintf("#%d", pinned.ID)
		}
		r = &pinned
	}
	name := r.Name
	if name == "" {
		name = r.Email
	}
	if name == "" {
		name = "(no name)"
	}
	op := operatorName(s.ctx, r.OperatorID)
	if r.Status == "" {
		op = "—" // a pinned row before its detail arrives: the assignment is not known yet
	}
	pv := r.Preview
	if r.PreviewFromOperator && pv != "" {
		pv = "↩ " + pv
	}
	cc := cells{r: r, st: st, name: name, preview: pv, operator: op, when: when}
	if w >= wideRow {
		return columns.Line(mark, cc, w)
	}
	// Two lines: status, unread, name, time / preview, topics, operator. The operator is
	// never cut for the topics: they shrink to what is left ("Billing +2").
	timeW := 6
	nameW := max(1, w-1-9-1-2-1-timeW)
	line1 := mark + statusCell(cc, 9) + " " + unreadCell(cc, 1) + " " + st.Bold.Render(layout.Pad(name, nameW)) + " " +
		st.Muted.Render(layout.PadLeft(when, timeW))
	tailMax := max(0, (w-3)/2)
	tail := ansi.Truncate(op, tailMax, "…")
	if room := tailMax - ansi.StringWidth(op) - 3; len(r.Topics) > 0 && room > 0 {
		if t := topicsCell(r.Topics, room); t != "" {
			tail = t + " · " + op
		}
	}
	tailW := ansi.StringWidth(tail)
	pvW := max(0, w-3-tailW-1)
	line2 := "   " + st.Muted.Render(layout.Pad(pv, pvW)) + " " + st.Topic.Render(layout.PadLeft(tail, tailW))
	return layout.Fit(line1, w) + "\n" + layout.Fit(line2, w)
}

// topicsCell fits topics into w cells: all of them when they fit, else as many whole ones
// as fit and a count of the rest ("Billing, Returns +2"), else the first one cut short and
// the count ("Product q… +1"), else the count alone ("+3"); "" when there are none or not
// even the count fits.
func topicsCell(topics []string, w int) string {
	if len(topics) == 0 || w <= 0 {
		return ""
	}
	full := strings.Join(topics, ", ")
	if ansi.StringWidth(full) <= w {
		return full
	}
	for k := len(topics) - 1; k >= 1; k-- {
		s := strings.Join(topics[:k], ", ") + fmt.Sprintf(" +%d", len(topics)-k)
		if ansi.StringWidth(s) <= w {
			return s
		}
	}
	rest := ""
	if len(topics) > 1 {
		rest = fmt.Sprintf(" +%d", len(topics)-1)
	}
	if room := w - ansi.StringWidth(rest); room >= 4 {
		// "Technical…", not "Technical …"
		return strings.TrimRight(ansi.Truncate(topics[0], room-1, ""), " ,") + "…" + rest
	}
	if all := fmt.Sprintf("+%d", len(topics)); ansi.StringWidth(all) <= w {
		return all
	}
	return ""
}

func operatorName(ctx *common.Ctx, id int64) string {
	if id == 0 {
		return "unassigned"
	}
	if n, ok := ctx.Operators[id]; ok && n != "" {
		return n
	}
	return fmt.Sprintf("operator %d", id)
}

// Header describes the query in one line, or two when one cannot show every part: the
// total, search, status, filters and ordering. Each part has forms from the longest to the
// shortest: the noun goes first, then "all statuses" (and the word "search:", and the
// ordering's words give way to its short ones), then long search and filter values are
// cut, each on its own.
func (s source) Header(st list.Status) []string {
	parts := []list.HeaderPart{list.CountPart(st, declared.One, declared.Many)}
	if p, ok := list.SearchPart(s.q.Search); ok {
		parts = append(parts, p)
	}
	if status := sanitize.Line(s.q.Filter.Status); status == "" {
		parts = append(parts, list.HeaderPart{"all statuses", "all statuses", ""})
	} else {
		parts = append(parts, list.HeaderPart{"only " + status, "only " + status, status})
	}
	parts = append(parts, list.FilterParts(list.Describe(client.Conversations, s.q.Filter, s.name))...)
	if s.q.Search == "" {
		o := orderingOrDefault(s.ctx, s.q)
		parts = append(parts, list.HeaderPart{client.Conversations.OrderingSays(o), client.Conversations.OrderingSays(o),
			"by " + client.Conversations.OrderingWords(o)})
	}
	return list.HeaderLines(st, s.ctx.Styles.HeaderLine, parts)
}

// name is the name of id of resource (an operator's, "operator 7" when unknown; a topic's
// or a widget's as seen) for the header; "" when unknown.
func (s source) name(resource string, id int64) string {
	switch resource {
	case "operator":
		if n := operatorNames(s.ctx, s.operators)[id]; n != "" {
			return n
		}
		return fmt.Sprintf("operator %d", id)
	case "topic":
		return s.topics[id]
	case "widget":
		return s.widgets[id]
	}
	return ""
}
