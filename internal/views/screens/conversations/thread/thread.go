// Package thread is the thread pane: it opens at the newest message, fetches older pages
// by following `next` once the view is within a screen of the oldest loaded message, keeps
// the view still when a page is added, and never fetches a page twice. A thread read
// before comes from the client's memory while its conversation's version is the same
// (client.LatestMessages); a changed one costs its newest page.
//
// The top key goes to the first message with one request: the oldest page, in ascending
// order. What lies between that page and the newest ones loaded is a gap, shown as one
// line, that fills from whichever side the view comes near it: from above by the oldest
// pages' `next` links (newer messages), from below by the newest pages' (older ones).
package thread

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

// PageSize is how many messages one request asks for.
const PageSize = 100

// item is a message reduced to what the pane draws, sanitized.
type item struct {
	id           string
	fromOperator bool
	bot          bool
	name         string
	at           time.Time
	state        string
	body         string        // sanitized, newlines kept
	link         sanitize.Link // the message's url; zero when it has none
}

// attached reports whether the message has a url to show.
func (it item) attached() bool { return it.link.Web() || it.link.Text != "" }

func itemFrom(m client.Message) item {
	it := item{
		id:           m.ID,
		fromOperator: m.FromOperator(),
		bot:          m.OperatorIsBot,
		name:         sanitize.Line(m.SenderName()),
		at:           m.SentAt.Time,
		state:        sanitize.Line(m.State.Label()),
		body:         sanitize.Text(m.Body),
	}
	if u := client.Str(m.URL); u != "" {
		it.link = sanitize.ParseLink(u)
	}
	return it
}

// Kinds of page answers besides Refresh's.
const (
	pageOlder  = iota // the first page or the next older one: newest first
	pageOldest        // the oldest page, asked for by the top key: oldest first
	pageNewer         // the next newer page below the oldest ones: oldest first
)

// The thread's two kinds of requests (common.Loader keys): the pages, one at a time, and
// Refresh's, beside them.
const (
	loadPage int64 = iota
	loadRefresh
)

type pageMsg struct {
	stamp  common.Stamp
	convID int64
	kind   int
	items  []item // in the order the API sends them (see kind)
	next   string
	err    error
	// newest: an answer to Refresh or Follow: the thread with what is new on top, to
	// append below what is shown.
	newest bool
	// fetched is how many of items (from the newest) the answer brought from the API (the
	// rest came from the client's memory); requests is how many requests it took.
	fetched, requests int
}

// Model is the messages pane. It keeps its own window over lines and offset rather than
// internal/views/components/scroll's: bubbles' viewport measures every line each time its content is set, and
// the thread sets its content on every page it prepends (a 5,000-message thread is some
// 20,000 lines), while its rebuild only renders the new page; its offset also follows the
// gap and the anchor of a prepended page.
type Model struct {
	ctx     *common.Ctx
	convID  int64
	version client.Version // the open conversation's, as its list row shows it
	title   string
	items   []item   // oldest first
	lines   []string // rendered, oldest first
	starts  []int    // per item, the line its block starts at
	offset  int      // first visible line
	width   int
	height  int
	focused bool

	// loads stamps the page requests and Refresh's; a generation per conversation shown
	// (opening another cancels the requests for the one left).
	loads     common.Loader
	next      string          // link to the next older page ("" = none)
	requested map[string]bool // links already asked for: never fetched twice
	inflight  string          // the link of the page in flight ("" = none or the first)
	pending   int             // the kind of the page in flight
	loading   bool
	// A gap: items[:gapAt] are the oldest messages (from the first on), items[gapAt:] the
	// newest; newer links the page after items[gapAt-1], next the page before
	// items[gapAt]. gapLine is the gap's line in lines.
	gap     bool
	gapAt   int
	gapLine int
	newer   string
	dir     int  // the last scroll's direction: -1 up, 1 down
	opened  bool // the first page arrived
	// topFirst: the top key came while the first page was on its way; the thread opens at
	// its first message instead of its newest (a key pressed before the answer is kept).
	topFirst bool
	err      error
	requests int // pages requested for this conversation

	blocks     map[string]block // rendered block per message id at blockWidth
	blockWidth int
	// linkLines are the lines of the web links in lines, ascending, and linkItems the item
	// each belongs to: the copy key copies the lowest one in view (MarkedLink).
	linkLines, linkItems []int
}

// block is one message laid out at the pane's width.
type block struct {
	lines  []string // fitted
	link   int      // the line of its web link in lines; -1 for none
	marked string   // that line with the mark (▸), fitted
}

// New returns an empty pane.
func New(ctx *common.Ctx) Model {
	return Model{ctx: ctx, loads: common.NewLoader(ctx), requested: map[string]bool{}, blocks: map[string]block{}}
}

// ConversationID is the open conversation (0 = none).
func (m Model) ConversationID() int64 { return m.convID }

// Requests is how many message pages were requested from the API for the open
// conversation (pages from the client's memory do not count).
func (m Model) Requests() int { return m.requests }

// Loaded is how many messages are loaded.
func (m Model) Loaded() int { return len(m.items) }

// Loading reports a page in flight.
func (m Model) Loading() bool { return m.loading }

// HasOlder reports whether older messages remain on the server.
func (m Model) HasOlder() bool { return m.next != "" }

// Open shows a conversation whose version is not known (see OpenAt).
func (m *Model) Open(convID int64, title string, fresh bool) tea.Cmd {
	return m.OpenAt(convID, title, client.Version{}, fresh)
}

// OpenAt shows a conversation at version v (its list row's updated_at and
// last_message_sent_at): the thread the client holds for that version, without a request,
// else its newest page. Opening the one already open does nothing unless fresh is set;
// fresh asks the API whatever is held.
func (m *Model) OpenAt(convID int64, title string, v client.Version, fresh bool) tea.Cmd {
	if convID == m.convID && !fresh && (m.opened || m.loading) {
		return nil
	}
	m.loads.Next()
	m.convID = convID
	m.version = v
	m.title = title
	m.items = nil
	m.lines = nil
	m.starts = nil
	m.offset = 0
	m.next = ""
	m.inflight = ""
	m.gap, m.gapAt, m.newer, m.dir = false, 0, "", 0
	m.err = nil
	m.opened, m.topFirst = false, false
	m.requests = 0
	clear(m.requested)
	clear(m.blocks)
	if convID == 0 {
		m.loading = false
		return nil
	}
	m.loading, m.pending = true, pageOlder
	return m.latest(loadPage, false, fresh)
}

// Preload shows messages the caller already has (tests and benchmarks), newest first as
// the API sends them, as a fully loaded thread.
func (m *Model) Preload(convID int64, title string, msgs []client.Message) {
	m.loads.Next()
	m.convID, m.title = convID, title
	m.items = make([]item, len(msgs))
	for i, msg := range msgs {
		m.items[len(msgs)-1-i] = itemFrom(msg)
	}
	m.next, m.loading, m.opened, m.err = "", false, true, nil
	m.gap, m.gapAt, m.newer = false, 0, ""
	m.rebuild()
	m.offset = m.maxOffset()
}

// Close empties the pane.
func (m *Model) Close() { _ = m.Open(0, "", false) }

// latest asks the client for the open conversation's thread at its version: from memory
// or its newest page merged on top of what is held (fresh: always the newest page), as a
// request of kind key; newest marks an answer to Refresh or Follow.
func (m *Model) latest(key int64, newest, fresh bool) tea.Cmd {
	stamp, parent := m.loads.Start(key)
	conv, v, c := m.convID, m.version, m.ctx.Client
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.RequestTimeout, fresh)
		defer cancel()
		msg := pageMsg{stamp: stamp, convID: conv, newest: newest}
		th, err := c.LatestMessages(ctx, conv, v, PageSize)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.items = items(th.Messages)
		msg.next, msg.fetched = th.Next, th.Fetched
		if th.Fetched > 0 {
			msg.requests = 1
		}
		return msg
	}
}

// fetch follows link to the next older page.
func (m *Model) fetch(link string) tea.Cmd {
	m.requested[link] = true
	conv := m.convID
	return m.page(pageOlder, link, func(ctx context.Context, c *client.Client) (*client.CursorPage[client.Message], error) {
		return c.OlderMessages(ctx, conv, link)
	})
}

// fetchOldest asks for the thread's oldest page in ascending order (the top key). A page
// in flight is superseded: its answer is dropped and its link may be asked for again.
func (m *Model) fetchOldest() tea.Cmd {
	if m.inflight != "" {
		delete(m.requested, m.inflight)
	}
	conv := m.convID
	return m.page(pageOldest, "", func(ctx context.Context, c *client.Client) (*client.CursorPage[client.Message], error) {
		return c.MessagesPage(ctx, conv, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: PageSize, Ordering: "id"}})
	})
}

// fetchNewer follows link, the oldest pages' next, to the page after them (into the gap).
func (m *Model) fetchNewer(link string) tea.Cmd {
	m.requested[link] = true
	return m.page(pageNewer, link, func(ctx context.Context, c *client.Client) (*client.CursorPage[client.Message], error) {
		return client.FetchCursorPage[client.Message](ctx, c, link)
	})
}

// page starts one page request of the kind (link: the link it follows, "" for none); its
// answer comes back as a pageMsg stamped with the request id.
func (m *Model) page(kind int, link string, get func(context.Context, *client.Client) (*client.CursorPage[client.Message], error)) tea.Cmd {
	m.loading = true
	m.inflight, m.pending = link, kind
	stamp, parent := m.loads.Start(loadPage)
	conv, c := m.convID, m.ctx.Client
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.RequestTimeout, false)
		defer cancel()
		msg := pageMsg{stamp: stamp, convID: conv, kind: kind, requests: 1}
		p, err := get(ctx, c)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.items, msg.next, msg.fetched = items(p.Results), p.Next, len(p.Results)
		return msg
	}
}

// items reduces messages to what the pane draws, in their order.
func items(msgs []client.Message) []item {
	out := make([]item, len(msgs))
	for i, r := range msgs {
		out[i] = itemFrom(r)
	}
	return out
}

// Refresh asks for the newest page of the open thread (past the client's memory) and adds
// the messages that arrived since it was loaded below the others; the reading position
// stays, and a view at the newest message follows the new ones. A thread whose first page
// failed is opened again; nothing is asked for while its first page or a refresh is in
// flight.
func (m *Model) Refresh() tea.Cmd { return m.refresh(true) }

// Follow takes the open conversation's new version v (a list refresh showed it changed):
// what is new is added as by Refresh, at the cost of the newest page, or of nothing when
// the client's memory already holds the thread at v. Another conversation's version
// changes nothing.
func (m *Model) Follow(convID int64, v client.Version) tea.Cmd {
	if convID == 0 || convID != m.convID {
		return nil
	}
	m.version = m.version.Merge(v)
	return m.refresh(false)
}

func (m *Model) refresh(fresh bool) tea.Cmd {
	if m.convID != 0 && !m.opened && !m.loading {
		return m.OpenAt(m.convID, m.title, m.version, true) // its first page failed: ask for it again
	}
	if m.convID == 0 || !m.opened || m.loads.Pending(loadRefresh) {
		return nil
	}
	return m.latest(loadRefresh, true, fresh)
}

// onNewest takes the answer to Refresh or Follow: the messages not loaded yet go below the
// others, and the ones loaded that the API sent again are shown as it sent them (a state
// that changed). When none of the thread answered was loaded, more arrived than a page
// holds: the thread starts over from it, as when it was opened.
func (m Model) onNewest(msg pageMsg) (Model, tea.Cmd) {
	if msg.convID != m.convID || !m.loads.Take(msg.stamp) {
		return m, nil
	}
	if msg.err != nil {
		return m, nil // the next refresh tries again; the thread shown stays
	}
	m.requests += msg.requests
	added, overlap := m.unloaded(msg.items, 0, len(m.items)) // newest first
	changed := false
	if overlap {
		loaded := make(map[string]int, len(m.items))
		for i, it := range m.items {
			loaded[it.id] = i
		}
		for _, it := range msg.items[:msg.fetched] {
			if i, ok := loaded[it.id]; ok && m.items[i] != it {
				m.items[i] = it
				delete(m.blocks, it.id)
				changed = true
			}
		}
	}
	if len(added) == 0 {
		if changed {
			m.rebuild()
			m.clamp()
		}
		return m, nil
	}
	atBottom := m.atBottom()
	if !overlap && len(msg.items) > 0 {
		// A gap between what is loaded and this page: show this page as a fresh thread.
		m.loads.Next()
		m.items, m.next, m.err, m.loading = nil, msg.next, nil, false
		m.gap, m.gapAt, m.newer, m.inflight = false, 0, "", ""
		clear(m.requested)
		clear(m.blocks)
		atBottom = true
	}
	slices.Reverse(added) // oldest first
	m.items = append(m.items, added...)
	m.rebuild()
	if atBottom {
		m.offset = m.maxOffset()
	}
	m.clamp()
	return m, m.prefetch()
}

// SetSize sets the pane's inner size; content is re-wrapped when the width changes.
func (m *Model) SetSize(w, h int) {
	if w == m.width && h == m.height {
		return
	}
	atBottom := m.atBottom()
	widthChanged := w != m.width
	m.width, m.height = w, h
	if widthChanged {
		// Keep the same message at the top: remember the fraction through the content.
		frac := 0.0
		if len(m.lines) > 0 {
			frac = float64(m.offset) / float64(len(m.lines))
		}
		m.rebuild()
		m.offset = int(frac * float64(len(m.lines)))
	}
	if atBottom {
		m.offset = m.maxOffset()
	}
	m.clamp()
}

// Focus and Blur toggle focus.
func (m *Model) Focus() { m.focused = true }

// Blur marks the pane as not focused.
func (m *Model) Blur() { m.focused = false }

// Update handles pages and, when focused, scrolling keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RestyledMsg:
		clear(m.blocks)
		m.rebuild()
		return m, nil
	case pageMsg:
		switch {
		case msg.newest:
			return m.onNewest(msg)
		case msg.kind == pageOldest:
			return m.onOldest(msg)
		case msg.kind == pageNewer:
			return m.onNewer(msg)
		}
		return m.onPage(msg)
	case tea.KeyPressMsg:
		if !m.focused {
			return m, nil
		}
		k := m.ctx.Keys
		switch {
		case key.Matches(msg, k.Down):
			m.scroll(1)
		case key.Matches(msg, k.Up):
			m.scroll(-1)
		case key.Matches(msg, k.PageDown):
			m.scroll(m.viewHeight() - 1)
		case key.Matches(msg, k.PageUp):
			m.scroll(-(m.viewHeight() - 1))
		case key.Matches(msg, k.Top) && m.loading && !m.opened:
			m.topFirst = true // the first page is on its way: it opens at the top
			return m, nil
		case key.Matches(msg, k.Bottom) && m.loading && !m.opened:
			m.topFirst = false // the newest message, where a thread opens anyway
			return m, nil
		case key.Matches(msg, k.Top):
			m.scroll(-len(m.lines))
			if m.opened && !m.startLoaded() && (!m.loading || m.inflight != "") {
				// The first message is not loaded: one request for the oldest page.
				return m, m.fetchOldest()
			}
			return m, nil
		case key.Matches(msg, k.Bottom):
			m.scroll(len(m.lines))
		case key.Matches(msg, k.Refresh):
			if m.opened && m.err != nil && m.gap && !m.loading {
				// A page of the gap failed: ask again for the side the view is near.
				m.err = nil
				delete(m.requested, m.next)
				delete(m.requested, m.newer)
				return m, m.prefetch()
			}
			if m.opened && m.err != nil && m.next != "" && !m.loading {
				// An older page failed: ask for it again, keeping what is loaded and the
				// reading position.
				m.err = nil
				delete(m.requested, m.next)
				return m, m.fetch(m.next)
			}
			if m.convID != 0 {
				return m, m.OpenAt(m.convID, m.title, m.version, true)
			}
			return m, nil
		default:
			return m, nil
		}
		return m, m.prefetch()
	}
	return m, nil
}

// receive takes in what every answer to a page request (but Refresh's) brings, and reports
// whether msg carries a page to add. An answer to another conversation, or to a superseded
// request, is dropped. A failure is shown and kept (the header says r retries), but the
// oldest page's: that one leaves the thread as it was, and the top key asks again.
func (m *Model) receive(msg pageMsg) (bool, tea.Cmd) {
	if msg.convID != m.convID || !m.loads.Take(msg.stamp) {
		return false, nil
	}
	m.loading, m.inflight = false, ""
	if msg.kind != pageOldest {
		m.err = msg.err
	}
	if msg.err != nil {
		return false, common.FailToast(fmt.Sprintf("Conversation #%d: %s", msg.convID, writes.ErrorText(msg.err)))
	}
	m.requests += msg.requests
	return true, nil
}

// onPage takes the first page or an older one: the older messages go above the newest
// ones loaded (below the gap when there is one).
func (m Model) onPage(msg pageMsg) (Model, tea.Cmd) {
	if ok, cmd := m.receive(msg); !ok {
		return m, cmd
	}
	first := !m.opened
	m.opened = true
	m.next = msg.next
	if m.requested[m.next] {
		m.next = "" // the server sent a link we already followed: stop rather than loop
	}
	at := 0
	if m.gap {
		at = m.gapAt
	}
	// Newest first; met: the page reached the oldest pages, and the gap is closed.
	older, met := m.unloaded(msg.items, 0, at)
	slices.Reverse(older) // oldest first
	anchor, delta := m.anchor()
	m.items = slices.Insert(m.items, at, older...)
	if m.gap && (met || m.next == "") {
		m.closeGap()
	}
	m.rebuild()
	switch {
	case first && m.topFirst:
		// The top key came before this page: the first message, with the one request for
		// the oldest page when this one does not reach it.
		m.topFirst = false
		m.offset = 0
		m.clamp()
		if !m.startLoaded() {
			return m, m.fetchOldest()
		}
		return m, m.prefetch()
	case first:
		m.offset = m.maxOffset() // a thread opens at its newest message
	default:
		m.restore(anchor, delta) // keep the same lines in view
	}
	m.clamp()
	return m, m.prefetch()
}

// onOldest takes the oldest page (the top key): it goes above everything loaded, with a
// gap between them unless they meet, and the view goes to the first message. A failure
// leaves the thread as it was; the top key asks again.
func (m Model) onOldest(msg pageMsg) (Model, tea.Cmd) {
	if ok, cmd := m.receive(msg); !ok {
		return m, cmd
	}
	top, met := m.unloaded(msg.items, 0, len(m.items)) // oldest first
	m.items = slices.Insert(m.items, 0, top...)
	switch {
	case met || msg.next == "" || len(top) == 0:
		m.closeGap() // the oldest page reaches what is loaded: the whole thread is
	case m.requested[msg.next]:
		m.closeGap() // a link already followed: stop rather than loop
	default:
		m.gap, m.gapAt, m.newer = true, len(top), msg.next
	}
	m.rebuild()
	m.offset = 0
	m.clamp()
	return m, m.prefetch()
}

// onNewer takes the page after the oldest ones: it goes at the top of the gap; the gap
// closes when the page reaches the newest messages loaded.
func (m Model) onNewer(msg pageMsg) (Model, tea.Cmd) {
	if ok, cmd := m.receive(msg); !ok {
		return m, cmd
	}
	if !m.gap {
		return m, nil
	}
	newer, met := m.unloaded(msg.items, m.gapAt, len(m.items)) // oldest first
	anchor, delta := m.anchor()
	m.items = slices.Insert(m.items, m.gapAt, newer...)
	m.gapAt += len(newer)
	m.newer = msg.next
	if met || m.newer == "" || m.requested[m.newer] {
		m.closeGap()
	}
	m.rebuild()
	m.restore(anchor, delta)
	m.clamp()
	return m, m.prefetch()
}

// closeGap: the oldest and the newest messages loaded meet; the whole thread is loaded.
func (m *Model) closeGap() {
	m.gap, m.gapAt, m.newer, m.next = false, 0, "", ""
}

// unloaded is the start of page up to the first message among items[from:to], and whether
// there was one: the page met those messages.
func (m Model) unloaded(page []item, from, to int) ([]item, bool) {
	loaded := make(map[string]bool, to-from)
	for _, it := range m.items[from:to] {
		loaded[it.id] = true
	}
	for i, it := range page {
		if loaded[it.id] {
			return slices.Clone(page[:i]), true
		}
	}
	return slices.Clone(page), false
}

// anchor names the message at the top of the view (the first whose block ends below the
// view's top: a day divider or the gap line at the top belongs to the message below it)
// and how far the view's top is from its first line.
func (m Model) anchor() (string, int) {
	n := min(len(m.starts), len(m.items)) // equal once rebuilt
	i := sort.Search(n, func(i int) bool {
		return m.starts[i]+len(m.blocks[m.items[i].id].lines) > m.offset
	})
	if i >= n {
		return "", 0
	}
	return m.items[i].id, m.offset - m.starts[i]
}

// restore puts the view back at the message anchor names, delta lines from its start.
func (m *Model) restore(anchor string, delta int) {
	for i, it := range m.items {
		if it.id == anchor {
			m.offset = m.starts[i] + delta
			return
		}
	}
}

// startLoaded reports whether the first message of the thread is loaded.
func (m Model) startLoaded() bool { return m.gap || m.next == "" }

// prefetch asks for the next older page when the view is within a screen of the oldest
// loaded message; with a gap, for the page on the side of the gap the view comes near it
// from (both sides in view: the side the last scroll went towards).
func (m *Model) prefetch() tea.Cmd {
	if m.loading || !m.opened || m.err != nil {
		return nil
	}
	vh := m.viewHeight()
	if !m.gap {
		if m.next != "" && !m.requested[m.next] && m.offset < vh {
			return m.fetch(m.next)
		}
		return nil
	}
	fromAbove := m.gapLine >= m.offset && m.gapLine-(m.offset+vh-1) < vh
	fromBelow := m.gapLine < m.offset+vh && m.offset-m.gapLine < vh
	if fromAbove && fromBelow {
		fromAbove, fromBelow = m.dir >= 0, m.dir < 0
	}
	switch {
	case fromAbove && m.newer != "" && !m.requested[m.newer]:
		return m.fetchNewer(m.newer)
	case fromBelow && m.next != "" && !m.requested[m.next]:
		return m.fetch(m.next)
	}
	return nil
}

// Wheel scrolls d lines (negative: towards older messages) as the keys do, focused or not,
// and asks for the next older page as the view nears the oldest loaded message.
func (m *Model) Wheel(d int) tea.Cmd {
	m.scroll(d)
	return m.prefetch()
}

func (m *Model) scroll(d int) {
	switch {
	case d > 0:
		m.dir = 1
	case d < 0:
		m.dir = -1
	}
	m.offset += d
	m.clamp()
}

func (m Model) viewHeight() int { return max(1, m.height-1) }

func (m Model) maxOffset() int { return max(0, len(m.lines)-m.viewHeight()) }

func (m Model) atBottom() bool { return m.offset >= m.maxOffset() }

func (m *Model) clamp() {
	m.offset = max(0, min(m.offset, m.maxOffset()))
}

// rebuild lays every loaded message out at the current width (blocks are cached per
// message, so a prepend renders only the new page).
func (m *Model) rebuild() {
	if m.blockWidth != m.width {
		clear(m.blocks)
		m.blockWidth = m.width
	}
	lines := make([]string, 0, len(m.lines)+len(m.items)*3)
	m.starts = make([]int, 0, len(m.items)) // never the backing array of a copy of the model
	m.linkLines, m.linkItems = nil, nil
	var lastDay string
	for i, it := range m.items {
		if m.gap && i == m.gapAt {
			m.gapLine = len(lines)
			lines = append(lines, "") // drawn by View: it says whether it is loading
			lastDay = ""
		}
		day := it.at.In(m.ctx.Now().Location()).Format("Mon 2 Jan 2006")
		if day != lastDay {
			lines = append(lines, layout.Fit(m.divider(day), m.width))
			lastDay = day
		}
		b, ok := m.blocks[it.id]
		if !ok {
			b = m.block(it)
			m.blocks[it.id] = b
		}
		m.starts = append(m.starts, len(lines))
		if b.link >= 0 {
			m.linkLines = append(m.linkLines, len(lines)+b.link)
			m.linkItems = append(m.linkItems, i)
		}
		lines = append(lines, b.lines...)
	}
	m.lines = lines
}

func (m Model) divider(day string) string {
	w := m.width
	label := " " + day + " "
	side := max(0, (w-ansi.StringWidth(label))/2)
	s := strings.Repeat("─", side) + label
	s += strings.Repeat("─", max(0, w-ansi.StringWidth(s)))
	return m.ctx.Styles.Divider.Render(ansi.Truncate(s, w, ""))
}

// block renders one message, fitted to the pane's width (once, so View only copies): a
// header (name, role, time, delivery state), the wrapped body and the attachment, if any
// (a line with its file name and host, layout.LinkLine). Contact messages sit on the left,
// operator messages are indented to the right.
func (m Model) block(it item) block {
	st := m.ctx.Styles
	w := max(10, m.width)
	// One column of margin on each side keeps text off the pane's border.
	const margin = 1
	indent := margin
	if it.fromOperator {
		indent += min(w/4, 16)
	}
	bodyW := w - indent - margin
	nameStyle := st.ContactName
	role := "contact"
	switch {
	case it.fromOperator && it.bot:
		nameStyle, role = st.BotName, "bot"
	case it.fromOperator:
		nameStyle, role = st.OperatorName, "operator"
	}
	name := it.name
	if name == "" {
		name = "(" + role + ")"
	}
	// Name, role, time and delivery state on one line when they fit; else they wrap at
	// their separators, so that a narrow pane cuts neither the sender nor the state.
	parts := []string{role, it.at.In(m.ctx.Now().Location()).Format("15:04")}
	if it.fromOperator && it.state != "" {
		parts = append(parts, it.state)
	}
	prefix := strings.Repeat(" ", indent)
	var out []string
	name = ansi.Truncate(name, bodyW, "…")
	cur, curW := nameStyle.Render(name), ansi.StringWidth(name)
	for _, p := range parts {
		pw := ansi.StringWidth(p)
		if curW+3+pw <= bodyW {
			cur += st.MessageMeta.Render(" · " + p)
			curW += 3 + pw
			continue
		}
		out = append(out, prefix+cur)
		p = ansi.Truncate(p, bodyW, "…")
		cur, curW = st.MessageMeta.Render(p), ansi.StringWidth(p)
	}
	out = append(out, prefix+cur)
	body := it.body
	if body == "" && !it.attached() {
		body = st.Muted.Render("(empty message)")
	}
	if body != "" {
		for _, l := range strings.Split(body, "\n") {
			wrapped := ansi.Wrap(l, max(1, bodyW-2), "")
			for _, wl := range strings.Split(wrapped, "\n") {
				out = append(out, prefix+"  "+wl)
			}
		}
	}
	b := block{link: -1}
	if it.attached() {
		out = append(out, prefix+layout.LinkLine(st, layout.GlyphAttachment, "", it.link, m.ctx.Hyperlinks, false))
		if it.link.Web() {
			b.link = len(out) - 1
			b.marked = layout.Fit(prefix+layout.LinkLine(st, layout.GlyphAttachment, "", it.link, m.ctx.Hyperlinks, true), m.width)
		}
	}
	out = append(out, "")
	for i, l := range out {
		out[i] = layout.Fit(l, m.width)
	}
	b.lines = out
	return b
}

// MarkedLink is the web link the copy key copies: the lowest one in view, which the pane
// marks (▸) while it is focused. False when no web link is in view.
func (m Model) MarkedLink() (sanitize.Link, bool) {
	j := layout.LowestInView(m.linkLines, m.offset, m.viewHeight())
	if j < 0 || !m.opened {
		return sanitize.Link{}, false
	}
	return m.items[m.linkItems[j]].link, true
}

// View renders the header line and the visible lines, exactly width×height.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.ctx.Styles
	var b strings.Builder
	b.WriteString(layout.Pad(m.header(), m.width)) // a long contact name ends in …
	vh := m.viewHeight()
	switch {
	case m.convID == 0:
		b.WriteString("\n" + layout.Fit(st.Muted.Render("  Select a conversation ("+m.ctx.Keys.Open.Help().Key+" opens it)."), m.width))
		vh--
	case !m.opened && m.loading:
		b.WriteString("\n" + layout.Fit(st.Loading.Render("  Loading messages…"), m.width))
		vh--
	case m.opened && len(m.items) == 0:
		b.WriteString("\n" + layout.Fit(st.Muted.Render("  No messages."), m.width))
		vh--
	default:
		end := min(len(m.lines), m.offset+vh)
		marked := -1 // the line of the link the copy key copies, marked while focused
		if j := layout.LowestInView(m.linkLines, m.offset, vh); j >= 0 && m.focused {
			marked = j
		}
		for i := m.offset; i < end; i++ {
			line := m.lines[i] // fitted by rebuild
			switch {
			case marked >= 0 && i == m.linkLines[marked]:
				line = m.blocks[m.items[m.linkItems[marked]].id].marked
			case m.gap && i == m.gapLine && m.loading:
				line = layout.Fit(st.Loading.Render("  ⟳ loading the messages between…"), m.width)
			case m.gap && i == m.gapLine:
				line = layout.Fit(st.Muted.Render("  ┄ messages between not loaded yet: scroll to load ┄"), m.width)
			case i == m.offset && m.offset == 0 && m.loading && !m.gap:
				line = layout.Fit(st.Loading.Render("  ⟳ loading older messages…"), m.width)
			}
			b.WriteString("\n")
			b.WriteString(line)
			vh--
		}
	}
	for ; vh > 0; vh-- {
		b.WriteString("\n" + strings.Repeat(" ", m.width))
	}
	return b.String()
}

// position says where the view is: "top" at the first message of the thread, "bottom"
// at the newest, a percentage when the whole thread is loaded, else what is known for
// sure: how many messages are older than the one at the top of the view (among the oldest
// ones, loaded from the first) or newer (among the newest, loaded to the last). Nothing
// when everything fits.
func (m Model) position() string {
	if !m.opened || len(m.lines) <= m.viewHeight() {
		return ""
	}
	switch {
	case m.offset == 0 && m.startLoaded():
		return "top"
	case m.atBottom():
		return "bottom"
	case !m.gap && m.next == "":
		return fmt.Sprintf("%d%%", max(1, min(99, m.offset*100/max(1, m.maxOffset()))))
	}
	id, _ := m.anchor()
	i := slices.IndexFunc(m.items, func(it item) bool { return it.id == id })
	if i < 0 {
		return ""
	}
	if m.gap && i < m.gapAt {
		return fmt.Sprintf("%d older", i)
	}
	return fmt.Sprintf("%d newer", len(m.items)-1-i)
}

// Gap reports whether messages between the oldest and the newest loaded are missing.
func (m Model) Gap() bool { return m.gap }

// SetTitle renames the open conversation convID in the header (the contact's name, which
// may arrive or change after Open); other conversations are left alone.
func (m *Model) SetTitle(convID int64, title string) {
	if convID != 0 && convID == m.convID {
		m.title = title
	}
}

func (m Model) header() string {
	st := m.ctx.Styles
	if m.convID == 0 {
		return st.Muted.Render(" Messages")
	}
	// The counts come first: a long contact name is what a narrow pane cuts.
	h := fmt.Sprintf(" #%d · %d loaded", m.convID, len(m.items))
	switch {
	case m.loading && m.opened && m.pending == pageOldest:
		h += " · " + st.Loading.Render("loading the first…")
	case m.loading && m.opened && m.pending == pageNewer:
		h += " · " + st.Loading.Render("loading newer…")
	case m.loading && m.opened:
		h += " · " + st.Loading.Render("loading older…")
	case m.err != nil:
		h += " · " + st.Error.Render("failed: "+m.ctx.Keys.Refresh.Help().Key+" retries")
	case m.opened && m.next == "" && !m.gap:
		h += " · all"
	}
	if p := m.position(); p != "" && m.err == nil {
		h += " · " + p
	}
	if m.title == "" {
		return h
	}
	return h + " · " + m.title
}
