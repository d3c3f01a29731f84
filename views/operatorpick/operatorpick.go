// Package operatorpick is the modal that picks an operator: the organization's operators by
// display name with their away and online state, narrowed by typing, enter chooses and esc
// cancels.
package operatorpick

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/layout"
	"github.com/parley-tui/parley/views/prompt"
)

// Item is one operator as the picker shows it (texts sanitized).
type Item struct {
	ID    int64
	Name  string // display name, else name, else "operator #ID"
	Role  string
	State string // "online", "away", "offline" or "" when the API did not say
	Bot   bool
	Note  string // after the state: "current" for the conversation's operator
}

// ItemFrom is an operator as the picker shows it.
func ItemFrom(o client.Operator) Item {
	name := sanitize.Line(strings.TrimSpace(o.DisplayName))
	if name == "" {
		name = sanitize.Line(strings.TrimSpace(o.Name))
	}
	if name == "" {
		name = fmt.Sprintf("operator #%d", o.ID)
	}
	it := Item{ID: o.ID, Name: name, Role: sanitize.Line(o.Role), Bot: o.IsBot.V || o.Role == client.RoleBot}
	switch {
	case o.IsAway.Known && o.IsAway.V:
		it.State = "away"
	case o.IsOnline.Known && o.IsOnline.V:
		it.State = "online"
	case o.IsOnline.Known:
		it.State = "offline"
	}
	return it
}

// label is the item's line: "Clara Diaz · agent · online (#7)".
func (it Item) label() string {
	parts := []string{it.Name}
	if it.Role != "" {
		parts = append(parts, it.Role)
	}
	if it.Bot && it.Role != client.RoleBot {
		parts = append(parts, "bot") // a bot by its flag, not already by its role
	}
	if it.State != "" {
		parts = append(parts, it.State)
	}
	s := strings.Join(parts, " · ") + fmt.Sprintf(" (#%d)", it.ID)
	if it.Note != "" {
		s += "  " + it.Note
	}
	return s
}

// Model is the picker.
type Model struct {
	ctx    *common.Ctx
	title  string
	note   string
	items  []Item
	shown  []int // indexes into items matching the filter
	cursor int   // index into shown
	input  textinput.Model
	width  int
	height int
	done   bool
	onPick func(Item) tea.Cmd
}

// New returns the picker over items; onPick runs, once, after the modal closed with the
// chosen operator. note says something above the list ("" for nothing).
func New(ctx *common.Ctx, title, note string, items []Item, onPick func(Item) tea.Cmd) *Model {
	in := textinput.New()
	in.Prompt = "filter: "
	in.Placeholder = "type part of a name or an id"
	in.CharLimit = 64
	in.SetWidth(32)
	st := prompt.InputStyles(ctx)
	st.Focused.Prompt, st.Blurred.Prompt = ctx.Styles.Muted, ctx.Styles.Muted
	in.SetStyles(st)
	in.Focus()
	m := &Model{ctx: ctx, title: title, note: note, items: items, input: in, onPick: onPick}
	m.filter()
	return m
}

// Init does nothing.
func (m *Model) Init() tea.Cmd { return nil }

// Inline is false: the picker is a centered box.
func (m *Model) Inline() bool { return false }

// SetSize gives the area the modal may use.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// Shown lists the operators the filter lets through, in order.
func (m *Model) Shown() []Item {
	out := make([]Item, len(m.shown))
	for i, j := range m.shown {
		out[i] = m.items[j]
	}
	return out
}

// ShortHelp lists the picker's keys.
func (m *Model) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{keymap.As(k.Up, "up"), keymap.As(k.Down, "down"), keymap.As(k.Open, "choose"), keymap.As(k.Back, "cancel")}
}

// filter keeps the items whose name, role, state or id contain the typed text (any case).
func (m *Model) filter() {
	q := strings.ToLower(strings.TrimSpace(m.input.Value()))
	m.shown = m.shown[:0]
	for i, it := range m.items {
		if q == "" || strings.Contains(strings.ToLower(it.label()), q) {
			m.shown = append(m.shown, i)
		}
	}
	m.cursor = max(0, min(m.cursor, len(m.shown)-1))
}

// moveTo is where msg puts the cursor, as bound: a move key that types no text (the
// arrows, page keys, home and end; letters are filter text), or the next and previous
// pane keys (tab, shift+tab) for the next and previous operator.
func (m *Model) moveTo(msg tea.KeyPressMsg) (int, bool) {
	k := m.ctx.Keys
	last := max(0, len(m.shown)-1)
	switch {
	case key.Matches(msg, k.NextPane):
		return min(last, m.cursor+1), true
	case key.Matches(msg, k.PrevPane):
		return max(0, m.cursor-1), true
	case common.Typed(msg):
		return m.cursor, false
	}
	to, ok := k.Scroll(msg, m.cursor, max(1, m.height/2), last)
	return max(0, min(last, to)), ok
}

// Update moves with the move keys that type no text (letters are filter text), chooses
// with enter and cancels with esc, as bound; everything else edits the filter.
func (m *Model) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if m.done {
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := m.ctx.Keys
		switch {
		case key.Matches(msg, k.Back):
			m.done = true
			return m, m.ctx.CloseModal(m)
		case key.Matches(msg, k.Open):
			if len(m.shown) == 0 {
				return m, nil
			}
			it := m.items[m.shown[m.cursor]]
			m.done = true
			return m, tea.Sequence(m.ctx.CloseModal(m), m.onPick(it))
		}
		if to, ok := m.moveTo(msg); ok {
			m.cursor = to
			return m, nil
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		m.filter()
		return m, cmd
	case tea.PasteMsg:
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		m.filter()
		return m, cmd
	}
	return m, nil
}

// View renders the box: the title, the note, a window of the list around the cursor and
// the filter.
func (m *Model) View() string {
	k := m.ctx.Keys
	status := ""
	if len(m.shown) == 0 {
		status = m.ctx.Styles.Muted.Render("  No operator matches.")
	}
	labels := make([]string, len(m.shown))
	for i, j := range m.shown {
		labels[i] = m.items[j].label()
	}
	return layout.PickBox(m.ctx.Styles, layout.Pick{Title: m.title, Note: m.note, Status: status, Labels: labels, Cursor: m.cursor,
		Input: m.input.View(), Move: "↑/↓", Choose: k.Open.Help().Key, Cancel: k.Back.Help().Key}, m.width, m.height)
}
