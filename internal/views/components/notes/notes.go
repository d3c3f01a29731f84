// Package notes holds the note form (usable from any screen: a contact, or a conversation's
// contact) and the note delete command. A note body is multi-line: enter starts a new line,
// ctrl+s saves, esc asks before discarding what was typed.
//
// A note POST whose answer was lost may have created the note. The form then reads the
// contact's notes again and looks for it (writes.NoteCheck): found, the form closes as saved;
// not found, it stays open and ctrl+s sends again, after looking once more; and when a look
// before a resend finds the note, the form asks before sending a second copy. Whether a
// note is older than the attempt is told by ids or by the server's clock, never by the
// local one.
package notes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/confirm"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/writes"
)

// TaskDoneMsg kinds reported by this package.
const (
	// KindCreated: Result is the created client.Note.
	KindCreated = common.KindNoteCreate
	// KindDeleted: Result is the deleted note's id (int64).
	KindDeleted = common.KindNoteDelete
)

// EmptyBody is how a note without any text is shown (the API has such notes; parley never
// writes one).
const EmptyBody = "(empty note)"

// Form is the note form modal: a forms.Modal whose text field takes enter as a new line.
type Form struct {
	inner   *forms.Modal
	ctx     *common.Ctx
	newLine key.Binding
}

// NewNoteForm returns the modal that writes a note about a contact: a multi-line body, the
// submit key (ctrl+s) saves (POST /notes/ as a task reporting KindCreated with the created
// client.Note), esc asks before discarding typed text. contactName is shown in the title; it must already
// be sanitized.
func NewNoteForm(ctx *common.Ctx, contactID int64, contactName string) common.Modal {
	return NewNoteFormAbove(ctx, contactID, contactName, writes.NoteFloor{})
}

// NewNoteFormAbove is NewNoteForm for a screen that had loaded the contact's notes: floor
// (the newest of them) tells the notes that existed before the form from one a lost answer
// may have created.
func NewNoteFormAbove(ctx *common.Ctx, contactID int64, contactName string, floor writes.NoteFloor) common.Modal {
	body := new(string)
	who := strings.TrimSpace(contactName)
	if who == "" {
		who = fmt.Sprintf("contact %d", contactID)
	}
	km := huh.NewDefaultKeyMap()
	// huh's own key for a new line in the text field; the submit key (checked first) saves.
	newLine := key.NewBinding(key.WithKeys("enter", "alt+enter", "ctrl+j"), key.WithHelp("enter", "new line"))
	km.Text.NewLine = newLine
	km.Text.Next = key.NewBinding(key.WithDisabled())
	km.Text.Prev = key.NewBinding(key.WithDisabled())
	km.Text.Submit = key.NewBinding(key.WithDisabled())
	km.Text.Editor = key.NewBinding(key.WithDisabled())
	k := ctx.Keys
	hint := k.Submit.Help().Key + " saves · " + newLine.Help().Key + " starts a new line · " + k.Back.Help().Key + " cancels"
	check := func() error {
		if strings.TrimSpace(*body) == "" {
			return errors.New("the note is empty: write something first")
		}
		return nil
	}
	// The attempts so far and who made them: a lost answer is checked against them.
	looks := writes.NoteCheck{ContactID: contactID, Floor: floor}
	var sentBy *client.Client
	opts := forms.Options{
		Title: "New note about " + who,
		Build: func() *huh.Form {
			return huh.NewForm(huh.NewGroup(
				huh.NewText().Title("Note").Value(body).Lines(8).CharLimit(writes.MaxNoteBody).
					ExternalEditor(false).ShowLineNumbers(false).
					Description(hint).
					Placeholder("What should the next person know about this contact?"),
			))
		},
		Check: check,
		Submit: func() (int, tea.Cmd, error) {
			if err := check(); err != nil {
				return 0, nil, err
			}
			text := strings.TrimSpace(*body)
			sentBy = ctx.Client // as the operator acting now
			looks.Sent = append(looks.Sent, writes.NoteAttempt{Text: text, At: ctx.Now()})
			id, cmd := ctx.Start(common.Write{Kind: KindCreated, What: "create note",
				Do: func(ctx context.Context, c *client.Client) (any, error) {
					n, err := c.CreateNote(ctx, client.NewNote{ContactIdentityID: contactID, Body: text})
					if err != nil {
						return nil, err
					}
					return *n, nil
				}})
			return id, cmd, nil
		},
		Verify: func(taskID int, cause error) tea.Cmd {
			k, c := looks.Clone(), sentBy
			return ctx.StartAs(taskID, common.Write{Kind: KindCreated, Subject: contactID, Lost: cause, As: c,
				Do: func(ctx context.Context, _ *client.Client) (any, error) {
					n, err := k.Run(ctx, c, cause)
					if err != nil {
						return nil, err
					}
					return n, nil
				}})
		},
		Duplicate: func(found common.TaskDoneMsg) (string, bool) {
			n, ok := found.Result.(client.Note)
			if !ok {
				return "", false
			}
			// Whatever the answer, this note is known now: a later check looks for another.
			looks.Known = append(looks.Known, n.ID)
			same := writes.SameNoteText(n.Body, *body)
			at := ""
			if !n.CreatedAt.IsZero() {
				at = " at " + clock(n.CreatedAt.Time, ctx.Now())
			}
			if same {
				return "A note with this text was saved" + at + " by the earlier attempt. Send another copy? " + ctx.Keys.YesNo(), true
			}
			return "The earlier attempt saved its note" + at + " (with the text as it was then). Send this one as well? " + ctx.Keys.YesNo(), false
		},
		Dirty:   func() bool { return strings.TrimSpace(*body) != "" },
		Discard: "the note",
		Width:   72,
		Success: "Note saved",
		KeyMap:  km,
	}
	return &Form{inner: forms.New(ctx, opts), ctx: ctx, newLine: newLine}
}

// clock is a time as the question shows it: the time of day, with the date when it is not
// today.
func clock(t, now time.Time) string {
	t = t.In(now.Location())
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("2006-01-02 15:04")
}

// Init starts the form.
func (f *Form) Init() tea.Cmd { return f.inner.Init() }

// SetSize gives the area the modal may use.
func (f *Form) SetSize(w, h int) { f.inner.SetSize(w, h) }

// Inline is false: a centered box.
func (f *Form) Inline() bool { return false }

// Submitting reports a save in flight.
func (f *Form) Submitting() bool { return f.inner.Submitting() }

// Err is the error shown in the form.
func (f *Form) Err() string { return f.inner.Err() }

// Unsaved is "the note" while it holds text (common.Unsaved): quitting asks first.
func (f *Form) Unsaved() string { return f.inner.Unsaved() }

// ShortHelp lists the note form's keys.
func (f *Form) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys(f.ctx.Keys.Submit.Keys()...), key.WithHelp(f.ctx.Keys.Submit.Help().Key, "save")),
		f.newLine,
		key.NewBinding(key.WithKeys(f.ctx.Keys.Back.Keys()...), key.WithHelp(f.ctx.Keys.Back.Help().Key, "cancel")),
	}
}

// Update forwards to the form.
func (f *Form) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	_, cmd := f.inner.Update(msg)
	return f, cmd
}

// View renders the form.
func (f *Form) View() string { return f.inner.View() }

// Delete returns the command that deletes a note as a task of owner, reporting KindDeleted
// with the note id (Result and Subject). When the DELETE's answer is lost, the note is read
// again: a 404 means it is gone (Lost is then set), else the error says whether it is
// still there (see writes.CheckGone).
func Delete(ctx *common.Ctx, owner int, noteID int64) tea.Cmd {
	_, cmd := ctx.Start(common.Write{Owner: owner, Kind: KindDeleted, Subject: noteID, What: fmt.Sprintf("delete note %d", noteID),
		Do: func(ctx context.Context, c *client.Client) (any, error) { return noteID, c.DeleteNote(ctx, noteID) },
		Check: common.CheckGoneOf(fmt.Sprintf("note #%d", noteID), noteID, func(ctx context.Context, c *client.Client) error {
			_, err := c.GetNote(ctx, noteID)
			return err
		})})
	return cmd
}

// ConfirmDelete returns the confirmation modal for deleting one note; preview is the
// note's sanitized first line. Yes sends the DELETE as a task of owner (see Delete).
func ConfirmDelete(ctx *common.Ctx, owner int, noteID int64, preview string) common.Modal {
	body := fmt.Sprintf("Delete note #%d", noteID)
	if p := strings.TrimSpace(preview); p != "" {
		body += fmt.Sprintf(" (“%s”)", ansi.Truncate(p, 60, "…"))
	}
	body += "? This cannot be undone."
	return confirm.New(ctx, "Delete note?", body, Delete(ctx, owner, noteID))
}
