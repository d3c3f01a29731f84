// Package navigation is the navigation screen: the pages contacts visited (time, contact,
// conversation, title, URL, referrer), newest or oldest first, paged 100 at a time with the
// next page fetched before the cursor reaches the end. enter on an event with a
// conversation opens that conversation (esc there comes back); p shows every field of the
// selected event, also those parley does not read, with the whole URL wrapped; y copies the
// event's URL. A value the server did not send shows as "—".
package navigation

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/clipboard"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/sanitize"
)

// Orderings the screen toggles between with `o` (the spec's two).
const (
	OrderNewest = "-id"
	OrderOldest = "id"
)

// wideRow is the inner width from which an event takes one line instead of two. Below it
// (a 120-column terminal's list has 118) the second line shows the URL whole, which one
// line would cut at about 40 cells.
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

type mergeMsg struct {
	owner, gen int
	rows       []Row
	err        error
	at         time.Time
}

// Model is the navigation screen: the list component fed by the screen itself (the source
// of its ordering's pages), in a frame, with the selected event's fields below the rows
// when shown.
type Model struct {
	common.Base
	ctx      *common.Ctx
	ordering string
	l        list.Model[Row]

	width, height int
	merging       bool
	stale         bool
	detail        bool // the selected event's fields are shown below the list
}

// New returns the screen; it loads when first shown.
func New(ctx *common.Ctx) *Model {
	m := &Model{ctx: ctx, ordering: OrderNewest}
	m.l = list.New[Row](ctx, source{m: m, ordering: OrderNewest}, list.Options{ShowLoaded: true})
	return m
}

// source is the screen's side of its list for one ordering: the pages are fetched in
// ordering; the rows are laid out and described by the screen.
type source struct {
	m        *Model
	ordering string
}

// Pages lists the events in the source's ordering from the offset endpoint.
func (s source) Pages() list.Fetcher[Row] {
	ordering := s.ordering
	return list.Endpoints[client.NavigationEvent, Row]{
		What: "navigation events", One: "navigation event", Row: RowFrom, ID: rowID,
		Offset: func(ctx context.Context, c *client.Client, limit, offset int) (*client.Page[client.NavigationEvent], error) {
			return c.ListNavigation(ctx, client.NavigationListOptions{ListOptions: client.ListOptions{Limit: limit, Offset: offset, Ordering: ordering}})
		},
	}
}

// Rows are the loaded events.
func (m *Model) Rows() []Row { return m.l.Rows() }

// Ordering is the current ordering (-id or id).
func (m *Model) Ordering() string { return m.ordering }

// Total is the server's count.
func (m *Model) Total() int { return m.l.Total() }

// Loaded reports that a page arrived; Loading a request in flight.
func (m *Model) Loaded() bool  { return m.l.Loaded() }
func (m *Model) Loading() bool { return m.l.Loading() || m.merging }

// Selected is the event under the cursor.
func (m *Model) Selected() (Row, bool) { return m.l.Selected() }

// Focus shows the screen and loads it the first time (or after a context change).
func (m *Model) Focus() tea.Cmd {
	m.l.Focus()
	if !m.l.Loaded() || m.stale {
		m.stale = false
		return m.Load(false)
	}
	return nil
}

// UsesBack is false (common.BackUser): esc has nothing of the screen's own to do, so after
// a jump here it goes back.
func (m *Model) UsesBack() bool { return false }

// Blur hides the screen.
func (m *Model) Blur() { m.l.Blur() }

// DetailShown reports whether the selected event's fields are shown.
func (m *Model) DetailShown() bool { return m.detail }

// SetSize sets the screen's size: the list takes the frame's inside.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.l.SetSize(max(0, w-2), max(0, h-2))
}

// Load fetches the first page of the current ordering (fresh skips the response cache).
func (m *Model) Load(fresh bool) tea.Cmd {
	m.merging = false
	return m.l.Load(fresh)
}

// refreshNew asks for the newest page and merges events not shown yet on top (newest
// first only: there new events sort first).
func (m *Model) refreshNew() tea.Cmd {
	if !m.l.Loaded() || m.l.Loading() || m.merging || m.ordering != OrderNewest {
		return nil
	}
	m.merging = true
	owner, gen, c, limit, now, share := m.l.Owner(), m.l.Gen(), m.ctx.Client, m.ctx.PageLimit(), m.ctx.Now, m.ctx.SharePolls
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(common.RequestTimeout, true)
		defer cancel()
		// One attempt: the next tick asks again; in the hub another session's answer of a
		// moment ago will do.
		p, err := c.ListNavigation(client.Within(client.Poll(ctx), share), client.NavigationListOptions{ListOptions: client.ListOptions{Limit: limit, Ordering: OrderNewest}})
		if err != nil {
			return mergeMsg{owner: owner, gen: gen, err: err}
		}
		return mergeMsg{owner: owner, gen: gen, rows: list.Map(p.Results, RowFrom), at: now()}
	}
}

// Update handles pages and, when active, keys.
func (m *Model) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	if cmd, ok := common.Input(msg, m.onKey, m.onClick, m.onWheel); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case mergeMsg:
		return m, m.onMerge(msg)
	case common.RefreshMsg:
		if !m.l.Focused() {
			return m, nil
		}
		if msg.Auto {
			return m, m.refreshNew()
		}
		return m, m.Load(true)
	case common.ContextChangedMsg:
		m.merging = false
		// The same organization's events are kept, with the cursor, while they load again
		// as the new operator; another organization's go.
		keep := msg.OperatorOnly && m.l.Loaded()
		if !keep {
			m.l.Forget()
		}
		if !m.l.Focused() {
			m.stale = true
			return m, nil
		}
		return m, m.Load(keep)
	}
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg)
	return m, cmd
}

func (m *Model) onMerge(msg mergeMsg) tea.Cmd {
	if msg.owner != m.l.Owner() || msg.gen != m.l.Gen() {
		return nil
	}
	m.merging = false
	if msg.err != nil || !m.l.Loaded() {
		return nil // auto-refresh failures stay quiet
	}
	var fresh []Row
	top := int64(0)
	if rows := m.l.Rows(); len(rows) > 0 {
		top = rows[0].ID
	}
	for _, r := range msg.rows {
		if _, shown := m.l.Row(r.ID); r.ID > top && !shown {
			fresh = append(fresh, r)
		}
	}
	m.l.PutOnTop(fresh, len(fresh))
	at := msg.at
	return func() tea.Msg { return common.RefreshedMsg{At: at} }
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.ctx.Keys
	switch {
	case key.Matches(msg, k.Order):
		if m.ordering == OrderNewest {
			m.ordering = OrderOldest
		} else {
			m.ordering = OrderNewest
		}
		m.merging = false
		return m.l.Show(source{m: m, ordering: m.ordering})
	case key.Matches(msg, k.ToggleDetail):
		m.detail = !m.detail
		return m.l.Refit()
	case key.Matches(msg, k.Open):
		return m.open()
	case key.Matches(msg, k.CopyID):
		r, ok := m.Selected()
		if cmd, stop := common.Unusable(ok, r.URL == "", "Event #%d has no URL", r.ID); stop {
			return cmd
		}
		return clipboard.Copy(m.ctx, r.URL, fmt.Sprintf("the URL of event #%d", r.ID))
	}
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg)
	return cmd
}

// open opens the selected event's conversation on the conversations screen (enter, or a
// click on the selected row).
func (m *Model) open() tea.Cmd {
	r, ok := m.Selected()
	if cmd, stop := common.Unusable(ok, r.ConversationID == 0, "Event #%d belongs to no conversation", r.ID); stop {
		return cmd
	}
	then := common.OpenConversationMsg{ConversationID: r.ConversationID, ContactID: r.ContactID, From: "navigation"}
	return common.ScreenNavigation.Jump(common.ScreenConversations, then)
}

// itemHeight is 1 line per event when wide, else 2.
func itemHeight(w int) int {
	if w >= wideRow {
		return 1
	}
	return 2
}

// RowHeight is 1 line per event when wide, else 2.
func (s source) RowHeight(w int) int { return itemHeight(w) }

// DetailHeight is the lines of the selected event's fields out of room: half of it, leaving
// one event; none when they are not shown.
func (s source) DetailHeight(room int, st list.Status) int {
	h := itemHeight(st.Width)
	if !s.m.detail || room <= h {
		return 0
	}
	return min(max(room/2, 9), room-h)
}

// Detail lays out the selected event's fields.
func (s source) Detail(w, h int) []string { return s.m.detailLines(w, h) }

// Where is the navigation screen.
func (m *Model) Where() keymap.Where { return keymap.InNavigation }

// View renders the frame with the visible events only, exactly the size given.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	return layout.Frame(m.ctx.FrameStyles(), "Navigation", m.l.View(), m.width, m.height, m.l.Focused())
}

// detailLines lay out the selected event's fields, w×h, each as the server sent it ("—"
// where it sent none), then the fields parley does not read.
func (m *Model) detailLines(w, h int) []string {
	r, ok := m.Selected()
	if !ok {
		return layout.Record(m.ctx.Styles, "Event", nil, nil, w, h)
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
	fields := []layout.Field{
		{Label: "Time", Value: at},
		{Label: "Contact", Value: contact},
		{Label: "Conversation", Value: conv},
		{Label: "Title", Value: r.Title},
		{Label: "URL", Value: r.URL, Whole: true},
		{Label: "Referrer", Value: r.Referrer},
	}
	return layout.Record(m.ctx.Styles, fmt.Sprintf("Event #%d", r.ID), fields, r.Extra, w, h)
}

// cells is what a one-line event's cells are drawn from.
type cells struct {
	s     source
	r     *Row
	st    *theme.Styles
	title string // the title as shown
}

// eventColumns lay a one-line event out: time, contact, conversation, title, URL and
// referrer. The URL is what an event is about: it takes what the title (30 %, at most 48
// cells) and the referrer (20 %, at most 40) leave, 61 cells at 160 columns and 81 at 200.
// From named columns on (0: never) the contact column names the contacts the lists have
// seen, with room for their names.
func eventColumns(named int) layout.Table[cells] {
	cols := []layout.Column[cells]{
		{Title: "TIME", Width: 12, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.Pad(c.s.when(c.r.At), w)) }},
		{Title: "CONTACT", Width: 9, Right: true, Until: named, Cell: func(c cells, w int) string { return layout.PadLeft(id(c.r.ContactID), w) }},
	}
	if named > 0 {
		cols = append(cols, layout.Column[cells]{Title: "CONTACT", Pane: layout.Part{N: 1, D: 8}, Min: 18, Max: 28, From: named,
			Cell: func(c cells, w int) string {
				return layout.Pad(cmp.Or(c.s.m.ctx.ContactName(c.r.ContactID), id(c.r.ContactID)), w)
			}})
	}
	cols = append(cols,
		layout.Column[cells]{Title: "CONV", Width: 9, Right: true, Cell: func(c cells, w int) string { return layout.PadLeft(id(c.r.ConversationID), w) }},
		layout.Column[cells]{Title: "TITLE", Flex: layout.Part{N: 30, D: 100}, Max: 48, Cell: func(c cells, w int) string { return c.st.Bold.Render(layout.Pad(c.title, w)) }},
		layout.Column[cells]{Title: "URL", Rest: true, Cell: func(c cells, w int) string { return c.st.Topic.Render(layout.Pad(c.r.URL, w)) }},
		layout.Column[cells]{Title: "REFERRER", Flex: layout.Part{N: 20, D: 100}, Max: 40, Cell: func(c cells, w int) string {
			return c.st.Muted.Render(layout.Pad(c.r.Referrer, w))
		}})
	return layout.Table[cells]{Lead: 1, MinFlex: 3, Columns: cols}
}

// The event columns with contacts by number, and with their names from wideRow on.
var (
	idColumns    = eventColumns(0)
	namedColumns = eventColumns(wideRow)
)

// columns are the event columns as the contacts known so far allow.
func (s source) columns() layout.Table[cells] {
	if s.m.ctx.KnowsContacts() {
		return namedColumns
	}
	return idColumns
}

func (s source) titles(w int) string {
	return s.columns().Header(w)
}

func (s source) when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	now := s.m.ctx.Now()
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

// Stamp is the contact's name learnt from other lists: the row names the contact once it
// is known, and the wide layout gives names room once any is.
func (s source) Stamp(r *Row, _ time.Time) string {
	if s.m.ctx.KnowsContacts() {
		return "+" + s.m.ctx.ContactName(r.ContactID)
	}
	return ""
}

// Render lays out one event.
func (s source) Render(r *Row, cell list.Cell) string {
	st := s.m.ctx.Styles
	w := cell.Width
	title := r.Title
	if title == "" {
		title = "(no title)"
	}
	ref := r.Referrer
	if itemHeight(w) == 1 {
		return s.columns().Line(cell.Mark, cells{s: s, r: r, st: st, title: title}, w)
	}
	at := s.when(r.At)
	who := "contact " + id(r.ContactID)
	if name := s.m.ctx.ContactName(r.ContactID); name != "" {
		who = name
	}
	ids := who + " · conv " + id(r.ConversationID)
	idsW := min(idsWidth, max(0, w/2))
	titleW := max(1, w-1-12-1-1-idsW)
	line1 := cell.Mark + st.Muted.Render(layout.Pad(at, 12)) + " " + st.Bold.Render(layout.Pad(title, titleW)) + " " +
		st.Muted.Render(layout.PadLeft(ids, idsW))
	line2 := "   " + st.Topic.Render(r.URL)
	if ref != "" {
		line2 += st.Muted.Render("  ← " + ref)
	}
	return layout.Fit(line1, w) + "\n" + layout.Pad(line2, w) // a cut URL ends in "…"
}

// Header counts the events and names the ordering in words; the wide layout adds column
// titles.
func (s source) Header(st list.Status) []string {
	styles := s.m.ctx.Styles
	order := "newest first"
	if s.ordering == OrderOldest {
		order = "oldest first"
	}
	lines := []string{styles.HeaderLine.Render(fmt.Sprintf(" %s navigation events · %s (%s toggles)",
		st.Count, order, s.m.ctx.Keys.Order.Help().Key))}
	if itemHeight(st.Width) == 1 {
		lines = append(lines, styles.Muted.Render(s.titles(st.Width)))
	}
	return lines
}

// Empty says there are no events.
func (s source) Empty(list.Status) string { return "No navigation events." }

// Footnote names the screen's keys at the right of the footer.
func (s source) Footnote(list.Status) (note, hints string) {
	k := s.m.ctx.Keys
	return "", s.m.ctx.Styles.Muted.Render(fmt.Sprintf("%s open · %s copy URL · %s order · %s detail · %s refresh ",
		k.Open.Help().Key, k.CopyID.Help().Key, k.Order.Help().Key, k.ToggleDetail.Help().Key, k.Refresh.Help().Key))
}
