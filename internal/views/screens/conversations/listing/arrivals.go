package listing

import (
	"cmp"
	"maps"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
)

// Arrivals are found in what the list's refresh merges and the hub's shared polls already
// fetched, never by a request of their own, before those answers update the rows:
//   - a conversation new to the list: created (by the server's clock) after the first
//     answer the list watched from, and listed by the list's query;
//   - one newly assigned to the acting operator: assigned to them now, and to someone else
//     or nobody as last seen (a conversation not seen before counts when it changed after
//     the first answer watched: the API dates no assignment);
//   - a new message in one assigned to them: its last message time moved past the one last
//     seen, and its last message is not an operator's.
//
// Each is found once: what an answer showed is remembered. The arrivals not opened yet
// stay counted until the conversation is opened, ended, or another operator has it.

// watch is what the list keeps for that; the copies of a Model share it.
type watch struct {
	// from is the server's time of the first answer watched (the list's first page, else
	// the first merge or poll): a change after it counts.
	from time.Time
	// known are conversations as merges, polls and edits last showed them, besides the
	// loaded rows (bounded by maxKnown).
	known map[int64]seenConv
	// unseen are the arrivals not opened yet, by conversation.
	unseen map[int64]common.Arrival
	// version counts the changes of unseen (whoever counts them again looks at it).
	version int
}

// seenConv is what finding an arrival compares with: the operator assigned and the time of
// the last message.
type seenConv struct {
	op     int64
	lastAt time.Time
}

// maxKnown bounds the conversations a watch remembers besides the loaded rows; past it
// the memory starts again (a conversation not remembered is judged by the time it
// changed).
const maxKnown = 20000

func newWatch() *watch {
	return &watch{known: map[int64]seenConv{}, unseen: map[int64]common.Arrival{}}
}

// prior is conversation id as last seen: its loaded row, else what an answer showed.
func (m Model) prior(id int64) (seenConv, bool) {
	if r, ok := m.Model.Row(id); ok && r.Status != "" {
		return seenConv{op: r.OperatorID, lastAt: r.LastAt}, true
	}
	s, ok := m.watch.known[id]
	return s, ok
}

// arrivals finds the arrivals among rows, which convs (the same conversations as the API
// sent them) brought in an answer the server gave at reached; listed says whether the
// list's query lists conversation i. It runs before the rows update the loaded ones, and
// remembers what they show.
func (m Model) arrivals(rows []Row, convs []client.Conversation, reached time.Time, listed func(i int) bool) []common.Arrival {
	w := m.watch
	baseline := false
	if w.from.IsZero() {
		w.from = m.Model.Reached()
		if w.from.IsZero() {
			// No first page told the server's time: this answer is the baseline, its
			// changes are what the list starts from.
			w.from, baseline = reached, true
		}
	}
	me := m.ctx.Me()
	var out []common.Arrival
	for i, r := range rows {
		if cur, ok := m.Model.Row(r.ID); ok && cur.Status != "" && older(r, cur) {
			continue // an older version than the one shown
		}
		prev, known := m.prior(r.ID)
		a := common.Arrival{Conversation: convs[i], Name: r.Name}
		if a.Name == "" {
			a.Name = r.Email
		}
		if !baseline && !w.from.IsZero() {
			a.New = !known && convs[i].CreatedAt.After(w.from) && listed(i)
			if me != 0 && r.OperatorID == me {
				a.Assigned = known && prev.op != me || !known && r.UpdatedAt.After(w.from)
				byContact := convs[i].LastMessage == nil || !convs[i].LastMessage.FromOperator()
				a.Message = !a.Assigned && byContact &&
					(known && r.LastAt.After(prev.lastAt) || !known && r.LastAt.After(w.from))
			}
		}
		w.remember(r)
		w.settle(r, me)
		if a.New || a.Assigned || a.Message {
			if u, ok := w.unseen[r.ID]; ok {
				a.New, a.Assigned, a.Message = a.New || u.New, a.Assigned || u.Assigned, a.Message || u.Message
			}
			w.unseen[r.ID] = a
			w.version++
			out = append(out, a)
		}
	}
	return out
}

// remember notes what row r shows.
func (w *watch) remember(r Row) {
	if r.Status == "" {
		return // a pinned row before its detail came: nothing is known of it
	}
	if _, ok := w.known[r.ID]; !ok && len(w.known) >= maxKnown {
		clear(w.known)
	}
	w.known[r.ID] = seenConv{op: r.OperatorID, lastAt: r.LastAt}
}

// settle drops the arrival of row r's conversation that no longer waits for the acting
// operator me: ended, or another operator has it.
func (w *watch) settle(r Row, me int64) {
	if _, ok := w.unseen[r.ID]; !ok || r.Status == "" {
		return
	}
	if r.Status == client.StatusEnded || r.OperatorID != 0 && r.OperatorID != me {
		delete(w.unseen, r.ID)
		w.version++
	}
}

// arrived is the command that tells the root of arrivals (none: nil).
func arrived(as []common.Arrival) tea.Cmd {
	if len(as) == 0 {
		return nil
	}
	return func() tea.Msg { return common.ArrivedMsg{Arrivals: as} }
}

// Opened says that conversation id was opened: its arrival is seen.
func (m *Model) Opened(id int64) {
	if _, ok := m.watch.unseen[id]; ok {
		delete(m.watch.unseen, id)
		m.watch.version++
	}
}

// ResetArrivals forgets what the list watched (another organization or operator): the
// next answer starts it again.
func (m *Model) ResetArrivals() {
	w := m.watch
	w.from = time.Time{}
	clear(w.known)
	clear(w.unseen)
	w.version++
}

// Unseen are the arrivals not opened yet, by id.
func (m Model) Unseen() []common.Arrival {
	out := make([]common.Arrival, 0, len(m.watch.unseen))
	for _, a := range m.watch.unseen {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b common.Arrival) int { return cmp.Compare(a.Conversation.ID, b.Conversation.ID) })
	return out
}

// UnseenCount counts the arrivals not opened yet.
func (m Model) UnseenCount() common.Unseen { return common.CountArrivals(maps.Values(m.watch.unseen)) }

// UnseenVersion changes whenever the arrivals not opened yet do.
func (m Model) UnseenVersion() int { return m.watch.version }
