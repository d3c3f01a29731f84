package listing

import (
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
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
