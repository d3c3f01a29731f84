package conversations

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/clipboard"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/components/notes"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

// target is the conversation an action applies to: the open one when the thread or detail
// pane has focus, else the row under the cursor.
func (m *Model) target() (listing.Row, bool) {
	if m.focus != PaneList && m.restingID != 0 {
		if conv, ok := m.Detail.Conversation(); ok && conv.ID == m.restingID {
			return listing.RowFrom(conv), true
		}
		if r, ok := m.List.Row(m.restingID); ok {
			return r, true
		}
	}
	return m.List.Selected()
}

// topicsForm edits the target's topics: pick from the organization's known topics (those
// seen on any conversation loaded in this context) and add new ones as free text. The
// options show the topics sanitized, but their values are the topics as the API spells
// them: the PATCH replaces the whole list, and a topic the user kept is sent back as it is
// (its display text would be another topic, created in its place).
func (m *Model) topicsForm() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	seen := map[string]bool{} // writes.TopicKey of the texts offered
	var offered []listing.Topic
	add := func(name, text string) {
		k := writes.TopicKey(text)
		if k == "" || seen[k] {
			return
		}
		seen[k] = true
		if strings.TrimSpace(name) == "" {
			name = "(a topic without visible text)"
		}
		offered = append(offered, listing.Topic{Name: strings.TrimSpace(name), Text: text})
	}
	for i, text := range r.TopicTexts {
		name := ""
		if i < len(r.Topics) {
			name = r.Topics[i]
		}
		add(name, text)
	}
	for _, t := range m.List.SeenTopics() {
		add(t.Name, t.Text)
	}
	slices.SortStableFunc(offered, func(a, b listing.Topic) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	selected := slices.Clone(r.TopicTexts)
	initial := slices.Sorted(slices.Values(r.TopicTexts))
	var extra string
	opts := make([]huh.Option[string], len(offered))
	for i, t := range offered {
		opts[i] = huh.NewOption(t.Name, t.Text)
	}
	ctx, id := m.ctx, r.ID
	save := &forms.Checked[[]string]{Kind: common.KindConversationUpdate, Subject: id,
		Send: func(ctx context.Context, c *client.Client, topics []string) (any, error) {
			return c.SetConversationTopics(ctx, id, topics)
		},
		Check: func(ctx context.Context, c *client.Client, topics []string, cause error) (any, error) {
			return writes.CheckTopics(ctx, c, id, topics, cause)
		}}
	title := fmt.Sprintf("Topics of conversation #%d", r.ID)
	if r.Name != "" {
		title += " with " + r.Name
	}
	return ctx.OpenModal(forms.New(ctx, forms.Options{
		Title: title,
		Width: 64,
		Does:  "save",
		Build: func() *huh.Form {
			fields := []huh.Field{}
			if len(opts) > 0 {
				fields = append(fields, huh.NewMultiSelect[string]().Title("Topics").
					Description(ctx.Keys.Mark.Help().Key+" toggles · tab: new topics · "+ctx.Keys.Submit.Help().Key+" saves").
					Options(opts...).Value(&selected).Height(min(13, len(opts)+2)))
			}
			fields = append(fields, huh.NewInput().Title("New topics").Description("comma-separated; created as needed").
				Value(&extra).Validate(func(s string) error {
				for _, t := range strings.Split(s, ",") {
					if err := writes.CheckTopic(t); err != nil {
						return err
					}
				}
				return nil
			}))
			return huh.NewForm(huh.NewGroup(fields...))
		},
		// esc asks before discarding a toggle or typed topics.
		Dirty: func() bool {
			return strings.TrimSpace(extra) != "" || !slices.Equal(slices.Sorted(slices.Values(selected)), initial)
		},
		Success: "Topics saved",
		Verify:  save.Verify(ctx),
		Submit: func() (int, tea.Cmd, error) {
			task, cmd := save.Start(ctx, mergeTopics(selected, extra))
			return task, cmd, nil
		},
	}))
}

// mergeTopics joins the picked topics (sent as they are: the API's own texts) and the typed
// ones (trimmed), without duplicates (writes.MergeTopics).
func mergeTopics(picked []string, typed string) []string {
	all := slices.Clone(picked)
	for _, t := range strings.Split(typed, ",") {
		all = append(all, strings.TrimSpace(t))
	}
	return writes.MergeTopics(all)
}

// deleteConfirm asks before deleting: the marked rows (by delete_ids, stating the count),
// or the row under the cursor (naming it). Nothing is ever deleted by a filter. The spec
// keeps ongoing conversations from list DELETEs, so marked ongoing ones are never sent
// (only the marked ended ids go in delete_ids); the row under the cursor is sent
// whatever its status, an ongoing one after a warning that enter does not confirm, and the
// server's answer is shown (docs/api-notes.md). The list's delete task does the rest.
func (m *Model) deleteConfirm() tea.Cmd {
	marked := m.List.Marked()
	if len(marked) == 0 {
		r, ok := m.List.Selected()
		if !ok {
			return nil
		}
		who := r.Name
		if who == "" {
			who = "(no name)"
		}
		id := r.ID
		d := list.Delete{Kind: common.KindConversationDelete, IDs: []int64{id},
			Title: "Delete conversation?",
			Body:  fmt.Sprintf("Delete conversation #%d with %s? This cannot be undone.", r.ID, who),
			Do: func(ctx context.Context, c *client.Client) (list.Deleted, error) {
				return deleted(c, c.DeleteConversation(ctx, id), []int64{id}, nil)
			},
			Done: deletedText,
		}
		if r.Status != client.StatusEnded {
			status := r.Status
			if status == "" {
				status = "no status"
			}
			d.Title = "Delete ongoing conversation?"
			d.Body = fmt.Sprintf("Conversation #%d with %s is ongoing (%s). The API may refuse or end it; delete anyway? This cannot be undone.", r.ID, who, status)
		}
		return m.List.ConfirmDelete(d)
	}
	var ended, ongoing []int64
	for _, r := range marked {
		if r.Status == client.StatusEnded {
			ended = append(ended, r.ID)
		} else {
			ongoing = append(ongoing, r.ID)
		}
	}
	if len(ended) == 0 {
		// Nothing the server would delete: say so instead of asking and sending.
		return common.Toast(fmt.Sprintf("%s ongoing: only ended conversations can be deleted. Nothing was sent.",
			countOf(len(ongoing), "The marked conversation is", "All %d marked conversations are")))
	}
	title := fmt.Sprintf("Delete %s?", countOf(len(ended), "1 conversation", "%d conversations"))
	body := fmt.Sprintf("Delete %s? This cannot be undone.", countOf(len(ended), "the marked conversation", "the %d marked conversations"))
	if n := len(ongoing); n > 0 {
		title = fmt.Sprintf("Delete %d of %d marked conversations?", len(ended), len(marked))
		body = fmt.Sprintf("%s deleted.\n%s (only ended ones can be deleted).\nThis cannot be undone.",
			countOf(len(ended), "1 ended conversation will be", "%d ended conversations will be"),
			countOf(n, "1 ongoing one is not sent and stays", "%d ongoing ones are not sent and stay"))
	}
	return m.List.ConfirmDelete(list.Delete{Kind: common.KindConversationDelete, IDs: ended, Title: title, Body: body,
		// Only the marked ids that may be deleted (ended, as shown): an ongoing one is never
		// sent, whatever the server would do with it. A row whose status changed since the
		// last refresh comes back with the conversations changed meanwhile, asked for after.
		// After a lost answer the ended ones tell whether it was carried out.
		Do: func(ctx context.Context, c *client.Client) (list.Deleted, error) {
			return deleted(c, c.DeleteConversations(ctx, ended), ended, ongoing)
		},
		Done: deletedText,
	})
}

// deleted is what a delete of gone (expected to go) and kept (expected to stay) did, given
// its error err: after a lost answer, what reading gone again tells.
func deleted(c *client.Client, err error, gone, kept []int64) (list.Deleted, error) {
	switch {
	case writes.OutcomeUnknown(err):
		found, cerr := checkDeleted(c, err, gone)
		return list.Deleted{IDs: found, Kept: kept, Lost: err}, cerr
	case err != nil:
		return list.Deleted{}, err
	}
	return list.Deleted{IDs: gone, Kept: kept}, nil
}

// deletedText says what a conversation delete did.
func deletedText(d list.Deleted, confirmed string) string {
	text := fmt.Sprintf("Deleted %d conversation%s%s.", len(d.IDs), layout.Plural(len(d.IDs), "", "s"), confirmed)
	if n := len(d.Kept); n > 0 {
		text += fmt.Sprintf(" %d ongoing conversation%s not sent (only ended ones can be deleted).", n, layout.Plural(n, "", "s"))
	}
	return text
}

// checkDeleted reads each of ids again (fresh) after a DELETE whose answer was lost: a 404
// means deleted. The delete was carried out when any of them is gone (gone lists those);
// when all are still there it was not (a *writes.NotDoneError), and a failed read leaves
// it unknown (a *writes.UncheckedError, with the ones found gone so far).
func checkDeleted(c *client.Client, cause error, ids []int64) (gone []int64, err error) {
	ctx, cancel := common.RequestContext(common.TaskTimeout, true)
	defer cancel()
	what := countOf(len(ids), fmt.Sprintf("conversation #%d", ids[0]), "the %d conversations")
	for _, id := range ids {
		_, err := c.GetConversation(ctx, id)
		switch {
		case client.IsNotFound(err):
			gone = append(gone, id)
		case err != nil:
			return gone, &writes.UncheckedError{Cause: cause, Check: fmt.Errorf("read conversation %d: %w", id, err),
				What: "whether " + what + countOf(len(ids), " was", " were") + " deleted", Advice: "refresh to see what is left"}
		}
	}
	if len(gone) == 0 {
		return nil, &writes.NotDoneError{Cause: cause, Done: "deleted",
			Found: what + countOf(len(ids), " is still there", " are still there")}
	}
	return gone, nil
}

// countOf picks the singular text for n == 1, else formats plural with n.
func countOf(n int, singular, plural string) string {
	if n == 1 {
		return singular
	}
	if strings.Contains(plural, "%d") {
		return fmt.Sprintf(plural, n)
	}
	return plural
}

// onTask updates rows after a write: a topics edit from anywhere, and the end of the list's
// delete tasks (the list removes the rows and says what happened): a deleted conversation
// that is open closes, and after a bulk delete the conversations changed since the last
// refresh are asked for.
func (m *Model) onTask(msg common.TaskDoneMsg) tea.Cmd {
	var cmd tea.Cmd
	m.List, cmd = m.List.Update(msg)
	if msg.Mine(m.loads.Owner()) {
		cmd = tea.Batch(cmd, m.onChangeDone(msg))
	}
	switch {
	case msg.Kind == common.KindConversationTranscript:
		return tea.Batch(cmd, transcriptDone(msg))
	case msg.Kind == common.KindConversationUpdate && msg.Err == nil:
		if res, ok := msg.Result.(*client.Conversation); ok && res != nil {
			row := listing.RowFrom(*res)
			m.List.UpdateRow(row) // topics just created are known from now on
			m.Detail.Set(*res)
		}
	case msg.Kind == common.KindConversationDelete && msg.Mine(m.List.Owner()):
		res, _ := msg.Result.(list.Deleted)
		var follow, reload tea.Cmd
		if slices.Contains(res.IDs, m.Msgs.ConversationID()) {
			m.Msgs.Close()
			_ = m.Detail.Load(0, false)
			m.restingID = 0
			follow = m.afterMove(0) // the row the cursor is on now opens once it rests
		}
		if len(res.Asked) > 1 {
			// Not the first page again: the cursor keeps its place, however deep.
			reload = m.List.RefreshChanged()
		}
		return tea.Batch(cmd, reload, follow)
	}
	return cmd
}

// noteForm writes a note about the target conversation's contact.
func (m *Model) noteForm() tea.Cmd {
	r, ok := m.target()
	if !ok || r.ContactID == 0 {
		return nil
	}
	return m.ctx.OpenModal(notes.NewNoteForm(m.ctx, r.ContactID, r.Name))
}

// copyID copies to the clipboard with OSC 52 (through tmux when inside it) the link the
// focused thread or detail marks (the lowest web link in view: an attachment, an add-on
// link), else the target's id.
func (m *Model) copyID() tea.Cmd {
	var l sanitize.Link
	ok := false
	what := ""
	switch m.focus {
	case PaneMessages:
		l, ok = m.Msgs.MarkedLink()
		what = "the link to " + l.Name
	case PaneDetail:
		var name string
		name, l, ok = m.Detail.MarkedLink()
		what = "the " + name + " link"
	}
	if ok {
		return clipboard.Copy(m.ctx, l.URL, what)
	}
	r, ok := m.target()
	if !ok {
		return nil
	}
	text := fmt.Sprint(r.ID)
	return clipboard.Copy(m.ctx, text, sanitize.Line(text))
}
