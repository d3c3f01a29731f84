package contacts

import (
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// ActiveView is the active saved view's name ("all": the whole list).
func (m *Model) ActiveView() string { return m.views.Active() }

// RestoreView makes the saved view name the active one before the screen's first load;
// an unknown name leaves "all".
func (m *Model) RestoreView(name string) { m.views.Restore(name, m.List.Preset) }

// Choices are the screen's saved views and the contacts its list holds, by name, for the
// command palette: a contact chosen opens in the detail pane (OpenContactMsg).
func (m *Model) Choices() []common.Choice {
	out := m.views.Choices()
	for _, r := range m.List.Rows() {
		c := common.Choice{Group: "contact", Title: r.Title(), Msg: OpenContactMsg{ID: r.ID}}
		if r.Name != "" {
			c.Hint = r.Email
		}
		out = append(out, c)
	}
	return out
}

// OpenContactMsg opens contact ID in the detail pane, the list's cursor on it when the
// list holds it.
type OpenContactMsg struct{ ID int64 }

// showQuery shows q in the list (a view's), loading it even before the screen was first
// shown.
func (m *Model) showQuery(q Query) tea.Cmd {
	m.started = true
	if !m.wide() && m.focus != PaneList {
		m.setFocus(PaneList)
	}
	return m.List.SetQuery(q)
}
