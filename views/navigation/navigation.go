// Package navigation is the navigation screen: the pages contacts visited (time, contact,
// conversation, title, URL, referrer), newest or oldest first, paged 100 at a time with the
// next page fetched before the cursor reaches the end. enter on an event with a
// conversation opens that conversation; p shows every field of the selected event, also
// those parley does not read. A value the server did not send shows as "—".
package navigation

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/detail"
)

// Orderings the screen toggles between with `o` (the spec's two).
const (
	OrderNewest = "-id"
	OrderOldest = "id"
)

// requestTimeout bounds one page request (retries included).
const requestTimeout = 90 * time.Second

// wideRow is the inner width from which an event takes one line instead of two.
const wideRow = 120

// idsWidth fits "contact 1234567 · conv 1234567" in the two-line layout.
const idsWidth = 30

// Row is the sanitized form of a navigation event.
type Row struct {
	ID             int64
	ContactID      int64 // 0 = none
	ConversationID int64 // 0 = none
	Title          string
	URL            string
	Referrer       string
	At             time.Time // zero: not sent
	// Extra is the event's fields that parley does not read, as sanitized "key=value".
	Extra []string
}

// RowFrom builds a Row from an API event, sanitizing every text.
func RowFrom(e client.NavigationEvent) Row {
	r := Row{
		ID:    e.ID,
		Title: sanitize.Line(e.Title),
		URL:   sanitize.Line(e.URL),
		At:    e.CreatedAt.Time,
	}
	if e.ContactIdentityID != nil {
		r.ContactID = *e.ContactIdentityID
	}
	if e.ConversationID != nil {
		r.ConversationID = *e.ConversationID
	}
	if e.Referrer != nil {
		r.Referrer = sanitize.Line(*e.Referrer)
	}
	for _, p := range e.Extra.Pairs() {
		r.Extra = append(r.Extra, sanitize.Line(p))
	}
	return r
}

func rowID(r Row) int64 { return r.ID }

type pageMsg common.Page[Row]

type mergeMsg struct {
	gen  int
	rows []Row
	err  error
	at   time.Time
}

// Model is the navigation screen.
type Model struct {
	ctx      *common.Ctx
	ordering string

	rows   []Row
	index  map[int64]int
	win    common.Window
	width  int
	height int

	pg      common.Pager
	active  bool
	merging bool
	stale   bool
	at      time.Time
	detail  bool // the selected event's fields are shown below the list
}

// New returns the screen; it loads when first shown.
func New(ctx *common.Ctx) *Model {
	return &Model{ctx: ctx, ordering: OrderNewest, index: map[int64]int{}}
}

// Init does nothing: the first page loads when the screen is first shown.
func (m *Model) Init() tea.Cmd { return nil }

// Title names the screen.
func (m *Model) Title() string { return "Navigation" }

// Capturing is false.
func (m *Model) Capturing() bool { return false }

// Rows are the loaded events.
func (m *Model) Rows() []Row { return m.rows }

// Ordering is the current ordering (-id or id).
func (m *Model) Ordering() string { return m.ordering }

// Total is the server's count.
func (m *Model) Total() int { return m.pg.Total }

// Loaded reports that a page arrived; Loading a request in flight.
func (m *Model) Loaded() bool  { return m.pg.Loaded }
func (m *Model) Loading() bool { return m.pg.Loading || m.merging }

// Selected is the event under the cursor.
func (m *Model) Selected() (Row, bool) {
	i, ok := m.pg.RowAt(m.win.Cursor)
	if !ok || i < 0 || i >= len(m.rows) {
		return Row{}, false // an event of the gap, not loaded yet
	}
	return m.rows[i], true
}

// positions is how many events the cursor moves over: those loaded and those of the gap
// that bottom (G) leaves between the first pages and the last one.
func (m *Model) positions() int { return m.pg.Len(len(m.rows)) }

// Focus shows the screen and loads it the first time (or after a context change).
func (m *Model) Focus() tea.Cmd {
	m.active = true
	if !m.pg.Loaded || m.stale {
		m.stale = false
		return m.Load(false)
	}
	return nil
}

// Blur hides the screen.
func (m *Model) Blur() { m.active = false }

// DetailShown reports whether the selected event's fields are shown.
func (m *Model) DetailShown() bool { return m.detail }

// SetSize sets the screen's size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.win.SetSize(m.bodyHeight() / m.itemHeight())
	m.win.Clamp(m.positions())
}

// Load fetches the first page of the current ordering (fresh skips the response cache).
func (m *Model) Load(fresh bool) tea.Cmd {
	sel, _ := m.Selected()
	r := m.pg.Start(true, sel.ID)
	m.merging = false
	c, ordering, limit, now := m.ctx.Client, m.ordering, m.ctx.PageLimit(), m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(requestTimeout, fresh)
		defer cancel()
		p, err := c.ListNavigation(ctx, client.NavigationListOptions{ListOptions: client.ListOptions{Limit: limit, Ordering: ordering}})
		if err != nil {
			err = fmt.Errorf("load navigation events: %w", err)
		}
		return pageMsg(common.FirstPage(r, p, err, RowFrom, now()))
	}
}

// more follows the next link verbatim when there is one and nothing is in flight.
func (m *Model) more() tea.Cmd {
	if !m.pg.Ready() || m.pg.Link == "" {
		return nil
	}
	r := m.pg.Next()
	link, c, now := m.pg.Link, m.ctx.Client, m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p := common.FetchNext(ctx, c, r, link, common.LinkOffset, nil, RowFrom)
		if p.Err != nil {
			p.Err = fmt.Errorf("load more navigation events: %w", p.Err)
		}
		p.At = now()
		return pageMsg(p)
	}
}

// refreshNew asks for the newest page and merges events not shown yet on top (newest
// first only: there new events sort first).
func (m *Model) refreshNew() tea.Cmd {
	if !m.pg.Loaded || m.pg.Loading || m.merging || m.ordering != OrderNewest {
		return nil
	}
	m.merging = true
	gen, c, limit, now := m.pg.Gen(), m.ctx.Client, m.ctx.PageLimit(), m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		p, err := c.ListNavigation(client.Fresh(ctx), client.NavigationListOptions{ListOptions: client.ListOptions{Limit: limit, Ordering: OrderNewest}})
		if err != nil {
			return mergeMsg{gen: gen, err: err}
		}
		return mergeMsg{gen: gen, rows: common.Map(p.Results, RowFrom), at: now()}
	}
}

// Update handles pages and, when active, keys.
func (m *Model) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return m, m.onKey(msg)
	case pageMsg:
		return m, m.onPage(msg)
	case mergeMsg:
		return m, m.onMerge(msg)
	case common.RefreshMsg:
		if !m.active {
			return m, nil
		}
		if msg.Auto {
			return m, m.refreshNew()
		}
		return m, m.Load(true)
	case common.ContextChangedMsg:
		if msg.OperatorOnly && m.pg.Loaded {
			// The same organization's events: keep them and the cursor while they load
			// again (as the new operator).
			m.merging = false
			if !m.active {
				m.stale = true
				return m, nil
			}
			return m, m.Load(true)
		}
		m.rows = nil
		m.win.Reset()
		clear(m.index)
		m.pg.Reset()
		m.merging = false
		if !m.active {
			m.stale = true
			return m, nil
		}
		return m, m.Load(false)
	}
	return m, nil
}

func (m *Model) onPage(msg pageMsg) tea.Cmd {
	// A page into the gap moves the events after it: the cursor stays on its event, or on
	// the last one when it was there (bottom before the last page arrived).
	selected, _ := m.Selected()
	atEnd := m.win.Cursor == m.positions()-1
	rows, ok := common.AddPage(&m.pg, m.rows, m.index, common.Page[Row](msg), rowID)
	if !ok {
		return nil // stale
	}
	if msg.Err != nil {
		return common.ErrorToast(msg.Err)
	}
	m.rows = rows
	m.at = msg.At
	switch i, ok := m.index[selected.ID]; {
	case msg.Replace:
		m.win.Reset()
		if i, ok := common.KeepAt(msg.Request, m.index, selected.ID); ok {
			m.win.Cursor = i
		}
	case ok && selected.ID != 0:
		m.win.Cursor = m.pg.PosOf(i)
	case atEnd:
		m.win.Cursor = m.positions() - 1
	}
	m.win.Clamp(m.positions())
	at := msg.At
	return tea.Batch(m.prefetch(), func() tea.Msg { return common.RefreshedMsg{At: at} })
}

func (m *Model) onMerge(msg mergeMsg) tea.Cmd {
	if msg.gen != m.pg.Gen() {
		return nil
	}
	m.merging = false
	if msg.err != nil || !m.pg.Loaded {
		return nil // auto-refresh failures stay quiet
	}
	m.at = msg.at
	var fresh []Row
	top := int64(0)
	if len(m.rows) > 0 {
		top = m.rows[0].ID
	}
	for _, r := range msg.rows {
		if _, shown := m.index[r.ID]; r.ID > top && !shown {
			fresh = append(fresh, r)
		}
	}
	if len(fresh) > 0 {
		m.rows = append(fresh, m.rows...)
		m.pg.Shift(len(fresh))
		common.Reindex(m.index, m.rows, rowID)
		m.pg.Total += len(fresh)
		m.win.Cursor += len(fresh)
		m.win.Offset += len(fresh)
		m.win.Clamp(m.positions())
	}
	at := msg.at
	return func() tea.Msg { return common.RefreshedMsg{At: at} }
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
	r := m.pg.Begin(w, m.ctx.PageLimit())
	link, c, ordering, limit, now := m.pg.Gap.Prev, m.ctx.Client, m.ordering, m.ctx.PageLimit(), m.ctx.Now
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		var p common.Page[Row]
		if w == common.BeforeLast {
			p = common.FetchNext(ctx, c, r, link, common.LinkOffset, nil, RowFrom)
		} else {
			pg, err := c.ListNavigation(ctx, client.NavigationListOptions{ListOptions: client.ListOptions{Limit: limit, Offset: r.Offset, Ordering: ordering}})
			p = common.FirstPage(r, pg, err, RowFrom, time.Time{})
		}
		if p.Err != nil {
			p.Err = fmt.Errorf("load more navigation events: %w", p.Err)
		}
		p.At = now()
		return pageMsg(p)
	}
}

func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.ctx.Keys
	if key.Matches(msg, k.Bottom) {
		// The last event, by loading the last page (not every page before it).
		m.pg.JumpEnd(len(m.rows))
	}
	if m.win.HandleMoveKey(msg, k, m.positions()) {
		return m.prefetch()
	}
	switch {
	case key.Matches(msg, k.Order):
		if m.ordering == OrderNewest {
			m.ordering = OrderOldest
		} else {
			m.ordering = OrderNewest
		}
		m.win.Reset()
		return m.Load(false)
	case key.Matches(msg, k.Refresh):
		return m.Load(true)
	case key.Matches(msg, k.ToggleDetail):
		m.detail = !m.detail
		m.SetSize(m.width, m.height)
		return m.prefetch()
	case key.Matches(msg, k.Open):
		r, ok := m.Selected()
		if !ok {
			return nil
		}
		if r.ConversationID == 0 {
			return common.Toast(fmt.Sprintf("Event #%d belongs to no conversation", r.ID))
		}
		then := common.OpenConversationMsg{ConversationID: r.ConversationID, ContactID: r.ContactID, From: "navigation"}
		return func() tea.Msg {
			return common.SwitchScreenMsg{Screen: common.ScreenConversations, Then: then}
		}
	}
	return nil
}

func (m *Model) innerW() int { return max(0, m.width-2) }
func (m *Model) innerH() int { return max(0, m.height-2) }

// itemHeight is 1 line per event when wide, else 2.
func (m *Model) itemHeight() int {
	if m.innerW() >= wideRow {
		return 1
	}
	return 2
}

// bodyHeight is the lines for events (a header, column titles when wide, the selected
// event's fields when shown, and a footer).
func (m *Model) bodyHeight() int {
	return max(0, m.room()-m.detailHeight())
}

// room is the lines below the header and the column titles, above the footer.
func (m *Model) room() int {
	h := m.innerH() - 2
	if m.itemHeight() == 1 {
		h--
	}
	return max(0, h)
}

// detailHeight is the lines of the selected event's fields: half the room, leaving one
// event; none when they are not shown.
func (m *Model) detailHeight() int {
	room := m.room()
	if !m.detail || room <= m.itemHeight() {
		return 0
	}
	return min(max(room/2, 9), room-m.itemHeight())
}

// ShortHelp lists the screen's main keys.
func (m *Model) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{k.Down, k.Up, k.Open, k.Order, k.ToggleDetail, k.Refresh}
}

// FullHelp groups every key of the screen.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.ctx.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.Top, k.Bottom, k.PageDown, k.PageUp},
		{k.Open, k.Order, k.ToggleDetail, k.Refresh},
	}
}

// View renders the frame with the visible events only, exactly the size given.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.ctx.Styles
	w, h := m.innerW(), m.innerH()
	lines := make([]string, 0, h)
	lines = append(lines, st.HeaderLine.Render(m.header()))
	if m.itemHeight() == 1 {
		lines = append(lines, st.Muted.Render(m.titles()))
	}
	switch {
	case len(m.rows) == 0:
		msg := []string{"  No navigation events."}
		switch {
		case !m.pg.Loaded || m.pg.Loading:
			msg = []string{"  Loading navigation events…"}
		case m.pg.Err != nil:
			msg = common.LoadFailedLines(m.pg.Err, m.ctx.Keys.Refresh.Help().Key, w, 4)
		}
		for _, l := range msg {
			lines = append(lines, st.Muted.Render(l))
		}
	default:
		end := m.win.End(m.positions())
		for pos := m.win.Offset; pos < end; pos++ {
			if i, ok := m.pg.RowAt(pos); ok && i < len(m.rows) {
				lines = append(lines, strings.Split(m.entry(i, pos == m.win.Cursor), "\n")...)
				continue
			}
			lines = append(lines, common.GapEntry(m.ctx.Styles, pos == m.win.Cursor, m.active, m.itemHeight(), m.innerW())...)
		}
	}
	dh := m.detailHeight()
	for len(lines) < h-1-dh {
		lines = append(lines, "")
	}
	lines = lines[:max(0, h-1-dh)]
	if dh > 0 {
		lines = append(lines, m.detailLines(w, dh)...)
	}
	lines = append(lines, m.footer())
	return common.Frame(m.ctx.FrameStyles(), "Navigation", common.Block(lines, w, h), m.width, m.height, m.active)
}

// detailLines lay out the selected event's fields, w×h, each as the server sent it ("—"
// where it sent none), then the fields parley does not read.
func (m *Model) detailLines(w, h int) []string {
	r, ok := m.Selected()
	if !ok {
		return detail.Record(m.ctx.Styles, "Event", nil, nil, w, h)
	}
	at := ""
	if !r.At.IsZero() {
		at = r.At.In(m.ctx.Now().Location()).Format("2006-01-02 15:04:05")
	}
	contact := ""
	if r.ContactID != 0 {
		contact = fmt.Sprint(r.ContactID)
		if name := m.ctx.ContactName(r.ContactID); name != "" {
			contact = name + " (#" + contact + ")"
		}
	}
	conv := ""
	if r.ConversationID != 0 {
		conv = fmt.Sprint(r.ConversationID)
	}
	fields := []detail.Field{
		{Label: "Time", Value: at},
		{Label: "Contact", Value: contact},
		{Label: "Conversation", Value: conv},
		{Label: "Title", Value: r.Title},
		{Label: "URL", Value: r.URL},
		{Label: "Referrer", Value: r.Referrer},
	}
	return detail.Record(m.ctx.Styles, fmt.Sprintf("Event #%d", r.ID), fields, r.Extra, w, h)
}

// columns of the one-line layout.
type columns struct{ at, contact, conv, title, url, ref int }

func (m *Model) columns() columns {
	w := m.innerW()
	c := columns{at: 12, contact: 9, conv: 9}
	if w >= 120 && m.ctx.KnowsContacts() {
		c.contact = 18 // room for the names of contacts the lists have seen
	}
	flex := max(3, w-1-c.at-1-c.contact-1-c.conv-1-3)
	c.title = flex * 30 / 100
	c.url = flex * 45 / 100
	c.ref = flex - c.title - c.url
	return c
}

func (m *Model) titles() string {
	c := m.columns()
	contact := common.PadLeft("CONTACT", c.contact)
	if c.contact > 9 {
		contact = common.Pad("CONTACT", c.contact)
	}
	return " " + common.Pad("TIME", c.at) + " " + contact + " " +
		common.PadLeft("CONV", c.conv) + " " + common.Pad("TITLE", c.title) + " " + common.Pad("URL", c.url) + " " +
		common.Pad("REFERRER", c.ref)
}

func (m *Model) when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	now := m.ctx.Now()
	t = t.In(now.Location())
	if t.Year() != now.Year() {
		return t.Format("2006-01-02")
	}
	return t.Format("Jan 02 15:04")
}

func id(v int64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprint(v)
}

// entry renders event i, highlighted when selected (under the cursor).
func (m *Model) entry(i int, selected bool) string {
	r := &m.rows[i]
	if !selected {
		return m.render(r, true)
	}
	style := m.ctx.Styles.SelectedBlurred
	if m.active {
		style = m.ctx.Styles.Selected
	}
	parts := strings.Split(m.render(r, false), "\n")
	for j, p := range parts {
		parts[j] = style.Render(common.Fit(p, m.innerW()))
	}
	return strings.Join(parts, "\n")
}

func (m *Model) render(r *Row, styled bool) string {
	st := m.ctx.Styles
	paint := common.PaintIf(styled)
	w := m.innerW()
	title := r.Title
	if title == "" {
		title = "(no title)"
	}
	ref := r.Referrer
	if m.itemHeight() == 1 {
		c := m.columns()
		contact := common.PadLeft(id(r.ContactID), c.contact)
		if c.contact > 9 { // names and ids, left-aligned alike
			contact = common.Pad(cmp.Or(m.ctx.ContactName(r.ContactID), id(r.ContactID)), c.contact)
		}
		return " " + paint(common.Pad(m.when(r.At), c.at), st.Muted) + " " +
			contact + " " + common.PadLeft(id(r.ConversationID), c.conv) + " " +
			paint(common.Pad(title, c.title), st.Bold) + " " + paint(common.Pad(r.URL, c.url), st.Topic) + " " +
			paint(common.Pad(ref, c.ref), st.Muted)
	}
	at := m.when(r.At)
	who := "contact " + id(r.ContactID)
	if name := m.ctx.ContactName(r.ContactID); name != "" {
		who = name
	}
	ids := who + " · conv " + id(r.ConversationID)
	idsW := min(idsWidth, max(0, w/2))
	titleW := max(1, w-1-12-1-1-idsW)
	line1 := " " + paint(common.Pad(at, 12), st.Muted) + " " + paint(common.Pad(title, titleW), st.Bold) + " " +
		paint(common.PadLeft(ids, idsW), st.Muted)
	line2 := "   " + paint(r.URL, st.Topic)
	if ref != "" {
		line2 += paint("  ← "+ref, st.Muted)
	}
	return common.Fit(line1, w) + "\n" + common.Pad(line2, w) // a cut URL ends in "…"
}

// header counts the events and names the ordering.
func (m *Model) header() string {
	count := "…"
	if m.pg.Loaded && !(m.pg.Err != nil && len(m.rows) == 0) {
		count = common.Thousands(m.pg.Total)
	}
	order := "newest first"
	if m.ordering == OrderOldest {
		order = "oldest first"
	}
	return fmt.Sprintf(" %s navigation events · order:%s (%s, %s toggles)", count, m.ordering, order, m.ctx.Keys.Order.Help().Key)
}

// footer shows the position, the loading state and the keys.
func (m *Model) footer() string {
	st := m.ctx.Styles
	k := m.ctx.Keys
	left := ""
	if len(m.rows) > 0 {
		left = fmt.Sprintf(" %s/%s", common.Thousands(m.win.Cursor+1), common.Thousands(m.pg.Total))
		if len(m.rows) < m.pg.Total {
			left += st.Muted.Render(fmt.Sprintf(" (%s loaded)", common.Thousands(len(m.rows))))
		}
	}
	switch {
	case m.pg.Err != nil && len(m.rows) > 0:
		left += " · " + st.Error.Render("load failed; "+k.Refresh.Help().Key+" retries")
	case m.pg.Loading && m.pg.Loaded:
		left += " · " + st.Loading.Render("loading…")
	}
	right := st.Muted.Render(fmt.Sprintf("%s open conversation · %s order · %s detail · %s refresh ",
		k.Open.Help().Key, k.Order.Help().Key, k.ToggleDetail.Help().Key, k.Refresh.Help().Key))
	return common.Spread(left, right, m.innerW())
}
