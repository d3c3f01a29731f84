package contacts

import (
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// paneAt is the pane View draws at column x, and that pane's left column.
func (m *Model) paneAt(x int) (Pane, int, bool) { return layout.PaneAt(x, m.visible(), m.widths()) }

// onClick focuses the pane clicked (x, y of the screen), as tab does; in the list it
// selects the contact clicked, and a click on the contact already selected in the focused
// list opens it, as enter does.
func (m *Model) onClick(ms tea.Mouse) tea.Cmd {
	p, left, ok := m.paneAt(ms.X)
	if !ok {
		return nil
	}
	from := m.focus
	if p != from {
		m.setFocus(p)
	}
	if p != PaneList {
		return nil
	}
	view, line, inList := m.views.ClickAt(m.widths()[PaneList], ms.X-left, ms.Y, m.List.Query())
	if !inList {
		if view != "" {
			return m.views.Show(view, m.showQuery) // a click on a view shows it, as [ and ] do
		}
		return nil
	}
	hit, cmd := m.List.Click(line)
	if hit == list.HitSelected && from == PaneList {
		return tea.Batch(cmd, m.open())
	}
	return cmd
}

// onWheel moves the list's cursor when the pointer is over the list.
func (m *Model) onWheel(ms tea.Mouse) tea.Cmd {
	if p, _, ok := m.paneAt(ms.X); !ok || p != PaneList {
		return nil
	}
	return m.List.Wheel(list.WheelStep(ms))
}
