package conversations

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
)

// ActiveView is the active saved view's name ("all": the whole list).
func (m *Model) ActiveView() string { return m.views.Active() }

// RestoreView makes the saved view name the active one before the screen's first load
// (Init loads its query); an unknown name leaves "all".
func (m *Model) RestoreView(name string) { m.views.Restore(name, m.List.Preset) }

// Choices are the screen's saved views for the command palette.
func (m *Model) Choices() []common.Choice { return m.views.Choices() }

// showQuery shows q in the list (a view's, the palette's choice or a click on the row).
func (m *Model) showQuery(q listing.Query) tea.Cmd {
	m.layout()
	return m.List.SetQuery(q)
}

// arrivalMark is the mark of a view of query q in the row of views: how many of the
// arrivals not opened yet it lists ("•2"). An arrival whose place in q its fields cannot
// tell (a search, a widget, an activity date) makes it "•2+", or "•?" when no other is
// sure: never a count that may be short.
func (m *Model) arrivalMark(q listing.Query) string {
	sure, unsure := 0, 0
	for _, a := range m.List.Unseen() {
		match, known := listing.Matches(q, a.Conversation)
		switch {
		case !known:
			unsure++
		case match:
			sure++
		}
	}
	switch {
	case unsure > 0 && sure == 0:
		return "•?"
	case unsure > 0:
		return fmt.Sprintf("•%d+", sure)
	case sure > 0:
		return fmt.Sprintf("•%d", sure)
	}
	return ""
}
