package conversations

import (
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// WheelLines is how many lines one wheel step scrolls the thread and the detail (a list
// moves its cursor one row a step).
const WheelLines = 3

// paneAt is the pane View draws at column x, and that pane's left column.
func (m *Model) paneAt(x int) (Pane, int, bool) { return layout.PaneAt(x, m.visible(), m.widths()) }

// onClick takes a left press at x, y of the screen: the pane there gets the focus, as tab
// gives it; in the list the row clicked is selected, and a click on the row already
// selected in the focused list opens it, as enter does.
func (m *Model) onClick(ms tea.Mouse) tea.Cmd {
	p, left, ok := m.paneAt(ms.X)
	if !ok || ms.Y < 0 || ms.Y >= m.height {
		return nil
	}
	from := m.focus
	if p != from {
		m.setFocus(p)
	}
	if p != PaneList {
		return m.leave(from)
	}
	before := m.selectedID()
	view, line, inList := m.views.ClickAt(m.widths()[PaneList], ms.X-left, ms.Y, m.List.Query())
	if !inList {
		if view != "" {
			return tea.Batch(m.leave(from), m.views.Show(view, m.showQuery)) // a click on a view shows it, as [ and ] do
		}
		return m.leave(from)
	}
	hit, cmd := m.List.Click(line)
	if hit == list.HitSelected && from == PaneList {
		m.setFocus(PaneMessages)
		return tea.Batch(cmd, m.openSelected())
	}
	return tea.Batch(cmd, m.afterMove(before), m.leave(from))
}

// onWheel scrolls the pane under the pointer, focused or not: the list moves its cursor
// (the row then rests and opens as after a key), the thread scrolls and asks for older
// messages as its keys do, the detail scrolls.
func (m *Model) onWheel(ms tea.Mouse) tea.Cmd {
	p, _, ok := m.paneAt(ms.X)
	if !ok || ms.Y < 0 || ms.Y >= m.height {
		return nil
	}
	d := list.WheelStep(ms)
	switch p {
	case PaneList:
		before := m.selectedID()
		return tea.Batch(m.List.Wheel(d), m.afterMove(before))
	case PaneMessages:
		return m.Msgs.Wheel(d * WheelLines)
	default:
		return m.Detail.Wheel(d * WheelLines)
	}
}
