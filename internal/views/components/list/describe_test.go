package list_test

import (
	"slices"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// The header's words for the filters set, in the declared order: names for ids where
// known, dates as the forms write them, choices by their words, texts sanitized; the
// status is left to the header.
func TestDescribe(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	names := func(resource string, id int64) string {
		if resource == "topic" && id == 3 {
			return "Billing"
		}
		return ""
	}
	got := list.Describe(client.Conversations, client.ConversationFilter{Status: "new", OperatorID: 7, TopicID: 3, WidgetID: 4,
		ContactUUID: "c0\x1bffee", IDGreaterThan: 10, UpdatedAtFromDate: day, LastActivityToDate: day.Add(90 * time.Minute)}, names)
	want := []string{"assigned to 7", "topic:Billing", "widget:4", "uuid:c0␛ffee", "id>10", "updated≥2026-03-01", "activity≤2026-03-01 01:30"}
	if !slices.Equal(got, want) {
		t.Errorf("conversations: %q\nwant %q", got, want)
	}
	no := false
	got = list.Describe(client.Contacts, client.ContactFilter{Name: "Anna", Email: "a@b.example", Verified: &no, Locale: "de_DE"}, nil)
	want = []string{`name:"Anna"`, "email:a@b.example", "locale:de_DE", "unverified"}
	if !slices.Equal(got, want) {
		t.Errorf("contacts: %q\nwant %q", got, want)
	}
}
