package triage

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/confirm"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/forms"
	"github.com/parley-tui/parley/views/notes"
)

// Task kinds of this screen (common.TaskDoneMsg.Kind).
const (
	KindConversation = "conversation"          // a PATCH; Result is *client.Conversation
	KindDeleted      = "conversations-deleted" // Result is deleteResult
)

const taskTimeout = 90 * time.Second

// deleteResult says what a delete asked for and what the server could delete.
type deleteResult struct {
	deleted []int64 // ids gone
	ongoing []int64 // ids kept: ongoing conversations are never deleted
	reload  bool    // ask for what changed since, to show what the server now has
}

// target is the conversation an action applies to: the open one when the thread or detail
// pane has focus, else the row under the cursor.
func (m *Model) target() (conversations.Row, bool) {
	if m.focus != PaneList && m.restingID != 0 {
		if conv, ok := m.Detail.Conversation(); ok && conv.ID == m.restingID {
			return conversations.RowFrom(conv), true
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
	seen := map[string]bool{} // topicKey of the texts offered
	var offered []conversations.Topic
	add := func(name, text string) {
		k := topicKey(text)
		if k == "" || seen[k] {
			return
		}
		seen[k] = true
		if strings.TrimSpace(name) == "" {
			name = "(a topic without visible text)"
		}
		offered = append(offered, conversations.Topic{Name: strings.TrimSpace(name), Text: text})
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
	slices.SortStableFunc(offered, func(a, b conversations.Topic) int {
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
	// What the last submit sent, and as whom: a lost answer is checked against it.
	var sent []string
	var sentBy *client.Client
	title := fmt.Sprintf("Topics of conversation #%d", r.ID)
	if r.Name != "" {
		title += " with " + r.Name
	}
	return ctx.OpenModal(forms.New(ctx, forms.Options{
		Title: title,
		Width: 64,
		Build: func() *huh.Form {
			fields := []huh.Field{}
			if len(opts) > 0 {
				fields = append(fields, huh.NewMultiSelect[string]().Title("Topics").
					Description("space/x toggles · tab: new topics · ctrl+s saves").
					Options(opts...).Value(&selected).Height(min(13, len(opts)+2)))
			}
			fields = append(fields, huh.NewInput().Title("New topics").Description("comma-separated; created as needed").
				Value(&extra).Validate(func(s string) error {
				for _, t := range strings.Split(s, ",") {
					if len([]rune(strings.TrimSpace(t))) > 100 {
						return fmt.Errorf("a topic is at most 100 characters")
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
		Verify: func(taskID int, cause error) tea.Cmd {
			c, want := sentBy, slices.Clone(sent)
			return func() tea.Msg { return checkTopics(c, taskID, id, want, cause) }
		},
		Submit: func() (int, tea.Cmd, error) {
			topics := mergeTopics(selected, extra)
			task := ctx.NewTaskID()
			c := ctx.Client // as the operator acting now (ctrl+p works over the form)
			sent, sentBy = slices.Clone(topics), c
			return task, func() tea.Msg {
				cctx, cancel := context.WithTimeout(context.Background(), taskTimeout)
				defer cancel()
				conv, err := c.SetConversationTopics(cctx, id, topics)
				return common.TaskDoneMsg{TaskID: task, Kind: KindConversation, Result: conv, Err: err}
			}, nil
		},
	}))
}

// checkTopics reads the conversation again (fresh) after a topics PATCH whose answer was
// lost, and reports it saved when its topics are the ones sent (as the API matches them,
// in any order), with the conversation read as the Result (see forms.Options.Verify).
func checkTopics(c *client.Client, taskID int, id int64, sent []string, cause error) tea.Msg {
	msg := common.TaskDoneMsg{TaskID: taskID, Kind: KindConversation, Lost: cause}
	ctx, cancel := common.RequestContext(taskTimeout, true)
	defer cancel()
	conv, err := c.GetConversation(ctx, id)
	switch {
	case err != nil:
		msg.Err = &common.UncheckedError{Cause: cause, Check: fmt.Errorf("read conversation %d: %w", id, err),
			What: "whether the topics were saved"}
	case sameTopics(conv.Topics, sent):
		msg.Result = conv
	default:
		msg.Err = &common.NotDoneError{Cause: cause, Done: "saved",
			Found: "the conversation's topics on the server are not the ones sent"}
	}
	return msg
}

// sameTopics reports whether have are the topics sent, as the API matches topics.
func sameTopics(have []client.Topic, sent []string) bool {
	a := map[string]bool{}
	for _, t := range have {
		if k := topicKey(t.Text); k != "" {
			a[k] = true
		}
	}
	b := map[string]bool{}
	for _, t := range sent {
		if k := topicKey(t); k != "" {
			b[k] = true
		}
	}
	return maps.Equal(a, b)
}

// topicKey is how the API matches topics: case-insensitively on the trimmed text.
func topicKey(text string) string { return strings.ToLower(strings.TrimSpace(text)) }

// mergeTopics joins the picked topics (sent as they are: the API's own texts) and the typed
// ones (trimmed), without duplicates (compared as the API matches them, first spelling
// kept).
func mergeTopics(picked []string, typed string) []string {
	seen := map[string]bool{}
	out := []string{}
	keep := func(t string) {
		if k := topicKey(t); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	for _, t := range picked {
		keep(t)
	}
	for _, t := range strings.Split(typed, ",") {
		keep(strings.TrimSpace(t))
	}
	return out
}

// deleteConfirm asks before deleting: the marked rows (by delete_ids, stating the count),
// or the row under the cursor (naming it). Nothing is ever deleted by a filter. The spec
// keeps ongoing conversations from list DELETEs only: the row under the cursor is sent
// whatever its status, an ongoing one after a warning that enter does not confirm, and the
// server's answer is shown (docs/api-notes.md).
func (m *Model) deleteConfirm() tea.Cmd {
	marked := m.List.Marked()
	c, ctx := m.ctx.Client, m.ctx
	if len(marked) == 0 {
		r, ok := m.List.Selected()
		if !ok {
			return nil
		}
		who := r.Name
		if who == "" {
			who = "(no name)"
		}
		task := ctx.NewTaskID()
		id := r.ID
		run := func() tea.Msg {
			cctx, cancel := context.WithTimeout(context.Background(), taskTimeout)
			defer cancel()
			msg := common.TaskDoneMsg{TaskID: task, Kind: KindDeleted, Result: deleteResult{deleted: []int64{id}}}
			msg.Err = c.DeleteConversation(cctx, id)
			if common.OutcomeUnknown(msg.Err) {
				gone, err := checkDeleted(c, msg.Err, []int64{id})
				msg.Lost, msg.Err = msg.Err, err
				msg.Result = deleteResult{deleted: gone}
			}
			return msg
		}
		if r.Status != client.StatusEnded {
			status := r.Status
			if status == "" {
				status = "no status"
			}
			return m.ctx.OpenModal(confirm.NewStrict(ctx, "Delete ongoing conversation?",
				fmt.Sprintf("Conversation #%d with %s is ongoing (%s). The API may refuse or end it; delete anyway? This cannot be undone.", r.ID, who, status),
				run))
		}
		return m.ctx.OpenModal(confirm.New(ctx, "Delete conversation?",
			fmt.Sprintf("Delete conversation #%d with %s? This cannot be undone.", r.ID, who), run))
	}
	var ids, ended, ongoing []int64
	for _, r := range marked {
		ids = append(ids, r.ID)
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
	title := fmt.Sprintf("Delete %s?", countOf(len(ids), "1 conversation", "%d conversations"))
	body := fmt.Sprintf("Delete %s? This cannot be undone.", countOf(len(ids), "the marked conversation", "the %d marked conversations"))
	if n := len(ongoing); n > 0 {
		title = fmt.Sprintf("Delete %d of %d marked conversations?", len(ended), len(ids))
		body = fmt.Sprintf("%s deleted.\n%s (only ended ones can be deleted).\nThis cannot be undone.",
			countOf(len(ended), "1 ended conversation will be", "%d ended conversations will be"),
			countOf(n, "1 is ongoing and stays", "%d are ongoing and stay"))
	}
	task := ctx.NewTaskID()
	return m.ctx.OpenModal(confirm.New(ctx, title, body, func() tea.Msg {
		cctx, cancel := context.WithTimeout(context.Background(), taskTimeout)
		defer cancel()
		// Exactly the marked ids (the statuses shown may be stale; the server decides and
		// skips ongoing ones). Its answer does not say which were skipped, so the report
		// uses the statuses shown, and the conversations changed since the last refresh
		// are asked for after (a row whose status changed meanwhile comes back).
		msg := common.TaskDoneMsg{TaskID: task, Kind: KindDeleted, Result: deleteResult{deleted: ended, ongoing: ongoing, reload: true}}
		msg.Err = c.DeleteConversations(cctx, ids)
		if common.OutcomeUnknown(msg.Err) {
			// The ended ones tell whether it was carried out (the ongoing ones stay anyway).
			gone, err := checkDeleted(c, msg.Err, ended)
			msg.Lost, msg.Err = msg.Err, err
			msg.Result = deleteResult{deleted: gone, ongoing: ongoing, reload: true}
		}
		return msg
	}))
}

// checkDeleted reads each of ids again (fresh) after a DELETE whose answer was lost: a 404
// means deleted. The delete was carried out when any of them is gone (gone lists those);
// when all are still there it was not (a *common.NotDoneError), and a failed read leaves
// it unknown (a *common.UncheckedError, with the ones found gone so far).
func checkDeleted(c *client.Client, cause error, ids []int64) (gone []int64, err error) {
	ctx, cancel := common.RequestContext(taskTimeout, true)
	defer cancel()
	what := countOf(len(ids), fmt.Sprintf("conversation #%d", ids[0]), "the %d conversations")
	for _, id := range ids {
		_, err := c.GetConversation(ctx, id)
		switch {
		case client.IsNotFound(err):
			gone = append(gone, id)
		case err != nil:
			return gone, &common.UncheckedError{Cause: cause, Check: fmt.Errorf("read conversation %d: %w", id, err),
				What: "whether " + what + countOf(len(ids), " was", " were") + " deleted", Advice: "refresh to see what is left"}
		}
	}
	if len(gone) == 0 {
		return nil, &common.NotDoneError{Cause: cause, Done: "deleted",
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

// onTask updates rows after this screen's mutations.
func (m *Model) onTask(msg common.TaskDoneMsg) tea.Cmd {
	if msg.Err != nil {
		if msg.Kind == KindDeleted {
			return common.ErrorToast(msg.Err)
		}
		return nil // forms show their own errors
	}
	switch msg.Kind {
	case KindConversation:
		if res, ok := msg.Result.(*client.Conversation); ok && res != nil {
			row := conversations.RowFrom(*res)
			m.List.UpdateRow(row) // topics just created are known from now on
			m.Detail.Set(*res)
		}
	case KindDeleted:
		res, ok := msg.Result.(deleteResult)
		if !ok {
			return nil
		}
		m.List.RemoveRows(res.deleted)
		m.List.ClearMarks()
		var follow tea.Cmd
		if slices.Contains(res.deleted, m.Msgs.ConversationID()) {
			m.Msgs.Close()
			_ = m.Detail.Load(0, false)
			m.restingID = 0
			follow = m.afterMove(0) // the row the cursor is on now opens once it rests
		}
		text := fmt.Sprintf("Deleted %d conversation%s%s.", len(res.deleted), plural(len(res.deleted)), common.Confirmed(msg.Lost))
		if n := len(res.ongoing); n > 0 {
			text += fmt.Sprintf(" %d ongoing conversation%s not deleted (only ended ones can be).", n, plural(n))
		}
		var reload tea.Cmd
		if res.reload {
			// Not the first page again: the cursor keeps its place, however deep.
			reload = m.List.RefreshChanged()
		}
		return tea.Batch(common.Toast(text), reload, follow)
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// noteForm writes a note about the target conversation's contact.
func (m *Model) noteForm() tea.Cmd {
	r, ok := m.target()
	if !ok || r.ContactID == 0 {
		return nil
	}
	return m.ctx.OpenModal(notes.NewNoteForm(m.ctx, r.ContactID, r.Name))
}

// copyID copies the target's id to the clipboard with OSC 52 (through tmux when inside it).
func (m *Model) copyID() tea.Cmd {
	r, ok := m.target()
	if !ok {
		return nil
	}
	text := fmt.Sprint(r.ID)
	return common.CopyToClipboard(text, sanitize.Line(text))
}
