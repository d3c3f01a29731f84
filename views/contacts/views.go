package contacts

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	sv "github.com/parley-tui/parley/views/savedviews"
)

// codec turns the contact list's queries into saved views and back.
var codec = sv.Codec[client.ContactFilter]{Query: viewQuery, View: queryView}

// viewQuery is the list query of a saved view.
func viewQuery(v common.SavedView) (Query, error) {
	var f client.ContactFilter
	p := sv.Params{
		"id": sv.ID(&f.ID), "email": sv.Text(&f.Email), "name": sv.Text(&f.Name),
		"to_date_time": sv.Date(&f.ToDateTime), "from_date_time": sv.Date(&f.FromDateTime),
		"verified": sv.Bool(&f.Verified), "locale": sv.Text(&f.Locale),
	}
	if err := p.Apply(v.Filters); err != nil {
		return Query{}, fmt.Errorf("view %q: %w", v.Name, err)
	}
	if v.Status != "" {
		return Query{}, fmt.Errorf("view %q: contacts have no status", v.Name)
	}
	return Query{Filter: f, Search: v.Search, Ordering: v.Ordering}, nil
}

// queryView is the saved view of a list query (without a name).
func queryView(q Query) common.SavedView {
	return common.SavedView{Screen: common.ViewsContacts, Search: q.Search, Ordering: q.Ordering,
		Filters: sv.Flat(q.Filter.Values())}
}

// ActiveView is the active saved view's name ("all": the whole list).
func (m *Model) ActiveView() string { return m.views.Active() }

// RestoreView makes the saved view name the active one before the screen's first load;
// an unknown name leaves "all".
func (m *Model) RestoreView(name string) { m.views.Restore(name, m.List.Preset) }

// Choices are the screen's saved views for the command palette.
func (m *Model) Choices() []common.Choice { return m.views.Choices() }

// showQuery shows q in the list (a view's), loading it even before the screen was first
// shown.
func (m *Model) showQuery(q Query) tea.Cmd {
	m.started = true
	if !m.wide() && m.focus != PaneList {
		m.setFocus(PaneList)
	}
	return m.List.SetQuery(q)
}
