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
	// The pane's body starts below its top border, the list below the row of saved views
	// when there is one (a click on that row selects no list row).
	top := 1
	if m.views.Shown() {
		top++
	}
	if ms.Y < top {
		if name, ok := m.views.At(m.widths()[PaneList]-2, m.List.Query(), ms.X-left-1); ok && ms.Y == 1 {
			return m.views.Show(name, m.showQuery) // a click on a view shows it, as [ and ] do
		}
		return nil
	}
	hit, cmd := m.List.Click(ms.Y - top)
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
