// Package operatorpick is the modal that picks an operator: the organization's operators by
// display name with their role and away and online state, in the one picker (internal/views/components/picker):
// typing narrows it, enter chooses and esc cancels.
package operatorpick

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/sanitize"
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
	ctx   *common.Ctx
	title string
	note  string
	items []Item
	pick  picker.Model
	picker.Room
	done   bool
	onPick func(Item) tea.Cmd
}

// New returns the picker over items; onPick runs, once, after the modal closed with the
// chosen operator. note says something under the list ("" for nothing).
func New(ctx *common.Ctx, title, note string, items []Item, onPick func(Item) tea.Cmd) *Model {
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.label()
	}
	m := &Model{ctx: ctx, title: title, note: note, items: items, onPick: onPick}
	m.pick = picker.New(ctx, texts, picker.Options{Prompt: "filter: ", Placeholder: "a name, a role, a state or an id",
		RowsTop: picker.BoxRowsTop})
	return m
}

// SetSize gives the area the modal may use.
func (m *Model) SetSize(w, h int) { m.Give(w, h, &m.pick, m.rows) }

// rows is how many operators the list shows: all of them when they fit.
func (m *Model) rows() int {
	return picker.FitRows(m.Height, m.Inner(), []string{m.note}, len(m.items))
}

// Shown lists the operators the filter lets through, in order.
func (m *Model) Shown() []Item {
	out := make([]Item, 0, len(m.pick.Shown()))
	for _, mt := range m.pick.Shown() {
		out = append(out, m.items[mt.Item])
	}
	return out
}

// ShortHelp lists the picker's keys.
func (m *Model) ShortHelp() []key.Binding { return m.pick.ShortHelp("choose", "cancel") }

// Update filters, moves, chooses and cancels as every picker does (internal/views/components/picker).
func (m *Model) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if m.done {
		return m, nil
	}
	return m, m.pick.Handle(msg, func() tea.Cmd {
		m.done = true
		return m.ctx.CloseModal(m)
	}, func(mt picker.Match) tea.Cmd {
		m.done = true
		return tea.Sequence(m.ctx.CloseModal(m), m.onPick(m.items[mt.Item]))
	})
}

// View renders the box: the filter, a window of the list around the cursor, the note and
// the keys.
func (m *Model) View() string {
	return m.pick.Dialog(m.ctx.Styles, picker.Box{Title: m.title, Height: m.rows(), Notes: []string{m.note}}, m.Inner(), nil, "choose", "cancel")
}
