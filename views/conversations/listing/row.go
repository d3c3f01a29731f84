package listing

import (
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/layout"
)

// Row is the compact, sanitized form of a conversation that the list keeps: a few hundred
// bytes instead of the full resource, so 10,000 rows stay small.
type Row struct {
	ID                  int64
	Status              string
	Name                string // contact name (sanitized, single line)
	Email               string
	Preview             string // start of the last message (sanitized, single line)
	PreviewFromOperator bool
	LastAt              time.Time
	UpdatedAt           time.Time
	OperatorID          int64    // 0 = unassigned
	Topics              []string // sanitized, for display
	TopicIDs            []int64
	Unread              bool
	ContactID           int64
	WidgetID            int64
	WidgetName          string
	// TopicTexts are the topics as the API spells them (not sanitized: never laid out). An
	// edit sends them back, so a topic the user kept stays the same topic.
	TopicTexts []string
}

const previewBytes = 240

// RowFrom builds a Row from an API conversation, sanitizing every text.
func RowFrom(c client.Conversation) Row {
	r := Row{
		ID:         c.ID,
		Status:     sanitize.Line(c.Status),
		Name:       sanitize.Line(strings.TrimSpace(client.Str(c.Contact.Name))),
		Email:      sanitize.Line(client.Str(c.Contact.Email)),
		LastAt:     c.LastMessageSentAt.Time,
		UpdatedAt:  c.UpdatedAt.Time,
		Unread:     !c.MarkedReadOperator,
		ContactID:  c.Contact.ID,
		WidgetID:   c.Widget.ID,
		WidgetName: sanitize.Line(c.Widget.Name),
	}
	if c.OperatorAssignedTo != nil {
		r.OperatorID = *c.OperatorAssignedTo
	}
	if c.LastMessage != nil {
		r.Preview = preview(c.LastMessage.Body)
		r.PreviewFromOperator = c.LastMessage.FromOperator()
	}
	for _, t := range c.Topics {
		r.Topics = append(r.Topics, sanitize.Line(t.Text))
		r.TopicIDs = append(r.TopicIDs, t.ID)
		r.TopicTexts = append(r.TopicTexts, t.Text)
	}
	return r
}

// preview is the first part of a message body, on one line, with runs of spaces squeezed.
func preview(body string) string {
	if len(body) > previewBytes {
		cut := previewBytes
		for cut > 0 && !utf8RuneStart(body[cut]) {
			cut--
		}
		body = body[:cut]
	}
	return strings.Join(strings.Fields(sanitize.Line(body)), " ")
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// cells is what a one-line row's cells are drawn from.
type cells struct {
	r  *Row
	st *theme.Styles
	// name, preview, operator and when are the row's texts as shown.
	name, preview, operator, when string
}

// columns lay a one-line row out (from wideRow): status, unread, name, preview, topics,
// operator, widget and age. Every one-line row names the operator and the topics. The
// name, the topics and the operator grow with the pane, each up to what it needs (names 28
// cells, topics 32, operators 20), and the preview takes the rest: at 78 columns (the list
// of an 80-column terminal) the name has 15 cells and the preview 18, at 98 (the list at
// 200 columns) 19 and 29. The widget the conversation came through (10 % of the pane, 10
// to 18 cells) comes in where the preview keeps its 29 cells, from 118 columns: there the
// name has 23 cells, the preview 29 and the widget 11.
var columns = layout.Table[cells]{Lead: 1, Columns: []layout.Column[cells]{
	{Title: "STATUS", Width: 9, Cell: statusCell},
	{Title: "•", Width: 1, Cell: unreadCell},
	{Title: "NAME", Pane: layout.Part{N: 1, D: 5}, Min: 12, Max: 28, Cell: func(c cells, w int) string {
		return c.st.Bold.Render(layout.Pad(c.name, w))
	}},
	// The preview keeps 29 cells (what it has at 98) before the widget comes in.
	{Title: "LAST MESSAGE", Rest: true, Min: 29, Cell: func(c cells, w int) string { return layout.Pad(c.preview, w) }},
	{Title: "TOPICS", Pane: layout.Part{N: 1, D: 7}, Min: 10, Max: 32, Cell: func(c cells, w int) string {
		return c.st.Topic.Render(layout.Pad(topicsCell(c.r.Topics, w), w))
	}},
	{Title: "OPERATOR", Pane: layout.Part{N: 1, D: 8}, Min: 10, Max: 20, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.Pad(c.operator, w))
	}},
	{Title: "WIDGET", Pane: layout.Part{N: 1, D: 10}, Min: 10, Max: 18, Drop: 1, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.Pad(widgetName(c.r), w))
	}},
	{Title: "AGE", Width: 6, Right: true, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.PadLeft(c.when, w))
	}},
}}

// statusCell is the status as a symbol and a word.
func statusCell(c cells, w int) string {
	sym, word := layout.StatusSymbol(c.r.Status)
	return layout.StatusStyle(c.st, c.r.Status).Render(layout.Pad(sym+" "+word, w))
}

// unreadCell marks an unread conversation.
func unreadCell(c cells, _ int) string {
	if c.r.Unread {
		return c.st.Unread.Render("•")
	}
	return " "
}

// widgetName names the conversation's widget: its name, its number when the answer named
// none, "—" when it had no widget.
func widgetName(r *Row) string {
	switch {
	case r.WidgetName != "":
		return r.WidgetName
	case r.WidgetID != 0:
		return "#" + strconv.FormatInt(r.WidgetID, 10)
	}
	return "—"
}
