// Package contacts is the contacts screen: a list of contacts (server search in rank order,
// six orderings, seven filters, offset paging with `next` links followed verbatim and
// /contact_identities/all/ past the 10,000 cap in the default order), marks and deletes,
// and a detail pane with every contact field, the contact's conversations and its notes.
// The edit, create-or-update-by-identifier and note forms open from here.
//
// Quick lookup: 2, / and a few words, enter shows ranked contacts, and enter twice more
// opens the first one's newest conversation. The screen never opens a prompt by itself
// (a key pressed after 2 is never typed into a prompt the user did not open): / searches.
package contacts

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/clipboard"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/components/notes"
	"github.com/parley-tui/parley/internal/views/components/prompt"
	sv "github.com/parley-tui/parley/internal/views/components/savedviews"
	"github.com/parley-tui/parley/internal/writes"
)

// SideBySideWidth is the width from which the list and the detail are shown side by side;
// below it one pane is shown at a time (tab switches).
const SideBySideWidth = 100

// nameInQuestion is the most cells of a contact's name a delete question shows (the id
// beside it says which contact it is).
const nameInQuestion = 40

// deleteChunk is how many ids one bulk DELETE carries.
const deleteChunk = 100

// Pane names a pane of the screen.
type Pane int

// Panes in tab order.
const (
	PaneList Pane = iota
	PaneDetail
)

type editLoadedMsg struct {
	stamp   common.Stamp
	contact *client.Contact
	err     error
}

// Model is the contacts screen.
type Model struct {
	common.Base
	ctx        *common.Ctx
	List       List
	Detail     Detail
	focus      Pane
	showDetail bool
	width      int
	height     int
	started    bool
	// loads is the screen's own: its owner id reports the outcome of the note deletes it
	// starts, and it reads the contact for the edit form (the last one asked for wins).
	loads  common.Loader
	settle common.Settle // the cursor's rest in the list: the contact it rests on is previewed
	// views are the saved views: their row sits above the list when there are any.
	views sv.Views[client.ContactFilter]
}

// New returns the screen; the first page loads when the screen is first shown.
func New(ctx *common.Ctx) *Model {
	m := &Model{ctx: ctx, List: NewList(ctx), Detail: NewDetail(ctx), showDetail: true, loads: common.NewLoader(ctx),
		views: sv.New(ctx, common.ViewsContacts, client.Contacts), settle: common.NewSettle(ctx)}
	m.List.Focus()
	return m
}

// Focus is called when the screen becomes active: the first time it loads the first page.
// It opens no prompt: only the search key (/) does, so the keys pressed after the screen
// key (3, q) act as screen keys.
func (m *Model) Focus() tea.Cmd {
	if !m.started {
		m.started = true
		return m.List.Load(false)
	}
	return nil
}

func (m *Model) searchPrompt() tea.Cmd {
	return m.ctx.OpenModal(prompt.New(m.ctx, "Search contacts:", m.List.Query().Search,
		func(s string) tea.Msg { return SearchMsg{Text: s} }).Doing("search"))
}

// UsesBack reports whether esc has work of the screen's own (common.BackUser): the detail
// returns to the list; the list clears its marks, search or filters.
func (m *Model) UsesBack() bool { return m.focus == PaneDetail || m.List.CanClear() }

// Place names the open contact (common.Placer), for "esc: back to …" after a jump from its
// detail; "" (the screen) when none is open.
func (m *Model) Place() string {
	if c, ok := m.Detail.Contact(); ok && m.focus == PaneDetail {
		return RowFrom(c).Title()
	}
	return ""
}

// Focused is the focused pane.
func (m *Model) Focused() Pane { return m.focus }

func (m *Model) wide() bool { return m.width >= SideBySideWidth }

func (m *Model) visible() []Pane {
	if m.wide() && m.showDetail {
		return []Pane{PaneList, PaneDetail}
	}
	if m.wide() {
		return []Pane{PaneList}
	}
	return []Pane{m.focus}
}

// SetSize lays the panes out.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

func (m *Model) widths() map[Pane]int {
	vis := m.visible()
	if len(vis) == 1 {
		return map[Pane]int{vis[0]: m.width}
	}
	lw := listWidth(m.width)
	return map[Pane]int{PaneList: lw, PaneDetail: m.width - lw}
}

func (m *Model) layout() {
	h := max(0, m.height-2)
	for p, w := range m.widths() {
		switch p {
		case PaneList:
			m.List.SetSize(max(0, w-2), max(0, h-m.views.Lines()))
		case PaneDetail:
			m.Detail.SetSize(max(0, w-2), h)
		}
	}
}

func (m *Model) setFocus(p Pane) {
	m.focus = p
	m.List.Blur()
	m.Detail.Blur()
	if p == PaneList {
		m.List.Focus()
	} else {
		m.Detail.Focus()
	}
	if m.wide() && p == PaneDetail {
		m.showDetail = true
	}
	m.layout()
}

// open shows the selected contact in the detail pane and focuses it.
func (m *Model) open() tea.Cmd {
	r, ok := m.List.Selected()
	if !ok {
		return nil
	}
	cmd := m.Detail.Open(r.ID, false)
	m.setFocus(PaneDetail)
	return cmd
}

// Update routes messages to the panes and handles the screen's keys and task results.
func (m *Model) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	s, cmd := m.update(msg)
	m.views.Observe(m.List.Query(), m.List.SentCount)
	return s, cmd
}

func (m *Model) update(msg tea.Msg) (common.Screen, tea.Cmd) {
	if cmd, ok := common.Input(msg, m.onKey, m.onClick, m.onWheel); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case common.SettledMsg:
		if !m.settle.Settled(msg) || !m.previewing() {
			return m, nil // the cursor moved on, or the detail is no longer beside the list
		}
		if r, ok := m.List.Selected(); ok {
			return m, m.Detail.Open(r.ID, false)
		}
		return m, nil
	case common.ShowViewMsg:
		return m, m.views.Show(msg.Name, m.showQuery)
	case OpenContactMsg:
		m.List.Select(msg.ID)
		cmd := m.Detail.Open(msg.ID, false)
		m.setFocus(PaneDetail)
		return m, cmd
	case SearchMsg, FilterMsg:
		if !m.wide() && m.focus != PaneList {
			m.setFocus(PaneList)
		}
		var cmd tea.Cmd
		m.List, cmd = m.List.Update(msg)
		m.started = true
		return m, cmd
	case contactLoadedMsg:
		m.List.UpdateRow(RowFrom(msg.contact))
		return m, nil
	case editLoadedMsg:
		if !m.loads.Take(msg.stamp) {
			return m, nil
		}
		if msg.err != nil {
			return m, common.ErrorToast(msg.err)
		}
		return m, m.ctx.OpenModal(NewEditForm(m.ctx, *msg.contact))
	case common.TaskDoneMsg:
		if m.views.OnTask(msg) {
			m.layout() // the first saved view brings the row of views
			return m, nil
		}
		return m, m.onTask(msg)
	case common.RefreshMsg:
		if msg.Auto || !m.started {
			return m, nil // contacts have no "changed since" filter: only r reloads them
		}
		return m, tea.Batch(m.List.Load(true), m.Detail.Open(m.Detail.ID(), true))
	case common.ContextChangedMsg:
		if id := m.Detail.ID(); msg.OperatorOnly && id != 0 {
			// Same organization: the open contact is still there; load it again as the
			// new operator sees it and stay on it.
			return m, tea.Batch(m.List.Load(true), m.Detail.Open(id, true))
		}
		m.Detail.Clear()
		m.setFocus(PaneList) // the open contact belonged to the previous context
		if !m.started {
			return m, nil
		}
		return m, m.List.Load(true)
	}
	// A page arriving may put the cursor on a contact (the first one of a new list): in
	// the wide layout it is previewed once the cursor rests there, as after a key.
	var c1, c2 tea.Cmd
	before := m.List.CursorID()
	m.List, c1 = m.List.Update(msg)
	m.Detail, c2 = m.Detail.Update(msg)
	return m, tea.Batch(c1, c2, m.afterMove(before))
}

// onTask updates what the screen shows after a write: an edit or a note from anywhere; the
// end of the list's delete tasks (the list removes the rows and says what happened: the
// open contact, when deleted, closes); the end of a note delete this screen started.
func (m *Model) onTask(msg common.TaskDoneMsg) tea.Cmd {
	var cmd tea.Cmd
	m.List, cmd = m.List.Update(msg)
	switch msg.Kind {
	case KindUpdated:
		if c, ok := msg.Result.(client.Contact); ok && msg.Err == nil {
			m.List.UpdateRow(RowFrom(c))
			m.Detail.SetContact(c)
		}
	case KindUpserted:
		u, ok := msg.Result.(Upserted)
		if !ok || msg.Err != nil {
			return nil
		}
		r := RowFrom(u.Contact)
		word := "Updated"
		var reload tea.Cmd
		if u.Created {
			word = "Created"
			switch q := m.List.Query(); {
			case q.Search == "" && q.Filter.IsZero() && slices.Contains([]string{client.Contacts.Default, "-created_at"}, orderingOrDefault(m.ctx, q)):
				// Newest first: a new contact's place is the top.
				m.List.InsertTop(r)
			default:
				// Whether a search or the filters take it, and where an ordering by name,
				// email or creation puts it, is the server's to say: the first page again,
				// one request, with the cursor on the new contact when it is there.
				reload = m.List.Reload(r.ID)
			}
		} else {
			m.List.UpdateRow(r)
		}
		m.List.Select(r.ID)
		open := m.Detail.OpenWith(u.Contact, u.Created)
		m.setFocus(PaneDetail)
		return tea.Batch(open, reload, common.Toast(fmt.Sprintf("%s contact %s (#%d)", word, r.Title(), r.ID)))
	case KindDeleted:
		if res, ok := msg.Result.(list.Deleted); ok && msg.Mine(m.List.Owner()) && slices.Contains(res.IDs, m.Detail.ID()) {
			m.Detail.Clear()
			m.setFocus(PaneList)
		}
		return cmd
	case notes.KindCreated:
		if n, ok := msg.Result.(client.Note); ok && msg.Err == nil {
			m.Detail.AddNote(n)
		}
	case notes.KindDeleted:
		if msg.Err == nil {
			m.Detail.RemoveNote(msg.Subject)
		}
		if msg.Mine(m.loads.Owner()) {
			return common.DoneToast(msg, fmt.Sprintf("Note #%d deleted", msg.Subject))
		}
	}
	return nil
}

// plural is n and the word that goes with it: "1 contact", "3 contacts".
func plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, layout.Plural(n, one, many))
}

// target is the contact the edit keys act on: the open one when the detail is focused,
// else the row under the cursor.
func (m *Model) target() (id int64, title string, ok bool) {
	if m.focus == PaneDetail && m.Detail.ID() != 0 {
		if c, ok := m.Detail.Contact(); ok {
			return c.ID, RowFrom(c).Title(), true
		}
		return m.Detail.ID(), fmt.Sprintf("contact #%d", m.Detail.ID()), true
	}
	r, ok := m.List.Selected()
	if !ok {
		return 0, "", false
	}
	return r.ID, r.Title(), true
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.ctx.Keys
	if cmd, ok := m.views.Keys(msg, m.List.Query(), m.showQuery); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.NextPane), key.Matches(msg, k.PrevPane):
		if m.focus == PaneList {
			m.setFocus(PaneDetail)
		} else {
			m.setFocus(PaneList)
		}
		return nil
	case key.Matches(msg, k.ToggleDetail):
		switch {
		case !m.wide() && m.focus == PaneDetail:
			m.setFocus(PaneList)
		case !m.wide():
			m.setFocus(PaneDetail)
		default:
			m.showDetail = !m.showDetail
			if !m.showDetail {
				m.setFocus(PaneList)
			}
		}
		m.layout()
		return nil
	case key.Matches(msg, k.Open) && m.focus == PaneList:
		return m.open()
	case key.Matches(msg, k.Open) && m.focus == PaneDetail:
		if r, ok := m.Detail.SelectedConversation(); ok {
			return common.ScreenContacts.Jump(common.ScreenConversations,
				common.OpenConversationMsg{ConversationID: r.ID, ContactID: r.ContactID, From: "a contact"})
		}
		return nil
	case key.Matches(msg, k.Back) && m.focus == PaneDetail:
		m.setFocus(PaneList)
		return nil
	case key.Matches(msg, k.Search):
		return m.searchPrompt()
	case key.Matches(msg, k.Filter):
		return m.ctx.OpenModal(m.List.FilterForm())
	case key.Matches(msg, k.Order) && m.List.Query().Search != "":
		return common.Toast("Search results come in rank order; " + k.Back.Help().Key + " clears the search, then " + k.Order.Help().Key + " orders")
	case key.Matches(msg, k.Delete):
		return m.deleteKey()
	case key.Matches(msg, k.Edit):
		return m.edit()
	case key.Matches(msg, k.Upsert):
		return m.ctx.OpenModal(NewUpsertForm(m.ctx))
	case key.Matches(msg, k.Note):
		id, title, ok := m.target()
		if !ok {
			return nil
		}
		return m.ctx.OpenModal(notes.NewNoteFormAbove(m.ctx, id, title, m.Detail.NoteFloor(id)))
	case key.Matches(msg, k.CopyID):
		id, _, ok := m.target()
		if !ok {
			return nil
		}
		text := strconv.FormatInt(id, 10)
		return clipboard.Copy(m.ctx, text, "contact id "+text)
	}
	var cmd tea.Cmd
	switch m.focus {
	case PaneList:
		before := m.List.CursorID()
		m.List, cmd = m.List.Update(msg)
		return tea.Batch(cmd, m.afterMove(before))
	case PaneDetail:
		m.Detail, cmd = m.Detail.Update(msg)
	}
	return cmd
}

// previewing reports whether the detail shows beside the list while the list has the
// focus: the contact under the cursor is previewed there once the cursor rests.
func (m *Model) previewing() bool { return m.wide() && m.showDetail && m.focus == PaneList }

// afterMove starts the rest timer when a key moved the cursor to another contact than the
// one shown: a held j costs nothing until it stops, then the three requests of the contact
// it rests on (the client's memory answers one seen a moment ago).
func (m *Model) afterMove(before int64) tea.Cmd {
	if !m.previewing() {
		return nil
	}
	return m.settle.Moved(before, m.List.CursorID(), m.Detail.ID())
}

// edit opens the edit form: at once with the open contact, else after fetching the contact
// under the cursor (list rows keep only a summary).
func (m *Model) edit() tea.Cmd {
	id, _, ok := m.target()
	if !ok {
		return nil
	}
	if c, ok := m.Detail.Contact(); ok && c.ID == id {
		return m.ctx.OpenModal(NewEditForm(m.ctx, c))
	}
	stamp, parent := m.loads.Start(0)
	c := m.ctx.Client
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.RequestTimeout, true)
		defer cancel()
		ct, err := c.GetContact(ctx, id)
		if err != nil {
			err = fmt.Errorf("load contact %d for editing: %w", id, err)
		}
		return editLoadedMsg{stamp: stamp, contact: ct, err: err}
	}
}

// deleteKey asks before deleting: the note or conversation under the detail cursor is not a
// contact; marked rows go as exactly their ids; else the one contact is named.
func (m *Model) deleteKey() tea.Cmd {
	if m.focus == PaneDetail {
		if id, preview, ok := m.Detail.SelectedNote(); ok {
			return m.ctx.OpenModal(notes.ConfirmDelete(m.ctx, m.loads.Owner(), id, preview))
		}
		if _, ok := m.Detail.SelectedConversation(); ok {
			return common.Toast("Conversations are deleted from the conversations screen; " +
				m.ctx.Keys.Delete.Help().Key + " in the list or on the contact's fields (" + m.ctx.Keys.Top.Help().Key + ") deletes the contact")
		}
		if c, ok := m.Detail.Contact(); ok {
			r := RowFrom(c)
			// The detail lists the contact's conversations: an ongoing one means the
			// server would refuse, so say it and send nothing.
			for _, cv := range m.Detail.Conversations() {
				if cv.Status != client.StatusEnded {
					return common.Toast(fmt.Sprintf("%s has an ongoing conversation (#%d, %s): a contact is deleted with its conversations, and only ended ones can be. Nothing was sent.",
						r.Title(), cv.ID, cv.Status))
				}
			}
			return m.confirmOne(r.ID, r.Title(), r.ConversationCount)
		}
		return nil
	}
	if marked := m.List.Marked(); len(marked) > 0 {
		return m.confirmMarked(marked)
	}
	r, ok := m.List.Selected()
	if !ok {
		return nil
	}
	return m.confirmOne(r.ID, r.Title(), r.ConversationCount)
}

// goesWith says what a contact delete takes with it (a deletion of a person's data):
// conversations is -1 when the count is unknown. Ongoing conversations are never deleted,
// so neither is a contact that has one.
func goesWith(conversations int) string {
	switch {
	case conversations < 0:
		return "Its conversations, notes and visited pages go with it; a contact with an ongoing conversation is kept"
	case conversations == 0:
		return "Its notes and visited pages go with it"
	case conversations == 1:
		return "Its conversation, notes and visited pages go with it; if that conversation is ongoing, nothing is deleted"
	}
	return "Its " + layout.Count(conversations) + " conversations, notes and visited pages go with it; if one is ongoing, nothing is deleted"
}

func (m *Model) confirmOne(id int64, title string, conversations int) tea.Cmd {
	body := fmt.Sprintf("Delete contact “%s” (#%d)? %s. This cannot be undone.", ansi.Truncate(title, nameInQuestion, "…"), id, goesWith(conversations))
	return m.List.ConfirmDelete(list.Delete{Kind: KindDeleted, IDs: []int64{id}, Title: "Delete contact?", Body: body,
		What: fmt.Sprintf("delete contact %d", id),
		Do: list.DeleteOne(id, fmt.Sprintf("contact #%d", id),
			func(ctx context.Context, c *client.Client) error { return c.DeleteContact(ctx, id) },
			func(ctx context.Context, c *client.Client) error { _, err := c.GetContact(ctx, id); return err }),
		Done: contactsDeleted,
	})
}

// contactsDeleted says what a contact delete did.
func contactsDeleted(d list.Deleted, confirmed string) string {
	text := plural(len(d.IDs), "contact", "contacts") + " deleted" + confirmed
	if n := len(d.Kept); n > 0 {
		text += fmt.Sprintf("; %s kept: an ongoing conversation cannot be deleted, nor its contact", plural(n, "contact", "contacts"))
	}
	return text
}

func (m *Model) confirmMarked(rows []Row) tea.Cmd {
	ids := make([]int64, len(rows))
	names := make([]string, 0, 3)
	for i, r := range rows {
		ids[i] = r.ID
		if i < 3 {
			names = append(names, fmt.Sprintf("“%s”", ansi.Truncate(r.Title(), nameInQuestion, "…")))
		}
	}
	named := strings.Join(names, ", ")
	if len(rows) > 3 {
		named += fmt.Sprintf(" and %d more", len(rows)-3)
	}
	title := fmt.Sprintf("Delete %s?", plural(len(ids), "contact", "contacts"))
	body := fmt.Sprintf("Delete the %d marked %s: %s? Only these %d are deleted, each with its conversations, notes and visited pages; one with an ongoing conversation is kept. This cannot be undone.",
		len(ids), layout.Plural(len(ids), "contact", "contacts"), named, len(ids))
	return m.List.ConfirmDelete(list.Delete{Kind: KindDeleted, IDs: ids, Title: title, Body: body,
		Do:   func(ctx context.Context, c *client.Client) (list.Deleted, error) { return deleteContacts(ctx, c, ids) },
		Done: contactsDeleted})
}

// deleteContacts deletes ids by delete_ids, deleteChunk at a time, and tells which went and
// which the server kept: the answer (204) does not say which were kept (those with an
// ongoing conversation), so one look at each contact tells; after a lost answer, the same
// look tells whether the DELETE was carried out at all. An error says how many were done.
func deleteContacts(ctx context.Context, c *client.Client, ids []int64) (list.Deleted, error) {
	var res list.Deleted
	failed := func(err error) (list.Deleted, error) {
		return res, fmt.Errorf("delete contacts (%d of %d done): %w", len(res.IDs), len(ids), err)
	}
	for start := 0; start < len(ids); start += deleteChunk {
		chunk := ids[start:min(len(ids), start+deleteChunk)]
		err := c.DeleteContacts(ctx, chunk)
		if err != nil && !writes.OutcomeUnknown(err) {
			return failed(err)
		}
		before, kept := len(res.IDs), len(res.Kept)
		for _, id := range chunk {
			_, rerr := c.GetContact(client.Fresh(ctx), id)
			switch {
			case client.IsNotFound(rerr):
				res.IDs = append(res.IDs, id)
			case rerr == nil:
				res.Kept = append(res.Kept, id)
			case err != nil:
				res.Lost = err
				return failed(&writes.UncheckedError{Cause: err, Check: fmt.Errorf("read contact %d: %w", id, rerr),
					What: "whether the marked contacts were deleted", Advice: "refresh to see what is left"})
			default:
				return res, fmt.Errorf("check contact %d after the delete: %w", id, rerr)
			}
		}
		if err != nil {
			if len(res.IDs) == before {
				res.Kept = res.Kept[:kept]
				res.Lost = err
				return failed(&writes.NotDoneError{Cause: err, Done: "deleted",
					Found: layout.Plural(len(chunk), "the contact is", fmt.Sprintf("the %d contacts are", len(chunk))) + " still there"})
			}
			res.Lost = err
		}
	}
	return res, nil
}

// Where is the focused pane.
func (m *Model) Where() keymap.Where {
	if m.focus == PaneList {
		return keymap.InContactList
	}
	return keymap.InContactDetail
}

// View renders the visible panes in their frames, exactly the size given.
func (m *Model) View() string {
	return common.Panes(m.ctx, m.width, m.height, m.visible(), m.widths(), m.focus, !m.wide(), func(p Pane, w int) (string, string) {
		if p == PaneDetail {
			return m.Detail.Title(), m.Detail.View()
		}
		return "Contacts", m.views.Atop(m.List.View(), max(0, w-2), m.List.Query())
	})
}
