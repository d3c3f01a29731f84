package conversations

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/conversations/listing"
	sv "github.com/parley-tui/parley/views/savedviews"
)

// codec turns the conversation list's queries into saved views and back.
var codec = sv.Codec[client.ConversationFilter]{Query: viewQuery, View: queryView}

// viewQuery is the list query of a saved view.
func viewQuery(v common.SavedView) (listing.Query, error) {
	var f client.ConversationFilter
	p := sv.Params{
		"contact_uuid": sv.Text(&f.ContactUUID), "operator_id": sv.ID(&f.OperatorID),
		"topics": sv.ID(&f.TopicID), "um_widget_id": sv.ID(&f.WidgetID),
		"contact_first_message_to_date":   sv.Date(&f.ContactFirstMessageToDate),
		"contact_first_message_from_date": sv.Date(&f.ContactFirstMessageFromDate),
		"contact_last_message_to_date":    sv.Date(&f.ContactLastMessageToDate),
		"contact_last_message_from_date":  sv.Date(&f.ContactLastMessageFromDate),
		"updated_at_to_date":              sv.Date(&f.UpdatedAtToDate),
		"updated_at_from_date":            sv.Date(&f.UpdatedAtFromDate),
		"id__gt":                          sv.ID(&f.IDGreaterThan), "id__lt": sv.ID(&f.IDLessThan),
		"contact_identity_id":     sv.ID(&f.ContactIdentityID),
		"last_activity_to_date":   sv.Date(&f.LastActivityToDate),
		"last_activity_from_date": sv.Date(&f.LastActivityFromDate),
	}
	if err := p.Apply(v.Filters); err != nil {
		return listing.Query{}, fmt.Errorf("view %q: %w", v.Name, err)
	}
	f.Status = v.Status
	q := listing.Query{Filter: f, Search: v.Search, Ordering: v.Ordering}
	if q.Ordering == listing.DefaultOrdering {
		q.Ordering = ""
	}
	return q, nil
}

// queryView is the saved view of a list query (without a name).
func queryView(q listing.Query) common.SavedView {
	o := q.Ordering
	if o == listing.DefaultOrdering {
		o = ""
	}
	return common.SavedView{Screen: common.ViewsConversations, Status: q.Filter.Status, Search: q.Search,
		Ordering: o, Filters: sv.Flat(q.Filter.Values(), "status")}
}

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
