// Package operators is the operators screen: every operator of the organization with role,
// away status, presence and slot usage, each as the server states it ("—" where it did not
// say); `w` toggles away (asking first when the operator is not the one parley acts as), `e`
// edits the writable fields, `d` deletes after a confirmation, `p` shows every field of the
// selected operator, also those parley does not read. While the screen is shown the root's
// auto-refresh refreshes its list (one request: away and online for everyone) at the pace
// of the auto-refresh policy (common.Budget), and the slots of the operators in view (one
// request each) only every common.SlotsFactor refreshes; `r` refreshes both.
package operators

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/components/prompt"
)

// Task kinds this screen reports in common.TaskDoneMsg.
const (
	KindAway   = common.KindOperatorAway
	KindEdit   = common.KindOperatorEdit
	KindDelete = common.KindOperatorDelete
)

// requestTimeout bounds one read (retries included).
const requestTimeout = 60 * time.Second

// Model is the operators screen: the list component, fed by the screen itself, in a frame,
// with the slots of the operators in view and the selected operator's fields below.
type Model struct {
	common.Base
	ctx *common.Ctx
	l   list.Model[Row]

	width, height int  // outer size
	stale         bool // the context changed while the screen was hidden
	// loads stamps the slots requests, keyed by operator id; reset with every context
	// (the slots of an older one are dropped), its owner id is the away tasks' owner.
	loads common.Loader

	slots map[int64]slotState
	round int // refresh round: slots of an older round are fetched again when visible
	// slotsAt is when the current round of slots began; slotsDue makes the next list
	// that arrives from an auto-refresh begin a new round (other loads always do).
	slotsAt  time.Time
	slotsDue bool
	// autoRound: the current round began with an auto-refresh, so in the hub its slots
	// may be what another session fetched a moment ago (common.Ctx.SharePolls).
	autoRound bool
	// freshRound: the current round began with the user's refresh (r), and skips the
	// client's memory; refreshAsked is an r whose list has not arrived yet. The other
	// rounds (the first load, a return to the screen) take what the memory holds.
	freshRound, refreshAsked bool

	detail bool // the selected operator's fields are shown below the list

	// all is every operator of the last list, by id, with the edits since: the list shows
	// those the filter keeps in the order asked (arrange).
	all  []Row
	show Show
	// name keeps the operators whose name holds it (typed after /, as you type; "" all).
	name string
	sort Sort
	// chosen is what the palette chose before the list arrived (ChooseMsg).
	chosen *ChooseMsg
}

// New returns the screen; it loads when first shown.
func New(ctx *common.Ctx) *Model {
	m := &Model{
		ctx:   ctx,
		slots: map[int64]slotState{},
		loads: common.NewLoader(ctx),
	}
	m.l = list.New[Row](ctx, source{m: m}, list.Options{Named: m.nameMsg}) // # with a name finds by name, as /
	return m
}

// Rows are the operators the list shows: those the filter keeps, in the order asked.
func (m *Model) Rows() []Row { return m.l.Rows() }

// row is operator id of the last list, shown or not.
func (m *Model) row(id int64) (Row, bool) {
	if i := slices.IndexFunc(m.all, func(r Row) bool { return r.ID == id }); i >= 0 {
		return m.all[i], true
	}
	return Row{}, false
}

// All is every operator of the last list (the filter's and the counts' source).
func (m *Model) All() []Row { return m.all }

// Show is the availability filter.
func (m *Model) Show() Show { return m.show }

// Sort is the order of the list.
func (m *Model) Sort() Sort { return m.sort }

// arrange shows the operators the filter keeps in the order asked; the cursor stays on its
// operator while it is shown.
func (m *Model) arrange() { m.arrangeIn(&m.l) }

func (m *Model) arrangeIn(l *list.Model[Row]) {
	l.Arrange(arranged(m.all, m.show, m.name, m.sort, func(id int64) (client.Opt[int], bool) {
		s, ok := m.slots[id]
		return s.val.CurrentSlots, ok && s.known
	}))
}

// Loaded reports that a list arrived.
func (m *Model) Loaded() bool { return m.l.Loaded() }

// Loading reports a list request in flight.
func (m *Model) Loading() bool { return m.l.Loading() }

// Busy reports whether any request of the screen is in flight.
func (m *Model) Busy() bool {
	return m.l.Loading() || m.l.AnyBusy() || m.loads.Waiting()
}

// Selected is the operator under the cursor.
func (m *Model) Selected() (Row, bool) { return m.l.Selected() }

// DetailShown reports whether the selected operator's fields are shown.
func (m *Model) DetailShown() bool { return m.detail }

// Focus shows the screen: it loads when needed. Shown again after a while, it refreshes at
// once when the last refresh is older than the auto-refresh pace (a supervisor coming back
// sees the current state, not the one from when they left).
func (m *Model) Focus() tea.Cmd {
	m.l.Focus()
	switch {
	case !m.l.Loaded() || m.stale:
		m.stale = false
		return m.l.Load(false)
	case m.l.Loading() || m.l.At().IsZero():
		return m.fetchSlots(m.l.VisibleRows())
	}
	if p := m.AutoPace(); p.Every > 0 && m.ctx.Now().Sub(m.l.At()) >= p.Every {
		return m.autoRefresh()
	}
	return m.fetchSlots(m.l.VisibleRows())
}

// Blur hides the screen: the root's auto-refresh then refreshes another screen.
func (m *Model) Blur() { m.l.Blur() }

// Resized loads the slots of the operators a resize brought into view.
func (m *Model) Resized() tea.Cmd { return m.fetchSlots(m.l.VisibleRows()) }

// SetSize sets the screen's size: the list takes the frame's inside.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.l.SetSize(max(0, w-2), max(0, h-2))
}

// AutoPace is the screen's auto-refresh pace now: the policy's for the activity, of one
// list request, by the operators family's budget.
func (m *Model) AutoPace() common.Pace {
	return m.ctx.Budget.Pace(m.ctx.ActivityNow(), m.ctx.Client.Usage(client.FamilyOperators), 1)
}

// autoRefresh refreshes the list for the root's auto-refresh tick, quietly, unless
// auto-refresh is off now (idle, budget), a refresh is on its way, or the last one is
// younger than half the pace: a tick armed at another screen's faster pace before this
// one was shown. The slots in view come along when their last round is SlotsPace old and
// the budget pays for them.
func (m *Model) autoRefresh() tea.Cmd {
	p := m.AutoPace()
	since := m.ctx.Now().Sub(m.l.At())
	if p.Every == 0 || m.l.Loading() || !m.l.At().IsZero() && since < p.Every/2 {
		return nil
	}
	m.slotsDue = m.ctx.Now().Sub(m.slotsAt) >= m.SlotsPace()-p.Every/2 && m.slotsAfford()
	return m.l.LoadQuiet()
}

// Update handles results, tasks and, when active, keys.
func (m *Model) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case nameMsg:
		if msg.owner == m.l.Owner() {
			m.name = msg.text
			m.arrange()
			return m, m.fetchSlots(m.l.VisibleRows())
		}
		return m, nil
	case tea.MouseClickMsg:
		_, cmd := m.l.Click(msg.Mouse().Y - 1) // the rows' lines start below the frame's top
		return m, cmd
	case tea.MouseWheelMsg:
		return m, m.l.Wheel(list.WheelStep(msg.Mouse()))
	case slotsMsg:
		if m.onSlots(msg) && m.sort == SortSlots {
			m.arrange()
			return m, m.fetchSlots(m.l.VisibleRows())
		}
		return m, nil
	case common.RefreshMsg:
		switch {
		case !m.l.Focused():
			return m, nil
		case msg.Auto:
			return m, m.autoRefresh()
		}
		m.refreshAsked = true
		return m, m.l.Load(true)
	case common.ContextChangedMsg:
		// The slots on their way and the away tasks under way belong to the old context.
		m.loads.Reset(m.ctx)
		m.l.ClearBusy()
		// The same organization, so the same operators: they stay, and the cursor, while
		// they load again as the new operator sees them (slots included).
		keep := msg.OperatorOnly && m.l.Loaded()
		if !keep {
			m.l.Forget()
			m.all = nil
			clear(m.slots)
		}
		if !m.l.Focused() {
			m.stale = true
			return m, nil
		}
		return m, m.l.Load(keep)
	case awayMsg:
		return m, m.startAway(msg.id, msg.away)
	case ChooseMsg:
		if !m.l.Loaded() {
			m.chosen = &msg // when the list arrives (Arrived)
			return m, nil
		}
		return m, m.choose(msg)
	case common.TaskDoneMsg:
		return m, m.onTask(msg)
	}
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg)
	return m, tea.Batch(cmd, m.fetchSlots(m.l.VisibleRows())) // a jump may show other rows
}

// SelfID is the operator parley acts as: the chosen one, else the token's own operator,
// else the organization's owner (the API's default, spec Authentication 4).
func (m *Model) SelfID() int64 {
	if id := m.ctx.ActingOperatorID; id != 0 {
		return id
	}
	if id := m.ctx.DefaultOperatorID; id != 0 {
		if _, ok := m.l.Row(id); ok || len(m.l.Rows()) == 0 {
			return id
		}
	}
	for _, r := range m.l.Rows() {
		if r.Role == client.RoleOwner {
			return r.ID
		}
	}
	return 0
}

func (m *Model) selfLabel() string {
	id := m.SelfID()
	if r, ok := m.l.Row(id); ok {
		return r.Label()
	}
	if id == 0 {
		return "the token's own operator"
	}
	return fmt.Sprintf("operator #%d", id)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.ctx.Keys
	switch {
	case key.Matches(msg, k.ToggleDetail):
		m.detail = !m.detail
		return tea.Batch(m.l.Refit(), m.fetchSlots(m.l.VisibleRows()))
	case key.Matches(msg, k.Away):
		return m.askAway()
	case key.Matches(msg, k.Edit):
		if r, ok := m.Selected(); ok {
			return m.ctx.OpenModal(m.EditForm(r))
		}
		return nil
	case key.Matches(msg, k.Delete):
		return m.askDelete()
	case key.Matches(msg, k.Search):
		return m.ctx.OpenModal(prompt.New(m.ctx, "Find operator:", m.name, m.nameMsg).Doing("keep").Live(m.nameMsg))
	case key.Matches(msg, k.Back) && m.name != "":
		m.name = ""
		m.arrange()
		return m.fetchSlots(m.l.VisibleRows())
	case key.Matches(msg, k.Status):
		m.show = (m.show + 1) % showCount
		m.arrange()
		return m.fetchSlots(m.l.VisibleRows())
	case key.Matches(msg, k.Order):
		m.sort = (m.sort + 1) % sortCount
		m.arrange()
		return m.fetchSlots(m.l.VisibleRows())
	case key.Matches(msg, k.Open):
		return m.showConversations()
	}
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg)
	return tea.Batch(cmd, m.fetchSlots(m.l.VisibleRows()))
}

// showConversations opens the conversations screen on the conversations assigned to the
// selected operator.
func (m *Model) showConversations() tea.Cmd {
	r, ok := m.Selected()
	if !ok {
		return nil
	}
	then := common.ShowOperatorConversationsMsg{OperatorID: r.ID, Name: cmp.Or(r.Name, r.DisplayName)}
	return common.ScreenOperators.Jump(common.ScreenConversations, then)
}

// idleSelected is the selected operator, for a key that acts on it; false when no row is
// selected, or when something is being done to it already (one request per operator at a
// time): refuse then says what.
func (m *Model) idleSelected() (r Row, refuse tea.Cmd, ok bool) {
	r, ok = m.Selected()
	if !ok {
		return r, nil, false
	}
	if what := m.l.Busy(r.ID); what != "" {
		return r, common.Toast(r.Label() + ": still " + what), false
	}
	return r, nil, true
}

// Where is the operators screen.
func (m *Model) Where() keymap.Where { return keymap.InOperators }

// View renders the frame: a header, the column titles, the visible operators and a footer,
// exactly the size given.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	return layout.Frame(m.ctx.FrameStyles(), "Operators", m.l.View(), m.width, m.height, m.l.Focused())
}

// nameMsg is the name filter typed after / (as it changes): it reaches the screen of owner.
type nameMsg struct {
	owner int
	text  string
}

func (m *Model) nameMsg(text string) tea.Msg { return nameMsg{owner: m.l.Owner(), text: text} }

// Name is the name filter ("" none).
func (m *Model) Name() string { return m.name }

// UsesBack reports whether esc has work of the screen's own: it clears the name filter.
func (m *Model) UsesBack() bool { return m.name != "" }

// ChooseMsg is an operator chosen in the command palette by name: the screen puts its
// cursor on it, first clearing the name and the filter when they hide it; with Away it then
// toggles its away status as the away key does (asking first for another operator).
type ChooseMsg struct {
	ID   int64
	Away bool
}

// choose puts the cursor on the chosen operator (see ChooseMsg).
func (m *Model) choose(c ChooseMsg) tea.Cmd {
	i := slices.IndexFunc(m.all, func(r Row) bool { return r.ID == c.ID })
	if i < 0 {
		return common.Toast(fmt.Sprintf("operator #%d is not in the list (any more)", c.ID))
	}
	if !m.l.Select(c.ID) {
		m.name, m.show = "", ShowAll // they hide it
		m.arrange()
		m.l.Select(c.ID)
	}
	cmd := m.fetchSlots(m.l.VisibleRows())
	if c.Away {
		return tea.Batch(cmd, m.askAway())
	}
	return cmd
}
