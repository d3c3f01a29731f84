package operators

// The columns of an operator's row, their titles, and a row drawn in them.

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/views/layout"
	"github.com/parley-tui/parley/views/list"
)

// wideRow is the inner width from which email and locale get their own columns.
const wideRow = 100

// cols holds the column widths for the current width.
type cols struct {
	w                          int
	away, online, name, disp   int
	role, slots, email, locale int
}

func columns(w int) cols {
	l := cols{w: w, away: 12, online: 7, role: 6, slots: 11}
	if w >= wideRow {
		l.locale = 6
		l.email = min(40, max(16, w/5))
	}
	fixed := 1 + l.away + 1 + l.online + 1 + 1 + 1 + l.role + 1 + l.slots // name and display name flex
	if l.email > 0 {
		fixed += l.email + 1 + l.locale + 1
	}
	flex := max(2, w-fixed)
	l.name = min(32, flex*60/100)
	l.disp = min(24, flex-l.name)
	if l.email > 0 {
		// What is left goes to the email column, up to 48 cells (the longest addresses);
		// past that the line ends in blanks rather than spreading the columns apart.
		l.email = min(max(l.email, 48), l.email+flex-l.name-l.disp)
	} else {
		l.disp = flex - l.name
	}
	return l
}

// line joins one line's cells, each as wide as its column already, in the columns' order:
// status, online, name, display name, email and locale (only when the columns have them),
// role, slots.
func (l cols) line(status, online, name, disp, email, locale, role, slots string) string {
	cells := []string{status, online, name, disp}
	if l.email > 0 {
		cells = append(cells, email, locale)
	}
	return strings.Join(append(cells, role, slots), " ")
}

func (l cols) titles() string {
	return " " + l.line(layout.Pad("STATUS", l.away), layout.Pad("ONLINE", l.online), layout.Pad("NAME", l.name),
		layout.Pad("DISPLAY NAME", l.disp), layout.Pad("EMAIL", l.email), layout.Pad("LOCALE", l.locale),
		layout.Pad("ROLE", l.role), layout.Pad("SLOTS", l.slots-1))
}

// render lays out one operator; styled=false gives plain text for the selection highlight.
func (m *Model) render(r *Row, c list.Cell) string {
	st := m.ctx.Styles
	paint := layout.PaintIf(c.Styled)
	l := columns(c.Width)
	statusStyle := st.Muted
	if r.IsAway.Known {
		statusStyle = st.StatusNew
		if r.IsAway.V {
			statusStyle = st.StatusPending
		}
	}
	status := paint(layout.Pad(AwayText(r.IsAway), l.away), statusStyle)
	if what := c.Busy; what != "" {
		status = paint(layout.Pad("… "+what, l.away), st.Loading)
	}
	onlineStyle := st.Muted
	if r.IsOnline.Known && r.IsOnline.V {
		onlineStyle = st.Success
	}
	online := paint(layout.Pad(OnlineText(r.IsOnline), l.online), onlineStyle)
	name := r.Name
	if name == "" {
		name = "(no name)"
	}
	tags := ""
	if r.IsBot {
		tags += " [bot]"
	}
	if r.ID == m.SelfID() {
		tags += " (you)"
	}
	nameStyle := st.Bold
	if r.IsBot {
		nameStyle = st.BotName
	}
	// Cut the name, not the tags: "(you)" and "[bot]" must stay visible.
	if tw := lipgloss.Width(tags); lipgloss.Width(name)+tw > l.name && l.name > tw+3 {
		name = ansi.Truncate(name, l.name-tw, "…")
	}
	nameCell := layout.Pad(paint(name, nameStyle)+paint(tags, st.Accent), l.name)
	email, locale := "", ""
	if l.email > 0 {
		email, locale = paint(layout.Pad(r.Email, l.email), st.Muted), paint(layout.Pad(r.Locale, l.locale), st.Muted)
	}
	role := paint(layout.Pad(layout.OrDash(r.Role), l.role), st.Muted)
	slots := layout.Pad(m.slotText(r.ID), l.slots-1) // left-aligned: "slots" lines up under its title
	return layout.Fit(c.Mark+l.line(status, online, nameCell, layout.Pad(r.DisplayName, l.disp), email, locale, role, slots), c.Width)
}
