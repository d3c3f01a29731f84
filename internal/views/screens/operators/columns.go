package operators

// The columns of an operator's row, their titles, and a row drawn in them.

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// wideRow is the inner width from which email and locale get their own columns.
const wideRow = 100

// slotsWidth is the slots column's width: a longer slot use shows whole in the detail.
const slotsWidth = 10

// cells is what an operator's cells are drawn from.
type cells struct {
	m    *Model
	r    *Row
	busy string // what is being done to the operator ("" = nothing)
	st   *theme.Styles
}

// columns lay an operator out: away status, online, name, display name, then from wideRow
// the email and locale, role and slots. The name takes 60 % of what the fixed columns
// leave (at most 32 cells) and the display name the rest; from wideRow the display name
// takes at most 24 and what is left goes to the email column, up to 48 cells (the longest
// addresses): past that the line ends in blanks rather than spreading the columns apart.
var columns = layout.Table[cells]{Lead: 1, MinFlex: 2, Columns: []layout.Column[cells]{
	{Title: "STATUS", Width: 12, Cell: func(c cells, w int) string {
		if c.busy != "" {
			return c.st.Loading.Render(layout.Pad("… "+c.busy, w))
		}
		style := c.st.Muted
		if c.r.IsAway.Known {
			style = c.st.StatusNew
			if c.r.IsAway.V {
				style = c.st.StatusPending
			}
		}
		return style.Render(layout.Pad(AwayText(c.r.IsAway), w))
	}},
	{Title: "ONLINE", Width: 7, Cell: func(c cells, w int) string {
		style := c.st.Muted
		if c.r.IsOnline.Known && c.r.IsOnline.V {
			style = c.st.Success
		}
		return style.Render(layout.Pad(OnlineText(c.r.IsOnline), w))
	}},
	{Title: "NAME", Flex: layout.Part{N: 60, D: 100}, Max: 32, Cell: nameCell},
	{Title: "DISPLAY NAME", Rest: true, Until: wideRow, Cell: displayNameCell},
	{Title: "DISPLAY NAME", Grow: 24, From: wideRow, Cell: displayNameCell},
	{Title: "EMAIL", Pane: layout.Part{N: 1, D: 5}, Min: 16, Max: 40, Grow: 48, From: wideRow, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.Pad(c.r.Email, w))
	}},
	{Title: "LOCALE", Width: 6, From: wideRow, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.Pad(c.r.Locale, w)) }},
	{Title: "ROLE", Width: 6, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.Pad(layout.OrDash(c.r.Role), w)) }},
	// Left-aligned: "slots" lines up under its title.
	{Title: "SLOTS", Width: slotsWidth, Cell: func(c cells, w int) string { return layout.Pad(c.m.slotText(c.r.ID), w) }},
}}

// nameCell is the operator's name with its tags: [bot], and (you) for the operator parley
// acts as. The name is cut, not the tags: they stay visible.
func nameCell(c cells, w int) string {
	name := c.r.Name
	if name == "" {
		name = "(no name)"
	}
	tags := ""
	if c.r.IsBot {
		tags += " [bot]"
	}
	if c.r.ID == c.m.SelfID() {
		tags += " (you)"
	}
	nameStyle := c.st.Bold
	if c.r.IsBot {
		nameStyle = c.st.BotName
	}
	if tw := lipgloss.Width(tags); lipgloss.Width(name)+tw > w && w > tw+3 {
		name = ansi.Truncate(name, w-tw, "…")
	}
	return layout.Pad(nameStyle.Render(name)+c.st.Accent.Render(tags), w)
}

func displayNameCell(c cells, w int) string { return layout.Pad(c.r.DisplayName, w) }

// titles are the column titles at pane width w.
func titles(w int) string {
	return columns.Header(w)
}

// render lays out one operator.
func (m *Model) render(r *Row, c list.Cell) string {
	return columns.Line(c.Mark, cells{m: m, r: r, busy: c.Busy, st: m.ctx.Styles}, c.Width)
}
