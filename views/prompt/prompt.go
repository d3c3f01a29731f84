// Package prompt is a one-line input shown in the bottom line (search): the open key
// (enter) submits, the back key (esc) cancels; printable keys are always text.
package prompt

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/common"
)

// Model is the inline prompt modal.
type Model struct {
	ctx    *common.Ctx
	input  textinput.Model
	label  string
	submit func(string) tea.Msg
}

// New returns a prompt labelled label, prefilled with value; submit turns the entered text
// into the message delivered on enter.
func New(ctx *common.Ctx, label, value string, submit func(string) tea.Msg) *Model {
	in := textinput.New()
	in.Prompt = label + " "
	in.SetValue(value)
	in.CharLimit = 200
	in.SetStyles(InputStyles(ctx))
	in.SetVirtualCursor(false) // the terminal's cursor (Cursor): no blink frames
	in.Focus()
	return &Model{ctx: ctx, input: in, label: label, submit: submit}
}

// InputStyles are the styles of a one-line input beside parley's: bubbles' own for the
// background parley found, with the prompt in the accent colour.
func InputStyles(ctx *common.Ctx) textinput.Styles {
	st := textinput.DefaultStyles(ctx.Styles.Dark)
	st.Focused.Prompt = ctx.Styles.Accent
	st.Blurred.Prompt = ctx.Styles.Accent
	if ctx.Styles.Plain {
		theme.Strip(&st)
	}
	return st
}

// Init does nothing: the terminal blinks its own cursor.
func (m *Model) Init() tea.Cmd { return nil }

// Cursor is where the terminal's cursor goes in the prompt's line.
func (m *Model) Cursor() *tea.Cursor { return m.input.Cursor() }

// SetSize fits the input to the bottom line.
func (m *Model) SetSize(w, _ int) { m.input.SetWidth(max(10, w-len(m.label)-3)) }

// Inline is true: the prompt sits in the bottom line.
func (m *Model) Inline() bool { return true }

// ShortHelp lists the prompt's keys.
func (m *Model) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{
		key.NewBinding(key.WithKeys(k.Open.Keys()...), key.WithHelp(k.Open.Help().Key, "run")),
		key.NewBinding(key.WithKeys(k.Back.Keys()...), key.WithHelp(k.Back.Help().Key, "cancel")),
	}
}

// Update edits the text; enter submits, esc cancels; the search key is ignored while the
// prompt is empty.
func (m *Model) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.ctx.Keys.Open) && !common.Typed(k): // an open key bound to a letter types it
			text := m.input.Value()
			out := m.submit(text)
			return m, tea.Sequence(m.ctx.CloseModal(m), func() tea.Msg { return out })
		case key.Matches(k, m.ctx.Keys.Back) && !common.Typed(k):
			return m, m.ctx.CloseModal(m)
		case m.input.Value() == "" && key.Matches(k, m.ctx.Keys.Search):
			// The key that opens a search, pressed in an empty search prompt (the contacts
			// screen opens its prompt by itself): the user is already where it leads.
			return m, nil
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// View renders the input line.
func (m *Model) View() string { return m.input.View() }

// Value is the current text.
func (m *Model) Value() string { return m.input.Value() }
