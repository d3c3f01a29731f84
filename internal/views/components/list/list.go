// Package list is the one list component parley's lists are built on: conversations,
// contacts, navigation events and operators. It owns the rows, the cursor and the window,
// the paging (offset pages with `next` links followed verbatim, /all/ past the offset cap,
// the gap G leaves before the last page), the marks, a row pinned above the rows, the
// render cache, the prefetch, the list keys, the header and footer frame, and the standard
// edits of its rows (UpdateRow, RemoveRows, PutOnTop).
//
// A resource feeds it through a small Source: how the current query's pages are fetched
// (Endpoints), how a row is drawn, the header and the empty text. Every page carries the
// list's owner id (from the context), so one list's pages never land in another, and its
// pager's request id, so a stale page never overwrites a newer one.
package list

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/sat"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// Source is one resource's side of a list.
type Source[R any] interface {
	// Pages is how the current query's pages are fetched. The list takes it when the source
	// is set (SetSource, Show) and keeps it until the next one.
	Pages() Fetcher[R]
	// RowHeight is the lines a row takes at width w.
	RowHeight(w int) int
	// Stamp is what a drawn row shows that changes without the row changing (an age that
	// turns from "2m" into "3m", a name learnt later), at now (the server's clock): a row
	// is drawn again, not taken from the cache, when its stamp changed.
	Stamp(r *R, now time.Time) string
	// Render lays row r out as c says: every line exactly c.Width cells. The first cell of
	// every line is the list's: c.Mark on the first line, blank on the others (the list
	// draws the cursor there).
	Render(r *R, c Cell) string
	// Header is the lines above the rows, styled; the list fits each to its width.
	Header(s Status) []string
	// Empty says that the query has no rows ("No contacts match.").
	Empty(s Status) string
}

// Cell is how a row is to be drawn.
type Cell struct {
	Width int
	// Mark is the row's mark column, one cell: " ", "*" for a marked row, "»" for the
	// pinned one (styled).
	Mark string
	// Stamp is the row's Stamp for this frame.
	Stamp string
	// Pinned: the row is the pinned one, not among the loaded rows.
	Pinned bool
	// Busy is what is being done to the row ("deleting", "saving"; "" when nothing).
	Busy string
}

// Status is what the list knows, for its source's header and footer.
type Status struct {
	// Count is the count as a header shows it: "1,234", "10,000+" while it may be the
	// capped one, "…" while it is unknown (before the query's first page, or after it
	// failed).
	Count string
	// One: the count is exactly one (the noun is singular).
	One            bool
	Rows, Cursor   int
	Loaded, Failed bool
	// At is when the last page arrived.
	At time.Time
	// Width is the list's width.
	Width int
}

// Arriver is a Source told of every page l takes (not of stale or failed ones), once its
// rows are in and the cursor placed: it may learn from the rows and start work for them
// (the operators screen fetches the slots of the visible operators).
type Arriver[R any] interface {
	Arrived(l *Model[R], p Page[R]) tea.Cmd
}

// Footnoter is a Source with more to say in the footer: note follows the position (" ·
// refreshed 15:04:05"), hints go at the right end.
type Footnoter interface {
	Footnote(s Status) (note, hints string)
}

// Detailer is a Source that shows a block between the rows and the footer (the selected
// row's fields): DetailHeight is its height out of room, the lines below the header;
// Detail draws it, w×h.
type Detailer interface {
	DetailHeight(room int, s Status) int
	Detail(w, h int) []string
}

// Options are a list's fixed choices.
type Options struct {
	// Marks: the mark key marks rows (for bulk actions).
	Marks bool
	// ShowLoaded: the footer says how many rows are loaded when not all are.
	ShowLoaded bool
	// Named, when set, is the message a jump (#) to text that is no id sends instead of an
	// error: the operators screen finds operators by that name.
	Named func(text string) tea.Msg
}

// ReloadDelay is how long Show waits after the last of several quick changes of the query
// (cycling the status or the ordering) before it asks for the new query: cycling through
// several costs one request.
const ReloadDelay = 250 * time.Millisecond

// reloadMsg is the end of a ReloadDelay: req is the first-page request started by the
// change, stale once another change (or any other load) started another.
type reloadMsg struct {
	owner int
	req   Request
}

// Model is a list of rows R.
type Model[R any] struct {
	ctx   *common.Ctx
	src   Source[R]
	fetch Fetcher[R]
	opts  Options
	owner int

	rows   []R
	index  map[int64]int
	win    Window
	pg     Pager
	marked map[int64]bool

	width, height int
	focused       bool
	// pending: the query changed and its first page has not arrived yet, so the count the
	// pager holds is the previous query's.
	pending bool
	// lastAt is when the last page arrived (local time); reached the server's time when
	// the last first page was answered.
	lastAt, reached time.Time

	// pinned is a row shown above the rows, not among them (a conversation opened from
	// elsewhere, a row found by jump to id); onPinned: the cursor is on it. It goes when its
	// row loads (the cursor then moves onto that row), when the query changes and when it
	// is removed.
	pinned   *R
	pinNote  string
	onPinned bool

	cache      map[int64]cached // drawn rows, at cacheWidth: about those of the window (View)
	cacheWidth int
	drawn      []int64          // the rows the last frame drew from the cache or into it
	busy       map[int64]string // what is being done to rows (SetBusy)
}

type cached struct{ text, stamp string }

// New returns an empty list of src's rows with its own owner id; Load fetches the first page.
func New[R any](ctx *common.Ctx, src Source[R], opts Options) Model[R] {
	return Model[R]{ctx: ctx, src: src, fetch: src.Pages(), opts: opts, owner: ctx.NewID(),
		index: map[int64]int{}, marked: map[int64]bool{}, cache: map[int64]cached{}, busy: map[int64]string{}}
}

func (m *Model[R]) id(r R) int64 { return m.fetch.id(r) }

// Owner is the list's owner id: its pages carry it.
func (m *Model[R]) Owner() int { return m.owner }

// Rows are the loaded rows.
func (m *Model[R]) Rows() []R { return m.rows }

// Total is the server's count for the query (at least the rows loaded).
func (m *Model[R]) Total() int { return m.pg.Total }

// SentCount is the current query's count as a header shows it ("1,234", "10,000+") when
// the server sent one with the query's first page, "" when that answer carried none;
// answered is false while the query's first page has not arrived, or failed.
func (m *Model[R]) SentCount() (count string, answered bool) {
	if m.pending || !m.pg.Loaded || (m.pg.Err != nil && !m.pg.nextErr) {
		return "", false
	}
	if !m.pg.Counted {
		return "", true
	}
	return m.pg.Count(), true
}

// Loading reports a page request in flight.
func (m *Model[R]) Loading() bool { return m.pg.Loading }

// Loaded reports that the query's first page arrived (or failed).
func (m *Model[R]) Loaded() bool { return m.pg.Loaded }

// Err is the last page request's error.
func (m *Model[R]) Err() error { return m.pg.Err }

// Pending reports that the query changed and its first page has not arrived yet.
func (m *Model[R]) Pending() bool { return m.pending }

// Gen is the query generation: a request of the list's own (a refresh merge) carries it and
// is dropped when it changed.
func (m *Model[R]) Gen() int { return m.pg.Gen() }

// At is when the last page arrived (the local clock).
func (m *Model[R]) At() time.Time { return m.lastAt }

// Reached is the server's time when the last first page was answered (zero: unknown).
func (m *Model[R]) Reached() time.Time { return m.reached }

// Cursor is the cursor's position.
func (m *Model[R]) Cursor() int { return m.win.Cursor }

// positions is how many rows the cursor moves over: those loaded and those of the gap.
func (m *Model[R]) positions() int { return m.pg.Len(len(m.rows)) }

// Selected returns the row under the cursor: the pinned one when the cursor is on it; false
// in the gap (a row not loaded yet) or without rows.
func (m *Model[R]) Selected() (R, bool) {
	if m.onPinned && m.pinned != nil {
		return *m.pinned, true
	}
	var zero R
	i, ok := m.pg.RowAt(m.win.Cursor)
	if !ok || i < 0 || i >= len(m.rows) {
		return zero, false
	}
	return m.rows[i], true
}

// CursorID is the id of the row under the cursor, the pinned one included (0: none, or a
// row of the gap).
func (m *Model[R]) CursorID() int64 {
	if r, ok := m.Selected(); ok {
		return m.id(r)
	}
	return 0
}

// selectedID is the id of the loaded row under the cursor (0: none; the pinned row is not
// a loaded one).
func (m *Model[R]) selectedID() int64 {
	if m.onPinned {
		return 0
	}
	if r, ok := m.Selected(); ok {
		return m.id(r)
	}
	return 0
}

// Row returns the loaded or pinned row id.
func (m *Model[R]) Row(id int64) (R, bool) {
	if i, ok := m.index[id]; ok {
		return m.rows[i], true
	}
	if m.pinned != nil && m.id(*m.pinned) == id {
		return *m.pinned, true
	}
	var zero R
	return zero, false
}

// VisibleRows are the loaded rows in the window (the gap's are not loaded).
func (m *Model[R]) VisibleRows() []R {
	var out []R
	for pos := m.win.Offset; pos < m.win.End(m.positions()); pos++ {
		if i, ok := m.pg.RowAt(pos); ok && i < len(m.rows) {
			out = append(out, m.rows[i])
		}
	}
	return out
}

// Marked returns the marked rows in list order.
func (m *Model[R]) Marked() []R {
	var out []R
	if len(m.marked) == 0 {
		return nil
	}
	for _, r := range m.rows {
		if m.marked[m.id(r)] {
			out = append(out, r)
		}
	}
	return out
}

// ToggleMark marks or unmarks the row under the cursor and moves down.
func (m *Model[R]) ToggleMark() {
	if m.onPinned {
		return // the pinned row is not one of the query's rows, which marks are for
	}
	r, ok := m.Selected()
	if !ok {
		return
	}
	id := m.id(r)
	if m.marked[id] {
		delete(m.marked, id)
	} else {
		m.marked[id] = true
	}
	delete(m.cache, id)
	m.win.Move(1, m.positions())
}

// ClearMarks unmarks every row.
func (m *Model[R]) ClearMarks() {
	for id := range m.marked {
		delete(m.cache, id) // rows show their mark
	}
	clear(m.marked)
}

// SetSize sets the list's size.
func (m *Model[R]) SetSize(w, h int) {
	if w != m.width {
		clear(m.cache)
	}
	m.width, m.height = w, h
	m.fit()
}

// Refit fits the window again after the source's layout changed (a detail block shown or
// hidden) and asks for the page the rows now in view need.
func (m *Model[R]) Refit() tea.Cmd {
	m.fit()
	return m.prefetch()
}

// Focus marks the list as focused (the cursor's row is highlighted brighter, keys reach it).
func (m *Model[R]) Focus() { m.focused = true }

// Blur marks the list as not focused.
func (m *Model[R]) Blur() { m.focused = false }

// Focused reports whether the list has focus.
func (m *Model[R]) Focused() bool { return m.focused }

// Invalidate draws every row again (something all rows show changed: operator names).
func (m *Model[R]) Invalidate() { clear(m.cache) }

// SetSource replaces the source (its Pages are taken now) without loading anything.
func (m *Model[R]) SetSource(src Source[R]) {
	m.src, m.fetch = src, src.Pages()
	m.fit()
}

// Show shows src's query from its first row: the rows are src's first page once it
// arrives, and every answer to an earlier query is dropped from now on.
func (m *Model[R]) Show(src Source[R]) tea.Cmd {
	r := m.startQuery(src)
	return m.fetchFirst(r, false)
}

// ShowSoon is Show after ReloadDelay, unless the query changes again first: the header
// shows the new query at once.
func (m *Model[R]) ShowSoon(src Source[R]) tea.Cmd {
	r := m.startQuery(src)
	return m.ctx.Tick(ReloadDelay, reloadMsg{owner: m.owner, req: r})
}

func (m *Model[R]) startQuery(src Source[R]) Request {
	m.SetSource(src)
	m.pending = true
	m.Unpin() // the new query's first row is what it is for
	m.win.Reset()
	defer m.fit()
	return m.start(false)
}

// Load fetches the first page of the current query again (fresh skips the response
// cache); the cursor stays on its row when the new rows have it.
func (m *Model[R]) Load(fresh bool) tea.Cmd { return m.fetchFirst(m.start(true), fresh) }

// LoadQuiet is Load(true) for an auto-refresh: one attempt (client.Poll), and a failure
// shows in the footer only.
func (m *Model[R]) LoadQuiet() tea.Cmd {
	r := m.start(true)
	r.Quiet = true
	return m.fetchFirst(r, true)
}

// Reload is Load(true) with the cursor on row prefer when the new rows have it, unless the
// cursor moved while the page was in flight (a row just created, which the reload is for).
func (m *Model[R]) Reload(prefer int64) tea.Cmd {
	r := m.start(true)
	r.Prefer = prefer
	return m.fetchFirst(r, true)
}

// start begins a first page: answers to earlier requests are dropped from now on.
func (m *Model[R]) start(keep bool) Request {
	m.pg.Cap = m.ctx.OffsetCap
	return m.pg.Start(keep, m.selectedID())
}

// Forget drops every row and mark, and every answer in flight: to a page, or to a task
// about the rows (another organization's rows).
func (m *Model[R]) Forget() {
	m.rows = nil
	clear(m.index)
	clear(m.marked)
	clear(m.cache)
	clear(m.busy)
	m.pg.Reset()
	m.win.Reset()
	m.Unpin()
	m.pending = false
	m.owner = m.ctx.NewID() // answers to what was asked for the rows gone are not taken
	m.fit()
}

// Preload shows rows the caller already has (tests and benchmarks) as if they were the
// loaded pages of the current query, with total as the server's count.
func (m *Model[R]) Preload(rows []R, total int) {
	m.rows = rows
	Reindex(m.index, m.rows, m.id)
	clear(m.cache)
	m.pg.Reset()
	m.pg.Cap = m.ctx.OffsetCap
	m.pg.Total, m.pg.Kind, m.pg.Loaded = max(total, len(m.rows)), LinkOffset, true
	m.win.Reset()
	m.Unpin()
	m.fit()
}

// fetchFirst asks for the first page of the current query as the answer to r.
func (m *Model[R]) fetchFirst(r Request, fresh bool) tea.Cmd {
	f, c, limit, now, owner, share := m.fetch, m.ctx.Client, m.ctx.PageLimit(), m.ctx.Now, m.owner, m.ctx.SharePolls
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(common.RequestTimeout, fresh)
		defer cancel()
		if r.Quiet {
			// An auto-refresh: the next tick asks again; in the hub another session's
			// answer of a moment ago will do.
			ctx = client.Within(client.Poll(ctx), share)
		}
		p := f.offset(ctx, c, r, limit, 0)
		p.At = now()
		return PageMsg[R]{Owner: owner, Page: p, Reached: c.ServerReached()}
	}
}

// more asks for the page after the rows loaded (before the gap, if any) when there is one
// and nothing is in flight: by the next link, or past the offset cap through /all/ for a
// query that goes on there.
func (m *Model[R]) more() tea.Cmd {
	if !m.pg.Ready() || len(m.rows) == 0 {
		return nil
	}
	link, kind := m.pg.Link, m.pg.Kind
	before := m.pg.Contiguous(len(m.rows))
	if before == 0 {
		return nil
	}
	if link == "" {
		// Past the offset cap by the rows loaded, whatever the count says (it may be the
		// capped one); only the offset walk stops there: when the /all/ walk ends, there is
		// nothing more to ask for.
		if !m.pg.PastCap(len(m.rows)) || m.fetch.cursor() == LinkNone {
			return nil
		}
		kind = m.fetch.cursor()
	}
	r := m.pg.Next()
	after := m.id(m.rows[before-1])
	return m.request(func(ctx context.Context, f Fetcher[R], limit int) Page[R] {
		return f.next(ctx, m.ctx.Client, r, link, kind, after, limit)
	})
}

// request runs fetch, which answers r, in a command within common.RequestTimeout. fetch gets
// everything it reads as arguments or captured in Update.
func (m *Model[R]) request(fetch func(context.Context, Fetcher[R], int) Page[R]) tea.Cmd {
	f, limit, now, owner := m.fetch, m.ctx.PageLimit(), m.ctx.Now, m.owner
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), common.RequestTimeout)
		defer cancel()
		p := fetch(ctx, f, limit) // answers r (its Offset placing the last rows)
		p.At = now()
		return PageMsg[R]{Owner: owner, Page: p}
	}
}

// prefetch asks for the next page once the cursor is within a screen of the loaded end,
// and with a gap for the page on the side of it the cursor nears.
func (m *Model[R]) prefetch() tea.Cmd {
	w, ok := m.pg.Want(len(m.rows), m.win.Cursor, m.win.Visible())
	switch {
	case !ok:
		return nil
	case w == AfterLoaded:
		return m.more()
	}
	r := m.pg.Begin(w, m.ctx.PageLimit())
	c := m.ctx.Client
	if w == BeforeLast {
		link, kind := m.pg.Gap.Prev, m.pg.Gap.Cursor
		return m.request(func(ctx context.Context, f Fetcher[R], _ int) Page[R] {
			return f.beforeLast(ctx, c, r, link, kind)
		})
	}
	return m.request(func(ctx context.Context, f Fetcher[R], limit int) Page[R] {
		return f.offset(ctx, c, r, limit, r.Offset)
	})
}

// jumpEnd readies bottom (G). Past the offset cap, or at it with a count that may be the
// capped one, a query that goes on through /all/ asks that endpoint for its last rows
// (the command returned). Else the cursor goes to the last row the offset endpoint reaches
// (prefetch asks for its page): the count's last, or the cap's, and a toast says that G
// stops there.
func (m *Model[R]) jumpEnd() tea.Cmd {
	if m.fetch.cursor() == LinkNone || !m.pg.BeyondCap() {
		m.pg.JumpEnd(len(m.rows))
		if !m.pg.BeyondCap() {
			return nil
		}
		hint := ""
		switch w := m.fetch.whole(); {
		case m.fetch.ranked():
			hint = " (ranked search results)"
		case w != "":
			hint = fmt.Sprintf("; %s (%s) to reach the last %s", w, m.ctx.Keys.Order.Help().Key, m.fetch.one())
		}
		return common.Toast(fmt.Sprintf("The API lists at most %s %s in this order: %s goes to the last of those%s.",
			layout.Count(m.pg.Reach()), m.fetch.noun(), m.ctx.Keys.Bottom.Help().Key, hint))
	}
	r, ok := m.pg.JumpPastCap(len(m.rows))
	if !ok {
		return nil
	}
	c := m.ctx.Client
	return m.request(func(ctx context.Context, f Fetcher[R], limit int) Page[R] {
		return f.bottom(ctx, c, r, limit)
	})
}

// Update takes the list's pages and delayed reloads and, when focused, keys.
func (m Model[R]) Update(msg tea.Msg) (Model[R], tea.Cmd) {
	cmd := m.update(msg)
	m.fit() // the header may have changed
	return m, cmd
}

func (m *Model[R]) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case PageMsg[R]:
		if msg.Owner != m.owner {
			return nil
		}
		return m.onPage(msg)
	case reloadMsg:
		if msg.owner != m.owner || msg.req.Gen != m.pg.Gen() {
			return nil // another list's, or a later change (or load) superseded it
		}
		return m.fetchFirst(msg.req, false)
	case deleteMsg:
		if msg.owner != m.owner {
			return nil
		}
		return m.startDelete(msg.d)
	case jumpMsg:
		if msg.owner != m.owner {
			return nil
		}
		return m.jump(msg.text)
	case foundMsg[R]:
		if msg.owner != m.owner {
			return nil
		}
		return m.onFound(msg)
	case common.TaskDoneMsg:
		if !msg.Mine(m.owner) {
			return nil
		}
		return m.onDeleted(msg)
	case tea.KeyPressMsg:
		if m.focused {
			cmd, _ := m.handleKey(msg)
			return cmd
		}
	case common.RestyledMsg:
		clear(m.cache)
	}
	return nil
}

func (m *Model[R]) onPage(msg PageMsg[R]) tea.Cmd {
	// A page into the gap moves the rows after it: the cursor stays on its row, or on the
	// last one when it was there (bottom before the last page arrived).
	selected := m.selectedID()
	atEnd := m.win.Cursor == m.positions()-1
	rows, ok := AddPage(&m.pg, m.rows, m.index, msg.Page, m.id)
	if !ok {
		return nil // stale: an older query or a superseded request
	}
	if msg.Err != nil {
		if msg.Quiet {
			return nil // the footer says so
		}
		return common.ErrorToast(msg.Err)
	}
	var note tea.Cmd
	if msg.Where == LastPage && len(msg.Rows) == 0 {
		note = common.Toast(fmt.Sprintf("The end of this list cannot be had directly: %s goes to the last %s loaded.",
			m.ctx.Keys.Bottom.Help().Key, m.fetch.one()))
	}
	m.rows = rows
	m.lastAt = msg.At
	switch i, ok := m.index[selected]; {
	case msg.Replace:
		m.reached = msg.Reached
		m.pending = false
		clear(m.cache)
		if i, ok := KeepAt(msg.Request, m.index, selected); ok {
			m.win.Cursor = i // the offset stays: the row stays where it was on the screen
		} else {
			m.win.Reset()
		}
		for id := range m.marked {
			if _, ok := m.index[id]; !ok {
				delete(m.marked, id)
			}
		}
	case m.onPinned:
	case ok && selected != 0 && (msg.Where != LastPage || !atEnd):
		m.win.Cursor = m.pg.PosOf(i)
	case atEnd:
		// Bottom (G) was pressed for the last page: the cursor goes to the last row.
		m.win.Cursor = m.positions() - 1
	}
	m.fit()
	m.settlePin()
	var arrived tea.Cmd
	if a, ok := m.src.(Arriver[R]); ok {
		arrived = a.Arrived(m, msg.Page)
	}
	at := msg.At
	return tea.Batch(note, m.prefetch(), arrived, func() tea.Msg { return common.RefreshedMsg{At: at} })
}

// HandleKey handles the list's keys, focused or not: the moves (with G to the count's last
// row), mark, refresh (the failed next page first), go to id. It reports whether msg was one
// of them.
func (m Model[R]) HandleKey(msg tea.KeyPressMsg) (Model[R], tea.Cmd, bool) {
	cmd, ok := m.handleKey(msg)
	m.fit()
	return m, cmd, ok
}

func (m *Model[R]) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.ctx.Keys
	if m.pinned != nil && m.movePinned(msg) {
		return m.prefetch(), true
	}
	var bottom tea.Cmd
	if key.Matches(msg, k.Bottom) && !m.pending {
		// The count's last row, by loading the last page (not every page before it).
		bottom = m.jumpEnd()
	}
	if m.win.HandleMoveKey(msg, k, m.positions()) {
		return tea.Batch(bottom, m.prefetch()), true
	}
	switch {
	case key.Matches(msg, k.Mark) && m.opts.Marks:
		m.ToggleMark()
		return m.prefetch(), true
	case key.Matches(msg, k.JumpID):
		return m.askJump(), true
	case key.Matches(msg, k.Refresh):
		if m.pg.RetryNext() {
			// Ask for the page that failed again: the rows loaded and the cursor stay.
			if cmd := m.more(); cmd != nil {
				return cmd, true
			}
		}
		return m.Load(true), true
	}
	return nil, false
}

// Step moves the cursor d rows up (d < 0) or down, focused or not, as the up and down keys
// do (onto and off a pinned row included), and asks for the page the cursor nears: at the
// last row loaded, the next one.
func (m *Model[R]) Step(d int) tea.Cmd {
	switch {
	case m.pinned != nil && m.onPinned && d > 0:
		m.onPinned = false
		m.win.Reset()
		d--
	case m.pinned != nil && !m.onPinned && d < 0 && m.win.Cursor+d < 0:
		m.onPinned = true
		m.win.Reset()
		d = 0
	}
	if d != 0 {
		m.win.Move(d, m.positions())
	}
	m.fit()
	return m.prefetch()
}

// movePinned moves the cursor onto or off the pinned row, which sits above the first row:
// up (or a page up) from the first row and top go onto it, down from it goes to the first
// row. It reports whether msg was such a move; other moves off it start at the first row.
func (m *Model[R]) movePinned(msg tea.KeyPressMsg) bool {
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

// Select puts the cursor on loaded row id (a row pinned before then goes), or on the pinned
// row when it is that one, and reports whether it did.
func (m *Model[R]) Select(id int64) bool {
	if i, ok := m.index[id]; ok {
		m.onPinned = false
		m.win.Cursor = m.pg.PosOf(i)
		m.Unpin()
		return true
	}
	if m.pinned != nil && m.id(*m.pinned) == id {
		m.onPinned = true
		return true
	}
	return false
}

// Pin shows r, which is not among the loaded rows, above them with the cursor on it; note
// says why in the footer while the cursor is on it ("not in this list (from a contact)").
func (m *Model[R]) Pin(r R, note string) {
	m.pinned, m.pinNote, m.onPinned = &r, note, true
	m.win.Reset()
	m.fit()
}

// Pinned returns the pinned row (false: none).
func (m *Model[R]) Pinned() (R, bool) {
	if m.pinned == nil {
		var zero R
		return zero, false
	}
	return *m.pinned, true
}

// OnPinned reports whether the cursor is on the pinned row.
func (m *Model[R]) OnPinned() bool { return m.pinned != nil && m.onPinned }

// Unpin drops the pinned row; the cursor goes back to the rows.
func (m *Model[R]) Unpin() {
	m.pinned, m.onPinned = nil, false
	m.fit()
}

// settlePin drops the pinned row once it is among the loaded rows, with the cursor on that
// row when it was on the pinned one.
func (m *Model[R]) settlePin() {
	if m.pinned == nil {
		return
	}
	i, ok := m.index[m.id(*m.pinned)]
	if !ok {
		return
	}
	if m.onPinned {
		m.win.Cursor = m.pg.PosOf(i)
	}
	m.Unpin()
}

// UpdateRow replaces row r in place (after an edit, or when a detail or a refresh brings
// it) when it is loaded or pinned, and reports whether it is loaded.
func (m *Model[R]) UpdateRow(r R) bool {
	id := m.id(r)
	if m.pinned != nil && m.id(*m.pinned) == id {
		*m.pinned = r
	}
	i, ok := m.index[id]
	if ok {
		m.rows[i] = r
		delete(m.cache, id)
	}
	return ok
}

// PutOnTop puts rows that are not loaded before the first one (a refresh's new rows, in
// list order) and counts added of them as new to the query; the cursor stays on its row.
func (m *Model[R]) PutOnTop(rows []R, added int) {
	if len(rows) == 0 {
		return
	}
	selected := m.selectedID()
	m.rows = append(append(make([]R, 0, len(rows)+len(m.rows)), rows...), m.rows...)
	m.pg.Shift(len(rows))
	// A row that moved up from past the loaded pages is already counted; the rows loaded
	// are always counted.
	m.pg.Total = max(sat.Add(m.pg.Total, added), m.positions())
	Reindex(m.index, m.rows, m.id)
	if i, ok := m.index[selected]; ok && !m.onPinned {
		m.win.Cursor = m.pg.PosOf(i)
		m.win.Offset = sat.Add(m.win.Offset, len(rows))
	}
	m.fit()
	m.settlePin()
}

// InsertTop puts a new row first (after a create, in a newest-first order) with the cursor
// on it; a loaded row is updated in place instead.
func (m *Model[R]) InsertTop(r R) {
	if m.UpdateRow(r) {
		return
	}
	m.PutOnTop([]R{r}, 1)
	m.onPinned = false
	m.win.Cursor = 0
	m.fit()
}

// RemoveRows drops rows by id (after a delete), their marks and the pinned row when it is
// one of them, keeps the cursor near where it was and lowers the count. It returns how
// many loaded rows went.
func (m *Model[R]) RemoveRows(ids []int64) int {
	for _, id := range ids {
		delete(m.marked, id)
		delete(m.cache, id)
		if m.pinned != nil && m.id(*m.pinned) == id {
			m.Unpin()
		}
	}
	var removed int
	m.rows, removed = RemoveRows(m.rows, m.index, ids, m.id, &m.win, &m.pg)
	m.pg.Total = max(m.positions(), m.pg.Total-removed)
	m.fit()
	return removed
}

// status is what the list knows, for the source.
func (m *Model[R]) status() Status {
	s := Status{Count: "…", Rows: len(m.rows), Cursor: m.win.Cursor, Loaded: m.pg.Loaded,
		Failed: m.pg.Err != nil, At: m.lastAt, Width: m.width}
	if m.pg.Loaded && !m.pending && !(m.pg.Err != nil && len(m.rows) == 0) {
		s.Count, s.One = m.pg.Count(), m.pg.One()
	}
	return s
}

// parts is the lines of the list's parts at its size.
type parts struct {
	header          []string
	pinned, body    int
	detail, footer  int
	rowHeight, rows int
}

func (m *Model[R]) parts() parts {
	l := parts{header: m.src.Header(m.status()), rowHeight: max(1, m.src.RowHeight(m.width))}
	if m.height >= 2 {
		l.footer = 1
	}
	room := max(0, m.height-len(l.header)-l.footer)
	if m.pinned != nil && room >= l.rowHeight {
		l.pinned = l.rowHeight
		room -= l.pinned
	}
	if d, ok := m.src.(Detailer); ok {
		l.detail = max(0, min(room, d.DetailHeight(room, m.status())))
	}
	l.body = room - l.detail
	l.rows = l.body / l.rowHeight
	return l
}

// fit sizes the window to the rows that fit (the header may take more lines or fewer):
// call it after anything that changes the header, the pinned row or the size.
func (m *Model[R]) fit() {
	if m.src == nil {
		return
	}
	m.win.SetSize(m.parts().rows)
	m.win.Clamp(m.positions())
}
