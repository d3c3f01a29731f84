package conversations

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
)

// Query is what the list shows: filters (status included), ordering and search.
type Query struct {
	Filter   client.ConversationFilter
	Ordering string // "" = the server's default (id descending)
	Search   string
}

// OrderingCycle is the order `o` walks through the spec's 10 orderings.
var OrderingCycle = []string{
	"-id", "id",
	"-last_message_sent_at", "last_message_sent_at",
	"-contact_last_message_sent_at", "contact_last_message_sent_at",
	"-contact_first_message_sent_at", "contact_first_message_sent_at",
	"-contact_last_update_at", "contact_last_update_at",
}

// StatusCycle is the order `s` walks through.
var StatusCycle = []string{"", client.StatusNew, client.StatusPending, client.StatusEnded}

// DefaultOrdering is the server's order when a request names none (spec: id descending).
// The list keeps it as "" and never sends it, so the default query has one URL (and one
// entry in the response cache).
const DefaultOrdering = "-id"

// requestTimeout bounds one list request (retries included).
const requestTimeout = 90 * time.Second

// ReloadDelay is how long the list waits after the last `s` or `o` before it asks for the
// new query: cycling through several statuses or orderings costs one request.
const ReloadDelay = 250 * time.Millisecond

// pageMsg is a page of rows. reached is set on a first page: a time the server's clock
// had reached when it answered (client.ServerReached), where the next "updated since"
// window starts.
type pageMsg struct {
	common.Page[Row]
	reached time.Time
}

// reloadMsg is the end of a ReloadDelay: req is the first-page request started by the key
// press, stale once a later press (or any other load) started another.
type reloadMsg struct{ req common.Request }

type mergeMsg struct {
	gen     int
	rows    []Row
	err     error
	at      time.Time // the local time, for "refreshed at"
	reached time.Time // the server's (client.ServerReached) when it answered
}

// SearchMsg sets (or with "" clears) the server search.
type SearchMsg struct{ Text string }

// FilterMsg replaces every filter, status included.
type FilterMsg struct{ Filter client.ConversationFilter }

// Model is the list pane.
type Model struct {
	ctx     *common.Ctx
	q       Query
	rows    []Row
	index   map[int64]int
	win     common.Window
	width   int
	height  int
	focused bool
	marked  map[int64]bool
	pg      common.Pager

	lastRefresh time.Time
	// windowFrom is the server's time (client.ServerReached) when the answer that last
	// brought every loaded row up to date came: a first page or a merge, never a later page
	// (the rows above it are older). The next "updated since" window starts there.
	windowFrom time.Time
	// countStale: the query changed and its first page has not arrived yet, so the count
	// the pager holds is the previous query's.
	countStale bool

	cache      map[int64]cachedEntry // rendered unselected entries at cacheWidth
	cacheWidth int

	// Topics and widgets seen on any row loaded in this context, by id (the API lists
	// neither): the filter form and the topics form offer them and the header names them,
	// whatever the current query left.
	seenTopics, seenWidgets map[int64]string
	// seenTopicTexts are the seen topics as the API spells them (never laid out).
	seenTopicTexts map[int64]string

	// pinned is a conversation opened from elsewhere (a contact's detail, a navigation
	// event) that is not among the loaded rows. It shows above them, marked "»", so that
	// the list says which conversation the thread and detail show instead of pointing at
	// another row; it goes when its row loads (the cursor then moves onto that row), when
	// the query changes and when it is deleted. pinFrom says where it was opened.
	pinned   *Row
	pinFrom  string
	onPinned bool // the cursor is on the pinned row
}

// cachedEntry is a rendered row and the age it shows: it is drawn again when the age
// shown for the row would change ("2m" becomes "3m").
type cachedEntry struct {
	text string
	when string
}

// New returns an empty list; Load fetches the first page.
func New(ctx *common.Ctx) Model {
	return Model{ctx: ctx, index: map[int64]int{}, marked: map[int64]bool{}, cache: map[int64]cachedEntry{},
		seenTopics: map[int64]string{}, seenWidgets: map[int64]string{}, seenTopicTexts: map[int64]string{}}
}

// remember notes the topics and widgets of rows.
func (m *Model) remember(rows []Row) {
	for _, r := range rows {
		m.ctx.LearnContact(r.ContactID, r.Name)
		for i, id := range r.TopicIDs {
			if i < len(r.Topics) && r.Topics[i] != "" {
				m.seenTopics[id] = r.Topics[i]
			}
			if i < len(r.TopicTexts) {
				m.seenTopicTexts[id] = r.TopicTexts[i]
			}
		}
		if r.WidgetID != 0 && r.WidgetName != "" {
			m.seenWidgets[r.WidgetID] = r.WidgetName
		}
	}
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
	for _, o := range byName(m.seenTopics) {
		if text, ok := m.seenTopicTexts[o.id]; ok {
			out = append(out, Topic{Name: o.name, Text: text})
		}
	}
	return out
}

// ForgetSeen forgets the topics and widgets seen (another organization has its own).
func (m *Model) ForgetSeen() {
	clear(m.seenTopics)
	clear(m.seenTopicTexts)
	clear(m.seenWidgets)
}

// Query is the current query.
func (m Model) Query() Query { return m.q }

// Rows are the loaded rows.
func (m Model) Rows() []Row { return m.rows }

// Total is the server's count for the query.
func (m Model) Total() int { return m.pg.Total }

// Loading reports a request in flight.
func (m Model) Loading() bool { return m.pg.Loading }

// Loaded reports that the first page of the query arrived (or failed).
func (m Model) Loaded() bool { return m.pg.Loaded }

// LastRefresh is when the list last got data.
func (m Model) LastRefresh() time.Time { return m.lastRefresh }

// Row returns the loaded (or pinned) row of conversation id.
func (m Model) Row(id int64) (Row, bool) {
	if i, ok := m.index[id]; ok {
		return m.rows[i], true
	}
	if m.pinned != nil && m.pinned.ID == id {
		return *m.pinned, true
	}
	return Row{}, false
}

// Selected returns the row under the cursor (the pinned one when the cursor is on it).
func (m Model) Selected() (Row, bool) {
	if m.onPinned && m.pinned != nil {
		return *m.pinned, true
	}
	i, ok := m.pg.RowAt(m.win.Cursor)
	if !ok || i < 0 || i >= len(m.rows) {
		return Row{}, false // a row of the gap, not loaded yet
	}
	return m.rows[i], true
}

// positions is how many rows the cursor moves over: those loaded and those of the gap that
// bottom (G) leaves between the first pages and the last one.
func (m Model) positions() int { return m.pg.Len(len(m.rows)) }

// Marked returns the marked ids in list order.
func (m Model) Marked() []Row {
	var out []Row
	for _, r := range m.rows {
		if m.marked[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	if w != m.width {
		clear(m.cache)
	}
	m.width, m.height = w, h
	m.fitWindow()
}

// Focus and Blur toggle the selection style.
func (m *Model) Focus() { m.focused = true }

// Blur marks the list as not focused.
func (m *Model) Blur() { m.focused = false }

// SetQuery replaces the query and loads its first page.
func (m *Model) SetQuery(q Query) tea.Cmd {
	if q.Ordering == DefaultOrdering {
		q.Ordering = ""
	}
	m.q = q
	return m.loadQuery()
}

// Load fetches the first page of the current query again (fresh skips the response
// cache); the cursor stays on the selected row when the new rows have it.
func (m *Model) Load(fresh bool) tea.Cmd { return m.fetchFirst(m.startFirst(true), fresh) }

// loadQuery fetches the first page of a changed query (search, filters, status, ordering):
// its rows show from the top, as the first rows are what the new query is for.
func (m *Model) loadQuery() tea.Cmd {
	m.countStale = true
	m.Unpin() // the new query's first row is what it is for
	return m.fetchFirst(m.startFirst(false), false)
}

// startFirst begins a first page: answers to earlier requests are dropped from now on.
// With keep, the cursor stays on the selected row when the new rows have it; else the new
// rows show from the first.
func (m *Model) startFirst(keep bool) common.Request {
	r, _ := m.Selected()
	m.pg.Cap = m.ctx.OffsetCap
	return m.pg.Start(keep, r.ID)
}

// fetchFirst asks for the first page of the current query as the answer to r.
func (m *Model) fetchFirst(r common.Request, fresh bool) tea.Cmd {
	c, opts, now := m.ctx.Client, m.listOptions(m.q), m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(requestTimeout, fresh)
		defer cancel()
		p, err := c.ListConversations(ctx, opts)
		if err != nil {
			err = fmt.Errorf("conversations: %w", err)
		}
		return pageMsg{Page: common.FirstPage(r, p, err, RowFrom, now()), reached: c.ServerReached()}
	}
}

// reloadSoon shows the changed query at once (its header, the rows marked as loading and
// every answer to the previous query dropped) and asks for its first page after
// ReloadDelay, unless another change comes first.
func (m *Model) reloadSoon() tea.Cmd {
	m.countStale = true
	m.Unpin() // the new query's first row is what it is for
	return common.Tick(ReloadDelay, reloadMsg{req: m.startFirst(false)})
}

// listOptions are the request options of q: no ordering with a search (results come in
// rank order) or for the server's default, so the default query keeps one URL.
func (m Model) listOptions(q Query) client.ConversationListOptions {
	return client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: m.ctx.PageLimit(), Ordering: requestOrdering(q), Search: q.Search},
		Filter:      q.Filter,
	}
}

// requestOrdering is the ordering parameter q sends ("" = none).
func requestOrdering(q Query) string {
	if q.Search != "" || q.Ordering == DefaultOrdering {
		return ""
	}
	return q.Ordering
}

// canContinue reports whether browsing may go on past the offset cap through /all/: only
// id orderings without search map onto the cursor endpoint.
func (m Model) canContinue() bool {
	return m.q.Search == "" && (m.q.Ordering == "" || m.q.Ordering == "-id" || m.q.Ordering == "id")
}

// cursorKind is how the cursor endpoint serves the list's id ordering: walked backwards
// (previous links, each page reversed) for id descending, forwards for id ascending.
func (m Model) cursorKind() common.LinkKind {
	if m.q.Ordering == "id" {
		return common.LinkAllNext
	}
	return common.LinkAllPrev
}

// more fetches the next page when there is one and nothing is in flight.
func (m *Model) more() tea.Cmd {
	if !m.pg.Ready() || len(m.rows) == 0 {
		return nil
	}
	link, kind := m.pg.Link, m.pg.Kind
	// The rows before the gap (all of them without one): the page after them is asked for.
	before := m.pg.Contiguous(len(m.rows))
	if before == 0 {
		return nil
	}
	if link == "" {
		// Past the offset cap by the rows loaded, whatever the count says (it may be the
		// capped one): an id ordering goes on through /all/.
		if !m.pg.PastCap(len(m.rows)) || !m.canContinue() {
			return nil
		}
		kind = m.cursorKind()
	}
	r := m.pg.Next()
	c, q, limit, now := m.ctx.Client, m.q, m.ctx.PageLimit(), m.ctx.Now
	cursor := fmt.Sprint(m.rows[before-1].ID)
	if kind == common.LinkAllPrev {
		cursor = "-" + cursor
	}
	first := func(ctx context.Context) (*client.CursorPage[client.Conversation], error) {
		return c.ConversationsAllPage(ctx, client.AllConversationsOptions{
			Filter:        q.Filter,
			CursorOptions: client.CursorOptions{Cursor: cursor, Limit: limit, Ordering: "id"},
		})
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p := common.FetchNext(ctx, c, r, link, kind, first, RowFrom)
		if p.Err != nil {
			what := "conversations"
			if kind != common.LinkOffset {
				what = "conversations (all)"
			}
			p.Err = fmt.Errorf("%s: %w", what, p.Err)
		}
		p.At = now()
		return pageMsg{Page: p}
	}
}

// jumpEnd readies bottom (G). Past the offset cap, or at it with a count that may be the
// capped one, a list for an id ordering asks the /all/ cursor endpoint for its last rows
// (the command returned). Else the cursor goes to the last row the offset endpoint reaches
// (the list's prefetch asks for its page): the count's last, or for an ordering /all/ cannot
// serve the cap's, and a toast says that G stops there.
func (m *Model) jumpEnd() tea.Cmd {
	if !m.canContinue() || !m.pg.BeyondCap() {
		m.pg.JumpEnd(len(m.rows))
		if m.pg.BeyondCap() {
			hint := "; order by id (o) to reach the last conversation"
			if m.q.Search != "" {
				hint = " (ranked search results)"
			}
			return common.Toast(fmt.Sprintf("The API lists at most %s conversations in this order: G goes to the last of those%s.",
				common.Thousands(m.pg.Reach()), hint))
		}
		return nil
	}
	r, ok := m.pg.JumpPastCap(len(m.rows))
	if !ok {
		return nil
	}
	c, q, limit, now := m.ctx.Client, m.q, m.ctx.PageLimit(), m.ctx.Now
	desc := m.cursorKind() == common.LinkAllPrev
	all := func(ctx context.Context, cursor string) (*client.CursorPage[client.Conversation], error) {
		return c.ConversationsAllPage(ctx, client.AllConversationsOptions{
			Filter:        q.Filter,
			CursorOptions: client.CursorOptions{Cursor: cursor, Limit: limit, Ordering: "id"},
		})
	}
	newest := func(ctx context.Context) (*client.Page[client.Conversation], error) {
		// The default order (id descending): its first page is the newest conversations.
		return c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: limit}, Filter: q.Filter})
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p := common.FetchBottom(ctx, r, desc, all, newest, RowFrom, rowID)
		if p.Err != nil {
			p.Err = fmt.Errorf("conversations (all): %w", p.Err)
		}
		p.At = now()
		return pageMsg{Page: p}
	}
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
	if !m.pg.Loaded || m.pg.Loading || m.countStale {
		return nil
	}
	from := m.windowFrom
	if from.IsZero() {
		from = m.lastRefresh // no first page has been answered: only the local time is known
	}
	since := from.Add(-RefreshOverlap)
	gen := m.pg.Gen()
	q := m.q
	if q.Filter.UpdatedAtFromDate.After(since) {
		since = q.Filter.UpdatedAtFromDate
	}
	q.Filter.UpdatedAtFromDate = since
	c, opts, now := m.ctx.Client, m.listOptions(q), m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(requestTimeout, true)
		defer cancel()
		p, err := c.ListConversations(ctx, opts)
		if err != nil {
			return mergeMsg{gen: gen, err: fmt.Errorf("conversations updated since %s: %w", since.UTC().Format(time.RFC3339), err)}
		}
		return mergeMsg{gen: gen, rows: common.Map(p.Results, RowFrom), at: now(), reached: c.ServerReached()}
	}
}

// Update handles pages and, when focused, keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	m, cmd := m.update(msg)
	m.fitWindow() // the header may have changed
	return m, cmd
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case pageMsg:
		return m.onPage(msg)
	case mergeMsg:
		return m.onMerge(msg)
	case reloadMsg:
		if msg.req.Gen != m.pg.Gen() {
			return m, nil // a later change (or load) superseded it
		}
		return m, m.fetchFirst(msg.req, false)
	case common.OperatorsLoadedMsg:
		clear(m.cache) // rows show operator names
		return m, nil
	case SearchMsg:
		m.q.Search = strings.TrimSpace(msg.Text)
		return m, m.loadQuery()
	case FilterMsg:
		m.q.Filter = msg.Filter
		return m, m.loadQuery()
	case tea.KeyMsg:
		if m.focused {
			return m.onKey(msg)
		}
	}
	return m, nil
}

func (m Model) onPage(msg pageMsg) (Model, tea.Cmd) {
	// A page into the gap moves the rows after it: the cursor stays on its row, or on the
	// last one when it was there (bottom before the last page arrived).
	selected, _ := m.Selected()
	atEnd := m.win.Cursor == m.positions()-1
	rows, ok := common.AddPage(&m.pg, m.rows, m.index, msg.Page, rowID)
	if !ok {
		return m, nil // stale: an older query or a superseded request
	}
	if msg.Err != nil {
		return m, common.ErrorToast(msg.Err)
	}
	var note tea.Cmd
	if msg.Where == common.LastPage && len(msg.Rows) == 0 {
		note = common.Toast("The end of this list cannot be had directly: G goes to the last conversation loaded.")
	}
	m.rows = rows
	m.remember(msg.Rows)
	m.lastRefresh = msg.At
	if msg.Replace {
		m.windowFrom = msg.reached
		m.countStale = false
		clear(m.cache)
		m.win.Reset()
		if i, ok := common.KeepAt(msg.Request, m.index, selected.ID); ok {
			m.win.Cursor = i
		}
		for id := range m.marked {
			if _, ok := m.index[id]; !ok {
				delete(m.marked, id)
			}
		}
	} else if !m.onPinned {
		if i, ok := m.index[selected.ID]; ok && selected.ID != 0 && (msg.Where != common.LastPage || !atEnd) {
			m.win.Cursor = m.pg.PosOf(i)
		} else if atEnd {
			// Bottom (G) was pressed for the last page: the cursor goes to the last row.
			m.win.Cursor = m.positions() - 1
		}
	}
	m.win.Clamp(m.positions())
	m.settlePin()
	return m, tea.Batch(note, m.prefetch(), func() tea.Msg { return common.RefreshedMsg{At: msg.At} })
}

func rowID(r Row) int64 { return r.ID }

// onMerge takes the conversations updated since the last refresh. Loaded rows are updated
// in place. An unloaded row is either new or an old conversation edited elsewhere, and the
// list inserts it only where its place is certain: on top, in the default order (id
// descending) when its id is above every loaded id, and with -last_message_sent_at when its
// last message is later than every loaded row's. The merge query's count is the number
// of changed conversations, not the list's, so the total grows only by the conversations
// that are new to it: those with an id above every loaded id.
func (m Model) onMerge(msg mergeMsg) (Model, tea.Cmd) {
	if msg.gen != m.pg.Gen() || !m.pg.Loaded || m.countStale {
		return m, nil
	}
	if msg.err != nil {
		return m, nil // auto-refresh failures stay quiet; the status bar shows rate limits
	}
	m.lastRefresh = msg.at
	m.windowFrom = msg.reached
	m.remember(msg.rows)
	selected := int64(0)
	if r, ok := m.Selected(); ok {
		selected = r.ID
	}
	var unloaded []Row
	for _, r := range msg.rows {
		if m.pinned != nil && m.pinned.ID == r.ID {
			*m.pinned = r
		}
		if i, ok := m.index[r.ID]; ok {
			m.rows[i] = r
			delete(m.cache, r.ID)
			continue
		}
		unloaded = append(unloaded, r)
	}
	top, added := m.aboveAll(unloaded)
	if len(top) > 0 {
		m.rows = append(top, m.rows...)
		m.pg.Shift(len(top))
		// A row that moved up from past the loaded pages is already counted; the rows
		// loaded are always counted.
		m.pg.Total = max(m.pg.Total+added, m.positions())
		common.Reindex(m.index, m.rows, rowID)
		if i, ok := m.index[selected]; ok && !m.onPinned {
			m.win.Cursor = m.pg.PosOf(i)
			m.win.Offset += len(top)
		}
		m.win.Clamp(m.positions())
		m.settlePin()
	}
	return m, func() tea.Msg { return common.RefreshedMsg{At: msg.at} }
}

// aboveAll picks, of rows that are not loaded, those that certainly sort above every loaded
// row (in list order), and counts those new to the list (id above every loaded id).
func (m Model) aboveAll(rows []Row) (top []Row, added int) {
	if len(rows) == 0 || len(m.rows) == 0 || m.q.Search != "" {
		return nil, 0 // ranked results have no place to compute
	}
	var maxID int64
	var latest time.Time
	for _, r := range m.rows {
		maxID = max(maxID, r.ID)
		if r.LastAt.After(latest) {
			latest = r.LastAt
		}
	}
	switch m.orderingOrDefault() {
	case DefaultOrdering:
		for _, r := range rows {
			if r.ID > maxID {
				top = append(top, r)
			}
		}
		slices.SortFunc(top, func(a, b Row) int { return cmp.Compare(b.ID, a.ID) })
	case "-last_message_sent_at":
		// The first row without a time could mean the server puts those first: then no
		// place is certain.
		if m.rows[0].LastAt.IsZero() {
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
// server's default.
func (m Model) orderingOrDefault() string {
	if m.q.Ordering == "" {
		return DefaultOrdering
	}
	return m.q.Ordering
}

// Pin shows conversation id, opened from elsewhere (from: "a contact", "navigation") and not
// among the loaded rows, above them with the cursor on it. Its row fills in with UpdateRow
// (the detail of the conversation brings it).
func (m *Model) Pin(id int64, from string) {
	m.pinned, m.pinFrom, m.onPinned = &Row{ID: id}, from, true
	m.win.Reset()
	m.fitWindow()
}

// Pinned is the id of the pinned conversation (0: none).
func (m Model) Pinned() int64 {
	if m.pinned == nil {
		return 0
	}
	return m.pinned.ID
}

// Unpin drops the pinned row; the cursor goes back to the list's rows.
func (m *Model) Unpin() {
	m.pinned, m.onPinned = nil, false
	m.fitWindow()
}

// settlePin drops the pinned row once its conversation is among the loaded rows, with the
// cursor on that row when it was on the pinned one.
func (m *Model) settlePin() {
	if m.pinned == nil {
		return
	}
	i, ok := m.index[m.pinned.ID]
	if !ok {
		return
	}
	if m.onPinned {
		m.win.Cursor = m.pg.PosOf(i)
	}
	m.Unpin()
}

// Preload shows conversations the caller already has (tests and benchmarks), as if they
// were the loaded pages of the current query, with total as the server's count.
func (m *Model) Preload(convs []client.Conversation, total int) {
	m.rows = common.Map(convs, RowFrom)
	m.remember(m.rows)
	common.Reindex(m.index, m.rows, rowID)
	clear(m.cache)
	m.pg.Reset()
	m.pg.Cap = m.ctx.OffsetCap
	m.pg.Total, m.pg.Kind, m.pg.Loaded = max(total, len(m.rows)), common.LinkOffset, true
	m.win.Reset()
	m.Unpin()
}

// UpdateRow replaces one row in place (after an edit, or when a detail arrives) when it is
// loaded or pinned.
func (m *Model) UpdateRow(r Row) {
	m.remember([]Row{r})
	if i, ok := m.index[r.ID]; ok {
		m.rows[i] = r
		delete(m.cache, r.ID)
	}
	if m.pinned != nil && m.pinned.ID == r.ID {
		*m.pinned = r
	}
}

// SelectID puts the cursor on the row with id when it is loaded (a row pinned before then
// goes), or on the pinned row when it is that one, and reports whether it did.
func (m *Model) SelectID(id int64) bool {
	if i, ok := m.index[id]; ok {
		m.onPinned = false
		m.win.Cursor = m.pg.PosOf(i)
		m.Unpin()
		return true
	}
	if m.pinned != nil && m.pinned.ID == id {
		m.onPinned = true
		return true
	}
	return false
}

// RemoveRows drops rows by id (after a delete) and keeps the cursor near where it was.
func (m *Model) RemoveRows(ids []int64) {
	for _, id := range ids {
		delete(m.marked, id)
		if m.pinned != nil && m.pinned.ID == id {
			m.Unpin()
		}
	}
	var removed int
	m.rows, removed = common.RemoveRows(m.rows, m.index, ids, rowID, &m.win, &m.pg)
	m.pg.Total = max(m.positions(), m.pg.Total-removed)
	m.fitWindow()
}

// ClearMarks unmarks every row.
func (m *Model) ClearMarks() {
	clear(m.marked)
	clear(m.cache) // rows show their mark
}

// CanClear reports whether esc has something to clear (marks, search, then filters).
func (m Model) CanClear() bool { return len(m.marked) > 0 || m.q.Search != "" || !m.q.Filter.IsZero() }

// Clear drops the marks; without marks the search, or when there is none the filters, and
// reloads (as the contacts list does).
func (m *Model) Clear() tea.Cmd {
	switch {
	case len(m.marked) > 0:
		m.ClearMarks()
		return nil
	case m.q.Search != "":
		m.q.Search = ""
	case !m.q.Filter.IsZero():
		m.q.Filter = client.ConversationFilter{}
	default:
		return nil
	}
	return m.loadQuery()
}

func (m Model) onKey(msg tea.KeyMsg) (Model, tea.Cmd) {
	k := m.ctx.Keys
	if m.pinned != nil && m.movePinned(msg) {
		return m, m.prefetch()
	}
	var bottom tea.Cmd
	if key.Matches(msg, k.Bottom) && !m.countStale {
		// The count's last row, by loading the last page (not every page before it).
		bottom = m.jumpEnd()
	}
	if m.win.HandleMoveKey(msg, k, m.positions()) {
		return m, tea.Batch(bottom, m.prefetch())
	}
	switch {
	case key.Matches(msg, k.Mark) && m.onPinned:
		// The pinned row is not one of the query's rows, which marks are for.
	case key.Matches(msg, k.Mark):
		if r, ok := m.Selected(); ok {
			if m.marked[r.ID] {
				delete(m.marked, r.ID)
			} else {
				m.marked[r.ID] = true
			}
			delete(m.cache, r.ID)
			m.win.Move(1, m.positions())
		}
	case key.Matches(msg, k.Status):
		i := slices.Index(StatusCycle, m.q.Filter.Status)
		m.q.Filter.Status = StatusCycle[(i+1)%len(StatusCycle)]
		return m, m.reloadSoon()
	case key.Matches(msg, k.Order):
		if m.q.Search != "" {
			return m, common.Toast("Search results come in rank order: esc clears the search, then o orders the list.")
		}
		i := slices.Index(OrderingCycle, m.orderingOrDefault())
		m.q.Ordering = OrderingCycle[(i+1)%len(OrderingCycle)]
		if m.q.Ordering == DefaultOrdering {
			m.q.Ordering = ""
		}
		return m, m.reloadSoon()
	case key.Matches(msg, k.Back):
		return m, m.Clear()
	case key.Matches(msg, k.Refresh):
		if m.pg.RetryNext() {
			// Ask for the page that failed again: the rows loaded and the cursor stay.
			if cmd := m.more(); cmd != nil {
				return m, cmd
			}
		}
		return m, m.Load(true)
	default:
		return m, nil
	}
	return m, m.prefetch()
}

// movePinned moves the cursor onto or off the pinned row, which sits above the first row:
// up (or a page up) from the first row and top go onto it, down from it goes to the first
// row. It reports whether msg was such a move; other moves off it start at the first row.
func (m *Model) movePinned(msg tea.KeyMsg) bool {
	k := m.ctx.Keys
	up := key.Matches(msg, k.Up) || key.Matches(msg, k.PageUp)
	switch {
	case m.onPinned && (up || key.Matches(msg, k.Top)):
		return true
	case m.onPinned && key.Matches(msg, k.Down):
		m.onPinned = false
		m.win.Reset()
		return true
	case m.onPinned && (key.Matches(msg, k.PageDown) || key.Matches(msg, k.Bottom)):
		m.onPinned = false
		m.win.Reset()
		return false // the move goes on from the first row
	case !m.onPinned && (key.Matches(msg, k.Top) || up && m.win.Cursor == 0):
		m.onPinned = true
		m.win.Reset()
		return true
	}
	return false
}

// prefetch asks for the next page once the cursor is within a screen of the loaded end,
// and with a gap for the page on the side of it the cursor nears.
func (m *Model) prefetch() tea.Cmd {
	w, ok := m.pg.Want(len(m.rows), m.win.Cursor, m.win.Visible())
	switch {
	case !ok:
		return nil
	case w == common.AfterLoaded:
		return m.more()
	}
	return m.fetchGap(w)
}

// fetchGap asks for the last page (by its offset) or the page before the last ones (by
// their previous link).
func (m *Model) fetchGap(w common.Where) tea.Cmd {
	r := m.pg.Begin(w, m.ctx.PageLimit())
	c, now := m.ctx.Client, m.ctx.Now
	if w == common.BeforeLast {
		link, kind := m.pg.Gap.Prev, m.pg.Gap.Cursor
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
			defer cancel()
			p := common.FetchBeforeLast(ctx, c, r, link, kind, RowFrom)
			if p.Err != nil {
				p.Err = fmt.Errorf("conversations: %w", p.Err)
			}
			p.At = now()
			return pageMsg{Page: p}
		}
	}
	opts := m.listOptions(m.q)
	opts.Offset = r.Offset
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p, err := c.ListConversations(ctx, opts)
		if err != nil {
			err = fmt.Errorf("conversations: %w", err)
		}
		return pageMsg{Page: common.FirstPage(r, p, err, RowFrom, now())}
	}
}

// itemHeight is 1 line per conversation when the pane is wide enough, else 2.
func (m Model) itemHeight() int {
	if m.width >= wideRow {
		return 1
	}
	return 2
}

// wideRow is the pane width from which a conversation takes one line.
const wideRow = 76

// bodyHeight is the lines left for the rows (below the header and the pinned row, above
// the footer line).
func (m Model) bodyHeight() int { return max(0, m.height-len(m.headerLines())-m.pinnedHeight()-1) }

// pinnedHeight is the lines of the pinned row (0 without one).
func (m Model) pinnedHeight() int {
	if m.pinned == nil {
		return 0
	}
	return m.itemHeight()
}

// fitWindow sizes the window to the rows that fit below the header, which takes a second
// line when one cannot show the query: call it after anything that changes the header.
func (m *Model) fitWindow() {
	m.win.SetSize(m.bodyHeight() / m.itemHeight())
	m.win.Clamp(m.positions())
}

// ShortHelp lists the list's keys.
func (m Model) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{k.Down, k.Up, k.Open, k.Search, k.Filter, k.Status, k.Order, k.Mark}
}

// FullHelp lists the list's keys by group.
func (m Model) FullHelp() [][]key.Binding {
	k := m.ctx.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom, k.PageDown, k.PageUp, k.Open},
		{k.Search, k.Filter, k.Status, k.Order, k.Back, k.Refresh, k.Mark, k.Delete, k.CopyID, k.Topics, k.Note},
	}
}

// View renders the header, the visible window of entries and the footer, exactly
// width×height.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.cacheWidth != m.width {
		clear(m.cache)
		m.cacheWidth = m.width
	}
	var b strings.Builder
	b.Grow((m.width + 16) * m.height)
	header := m.headerLines()
	for i, l := range header {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(common.Pad(m.ctx.Styles.HeaderLine.Render(l), m.width))
	}
	lines := len(header)
	now := m.ctx.ServerNow() // ages by the server's clock, which stamped the rows
	if m.pinned != nil && m.height-lines-1 >= m.itemHeight() {
		b.WriteString("\n")
		b.WriteString(m.pinnedEntry(now))
		lines += m.itemHeight()
	}
	top := lines // header and pinned row
	body := max(0, m.height-top-1)
	switch {
	case len(m.rows) == 0:
		msg := []string{"  No conversations match."}
		switch {
		case !m.pg.Loaded || m.pg.Loading:
			msg = []string{"  Loading conversations…"}
		case m.pg.Err != nil:
			msg = common.LoadFailedLines(m.pg.Err, m.ctx.Keys.Refresh.Help().Key, m.width, min(4, body))
		}
		for _, l := range msg[:min(len(msg), max(1, body))] {
			b.WriteString("\n")
			b.WriteString(common.Fit(m.ctx.Styles.Muted.Render(l), m.width))
			lines++
		}
	default:
		end := m.win.End(m.positions())
		for pos := m.win.Offset; pos < end && lines-top+m.itemHeight() <= body; pos++ {
			b.WriteString("\n")
			selected := pos == m.win.Cursor && !m.onPinned
			if i, ok := m.pg.RowAt(pos); ok && i < len(m.rows) {
				b.WriteString(m.entry(i, selected, now))
			} else {
				b.WriteString(strings.Join(common.GapEntry(m.ctx.Styles, selected, m.focused, m.itemHeight(), m.width), "\n"))
			}
			lines += m.itemHeight()
		}
	}
	for lines < body+top {
		b.WriteString("\n")
		b.WriteString(strings.Repeat(" ", m.width))
		lines++
	}
	b.WriteString("\n")
	b.WriteString(common.Fit(m.footer(), m.width))
	return b.String()
}

// entry renders row i, highlighted when selected; else from the cache when its age at now
// still reads the same (the clock moves on while the list waits for a key).
func (m *Model) entry(i int, selected bool, now time.Time) string {
	r := &m.rows[i]
	when := common.RelTime(r.LastAt, now)
	if selected {
		return m.selectedEntry(r, when)
	}
	if c, ok := m.cache[r.ID]; ok && c.when == when {
		return c.text
	}
	s := m.renderEntry(r, when, true)
	m.cache[r.ID] = cachedEntry{text: s, when: when}
	return s
}

// selectedEntry renders r highlighted as the row under the cursor.
func (m *Model) selectedEntry(r *Row, when string) string {
	return common.RenderLines(m.renderEntry(r, when, false), common.SelectedStyle(m.ctx.Styles, m.focused))
}

// pinnedEntry renders the pinned row (its number until its detail arrives), highlighted
// when the cursor is on it; its age is told at now.
func (m *Model) pinnedEntry(now time.Time) string {
	r := *m.pinned
	when := ""
	if !r.LastAt.IsZero() {
		when = common.RelTime(r.LastAt, now)
	}
	if r.Status == "" && r.Name == "" && r.Email == "" {
		r.Name = fmt.Sprintf("#%d", r.ID)
	}
	if m.onPinned {
		return m.selectedEntry(&r, when)
	}
	return m.renderEntry(&r, when, true)
}

// renderEntry lays a row out at the pane width with its age when; styled=false gives plain
// text for the selection highlight (nested styles would break its background).
func (m *Model) renderEntry(r *Row, when string, styled bool) string {
	st := m.ctx.Styles
	paint := common.PaintIf(styled)
	w := m.width
	mark := " "
	switch {
	case m.pinned != nil && r.ID == m.pinned.ID:
		mark = paint("»", st.Marked) // opened from elsewhere, not among the rows
	case m.marked[r.ID]:
		mark = paint("*", st.Marked)
	}
	sym, word := common.StatusSymbol(r.Status)
	status := paint(common.Pad(sym+" "+word, 9), common.StatusStyle(st, r.Status))
	unread := "  "
	if r.Unread {
		unread = paint("•", st.Unread) + " "
	}
	name := r.Name
	if name == "" {
		name = r.Email
	}
	if name == "" {
		name = "(no name)"
	}
	op := m.operatorName(r.OperatorID)
	pv := r.Preview
	if r.PreviewFromOperator && pv != "" {
		pv = "↩ " + pv
	}
	if w >= wideRow {
		nameW := clamp(w/5, 12, 24)
		timeW := 6
		// Every one-line row names the operator and the topics (a list pane of 78 columns
		// at 200 or at 80 columns included); the preview takes what is left.
		opW, topW := clamp(w/8, 10, 16), clamp(w/7, 10, 24)
		fixed := 1 + 9 + 1 + 2 + nameW + 1 + timeW + 2 + opW + 1 + topW + 1
		pvW := max(0, w-fixed)
		var b strings.Builder
		b.WriteString(mark)
		b.WriteString(status)
		b.WriteString(" ")
		b.WriteString(unread)
		b.WriteString(paint(common.Pad(name, nameW), st.Bold))
		b.WriteString(" ")
		b.WriteString(common.Pad(pv, pvW))
		b.WriteString(" ")
		b.WriteString(paint(common.Pad(topicsCell(r.Topics, topW), topW), st.Topic))
		b.WriteString(" ")
		b.WriteString(paint(common.Pad(op, opW), st.Muted))
		b.WriteString(" ")
		b.WriteString(paint(common.PadLeft(when, timeW), st.Muted))
		b.WriteString(" ")
		return common.Fit(b.String(), w)
	}
	// Two lines: status, unread, name, time / preview, topics, operator. The operator is
	// never cut for the topics: they shrink to what is left ("Billing +2").
	timeW := 6
	nameW := max(1, w-1-9-1-2-1-timeW)
	line1 := mark + status + " " + unread + paint(common.Pad(name, nameW), st.Bold) + " " +
		paint(common.PadLeft(when, timeW), st.Muted)
	tailMax := max(0, (w-3)/2)
	tail := ansi.Truncate(op, tailMax, "…")
	if room := tailMax - ansi.StringWidth(op) - 3; len(r.Topics) > 0 && room > 0 {
		if t := topicsCell(r.Topics, room); t != "" {
			tail = t + " · " + op
		}
	}
	tailW := ansi.StringWidth(tail)
	pvW := max(0, w-3-tailW-1)
	line2 := "   " + paint(common.Pad(pv, pvW), st.Muted) + " " + paint(common.PadLeft(tail, tailW), st.Topic)
	return common.Fit(line1, w) + "\n" + common.Fit(line2, w)
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

func (m Model) operatorName(id int64) string {
	if id == 0 {
		return "unassigned"
	}
	if n, ok := m.ctx.Operators[id]; ok && n != "" {
		return n
	}
	return fmt.Sprintf("operator %d", id)
}

// headerLines describes the query in one line, or two when one cannot show every part:
// the total, search, status, filters and ordering (see headerParts).
func (m Model) headerLines() []string {
	return common.FitHeader(m.headerParts(), m.width, maxHeaderLines)
}

// maxHeaderLines is the most lines the header takes (a narrow pane with a search and
// filters).
const maxHeaderLines = 2

// headerParts are the header's parts, each in forms from the longest to the shortest: the
// noun goes first, then "status:all" (and the words "search:" and "order:"), then long
// search and filter values are cut, each on its own.
func (m Model) headerParts() []common.HeaderPart {
	count := "…"
	noun := " conversations"
	if m.pg.Loaded && !m.countStale && !(m.pg.Err != nil && len(m.rows) == 0) {
		count = m.pg.Count() // "10,000+" while the count may be the capped one
		if m.pg.One() {
			noun = " conversation"
		}
	}
	parts := []common.HeaderPart{{count + noun, count}}
	if s := sanitize.Line(m.q.Search); s != "" {
		parts = append(parts, common.HeaderPart{fmt.Sprintf("search:%q (ranked)", s), fmt.Sprintf("search:%q", s),
			fmt.Sprintf("%q", s), fmt.Sprintf("%q", common.ShortValue(s, 12))})
	}
	if status := m.q.Filter.Status; status == "" {
		parts = append(parts, common.HeaderPart{"status:all", "status:all", ""})
	} else {
		parts = append(parts, common.HeaderPart{"status:" + status, "status:" + status, status})
	}
	for _, f := range DescribeFilter(m.q.Filter, m.ctx.Operators, m.seenTopics, m.seenWidgets) {
		parts = append(parts, common.HeaderPart{f, f, f, common.ShortValue(f, 16)})
	}
	if m.q.Search == "" {
		o := m.orderingOrDefault()
		parts = append(parts, common.HeaderPart{"order:" + o, "order:" + o, "by " + shortOrdering(o)})
	}
	return parts
}

// shortOrdering names an ordering in a few cells ("-last_message_sent_at": "last msg↓").
func shortOrdering(o string) string {
	arrow := "↑"
	if strings.HasPrefix(o, "-") {
		arrow = "↓"
	}
	switch strings.TrimPrefix(o, "-") {
	case "id":
		return "id" + arrow
	case "last_message_sent_at":
		return "last msg" + arrow
	case "contact_last_message_sent_at":
		return "contact last" + arrow
	case "contact_first_message_sent_at":
		return "contact first" + arrow
	case "contact_last_update_at":
		return "contact upd" + arrow
	}
	return o
}

// footer shows the position, loading state and the offset cap.
func (m Model) footer() string {
	st := m.ctx.Styles
	if m.onPinned && m.pinned != nil {
		from := "elsewhere"
		if m.pinFrom != "" {
			from = m.pinFrom
		}
		long := fmt.Sprintf(" » #%d not in this list (from %s)", m.pinned.ID, from)
		if ansi.StringWidth(long) > m.width {
			long = fmt.Sprintf(" » #%d not in this list", m.pinned.ID)
		}
		return st.Muted.Render(long)
	}
	if len(m.rows) == 0 {
		return ""
	}
	pos := fmt.Sprintf(" %s/%s", common.Thousands(m.win.Cursor+1), m.pg.Count())
	if n := len(m.marked); n > 0 {
		pos += st.Marked.Render(fmt.Sprintf(" · %d marked", n))
	}
	switch {
	case m.pg.NextFailed():
		return pos + " · " + st.Error.Render("next page failed; r retries it")
	case m.pg.Err != nil:
		return pos + " · " + st.Error.Render("load failed; r retries")
	case m.pg.Loading:
		return pos + " · " + st.Loading.Render("loading…")
	case m.pg.PastCap(len(m.rows)) && !m.canContinue():
		return pos + " · " + st.Warning.Render(fmt.Sprintf("API shows at most %s; order by id (o) to browse all", common.Thousands(m.pg.Reach())))
	case m.pg.Kind != common.LinkOffset && m.pg.Kind != common.LinkNone:
		return pos + st.Muted.Render(fmt.Sprintf(" · past %s via /all/", common.Thousands(m.pg.Reach())))
	}
	return pos
}

// DescribeFilter lists the set filters (status excluded) in short words, naming the
// operator, topic and widget when their names are known.
func DescribeFilter(f client.ConversationFilter, ops, topics, widgets map[int64]string) []string {
	var out []string
	ts := func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }
	if f.OperatorID != 0 {
		name := ops[f.OperatorID]
		if name == "" {
			name = fmt.Sprint(f.OperatorID)
		}
		out = append(out, "operator:"+name)
	}
	named := func(kind string, id int64, names map[int64]string) string {
		if n := names[id]; n != "" {
			return kind + ":" + n
		}
		return fmt.Sprintf("%s:%d", kind, id)
	}
	if f.TopicID != 0 {
		out = append(out, named("topic", f.TopicID, topics))
	}
	if f.WidgetID != 0 {
		out = append(out, named("widget", f.WidgetID, widgets))
	}
	if f.ContactIdentityID != 0 {
		out = append(out, fmt.Sprintf("contact:%d", f.ContactIdentityID))
	}
	if f.ContactUUID != "" {
		out = append(out, "uuid:"+f.ContactUUID)
	}
	if f.IDGreaterThan != 0 {
		out = append(out, fmt.Sprintf("id>%d", f.IDGreaterThan))
	}
	if f.IDLessThan != 0 {
		out = append(out, fmt.Sprintf("id<%d", f.IDLessThan))
	}
	for _, d := range []struct {
		name string
		t    time.Time
	}{
		{"first≥", f.ContactFirstMessageFromDate}, {"first≤", f.ContactFirstMessageToDate},
		{"last≥", f.ContactLastMessageFromDate}, {"last≤", f.ContactLastMessageToDate},
		{"updated≥", f.UpdatedAtFromDate}, {"updated≤", f.UpdatedAtToDate},
		{"activity≥", f.LastActivityFromDate}, {"activity≤", f.LastActivityToDate},
	} {
		if !d.t.IsZero() {
			out = append(out, d.name+ts(d.t))
		}
	}
	return out
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }
