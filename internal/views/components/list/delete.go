package list

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/confirm"
	"github.com/parley-tui/parley/internal/writes"
)

// Delete is the standard "delete these rows" task of a list: a confirmation that states
// exactly what goes (the count of marked rows, or the one row named), then one task that
// sends the delete and, when its answer was lost, reads the rows again to tell what went.
// Meanwhile the rows show as being deleted; then the rows that went leave the list, the
// marks go (after a success) and a toast says what happened.
type Delete struct {
	// Kind is the task's kind (common.KindContactDelete, …); IDs the rows asked for:
	// exactly the marked ones, or one.
	Kind string
	IDs  []int64
	// Title and Body are the question.
	Title, Body string
	// What names the delete in its error ("delete contact 12").
	What string
	// Do sends the delete (with the client of when it started) and reports what went. When
	// the answer is lost it reads the rows again: the ones found gone are deleted (Lost
	// set to the delete's error), none gone is a *writes.NotDoneError, a failed read a
	// *writes.UncheckedError (see common/outcome.go).
	Do func(ctx context.Context, c *client.Client) (Deleted, error)
	// Done words a delete that went through; confirmed is " (confirmed after …)" when its
	// answer was lost, else "".
	Done func(d Deleted, confirmed string) string
}

// Deleted is what a delete task did: its TaskDoneMsg's Result, also when it failed
// part-way.
type Deleted struct {
	Asked []int64 // the rows asked for
	IDs   []int64 // the rows that went
	Kept  []int64 // the rows the server kept
	// Lost is the error of a delete whose answer was lost and whose rows were found gone.
	Lost error
	// Text is the toast of a success (Delete.Done).
	Text string
}

// LostAnswer is the error of a delete whose answer was lost (TaskDoneMsg.Lost).
func (d Deleted) LostAnswer() error { return d.Lost }

// deleteMsg is the answer yes to a Delete's question.
type deleteMsg struct {
	owner int
	d     Delete
}

// ConfirmDelete asks d's question; yes starts the delete.
func (m *Model[R]) ConfirmDelete(d Delete) tea.Cmd {
	yes := deleteMsg{owner: m.owner, d: d}
	return m.ctx.OpenModal(confirm.New(m.ctx, d.Title, d.Body, func() tea.Msg { return yes }))
}

// startDelete starts d's task, the rows marked as being deleted meanwhile.
func (m *Model[R]) startDelete(d Delete) tea.Cmd {
	ids := d.IDs
	var subject int64
	if len(ids) == 1 {
		subject = ids[0]
	}
	for _, id := range ids {
		m.SetBusy(id, "deleting")
	}
	_, cmd := m.ctx.Start(common.Write{Owner: m.owner, Kind: d.Kind, Subject: subject, What: d.What,
		Do: func(ctx context.Context, c *client.Client) (any, error) {
			res, err := d.Do(ctx, c)
			res.Asked = ids
			if err == nil && d.Done != nil {
				res.Text = d.Done(res, writes.Confirmed(res.Lost))
			}
			return res, err
		}})
	return cmd
}

// onDeleted takes the end of one of the list's delete tasks.
func (m *Model[R]) onDeleted(msg common.TaskDoneMsg) tea.Cmd {
	res, ok := msg.Result.(Deleted)
	if !ok {
		return nil
	}
	for _, id := range res.Asked {
		m.SetBusy(id, "")
	}
	m.RemoveRows(res.IDs)
	if msg.Err != nil {
		return common.ErrorToast(msg.Err)
	}
	m.ClearMarks() // the kept ones too: the delete is done
	return common.Toast(res.Text)
}

// SetBusy says what is being done to row id ("deleting", "saving"; "" when nothing): the
// source shows it (Cell.Busy).
func (m *Model[R]) SetBusy(id int64, what string) {
	if what == "" {
		delete(m.busy, id)
	} else {
		m.busy[id] = what
	}
	delete(m.cache, id)
}

// Busy is what is being done to row id ("" when nothing).
func (m *Model[R]) Busy(id int64) string { return m.busy[id] }

// AnyBusy reports whether something is being done to any row.
func (m *Model[R]) AnyBusy() bool { return len(m.busy) > 0 }

// ClearBusy forgets what was being done to every row (the answers belong to an earlier
// context).
func (m *Model[R]) ClearBusy() {
	for id := range m.busy {
		delete(m.cache, id)
	}
	clear(m.busy)
}

// DeleteOne is a Delete.Do for one row, id, named what ("contact #12"): del sends its
// DELETE; when the answer is lost, read reads it again and a 404 means it went (see
// writes.CheckGone).
func DeleteOne(id int64, what string, del, read func(ctx context.Context, c *client.Client) error) func(context.Context, *client.Client) (Deleted, error) {
	return func(ctx context.Context, c *client.Client) (Deleted, error) {
		err := del(ctx, c)
		switch {
		case writes.OutcomeUnknown(err):
			lost := err
			rctx, cancel := common.RequestContext(common.TaskTimeout, true)
			defer cancel()
			if err := writes.CheckGone(rctx, lost, what, func(ctx context.Context) error { return read(ctx, c) }); err != nil {
				return Deleted{Lost: lost}, err
			}
			return Deleted{IDs: []int64{id}, Lost: lost}, nil
		case err != nil:
			return Deleted{}, err
		}
		return Deleted{IDs: []int64{id}}, nil
	}
}
