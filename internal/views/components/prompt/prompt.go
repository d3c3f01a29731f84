// Package prompt is a one-line input shown in the bottom line (search): the open key
// (enter) submits, the back key (esc) cancels; printable keys are always text. The line
// ends with its keys ("enter search · esc cancel") when there is room for them. A prompt
// opened with text (the search in force) shows it selected: typing or a paste replaces
// it, backspace clears it, a move key keeps it to edit.
package prompt

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
)

// Model is the inline prompt modal.
type Model struct {
	ctx    *common.Ctx
	input  textinput.Model
	label  string
	submit func(string) tea.Msg
	does   string // what the open key does, for the hint ("search"; "": no hint)
	width  int
	// selected: the text it opened with is selected, until a key replaces, clears or
	// keeps it.
	selected bool
	// live, when set, turns the text into a message at every change (a filter as you
	// type); cancelling sends it the text the prompt opened with.
	live    func(string) tea.Msg
	initial string
}

// minInput is the fewest cells the input keeps before the hint gives way.
const minInput = 20

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
	return &Model{ctx: ctx, input: in, label: label, submit: submit, selected: value != "", initial: value}
}

// Live makes the prompt a filter as you type: every change of the text is sent as
// live(text), and cancelling sends live of the text it opened with.
func (m *Model) Live(live func(string) tea.Msg) *Model {
	m.live = live
	return m
}

// changed is the live message of the text, when it differs from before and the prompt is
// live.
func (m *Model) changed(before string) tea.Cmd {
	if m.live == nil || m.input.Value() == before {
		return nil
	}
	out := m.live(m.input.Value())
	return func() tea.Msg { return out }
}

// Doing names what the open key does in the hint at the end of the line ("search").
func (m *Model) Doing(does string) *Model {
	m.does = does
	m.SetSize(m.width, 1)
	return m
}

// hint is the keys at the end of the line ("enter search · esc cancel").
func (m *Model) hint() string {
	k := m.ctx.Keys
	return k.Open.Help().Key + " " + m.does + " · " + k.Back.Help().Key + " cancel"
}

// hintShown reports whether the line has room for the hint beside an input of minInput.
func (m *Model) hintShown() bool {
	return m.does != "" && m.width >= lipgloss.Width(m.label)+1+minInput+2+lipgloss.Width(m.hint())+1
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

// SetSize fits the input, and the hint when there is room, to the bottom line.
func (m *Model) SetSize(w, _ int) {
	m.width = w
	room := w - lipgloss.Width(m.label) - 3
	if m.hintShown() {
		room -= lipgloss.Width(m.hint()) + 2
	}
	m.input.SetWidth(max(10, room))
}

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
	before := m.input.Value()
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.ctx.Keys.Open) && !common.Typed(k): // an open key bound to a letter types it
			text := m.input.Value()
			out := m.submit(text)
			return m, tea.Sequence(m.ctx.CloseModal(m), func() tea.Msg { return out })
		case key.Matches(k, m.ctx.Keys.Back) && !common.Typed(k):
			if m.live != nil && m.input.Value() != m.initial {
				out := m.live(m.initial)
				return m, tea.Sequence(m.ctx.CloseModal(m), func() tea.Msg { return out })
			}
			return m, m.ctx.CloseModal(m)
		case m.input.Value() == "" && key.Matches(k, m.ctx.Keys.Search):
			// The key that opens a search, pressed in an empty search prompt: the user is
			// already where it leads.
			return m, nil
		}
		if m.selected {
			m.selected = false
			switch {
			case common.Typed(k):
				m.input.SetValue("")
			case k.Code == tea.KeyBackspace || k.Code == tea.KeyDelete:
				m.input.SetValue("")
				return m, m.changed(before)
			}
		}
	}
	if _, ok := msg.(tea.PasteMsg); ok && m.selected {
		m.selected = false
		m.input.SetValue("")
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, tea.Batch(cmd, m.changed(before))
}

// View renders the input line, with the hint at its right end when there is room.
func (m *Model) View() string {
	v := m.input.View()
	if m.selected {
		v = m.input.Styles().Focused.Prompt.Render(m.input.Prompt) + m.ctx.Styles.Selected.Render(m.input.Value())
	}
	if !m.hintShown() {
		return v
	}
	h := m.ctx.Styles.Muted.Render(m.hint())
	gap := max(1, m.width-lipgloss.Width(v)-lipgloss.Width(h)-1)
	return v + strings.Repeat(" ", gap) + h
}

// Value is the current text.
func (m *Model) Value() string { return m.input.Value() }
