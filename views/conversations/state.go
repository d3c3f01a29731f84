package conversations

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/confirm"
	"github.com/parley-tui/parley/views/conversations/listing"
	"github.com/parley-tui/parley/views/operatorpick"
)

// The conversation actions: take (T), assign (A), unassign (U), end (E), reopen (O) and
// mark read/unread (u). Each one is one PATCH of the target conversation; the row and the
// detail change from the server's answer only, and an answer that does not show the change
// is reported as such (the row then shows what the server says).

// ReopenStatus is the status a reopened conversation is sent with: an ended conversation
// was answered before, so it waits for a reply ("pending") rather than being "new" (not yet
// answered; docs/api-notes.md).
const ReopenStatus = client.StatusPending

// stateChange is one action on one conversation.
type stateChange struct {
	id     int64
	update client.ConversationUpdate
	// fields names what is sent, for a refusal: `status "ended"`.
	fields string
	// done is the toast of a success ("Conversation #12 ended."); failed starts the toast
	// of a failure ("Could not end conversation #12").
	done, failed string
	// shows is "" when the answer (or a read after a lost answer) shows the change, else
	// what it shows instead ("it is still pending").
	shows func(c *client.Conversation) string
}

// NotShownError is a 2xx answer to a conversation PATCH that does not show the change sent:
// the server took the request but did not make the change (or says it did not).
type NotShownError struct {
	ID     int64
	Fields string // what was sent
	Shows  string // what the answer shows instead
}

func (e *NotShownError) Error() string {
	return fmt.Sprintf("the API answered success but conversation #%d does not show %s: %s", e.ID, e.Fields, e.Shows)
}

// me is the operator "take" assigns to: the acting operator, else the token's default one
// (0 when neither is known yet).
func (m *Model) me() int64 {
	if id := m.ctx.Client.OperatorID(); id != 0 {
		return id
	}
	return m.ctx.DefaultOperatorID
}

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
	u := client.ConversationUpdate{}
	fields := "operator_assigned_to null"
	if op == 0 {
		u.Unassign = true
	} else {
		u.OperatorAssignedTo = &op
		fields = fmt.Sprintf("operator_assigned_to %d", op)
	}
	return stateChange{id: r.ID, update: u, fields: fields,
		done:   done,
		failed: fmt.Sprintf("Could not %s conversation #%d", verb, r.ID),
		shows: func(c *client.Conversation) string {
			have := int64(0)
			if c.OperatorAssignedTo != nil {
				have = *c.OperatorAssignedTo
			}
			if have == op {
				return ""
			}
			if have == 0 {
				return "it is unassigned"
			}
			return "it is assigned to " + m.opName(have)
		}}
}

// statusChange sets r's status to status.
func statusChange(r listing.Row, status, verb, done string) stateChange {
	return stateChange{id: r.ID, update: client.ConversationUpdate{Status: &status},
		fields: fmt.Sprintf("status %q", status),
		done:   done,
		failed: fmt.Sprintf("Could not %s conversation #%d", verb, r.ID),
		shows: func(c *client.Conversation) string {
			if c.Status == status {
				return ""
			}
			return "its status is " + strings.TrimSpace(sanitize.Line(c.Status))
		}}
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
	if !ok {
		return nil
	}
	if r.OperatorID == 0 {
		return common.Toast(fmt.Sprintf("Conversation #%d is not assigned. Nothing was sent.", r.ID))
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
		return common.FailToast(fmt.Sprintf("Could not list the operators to assign conversation #%d to: %s", msg.row.ID, common.ErrorText(msg.err)))
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
	if !ok {
		return nil
	}
	if r.Status == client.StatusEnded {
		return common.Toast(fmt.Sprintf("Conversation #%d is already ended. Nothing was sent.", r.ID))
	}
	ch := statusChange(r, client.StatusEnded, "end", fmt.Sprintf("Ended conversation #%d.", r.ID))
	return m.ask("End conversation?", fmt.Sprintf("End %s? Its slot is freed; %s reopens it.",
		convName(r), m.ctx.Keys.Reopen.Help().Key), ch)
}

// reopen sets an ended conversation back to ReopenStatus.
func (m *Model) reopen() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	if r.Status != client.StatusEnded {
		return common.Toast(fmt.Sprintf("Conversation #%d is not ended (%s). Nothing was sent.", r.ID, r.Status))
	}
	return m.send(statusChange(r, ReopenStatus, "reopen", fmt.Sprintf("Reopened conversation #%d (%s).", r.ID, ReopenStatus)))
}

// toggleRead marks the target read when the row shows it unread, and unread otherwise.
func (m *Model) toggleRead() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	read := r.Unread
	word := "read"
	if !read {
		word = "unread"
	}
	return m.send(stateChange{id: r.ID, update: client.ConversationUpdate{MarkedReadOperator: &read},
		fields: fmt.Sprintf("marked_read_operator %t", read),
		done:   fmt.Sprintf("Marked conversation #%d %s.", r.ID, word),
		failed: fmt.Sprintf("Could not mark conversation #%d %s", r.ID, word),
		shows: func(c *client.Conversation) string {
			if c.MarkedReadOperator == read {
				return ""
			}
			if c.MarkedReadOperator {
				return "it is still read"
			}
			return "it is still unread"
		}})
}

// ask confirms ch before sending it.
func (m *Model) ask(title, body string, ch stateChange) tea.Cmd {
	return m.ctx.OpenModal(confirm.New(m.ctx, title, body, func() tea.Msg { return sendChangeMsg{ch} }))
}

// sendChangeMsg is a confirmed change: the screen sends it with the client of that moment.
type sendChangeMsg struct{ ch stateChange }

// send starts ch's PATCH. A lost answer is settled by reading the conversation again.
func (m *Model) send(ch stateChange) tea.Cmd {
	id := ch.id
	task, cmd := m.ctx.Start(common.Write{Owner: m.loads.Owner(), Kind: common.KindConversationUpdate, Subject: id,
		Do: func(ctx context.Context, c *client.Client) (any, error) {
			conv, err := c.UpdateConversation(ctx, id, ch.update)
			if err != nil {
				return nil, err
			}
			if why := ch.shows(conv); why != "" {
				return conv, &NotShownError{ID: id, Fields: ch.fields, Shows: why}
			}
			return conv, nil
		},
		Check: func(ctx context.Context, c *client.Client, cause error) (any, error) {
			conv, err := c.GetConversation(ctx, id)
			if err != nil {
				err = fmt.Errorf("read conversation %d: %w", id, err)
			}
			found := ""
			if err == nil {
				found = ch.shows(conv)
			}
			if err := common.CheckSaved(cause, err, err == nil && found == "", fmt.Sprintf("whether conversation #%d changed", id),
				fmt.Sprintf("conversation #%d does not show %s: %s", id, ch.fields, found)); err != nil {
				return nil, err
			}
			return conv, nil
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
	return common.FailToast(changeErrorText(ch, msg.Err))
}

// changeErrorText says why ch failed: a refusal names the fields sent, whatever the
// server's words.
func changeErrorText(ch stateChange, err error) string {
	var notShown *NotShownError
	switch {
	case client.IsValidation(err):
		detail := sanitize.Line(client.Detail(err))
		return fmt.Sprintf("%s: the API refused %s: %s", ch.failed, ch.fields, strings.TrimSuffix(detail, "."))
	case errors.As(err, &notShown):
		return fmt.Sprintf("%s: %s.", ch.failed, sanitize.Line(notShown.Error()))
	}
	return ch.failed + ": " + common.ErrorText(err)
}

// capital is s with its first letter upper-case.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
