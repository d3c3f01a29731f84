package operators

// The screen's side of its list (list.Source): the operator list it pages through, what
// arrives, the header, the footnote, and the selected operator's record below the rows.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// source is the screen's side of its list.
type source struct{ m *Model }

// Pages lists every operator (all pages) as one page, by id (the owner first), whatever
// order the API lists them in.
func (s source) Pages() list.Fetcher[Row] {
	return list.Endpoints[client.Operator, Row]{
		What: "operators", One: "operator", Row: RowFrom, ID: rowID,
		Offset: func(ctx context.Context, c *client.Client, _, _ int) (*client.Page[client.Operator], error) {
			ops, err := c.AllOperators(ctx)
			if err != nil {
				return nil, err
			}
			return &client.Page[client.Operator]{Count: len(ops), Results: ops}, nil
		},
	}
}

// Arrived drops the slots of operators that went and, unless the list came from an
// auto-refresh whose slots are not due, fetches those of the operators in view again (a
// new round).
func (s source) Arrived(l *list.Model[Row], p list.Page[Row]) tea.Cmd {
	m := s.m
	first := len(m.all) == 0
	m.all = slices.Clone(l.Rows())
	listed := make(map[int64]bool, len(m.all))
	for _, r := range m.all {
		listed[r.ID] = true
	}
	for id := range m.slots {
		if !listed[id] {
			m.dropSlots(id) // the operator went
		}
	}
	m.arrangeIn(l) // l is the list being updated, not yet m.l
	if rows := l.Rows(); first && len(rows) > 0 {
		l.Select(rows[0].ID) // a new list starts at its first row in the order asked
	}
	var chosen tea.Cmd
	if c := m.chosen; c != nil {
		m.chosen = nil
		chosen = func() tea.Msg { return *c } // once the list holds these rows
	}
	if !p.Quiet || m.slotsDue {
		m.round++
		m.slotsAt, m.slotsDue, m.autoRound = m.ctx.Now(), false, p.Quiet
		m.freshRound = m.refreshAsked && !p.Quiet
	}
	if !p.Quiet {
		m.refreshAsked = false
	}
	return tea.Batch(m.fetchSlots(l.VisibleRows()), chosen)
}

// DetailHeight is the lines of the selected operator's fields out of room, or none when
// they are not shown: the room the rows do not need, at least half of it, leaving a row.
func (s source) DetailHeight(room int, st list.Status) int {
	if !s.m.detail || room < 2 {
		return 0
	}
	return min(max(room/2, room-max(1, st.Rows)), room-1)
}

// Detail lays out the selected operator's fields.
func (s source) Detail(w, h int) []string { return s.m.detailLines(w, h) }

// RowHeight is one line an operator.
func (s source) RowHeight(int) int { return 1 }

// Stamp is what a row shows besides the operator's record and what is being done to it:
// its slots, and whether it is the operator parley acts as.
func (s source) Stamp(r *Row, _ time.Time) string {
	m := s.m
	you := ""
	if r.ID == m.SelfID() {
		you = "you"
	}
	return m.slotText(r.ID) + "|" + you
}

// Render lays out one operator.
func (s source) Render(r *Row, c list.Cell) string { return s.m.render(r, c) }

// Empty says there are no operators.
func (s source) Empty(list.Status) string {
	k := s.m.ctx.Keys
	if strings.TrimSpace(s.m.name) != "" && len(s.m.all) > 0 {
		why := list.EmptyWhy("operators", strings.TrimSpace(s.m.name), nil, k.Back.Help().Key)
		if s.m.show != ShowAll {
			why += fmt.Sprintf(" Only %s ones show (%s shows others).", s.m.show, k.Status.Help().Key)
		}
		return why
	}
	if s.m.show != ShowAll && len(s.m.all) > 0 {
		return fmt.Sprintf("No operator is %s (%s shows others).", s.m.show, k.Status.Help().Key)
	}
	return "No operators."
}

// detailLines lay out the selected operator's fields that its row leaves out, w×h, each as
// the server sent it ("—" where it sent none), then the fields of the operator, of its
// slots answer and of its last away answer that parley does not read.
func (m *Model) detailLines(w, h int) []string {
	r, ok := m.Selected()
	if !ok {
		return layout.Record(m.ctx.Styles, "Operator", nil, nil, w, h)
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(m.ctx.Now().Location()).Format("2006-01-02 15:04")
	}
	group := ""
	if r.GroupID != nil {
		group = fmt.Sprint(*r.GroupID)
	}
	bot := "no"
	if r.IsBot {
		bot = "yes"
	}
	// The row shows the rest (name, role, statuses, slots); these are what it leaves out.
	fields := []layout.Field{
		{Label: "Email", Value: r.Email},
		{Label: "Locale", Value: r.Locale},
		{Label: "Group", Value: group},
		{Label: "Bot", Value: bot},
		{Label: "Created", Value: ts(r.CreatedAt)},
		{Label: "Updated", Value: ts(r.UpdatedAt)},
	}
	// A slot use too long for the row's column (numbers of many digits) shows whole here.
	if text := m.slotText(r.ID); ansi.StringWidth(text) > slotsWidth {
		fields = append(fields, layout.Field{Label: "Slots", Value: strings.TrimPrefix(text, "slots ")})
	}
	extra := slices.Clone(r.Extra)
	for _, e := range m.slots[r.ID].extra {
		extra = append(extra, "slots: "+e)
	}
	for _, e := range r.AwayExtra {
		extra = append(extra, "away answer: "+e)
	}
	return layout.Record(m.ctx.Styles, "Operator "+r.Label(), fields, extra, w, h)
}
