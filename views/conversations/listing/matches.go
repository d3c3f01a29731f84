package listing

import (
	"slices"
	"time"

	"github.com/parley-tui/parley/client"
)

// Matches judges, from the conversation's own fields, whether the API would list c for
// query q, as the sandbox and docs/api-notes.md read the filters: status compared as sent,
// the operator assigned, a topic among its topics, its widget, its contact (by id and by
// the conversation contact UUID), the id bounds (strict), and the date bounds, inclusive at
// both ends, against the timestamps the API sends (a null one matches no bound).
//
// known is false when the fields cannot tell: a search (ranked by the server), a
// last_activity bound (the conversation carries no such time), a widget other than the
// conversation's own (a part may have used the widget asked for; lists carry no parts), or
// a timestamp the answer left out. match is meaningful only when known.
func Matches(q Query, c client.Conversation) (match, known bool) {
	f := q.Filter
	if q.Search != "" || !f.LastActivityFromDate.IsZero() || !f.LastActivityToDate.IsZero() {
		return false, false
	}
	no := func() (bool, bool) { return false, true }
	if f.Status != "" && c.Status != f.Status {
		return no()
	}
	if f.OperatorID != 0 && (c.OperatorAssignedTo == nil || *c.OperatorAssignedTo != f.OperatorID) {
		return no()
	}
	if f.TopicID != 0 && !slices.ContainsFunc(c.Topics, func(t client.Topic) bool { return t.ID == f.TopicID }) {
		return no()
	}
	if f.ContactIdentityID != 0 && c.Contact.ID != f.ContactIdentityID {
		return no()
	}
	if f.ContactUUID != "" && c.ConversationContactUUID != f.ContactUUID {
		return no()
	}
	if f.IDGreaterThan != 0 && c.ID <= f.IDGreaterThan || f.IDLessThan != 0 && c.ID >= f.IDLessThan {
		return no()
	}
	bounds := []struct {
		at       *client.Time
		nullable bool
		from, to time.Time
	}{
		{c.ContactFirstMessageSentAt, true, f.ContactFirstMessageFromDate, f.ContactFirstMessageToDate},
		{c.ContactLastMessageSentAt, true, f.ContactLastMessageFromDate, f.ContactLastMessageToDate},
		{&c.UpdatedAt, false, f.UpdatedAtFromDate, f.UpdatedAtToDate},
	}
	unknown := false
	for _, b := range bounds {
		if b.from.IsZero() && b.to.IsZero() {
			continue
		}
		switch {
		case b.at == nil && b.nullable:
			return no() // null: before or after nothing
		case b.at == nil || b.at.IsZero():
			unknown = true // not in the answer: only the server can tell
			continue
		}
		if !inRange(b.at.Time, b.from, b.to) {
			return no()
		}
	}
	if f.WidgetID != 0 && c.Widget.ID != f.WidgetID {
		unknown = true // a part of it may have gone through that widget
	}
	if unknown {
		return false, false
	}
	return true, true
}

// inRange reports whether t is within [from, to] (a zero bound is open), the bounds taken
// to the microsecond, as the client sends them.
func inRange(t, from, to time.Time) bool {
	if !from.IsZero() && t.Before(from.Truncate(time.Microsecond)) {
		return false
	}
	if !to.IsZero() && t.After(to.Truncate(time.Microsecond)) {
		return false
	}
	return true
}
