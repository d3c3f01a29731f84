package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// specEndpoints is the spec's endpoint table (api-v3.md, "Endpoint table"), row by row.
var specEndpoints = []string{
	"GET /api/um/v3/conversations/",
	"DELETE /api/um/v3/conversations/",
	"GET /api/um/v3/conversations/all/",
	"GET /api/um/v3/conversations/{id}/",
	"PATCH /api/um/v3/conversations/{id}/",
	"DELETE /api/um/v3/conversations/{id}/",
	"GET /api/um/v3/conversations/{id}/messages/",
	"GET /api/um/v3/notes/",
	"POST /api/um/v3/notes/",
	"GET /api/um/v3/notes/{id}/",
	"DELETE /api/um/v3/notes/{id}/",
	"GET /api/um/v3/navigation/",
	"GET /api/um/v3/contact_identities/",
	"DELETE /api/um/v3/contact_identities/",
	"GET /api/um/v3/contact_identities/all/",
	"GET /api/um/v3/contact_identities/{id}/",
	"PATCH /api/um/v3/contact_identities/{id}/",
	"DELETE /api/um/v3/contact_identities/{id}/",
	"PUT /api/um/v3/contact_identities/?identifier={contact_field}",
	"GET /api/um/v3/operators/",
	"GET /api/um/v3/operators/{id}/",
	"PATCH /api/um/v3/operators/{id}/",
	"DELETE /api/um/v3/operators/{id}/",
	"GET /api/um/v3/operators/{id}/slots/",
	"PATCH /api/um/v3/operators/{id}/away/",
}

// endpointCase is one client call and the exact request it must make.
type endpointCase struct {
	name string
	spec string // row of specEndpoints this case covers; "" for a helper built on one
	// server answer
	status int
	resp   string
	// the call; it may assert the decoded answer
	call func(t *testing.T, c *Client) error
	// the request it must make
	method string
	path   string     // below the base URL's prefix
	query  url.Values // exact; nil means none
	body   string     // JSON the body must equal; "" means no body at all
}

func endpointCases(t *testing.T) []endpointCase {
	conv := string(readFixture(t, "conversation.json"))
	contact := string(readFixture(t, "contact.json"))
	note := string(readFixture(t, "note.json"))
	nav := string(readFixture(t, "navigation_event.json"))
	op := string(readFixture(t, "operator.json"))
	slots := string(readFixture(t, "slots.json"))
	away := string(readFixture(t, "away.json"))
	page := func(item string) string {
		return `{"count": 1, "next": null, "previous": null, "results": [` + item + `]}`
	}
	cursor := func(item string, count bool) string {
		c := ""
		if count {
			c = `"count": 1, `
		}
		return `{` + c + `"next": null, "previous": null, "results": [` + item + `]}`
	}
	msgs := string(readFixture(t, "cursor_messages.json"))

	return []endpointCase{
		{
			name: "ListConversations", spec: "GET /api/um/v3/conversations/",
			status: 200, resp: page(conv),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ListConversations(bg(), ConversationListOptions{
					ListOptions: ListOptions{Limit: 5, Offset: 10, Ordering: "-last_message_sent_at", Search: " jane roe ", ExcludeIDs: []int64{1, 22}},
					Filter:      ConversationFilter{Status: StatusNew, OperatorID: 3},
				})
				if err == nil && (p.Count != 1 || len(p.Results) != 1 || p.Results[0].ID != 4711) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/conversations/",
			query: url.Values{"limit": {"5"}, "offset": {"10"}, "ordering": {"-last_message_sent_at"},
				"search_query": {"jane roe"}, "exclude_ids": {"1,22"}, "status": {"new"}, "operator_id": {"3"}},
		},
		{
			name: "ListConversations/defaults", spec: "GET /api/um/v3/conversations/",
			status: 200, resp: `{"count": 0, "next": null, "previous": null, "results": []}`,
			call: func(t *testing.T, c *Client) error {
				_, err := c.ListConversations(bg(), ConversationListOptions{})
				return err
			},
			method: "GET", path: "/api/um/v3/conversations/",
		},
		{
			name: "BulkDeleteConversations", spec: "DELETE /api/um/v3/conversations/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{
					Filter: ConversationFilter{Status: StatusEnded, WidgetID: 31}, Search: "spam", Limit: 50, ExcludeIDs: []int64{9, 10},
				})
			},
			method: "DELETE", path: "/api/um/v3/conversations/",
			query: url.Values{"status": {"ended"}, "um_widget_id": {"31"}, "search_query": {"spam"}, "limit": {"50"}, "exclude_ids": {"9,10"}},
		},
		{
			name: "DeleteConversations", spec: "DELETE /api/um/v3/conversations/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.DeleteConversations(bg(), []int64{4711, 4712, 5})
			},
			method: "DELETE", path: "/api/um/v3/conversations/",
			query: url.Values{"delete_ids": {"4711,4712,5"}},
		},
		{
			name: "BulkDeleteConversations/ids and filters", spec: "DELETE /api/um/v3/conversations/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{
					DeleteIDs: []int64{1, 2}, Filter: ConversationFilter{IDLessThan: 100}, Limit: 500,
				})
			},
			method: "DELETE", path: "/api/um/v3/conversations/",
			query: url.Values{"delete_ids": {"1,2"}, "id__lt": {"100"}, "limit": {"100"}},
		},
		{
			name: "ConversationsAllPage", spec: "GET /api/um/v3/conversations/all/",
			status: 200, resp: cursor(conv, true),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ConversationsAllPage(bg(), AllConversationsOptions{
					CursorOptions: CursorOptions{Cursor: "120", Limit: 50, Ordering: "id"},
					Filter:        ConversationFilter{OperatorID: 3, TopicID: 5},
					ExcludeIDs:    []int64{121, 130},
				})
				if err == nil && (p.Count == nil || *p.Count != 1 || len(p.Results) != 1) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/conversations/all/",
			query: url.Values{"cursor": {"120"}, "limit": {"50"}, "ordering": {"id"}, "operator_id": {"3"}, "topics": {"5"}, "exclude_ids": {"121,130"}},
		},
		{
			name: "GetConversation", spec: "GET /api/um/v3/conversations/{id}/",
			status: 200, resp: conv,
			call: func(t *testing.T, c *Client) error {
				cv, err := c.GetConversation(bg(), 4711)
				if err == nil && (cv.ID != 4711 || len(cv.ConversationPartSet) != 2) {
					t.Errorf("conversation = %d with %d parts", cv.ID, len(cv.ConversationPartSet))
				}
				return err
			},
			method: "GET", path: "/api/um/v3/conversations/4711/",
		},
		{
			name: "SetConversationTopics", spec: "PATCH /api/um/v3/conversations/{id}/",
			status: 200, resp: conv,
			call: func(t *testing.T, c *Client) error {
				cv, err := c.SetConversationTopics(bg(), 4711, []string{"Billing", "Shipping"})
				if err == nil && (len(cv.Topics) != 2 || cv.Topics[0].Text != "Billing") {
					t.Errorf("topics = %+v", cv.Topics)
				}
				return err
			},
			method: "PATCH", path: "/api/um/v3/conversations/4711/",
			body: `{"topics": ["Billing", "Shipping"]}`,
		},
		{
			name: "SetConversationTopics/clear", spec: "PATCH /api/um/v3/conversations/{id}/",
			status: 200, resp: conv,
			call: func(t *testing.T, c *Client) error {
				_, err := c.SetConversationTopics(bg(), 4711, nil)
				return err
			},
			method: "PATCH", path: "/api/um/v3/conversations/4711/",
			body: `{"topics": []}`,
		},
		{
			name: "UpdateConversation/unassign", spec: "PATCH /api/um/v3/conversations/{id}/",
			status: 200, resp: conv,
			call: func(t *testing.T, c *Client) error {
				_, err := c.UpdateConversation(bg(), 4711, ConversationUpdate{
					Status: ptr(StatusEnded), Unassign: true, OperatorAssignedTo: ptr(int64(4)), MarkedReadOperator: ptr(false),
				})
				return err
			},
			method: "PATCH", path: "/api/um/v3/conversations/4711/",
			body: `{"status": "ended", "operator_assigned_to": null, "marked_read_operator": false}`,
		},
		{
			name: "UpdateConversation/assign", spec: "PATCH /api/um/v3/conversations/{id}/",
			status: 200, resp: conv,
			call: func(t *testing.T, c *Client) error {
				_, err := c.UpdateConversation(bg(), 4711, ConversationUpdate{OperatorAssignedTo: ptr(int64(4))})
				return err
			},
			method: "PATCH", path: "/api/um/v3/conversations/4711/",
			body: `{"operator_assigned_to": 4}`,
		},
		{
			name: "DeleteConversation", spec: "DELETE /api/um/v3/conversations/{id}/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.DeleteConversation(bg(), 4711)
			},
			method: "DELETE", path: "/api/um/v3/conversations/4711/",
		},
		{
			name: "MessagesPage", spec: "GET /api/um/v3/conversations/{id}/messages/",
			status: 200, resp: msgs,
			call: func(t *testing.T, c *Client) error {
				p, err := c.MessagesPage(bg(), 4711, MessageOptions{
					CursorOptions: CursorOptions{Cursor: "4711.9001.9", Limit: 20, Ordering: "-id"},
					ExcludeIDs:    []string{"4711.9001.4", "4711.9001.5"},
				})
				if err == nil && (p.Count != nil || len(p.Results) != 2 || p.Results[0].ID != "4711.9001.3") {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/conversations/4711/messages/",
			query: url.Values{"cursor": {"4711.9001.9"}, "limit": {"20"}, "ordering": {"-id"}, "exclude_ids": {"4711.9001.4,4711.9001.5"}},
		},
		{
			name: "MessagesPage/defaults", spec: "GET /api/um/v3/conversations/{id}/messages/",
			status: 200, resp: msgs,
			call: func(t *testing.T, c *Client) error {
				_, err := c.MessagesPage(bg(), 4711, MessageOptions{})
				return err
			},
			method: "GET", path: "/api/um/v3/conversations/4711/messages/",
		},
		{
			name: "ListNotes", spec: "GET /api/um/v3/notes/",
			status: 200, resp: page(note),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ListNotes(bg(), NoteListOptions{ListOptions: ListOptions{Limit: 20, Ordering: "-created_at"}, ContactIdentityID: 88})
				if err == nil && (len(p.Results) != 1 || p.Results[0].ID != 501) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/notes/",
			query: url.Values{"limit": {"20"}, "ordering": {"-created_at"}, "contact_identity_id": {"88"}},
		},
		{
			name: "ListNotes/bare array", spec: "GET /api/um/v3/notes/",
			status: 200, resp: `[` + note + `]`,
			call: func(t *testing.T, c *Client) error {
				p, err := c.ListNotes(bg(), NoteListOptions{})
				if err == nil && (p.Count != 1 || len(p.Results) != 1 || p.Results[0].ID != 501 || p.Next != "") {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/notes/",
		},
		{
			name: "CreateNote", spec: "POST /api/um/v3/notes/",
			status: 201, resp: note,
			call: func(t *testing.T, c *Client) error {
				n, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 88, Body: "Prefers e-mail"})
				if err == nil && n.ID != 501 {
					t.Errorf("note = %+v", n)
				}
				return err
			},
			method: "POST", path: "/api/um/v3/notes/",
			body: `{"contact_identity_id": 88, "body": "Prefers e-mail"}`,
		},
		{
			name: "GetNote", spec: "GET /api/um/v3/notes/{id}/",
			status: 200, resp: note,
			call: func(t *testing.T, c *Client) error {
				n, err := c.GetNote(bg(), 501)
				if err == nil && n.Body != "Prefers e-mail; call only after 5 pm." {
					t.Errorf("note = %+v", n)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/notes/501/",
		},
		{
			name: "DeleteNote", spec: "DELETE /api/um/v3/notes/{id}/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.DeleteNote(bg(), 501)
			},
			method: "DELETE", path: "/api/um/v3/notes/501/",
		},
		{
			name: "ListNavigation", spec: "GET /api/um/v3/navigation/",
			status: 200, resp: page(nav),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ListNavigation(bg(), NavigationListOptions{
					ListOptions: ListOptions{Ordering: "-id", Limit: 100, ExcludeIDs: []int64{7}}, ContactIdentityID: 88, ConversationID: 4711,
				})
				if err == nil && (len(p.Results) != 1 || p.Results[0].URL != "https://shop.example.com/cart?step=2") {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/navigation/",
			query: url.Values{"ordering": {"-id"}, "limit": {"100"}, "exclude_ids": {"7"}, "contact_identity_id": {"88"}, "conversation_id": {"4711"}},
		},
		{
			name: "ListContacts", spec: "GET /api/um/v3/contact_identities/",
			status: 200, resp: page(contact),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ListContacts(bg(), ContactListOptions{
					ListOptions: ListOptions{Limit: 25, Offset: 50, Ordering: "-email", ExcludeIDs: []int64{3}},
					Filter:      ContactFilter{Locale: "de_DE", Verified: ptr(true)},
				})
				if err == nil && (len(p.Results) != 1 || p.Results[0].ID != 88) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/contact_identities/",
			query: url.Values{"limit": {"25"}, "offset": {"50"}, "ordering": {"-email"}, "exclude_ids": {"3"}, "locale": {"de_DE"}, "verified": {"true"}},
		},
		{
			name: "SearchContacts", spec: "GET /api/um/v3/contact_identities/",
			status: 200, resp: page(contact),
			call: func(t *testing.T, c *Client) error {
				p, err := c.SearchContacts(bg(), "jane berlin", 500)
				if err == nil && len(p.Results) != 1 {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/contact_identities/",
			query: url.Values{"search_query": {"jane berlin"}, "limit": {"100"}},
		},
		{
			name: "SearchContactsJSON", spec: "GET /api/um/v3/contact_identities/",
			status: 200, resp: `{"count": 2, "next": null, "previous": null, "results": [{"id": 9, "new_field": [1]}, {"id": 88, "created_at": "2024-01-02T03:04:05Z"}]}`,
			call: func(t *testing.T, c *Client) error {
				yes := true
				p, err := c.SearchContactsJSON(bg(), " jane  berlin ", ContactFilter{Verified: &yes, Locale: "de_DE"}, 0)
				if err == nil && (p.Count != 2 || len(p.Results) != 2 || string(p.Results[0]) != `{"id": 9, "new_field": [1]}` ||
					string(p.Results[1]) != `{"id": 88, "created_at": "2024-01-02T03:04:05Z"}`) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/contact_identities/",
			query: url.Values{"search_query": {"jane  berlin"}, "verified": {"true"}, "locale": {"de_DE"}},
		},
		{
			name: "BulkDeleteContacts", spec: "DELETE /api/um/v3/contact_identities/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.BulkDeleteContacts(bg(), BulkDelete[ContactFilter]{
					Filter: ContactFilter{Name: "Spam Bot", Verified: ptr(false)}, Search: "casino", ExcludeIDs: []int64{1},
				})
			},
			method: "DELETE", path: "/api/um/v3/contact_identities/",
			query: url.Values{"name": {"Spam Bot"}, "verified": {"false"}, "search_query": {"casino"}, "exclude_ids": {"1"}},
		},
		{
			name: "DeleteContacts", spec: "DELETE /api/um/v3/contact_identities/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.DeleteContacts(bg(), []int64{88, 87})
			},
			method: "DELETE", path: "/api/um/v3/contact_identities/",
			query: url.Values{"delete_ids": {"88,87"}},
		},
		{
			name: "ContactsAllPage", spec: "GET /api/um/v3/contact_identities/all/",
			status: 200, resp: cursor(contact, true),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ContactsAllPage(bg(), AllContactsOptions{
					CursorOptions: CursorOptions{Cursor: "-40", Limit: 0, Ordering: "id"},
					Filter:        ContactFilter{Email: "jane@example.com"},
					ExcludeIDs:    []int64{39},
				})
				if err == nil && (p.Count == nil || *p.Count != 1) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/contact_identities/all/",
			query: url.Values{"cursor": {"-40"}, "ordering": {"id"}, "email": {"jane@example.com"}, "exclude_ids": {"39"}},
		},
		{
			name: "GetContact", spec: "GET /api/um/v3/contact_identities/{id}/",
			status: 200, resp: contact,
			call: func(t *testing.T, c *Client) error {
				ct, err := c.GetContact(bg(), 88)
				if err == nil && (ct.ID != 88 || Str(ct.Name) != "Jane Roe") {
					t.Errorf("contact = %+v", ct)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/contact_identities/88/",
		},
		{
			name: "UpdateContact", spec: "PATCH /api/um/v3/contact_identities/{id}/",
			status: 200, resp: contact,
			call: func(t *testing.T, c *Client) error {
				_, err := c.UpdateContact(bg(), 88, ContactUpdate{
					Name: ptr("Jane Roe"), Company: ptr(""), Locale: ptr("de_DE"), ContactByEmail: ptr(false), URLTwitter: ptr(""),
				})
				return err
			},
			method: "PATCH", path: "/api/um/v3/contact_identities/88/",
			body: `{"name": "Jane Roe", "company": null, "locale": "de_DE", "contact_by_email": false, "url_twitter": null}`,
		},
		{
			name: "UpdateContact/every field", spec: "PATCH /api/um/v3/contact_identities/{id}/",
			status: 200, resp: contact,
			call: func(t *testing.T, c *Client) error {
				_, err := c.UpdateContact(bg(), 88, ContactUpdate{
					Name: ptr("n"), Email: ptr("e@x.io"), PhoneNumber: ptr("1"), MobileNumber: ptr("2"), Company: ptr("c"),
					Position: ptr("p"), Gender: ptr("f"), Salutation: ptr("ms"), Street: ptr("s"), City: ptr("ci"),
					Country: ptr("DE"), Locale: ptr("de_DE"), ExternalCustomerID: ptr("x"), ContactByEmail: ptr(true),
					ContactByPhone: ptr(false), ContactByServiceChannels: ptr(true), ContactByServiceMessenger: ptr(false),
					URLFacebook: ptr("https://f"), URLLinkedIn: ptr("https://l"), URLTwitter: ptr("https://t"), URLProfilePicture: ptr("https://p"),
				})
				return err
			},
			method: "PATCH", path: "/api/um/v3/contact_identities/88/",
			body: `{"name": "n", "email": "e@x.io", "phone_number": "1", "mobile_number": "2", "company": "c",
				"position": "p", "gender": "f", "salutation": "ms", "street": "s", "city": "ci", "country": "DE",
				"locale": "de_DE", "external_customer_id": "x", "contact_by_email": true, "contact_by_phone": false,
				"contact_by_service_channels": true, "contact_by_service_messenger": false, "url_facebook": "https://f",
				"url_linkedin": "https://l", "url_twitter": "https://t", "url_profile_picture": "https://p"}`,
		},
		{
			name: "DeleteContact", spec: "DELETE /api/um/v3/contact_identities/{id}/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.DeleteContact(bg(), 88)
			},
			method: "DELETE", path: "/api/um/v3/contact_identities/88/",
		},
		{
			name: "UpsertContact/created", spec: "PUT /api/um/v3/contact_identities/?identifier={contact_field}",
			status: 201, resp: contact,
			call: func(t *testing.T, c *Client) error {
				ct, created, err := c.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: ptr("jane@example.com"), Name: ptr("Jane Roe")})
				if err == nil && (!created || ct.ID != 88) {
					t.Errorf("created = %v, contact %d", created, ct.ID)
				}
				return err
			},
			method: "PUT", path: "/api/um/v3/contact_identities/",
			query: url.Values{"identifier": {"email"}},
			body:  `{"email": "jane@example.com", "name": "Jane Roe"}`,
		},
		{
			name: "UpsertContact/updated", spec: "PUT /api/um/v3/contact_identities/?identifier={contact_field}",
			status: 200, resp: contact,
			call: func(t *testing.T, c *Client) error {
				_, created, err := c.UpsertContact(bg(), IdentifierExternalCustomerID, ContactUpdate{ExternalCustomerID: ptr("CRM-0088"), City: ptr("")})
				if err == nil && created {
					t.Error("created = true on 200")
				}
				return err
			},
			method: "PUT", path: "/api/um/v3/contact_identities/",
			query: url.Values{"identifier": {"external_customer_id"}},
			body:  `{"external_customer_id": "CRM-0088", "city": null}`,
		},
		{
			name: "ListOperators", spec: "GET /api/um/v3/operators/",
			status: 200, resp: page(op),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ListOperators(bg(), ListOptions{Ordering: "-name", Limit: 100, Offset: 100})
				if err == nil && (len(p.Results) != 1 || p.Results[0].Role != RoleAgent) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/operators/",
			query: url.Values{"ordering": {"-name"}, "limit": {"100"}, "offset": {"100"}},
		},
		{
			name: "ListOperators/bare array", spec: "GET /api/um/v3/operators/",
			status: 200, resp: string(readFixture(t, "page_operators_bare.json")),
			call: func(t *testing.T, c *Client) error {
				p, err := c.ListOperators(bg(), ListOptions{})
				if err == nil && (p.Count != 2 || len(p.Results) != 2 || p.Results[1].ID != 9) {
					t.Errorf("page = %+v", p)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/operators/",
		},
		{
			name: "GetOperator", spec: "GET /api/um/v3/operators/{id}/",
			status: 200, resp: op,
			call: func(t *testing.T, c *Client) error {
				o, err := c.GetOperator(bg(), 3)
				if err == nil && o.Name != "Max Mustermann" {
					t.Errorf("operator = %+v", o)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/operators/3/",
		},
		{
			name: "UpdateOperator", spec: "PATCH /api/um/v3/operators/{id}/",
			status: 200, resp: op,
			call: func(t *testing.T, c *Client) error {
				_, err := c.UpdateOperator(bg(), 3, OperatorUpdate{Name: ptr("Max M."), Locale: ptr("en_GB")})
				return err
			},
			method: "PATCH", path: "/api/um/v3/operators/3/",
			body: `{"name": "Max M.", "locale": "en_GB"}`,
		},
		{
			name: "UpdateOperator/every field", spec: "PATCH /api/um/v3/operators/{id}/",
			status: 200, resp: op,
			call: func(t *testing.T, c *Client) error {
				_, err := c.UpdateOperator(bg(), 3, OperatorUpdate{Name: ptr("n"), DisplayName: ptr("d"), Email: ptr("e@x.io"), Locale: ptr("en_GB")})
				return err
			},
			method: "PATCH", path: "/api/um/v3/operators/3/",
			body: `{"name": "n", "display_name": "d", "email": "e@x.io", "locale": "en_GB"}`,
		},
		{
			name: "DeleteOperator", spec: "DELETE /api/um/v3/operators/{id}/",
			status: 204,
			call: func(t *testing.T, c *Client) error {
				return c.DeleteOperator(bg(), 3)
			},
			method: "DELETE", path: "/api/um/v3/operators/3/",
		},
		{
			name: "OperatorSlots", spec: "GET /api/um/v3/operators/{id}/slots/",
			status: 200, resp: slots,
			call: func(t *testing.T, c *Client) error {
				s, err := c.OperatorSlots(bg(), 3)
				if err == nil && (s.OperatorID != 3 || s.CurrentSlots != Some(2) || s.TotalSlots != Some(5) || s.Held != nil || s.Extra != nil) {
					t.Errorf("slots = %+v", s)
				}
				return err
			},
			method: "GET", path: "/api/um/v3/operators/3/slots/",
		},
		{
			name: "SetOperatorAway", spec: "PATCH /api/um/v3/operators/{id}/away/",
			status: 200, resp: away,
			call: func(t *testing.T, c *Client) error {
				a, err := c.SetOperatorAway(bg(), 3, true)
				if err == nil && (a.OperatorID != 3 || a.IsAway != Some(true) || a.ChangedAt == nil) {
					t.Errorf("away = %+v", a)
				}
				return err
			},
			method: "PATCH", path: "/api/um/v3/operators/3/away/",
			body: `{"is_away": true}`,
		},
		{
			name: "SetOperatorAway/back", spec: "PATCH /api/um/v3/operators/{id}/away/",
			status: 200, resp: `{"is_away": false}`,
			call: func(t *testing.T, c *Client) error {
				a, err := c.SetOperatorAway(bg(), 12, false)
				if err == nil && (a.OperatorID != 12 || a.IsAway != Some(false) || a.ChangedAt != nil) {
					t.Errorf("away = %+v", a)
				}
				return err
			},
			method: "PATCH", path: "/api/um/v3/operators/12/away/",
			body: `{"is_away": false}`,
		},
	}
}

// contexts are the (organization, operator) pairs every endpoint case runs under.
var contexts = []struct{ org, op int64 }{{0, 0}, {7, 0}, {0, 3}, {7, 3}}

func TestEndpoints(t *testing.T) {
	cases := endpointCases(t)
	covered := map[string]bool{}
	for _, tc := range cases {
		if tc.spec != "" {
			covered[tc.spec] = true
		}
	}
	for _, row := range specEndpoints {
		if !covered[row] {
			t.Errorf("no test case for spec row %q", row)
		}
	}
	if len(covered) != len(specEndpoints) {
		t.Errorf("cases cover %d rows, the spec has %d: %v", len(covered), len(specEndpoints), covered)
	}

	for _, tc := range cases {
		for _, cx := range contexts {
			t.Run(fmt.Sprintf("%s/org=%d,op=%d", tc.name, cx.org, cx.op), func(t *testing.T) {
				rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
					if tc.resp == "" {
						w.WriteHeader(tc.status)
						return
					}
					writeJSON(w, tc.status, tc.resp)
				})
				base, _ := newTestClient(t, rec.base(), nil)
				c := base.WithContext(cx.org, cx.op)
				if err := tc.call(t, c); err != nil {
					checkNoToken(t, err)
					t.Fatalf("call: %v", err)
				}
				if n := rec.count(); n != 1 {
					t.Fatalf("server saw %d requests, want 1", n)
				}
				got := rec.last(t)
				assertRequest(t, got, tc.method, "/prefix"+tc.path, tc.query, tc.body)
				assertHeaders(t, got, cx.org, cx.op, tc.body != "")
			})
		}
	}
}

// assertRequest checks method, path, exact query and JSON body.
func assertRequest(t *testing.T, got recorded, method, path string, query url.Values, body string) {
	t.Helper()
	if got.Method != method {
		t.Errorf("method = %s, want %s", got.Method, method)
	}
	if got.Path != path {
		t.Errorf("path = %q, want %q", got.Path, path)
	}
	if query == nil {
		query = url.Values{}
	}
	if !reflect.DeepEqual(got.Query, query) {
		t.Errorf("query = %v (raw %q), want %v", got.Query, got.RawQuery, query)
	}
	if body == "" {
		if len(got.Body) != 0 {
			t.Errorf("body = %q, want none", got.Body)
		}
		return
	}
	var gotV, wantV any
	if err := json.Unmarshal(got.Body, &gotV); err != nil {
		t.Fatalf("body %q is not JSON: %v", got.Body, err)
	}
	if err := json.Unmarshal([]byte(body), &wantV); err != nil {
		t.Fatalf("bad expected body %q: %v", body, err)
	}
	if !reflect.DeepEqual(gotV, wantV) {
		t.Errorf("body = %s, want %s", got.Body, body)
	}
}

// assertHeaders checks Authorization, the context headers, Content-Type and User-Agent.
func assertHeaders(t *testing.T, got recorded, org, op int64, hasBody bool) {
	t.Helper()
	h := got.Header
	if v := h.Values("Authorization"); len(v) != 1 || v[0] != testToken {
		t.Errorf("Authorization = %q, want the token verbatim", v)
	}
	checkOptional := func(name string, id int64) {
		v, ok := h[http.CanonicalHeaderKey(name)]
		switch {
		case id == 0 && ok:
			t.Errorf("%s = %q, want it absent", name, v)
		case id != 0 && (len(v) != 1 || v[0] != fmt.Sprint(id)):
			t.Errorf("%s = %q, want %d", name, v, id)
		}
	}
	checkOptional("Service-Organization-Id", org)
	checkOptional("Service-Operator-Id", op)
	ct, hasCT := h["Content-Type"]
	switch {
	case hasBody && (len(ct) != 1 || ct[0] != "application/json"):
		t.Errorf("Content-Type = %q, want application/json", ct)
	case !hasBody && hasCT:
		t.Errorf("Content-Type = %q on a request without body", ct)
	}
	if ua := h.Get("User-Agent"); !strings.Contains(ua, testAgent) {
		t.Errorf("User-Agent = %q, want it to contain %q", ua, testAgent)
	}
	if a := h.Get("Accept"); a != "application/json" {
		t.Errorf("Accept = %q", a)
	}
}

// specMetrics is the spec's metric list (analytics-v1.md, Events), in its order, with the
// client's constant for each.
var specMetrics = []struct {
	constant Metric
	name     string
}{
	{MetricConversationFirstMessage, "um_conversation_first_message"},
	{MetricConversationFirstMessageAssignmentUpdate, "um_conversation_first_message_assignment_update"},
	{MetricConversationDuration, "um_conversation_duration"},
	{MetricChatMessagesTotal, "um_chat_messages_total"},
	{MetricChatMessagesCT, "um_chat_messages_ct"},
	{MetricChatMessagesCO, "um_chat_messages_co"},
	{MetricOperatorStatus, "um_operator_status"},
	{MetricOperatorSlotUsage, "um_operator_slot_usage"},
	{MetricOperatorResponseTimeFirst, "um_operator_response_time_first"},
	{MetricOperatorResponseTimeFirstServiceTime, "um_operator_response_time_first_service_time"},
	{MetricOperatorResponseTimeConversationFirst, "um_operator_response_time_conversation_first"},
	{MetricOperatorResponseTimeConversationFirstServiceTime, "um_operator_response_time_conversation_first_service_time"},
	{MetricOperatorResponseTime, "um_operator_response_time"},
	{MetricOperatorResponseTimeServiceTime, "um_operator_response_time_service_time"},
	{MetricOperatorResponseTimeToUnansweredSessionFirst, "um_operator_response_time_to_unanswered_session_first"},
	{MetricOperatorResponseTimeToUnansweredSessionFirstST, "um_operator_response_time_to_unanswered_session_first_service_time"},
	{MetricOperatorResponseTimeToUnansweredSession, "um_operator_response_time_to_unanswered_session"},
	{MetricOperatorResponseTimeToUnansweredSessionST, "um_operator_response_time_to_unanswered_session_service_time"},
	{MetricConversationRating, "um_conversation_rating"},
	{MetricConversationFeedback, "um_conversation_feedback"},
	{MetricConversationUnansweredLive, "um_conversation_unanswered_live"},
	{MetricConversationUnansweredEnded, "um_conversation_unanswered_ended"},
	{MetricConversationInactivityAction, "um_conversation_inactivity_action"},
	{MetricConversationGoalReached, "um_conversation_goal_reached"},
	{MetricConversationReopen, "um_conversation_reopen"},
	{MetricMissedOpportunity, "um_missed_opportunity"},
	{MetricConversationTopic, "um_conversation_topic"},
	{MetricConversationTopicChange, "um_conversation_topic_change"},
	{MetricConversationPreSurvey, "um_conversation_pre_survey"},
	{MetricConversationPostSurvey, "um_conversation_post_survey"},
	{MetricContactUniqueVisit, "um_contact_unique_visit"},
	{MetricContactCountry, "um_contact_country"},
	{MetricContactBrowser, "um_contact_browser"},
	{MetricContactResponseTimeBackchannel, "um_contact_response_time_backchannel"},
	{MetricContactResponseTimeBackchannelServiceTime, "um_contact_response_time_backchannel_service_time"},
	{MetricConversationCategory, "um_conversation_category"},
	{MetricConversationPartCategory, "um_conversation_part_category"},
	{MetricConversationSessionCount, "um_conversation_session_count"},
	{MetricConversationSessionDurationLive, "um_conversation_session_duration_live"},
	{MetricConversationSessionDurationOffline, "um_conversation_session_duration_offline"},
	{MetricConversationSessionDurationReEngage, "um_conversation_session_duration_re_engage"},
	{MetricConversationStatusDuration, "um_conversation_status_duration"},
	{MetricConversationUnassignedDuration, "um_conversation_unassigned_duration"},
	{MetricChatSessionManualForwardLive, "um_chat_session_manual_forward_live"},
	{MetricChatSessionManualForwardOffline, "um_chat_session_manual_forward_offline"},
	{MetricChatSessionManualForwardReEngage, "um_chat_session_manual_forward_re_engage"},
	{MetricChatSessionManualForwardGroupLive, "um_chat_session_manual_forward_group_live"},
	{MetricChatSessionManualForwardGroupOffline, "um_chat_session_manual_forward_group_offline"},
	{MetricChatSessionManualForwardGroupReEngage, "um_chat_session_manual_forward_group_re_engage"},
	{MetricChatSessionBotForwardReceived, "um_chat_session_bot_forward_received"},
	{MetricContactResponseTime, "um_contact_response_time"},
	{MetricContactResponseTimeServiceTime, "um_contact_response_time_service_time"},
}

func TestMetricList(t *testing.T) {
	if len(specMetrics) != 52 {
		t.Fatalf("the spec lists 52 metrics, the test table has %d", len(specMetrics))
	}
	spec := map[string]bool{}
	for _, m := range specMetrics {
		if string(m.constant) != m.name {
			t.Errorf("constant for %s is %q", m.name, m.constant)
		}
		if spec[m.name] {
			t.Errorf("duplicate spec metric %s", m.name)
		}
		spec[m.name] = true
	}
	if len(Metrics) != 52 {
		t.Errorf("client.Metrics has %d entries, want 52", len(Metrics))
	}
	inClient := map[string]bool{}
	groups := map[string]bool{}
	for _, g := range MetricGroups {
		groups[g] = true
	}
	for _, mi := range Metrics {
		name := string(mi.Metric)
		if inClient[name] {
			t.Errorf("client.Metrics lists %s twice", name)
		}
		inClient[name] = true
		if !spec[name] {
			t.Errorf("client.Metrics lists %s, which the spec does not", name)
		}
		if !groups[mi.Group] {
			t.Errorf("%s: group %q is not in MetricGroups", name, mi.Group)
		}
		if mi.Description == "" {
			t.Errorf("%s has no description", name)
		}
	}
	for name := range spec {
		if !inClient[name] {
			t.Errorf("spec metric %s is missing from client.Metrics", name)
		}
		if mi, ok := LookupMetric(name); !ok || string(mi.Metric) != name {
			t.Errorf("LookupMetric(%q) = %v, %v", name, mi, ok)
		}
	}
	if _, ok := LookupMetric("um_chat_session_manual_forward_re_group_engage"); ok {
		t.Error("LookupMetric accepts the spec's misspelling")
	}
}

func TestMetricEndpoints(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"results": []}`)
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OrganizationID = 7 })
	for i, m := range specMetrics {
		pts, err := c.Analytics(bg(), AnalyticsQuery{Metric: m.constant})
		if err != nil {
			checkNoToken(t, err)
			t.Fatalf("%s: %v", m.name, err)
		}
		if len(pts) != 0 {
			t.Errorf("%s: %d points from an empty answer", m.name, len(pts))
		}
		if rec.count() != i+1 {
			t.Fatalf("%s: server saw %d requests, want %d", m.name, rec.count(), i+1)
		}
		got := rec.last(t)
		assertRequest(t, got, "GET", "/prefix/api/um/v1/analytics/"+m.name+"/", nil, "")
		assertHeaders(t, got, 7, 0, false)
		if u := c.Usage(Family("analytics:" + m.name)); u != 1 {
			t.Errorf("%s: usage %d, want 1", m.name, u)
		}
	}
}
