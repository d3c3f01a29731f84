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
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/confirm"
	"github.com/parley-tui/parley/views/layout"
	"github.com/parley-tui/parley/views/list"
)

// Task kinds this screen reports in common.TaskDoneMsg.
const (
	KindAway   = common.KindOperatorAway
	KindEdit   = common.KindOperatorEdit
	KindDelete = common.KindOperatorDelete
)

// requestTimeout bounds one read (retries included).
const requestTimeout = 60 * time.Second

// wideRow is the inner width from which email and locale get their own columns.
const wideRow = 100

// slotsMsg is the answer for one operator's slots: a request of the screen's loader keyed
// by the operator's id.
type slotsMsg struct {
	stamp common.Stamp
	round int
	id    int64
	slots client.Slots
	err   error
}

// awayMsg starts the away task once the user confirmed (or right away for oneself).
type awayMsg struct {
	id   int64
	away bool
}

// Model is the operators screen: the list component, fed by the screen itself, in a frame,
// with the slots of the operators in view and the selected operator's fields below.
type Model struct {
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

	detail bool // the selected operator's fields are shown below the list

	// all is every operator of the last list, by id, with the edits since: the list shows
	// those the filter keeps in the order asked (arrange).
	all  []Row
	show Show
	sort Sort
}

// source is the screen's side of its list.
type source struct{ m *Model }

// New returns the screen; it loads when first shown.
func New(ctx *common.Ctx) *Model {
	m := &Model{
		ctx:   ctx,
		slots: map[int64]slotState{},
		loads: common.NewLoader(ctx),
	}
	m.l = list.New[Row](ctx, source{m: m}, list.Options{})
	return m
}

// Pages lists every operator (all pages) as one page, by id (the owner first), whatever
// order the API lists them in.
func (s source) Pages() list.Fetcher[Row] {
	return list.Endpoints[client.Operator, Row]{
		What: "operators", One: "operator", Row: RowFrom, ID: rowID,
		Offset: func(ctx context.Context, c *client.Client, _, _ int) (*client.Page[client.Operator], error) {
			ops, err := c.AllOperators(ctx)
			if err != nil {
				return nil, err
			}
			return &client.Page[client.Operator]{Count: len(ops), Results: ops}, nil
		},
	}
}

// Arrived drops the slots of operators that went and, unless the list came from an
// auto-refresh whose slots are not due, fetches those of the operators in view again (a
// new round).
func (s source) Arrived(l *list.Model[Row], p list.Page[Row]) tea.Cmd {
	m := s.m
	first := len(m.all) == 0
	m.all = slices.Clone(l.Rows())
	listed := make(map[int64]bool, len(m.all))
	for _, r := range m.all {
		listed[r.ID] = true
	}
	for id := range m.slots {
		if !listed[id] {
			m.dropSlots(id) // the operator went
		}
	}
	m.arrangeIn(l) // l is the list being updated, not yet m.l
	if rows := l.Rows(); first && len(rows) > 0 {
		l.Select(rows[0].ID) // a new list starts at its first row in the order asked
	}
	if !p.Quiet || m.slotsDue {
		m.round++
		m.slotsAt, m.slotsDue, m.autoRound = m.ctx.Now(), false, p.Quiet
	}
	return m.fetchSlots(l.VisibleRows())
}

// Init does nothing: the list loads when the screen is first shown.
func (m *Model) Init() tea.Cmd { return nil }

// Title names the screen.
func (m *Model) Title() string { return "Operators" }

// Capturing is false: inputs are modals.
func (m *Model) Capturing() bool { return false }

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
	l.Arrange(arranged(m.all, m.show, m.sort, func(id int64) (client.Opt[int], bool) {
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

// Slots returns an operator's slot use as the screen shows it, once an answer arrived (ok):
// each number known only when the server gave it (the total from the operator record's
// max_slots when the slots answer has none).
func (m *Model) Slots(id int64) (used, total client.Opt[int], ok bool) {
	s, ok := m.slots[id]
	if !ok || !s.known {
		return used, total, false
	}
	var maxSlots client.Opt[int]
	if r, ok := m.l.Row(id); ok {
		maxSlots = r.MaxSlots
	}
	return s.val.CurrentSlots, s.val.Total(maxSlots), true
}

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

// DetailHeight is the lines of the selected operator's fields out of room, or none when
// they are not shown: the room the rows do not need, at least half of it, leaving a row.
func (s source) DetailHeight(room int, st list.Status) int {
	if !s.m.detail || room < 2 {
		return 0
	}
	return min(max(room/2, room-max(1, st.Rows)), room-1)
}

// Detail lays out the selected operator's fields.
func (s source) Detail(w, h int) []string { return s.m.detailLines(w, h) }

// AutoRefreshCost is what one auto-refresh costs: the list, one operators-family request
// (the slots, one request per operator in view, follow only every common.SlotsFactor
// refreshes).
func (m *Model) AutoRefreshCost() (client.Family, int) {
	return client.FamilyOperators, 1
}

// AutoPace is the screen's auto-refresh pace now: the policy's for the activity, of one
// list request, by the operators family's budget.
func (m *Model) AutoPace() common.Pace {
	return m.ctx.Budget.Pace(m.ctx.ActivityNow(), m.ctx.Client.Usage(client.FamilyOperators), 1)
}

// SlotsPace is how often auto-refresh asks again for the slots of the operators in view:
// common.SlotsFactor times the list's pace (0: not now).
func (m *Model) SlotsPace() time.Duration { return m.AutoPace().Every * common.SlotsFactor }

// slotsAfford reports whether the operators family's allowance pays for a refresh of the
// list and of the slots in view.
func (m *Model) slotsAfford() bool {
	cost := 1 + len(m.l.VisibleRows())
	return m.ctx.Budget.Stretch(m.ctx.Client.Usage(client.FamilyOperators), cost) > 0
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
	case common.TaskDoneMsg:
		return m, m.onTask(msg)
	}
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg)
	return m, tea.Batch(cmd, m.fetchSlots(m.l.VisibleRows())) // a jump may show other rows
}

// fetchSlots asks, in parallel, for the slots of rows (the operators in view) whose value is
// not of the current round and not already on its way.
func (m *Model) fetchSlots(rows []Row) tea.Cmd {
	var cmds []tea.Cmd
	c, round := m.ctx.Client, m.round
	var share time.Duration
	if m.autoRound {
		share = m.ctx.SharePolls
	}
	for _, r := range rows {
		id := r.ID
		s := m.slots[id]
		if m.loads.Pending(id) || s.gen == round {
			continue
		}
		m.slots[id] = s
		stamp, parent := m.loads.Start(id)
		cmds = append(cmds, func() tea.Msg {
			ctx, cancel := common.RequestContextIn(parent, requestTimeout, true)
			defer cancel()
			sl, err := c.OperatorSlots(client.Within(ctx, share), id)
			if err != nil {
				return slotsMsg{stamp: stamp, round: round, id: id, err: fmt.Errorf("slots of operator %d: %w", id, err)}
			}
			return slotsMsg{stamp: stamp, round: round, id: id, slots: *sl}
		})
	}
	return tea.Batch(cmds...)
}

// onSlots takes an answer to fetchSlots and reports whether it was the one awaited.
func (m *Model) onSlots(msg slotsMsg) bool {
	s, ok := m.slots[msg.id]
	if !ok || msg.stamp.Key != msg.id || !m.loads.Take(msg.stamp) {
		return false // of another context, or of an operator gone
	}
	s.gen = msg.round
	if msg.err != nil {
		s.err = msg.err
	} else {
		s.err = nil
		s.val, s.known = msg.slots, true
		s.extra = ExtraLines(msg.slots.Extra)
		for i, h := range msg.slots.Held {
			s.extra = append(s.extra, sanitize.Line(fmt.Sprintf("occupied slot %d=%s", i+1, h)))
		}
	}
	m.slots[msg.id] = s
	return true
}

// dropSlots forgets operator id's slots, and the answer on its way for them.
func (m *Model) dropSlots(id int64) {
	delete(m.slots, id)
	m.loads.Drop(id)
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

// askAway toggles the selected operator's away status: at once for oneself, after a
// confirmation naming the operator otherwise.
func (m *Model) askAway() tea.Cmd {
	r, refuse, ok := m.idleSelected()
	if !ok {
		return refuse
	}
	// Unknown (the server did not say): the toggle sets away.
	away := !(r.IsAway.Known && r.IsAway.V)
	if r.ID == m.SelfID() {
		return m.startAway(r.ID, away)
	}
	word, title := "away", "Set operator away?"
	if !away {
		word, title = "available", "Set operator available?"
	}
	body := fmt.Sprintf("Set %s %s? You act as %s, so this changes another operator's status.",
		r.Label(), word, m.selfLabel())
	id := r.ID
	return m.ctx.OpenModal(confirm.New(m.ctx, title, body, func() tea.Msg { return awayMsg{id: id, away: away} }))
}

// awayAsked is the Result of an away task that failed: the status it asked for (a lost
// answer is checked against it).
type awayAsked bool

// startAway sends PATCH /operators/{id}/away/. The row then shows what the server states,
// never a status inferred from another: an answer that is the whole operator replaces the
// row (the task's Result is a Row); an answer that states both the away and the online
// status sets those two (Result a client.AwayStatus: away changes neither the operator's
// other fields nor its slots); any other answer (the spec does not show its fields, and
// whether away changes the online status is the server's business) costs one read of the
// operator (Result a Row). Should that read fail, the away status is the answer's (else
// the one asked for, which the server accepted) and the online status unknown.
func (m *Model) startAway(id int64, away bool) tea.Cmd {
	if _, ok := m.l.Row(id); !ok || m.l.Busy(id) != "" {
		return nil // one request per operator at a time
	}
	m.l.SetBusy(id, "saving")
	_, cmd := m.ctx.Start(common.Write{Owner: m.loads.Owner(), Kind: KindAway, Subject: id, What: fmt.Sprintf("set away of operator %d", id),
		Do: func(ctx context.Context, c *client.Client) (any, error) {
			st, err := c.SetOperatorAway(ctx, id, away)
			if err != nil {
				return awayAsked(away), err
			}
			switch {
			case st.Operator != nil && st.Operator.ID == id:
				return RowFrom(*st.Operator), nil
			case st.Operator == nil && st.OperatorID == id && st.IsAway.Known && st.IsOnline.Known:
				return *st, nil
			}
			op, err := c.GetOperator(client.Fresh(ctx), id)
			if err != nil {
				res := client.AwayStatus{OperatorID: id, IsAway: st.IsAway, Extra: st.Extra}
				if !res.IsAway.Known {
					res.IsAway = client.Some(away) // answered 2xx: the change was made
				}
				return res, nil
			}
			r := RowFrom(*op)
			if st.Operator == nil {
				r.AwayExtra = ExtraLines(st.Extra)
			}
			return r, nil
		}})
	return cmd
}

func (m *Model) askDelete() tea.Cmd {
	r, refuse, ok := m.idleSelected()
	if !ok {
		return refuse
	}
	id, label := r.ID, r.Label()
	return m.l.ConfirmDelete(list.Delete{Kind: KindDelete, IDs: []int64{id}, Title: "Delete operator?",
		Body: fmt.Sprintf("Delete operator %s? Their open conversations become unassigned. This cannot be undone.", label),
		What: fmt.Sprintf("delete operator %d", id),
		Do: list.DeleteOne(id, "operator "+label,
			func(ctx context.Context, c *client.Client) error { return c.DeleteOperator(ctx, id) },
			func(ctx context.Context, c *client.Client) error { _, err := c.GetOperator(ctx, id); return err }),
		Done: func(_ list.Deleted, confirmed string) string { return "Deleted operator " + label + confirmed },
	})
}

// checkAway reads operator id again (fresh) after an away PATCH (asking for away) whose
// answer was lost: the row shows "checking" meanwhile, and the task reports the operator
// read when its status is the one asked for (see common.TaskDoneMsg.Lost).
func (m *Model) checkAway(id int64, away bool, cause error, label string) tea.Cmd {
	m.l.SetBusy(id, "checking")
	_, asked := AwaySymbol(away)
	_, other := AwaySymbol(!away)
	_, check := m.ctx.Start(common.Write{Owner: m.loads.Owner(), Kind: KindAway, Subject: id, Lost: cause,
		Do: func(ctx context.Context, c *client.Client) (any, error) {
			op, err := c.GetOperator(ctx, id)
			switch {
			case err != nil:
				return awayAsked(away), &common.UncheckedError{Cause: cause, Check: fmt.Errorf("read operator %d: %w", id, err),
					What: "whether " + label + " was set " + asked, Advice: "refresh to see the status"}
			case !op.IsAway.Known:
				return awayAsked(away), &common.UncheckedError{Cause: cause, Check: fmt.Errorf("read operator %d: the answer does not say whether it is away", id),
					What: "whether " + label + " was set " + asked, Advice: "refresh to see the status"}
			case op.IsAway.V == away:
				return RowFrom(*op), nil
			}
			return awayAsked(away), &common.NotDoneError{Cause: cause, Done: "saved", Found: label + " is still " + other}
		}})
	return tea.Batch(common.Toast(label+": may have been set "+asked+"; checking…"), check)
}

// onTask takes the end of a write: an edit from the edit form, and the screen's own away
// tasks and its list's deletes (recognised by their owner: a task of an earlier
// organization or operator is not).
func (m *Model) onTask(msg common.TaskDoneMsg) tea.Cmd {
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg) // the list's delete tasks
	switch {
	case msg.Kind == KindEdit:
		// The edit form reports the updated operator; update the row in place and name it
		// as saved.
		if r, ok := msg.Result.(Row); ok && msg.Err == nil {
			m.updateRow(r)
			return common.Toast("Saved operator " + r.Label() + common.Confirmed(msg.Lost))
		}
		return nil
	case msg.Kind == KindDelete && msg.Mine(m.l.Owner()):
		if d, ok := msg.Result.(list.Deleted); ok {
			m.all = slices.DeleteFunc(m.all, func(r Row) bool { return slices.Contains(d.IDs, r.ID) })
		}
		m.dropSlots(msg.Subject)
		return tea.Batch(cmd, m.fetchSlots(m.l.VisibleRows()))
	case msg.Kind != KindAway || !msg.Mine(m.loads.Owner()):
		return cmd
	}
	id := msg.Subject
	label := fmt.Sprintf("operator #%d", id)
	if r, ok := m.row(id); ok {
		label = r.Label()
	}
	if asked, ok := msg.Result.(awayAsked); ok && msg.Lost == nil && common.OutcomeUnknown(msg.Err) {
		return m.checkAway(id, bool(asked), msg.Err, label)
	}
	m.l.SetBusy(id, "")
	var unchecked *common.UncheckedError
	if errors.As(msg.Err, &unchecked) {
		// The change may or may not have been made: the row no longer states the status it
		// had as a fact, it shows it unknown until a refresh reads it.
		if r, ok := m.row(id); ok {
			r.IsAway = client.Opt[bool]{}
			m.updateRow(r)
		}
		return common.ErrorToast(msg.Err)
	}
	var notDone *common.NotDoneError
	if errors.As(msg.Err, &notDone) {
		text := common.ErrorText(msg.Err) + " " + m.ctx.Keys.Away.Help().Key + " tries again."
		return func() tea.Msg { return common.ToastMsg{Text: text, Error: true} }
	}
	switch res := msg.Result.(type) {
	case Row:
		m.updateRow(res)
	case client.AwayStatus:
		// Both as the server states them: whether away changes the online status is the
		// server's business (docs/api-notes.md).
		if i := slices.IndexFunc(m.all, func(x Row) bool { return x.ID == id }); i >= 0 {
			r := m.all[i]
			r.IsAway, r.IsOnline, r.AwayExtra = res.IsAway, res.IsOnline, ExtraLines(res.Extra)
			m.updateRow(r)
		}
	}
	var away client.Opt[bool]
	if r, ok := m.row(id); ok {
		away = r.IsAway // also when the filter hides it now
	}
	var done string
	switch {
	case msg.Err != nil:
	case !away.Known:
		done = label + ": the server did not say whether it is away now"
	default:
		_, word := AwaySymbol(away.V)
		done = label + " is now " + word
	}
	return common.DoneToast(msg, done)
}

// updateRow replaces an operator's row in place; the filter may then hide it or show it,
// and the sort move it.
func (m *Model) updateRow(r Row) {
	i := slices.IndexFunc(m.all, func(x Row) bool { return x.ID == r.ID })
	if i < 0 {
		return
	}
	m.all[i] = r
	m.l.UpdateRow(r)
	m.arrange()
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

// cols holds the column widths for the current width.
type cols struct {
	w                          int
	away, online, name, disp   int
	role, slots, email, locale int
}

func columns(w int) cols {
	l := cols{w: w, away: 12, online: 7, role: 6, slots: 11}
	if w >= wideRow {
		l.locale = 6
		l.email = min(40, max(16, w/5))
	}
	fixed := 1 + l.away + 1 + l.online + 1 + 1 + 1 + l.role + 1 + l.slots // name and display name flex
	if l.email > 0 {
		fixed += l.email + 1 + l.locale + 1
	}
	flex := max(2, w-fixed)
	l.name = min(32, flex*60/100)
	l.disp = min(24, flex-l.name)
	if l.email > 0 {
		// What is left goes to the email column, up to 48 cells (the longest addresses);
		// past that the line ends in blanks rather than spreading the columns apart.
		l.email = min(max(l.email, 48), l.email+flex-l.name-l.disp)
	} else {
		l.disp = flex - l.name
	}
	return l
}

// line joins one line's cells, each as wide as its column already, in the columns' order:
// status, online, name, display name, email and locale (only when the columns have them),
// role, slots.
func (l cols) line(status, online, name, disp, email, locale, role, slots string) string {
	cells := []string{status, online, name, disp}
	if l.email > 0 {
		cells = append(cells, email, locale)
	}
	return strings.Join(append(cells, role, slots), " ")
}

func (l cols) titles() string {
	return " " + l.line(layout.Pad("STATUS", l.away), layout.Pad("ONLINE", l.online), layout.Pad("NAME", l.name),
		layout.Pad("DISPLAY NAME", l.disp), layout.Pad("EMAIL", l.email), layout.Pad("LOCALE", l.locale),
		layout.Pad("ROLE", l.role), layout.Pad("SLOTS", l.slots-1))
}

// RowHeight is one line an operator.
func (s source) RowHeight(int) int { return 1 }

// Stamp is what a row shows besides the operator's record and what is being done to it:
// its slots, and whether it is the operator parley acts as.
func (s source) Stamp(r *Row, _ time.Time) string {
	m := s.m
	you := ""
	if r.ID == m.SelfID() {
		you = "you"
	}
	return m.slotText(r.ID) + "|" + you
}

// Render lays out one operator.
func (s source) Render(r *Row, c list.Cell) string { return s.m.render(r, c) }

// render lays out one operator; styled=false gives plain text for the selection highlight.
func (m *Model) render(r *Row, c list.Cell) string {
	st := m.ctx.Styles
	paint := layout.PaintIf(c.Styled)
	l := columns(c.Width)
	statusStyle := st.Muted
	if r.IsAway.Known {
		statusStyle = st.StatusNew
		if r.IsAway.V {
			statusStyle = st.StatusPending
		}
	}
	status := paint(layout.Pad(AwayText(r.IsAway), l.away), statusStyle)
	if what := c.Busy; what != "" {
		status = paint(layout.Pad("… "+what, l.away), st.Loading)
	}
	onlineStyle := st.Muted
	if r.IsOnline.Known && r.IsOnline.V {
		onlineStyle = st.Success
	}
	online := paint(layout.Pad(OnlineText(r.IsOnline), l.online), onlineStyle)
	name := r.Name
	if name == "" {
		name = "(no name)"
	}
	tags := ""
	if r.IsBot {
		tags += " [bot]"
	}
	if r.ID == m.SelfID() {
		tags += " (you)"
	}
	nameStyle := st.Bold
	if r.IsBot {
		nameStyle = st.BotName
	}
	// Cut the name, not the tags: "(you)" and "[bot]" must stay visible.
	if tw := lipgloss.Width(tags); lipgloss.Width(name)+tw > l.name && l.name > tw+3 {
		name = ansi.Truncate(name, l.name-tw, "…")
	}
	nameCell := layout.Pad(paint(name, nameStyle)+paint(tags, st.Accent), l.name)
	email, locale := "", ""
	if l.email > 0 {
		email, locale = paint(layout.Pad(r.Email, l.email), st.Muted), paint(layout.Pad(r.Locale, l.locale), st.Muted)
	}
	role := paint(layout.Pad(layout.OrDash(r.Role), l.role), st.Muted)
	slots := layout.Pad(m.slotText(r.ID), l.slots-1) // left-aligned: "slots" lines up under its title
	return layout.Fit(c.Mark+l.line(status, online, nameCell, layout.Pad(r.DisplayName, l.disp), email, locale, role, slots), c.Width)
}

// slotText is an operator's slot use as the server gave it: "slots 3/50", "slots —/50",
// "slots 3/—", "slots —"; "slots ?" after a failed request, "slots …" before the answer.
func (m *Model) slotText(id int64) string {
	used, total, ok := m.Slots(id)
	switch {
	case ok:
		return "slots " + SlotText(used, total)
	case m.slots[id].err != nil:
		return "slots ?"
	}
	return "slots …"
}

// Header counts the operators (those shown of all when the filter hides some) and how many
// the server said are available, away and online, and how many it did not say about
// (never counted as available); it names the filter and the order, and shows the
// operators family's requests today against the budget and the auto-refresh pace; the
// column titles follow. The parts go on one line or two, each in the longest form that fits.
func (s source) Header(st list.Status) []string {
	m := s.m
	styles := m.ctx.Styles
	c := CountOf(m.all)
	count := list.CountPart(st, "operator", "operators")
	if m.show != ShowAll && st.Loaded {
		all := fmt.Sprintf("%s of %d operators", st.Count, c.All)
		count = list.HeaderPart{all, all, fmt.Sprintf("%s of %d", st.Count, c.All)}
	}
	// The forms shrink by level, every part at once: "status unknown" first, then the
	// nouns and the words "filter:" and "sort:", then "available".
	parts := []list.HeaderPart{count}
	if st.Loaded && len(m.all) > 0 {
		avail := fmt.Sprintf("%d available", c.Available)
		parts = append(parts,
			list.HeaderPart{avail, avail, avail, fmt.Sprintf("%d avail", c.Available)},
			list.HeaderPart{fmt.Sprintf("%d away", c.Away)})
		if c.Unknown > 0 {
			parts = append(parts, list.HeaderPart{fmt.Sprintf("%d status unknown", c.Unknown), fmt.Sprintf("%d unknown", c.Unknown)})
		}
		parts = append(parts, list.HeaderPart{fmt.Sprintf("%d online", c.Online)})
	}
	parts = append(parts,
		list.HeaderPart{"filter:" + m.show.String(), "filter:" + m.show.String(), m.show.String()},
		list.HeaderPart{"sort:" + m.sort.String(), "sort:" + m.sort.String(), "by " + m.sort.String()})
	used := m.ctx.Client.Usage(client.FamilyOperators)
	budget := "operators requests today " + layout.Thousands(used) + "/" + layout.Thousands(m.ctx.Budget.PerDay)
	cost := []list.HeaderPart{{budget, budget, "requests " + layout.Thousands(used) + "/" + layout.Thousands(m.ctx.Budget.PerDay)}}
	if p := m.AutoPace(); m.ctx.Budget.On() {
		// The longest form that fits: with the slots' pace, without, the short one.
		text, short := p.Text(m.ctx.Budget, false, m.ctx.Keys.Refresh.Help().Key)
		forms := list.HeaderPart{text}
		if p.Every > 0 {
			forms = list.HeaderPart{text + ", slots every " + layout.ShortDuration(p.Every*common.SlotsFactor), text}
		}
		if short != "" {
			forms = append(forms, short)
		}
		cost = append(cost, forms)
	}
	// The operators on one line, what watching them costs on the next when both do not fit
	// on one.
	var lines []string
	if all := append(slices.Clip(parts), cost...); fitsWhole(all, st.Width) {
		lines = list.FitHeader(all, st.Width, 1)
	} else {
		lines = append(list.FitHeader(parts, st.Width, 1), list.FitHeader(cost, st.Width, 1)...)
	}
	for i, l := range lines {
		lines[i] = styles.HeaderLine.Render(l)
	}
	return append(lines, styles.Muted.Render(columns(st.Width).titles()))
}

// Empty says there are no operators.
func (s source) Empty(list.Status) string {
	if s.m.show != ShowAll && len(s.m.all) > 0 {
		return fmt.Sprintf("No operator is %s (%s shows others).", s.m.show, s.m.ctx.Keys.Status.Help().Key)
	}
	return "No operators."
}

// Footnote shows the last refresh after the position, and the screen's keys at the right.
func (s source) Footnote(st list.Status) (note, hints string) {
	k := s.m.ctx.Keys
	if !st.At.IsZero() {
		note = " · refreshed " + st.At.In(s.m.ctx.Now().Location()).Format("15:04:05")
	}
	// The keys as bound, and only those enabled (read-only has no edits), most used first:
	// as many as fit beside the note.
	var parts []string
	for _, h := range []struct {
		b    key.Binding
		what string
	}{{k.Open, "conversations"}, {k.Status, "filter"}, {k.Order, "sort"}, {k.Away, "away"}, {k.Edit, "edit"},
		{k.Delete, "delete"}, {k.ToggleDetail, "detail"}, {k.Refresh, "refresh"}} {
		if h.b.Enabled() {
			parts = append(parts, h.b.Help().Key+" "+h.what)
		}
	}
	room := st.Width - ansi.StringWidth(fmt.Sprintf(" %d/%d", st.Cursor+1, st.Rows)+note) - 2
	for len(parts) > 0 && ansi.StringWidth(strings.Join(parts, " · ")+" ") > room {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return note, ""
	}
	return note, s.m.ctx.Styles.Muted.Render(strings.Join(parts, " · ") + " ")
}

// detailLines lay out the selected operator's fields that its row leaves out, w×h, each as
// the server sent it ("—" where it sent none), then the fields of the operator, of its
// slots answer and of its last away answer that parley does not read.
func (m *Model) detailLines(w, h int) []string {
	r, ok := m.Selected()
	if !ok {
		return layout.Record(m.ctx.Styles, "Operator", nil, nil, w, h)
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(m.ctx.Now().Location()).Format("2006-01-02 15:04")
	}
	group := ""
	if r.GroupID != nil {
		group = fmt.Sprint(*r.GroupID)
	}
	bot := "no"
	if r.IsBot {
		bot = "yes"
	}
	// The row shows the rest (name, role, statuses, slots); these are what it leaves out.
	fields := []layout.Field{
		{Label: "Email", Value: r.Email},
		{Label: "Locale", Value: r.Locale},
		{Label: "Group", Value: group},
		{Label: "Bot", Value: bot},
		{Label: "Created", Value: ts(r.CreatedAt)},
		{Label: "Updated", Value: ts(r.UpdatedAt)},
	}
	extra := slices.Clone(r.Extra)
	for _, e := range m.slots[r.ID].extra {
		extra = append(extra, "slots: "+e)
	}
	for _, e := range r.AwayExtra {
		extra = append(extra, "away answer: "+e)
	}
	return layout.Record(m.ctx.Styles, "Operator "+r.Label(), fields, extra, w, h)
}

// fitsWhole reports whether parts fit on one line of w cells in their longest forms.
func fitsWhole(parts []list.HeaderPart, w int) bool {
	forms := make([]string, 0, len(parts))
	for _, p := range parts {
		if len(p) > 0 && p[0] != "" {
			forms = append(forms, p[0])
		}
	}
	return ansi.StringWidth(" "+strings.Join(forms, list.HeaderSep)) <= w
}
