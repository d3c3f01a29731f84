package listing

import (
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
)

// known lists the topics and widgets seen in this context (not only on the rows the current
// query left), by name, for the selects.
func (m Model) known() (topics, widgets []forms.Option) {
	return forms.ByName(m.seenTopics), forms.ByName(m.seenWidgets)
}

// FilterForm is the `f` modal with all 16 conversation filters (client.Conversations);
// applying it sends a FilterMsg.
func (m Model) FilterForm() common.Modal {
	topics, widgets := m.known()
	return forms.Filter(m.ctx, client.Conversations, m.Query().Filter, forms.FilterOptions[client.ConversationFilter]{
		Title: "Filter conversations",
		Width: 72,
		Picks: map[string]forms.Pick{
			"operator": {Options: forms.ByName(operatorNames(m.ctx, m.operators)), Height: 6},
			"topic":    {Options: topics, Height: 6},
			"widget":   {Options: widgets, Height: 5},
		},
		Check: true,
		Send:  func(f client.ConversationFilter) tea.Msg { return FilterMsg{Filter: f} },
	})
}
