package listing_test

import (
	"context"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestMatches: every filter the list's query can carry, judged from a conversation's own
// fields; what they cannot tell is not known.
func TestMatches(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ct := func(s string) *client.Time { return &client.Time{Time: at(s)} }
	op := int64(7)
	c := client.Conversation{
		ID: 500, Status: client.StatusPending, OperatorAssignedTo: &op,
		Topics:                    []client.Topic{{ID: 3, Text: "Billing"}, {ID: 9, Text: "Returns"}},
		Widget:                    client.Widget{ID: 4},
		Contact:                   client.Contact{ID: 88},
		ConversationContactUUID:   "c0ffee",
		ContactFirstMessageSentAt: ct("2025-03-01T10:00:00.123456Z"),
		ContactLastMessageSentAt:  ct("2025-03-02T10:00:00Z"),
		UpdatedAt:                 client.Time{Time: at("2025-03-03T10:00:00Z")},
	}
	unassigned := c
	unassigned.OperatorAssignedTo = nil
	noFirst := c
	noFirst.ContactFirstMessageSentAt = nil
	noUpdate := c
	noUpdate.UpdatedAt = client.Time{}

	type F = client.ConversationFilter
	cases := []struct {
		name         string
		q            listing.Query
		c            client.Conversation
		match, known bool
	}{
		{"no filter", listing.Query{}, c, true, true},
		{"ordering only", listing.Query{Ordering: "-last_message_sent_at"}, c, true, true},
		{"status same", listing.Query{Filter: F{Status: "pending"}}, c, true, true},
		{"status other", listing.Query{Filter: F{Status: "new"}}, c, false, true},
		{"status as sent, not folded", listing.Query{Filter: F{Status: "Pending"}}, c, false, true},
		{"operator same", listing.Query{Filter: F{OperatorID: 7}}, c, true, true},
		{"operator other", listing.Query{Filter: F{OperatorID: 8}}, c, false, true},
		{"operator of an unassigned one", listing.Query{Filter: F{OperatorID: 7}}, unassigned, false, true},
		{"topic among its topics", listing.Query{Filter: F{TopicID: 9}}, c, true, true},
		{"topic not among them", listing.Query{Filter: F{TopicID: 2}}, c, false, true},
		{"widget its own", listing.Query{Filter: F{WidgetID: 4}}, c, true, true},
		{"widget another: a part may have used it", listing.Query{Filter: F{WidgetID: 5}}, c, false, false},
		{"contact same", listing.Query{Filter: F{ContactIdentityID: 88}}, c, true, true},
		{"contact other", listing.Query{Filter: F{ContactIdentityID: 89}}, c, false, true},
		{"contact uuid same", listing.Query{Filter: F{ContactUUID: "c0ffee"}}, c, true, true},
		{"contact uuid other", listing.Query{Filter: F{ContactUUID: "beef"}}, c, false, true},
		{"id above the lower bound", listing.Query{Filter: F{IDGreaterThan: 499}}, c, true, true},
		{"id at the lower bound (strict)", listing.Query{Filter: F{IDGreaterThan: 500}}, c, false, true},
		{"id below the upper bound", listing.Query{Filter: F{IDLessThan: 501}}, c, true, true},
		{"id at the upper bound (strict)", listing.Query{Filter: F{IDLessThan: 500}}, c, false, true},
		{"first message from, inclusive to the microsecond", listing.Query{Filter: F{ContactFirstMessageFromDate: at("2025-03-01T10:00:00.1234569Z")}}, c, true, true},
		{"first message from, a microsecond later", listing.Query{Filter: F{ContactFirstMessageFromDate: at("2025-03-01T10:00:00.123457Z")}}, c, false, true},
		{"first message to, inclusive", listing.Query{Filter: F{ContactFirstMessageToDate: at("2025-03-01T10:00:00.123456Z")}}, c, true, true},
		{"first message to, before it", listing.Query{Filter: F{ContactFirstMessageToDate: at("2025-03-01T10:00:00Z")}}, c, false, true},
		{"first message null matches no bound", listing.Query{Filter: F{ContactFirstMessageToDate: at("2030-01-01T00:00:00Z")}}, noFirst, false, true},
		{"last message inside the range", listing.Query{Filter: F{ContactLastMessageFromDate: at("2025-03-02T00:00:00Z"), ContactLastMessageToDate: at("2025-03-02T23:59:59Z")}}, c, true, true},
		{"last message after the range", listing.Query{Filter: F{ContactLastMessageToDate: at("2025-03-02T09:59:59Z")}}, c, false, true},
		{"updated since", listing.Query{Filter: F{UpdatedAtFromDate: at("2025-03-03T10:00:00Z")}}, c, true, true},
		{"updated before the lower bound", listing.Query{Filter: F{UpdatedAtFromDate: at("2025-03-03T10:00:01Z")}}, c, false, true},
		{"updated until", listing.Query{Filter: F{UpdatedAtToDate: at("2025-03-03T09:00:00Z")}}, c, false, true},
		{"updated_at left out of the answer", listing.Query{Filter: F{UpdatedAtToDate: at("2030-01-01T00:00:00Z")}}, noUpdate, false, false},
		{"last activity cannot be told", listing.Query{Filter: F{LastActivityFromDate: at("2020-01-01T00:00:00Z")}}, c, false, false},
		{"last activity upper bound neither", listing.Query{Filter: F{LastActivityToDate: at("2030-01-01T00:00:00Z")}}, c, false, false},
		{"a search is ranked by the server", listing.Query{Search: "refund"}, c, false, false},
		{"every filter at once", listing.Query{Filter: F{Status: "pending", OperatorID: 7, TopicID: 3, WidgetID: 4,
			ContactIdentityID: 88, ContactUUID: "c0ffee", IDGreaterThan: 1, IDLessThan: 1000,
			ContactFirstMessageFromDate: at("2025-01-01T00:00:00Z"), ContactLastMessageToDate: at("2025-12-31T00:00:00Z"),
			UpdatedAtFromDate: at("2025-03-03T00:00:00Z")}}, c, true, true},
		{"a definite mismatch outweighs an unknown widget", listing.Query{Filter: F{WidgetID: 5, Status: "ended"}}, c, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			match, known := listing.Matches(tc.q, tc.c)
			if known != tc.known || known && match != tc.match {
				t.Fatalf("Matches = (%v, %v), want (%v, %v)", match, known, tc.match, tc.known)
			}
		})
	}
}

// TestMatchesAgreesWithTheSandbox: for queries with every filter Matches judges, the
// conversations it says the query lists are exactly those the sandbox lists, wherever it
// says it knows.
func TestMatchesAgreesWithTheSandbox(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	ctx := context.Background()
	all := func(f client.ConversationFilter) map[int64]client.Conversation {
		t.Helper()
		out := map[int64]client.Conversation{}
		for conv, err := range c.ConversationsAll(ctx, client.AllConversationsOptions{Filter: f}) {
			if err != nil {
				t.Fatal(err)
			}
			out[conv.ID] = conv
		}
		return out
	}
	every := all(client.ConversationFilter{})
	if len(every) < 20 {
		t.Fatalf("the sandbox has %d conversations", len(every))
	}
	// Values taken from the data, so that every filter matches some and not others.
	var sample client.Conversation
	for _, conv := range every {
		if conv.OperatorAssignedTo != nil && len(conv.Topics) > 0 && conv.ContactFirstMessageSentAt != nil && conv.Widget.ID != 0 {
			sample = conv
			break
		}
	}
	if sample.ID == 0 {
		t.Fatal("no conversation with an operator, topics, a first message and a widget")
	}
	mid := sample.UpdatedAt.Time
	first := sample.ContactFirstMessageSentAt.Time
	type F = client.ConversationFilter
	filters := []F{
		{Status: client.StatusPending}, {Status: client.StatusEnded},
		{OperatorID: *sample.OperatorAssignedTo},
		{TopicID: sample.Topics[0].ID},
		{WidgetID: sample.Widget.ID},
		{ContactIdentityID: sample.Contact.ID},
		{ContactUUID: sample.ConversationContactUUID},
		{IDGreaterThan: sample.ID}, {IDLessThan: sample.ID},
		{UpdatedAtFromDate: mid}, {UpdatedAtToDate: mid},
		{ContactFirstMessageFromDate: first}, {ContactFirstMessageToDate: first},
		{ContactLastMessageFromDate: mid.Add(-72 * time.Hour), ContactLastMessageToDate: mid},
		{Status: client.StatusEnded, UpdatedAtFromDate: mid.Add(-30 * 24 * time.Hour), OperatorID: *sample.OperatorAssignedTo},
	}
	for _, f := range filters {
		listed := all(f)
		judged := 0
		for id, conv := range every {
			match, known := listing.Matches(listing.Query{Filter: f}, conv)
			if !known {
				continue
			}
			judged++
			if _, in := listed[id]; in != match {
				t.Errorf("filter %+v: conversation %d: Matches %v, the sandbox lists it: %v", f, id, match, in)
			}
		}
		least := len(every) / 2
		if f.WidgetID != 0 {
			least = 1 // only the conversations of that widget: a part of another may have used it
		}
		if judged < least {
			t.Errorf("filter %+v: Matches judged %d of %d conversations", f, judged, len(every))
		}
	}
}
