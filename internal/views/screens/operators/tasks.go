package operators

// The screen's writes: the away toggle (asking first for another operator), the delete, and
// the ends of its tasks (edit, delete, away) with the checks of a lost answer.

import (
	"context"
	"errors"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/confirm"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/writes"
)

// awayMsg starts the away task once the user confirmed (or right away for oneself).
type awayMsg struct {
	id   int64
	away bool
}

// askAway toggles the selected operator's away status: at once for oneself, after a
// confirmation naming the operator otherwise; a session fixed to one operator (a hub
// agent) is told at once that it sets only its own.
func (m *Model) askAway() tea.Cmd {
	r, refuse, ok := m.idleSelected()
	if !ok {
		return refuse
	}
	if only := m.ctx.OnlyOperator; only != 0 && r.ID != only {
		return common.Toast(fmt.Sprintf("%s (%s) is off for %s: an agent sets only their own away status",
			m.ctx.Keys.Away.Help().Key, m.ctx.Keys.Away.Help().Desc, r.Label()))
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
// read when its status is the one asked for (see common.TaskDoneMsg.Lost). The "checking…"
// toast is sent before the check starts (a sequence, not a batch): a check that answers
// at once would otherwise have its verdict shown first and then covered by "checking…".
func (m *Model) checkAway(id int64, away bool, cause error, label string) tea.Cmd {
	m.l.SetBusy(id, "checking")
	_, check := m.ctx.Start(common.Write{Owner: m.loads.Owner(), Kind: KindAway, Subject: id, Lost: cause,
		Do: func(ctx context.Context, c *client.Client) (any, error) {
			op, err := writes.CheckAway(ctx, c, id, away, cause, label)
			if err != nil {
				return awayAsked(away), err
			}
			return RowFrom(*op), nil
		}})
	return tea.Sequence(common.Toast(label+": may have been set "+writes.AwayWord(away)+"; checking…"), check)
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
			return common.Toast("Saved operator " + r.Label() + writes.Confirmed(msg.Lost))
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
	if asked, ok := msg.Result.(awayAsked); ok && msg.Lost == nil && writes.OutcomeUnknown(msg.Err) {
		return m.checkAway(id, bool(asked), msg.Err, label)
	}
	m.l.SetBusy(id, "")
	var unchecked *writes.UncheckedError
	if errors.As(msg.Err, &unchecked) {
		// The change may or may not have been made: the row no longer states the status it
		// had as a fact, it shows it unknown until a refresh reads it.
		if r, ok := m.row(id); ok {
			r.IsAway = client.Opt[bool]{}
			m.updateRow(r)
		}
		return common.ErrorToast(msg.Err)
	}
	var notDone *writes.NotDoneError
	if errors.As(msg.Err, &notDone) {
		text := writes.ErrorText(msg.Err) + " " + m.ctx.Keys.Away.Help().Key + " tries again."
		return common.FailToast(text)
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
