package list

import tea "charm.land/bubbletea/v2"

// Hit is what a click on a list reached.
type Hit int

const (
	// HitNone: the header, the footer, the detail block or the room below the rows.
	HitNone Hit = iota
	// HitMoved: the cursor moved onto the row clicked.
	HitMoved
	// HitSelected: the row clicked was already under the cursor (the screen opens it, as
	// with enter).
	HitSelected
)

// Click puts the cursor on the row drawn at line y of the list (0 is its first line, as
// View lays the list out: the header, the pinned row, the rows of the window) and reports
// what it reached. A row of the gap (not loaded yet) is selected as the keys select it, and
// the page it needs is asked for (the command).
func (m *Model[R]) Click(y int) (Hit, tea.Cmd) {
	if y < 0 || y >= m.height {
		return HitNone, nil
	}
	l := m.parts()
	top := min(len(l.header), m.height-l.footer)
	if l.pinned > 0 && y >= top && y < top+l.pinned {
		if m.onPinned {
			return HitSelected, nil
		}
		m.onPinned = true
		m.win.Reset()
		return HitMoved, m.prefetch()
	}
	top += l.pinned
	if y < top || y >= top+l.rows*l.rowHeight || len(m.rows) == 0 {
		return HitNone, nil
	}
	pos := m.win.Offset + (y-top)/l.rowHeight
	if pos >= m.win.End(m.positions()) {
		return HitNone, nil
	}
	if pos == m.win.Cursor && !m.onPinned {
		return HitSelected, nil
	}
	m.onPinned = false
	m.win.Cursor = pos // in the window already: nothing scrolls
	return HitMoved, m.prefetch()
}

// Wheel moves the cursor d rows (negative: up) as the up and down keys do, onto and off the
// pinned row too, and asks for the page the rows now in view need.
func (m *Model[R]) Wheel(d int) tea.Cmd {
	switch {
	case d == 0:
		return nil
	case m.pinned != nil && m.onPinned:
		if d < 0 {
			return nil
		}
		m.onPinned = false
		m.win.Reset()
		d--
	case m.pinned != nil && d < 0 && m.win.Cursor+d < 0:
		m.onPinned = true
		m.win.Reset()
		return m.prefetch()
	}
	if d != 0 {
		m.win.Move(d, m.positions())
	}
	return m.prefetch()
}

// WheelStep is the rows one wheel message moves a list's cursor: one down or one up.
func WheelStep(ms tea.Mouse) int {
	if ms.Button == tea.MouseWheelUp {
		return -1
	}
	return 1
}
