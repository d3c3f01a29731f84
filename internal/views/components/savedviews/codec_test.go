package savedviews

import (
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// A query with every filter set becomes a saved view of the API's parameters (the status
// under its own key, the server's default ordering as none) and reads back as itself.
func TestCodecRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 30, 0, 123456000, time.UTC)
	cq := list.Query[client.ConversationFilter]{Search: "refund", Ordering: "-last_message_sent_at", Filter: client.ConversationFilter{
		Status: client.StatusPending, ContactUUID: "c0ffee", OperatorID: 7, TopicID: 3, WidgetID: 4,
		ContactFirstMessageToDate: at, ContactFirstMessageFromDate: at, ContactLastMessageToDate: at,
		ContactLastMessageFromDate: at, UpdatedAtToDate: at, UpdatedAtFromDate: at, IDGreaterThan: 10,
		IDLessThan: 900, ContactIdentityID: 88, LastActivityToDate: at, LastActivityFromDate: at}}
	c := codecOf(common.ViewsConversations, client.Conversations, nobody)
	v := c.view(cq)
	if v.Status != "pending" || v.Filters["status"] != "" || len(v.Filters) != 15 ||
		v.Filters["updated_at_from_date"] != "2026-03-01T09:30:00.123456Z" || v.Filters["topics"] != "3" {
		t.Fatalf("view %+v", v)
	}
	if back, err := c.query(v); err != nil || back != cq {
		t.Fatalf("read back %+v, %v; want %+v", back, err, cq)
	}
	if v := c.view(list.Query[client.ConversationFilter]{Ordering: "-id"}); v.Ordering != "" || v.Filters != nil {
		t.Errorf("the default ordering is kept as %q (filters %v)", v.Ordering, v.Filters)
	}
	if q, err := c.query(common.SavedView{Ordering: "-id"}); err != nil || q.Ordering != "" {
		t.Errorf("a view of the default ordering reads as %+v, %v", q, err)
	}

	yes := true
	kq := list.Query[client.ContactFilter]{Ordering: "name", Filter: client.ContactFilter{ID: 5, Email: "a@b.example",
		Name: "Anna", ToDateTime: at, FromDateTime: at.Add(-time.Hour), Verified: &yes, Locale: "de_DE"}}
	k := codecOf(common.ViewsContacts, client.Contacts, nobody)
	kv := k.view(kq)
	if len(kv.Filters) != 7 || kv.Filters["verified"] != "true" || kv.Status != "" {
		t.Fatalf("view %+v", kv)
	}
	back, err := k.query(kv)
	if err != nil || back.Filter.Verified == nil || !*back.Filter.Verified || back.Filter.Name != "Anna" ||
		!back.Filter.FromDateTime.Equal(kq.Filter.FromDateTime) || back.Ordering != "name" {
		t.Fatalf("read back %+v, %v", back, err)
	}
}

// A view that is not a query of its list is refused, naming the view and what is wrong.
func TestCodecRefuses(t *testing.T) {
	c := codecOf(common.ViewsConversations, client.Conversations, nobody)
	k := codecOf(common.ViewsContacts, client.Contacts, nobody)
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(c.query(common.SavedView{Name: "a", Filters: map[string]string{"colour": "red"}})), `view "a": unknown filter "colour"`},
		{second(c.query(common.SavedView{Name: "a", Filters: map[string]string{"status": "new"}})), `view "a": unknown filter "status"`},
		{second(c.query(common.SavedView{Name: "a", Filters: map[string]string{"topics": "four"}})), `view "a": filter topics: "four" is not a positive integer id`},
		{second(c.query(common.SavedView{Name: "a", Filters: map[string]string{"updated_at_from_date": "7d"}})), `view "a": filter updated_at_from_date: "7d" is not a date`},
		{second(c.query(common.SavedView{Name: "a", Status: "fresh"})), `view "a": status: "fresh" is not new, pending or ended`},
		{second(k.query(common.SavedView{Name: "b", Status: "new"})), `view "b": contacts have no status`},
		{second(k.query(common.SavedView{Name: "b", Filters: map[string]string{"verified": "yes"}})), `view "b": filter verified: "yes" is not true or false`},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), tc.want) {
			t.Errorf("%v, want %q", tc.err, tc.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// nobody is the acting operator before parley knows who that is.
func nobody() int64 { return 0 }

// operator_id me reads as the operator parley acts as when the view is read, and is refused
// (saying why) while that is not known; an operator id is one still.
func TestCodecReadsMeAsTheActingOperator(t *testing.T) {
	me := int64(0)
	c := codecOf(common.ViewsConversations, client.Conversations, func() int64 { return me })
	mine := common.SavedView{Name: "Mine", Filters: map[string]string{"operator_id": client.OperatorMe}}
	if _, err := c.query(mine); err == nil || !strings.Contains(err.Error(), "not known yet") {
		t.Fatalf("me unknown: %v", err)
	}
	me = 2003
	if q, err := c.query(mine); err != nil || q.Filter.OperatorID != 2003 {
		t.Fatalf("me 2003: %+v, %v", q.Filter, err)
	}
	if _, err := c.query(common.SavedView{Name: "a", Filters: map[string]string{"topics": client.OperatorMe}}); err == nil {
		t.Fatal("topics: me read as an id")
	}
}
