package forms

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// boxTop is the box's lines above the form: the border, the title and a blank line (View).
const boxTop = 3

// click focuses the field drawn at the line clicked (ms is relative to the box). huh has
// no mouse support, so the field is found from the form's own layout: the focused field is
// located in the form's view by its own lines, and the fields before and after it follow at
// their heights, apart by the theme's field separator. The focus moves there with huh's own
// moves, field by field, as tab and shift+tab move it (a field left is validated as it is
// by tab). A click between two fields, on the group's title, on the help or below the form
// leaves the focus where it was (huh's moves there and back), and so does any click while
// the form saves, asks a question or waits for a focus move to end.
func (m *Modal) click(ms tea.Mouse) tea.Cmd {
	if m.holding || m.confirming || m.asking != "" || m.submitting || m.closed {
		return nil
	}
	f := m.focused()
	if f == nil {
		return nil
	}
	lines := strings.Split(drawn(m.form.View()), "\n")
	y := ms.Y - boxTop
	if y < 0 || y >= len(lines) {
		return nil
	}
	top, ok := drawnAt(lines, f.View())
	if !ok {
		return nil
	}
	gap := m.fieldGap()
	h := heightOf(f.View())
	steps := 0 // fields moved over: forward when positive
	switch {
	case y >= top && y < top+h:
		return nil // the focused field
	case y >= top+h:
		for y >= top+h+gap {
			before := m.focused()
			_ = m.form.NextField()
			after := m.focused()
			if after == nil || after == before {
				break // the group's last field
			}
			if after.Skip() {
				_ = m.form.PrevField()
				break
			}
			steps++
			top += h + gap
			h = heightOf(after.View())
		}
	default:
		for y < top-gap {
			before := m.focused()
			_ = m.form.PrevField()
			after := m.focused()
			if after == nil || after == before || after.Skip() {
				break // the group's first field
			}
			steps--
			h = heightOf(after.View())
			top -= gap + h
		}
	}
	if y < top || y >= top+h {
		// Between two fields, on the group's title, below the last field: back to where
		// the focus was.
		for ; steps > 0; steps-- {
			_ = m.form.PrevField()
		}
		for ; steps < 0; steps++ {
			_ = m.form.NextField()
		}
	}
	if steps == 0 && m.focused() == f {
		return m.refocus() // huh may have blurred it trying to move on
	}
	m.recheck(true)
	return m.refocus()
}

// fieldGap is the blank lines the theme puts between two fields of a group.
func (m *Modal) fieldGap() int {
	sep := m.theme().Theme(m.ctx.Styles.Dark).FieldSeparator.Render()
	return max(0, strings.Count(sep, "\n")-1)
}

// heightOf is the lines of a field's view.
func heightOf(view string) int { return strings.Count(view, "\n") + 1 }

// drawnAt is the line of lines where the field drawn as view starts: its lines appear there
// in order (each within its line of the form, which may indent it).
func drawnAt(lines []string, view string) (int, bool) {
	field := strings.Split(drawn(view), "\n")
	first := strings.TrimRight(field[0], " ")
	if strings.TrimSpace(ansi.Strip(first)) == "" {
		return 0, false
	}
	for i, l := range lines {
		if !strings.Contains(l, first) {
			continue
		}
		same := true
		for j := 1; j < len(field) && i+j < len(lines); j++ {
			if !strings.Contains(lines[i+j], strings.TrimRight(field[j], " ")) {
				same = false
				break
			}
		}
		if same {
			return i, true
		}
	}
	return 0, false
}
