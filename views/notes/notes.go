// Package notes holds the note form (usable from any screen: a contact, or a conversation's
// contact) and the note delete command. A note body is multi-line: enter starts a new line,
// ctrl+s saves, esc asks before discarding what was typed.
package notes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/confirm"
	"github.com/parley-tui/parley/views/forms"
)

// TaskDoneMsg kinds reported by this package.
const (
	// KindCreated: Result is the created client.Note.
	KindCreated = "note.create"
	// KindDeleted: Result is the deleted note's id (int64).
	KindDeleted = "note.delete"
)

// EmptyBody is how a note without any text is shown (the API has such notes; parley never
// writes one).
const EmptyBody = "(empty note)"

// MaxBody is the longest note body the form accepts, in characters.
const MaxBody = 5000

const requestTimeout = 60 * time.Second

// submitKeys save the note (enter starts a new line).
func submitKeys() []string { return []string{"ctrl+s"} }

// Form is the note form modal: a forms.Modal whose text field takes enter as a new line.
type Form struct {
	inner   *forms.Modal
	ctx     *common.Ctx
	hintKey key.Binding
}

// NewNoteForm returns the modal that writes a note about a contact: a multi-line body,
// ctrl+s saves (POST /notes/ as a task reporting KindCreated with the created client.Note),
// esc asks before discarding typed text. contactName is shown in the title; it must already
// be sanitized.
func NewNoteForm(ctx *common.Ctx, contactID int64, contactName string) common.Modal {
	body := new(string)
	who := strings.TrimSpace(contactName)
	if who == "" {
		who = fmt.Sprintf("contact %d", contactID)
	}
	km := huh.NewDefaultKeyMap()
	km.Text.NewLine = key.NewBinding(key.WithKeys("enter", "alt+enter", "ctrl+j"), key.WithHelp("enter", "new line"))
	km.Text.Next = key.NewBinding(key.WithDisabled())
	km.Text.Prev = key.NewBinding(key.WithDisabled())
	km.Text.Submit = key.NewBinding(key.WithDisabled())
	km.Text.Editor = key.NewBinding(key.WithDisabled())
	check := func() error {
		if strings.TrimSpace(*body) == "" {
			return errors.New("the note is empty: write something first")
		}
		return nil
	}
	opts := forms.Options{
		Title: "New note about " + who,
		Build: func() *huh.Form {
			return huh.NewForm(huh.NewGroup(
				huh.NewText().Title("Note").Value(body).Lines(8).CharLimit(MaxBody).
					ExternalEditor(false).ShowLineNumbers(false).
					Description("ctrl+s saves · enter starts a new line · esc cancels").
					Placeholder("What should the next person know about this contact?"),
			))
		},
		Check: check,
		Submit: func() (int, tea.Cmd, error) {
			if err := check(); err != nil {
				return 0, nil, err
			}
			id := ctx.NewTaskID()
			return id, createCmd(ctx.Client, id, contactID, strings.TrimSpace(*body)), nil
		},
		Dirty:      func() bool { return strings.TrimSpace(*body) != "" },
		Width:      72,
		Success:    "Note saved",
		SubmitKeys: submitKeys(),
		KeyMap:     km,
	}
	return &Form{inner: forms.New(ctx, opts), ctx: ctx,
		hintKey: key.NewBinding(key.WithKeys(submitKeys()...), key.WithHelp(strings.Join(submitKeys(), "/"), "save"))}
}

func createCmd(c *client.Client, taskID int, contactID int64, text string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		n, err := c.CreateNote(ctx, client.NewNote{ContactIdentityID: contactID, Body: text})
		if err != nil {
			return common.TaskDoneMsg{TaskID: taskID, Kind: KindCreated, Err: fmt.Errorf("create note: %w", err)}
		}
		return common.TaskDoneMsg{TaskID: taskID, Kind: KindCreated, Result: *n}
	}
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

// ShortHelp lists the note form's keys.
func (f *Form) ShortHelp() []key.Binding {
	return []key.Binding{
		f.hintKey,
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "new line")),
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

// Delete returns the command that deletes a note, reporting KindDeleted with the note id.
func Delete(ctx *common.Ctx, taskID int, noteID int64) tea.Cmd {
	c := ctx.Client
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		if err := c.DeleteNote(cctx, noteID); err != nil {
			return common.TaskDoneMsg{TaskID: taskID, Kind: KindDeleted, Result: noteID, Err: fmt.Errorf("delete note %d: %w", noteID, err)}
		}
		return common.TaskDoneMsg{TaskID: taskID, Kind: KindDeleted, Result: noteID}
	}
}

// ConfirmDelete returns the confirmation modal for deleting one note; preview is the
// note's sanitized first line. Yes sends the DELETE as task taskID (from ctx.NewTaskID), reporting
// KindDeleted.
func ConfirmDelete(ctx *common.Ctx, taskID int, noteID int64, preview string) common.Modal {
	body := fmt.Sprintf("Delete note #%d", noteID)
	if p := strings.TrimSpace(preview); p != "" {
		body += fmt.Sprintf(" (“%s”)", ansi.Truncate(p, 60, "…"))
	}
	body += "? This cannot be undone."
	return confirm.New(ctx, "Delete note?", body, Delete(ctx, taskID, noteID))
}
