package listing

import "github.com/parley-tui/parley/client"

// Matches judges, from the conversation's own fields, whether the API would list c for
// query q, by each filter's rule in client.Conversations (as the sandbox and
// docs/api-notes.md read the filters): status compared as sent, the operator assigned, a
// topic among its topics, its widget, its contact (by id and by the conversation contact
// UUID), the id bounds (strict), and the date bounds, inclusive at both ends, against the
// timestamps the API sends (a null one matches no bound).
//
// known is false when the fields cannot tell: a search (ranked by the server), a
// last_activity bound (the conversation carries no such time), a widget other than the
// conversation's own (a part may have used the widget asked for; lists carry no parts), or
// a timestamp the answer left out. match is meaningful only when known.
func Matches(q Query, c client.Conversation) (match, known bool) {
	if q.Search != "" {
		return false, false
	}
	return client.Conversations.Match(q.Filter, c)
}
