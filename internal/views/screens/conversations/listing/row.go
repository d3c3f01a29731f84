package listing

import (
	"strconv"
	"strings"
	"time"
	"unique"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/sanitize"
)

// Row is the compact, sanitized form of a conversation that the list keeps: what the row
// draws and what the list and its actions need, about 400 bytes instead of the full
// resource, so 12,000 rows stay under 5 MB (TestRowsStayCompact).
type Row struct {
	ID     int64
	Status string
	Name   string // contact name (sanitized, single line)
	// Email is the contact's e-mail address when the contact has no name (the row shows it
	// in the name's place); "" when it has one.
	Email               string
	Preview             string // start of the last message (sanitized, single line)
	PreviewFromOperator bool
	Unread              bool
	LastAt              time.Time
	UpdatedAt           time.Time
	OperatorID          int64    // 0 = unassigned
	Topics              []string // sanitized, for display
	TopicIDs            []int64
	ContactID           int64
	WidgetID            int64
	WidgetName          string
	// TopicTexts are the topics as the API spells them (not sanitized: never laid out). An
	// edit sends them back, so a topic the user kept stays the same topic.
	TopicTexts []string
}

const previewBytes = 240

// RowFrom builds a Row from an API conversation, sanitizing every text. The texts that
// repeat from row to row (the status, the topics, the widget's name) are interned: ten
// thousand rows share a few copies of them instead of each holding its own.
func RowFrom(c client.Conversation) Row {
	r := Row{
		ID:         c.ID,
		Status:     intern(sanitize.Line(c.Status)),
		Name:       sanitize.Line(strings.TrimSpace(client.Str(c.Contact.Name))),
		LastAt:     c.LastMessageSentAt.Time,
		UpdatedAt:  c.UpdatedAt.Time,
		Unread:     !c.MarkedReadOperator,
		ContactID:  c.Contact.ID,
		WidgetID:   c.Widget.ID,
		WidgetName: intern(sanitize.Line(c.Widget.Name)),
	}
	if r.Name == "" {
		r.Email = sanitize.Line(client.Str(c.Contact.Email))
	}
	if c.OperatorAssignedTo != nil {
		r.OperatorID = *c.OperatorAssignedTo
	}
	if c.LastMessage != nil {
		r.Preview = preview(c.LastMessage.Body)
		r.PreviewFromOperator = c.LastMessage.FromOperator()
	}
	if n := len(c.Topics); n > 0 {
		r.Topics, r.TopicIDs, r.TopicTexts = make([]string, n), make([]int64, n), make([]string, n)
		for i, t := range c.Topics {
			r.Topics[i], r.TopicIDs[i], r.TopicTexts[i] = intern(sanitize.Line(t.Text)), t.ID, intern(t.Text)
		}
	}
	return r
}

// intern is the one copy of s that every row holding the same text shares.
func intern(s string) string { return unique.Make(s).Value() }

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
