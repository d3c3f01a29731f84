package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"
)

var (
	berlin = time.FixedZone("CET", 3600)
	tokyo  = time.FixedZone("JST", 9*3600)
)

// conversationFilterCases: every conversation filter of the spec with its parameter name and
// encoded value. Times are given in other zones and must go out as RFC 3339 UTC.
var conversationFilterCases = []struct {
	param string
	value string
	set   func(*ConversationFilter)
}{
	{"contact_uuid", "5f0c6c2e-8d1b-4c59-9b7e-2d3f4a5b6c7d", func(f *ConversationFilter) { f.ContactUUID = "5f0c6c2e-8d1b-4c59-9b7e-2d3f4a5b6c7d" }},
	{"operator_id", "3", func(f *ConversationFilter) { f.OperatorID = 3 }},
	{"status", "pending", func(f *ConversationFilter) { f.Status = StatusPending }},
	{"topics", "5", func(f *ConversationFilter) { f.TopicID = 5 }},
	{"um_widget_id", "31", func(f *ConversationFilter) { f.WidgetID = 31 }},
	{"contact_first_message_to_date", "2024-03-01T09:00:00.000000Z", func(f *ConversationFilter) {
		f.ContactFirstMessageToDate = time.Date(2024, 3, 1, 10, 0, 0, 0, berlin)
	}},
	{"contact_first_message_from_date", "2024-02-29T15:30:00.000000Z", func(f *ConversationFilter) {
		f.ContactFirstMessageFromDate = time.Date(2024, 3, 1, 0, 30, 0, 0, tokyo)
	}},
	{"contact_last_message_to_date", "2024-03-02T00:00:00.250000Z", func(f *ConversationFilter) {
		f.ContactLastMessageToDate = time.Date(2024, 3, 2, 0, 0, 0, 250_000_000, time.UTC)
	}},
	{"contact_last_message_from_date", "2023-12-31T23:00:00.000000Z", func(f *ConversationFilter) {
		f.ContactLastMessageFromDate = time.Date(2024, 1, 1, 0, 0, 0, 0, berlin)
	}},
	{"updated_at_to_date", "2024-03-05T12:00:00.123456Z", func(f *ConversationFilter) {
		f.UpdatedAtToDate = time.Date(2024, 3, 5, 12, 0, 0, 123_456_789, time.UTC)
	}},
	{"updated_at_from_date", "2024-03-04T12:00:00.000000Z", func(f *ConversationFilter) {
		f.UpdatedAtFromDate = time.Date(2024, 3, 4, 13, 0, 0, 0, berlin)
	}},
	{"id__gt", "100", func(f *ConversationFilter) { f.IDGreaterThan = 100 }},
	{"id__lt", "200", func(f *ConversationFilter) { f.IDLessThan = 200 }},
	{"contact_identity_id", "88", func(f *ConversationFilter) { f.ContactIdentityID = 88 }},
	{"last_activity_to_date", "2024-03-06T00:00:00.000000Z", func(f *ConversationFilter) {
		f.LastActivityToDate = time.Date(2024, 3, 6, 9, 0, 0, 0, tokyo)
	}},
	{"last_activity_from_date", "2024-03-03T07:08:09.000000Z", func(f *ConversationFilter) {
		f.LastActivityFromDate = time.Date(2024, 3, 3, 7, 8, 9, 0, time.UTC)
	}},
}

var contactFilterCases = []struct {
	param string
	value string
	set   func(*ContactFilter)
}{
	{"id", "88", func(f *ContactFilter) { f.ID = 88 }},
	{"email", "jane+shop@example.com", func(f *ContactFilter) { f.Email = "jane+shop@example.com" }},
	{"name", "Jane Roe", func(f *ContactFilter) { f.Name = "Jane Roe" }},
	{"to_date_time", "2024-03-01T09:00:00.000000Z", func(f *ContactFilter) { f.ToDateTime = time.Date(2024, 3, 1, 10, 0, 0, 0, berlin) }},
	{"from_date_time", "2024-02-01T00:00:00.000000Z", func(f *ContactFilter) { f.FromDateTime = time.Date(2024, 2, 1, 9, 0, 0, 0, tokyo) }},
	{"verified", "false", func(f *ContactFilter) { f.Verified = ptr(false) }},
	{"locale", "de_DE", func(f *ContactFilter) { f.Locale = "de_DE" }},
}

func TestConversationFiltersEachAlone(t *testing.T) {
	if len(conversationFilterCases) != 16 {
		t.Fatalf("%d conversation filter cases, the spec has 16", len(conversationFilterCases))
	}
	if !(ConversationFilter{}).IsZero() || len((ConversationFilter{}).Values()) != 0 {
		t.Error("the zero filter is not zero or encodes something")
	}
	for _, fc := range conversationFilterCases {
		var f ConversationFilter
		fc.set(&f)
		if f.IsZero() {
			t.Errorf("%s: IsZero with the filter set", fc.param)
		}
		want := url.Values{fc.param: {fc.value}}
		if got := f.Values(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Values() = %v, want %v", fc.param, got, want)
		}
	}
}

func TestContactFiltersEachAlone(t *testing.T) {
	if len(contactFilterCases) != 7 {
		t.Fatalf("%d contact filter cases, the spec has 7", len(contactFilterCases))
	}
	if !(ContactFilter{}).IsZero() || len((ContactFilter{}).Values()) != 0 {
		t.Error("the zero filter is not zero or encodes something")
	}
	for _, fc := range contactFilterCases {
		var f ContactFilter
		fc.set(&f)
		if f.IsZero() {
			t.Errorf("%s: IsZero with the filter set", fc.param)
		}
		want := url.Values{fc.param: {fc.value}}
		if got := f.Values(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Values() = %v, want %v", fc.param, got, want)
		}
	}
	f := ContactFilter{Verified: ptr(true)}
	if got := f.Values().Get("verified"); got != "true" {
		t.Errorf("verified = %q, want true", got)
	}
}

// TestFiltersCombined sends all filters at once on every endpoint that takes them (list,
// delete, all) and checks the exact query.
func TestFiltersCombined(t *testing.T) {
	var cf ConversationFilter
	wantConv := url.Values{}
	for _, fc := range conversationFilterCases {
		fc.set(&cf)
		wantConv.Set(fc.param, fc.value)
	}
	var kf ContactFilter
	wantContact := url.Values{}
	for _, fc := range contactFilterCases {
		fc.set(&kf)
		wantContact.Set(fc.param, fc.value)
	}
	with := func(base url.Values, kv ...string) url.Values {
		out := url.Values{}
		for k, v := range base {
			out[k] = slices.Clone(v)
		}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}

	cases := []struct {
		name   string
		call   func(c *Client) error
		method string
		path   string
		query  url.Values
	}{
		{"conversations list", func(c *Client) error {
			_, err := c.ListConversations(bg(), ConversationListOptions{Filter: cf, ListOptions: ListOptions{ExcludeIDs: []int64{4, 5, 6}}})
			return err
		}, "GET", "/api/um/v3/conversations/", with(wantConv, "exclude_ids", "4,5,6")},
		{"conversations delete", func(c *Client) error {
			return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{Filter: cf, DeleteIDs: []int64{1, 2, 3}, ExcludeIDs: []int64{2}})
		}, "DELETE", "/api/um/v3/conversations/", with(wantConv, "delete_ids", "1,2,3", "exclude_ids", "2")},
		{"conversations all", func(c *Client) error {
			_, err := c.ConversationsAllPage(bg(), AllConversationsOptions{Filter: cf})
			return err
		}, "GET", "/api/um/v3/conversations/all/", wantConv},
		{"contacts list", func(c *Client) error {
			_, err := c.ListContacts(bg(), ContactListOptions{Filter: kf, ListOptions: ListOptions{Search: "jane"}})
			return err
		}, "GET", "/api/um/v3/contact_identities/", with(wantContact, "search_query", "jane")},
		{"contacts delete", func(c *Client) error {
			return c.BulkDeleteContacts(bg(), BulkDelete[ContactFilter]{Filter: kf, Limit: 7})
		}, "DELETE", "/api/um/v3/contact_identities/", with(wantContact, "limit", "7")},
		{"contacts all", func(c *Client) error {
			_, err := c.ContactsAllPage(bg(), AllContactsOptions{Filter: kf, CursorOptions: CursorOptions{Limit: 100}})
			return err
		}, "GET", "/api/um/v3/contact_identities/all/", with(wantContact, "limit", "100")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if r.Method == http.MethodDelete {
					w.WriteHeader(http.StatusNoContent)
					return
				}
				writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
			})
			c, _ := newTestClient(t, rec.base(), nil)
			if err := tc.call(c); err != nil {
				t.Fatal(mustFail(t, err))
			}
			if rec.count() != 1 {
				t.Fatalf("%d requests", rec.count())
			}
			assertRequest(t, rec.last(t), tc.method, "/prefix"+tc.path, tc.query, "")
		})
	}
}

func TestClampLimit(t *testing.T) {
	for in, want := range map[int]int{-5: 0, 0: 0, 1: 1, 10: 10, 99: 99, 100: 100, 101: 100, 500: 100} {
		if got := ClampLimit(in); got != want {
			t.Errorf("ClampLimit(%d) = %d, want %d", in, got, want)
		}
	}
}

// TestLimitSent checks the limit that reaches the server on every kind of endpoint: 0 and
// negatives are not sent, above 100 becomes 100.
func TestLimitSent(t *testing.T) {
	calls := map[string]func(c *Client, limit int) error{
		"conversations": func(c *Client, l int) error {
			_, err := c.ListConversations(bg(), ConversationListOptions{ListOptions: ListOptions{Limit: l}})
			return err
		},
		"contacts": func(c *Client, l int) error {
			_, err := c.ListContacts(bg(), ContactListOptions{ListOptions: ListOptions{Limit: l}})
			return err
		},
		"search": func(c *Client, l int) error {
			_, err := c.SearchContacts(bg(), "x", l)
			return err
		},
		"conversations all": func(c *Client, l int) error {
			_, err := c.ConversationsAllPage(bg(), AllConversationsOptions{CursorOptions: CursorOptions{Limit: l}})
			return err
		},
		"contacts all": func(c *Client, l int) error {
			_, err := c.ContactsAllPage(bg(), AllContactsOptions{CursorOptions: CursorOptions{Limit: l}})
			return err
		},
		"messages": func(c *Client, l int) error {
			_, err := c.MessagesPage(bg(), 1, MessageOptions{CursorOptions: CursorOptions{Limit: l}})
			return err
		},
		"notes": func(c *Client, l int) error {
			_, err := c.ListNotes(bg(), NoteListOptions{ListOptions: ListOptions{Limit: l}})
			return err
		},
		"navigation": func(c *Client, l int) error {
			_, err := c.ListNavigation(bg(), NavigationListOptions{ListOptions: ListOptions{Limit: l}})
			return err
		},
		"operators": func(c *Client, l int) error {
			_, err := c.ListOperators(bg(), ListOptions{Limit: l})
			return err
		},
		"bulk delete": func(c *Client, l int) error {
			return c.BulkDeleteContacts(bg(), BulkDelete[ContactFilter]{Search: "x", Limit: l})
		},
	}
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)
	for name, call := range calls {
		for _, lc := range []struct {
			in   int
			want string // "" = absent
		}{{0, ""}, {-1, ""}, {1, "1"}, {42, "42"}, {100, "100"}, {101, "100"}, {500, "100"}} {
			if err := call(c, lc.in); err != nil {
				t.Fatalf("%s limit %d: %v", name, lc.in, mustFail(t, err))
			}
			q := rec.last(t).Query
			got, ok := q["limit"]
			switch {
			case lc.want == "" && ok:
				t.Errorf("%s: limit %d sent as %q", name, lc.in, got)
			case lc.want != "" && (len(got) != 1 || got[0] != lc.want):
				t.Errorf("%s: limit %d sent as %q, want %s", name, lc.in, got, lc.want)
			}
		}
	}
}

// The spec's (and docs/api-notes.md's) allowed ordering values per endpoint.
var specOrderings = map[string][]string{
	"conversations": {"id", "-id", "last_message_sent_at", "-last_message_sent_at",
		"contact_first_message_sent_at", "-contact_first_message_sent_at",
		"contact_last_update_at", "-contact_last_update_at",
		"contact_last_message_sent_at", "-contact_last_message_sent_at"},
	"contacts":          {"created_at", "-created_at", "name", "-name", "email", "-email"},
	"navigation":        {"id", "-id"},
	"conversations all": {"id"},
	"contacts all":      {"id"},
	"notes":             {"-id", "id", "created_at", "-created_at"},
	"operators":         {"id", "-id", "name", "-name"},
	"messages":          {"-id", "id"},
}

func TestOrderings(t *testing.T) {
	lists := map[string][]string{
		"conversations": ConversationOrderings, "contacts": ContactOrderings, "navigation": NavigationOrderings,
		"conversations all": AllOrderings, "contacts all": AllOrderings, "notes": NoteOrderings,
		"operators": OperatorOrderings, "messages": MessageOrderings,
	}
	calls := map[string]func(c *Client, o string) error{
		"conversations": func(c *Client, o string) error {
			_, err := c.ListConversations(bg(), ConversationListOptions{ListOptions: ListOptions{Ordering: o}})
			return err
		},
		"contacts": func(c *Client, o string) error {
			_, err := c.ListContacts(bg(), ContactListOptions{ListOptions: ListOptions{Ordering: o}})
			return err
		},
		"navigation": func(c *Client, o string) error {
			_, err := c.ListNavigation(bg(), NavigationListOptions{ListOptions: ListOptions{Ordering: o}})
			return err
		},
		"conversations all": func(c *Client, o string) error {
			_, err := c.ConversationsAllPage(bg(), AllConversationsOptions{CursorOptions: CursorOptions{Ordering: o}})
			return err
		},
		"contacts all": func(c *Client, o string) error {
			_, err := c.ContactsAllPage(bg(), AllContactsOptions{CursorOptions: CursorOptions{Ordering: o}})
			return err
		},
		"notes": func(c *Client, o string) error {
			_, err := c.ListNotes(bg(), NoteListOptions{ListOptions: ListOptions{Ordering: o}})
			return err
		},
		"operators": func(c *Client, o string) error {
			_, err := c.ListOperators(bg(), ListOptions{Ordering: o})
			return err
		},
		"messages": func(c *Client, o string) error {
			_, err := c.MessagesPage(bg(), 4711, MessageOptions{CursorOptions: CursorOptions{Ordering: o}})
			return err
		},
	}
	// Values valid somewhere but not on the endpoint, and plain nonsense.
	refused := map[string][]string{
		"conversations":     {"created_at", "name", "ID", "--id", "id,-id", "updated_at"},
		"contacts":          {"id", "-id", "last_message_sent_at", "Name", "+name"},
		"navigation":        {"created_at", "name", "id "},
		"conversations all": {"-id", "last_message_sent_at", "created_at"},
		"contacts all":      {"-id", "name", "created_at"},
		"notes":             {"name", "updated_at"},
		"operators":         {"email", "created_at"},
		"messages":          {"sent_at", "-sent_at"},
	}
	for name, want := range specOrderings {
		got := lists[name]
		if !sameSet(got, want) {
			t.Errorf("%s orderings = %v, want %v", name, got, want)
		}
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
			})
			c, _ := newTestClient(t, rec.base(), nil)
			for _, o := range specOrderings[name] {
				before := rec.count()
				if err := call(c, o); err != nil {
					t.Fatalf("ordering %q: %v", o, mustFail(t, err))
				}
				if rec.count() != before+1 {
					t.Fatalf("ordering %q: no request", o)
				}
				if got := rec.last(t).Query["ordering"]; len(got) != 1 || got[0] != o {
					t.Errorf("ordering %q sent as %q", o, got)
				}
			}
			before := rec.count()
			if err := call(c, ""); err != nil {
				t.Fatalf("no ordering: %v", err)
			}
			if rec.count() != before+1 {
				t.Fatal("no request without ordering")
			}
			if _, ok := rec.last(t).Query["ordering"]; ok {
				t.Error("ordering sent although none was given")
			}
			before = rec.count()
			for _, o := range refused[name] {
				err := call(c, o)
				if !errors.Is(err, ErrInvalidOrdering) {
					t.Errorf("ordering %q: err = %v, want ErrInvalidOrdering", o, err)
				}
				checkNoToken(t, err)
			}
			if n := rec.count() - before; n != 0 {
				t.Errorf("refused orderings sent %d requests", n)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestEmptyBulkDeleteRefused(t *testing.T) {
	rec := newRecorder(t, nil)
	c, _ := newTestClient(t, rec.base(), nil)
	calls := map[string]func() error{
		"conversations zero":  func() error { return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{}) },
		"conversations limit": func() error { return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{Limit: 100}) },
		"conversations exclude": func() error {
			return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{ExcludeIDs: []int64{1}})
		},
		"conversations blank":     func() error { return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{Search: " \t "}) },
		"conversations ids nil":   func() error { return c.DeleteConversations(bg(), nil) },
		"conversations ids empty": func() error { return c.DeleteConversations(bg(), []int64{}) },
		"contacts zero":           func() error { return c.BulkDeleteContacts(bg(), BulkDelete[ContactFilter]{}) },
		"contacts blank":          func() error { return c.BulkDeleteContacts(bg(), BulkDelete[ContactFilter]{Search: "  ", Limit: 5}) },
		"contacts ids nil":        func() error { return c.DeleteContacts(bg(), nil) },
		"contacts ids empty":      func() error { return c.DeleteContacts(bg(), []int64{}) },
	}
	for name, call := range calls {
		err := call()
		if !errors.Is(err, ErrEmptyBulkDelete) {
			t.Errorf("%s: err = %v, want ErrEmptyBulkDelete", name, err)
		}
		checkNoToken(t, err)
	}
	if rec.count() != 0 {
		t.Errorf("server saw %d requests, want 0", rec.count())
	}
	// A filter alone is enough.
	if err := c.BulkDeleteContacts(bg(), BulkDelete[ContactFilter]{Filter: ContactFilter{Verified: ptr(false)}}); err != nil {
		t.Fatal(mustFail(t, err))
	}
	assertRequest(t, rec.last(t), "DELETE", "/prefix/api/um/v3/contact_identities/", url.Values{"verified": {"false"}}, "")
}

// TestUpsertContactIdentifiers: the identifier is one of the contact fields that identify
// a contact (the spec's {contact_field}): email, external customer id, mobile and phone
// number. Anything else (an id is no contact data), or a body without the identifier's
// value, is refused before anything is sent.
func TestUpsertContactIdentifiers(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"id": 1}`) })
	c, _ := newTestClient(t, rec.base(), nil)
	for id, u := range map[string]ContactUpdate{
		"email":                {Email: ptr("a@example.com"), Name: ptr("x")},
		"external_customer_id": {ExternalCustomerID: ptr("CRM-1")},
		"mobile_number":        {MobileNumber: ptr("+49 170 1234567")},
		"phone_number":         {PhoneNumber: ptr("+49 30 1234567")},
	} {
		if _, _, err := c.UpsertContact(bg(), id, u); err != nil {
			t.Fatalf("identifier %s: %v", id, mustFail(t, err))
		}
		if got := rec.last(t).Query; !reflect.DeepEqual(got, url.Values{"identifier": {id}}) {
			t.Errorf("identifier %s: query %v", id, got)
		}
	}
	before := rec.count()
	for id, u := range map[string]ContactUpdate{
		"": {Email: ptr("a@example.com")}, "name": {Name: ptr("x")}, "id": {Name: ptr("x")}, "EMAIL": {Email: ptr("a@example.com")},
		"email": {Name: ptr("x")}, "phone_number": {PhoneNumber: ptr("  ")}, "mobile_number": {MobileNumber: ptr("")},
	} {
		_, _, err := c.UpsertContact(bg(), id, u)
		if err == nil {
			t.Errorf("identifier %q with body %v was accepted", id, u.Fields())
		}
	}
	if rec.count() != before {
		t.Errorf("refused identifiers sent %d requests", rec.count()-before)
	}
}

// TestSearchQueryEncoding: keywords go out whitespace-separated in one parameter, which the
// server reads as OR; the encoding is + (or %20) for the space.
func TestSearchQueryEncoding(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)
	if _, err := c.SearchContacts(context.Background(), "user like&co", 0); err != nil {
		t.Fatal(err)
	}
	got := rec.last(t)
	if got.RawQuery != "search_query=user+like%26co" && got.RawQuery != "search_query=user%20like%26co" {
		t.Errorf("raw query = %q", got.RawQuery)
	}
	if got.Query.Get("search_query") != "user like&co" {
		t.Errorf("search_query = %q", got.Query.Get("search_query"))
	}
}

func TestIDPaths(t *testing.T) {
	rec := newRecorder(t, genericAPI)
	c, _ := newTestClient(t, rec.base(), nil)
	for _, id := range []int64{1, 9007199254740993} {
		if _, err := c.GetConversation(bg(), id); err != nil {
			t.Fatal(err)
		}
		if p := rec.last(t).Path; p != "/prefix/api/um/v3/conversations/"+strconv.FormatInt(id, 10)+"/" {
			t.Errorf("path %q", p)
		}
	}
}
