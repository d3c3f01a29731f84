package conversations

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/confirm"
	"github.com/parley-tui/parley/internal/views/components/operatorpick"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/writes"
)

// The conversation actions: take (T), assign (A), unassign (U), end (E), reopen (O) and
// mark read/unread (u). Each one is one PATCH of the target conversation; the row and the
// detail change from the server's answer only, and an answer that does not show the change
// is reported as such (the row then shows what the server says).

// stateChange is one action on one conversation, with its words: done is the toast of a
// success ("Ended conversation #12."; "": none, the row shows it), failed starts the toast
// of a failure ("Could not end conversation #12").
type stateChange struct {
	writes.Change
	done, failed string
}

// me is the operator "take" assigns to: the acting operator, else the token's default one
// (0 when neither is known yet).
func (m *Model) me() int64 { return m.ctx.Me() }

// opName names an operator for a question or a toast (sanitized names of the directory).
func (m *Model) opName(id int64) string {
	if id == 0 {
		return "nobody"
	}
	if id == m.me() {
		if n := m.ctx.Operators[id]; n != "" {
			return "you (" + n + ")"
		}
		return "you"
	}
	if n := m.ctx.Operators[id]; n != "" {
		return n
	}
	return fmt.Sprintf("operator #%d", id)
}

// convName is "conversation #12 with Ann" for questions and toasts.
func convName(r listing.Row) string {
	who := r.Name
	if who == "" {
		who = r.Email
	}
	if who == "" {
		return fmt.Sprintf("conversation #%d", r.ID)
	}
	return fmt.Sprintf("conversation #%d with %s", r.ID, who)
}

// assignChange assigns r to op (0: unassigns it).
func (m *Model) assignChange(r listing.Row, op int64, verb, done string) stateChange {
	return stateChange{Change: writes.AssignChange(r.ID, op, m.opName), done: done,
		failed: fmt.Sprintf("Could not %s conversation #%d", verb, r.ID)}
}

// statusChange sets r's status to status.
func statusChange(r listing.Row, status, verb, done string) stateChange {
	return stateChange{Change: writes.StatusChange(r.ID, status), done: done,
		failed: fmt.Sprintf("Could not %s conversation #%d", verb, r.ID)}
}

// take assigns the target to the acting operator, asking first when it is someone else's.
func (m *Model) take() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	me := m.me()
	switch {
	case me == 0:
		return common.Toast("Who you are is not known yet (the operator list has not loaded): choose an operator with " +
			m.ctx.Keys.ActAs.Help().Key + " to take a conversation. Nothing was sent.")
	case r.OperatorID == me:
		return common.Toast(fmt.Sprintf("Conversation #%d is already assigned to you. Nothing was sent.", r.ID))
	}
	ch := m.assignChange(r, me, "take", fmt.Sprintf("Took conversation #%d.", r.ID))
	return m.sendUnlessTheirs(r, ch, "Take conversation?", "Take it from them?")
}

// unassign removes the target's operator, asking first when it is someone else's.
func (m *Model) unassign() tea.Cmd {
	r, ok := m.target()
	if cmd, stop := common.Unusable(ok, r.OperatorID == 0, "Conversation #%d is not assigned. Nothing was sent.", r.ID); stop {
		return cmd
	}
	ch := m.assignChange(r, 0, "unassign", fmt.Sprintf("Unassigned conversation #%d.", r.ID))
	return m.sendUnlessTheirs(r, ch, "Unassign conversation?", "Unassign it?")
}

// assign reads the operators (fresh: their away and online state now) and opens the
// picker; a stale answer (A pressed again, another target) is dropped.
func (m *Model) assign() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	stamp, parent := m.loads.Start(loadPick)
	c := m.ctx.Client
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.TaskTimeout, true)
		defer cancel()
		ops, err := c.AllOperators(ctx)
		if err != nil {
			return operatorsForPickMsg{stamp: stamp, row: r, err: fmt.Errorf("list operators: %w", err)}
		}
		return operatorsForPickMsg{stamp: stamp, row: r, ops: ops}
	}
}

// loadPick is the assign picker's operator request (a common.Loader key of the screen).
const loadPick int64 = 0

// operatorsForPickMsg is the operator list the assign picker opens with.
type operatorsForPickMsg struct {
	stamp common.Stamp
	row   listing.Row
	ops   []client.Operator
	err   error
}

// openAssignPicker opens the picker for msg's conversation: bots last, the current
// operator marked.
func (m *Model) openAssignPicker(msg operatorsForPickMsg) tea.Cmd {
	if !m.loads.Take(msg.stamp) {
		return nil
	}
	if msg.err != nil {
		return common.FailToast(fmt.Sprintf("Could not list the operators to assign conversation #%d to: %s", msg.row.ID, writes.ErrorText(msg.err)))
	}
	r := msg.row
	items := make([]operatorpick.Item, 0, len(msg.ops))
	for _, o := range msg.ops {
		it := operatorpick.ItemFrom(o)
		switch {
		case o.ID == r.OperatorID:
			it.Note = "✓ assigned now"
		case o.ID == m.me():
			it.Note = "(you)"
		}
		items = append(items, it)
	}
	slices.SortStableFunc(items, func(a, b operatorpick.Item) int {
		if a.Bot != b.Bot {
			if a.Bot {
				return 1
			}
			return -1
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	note := fmt.Sprintf("Assigned now: %s.", m.opName(r.OperatorID))
	if len(items) == 0 {
		note = "The API lists no operators in this organization."
	}
	return m.ctx.OpenModal(operatorpick.New(m.ctx, "Assign "+convName(r)+" to…", note, items,
		func(it operatorpick.Item) tea.Cmd { return m.assignTo(r, it) }))
}

// assignTo assigns r to the picked operator, asking first when r is someone else's.
func (m *Model) assignTo(r listing.Row, it operatorpick.Item) tea.Cmd {
	if it.ID == r.OperatorID {
		return common.Toast(fmt.Sprintf("Conversation #%d is already assigned to %s. Nothing was sent.", r.ID, it.Name))
	}
	ch := m.assignChange(r, it.ID, "assign", fmt.Sprintf("Assigned conversation #%d to %s.", r.ID, it.Name))
	return m.sendUnlessTheirs(r, ch, "Reassign conversation?", fmt.Sprintf("Assign it to %s instead?", it.Name))
}

// sendUnlessTheirs sends ch, a change of r's operator, at once when r is unassigned or the
// acting operator's; when it is another operator's, it asks first (title), naming them
// before the question.
func (m *Model) sendUnlessTheirs(r listing.Row, ch stateChange, title, question string) tea.Cmd {
	if r.OperatorID == 0 || r.OperatorID == m.me() {
		return m.send(ch)
	}
	return m.ask(title, fmt.Sprintf("%s is assigned to %s. %s", capital(convName(r)), m.opName(r.OperatorID), question), ch)
}

// end asks, naming the conversation, then ends it.
func (m *Model) end() tea.Cmd {
	r, ok := m.target()
	if cmd, stop := common.Unusable(ok, r.Status == client.StatusEnded, "Conversation #%d is already ended. Nothing was sent.", r.ID); stop {
		return cmd
	}
	ch := statusChange(r, client.StatusEnded, "end", fmt.Sprintf("Ended conversation #%d.", r.ID))
	return m.ask("End conversation?", fmt.Sprintf("End %s? Its slot is freed; %s reopens it.",
		convName(r), m.ctx.Keys.Reopen.Help().Key), ch)
}

// reopen sets an ended conversation back to writes.ReopenStatus.
func (m *Model) reopen() tea.Cmd {
	r, ok := m.target()
	if cmd, stop := common.Unusable(ok, r.Status != client.StatusEnded, "Conversation #%d is not ended (%s). Nothing was sent.", r.ID, r.Status); stop {
		return cmd
	}
	return m.send(statusChange(r, writes.ReopenStatus, "reopen", fmt.Sprintf("Reopened conversation #%d (%s).", r.ID, writes.ReopenStatus)))
}

// toggleRead marks the target read when the row shows it unread, and unread otherwise.
func (m *Model) toggleRead() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	return m.send(readChange(r.ID, r.Unread))
}

// readChange marks conversation id read (or unread).
func readChange(id int64, read bool) stateChange {
	word := "read"
	if !read {
		word = "unread"
	}
	return stateChange{Change: writes.ReadChange(id, read),
		done:   fmt.Sprintf("Marked conversation #%d %s.", id, word),
		failed: fmt.Sprintf("Could not mark conversation #%d %s", id, word)}
}

// opened is called when conversation id was opened to be read (enter, a jump to it, the
// next or previous conversation from the thread): its arrival is seen, and an unread one
// is marked read (markRead).
func (m *Model) opened(id int64) tea.Cmd {
	m.List.Opened(id)
	m.readOnLoad = 0
	if !m.ctx.MarkReadOnOpen || !m.ctx.Keys.Allows("toggle_read", keymap.InThread) {
		return nil // off, or the session may not write (read-only, a viewer)
	}
	r, ok := m.List.Row(id)
	if !ok || r.Status == "" {
		if c, held := m.Detail.Conversation(); held && c.ID == id {
			r, ok = listing.RowFrom(c), true
		}
	}
	if !ok || r.Status == "" {
		m.readOnLoad = id // whether it is unread comes with its detail
		return nil
	}
	return m.markRead(r)
}

// markRead sends the one PATCH that marks r read, when r shows it unread and no change of
// its read mark is on its way. It says nothing when it worked: the dot goes.
func (m *Model) markRead(r listing.Row) tea.Cmd {
	if !r.Unread {
		return nil
	}
	for _, ch := range m.changes {
		if ch.ID == r.ID && ch.Update.MarkedReadOperator != nil {
			return nil
		}
	}
	ch := readChange(r.ID, true)
	ch.done = "" // no toast: the dot going says it
	return m.send(ch)
}

// ask confirms ch before sending it.
func (m *Model) ask(title, body string, ch stateChange) tea.Cmd {
	return m.ctx.OpenModal(confirm.New(m.ctx, title, body, func() tea.Msg { return sendChangeMsg{ch} }))
}

// sendChangeMsg is a confirmed change: the screen sends it with the client of that moment.
type sendChangeMsg struct{ ch stateChange }

// send starts ch's PATCH. A lost answer is settled by reading the conversation again.
func (m *Model) send(ch stateChange) tea.Cmd {
	task, cmd := m.ctx.Start(common.Write{Owner: m.loads.Owner(), Kind: common.KindConversationUpdate, Subject: ch.ID,
		Do: func(ctx context.Context, c *client.Client) (any, error) { return ch.Send(ctx, c) },
		Check: func(ctx context.Context, c *client.Client, cause error) (any, error) {
			return ch.Check(ctx, c, cause)
		}})
	m.changes[task] = ch
	return cmd
}

// onChangeDone takes the end of one of the screen's own changes: the answer of the server,
// when there is one, goes into the row and the detail (also when it does not show the
// change: it is what the server has), and a toast says what happened.
func (m *Model) onChangeDone(msg common.TaskDoneMsg) tea.Cmd {
	ch, ok := m.changes[msg.TaskID]
	if !ok {
		return nil
	}
	delete(m.changes, msg.TaskID)
	if conv, ok := msg.Result.(*client.Conversation); ok && conv != nil && msg.Err != nil {
		m.List.UpdateRow(listing.RowFrom(*conv)) // a success updates them in onTask
		m.Detail.Set(*conv)
	}
	if msg.Err == nil {
		return common.DoneToast(msg, ch.done)
	}
	return common.FailToast(ch.failed + ": " + ch.ErrorText(msg.Err))
}

// capital is s with its first letter upper-case.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
