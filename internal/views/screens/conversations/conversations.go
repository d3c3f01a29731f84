// Package conversations is the conversations screen: the list, the thread and the detail pane,
// laid out side by side when wide, two at a time when medium and one at a time when narrow.
// Moving the cursor loads the thread and detail only after it rests for common.SettleDelay,
// and only into panes that are shown: a hidden pane is loaded when it is shown.
package conversations

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/prompt"
	sv "github.com/parley-tui/parley/internal/views/components/savedviews"
	"github.com/parley-tui/parley/internal/views/screens/conversations/detail"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/screens/conversations/thread"
)

// Layout widths.
const (
	WideWidth   = 160 // list | messages | detail
	MediumWidth = 100 // list | messages (+ detail with p); below: one pane at a time
)

// Pane names a pane of the screen.
type Pane int

// Panes in tab order.
const (
	PaneList Pane = iota
	PaneMessages
	PaneDetail
)

// Model is the conversations screen.
type Model struct {
	common.Base
	ctx          *common.Ctx
	List         listing.Model
	Msgs         thread.Model
	Detail       detail.Model
	focus        Pane
	showDetail   bool // wide: the detail is shown unless hidden with p
	mediumDetail bool // medium: the detail is hidden until shown with p
	beforeDetail Pane // narrow: the pane p was pressed in, where p returns
	width        int
	height       int
	settle       common.Settle // the cursor's rest in the list: the row it rests on opens
	restingID    int64         // the open conversation: the thread and detail panes show it
	openedAt     int64         // the list row under the cursor when it was opened
	started      bool
	// The conversation actions (state.go): the screen's loader (its owner id is the
	// owner of the tasks; it reads the assign picker's operators) and the changes sent
	// and not yet answered, by task id.
	loads   common.Loader
	changes map[int]stateChange
	// advancing: the next conversation key was pressed on the last row loaded, this one;
	// the cursor moves on when the next page arrives.
	advancing int64
	landed    bool // a jump opened a conversation and the focus is still where it left it
	// views are the saved views: their row sits above the list when there are any.
	views sv.Views[client.ConversationFilter]
	// marked is the version of the arrivals not opened yet that the views' marks count.
	marked int
	// readOnLoad is a conversation opened before parley knew whether it is unread: its
	// detail tells, and it is marked read then (opened).
	readOnLoad int64
}

// New returns the screen; Init loads the first page.
func New(ctx *common.Ctx) *Model {
	m := &Model{
		ctx:        ctx,
		List:       listing.New(ctx),
		Msgs:       thread.New(ctx),
		Detail:     detail.New(ctx),
		showDetail: true,
		loads:      common.NewLoader(ctx),
		changes:    map[int]stateChange{},
		views:      sv.New(ctx, common.ViewsConversations, client.Conversations),
		settle:     common.NewSettle(ctx),
	}
	m.List.Focus()
	return m
}

// Init loads the first page of conversations.
func (m *Model) Init() tea.Cmd {
	m.started = true
	return m.List.Load(false)
}

// Focus is called when the screen becomes active: panes a resize showed meanwhile load.
func (m *Model) Focus() tea.Cmd { return m.sync() }

// Resized is called after the active screen got a new size: a pane the new layout shows
// loads the open conversation if it does not have it yet.
func (m *Model) Resized() tea.Cmd { return m.sync() }

// Landed is called by the root after a jump opened a conversation here (common.Lander):
// until the focus moves, esc goes back where the jump came from.
func (m *Model) Landed() { m.landed = true }

// UsesBack reports whether esc has work of the screen's own (common.BackUser): moving the
// focus back to the list (unless a jump put it where it is), or clearing the list's marks,
// search or filters.
func (m *Model) UsesBack() bool {
	if m.landed {
		return false
	}
	return m.focus != PaneList || m.List.CanClear()
}

// Focused is the focused pane.
func (m *Model) Focused() Pane { return m.focus }

// mode is the layout for the current width.
func (m *Model) mode() int {
	switch {
	case m.width >= WideWidth:
		return 3
	case m.width >= MediumWidth:
		return 2
	}
	return 1
}

// visible lists the panes shown, left to right.
func (m *Model) visible() []Pane {
	switch {
	case m.mode() == 3 && m.showDetail, m.mode() == 2 && m.mediumDetail:
		return []Pane{PaneList, PaneMessages, PaneDetail}
	case m.mode() >= 2:
		return []Pane{PaneList, PaneMessages}
	}
	return []Pane{m.focus}
}

// SetSize lays the panes out. A resize never hides the focused pane: the detail, focused
// one pane at a time, stays shown when the terminal grows past MediumWidth or WideWidth.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	if m.focus == PaneDetail {
		switch m.mode() {
		case 2:
			m.mediumDetail = true
		case 3:
			m.showDetail = true
		}
	}
	m.layout()
}

func (m *Model) widths() map[Pane]int {
	out := map[Pane]int{}
	vis := m.visible()
	switch len(vis) {
	case 1:
		out[vis[0]] = m.width
	case 2:
		lw, mw := Split(m.width)
		out[PaneList], out[PaneMessages] = lw, mw
	case 3:
		lw, mw, dw := Split3(m.width, m.mode() == 2)
		out[PaneList], out[PaneMessages], out[PaneDetail] = lw, mw, dw
	}
	return out
}

// Split is the list's and the thread's widths (frames included) when the two are shown
// side by side in width w: the list takes 45 %, and half from WideListWidth.
func Split(w int) (list, messages int) {
	list = w * 45 / 100
	if w >= WideListWidth {
		list = w / 2
	}
	return list, w - list
}

// WideListWidth is the terminal width from which the list takes half of it beside the
// thread and the detail: at 200 columns its rows (one line each from 78 columns inside)
// give names 19 cells and previews 29, the thread keeps 56 columns (a comfortable line)
// and the detail 44 (a date with its age on one line). Below it the list has 40 % (its rows take two lines, the first one
// the name's, the second the preview's) and the detail a quarter.
const WideListWidth = 190

// Split3 is the list's, the thread's and the detail's widths (frames included) with the three
// side by side in width w: from WideListWidth the list takes half and the detail 22 %,
// 36 to 56 columns (its labels and values need no more); wide (from WideWidth) 40 % and a
// quarter; medium (the detail shown with p below WideWidth) a third and 30 %. The thread
// takes the rest.
func Split3(w int, medium bool) (list, messages, detail int) {
	switch {
	case medium:
		list, detail = w*34/100, w*30/100
	case w >= WideListWidth:
		list, detail = w/2, clamp(w*22/100, 36, 56)
	default:
		list, detail = w*40/100, w*25/100
	}
	return list, w - list - detail, detail
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

func (m *Model) layout() {
	ws := m.widths()
	h := max(0, m.height-2)
	for _, p := range []Pane{PaneList, PaneMessages, PaneDetail} {
		w, ok := ws[p]
		if !ok {
			continue // hidden panes keep their last size
		}
		iw := max(0, w-2)
		switch p {
		case PaneList:
			m.List.SetSize(iw, max(0, h-m.views.Lines()))
		case PaneMessages:
			m.Msgs.SetSize(iw, h)
		case PaneDetail:
			m.Detail.SetSize(iw, h)
		}
	}
}

func (m *Model) setFocus(p Pane) {
	m.focus = p
	m.List.Blur()
	m.Msgs.Blur()
	m.Detail.Blur()
	switch p {
	case PaneList:
		m.List.Focus()
	case PaneMessages:
		m.Msgs.Focus()
	case PaneDetail:
		m.Detail.Focus()
	}
	m.layout()
}

// cycle moves focus to the next (d=1) or previous (d=-1) pane: among the visible ones when
// several are shown, among all three when one is shown at a time.
func (m *Model) cycle(d int) {
	panes := m.visible()
	if len(panes) == 1 {
		panes = []Pane{PaneList, PaneMessages, PaneDetail}
	}
	i := 0
	for j, p := range panes {
		if p == m.focus {
			i = j
		}
	}
	m.setFocus(panes[(i+d+len(panes))%len(panes)])
}

// openSelected makes the selected row the open conversation and loads it into the panes
// that are shown. With the focus off the list (enter, the next conversation from the
// thread) it is opened to be read (opened); resting on a row of the list only shows it.
func (m *Model) openSelected() tea.Cmd {
	r, ok := m.List.Selected()
	if !ok {
		return nil
	}
	m.restingID, m.openedAt = r.ID, r.ID
	var read tea.Cmd
	if m.focus != PaneList {
		read = m.opened(r.ID)
	}
	return tea.Batch(m.sync(), read)
}

// sync loads the open conversation into each shown pane that does not hold it yet. A hidden
// pane costs no request: one pane at a time, resting on rows of the list loads nothing, and
// in the medium layout the detail loads only once p shows it. What the client holds for
// the conversation's version (its list row's) costs nothing either, and the detail's parts
// load only once their section is on screen.
func (m *Model) sync() tea.Cmd {
	id := m.restingID
	if id == 0 {
		return nil
	}
	v := m.version(id)
	var cmds []tea.Cmd
	if m.paneVisible(PaneMessages) && m.Msgs.ConversationID() != id {
		title := ""
		if r, ok := m.List.Row(id); ok {
			title = rowTitle(r)
		}
		cmds = append(cmds, m.Msgs.OpenAt(id, title, v, false))
	}
	if m.paneVisible(PaneDetail) {
		if m.Detail.ID() != id {
			cmds = append(cmds, m.Detail.LoadAt(id, v, false))
		} else {
			cmds = append(cmds, m.Detail.PartsIfShown()) // a resize may have shown them
		}
	}
	return tea.Batch(cmds...)
}

// version is conversation id's version as its list row shows it (zero when it is not
// among the rows).
func (m *Model) version(id int64) client.Version {
	if r, ok := m.List.Row(id); ok {
		return rowVersion(r)
	}
	return client.Version{}
}

func rowVersion(r listing.Row) client.Version {
	return client.Version{UpdatedAt: r.UpdatedAt, LastMessageSentAt: r.LastAt}
}

// leave is called after a key moved the focus: leaving the list one pane at a time opens
// the row under the cursor when the cursor moved since the open conversation was opened
// (it may not have rested yet); otherwise the panes now shown load the open conversation
// if needed, so a conversation opened from elsewhere stays open.
func (m *Model) leave(from Pane) tea.Cmd {
	if from == PaneList && m.focus != PaneList && m.mode() == 1 && m.selectedID() != m.openedAt {
		return m.openSelected()
	}
	return m.sync()
}

// rowTitle names a conversation in the message pane's header: its contact's name or email.
func rowTitle(r listing.Row) string {
	if r.Name != "" {
		return r.Name
	}
	return r.Email
}

// Update routes messages to the panes and handles the screen's keys; the row of views then
// takes the list's count for its query, and the marks of the arrivals not opened yet.
func (m *Model) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	s, cmd := m.update(msg)
	m.views.Observe(m.List.Query(), m.List.SentCount)
	if v := m.List.UnseenVersion(); v != m.marked {
		m.marked = v
		m.views.Mark(m.arrivalMark)
	}
	return s, cmd
}

// reread reads the saved views' queries again (who parley acts as changed, or became
// known: operator_id me) and returns the active view's new query when the list shows that
// view's query and it changed.
func (m *Model) reread() (listing.Query, bool) {
	shown := !m.views.Modified(m.List.Query())
	q, changed := m.views.Refresh()
	m.marked = -1 // the marks are counted again
	return q, changed && shown
}

// Unseen counts the arrivals not opened yet (common.Arriving).
func (m *Model) Unseen() common.Unseen { return m.List.UnseenCount() }

func (m *Model) update(msg tea.Msg) (common.Screen, tea.Cmd) {
	if cmd, ok := common.Input(msg, m.onKey, m.onClick, m.onWheel); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case common.ShowViewMsg:
		return m, m.views.Show(msg.Name, m.showQuery)
	case common.SettledMsg:
		if !m.settle.Settled(msg) {
			return m, nil // the cursor moved on
		}
		return m, m.openSelected()
	case common.TaskDoneMsg:
		if m.views.OnTask(msg) {
			m.layout() // the first saved view brings the row of views
			return m, nil
		}
		return m, m.onTask(msg)
	case sendChangeMsg:
		return m, m.send(msg.ch)
	case operatorsForPickMsg:
		return m, m.openAssignPicker(msg)
	case detail.LoadedMsg:
		row := listing.RowFrom(msg.Conversation)
		m.List.UpdateRow(row)
		m.Msgs.SetTitle(row.ID, rowTitle(row))
		if m.readOnLoad != 0 && m.readOnLoad == row.ID && m.restingID == row.ID {
			m.readOnLoad = 0
			return m, m.markRead(row)
		}
		return m, nil
	case common.RefreshMsg:
		if msg.Auto {
			return m, m.List.RefreshChanged()
		}
		return m, tea.Batch(m.List.Load(true), m.Detail.Load(m.Detail.ID(), true))
	case common.OperatorsLoadedMsg:
		// Who parley acts as may be known now: a view of one's own conversations reads it.
		var c1, c2, c3 tea.Cmd
		m.List, c1 = m.List.Update(msg)
		m.Detail, c2 = m.Detail.Update(msg)
		if q, ok := m.reread(); ok {
			c3 = m.showQuery(q)
		}
		return m, tea.Batch(c1, c2, c3)
	case common.ContextChangedMsg:
		m.List.ResetArrivals()
		m.readOnLoad = 0
		if q, ok := m.reread(); ok {
			m.List.Preset(q) // loaded below
		}
		if msg.OperatorOnly && m.List.Loaded() {
			// The same organization as another operator: the rows, the open thread and
			// the detail still exist; load them again in place.
			return m, tea.Batch(m.List.Load(true), m.Msgs.Refresh(), m.Detail.Refresh())
		}
		m.List.ForgetSeen() // another organization's topics and widgets
		m.List.Unpin()
		m.Msgs.Close()
		_ = m.Detail.Load(0, false)
		m.restingID = 0
		return m, m.List.Load(true)
	case common.ShowOperatorConversationsMsg:
		// The operator's conversations, from the operators screen: the list's query, with
		// the cursor on its first row once it arrives.
		m.List.Unpin()
		m.setFocus(PaneList)
		return m, m.List.ShowAssigned(msg.OperatorID, msg.Name)
	case common.OpenConversationMsg:
		// The list's cursor goes to it when it is loaded; when it is not, the list pins it
		// above its rows with the cursor on it, so that list, thread and detail agree.
		// Either way moving through the panes keeps it open.
		if !m.List.SelectID(msg.ConversationID) {
			m.List.Pin(msg.ConversationID, msg.From)
		}
		m.restingID, m.openedAt = msg.ConversationID, m.selectedID()
		m.setFocus(PaneMessages)
		read := m.opened(msg.ConversationID)
		// The contact's name comes with the detail: at once when the client holds the
		// conversation (or the detail shows it already), else when it arrives
		// (detail.LoadedMsg fills the pinned row and sets the title).
		v := m.version(msg.ConversationID)
		load := m.Detail.LoadAt(msg.ConversationID, v, false)
		title := ""
		if r, ok := m.List.Row(msg.ConversationID); ok && m.List.Pinned() != msg.ConversationID {
			title = rowTitle(r)
		} else if c, ok := m.Detail.Conversation(); ok && c.ID == msg.ConversationID {
			row := listing.RowFrom(c)
			m.List.UpdateRow(row) // no answer will come to fill the pinned row
			title = rowTitle(row)
		}
		return m, tea.Batch(m.Msgs.OpenAt(msg.ConversationID, title, v, false), load, read)
	}
	var c1, c2, c3 tea.Cmd
	before := m.selectedID()
	open, wasLoaded := m.List.Row(m.Msgs.ConversationID())
	m.List, c1 = m.List.Update(msg)
	m.Msgs, c2 = m.Msgs.Update(msg)
	m.Detail, c3 = m.Detail.Update(msg)
	return m, tea.Batch(c1, c2, c3, m.advance(), m.afterMove(before), m.followOpen(open, wasLoaded))
}

// step moves to the next (d=1) or previous (d=-1) conversation of the list from any pane:
// the list's cursor moves, and the thread and detail follow once it rests, as when moving
// in the list. On the last row loaded, the next page is asked for and the cursor moves on
// when it arrives.
func (m *Model) step(d int) tea.Cmd {
	before := m.selectedID()
	m.advancing = 0
	cmd := m.List.Step(d)
	if d > 0 && before != 0 && m.selectedID() == before && (m.List.Loading() || len(m.List.Rows()) < m.List.Total()) {
		m.advancing = before
	}
	return tea.Batch(cmd, m.afterMove(before))
}

// advance moves the cursor on for a next conversation key pressed on the last row loaded,
// once the next page is in; nothing when the cursor moved meanwhile or no page comes.
func (m *Model) advance() tea.Cmd {
	if m.advancing == 0 {
		return nil
	}
	if m.selectedID() != m.advancing {
		m.advancing = 0
		return nil
	}
	cmd := m.List.Step(1)
	if m.selectedID() != m.advancing || !m.List.Loading() {
		m.advancing = 0
	}
	return cmd
}

// followOpen brings the open thread and its detail to the open conversation's new version
// when a list refresh (auto-refresh or r) shows that it changed since: a new message, a new
// status. The thread costs its newest page; the detail is drawn from the refreshed row and
// costs its parts only when they are on screen. Nothing is asked while the open
// conversation stays as it was.
func (m *Model) followOpen(before listing.Row, wasLoaded bool) tea.Cmd {
	id := m.Msgs.ConversationID()
	if !wasLoaded || id == 0 || before.ID != id {
		return nil
	}
	now, ok := m.List.Row(id)
	if !ok || (!now.LastAt.After(before.LastAt) && !now.UpdatedAt.After(before.UpdatedAt)) {
		return nil
	}
	v := rowVersion(now)
	return tea.Batch(m.Msgs.Follow(id, v), m.Detail.Follow(id, v))
}

func (m *Model) selectedID() int64 { return m.List.CursorID() }

// afterMove starts the rest timer when the selected row changed.
func (m *Model) afterMove(before int64) tea.Cmd {
	return m.settle.Moved(before, m.selectedID(), m.restingID)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	before := m.focus
	cmd := m.key(msg)
	if m.focus != before {
		m.landed = false // the user moved on from where the jump left the focus
	}
	return cmd
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.ctx.Keys
	if cmd, ok := m.views.Keys(msg, m.List.Query(), m.List.SetQuery); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.NextPane):
		from := m.focus
		m.cycle(1)
		return m.leave(from)
	case key.Matches(msg, k.PrevPane):
		from := m.focus
		m.cycle(-1)
		return m.leave(from)
	case key.Matches(msg, k.ToggleDetail):
		from := m.focus
		switch m.mode() {
		case 1:
			// One pane at a time: p shows the detail, and p again returns to the pane it
			// was pressed in.
			if m.focus == PaneDetail {
				m.setFocus(m.beforeDetail)
			} else {
				m.beforeDetail = m.focus
				m.setFocus(PaneDetail)
			}
		case 2:
			m.mediumDetail = !m.mediumDetail
		case 3:
			m.showDetail = !m.showDetail
		}
		if m.focus == PaneDetail && !m.paneVisible(PaneDetail) {
			m.setFocus(PaneList)
		}
		m.layout()
		return m.leave(from)
	case key.Matches(msg, k.Open) && m.focus == PaneList:
		m.setFocus(PaneMessages)
		return m.openSelected()
	case key.Matches(msg, k.Back) && m.focus != PaneList:
		m.setFocus(PaneList)
		return nil
	case key.Matches(msg, k.Delete) && m.focus == PaneList:
		return m.deleteConfirm()
	}
	if cmd, ok := keymap.Run(msg, m.actions()); ok {
		return cmd
	}
	var cmd tea.Cmd
	switch m.focus {
	case PaneList:
		before := m.selectedID()
		m.List, cmd = m.List.Update(msg)
		return tea.Batch(cmd, m.afterMove(before))
	case PaneMessages:
		m.Msgs, cmd = m.Msgs.Update(msg)
	case PaneDetail:
		m.Detail, cmd = m.Detail.Update(msg)
	}
	return cmd
}

// actions are the screen's keys that do the same in every pane.
func (m *Model) actions() []keymap.Do {
	k := m.ctx.Keys
	return []keymap.Do{
		{Key: k.NextConversation, Run: func() tea.Cmd { return m.step(1) }},
		{Key: k.PrevConversation, Run: func() tea.Cmd { return m.step(-1) }},
		{Key: k.Search, Run: m.searchPrompt},
		{Key: k.Filter, Run: func() tea.Cmd { return m.ctx.OpenModal(m.List.FilterForm()) }},
		{Key: k.Topics, Run: m.topicsForm},
		{Key: k.Note, Run: m.noteForm},
		{Key: k.CopyID, Run: m.copyID},
		{Key: k.Transcript, Run: m.transcriptForm},
		{Key: k.Take, Run: m.take},
		{Key: k.Assign, Run: m.assign},
		{Key: k.Unassign, Run: m.unassign},
		{Key: k.End, Run: m.end},
		{Key: k.Reopen, Run: m.reopen},
		{Key: k.ToggleRead, Run: m.toggleRead},
	}
}

// searchPrompt asks for the search text; enter runs the search.
func (m *Model) searchPrompt() tea.Cmd {
	return m.ctx.OpenModal(prompt.New(m.ctx, "Search conversations:", m.List.Query().Search,
		func(s string) tea.Msg { return listing.SearchMsg{Text: s} }).Doing("search"))
}

func (m *Model) paneVisible(p Pane) bool { return slices.Contains(m.visible(), p) }

// Where is the focused pane.
func (m *Model) Where() keymap.Where {
	switch m.focus {
	case PaneMessages:
		return keymap.InThread
	case PaneDetail:
		return keymap.InConvDetail
	}
	return keymap.InConvList
}

// View renders the visible panes in their frames.
func (m *Model) View() string {
	return common.Panes(m.ctx, m.width, m.height, m.visible(), m.widths(), m.focus, m.mode() == 1, func(p Pane, w int) (string, string) {
		switch p {
		case PaneMessages:
			return "Messages", m.Msgs.View()
		case PaneDetail:
			return "Detail", m.Detail.View()
		}
		return "Conversations", m.views.Atop(m.List.View(), max(0, w-2), m.List.Query())
	})
}
