package contacts

import (
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
)

// FilterForm is the `f` modal with the 7 contact filters (client.Contacts); applying it
// sends a FilterMsg.
func (m List) FilterForm() common.Modal {
	return forms.Filter(m.ctx, client.Contacts, m.Query().Filter, forms.FilterOptions[client.ContactFilter]{
		Title: "Filter contacts",
		Width: 64,
		Hint:  forms.Hint(m.ctx, "applies"),
		Send:  func(f client.ContactFilter) tea.Msg { return FilterMsg{Filter: f} },
	})
}
