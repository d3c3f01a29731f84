package navigation

import (
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/components/list"
)

// onClick selects the event clicked (y is the screen's line: the list starts below the
// frame's top); a click on the event already selected opens its conversation, as enter does.
func (m *Model) onClick(ms tea.Mouse) tea.Cmd {
	hit, cmd := m.l.Click(ms.Y - 1)
	if hit == list.HitSelected {
		return tea.Batch(cmd, m.open())
	}
	return cmd
}

// onWheel moves the cursor a row a step.
func (m *Model) onWheel(ms tea.Mouse) tea.Cmd { return m.l.Wheel(list.WheelStep(ms)) }
