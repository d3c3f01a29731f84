package contacts

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
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

// ReloadDelay is how long the list waits after the last `o` before it asks for the new
// ordering: cycling through several orderings costs one request.
const ReloadDelay = 250 * time.Millisecond

type pageMsg common.Page[Row]

// reloadMsg is the end of a ReloadDelay: req is the first-page request started by the key
// press, stale once a later press (or any other load) started another.
type reloadMsg struct{ req common.Request }

// SearchMsg sets (or with "" clears) the server search.
type SearchMsg struct{ Text string }

// FilterMsg replaces every contact filter.
type FilterMsg struct{ Filter client.ContactFilter }

// List is the contact list pane.
type List struct {
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
	// countStale: the query changed and its first page has not arrived yet, so the count
	// the pager holds is the previous query's.
	countStale bool

	cache      map[int64]cachedEntry // rendered unselected entries at cacheWidth
	cacheWidth int
}

// cachedEntry is a rendered row and the age it shows: it is drawn again when the age
// shown for the row would change ("2m" becomes "3m").
type cachedEntry struct {
	text string
	when string
}

// NewList returns an empty list; Load fetches the first page.
func NewList(ctx *common.Ctx) List {
	return List{ctx: ctx, index: map[int64]int{}, marked: map[int64]bool{}, cache: map[int64]cachedEntry{}}
}

// Query is the current query.
func (m List) Query() Query { return m.q }

// Rows are the loaded rows.
func (m List) Rows() []Row { return m.rows }

// Total is the server's count for the query.
func (m List) Total() int { return m.pg.Total }

// Loading reports a request in flight.
func (m List) Loading() bool { return m.pg.Loading }

// Loaded reports that the first page arrived (or failed).
func (m List) Loaded() bool { return m.pg.Loaded }

// Cursor is the index of the selected row.
func (m List) Cursor() int { return m.win.Cursor }

// Selected returns the row under the cursor.
func (m List) Selected() (Row, bool) {
	i, ok := m.pg.RowAt(m.win.Cursor)
	if !ok || i < 0 || i >= len(m.rows) {
		return Row{}, false // a row of the gap, not loaded yet
	}
	return m.rows[i], true
}

// positions is how many rows the cursor moves over: those loaded and those of the gap that
// bottom (G) leaves between the first pages and the last one.
func (m List) positions() int { return m.pg.Len(len(m.rows)) }

// Row returns a loaded row by id.
func (m List) Row(id int64) (Row, bool) {
	i, ok := m.index[id]
	if !ok {
		return Row{}, false
	}
	return m.rows[i], true
}

// Marked returns the marked rows in list order.
func (m List) Marked() []Row {
	var out []Row
	for _, r := range m.rows {
		if m.marked[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// SetSize sets the pane's inner size.
func (m *List) SetSize(w, h int) {
	if w != m.width {
		clear(m.cache)
	}
	m.width, m.height = w, h
	m.fitWindow()
}

// Focus marks the list as focused.
func (m *List) Focus() { m.focused = true }

// Blur marks the list as not focused.
func (m *List) Blur() { m.focused = false }

// SetQuery replaces the query and loads its first page, shown from the top.
func (m *List) SetQuery(q Query) tea.Cmd {
	m.q = q
	return m.loadQuery()
}

// Load fetches the first page of the current query again (fresh skips the response
// cache); the cursor stays on the selected row when the new rows have it.
func (m *List) Load(fresh bool) tea.Cmd { return m.fetchFirst(m.startFirst(true), fresh) }

// Reload fetches the first page of the current query again past the response cache, with
// the cursor on contact keep when the new rows have it, unless the cursor moved while the
// page was in flight (else on the row selected).
func (m *List) Reload(keep int64) tea.Cmd {
	r := m.startFirst(true)
	r.Prefer = keep
	return m.fetchFirst(r, true)
}

// loadQuery fetches the first page of a changed query (search, filters, ordering): its rows
// show from the top, as the first rows are what the new query is for.
func (m *List) loadQuery() tea.Cmd {
	m.countStale = true
	defer m.fitWindow()
	m.win.Reset()
	return m.fetchFirst(m.startFirst(false), false)
}

// startFirst begins a first page: answers to earlier requests are dropped from now on.
// With keep, the cursor stays on the selected row when the new rows have it; else the new
// rows show from the first.
func (m *List) startFirst(keep bool) common.Request {
	r, _ := m.Selected()
	m.pg.Cap = m.ctx.OffsetCap
	return m.pg.Start(keep, r.ID)
}

// fetchFirst asks for the first page of the current query as the answer to r.
func (m *List) fetchFirst(r common.Request, fresh bool) tea.Cmd {
	c, q, limit, now := m.ctx.Client, m.q, m.ctx.PageLimit(), m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(requestTimeout, fresh)
		defer cancel()
		p, err := c.ListContacts(ctx, contactListOptions(q, limit, 0))
		if err != nil {
			err = fmt.Errorf("contacts: %w", err)
		}
		return pageMsg(common.FirstPage(r, p, err, RowFrom, now()))
	}
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

// CanContinue reports whether browsing may go on past the offset cap through
// /contact_identities/all/. That endpoint orders only by id, so only the default order
// (newest first, id descending) without a search maps onto it: it is walked backwards with
// `previous` cursors and each page reversed. Filters apply to both endpoints.
func (m List) CanContinue() bool { return m.q.Search == "" && m.q.Ordering == "" }

// more fetches the next page when there is one and nothing is in flight.
func (m *List) more() tea.Cmd {
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
		// capped one); only the offset walk stops there: when the /all/ walk ends, there is
		// nothing more to ask for.
		if !m.pg.PastCap(len(m.rows)) || !m.CanContinue() {
			return nil
		}
		kind = common.LinkAllPrev
	}
	r := m.pg.Next()
	c, q, limit, now := m.ctx.Client, m.q, m.ctx.PageLimit(), m.ctx.Now
	cursor := "-" + strconv.FormatInt(m.rows[before-1].ID, 10)
	first := func(ctx context.Context) (*client.CursorPage[client.Contact], error) {
		return c.ContactsAllPage(ctx, client.AllContactsOptions{
			Filter:        q.Filter,
			CursorOptions: client.CursorOptions{Cursor: cursor, Limit: limit, Ordering: "id"},
		})
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p := common.FetchNext(ctx, c, r, link, kind, first, RowFrom)
		if p.Err != nil {
			what := "contacts"
			if kind != common.LinkOffset {
				what = "contacts (all)"
			}
			p.Err = fmt.Errorf("%s: %w", what, p.Err)
		}
		p.At = now()
		return pageMsg(p)
	}
}

// Update handles pages, search and filter messages and, when focused, keys.
func (m List) Update(msg tea.Msg) (List, tea.Cmd) {
	m, cmd := m.update(msg)
	m.fitWindow() // the header may have changed
	return m, cmd
}

func (m List) update(msg tea.Msg) (List, tea.Cmd) {
	switch msg := msg.(type) {
	case pageMsg:
		return m.onPage(msg)
	case reloadMsg:
		if msg.req.Gen != m.pg.Gen() {
			return m, nil // a later change (or load) superseded it
		}
		return m, m.fetchFirst(msg.req, false)
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

func (m List) onPage(msg pageMsg) (List, tea.Cmd) {
	// A page into the gap moves the rows after it: the cursor stays on its row, or on the
	// last one when it was there (bottom before the last page arrived).
	selected, _ := m.Selected()
	atEnd := m.win.Cursor == m.positions()-1
	rows, ok := common.AddPage(&m.pg, m.rows, m.index, common.Page[Row](msg), rowID)
	if !ok {
		return m, nil // stale: an older query or a superseded request
	}
	if msg.Err != nil {
		return m, common.ErrorToast(msg.Err)
	}
	var note tea.Cmd
	if msg.Where == common.LastPage && len(msg.Rows) == 0 {
		note = common.Toast("The end of this list cannot be had directly: G goes to the last contact loaded.")
	}
	m.rows = rows
	for _, r := range msg.Rows {
		m.ctx.LearnContact(r.ID, r.Name) // other screens name contacts with it
	}
	if msg.Replace {
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
	} else if i, ok := m.index[selected.ID]; ok && selected.ID != 0 && (msg.Where != common.LastPage || !atEnd) {
		m.win.Cursor = m.pg.PosOf(i)
	} else if atEnd {
		// Bottom (G) was pressed for the last page: the cursor goes to the last row.
		m.win.Cursor = m.positions() - 1
	}
	m.win.Clamp(m.positions())
	return m, tea.Batch(note, m.prefetch(), func() tea.Msg { return common.RefreshedMsg{At: msg.At} })
}

func rowID(r Row) int64 { return r.ID }

// UpdateRow replaces one row in place (after an edit) when it is loaded.
func (m *List) UpdateRow(r Row) {
	if i, ok := m.index[r.ID]; ok {
		if r.ConversationCount < 0 {
			r.ConversationCount = m.rows[i].ConversationCount
		}
		m.rows[i] = r
		delete(m.cache, r.ID)
	}
}

// InsertTop puts a new contact first (after a create, in the default newest-first order).
func (m *List) InsertTop(r Row) {
	if _, ok := m.index[r.ID]; ok {
		m.UpdateRow(r)
		return
	}
	m.rows = append([]Row{r}, m.rows...)
	m.pg.Shift(1)
	m.pg.Total++
	common.Reindex(m.index, m.rows, rowID)
	m.win.Cursor = 0
	m.fitWindow()
}

// Select moves the cursor to a loaded contact.
func (m *List) Select(id int64) bool {
	i, ok := m.index[id]
	if ok {
		m.win.Cursor = m.pg.PosOf(i)
		m.win.Clamp(m.positions())
	}
	return ok
}

// RemoveRows drops rows by id (after a delete) and keeps the cursor near where it was.
func (m *List) RemoveRows(ids []int64) {
	for _, id := range ids {
		delete(m.marked, id)
	}
	var removed int
	m.rows, removed = common.RemoveRows(m.rows, m.index, ids, rowID, &m.win, &m.pg)
	m.pg.Total = max(m.positions(), m.pg.Total-removed)
	m.fitWindow()
}

// ClearMarks unmarks every row.
func (m *List) ClearMarks() {
	clear(m.marked)
	clear(m.cache) // rows show their mark
}

// CanClear reports whether esc has something to clear (marks, search, then filters).
func (m List) CanClear() bool { return len(m.marked) > 0 || m.q.Search != "" || !m.q.Filter.IsZero() }

// Clear drops the marks; without marks the search, or when there is none the filters, and
// reloads.
func (m *List) Clear() tea.Cmd {
	switch {
	case len(m.marked) > 0:
		clear(m.marked)
		clear(m.cache)
		return nil
	case m.q.Search != "":
		m.q.Search = ""
	case !m.q.Filter.IsZero():
		m.q.Filter = client.ContactFilter{}
	default:
		return nil
	}
	return m.loadQuery()
}

// CycleOrdering moves to the next ordering and shows it at once; the list reloads
// ReloadDelay after the last press.
func (m *List) CycleOrdering() tea.Cmd {
	i := slices.Index(OrderingCycle, m.q.Ordering)
	m.q.Ordering = OrderingCycle[(i+1)%len(OrderingCycle)]
	m.win.Reset()
	m.countStale = true
	defer m.fitWindow()
	return common.Tick(ReloadDelay, reloadMsg{req: m.startFirst(false)})
}

// ToggleMark marks or unmarks the selected row and moves down.
func (m *List) ToggleMark() {
	r, ok := m.Selected()
	if !ok {
		return
	}
	if m.marked[r.ID] {
		delete(m.marked, r.ID)
	} else {
		m.marked[r.ID] = true
	}
	delete(m.cache, r.ID)
	m.win.Move(1, m.positions())
}

func (m List) onKey(msg tea.KeyMsg) (List, tea.Cmd) {
	k := m.ctx.Keys
	var bottom tea.Cmd
	if key.Matches(msg, k.Bottom) && !m.countStale {
		// The count's last row, by loading the last page (not every page before it).
		bottom = m.jumpEnd()
	}
	if m.win.HandleMoveKey(msg, k, m.positions()) {
		return m, tea.Batch(bottom, m.prefetch())
	}
	switch {
	case key.Matches(msg, k.Mark):
		m.ToggleMark()
	case key.Matches(msg, k.Order):
		return m, m.CycleOrdering()
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

// jumpEnd readies bottom (G). Past the offset cap, or at it with a count that may be the
// capped one, a list in the default order asks the /all/ cursor endpoint for its last rows
// (the command returned). Else the cursor goes to the last row the offset endpoint reaches
// (the list's prefetch asks for its page): the count's last, or for an ordering /all/ cannot
// serve the cap's, and a toast says that G stops there.
func (m *List) jumpEnd() tea.Cmd {
	if !m.CanContinue() || !m.pg.BeyondCap() {
		m.pg.JumpEnd(len(m.rows))
		if m.pg.BeyondCap() {
			hint := "; the default order (o) reaches the last contact"
			if m.q.Search != "" {
				hint = " (ranked search results)"
			}
			return common.Toast(fmt.Sprintf("The API lists at most %s contacts in this order: G goes to the last of those%s.",
				common.Thousands(m.pg.Reach()), hint))
		}
		return nil
	}
	r, ok := m.pg.JumpPastCap(len(m.rows))
	if !ok {
		return nil
	}
	c, q, limit, now := m.ctx.Client, m.q, m.ctx.PageLimit(), m.ctx.Now
	all := func(ctx context.Context, cursor string) (*client.CursorPage[client.Contact], error) {
		return c.ContactsAllPage(ctx, client.AllContactsOptions{
			Filter:        q.Filter,
			CursorOptions: client.CursorOptions{Cursor: cursor, Limit: limit, Ordering: "id"},
		})
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p := common.FetchBottom(ctx, r, true, all, nil, RowFrom, rowID)
		if p.Err != nil {
			p.Err = fmt.Errorf("contacts (all): %w", p.Err)
		}
		p.At = now()
		return pageMsg(p)
	}
}

// prefetch asks for the next page once the cursor is within a screen of the loaded end.
func (m *List) prefetch() tea.Cmd {
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
func (m *List) fetchGap(w common.Where) tea.Cmd {
	r := m.pg.Begin(w, m.ctx.PageLimit())
	c, q, limit, now := m.ctx.Client, m.q, m.ctx.PageLimit(), m.ctx.Now
	if w == common.BeforeLast {
		link, kind := m.pg.Gap.Prev, m.pg.Gap.Cursor
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
			defer cancel()
			p := common.FetchBeforeLast(ctx, c, r, link, kind, RowFrom)
			if p.Err != nil {
				p.Err = fmt.Errorf("contacts: %w", p.Err)
			}
			p.At = now()
			return pageMsg(p)
		}
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p, err := c.ListContacts(ctx, contactListOptions(q, limit, r.Offset))
		if err != nil {
			err = fmt.Errorf("contacts: %w", err)
		}
		return pageMsg(common.FirstPage(r, p, err, RowFrom, now()))
	}
}

// wideRow is the width from which a contact takes one line instead of two.
const wideRow = 60

func (m List) itemHeight() int {
	if m.width >= wideRow {
		return 1
	}
	return 2
}

// bodyHeight is the lines left for entries (below the header, above the footer line).
func (m List) bodyHeight() int { return max(0, m.height-len(m.headerLines())-1) }

// fitWindow sizes the window to the rows that fit below the header, which takes a second
// line when one cannot show the query: call it after anything that changes the header.
func (m *List) fitWindow() {
	m.win.SetSize(m.bodyHeight() / m.itemHeight())
	m.win.Clamp(m.positions())
}

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
		{k.Search, k.Filter, k.Order, k.Back, k.Refresh, k.Mark, k.Delete, k.Edit, k.Upsert, k.Note},
	}
}

// View renders the header, the visible window of entries and the footer, exactly
// width×height.
func (m *List) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.cacheWidth != m.width {
		clear(m.cache)
		m.cacheWidth = m.width
	}
	st := m.ctx.Styles
	var b strings.Builder
	b.Grow((m.width + 16) * m.height)
	header := m.headerLines()
	for i, l := range header {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(common.Fit(st.HeaderLine.Render(common.Pad(l, m.width)), m.width))
	}
	lines := len(header)
	body := max(0, m.height-len(header)-1)
	switch {
	case len(m.rows) == 0:
		msg := []string{"  No contacts match."}
		switch {
		case !m.pg.Loaded || m.pg.Loading:
			msg = []string{"  Loading contacts…"}
		case m.pg.Err != nil:
			msg = common.LoadFailedLines(m.pg.Err, m.ctx.Keys.Refresh.Help().Key, m.width, min(4, body))
		case m.q.Search != "":
			msg = []string{"  No contact matches the search. esc clears it."}
		}
		for _, l := range msg[:min(len(msg), max(0, body))] {
			b.WriteString("\n")
			b.WriteString(common.Fit(st.Muted.Render(common.Pad(l, m.width)), m.width))
			lines++
		}
	default:
		end := m.win.End(m.positions())
		for pos := m.win.Offset; pos < end && lines-len(header)+m.itemHeight() <= body; pos++ {
			b.WriteString("\n")
			if i, ok := m.pg.RowAt(pos); ok && i < len(m.rows) {
				b.WriteString(m.entry(i, pos == m.win.Cursor))
			} else {
				b.WriteString(strings.Join(common.GapEntry(m.ctx.Styles, pos == m.win.Cursor, m.focused, m.itemHeight(), m.width), "\n"))
			}
			lines += m.itemHeight()
		}
	}
	for lines < body+len(header) {
		b.WriteString("\n")
		b.WriteString(strings.Repeat(" ", m.width))
		lines++
	}
	if m.height >= 2 {
		b.WriteString("\n")
		b.WriteString(common.Fit(m.footer(), m.width))
	}
	return b.String()
}

// entry renders row i, highlighted when selected; else from the cache when its age still
// reads the same (the clock moves on while the list waits for a key).
func (m *List) entry(i int, selected bool) string {
	r := &m.rows[i]
	when := m.when(r)
	if selected {
		return common.RenderLines(m.renderEntry(r, when, false), common.SelectedStyle(m.ctx.Styles, m.focused))
	}
	if c, ok := m.cache[r.ID]; ok && c.when == when {
		return c.text
	}
	s := m.renderEntry(r, when, true)
	m.cache[r.ID] = cachedEntry{text: s, when: when}
	return s
}

// createdTimes reports whether the time column shows when contacts were created (the
// created_at orderings) rather than their last message.
func (m List) createdTimes() bool { return strings.HasSuffix(m.q.Ordering, "created_at") }

// when is the time column: creation for the created_at orderings, else the last message
// ("—" for a contact that never wrote).
func (m *List) when(r *Row) string {
	now := m.ctx.ServerNow() // ages by the server's clock, which stamped the times
	if m.createdTimes() {
		return common.RelTime(r.CreatedAt, now)
	}
	return common.RelTime(r.LastAt, now)
}

// renderEntry lays a row out at the pane width with its age when; styled=false gives plain
// text for the selection highlight.
func (m *List) renderEntry(r *Row, when string, styled bool) string {
	st := m.ctx.Styles
	paint := common.PaintIf(styled)
	w := m.width
	mark := " "
	if m.marked[r.ID] {
		mark = paint("*", st.Marked)
	}
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
		b.WriteString(mark)
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
	line1 := mark + verified + paint(common.Pad(name, nameW), st.Bold) + " " + paint(common.PadLeft(when, timeW), st.Muted)
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

// headerLines describe the query in one line, or two when one cannot show every part:
// count, search, filters, ordering and what the row time is (see headerParts).
func (m List) headerLines() []string {
	return common.FitHeader(m.headerParts(), m.width, maxHeaderLines)
}

// maxHeaderLines is the most lines the header takes (a narrow pane with a search and
// filters).
const maxHeaderLines = 2

// headerParts are the header's parts, each in forms from the longest to the shortest: the
// noun goes first, then the words "search:" and "order:" and the long time label, then long
// search and filter values are cut, each on its own.
func (m List) headerParts() []common.HeaderPart {
	count, noun := "…", " contacts"
	if m.pg.Loaded && !m.countStale && !(m.pg.Err != nil && len(m.rows) == 0) {
		count = m.pg.Count() // "10,000+" while the count may be the capped one
		if m.pg.One() {
			noun = " contact"
		}
	}
	parts := []common.HeaderPart{{count + noun, count}}
	if s := sanitize.Line(m.q.Search); s != "" {
		parts = append(parts, common.HeaderPart{fmt.Sprintf("search:%q (ranked)", s), fmt.Sprintf("search:%q", s),
			fmt.Sprintf("%q", s), fmt.Sprintf("%q", common.ShortValue(s, 12))})
	}
	for _, f := range DescribeFilter(m.q.Filter) {
		parts = append(parts, common.HeaderPart{f, f, f, common.ShortValue(f, 16)})
	}
	if m.q.Search == "" {
		o := OrderingLabel(m.q.Ordering)
		parts = append(parts, common.HeaderPart{"order:" + o, "order:" + o, o})
	}
	// What the time at the end of each row is (see when).
	if m.createdTimes() {
		parts = append(parts, common.HeaderPart{"time: created"})
	} else {
		parts = append(parts, common.HeaderPart{"time: last message", "time: last message", "time: last msg"})
	}
	return parts
}

// footer shows the position, marks, loading state and the offset cap.
func (m List) footer() string {
	st := m.ctx.Styles
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
	case m.pg.PastCap(len(m.rows)) && !m.CanContinue():
		return pos + " · " + st.Warning.Render(fmt.Sprintf("API shows at most %s; use the default order (o) to browse all", common.Thousands(m.pg.Reach())))
	case m.pg.Kind == common.LinkAllPrev:
		return pos + st.Muted.Render(fmt.Sprintf(" · past %s via /all/", common.Thousands(m.pg.Reach())))
	}
	return pos
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
