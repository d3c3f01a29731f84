package operators

// The slots of the operators in view: one request each, a request of the screen's loader
// keyed by the operator's id, asked again each refresh round (from the client's memory
// when the round is the first load's or a return's: see fetchSlots).

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/sanitize"
)

// slotsMsg is the answer for one operator's slots: a request of the screen's loader keyed
// by the operator's id.
type slotsMsg struct {
	stamp common.Stamp
	round int
	id    int64
	slots client.Slots
	err   error
}

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

// SlotsPace is how often auto-refresh asks again for the slots of the operators in view:
// common.SlotsFactor times the list's pace (0: not now).
func (m *Model) SlotsPace() time.Duration { return m.AutoPace().Every * common.SlotsFactor }

// slotsAfford reports whether the operators family's allowance pays for a refresh of the
// list and of the slots in view.
func (m *Model) slotsAfford() bool {
	cost := 1 + len(m.l.VisibleRows())
	return m.ctx.Budget.Stretch(m.ctx.Client.Usage(client.FamilyOperators), cost) > 0
}

// fetchSlots asks, in parallel, for the slots of rows (the operators in view) whose value is
// not of the current round and not already on its way.
func (m *Model) fetchSlots(rows []Row) tea.Cmd {
	var cmds []tea.Cmd
	c, round := m.ctx.Client, m.round
	// The user's r and an auto-refresh ask the server (an auto-refresh in the hub takes
	// what another session fetched a moment ago); the first round and a return to the
	// screen take what the client's memory holds.
	fresh := m.freshRound || m.autoRound
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
			ctx, cancel := common.RequestContextIn(parent, requestTimeout, fresh)
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
