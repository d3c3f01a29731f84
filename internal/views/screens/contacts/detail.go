package contacts

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/sat"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/components/notes"
	"github.com/parley-tui/parley/internal/views/components/scroll"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

// maxFieldLines is the most lines one field of the contact takes in the pane.
const maxFieldLines = 4

// DetailPageSize is how many conversations or notes one request asks for.
const DetailPageSize = 100

// The pane's three kinds of requests (common.Loader keys): the contact, a page of its
// conversations and a page of its notes.
const (
	loadContact int64 = iota
	loadConversations
	loadNotes
)

type contactMsg struct {
	stamp   common.Stamp
	id      int64
	contact *client.Contact
	err     error
}

// pageMsg is a page of a section (conversations or notes), stamped by the pane's loader.
type pageMsg[T any] struct {
	stamp common.Stamp
	page  list.Page[T]
}

// section is one of the pane's paged lists, the contact's conversations or its notes: the
// items loaded, the count, the next link, whether a request is in flight, and how it
// loads: its key in the pane's loader, what its errors name, the request of a contact's
// first page, an item of what the API sends and, when set, an item's id (an item already
// loaded is not added again).
type section[A, T any] struct {
	items   []T
	count   int
	next    string
	loading bool
	err     error

	key   int64
	what  string
	first func(ctx context.Context, c *client.Client, contact int64) (*client.Page[A], error)
	row   func(A) T
	id    func(T) int64
}

// conversationsSection is the contact's conversations, newest first, none loaded.
func conversationsSection() section[client.Conversation, listing.Row] {
	return section[client.Conversation, listing.Row]{key: loadConversations, what: "conversations", row: listing.RowFrom,
		first: func(ctx context.Context, c *client.Client, contact int64) (*client.Page[client.Conversation], error) {
			return c.ListConversations(ctx, client.ConversationListOptions{
				ListOptions: client.ListOptions{Limit: DetailPageSize, Ordering: "-last_message_sent_at"},
				Filter:      client.ConversationFilter{ContactIdentityID: contact},
			})
		}}
}

// notesSection is the contact's notes, newest first, none loaded.
func notesSection() section[client.Note, noteItem] {
	return section[client.Note, noteItem]{key: loadNotes, what: "notes", row: noteFrom, id: noteID,
		first: func(ctx context.Context, c *client.Client, contact int64) (*client.Page[client.Note], error) {
			return c.ListNotes(ctx, client.NoteListOptions{
				ListOptions:       client.ListOptions{Limit: DetailPageSize, Ordering: "-created_at"},
				ContactIdentityID: contact,
			})
		}}
}

// begin starts a request of the pane's loader for the section: the first page, or the
// next one.
func (s *section[A, T]) begin(l *common.Loader, first bool) (common.Stamp, context.Context, list.Request) {
	stamp, parent := l.Start(s.key)
	s.loading = true
	if first {
		s.err = nil
	}
	return stamp, parent, list.Request{Replace: first}
}

// more reports whether there is a next page to ask for.
func (s *section[A, T]) more() bool { return !s.loading && s.next != "" }

// heading is the section's title: name, then "(loading…)" while its first page loads, else
// its count (told: the count the contact itself tells, nil when it does not), and nothing
// after a failure.
func (s *section[A, T]) heading(name string, told *int) string {
	switch {
	case s.loading && len(s.items) == 0:
		return name + " (loading…)"
	case told != nil:
		return fmt.Sprintf("%s (%s)", name, layout.Count(*told))
	case s.err == nil:
		return fmt.Sprintf("%s (%s)", name, layout.Count(s.count))
	}
	return name
}

// empty tells what stands in place of the items when there are none: the error of the
// first page, or none once it loaded nothing.
func (s *section[A, T]) empty() (err error, none bool) {
	if len(s.items) > 0 {
		return nil, false
	}
	return s.err, s.err == nil && !s.loading
}

// rest is how many items the next pages hold, and whether there is a next page.
func (s *section[A, T]) rest() (int, bool) { return max(0, s.count-len(s.items)), s.next != "" }

// take applies the page of msg when its stamp names the request awaited of the pane's
// loader l, and reports whether it did. A failed page keeps what is loaded.
func (s *section[A, T]) take(l *common.Loader, msg pageMsg[T]) bool {
	stamp, p := msg.stamp, msg.page
	if stamp.Key != s.key || !l.Take(stamp) {
		return false
	}
	s.loading = false
	if p.Err != nil {
		s.err = p.Err
		return true
	}
	if p.Replace {
		s.items = nil
	}
	if s.id == nil {
		s.items = append(s.items, p.Rows...)
	} else {
		seen := make(map[int64]bool, len(s.items))
		for _, it := range s.items {
			seen[s.id(it)] = true
		}
		for _, it := range p.Rows {
			if !seen[s.id(it)] {
				s.items = append(s.items, it)
			}
		}
	}
	s.count, s.next = max(p.Total, len(s.items)), p.Link
	return true
}

// noteItem is a note reduced to what the pane draws, sanitized.
type noteItem struct {
	id     int64
	author client.Opt[int64] // the operator; null: the organization; unknown: not sent
	at     time.Time         // zero: not sent
	lines  []string          // body lines, sanitized
	extra  []string          // fields parley does not read, sanitized "key=value"
}

func noteFrom(n client.Note) noteItem {
	it := noteItem{id: n.ID, author: n.OperatorID, at: n.CreatedAt.Time,
		lines: strings.Split(sanitize.Text(strings.TrimRight(n.Body, "\n ")), "\n")}
	for _, p := range n.Extra.Pairs() {
		it.extra = append(it.extra, sanitize.Line(p))
	}
	return it
}

func noteID(n noteItem) int64 { return n.id }

// Preview is the note's first non-empty line.
func (n noteItem) preview() string {
	for _, l := range n.lines {
		if s := strings.TrimSpace(l); s != "" {
			return s
		}
	}
	return ""
}

type itemKind int

const (
	itemConversation itemKind = iota
	itemNote
)

// item is a selectable entry of the pane: a conversation or a note.
type item struct {
	kind itemKind
	idx  int // into convs or notes
	line int // first line in lines
	end  int // one past its last line
}

// dline is one laid-out line: styled for display, plain for the selection highlight.
type dline struct {
	styled, plain string
	item          int  // index into items, -1 for text
	body          bool // a line of the item's body: marked at the left edge when selected
}

// Detail is the contact detail pane: every contact field worth seeing, its conversations
// (enter opens one in the conversations screen) and its notes (d deletes one).
type Detail struct {
	ctx     *common.Ctx
	id      int64
	contact *client.Contact // sanitized copy
	loading bool
	err     error
	// loads stamps the requests of the contact, its conversations and its notes; a
	// generation per contact shown (opening another cancels the requests for the one
	// left).
	loads common.Loader

	convs section[client.Conversation, listing.Row]
	notes section[client.Note, noteItem]

	items  []item
	lines  []dline
	cursor int // index into items; -1 = reading the fields
	// first: the contact was just opened and the user has not moved yet: the first entry
	// (the newest conversation) is selected as soon as it is there, so enter opens it.
	first   bool
	pane    scroll.Pane // the scroll position over lines
	width   int
	height  int
	focused bool
}

// NewDetail returns an empty pane.
func NewDetail(ctx *common.Ctx) Detail {
	return Detail{ctx: ctx, cursor: -1, loads: common.NewLoader(ctx), pane: scroll.New(nil),
		convs: conversationsSection(), notes: notesSection()}
}

// ID is the contact shown (0 = none).
func (m Detail) ID() int64 { return m.id }

// Contact is the loaded contact (sanitized), if any.
func (m Detail) Contact() (client.Contact, bool) {
	if m.contact == nil {
		return client.Contact{}, false
	}
	return *m.contact, true
}

// Conversations are the loaded conversations of the contact.
func (m Detail) Conversations() []listing.Row { return m.convs.items }

// NoteIDs are the loaded notes' ids, newest first.
func (m Detail) NoteIDs() []int64 {
	out := make([]int64, len(m.notes.items))
	for i, n := range m.notes.items {
		out[i] = n.id
	}
	return out
}

// NoteFloor is the newest of the notes of contact id that the pane loaded (the highest id),
// when it shows that contact and its notes loaded: a note form opened over it tells the
// notes that existed from one its own lost answer may have created (see writes.NoteFloor).
func (m Detail) NoteFloor(id int64) writes.NoteFloor {
	if id == 0 || id != m.id || m.notes.loading || m.notes.err != nil {
		return writes.NoteFloor{}
	}
	f := writes.NoteFloor{Known: true}
	for _, n := range m.notes.items {
		f.ID = max(f.ID, n.id)
	}
	return f
}

// Loading reports whether anything of the contact is still loading.
func (m Detail) Loading() bool { return m.loading || m.convs.loading || m.notes.loading }

// SetSize sets the inner size.
func (m *Detail) SetSize(w, h int) {
	m.width, m.height = w, h
	m.pane.SetSize(w, h)
	m.rebuild()
}

// Focus marks the pane as focused.
func (m *Detail) Focus() { m.focused = true }

// Blur marks the pane as not focused.
func (m *Detail) Blur() { m.focused = false }

// Clear shows no contact.
func (m *Detail) Clear() {
	m.loads.Next()
	m.id, m.contact, m.err = 0, nil, nil
	m.convs.items, m.notes.items = nil, nil
	m.loading, m.convs.loading, m.notes.loading = false, false, false
	m.cursor, m.first = -1, false
	m.pane.SetOffset(0)
	m.rebuild()
}

// Open loads a contact, its conversations and its notes (three requests). Opening the one
// shown again does nothing unless fresh is set.
func (m *Detail) Open(id int64, fresh bool) tea.Cmd {
	if id == 0 {
		m.Clear()
		return nil
	}
	if id == m.id && !fresh && (m.contact != nil || m.loading) {
		return nil
	}
	if id != m.id {
		m.contact, m.convs.items, m.notes.items = nil, nil, nil
		m.convs.count, m.notes.count, m.convs.next, m.notes.next = 0, 0, "", ""
		m.cursor, m.first = -1, true
		m.pane.SetOffset(0)
	}
	m.loads.Next()
	m.id = id
	m.err = nil
	m.loading = true
	stamp, parent := m.loads.Start(loadContact)
	c := m.ctx.Client
	load := func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.RequestTimeout, fresh)
		defer cancel()
		ct, err := c.GetContact(ctx, id)
		if err != nil {
			err = fmt.Errorf("contact %d: %w", id, err)
		}
		return contactMsg{stamp: stamp, id: id, contact: ct, err: err}
	}
	cmd := tea.Batch(load, m.convs.load(&m.loads, c, fresh, id), m.notes.load(&m.loads, c, fresh, id))
	m.rebuild()
	return cmd
}

// OpenWith shows a contact the caller already has (the answer of the create-or-update PUT),
// so it is not fetched again. A contact just created has no conversations or notes yet,
// so nothing is requested; otherwise its conversations and notes load (fresh).
func (m *Detail) OpenWith(c client.Contact, created bool) tea.Cmd {
	m.loads.Next()
	m.id, m.err, m.loading = c.ID, nil, false
	m.convs, m.notes = conversationsSection(), notesSection()
	m.cursor, m.first = -1, true
	m.pane.SetOffset(0)
	sc := sanitizeContact(c)
	m.contact = &sc
	if created {
		m.rebuild()
		return nil
	}
	cmd := tea.Batch(m.convs.load(&m.loads, m.ctx.Client, true, m.id), m.notes.load(&m.loads, m.ctx.Client, true, m.id))
	m.rebuild()
	return cmd
}

// SetContact shows a contact the caller already has (after an edit) when it is the one open.
func (m *Detail) SetContact(c client.Contact) {
	if c.ID != m.id {
		return
	}
	sc := sanitizeContact(c)
	if sc.ConversationCount == nil && m.contact != nil {
		sc.ConversationCount = m.contact.ConversationCount
	}
	if len(sc.ContactUUIDs) == 0 && m.contact != nil {
		sc.ContactUUIDs = m.contact.ContactUUIDs
	}
	m.contact = &sc
	m.rebuild()
}

// AddNote shows a note created elsewhere when it belongs to the contact shown.
func (m *Detail) AddNote(n client.Note) {
	if n.ContactIdentityID != m.id || m.id == 0 {
		return
	}
	for _, x := range m.notes.items {
		if x.id == n.ID {
			return
		}
	}
	m.notes.items = append([]noteItem{noteFrom(n)}, m.notes.items...)
	m.notes.count = sat.Add(m.notes.count, 1) // the server's count may be the largest int
	if m.cursor >= len(m.convs.items) {
		m.cursor++ // keep the same note selected
	}
	m.rebuild()
}

// RemoveNote drops a deleted note.
func (m *Detail) RemoveNote(id int64) {
	for i, n := range m.notes.items {
		if n.id == id {
			m.notes.items = append(m.notes.items[:i], m.notes.items[i+1:]...)
			m.notes.count = max(len(m.notes.items), m.notes.count-1)
			m.rebuild()
			return
		}
	}
}

// load is the command that fetches the section's first page of contact's as a request of
// the pane's loader l (fresh skips the response cache).
func (s *section[A, T]) load(l *common.Loader, c *client.Client, fresh bool, contact int64) tea.Cmd {
	first, what, row := s.first, s.what, s.row // the command reads no model
	stamp, parent, r := s.begin(l, true)
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.RequestTimeout, fresh)
		defer cancel()
		p, err := first(ctx, c, contact)
		if err != nil {
			err = fmt.Errorf("%s of contact %d: %w", what, contact, err)
		}
		return pageMsg[T]{stamp, list.FirstPage(r, p, err, row, time.Time{})}
	}
}

// loadMore is load for the page after the loaded ones, at the section's next link; nil
// when there is none to ask for or a request is in flight.
func (s *section[A, T]) loadMore(l *common.Loader, c *client.Client, contact int64) tea.Cmd {
	if !s.more() {
		return nil
	}
	link, what, row := s.next, fmt.Sprintf("%s of contact %d", s.what, contact), s.row // the command reads no model
	stamp, parent, r := s.begin(l, false)
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.RequestTimeout, false)
		defer cancel()
		p := list.FetchNext(ctx, c, r, link, list.LinkOffset, nil, row)
		if p.Err != nil {
			p.Err = fmt.Errorf("%s: %w", what, p.Err)
		}
		return pageMsg[T]{stamp, p}
	}
}

// sanitizeContact returns c with every text made inert (the pane keeps only this copy).
func sanitizeContact(c client.Contact) client.Contact {
	s := func(p *string) *string {
		if p == nil {
			return nil
		}
		v := sanitize.Line(*p)
		return &v
	}
	c.Name, c.Email, c.PhoneNumber, c.MobileNumber = s(c.Name), s(c.Email), s(c.PhoneNumber), s(c.MobileNumber)
	c.Company, c.Position, c.Gender, c.Salutation = s(c.Company), s(c.Position), s(c.Gender), s(c.Salutation)
	c.Street, c.City, c.Country = s(c.Street), s(c.City), s(c.Country)
	c.ExternalCustomerID = s(c.ExternalCustomerID)
	c.URLFacebook, c.URLLinkedIn, c.URLTwitter, c.URLProfilePicture = s(c.URLFacebook), s(c.URLLinkedIn), s(c.URLTwitter), s(c.URLProfilePicture)
	c.Locale = sanitize.Line(c.Locale)
	uuids := make([]string, len(c.ContactUUIDs))
	for i, u := range c.ContactUUIDs {
		uuids[i] = sanitize.Line(u)
	}
	c.ContactUUIDs = uuids
	return c
}

// Update handles the loaded data and, when focused, moving keys.
func (m Detail) Update(msg tea.Msg) (Detail, tea.Cmd) {
	switch msg := msg.(type) {
	case contactMsg:
		if msg.id != m.id || !m.loads.Take(msg.stamp) {
			return m, nil
		}
		m.loading = false
		if msg.err != nil {
			m.err = msg.err
		} else {
			sc := sanitizeContact(*msg.contact)
			m.contact = &sc
		}
		m.rebuild()
		if msg.err != nil {
			return m, nil
		}
		c := *m.contact
		return m, func() tea.Msg { return contactLoadedMsg{contact: c} }
	case pageMsg[listing.Row]:
		if m.convs.take(&m.loads, msg) {
			m.rebuild()
		}
		return m, nil
	case pageMsg[noteItem]:
		if m.notes.take(&m.loads, msg) {
			m.rebuild()
		}
		return m, nil
	case common.OperatorsLoadedMsg, common.RestyledMsg:
		m.rebuild() // note authors get their names, in the current styles
		return m, nil
	case tea.KeyPressMsg:
		if m.focused {
			return m.onKey(msg)
		}
	}
	return m, nil
}

// contactLoadedMsg tells the screen the open contact arrived (to refresh its list row).
type contactLoadedMsg struct{ contact client.Contact }

// SelectedConversation is the conversation under the cursor, if any.
func (m Detail) SelectedConversation() (listing.Row, bool) {
	if m.cursor < 0 || m.cursor >= len(m.items) || m.items[m.cursor].kind != itemConversation {
		return listing.Row{}, false
	}
	return m.convs.items[m.items[m.cursor].idx], true
}

// SelectedNote is the note under the cursor (id and sanitized first line), if any.
func (m Detail) SelectedNote() (id int64, preview string, ok bool) {
	if m.cursor < 0 || m.cursor >= len(m.items) || m.items[m.cursor].kind != itemNote {
		return 0, "", false
	}
	n := m.notes.items[m.items[m.cursor].idx]
	return n.id, n.preview(), true
}

func (m Detail) onKey(msg tea.KeyPressMsg) (Detail, tea.Cmd) {
	k := m.ctx.Keys
	for _, b := range []key.Binding{k.Down, k.Up, k.PageDown, k.PageUp, k.Top, k.Bottom} {
		if key.Matches(msg, b) {
			m.first = false // the user chose where to be
		}
	}
	switch {
	case key.Matches(msg, k.Down):
		m.down()
	case key.Matches(msg, k.Up):
		m.up()
	case key.Matches(msg, k.PageDown):
		m.page(1)
	case key.Matches(msg, k.PageUp):
		m.page(-1)
	case key.Matches(msg, k.Top):
		m.cursor = -1
		m.pane.SetOffset(0)
	case key.Matches(msg, k.Bottom):
		m.bottom()
	case key.Matches(msg, k.Refresh):
		return m, m.Open(m.id, true)
	default:
		return m, nil
	}
	return m, m.prefetch()
}

// prefetch loads more conversations or notes when the cursor nears the loaded end of either.
func (m *Detail) prefetch() tea.Cmd {
	if m.cursor < 0 || m.cursor >= len(m.items) {
		return nil
	}
	it := m.items[m.cursor]
	switch {
	case it.kind == itemConversation && len(m.convs.items)-it.idx <= m.height:
		return m.convs.loadMore(&m.loads, m.ctx.Client, m.id)
	case it.kind == itemNote && len(m.notes.items)-it.idx <= m.height:
		return m.notes.loadMore(&m.loads, m.ctx.Client, m.id)
	}
	return nil
}

// inView reports whether some line of item i is in view.
func (m *Detail) inView(i int) bool {
	it := m.items[i]
	return it.end > m.pane.Offset() && it.line < m.pane.Offset()+m.height
}

// startsInView is the first item whose first line is in view (-1 = none).
func (m *Detail) startsInView() int {
	for i, it := range m.items {
		if it.line >= m.pane.Offset() && it.line < m.pane.Offset()+m.height {
			return i
		}
	}
	return -1
}

// down selects the next entry, or reads on: an entry taller than the pane scrolls line by
// line until its end is in view, and past the last entry the pane scrolls on through the
// fields below it (the entry is let go once it is out of view).
func (m *Detail) down() {
	if m.cursor < 0 || m.cursor >= len(m.items) {
		if i := m.startsInView(); i >= 0 {
			m.cursor = i
			m.ensureVisible()
			return
		}
		m.pane.SetOffset(m.pane.Offset() + 1)
		return
	}
	it := m.items[m.cursor]
	switch {
	case it.end > m.pane.Offset()+m.height:
		m.pane.SetOffset(m.pane.Offset() + 1)
	case m.cursor+1 < len(m.items):
		m.cursor++
		m.ensureVisible()
	default:
		m.pane.SetOffset(m.pane.Offset() + 1)
		if !m.inView(m.cursor) {
			m.cursor = -1
		}
	}
}

// up selects the previous entry, or reads back: an entry whose start is above the pane
// scrolls line by line until its first line is in view; above the first entry the pane
// scrolls back to the fields.
func (m *Detail) up() {
	if m.cursor < 0 || m.cursor >= len(m.items) {
		m.pane.SetOffset(m.pane.Offset() - 1)
		// Below the entries (the details after the notes): back onto the last one.
		if n := len(m.items); n > 0 && m.items[n-1].line < m.pane.Offset() && m.inView(n-1) {
			m.cursor = n - 1
		}
		return
	}
	it := m.items[m.cursor]
	switch {
	case it.line < m.pane.Offset():
		m.pane.SetOffset(m.pane.Offset() - 1)
	case m.cursor > 0:
		m.cursor--
		prev := m.items[m.cursor]
		if prev.line < m.pane.Offset() {
			// Show the end of the entry above (all of it when it fits).
			m.pane.SetOffset(max(prev.line, prev.end-m.height))
		}
	default:
		m.cursor = -1
		m.pane.SetOffset(m.pane.Offset() - 1)
	}
}

// page scrolls by a screen; the selection stays while some of it is in view, else it
// moves to the first entry that starts in view, else to an entry filling the view.
func (m *Detail) page(d int) {
	step := max(1, m.height-1)
	m.pane.SetOffset(m.pane.Offset() + d*step)
	if m.cursor >= 0 && m.cursor < len(m.items) && m.inView(m.cursor) {
		return
	}
	m.cursor = m.startsInView()
	if m.cursor >= 0 {
		return
	}
	for i := range m.items {
		if m.inView(i) {
			m.cursor = i
			return
		}
	}
}

// bottom scrolls to the end; the last entry is selected when some of it is in view.
func (m *Detail) bottom() {
	m.pane.SetOffset(m.pane.MaxOffset())
	m.cursor = -1
	if n := len(m.items); n > 0 && m.inView(n-1) {
		m.cursor = n - 1
	}
}

// setLines hands the laid-out lines to the pane, which keeps the position within them.
func (m *Detail) setLines() {
	styled := make([]string, len(m.lines))
	for i, l := range m.lines {
		styled[i] = l.styled
	}
	m.pane.SetLines(styled)
}

// ensureVisible scrolls so the selected entry (all its lines when they fit, else its first
// lines) is in view.
func (m *Detail) ensureVisible() {
	if m.cursor < 0 || m.cursor >= len(m.items) || m.height <= 0 {
		return
	}
	it := m.items[m.cursor]
	m.pane.Show(it.line, it.end)
}

// View renders the visible lines, exactly width×height.
func (m Detail) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.ctx.Styles
	sel := st.SelectedBlurred
	if m.focused {
		sel = st.Selected
	}
	var b strings.Builder
	b.Grow((m.width + 16) * m.height)
	// More below: the last line says how much, unless it belongs to the selected entry.
	last := m.pane.Offset() + m.height - 1
	more := last < len(m.lines)-1 && !(m.lines[last].item >= 0 && m.lines[last].item == m.cursor)
	for i := 0; i < m.height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		j := m.pane.Offset() + i
		if j >= len(m.lines) {
			b.WriteString(strings.Repeat(" ", m.width))
			continue
		}
		if more && j == last {
			b.WriteString(layout.Fit(st.Muted.Render(fmt.Sprintf(" ↓ %d more lines", len(m.lines)-j)), m.width))
			continue
		}
		l := m.lines[j]
		if l.item >= 0 && l.item == m.cursor {
			if l.body {
				// The body of the selected note: a bar at the left edge (its lines start
				// with a space), so the selection shows while its header is scrolled away.
				b.WriteString(layout.Fit(st.Accent.Render("▌")+l.styled[1:], m.width))
				continue
			}
			b.WriteString(sel.Render(layout.Fit(l.plain, m.width)))
			continue
		}
		b.WriteString(layout.Fit(l.styled, m.width))
	}
	return b.String()
}

// Title is the pane's frame title.
func (m Detail) Title() string {
	if m.contact == nil {
		return "Contact"
	}
	r := RowFrom(*m.contact)
	return r.Title()
}

// rebuild lays the contact out at the current width.
func (m *Detail) rebuild() {
	st := m.ctx.Styles
	w := max(10, m.width)
	m.lines = make([]dline, 0, len(m.lines))
	m.items = make([]item, 0, len(m.items))
	text := func(s string) { m.lines = append(m.lines, dline{styled: s, plain: s, item: -1}) }
	if m.id == 0 {
		text(st.Muted.Render(" No contact open."))
		text("")
		text(st.Muted.Render(" Select one in the list and press " + m.ctx.Keys.Open.Help().Key + "."))
		m.setLines()
		m.pane.SetOffset(0)
		return
	}
	now := m.ctx.ServerNow() // ages by the server's clock, which stamped the times
	loc := now.Location()
	ts := layout.Stamps{Now: now, Age: ago}
	field := func(label, value string) {
		// A field is a summary: an address of a thousand characters would push the
		// conversations and notes out of sight (the edit form has all of it).
		for _, l := range layout.Labelled(st, label, value, 13, w, maxFieldLines) {
			text(l)
		}
	}
	section := func(title string) {
		if len(m.lines) > 0 {
			text("")
		}
		text(" " + st.Section.Render(title))
	}
	c := m.contact
	str := func(p *string) string { return layout.OrDash(client.Str(p)) }
	if c == nil {
		switch {
		case m.err != nil:
			for _, l := range strings.Split(ansi.Wrap(" "+writes.ErrorText(m.err), w, ""), "\n") {
				text(st.Error.Render(l))
			}
		default:
			text(st.Loading.Render(fmt.Sprintf(" Loading contact #%d…", m.id)))
		}
	} else {
		// The summary first, so the conversations and notes show without scrolling.
		r := RowFrom(*c)
		badge := ""
		if c.Verified {
			badge = "  " + st.Success.Render("✓ verified")
		}
		if c.IsBlocked {
			badge += "  " + st.Error.Render("⊘ blocked")
		}
		text(" " + st.Bold.Render(r.Title()) + badge)
		email := str(c.Email)
		if c.EmailVerified && client.Str(c.Email) != "" {
			email += " ✓"
		}
		field("Email", email)
		phones := joinNonEmpty(" · ", client.Str(c.PhoneNumber), prefixed("mobile ", client.Str(c.MobileNumber)))
		if c.IsMobileNumberVerified && client.Str(c.MobileNumber) != "" {
			phones += " ✓"
		}
		field("Phone", layout.OrDash(phones))
		field("Address", layout.OrDash(joinNonEmpty(", ", client.Str(c.Street), client.Str(c.City), client.Str(c.Country))))
	}

	// The conversations and the notes: each under its heading, with the error of its first
	// page or none in place of its items, and below them how many more there are to load.
	head := func(title string, empty func() (err error, none bool), noneText string) {
		section(title)
		switch err, none := empty(); {
		case err != nil:
			text(st.Error.Render(layout.Fit(" "+writes.ErrorText(err), w)))
		case none:
			text(st.Muted.Render(noneText))
		}
	}
	tail := func(n int, more bool) {
		if more {
			text(st.Muted.Render(" … " + layout.Count(n) + " more (move down to load)"))
		}
	}

	var told *int
	if c != nil {
		told = c.ConversationCount
	}
	head(m.convs.heading("Conversations", told), m.convs.empty, " none")
	for i := range m.convs.items {
		r := &m.convs.items[i]
		plain, styled := m.convLine(r, w, now)
		m.items = append(m.items, item{kind: itemConversation, idx: i, line: len(m.lines), end: len(m.lines) + 1})
		m.lines = append(m.lines, dline{styled: styled, plain: plain, item: len(m.items) - 1})
	}
	tail(m.convs.rest())

	noneYet := " none yet" // read-only: no key writes one
	if m.ctx.Keys.Note.Enabled() {
		noneYet += ": " + m.ctx.Keys.Note.Help().Key + " writes one"
	}
	head(m.notes.heading("Notes", nil), m.notes.empty, noneYet)
	for i := range m.notes.items {
		n := &m.notes.items[i]
		// What the server did not send shows as "—": a note without created_at has no
		// time, and one without operator_id no author (null is the organization).
		author := "—"
		switch {
		case n.author.Known:
			author = m.ctx.Operators[n.author.V]
			if author == "" {
				author = fmt.Sprintf("operator %d", n.author.V)
			}
		case n.author.Null:
			author = "organization"
		}
		at := "—"
		if !n.at.IsZero() {
			at = n.at.In(loc).Format("2006-01-02 15:04")
		}
		head := fmt.Sprintf(" #%d · %s · %s", n.id, at, author)
		start := len(m.lines)
		m.items = append(m.items, item{kind: itemNote, idx: i, line: start})
		idx := len(m.items) - 1
		m.lines = append(m.lines, dline{styled: st.Muted.Render(head), plain: head, item: idx})
		body := func(s string) { m.lines = append(m.lines, dline{styled: s, plain: s, item: idx, body: true}) }
		if n.preview() == "" { // no text at all: say so, as the thread does for messages
			body("   " + st.Muted.Render(notes.EmptyBody))
		} else {
			for _, bl := range n.lines {
				for _, wl := range strings.Split(ansi.Wrap(bl, max(4, w-3), ""), "\n") {
					body("   " + wl)
				}
			}
		}
		if len(n.extra) > 0 {
			// Fields the server sent that parley does not read: shown, one line.
			also := ansi.Truncate("also sent: "+strings.Join(n.extra, " · "), max(4, w-3), "…")
			body("   " + st.Muted.Render(also))
		}
		m.items[idx].end = len(m.lines)
	}
	tail(m.notes.rest())

	if c != nil {
		section("Details")
		// Each under its own label: a position is no company (the spec has both fields, and
		// either may come without the other).
		field("Company", layout.OrDash(strings.TrimSpace(client.Str(c.Company))))
		if p := strings.TrimSpace(client.Str(c.Position)); p != "" {
			field("Position", p)
		}
		field("Salutation", layout.OrDash(joinNonEmpty(" · ", client.Str(c.Salutation), genderWord(client.Str(c.Gender)))))
		field("Locale", layout.OrDash(c.Locale))
		if c.LocLat != 0 || c.LocLon != 0 {
			field("Coordinates", coordinates(c.LocLat, c.LocLon))
		}
		field("External id", str(c.ExternalCustomerID))
		var by []string
		for _, f := range writes.ContactFlags {
			if f.Of(*c) {
				by = append(by, f.Label)
			}
		}
		if len(by) == 0 {
			by = []string{"—"}
		}
		field("Contact by", strings.Join(by, ", "))
		if c.NeedsRegister {
			field("Register", "needs to register")
		}
		for _, u := range []struct {
			label string
			v     *string
		}{{"Facebook", c.URLFacebook}, {"LinkedIn", c.URLLinkedIn}, {"Twitter", c.URLTwitter}, {"Picture", c.URLProfilePicture}} {
			if s := client.Str(u.v); s != "" {
				field(u.label, s)
			}
		}
		field("Created", ts.Of(c.CreatedAt.Time))
		field("First msg", ts.OfSent(c.FirstMessageSentAt))
		field("Last msg", ts.OfSent(c.LastMessageSentAt))
		if len(c.ContactUUIDs) > 0 {
			field("UUIDs", strings.Join(c.ContactUUIDs, ", "))
		}
		access := "read only"
		if c.WritePermission {
			access = "read and write"
		}
		field("Contact id", fmt.Sprintf("%d · %s", c.ID, access))
	}
	if m.first {
		// The newest conversation, once the conversations are in (they come before the
		// notes). A note is not chosen for the user: a long one would scroll the
		// contact's summary away.
		m.cursor = -1
		if len(m.items) > 0 && m.items[0].kind == itemConversation {
			m.cursor = 0
		}
	}
	if m.cursor >= len(m.items) {
		m.cursor = len(m.items) - 1
	}
	m.setLines()
	if m.first {
		m.ensureVisible()
	}
}

func (m *Detail) convLine(r *listing.Row, w int, now time.Time) (plain, styled string) {
	st := m.ctx.Styles
	sym, word := layout.StatusSymbol(r.Status)
	when := layout.PadLeft(layout.RelTime(r.LastAt, now), 6)
	id := layout.Pad("#"+strconv.FormatInt(r.ID, 10), 8)
	status := layout.Pad(sym+" "+word, 9)
	pvW := max(0, w-1-9-1-8-1-6-1)
	pv := r.Preview
	if len(r.Topics) > 0 {
		pv = "[" + strings.Join(r.Topics, ", ") + "] " + pv
	}
	pvs := layout.Pad(pv, pvW)
	plain = " " + status + " " + id + " " + pvs + " " + when
	styled = " " + layout.StatusStyle(st, r.Status).Render(status) + " " + st.Bold.Render(id) + " " + pvs + " " + st.Muted.Render(when)
	return plain, styled
}

// ago is " (5h ago)" for times within two months (less than a minute ahead of now is
// "just now", see layout.Ago), else "".
func ago(t, now time.Time) string {
	if d := now.Sub(t); d <= -time.Minute || d >= 60*24*time.Hour {
		return ""
	}
	return layout.AgoInParens(t, now)
}

func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

func genderWord(g string) string {
	switch strings.ToLower(g) {
	case "":
		return ""
	case "f":
		return "gender f"
	case "m":
		return "gender m"
	}
	return "gender " + g
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// coordinates shows a contact's latitude and longitude, "—" for one that is no place on
// Earth (beyond ±90 or ±180 degrees; a server may send any number).
func coordinates(lat, lon float64) string {
	deg := func(v, limit float64) string {
		if !(math.Abs(v) <= limit) { // NaN too
			return "—"
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	return deg(lat, 90) + ", " + deg(lon, 180)
}
