package ui

import (
	"maps"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
)

// State is what parley restores at its next start: the screen shown, each list screen's
// active saved view and the analytics query. The state file keeps it as JSON.
type State struct {
	Screen    string            `json:"screen,omitempty"`
	Views     map[string]string `json:"views,omitempty"`
	Analytics *analytics.State  `json:"analytics,omitempty"`
}

// State is the state to keep now.
func (a *App) State() State {
	s := State{Screen: a.shown().name}
	for i, sc := range a.route.Screens {
		switch sc := sc.(type) {
		case common.ViewHolder:
			if s.Views == nil {
				s.Views = map[string]string{}
			}
			s.Views[a.specs[i].name] = sc.ActiveView()
		case *analytics.Model:
			st := sc.State()
			s.Analytics = &st
		}
	}
	return s
}

// restore takes back a State before the first Init: the screens' views and the analytics
// query, and the active screen (shown, and so loaded, by Init). Unknown names are left out.
func (a *App) restore(s *State) {
	if s == nil {
		return
	}
	for i, sc := range a.route.Screens {
		name := a.specs[i].name
		switch sc := sc.(type) {
		case common.ViewHolder:
			if view, ok := s.Views[name]; ok {
				sc.RestoreView(view)
			}
		case *analytics.Model:
			if s.Analytics != nil {
				sc.Restore(*s.Analytics)
			}
		}
		if s.Screen != "" && name == s.Screen {
			a.route.Active = i
		}
	}
	a.saved = a.State()
}

// focusRestored shows the restored screen at start-up: a screen that loads when first
// shown (contacts, analytics) loads then. Nothing for the first screen, which loads in Init.
func (a *App) focusRestored() tea.Cmd {
	if a.route.Active == 0 {
		return nil
	}
	return a.Screen().Focus()
}

// saveState writes the state (Options.SaveState, in a command) when it changed since the
// last write: after keys, which change the screen, the views and the analytics query.
// The program's end writes it once more (cli), so a change made otherwise is kept too.
func (a *App) saveState() tea.Cmd {
	save := a.opts.SaveState
	if save == nil {
		return nil
	}
	s := a.State()
	if sameState(s, a.saved) {
		return nil
	}
	a.saved = s
	return func() tea.Msg {
		save(s)
		return nil
	}
}

func sameState(x, y State) bool {
	if x.Screen != y.Screen || !maps.Equal(x.Views, y.Views) || (x.Analytics == nil) != (y.Analytics == nil) {
		return false
	}
	if x.Analytics == nil {
		return true
	}
	p, q := *x.Analytics, *y.Analytics
	ids := func(a, b []int64) bool { return slices.Equal(a, b) }
	return ids(p.Orgs, q.Orgs) && ids(p.Widgets, q.Widgets) && ids(p.Ops, q.Ops) && ids(p.Groups, q.Groups) &&
		p.Metric == q.Metric && p.Range == q.Range && p.From.Equal(q.From) && p.To.Equal(q.To) &&
		p.WithTime == q.WithTime && p.Mode == q.Mode && p.Chart == q.Chart && p.Split == q.Split && p.View == q.View
}
