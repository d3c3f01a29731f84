package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/specfields"
)

// Field names of the spec's tables and of docs/api-notes.md (package specfields, which the
// sandbox's tests check its responses against too).
var (
	specConversationFields = specfields.Fields(specfields.Conversation)
	specPartFields         = specfields.Fields(specfields.Part)
	specTopicFields        = specfields.Fields(specfields.Topic)
	specMessageFields      = specfields.Fields(specfields.Message)
	specContactFields      = specfields.Fields(specfields.Contact)
	notesNoteFields        = specfields.Fields(specfields.Note)
	notesNavigationFields  = specfields.Fields(specfields.Navigation)
	notesOperatorFields    = specfields.Fields(specfields.Operator)
	notesSlotsFields       = specfields.Fields(specfields.Slots)
	notesAwayFields        = specfields.Fields(specfields.Away)
	specDataPointFields    = specfields.Fields(specfields.DataPoint)
	specChannelFields      = specfields.Fields(specfields.Channel)
	specWidgetFields       = specfields.Fields(specfields.Widget)
	specBrowserFields      = specfields.Fields(specfields.Browser)
	specLocationFields     = specfields.Fields(specfields.Location)
	specStateFields        = specfields.Fields(specfields.State)
	specSenderFields       = specfields.Fields(specfields.Sender)
	specConvRefFields      = specfields.Fields(specfields.ConvRef)
	contactEmbedFields     = specfields.Without(specContactFields, "contact_uuids", "conversation_count")
	lastMessageFields      = specfields.Without(specMessageFields, "operator_is_bot") // "present in the messages endpoint"
	missedOpportunityDPF   = specfields.Without(specDataPointFields, "operator_id", "operator_group_id")
)

// jsonTags lists the JSON names of a struct type's fields.
func jsonTags(v any) []string { return slices.Collect(maps.Keys(specfields.JSONNames(v))) }

func objectKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an object: %v", err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

func field(t *testing.T, raw json.RawMessage, key string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an object: %v", err)
	}
	v, ok := m[key]
	if !ok {
		t.Fatalf("no key %q", key)
	}
	return v
}

func elem(t *testing.T, raw json.RawMessage, i int) json.RawMessage {
	t.Helper()
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil || i >= len(a) {
		t.Fatalf("not an array with %d elements: %v", i+1, err)
	}
	return a[i]
}

func assertKeys(t *testing.T, what string, got, want []string) {
	t.Helper()
	if missing, extra := specfields.Diff(got, want); len(missing)+len(extra) > 0 {
		t.Errorf("%s: missing %v, extra %v", what, missing, extra)
	}
}

// TestFixturesShapedLikeSpec keeps the fixtures honest: each has exactly the keys of the
// spec's field table (or of docs/api-notes.md where the spec shows none).
func TestFixturesShapedLikeSpec(t *testing.T) {
	conv := json.RawMessage(readFixture(t, "conversation.json"))
	assertKeys(t, "conversation", objectKeys(t, conv), specConversationFields)
	assertKeys(t, "conversation.contact", objectKeys(t, field(t, conv, "contact")), contactEmbedFields)
	assertKeys(t, "conversation.contact_channel", objectKeys(t, field(t, conv, "contact_channel")), specChannelFields)
	assertKeys(t, "conversation.um_widget", objectKeys(t, field(t, conv, "um_widget")), specWidgetFields)
	assertKeys(t, "conversation.topics[0]", objectKeys(t, elem(t, field(t, conv, "topics"), 0)), specTopicFields)
	part := elem(t, field(t, conv, "conversation_part_set"), 0)
	assertKeys(t, "conversation part", objectKeys(t, part), specPartFields)
	assertKeys(t, "part.browser", objectKeys(t, field(t, part, "browser")), specBrowserFields)
	assertKeys(t, "part.location", objectKeys(t, field(t, part, "location")), specLocationFields)
	lm := field(t, conv, "last_message")
	assertKeys(t, "conversation.last_message", objectKeys(t, lm), lastMessageFields)

	msg := json.RawMessage(readFixture(t, "message.json"))
	assertKeys(t, "message", objectKeys(t, msg), specMessageFields)
	assertKeys(t, "message.state", objectKeys(t, field(t, msg, "state")), specStateFields)
	assertKeys(t, "message.sender", objectKeys(t, field(t, msg, "sender")), specSenderFields)
	assertKeys(t, "message.conversation", objectKeys(t, field(t, msg, "conversation")), specConvRefFields)

	assertKeys(t, "contact", objectKeys(t, readFixture(t, "contact.json")), specContactFields)
	assertKeys(t, "note", objectKeys(t, readFixture(t, "note.json")), notesNoteFields)
	assertKeys(t, "navigation event", objectKeys(t, readFixture(t, "navigation_event.json")), notesNavigationFields)
	assertKeys(t, "operator", objectKeys(t, readFixture(t, "operator.json")), notesOperatorFields)
	assertKeys(t, "slots", objectKeys(t, readFixture(t, "slots.json")), notesSlotsFields)
	assertKeys(t, "away", objectKeys(t, readFixture(t, "away.json")), notesAwayFields)
	assertKeys(t, "data point", objectKeys(t, readFixture(t, "datapoint.json")), specDataPointFields)
	assertKeys(t, "missed opportunity data point", objectKeys(t, readFixture(t, "datapoint_missed_opportunity.json")), missedOpportunityDPF)
}

// TestStructsMatchSpec: every field of the spec's tables has a struct field of that JSON name,
// and the structs invent none.
func TestStructsMatchSpec(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		want []string
	}{
		{"Conversation", Conversation{}, specConversationFields},
		{"ConversationPart", ConversationPart{}, specPartFields},
		{"Topic", Topic{}, specTopicFields},
		{"Message", Message{}, specMessageFields},
		{"Contact", Contact{}, specContactFields},
		{"Note", Note{}, notesNoteFields},
		{"NavigationEvent", NavigationEvent{}, notesNavigationFields},
		{"Operator", Operator{}, notesOperatorFields},
		{"Slots", Slots{}, notesSlotsFields},
		{"AwayStatus", AwayStatus{}, notesAwayFields},
		{"DataPoint", DataPoint{}, specDataPointFields},
		{"ContactChannel", ContactChannel{}, specChannelFields},
		{"Widget", Widget{}, specWidgetFields},
		{"Browser", Browser{}, specBrowserFields},
		{"Location", Location{}, specLocationFields},
		{"MessageState", MessageState{}, specStateFields},
		{"Sender", Sender{}, specSenderFields},
		{"IDRef", IDRef{}, specConvRefFields},
	} {
		assertKeys(t, c.name+" json tags", jsonTags(c.v), c.want)
	}
}

func utc(y int, mo time.Month, d, h, mi, s, ns int) Time {
	return Time{time.Date(y, mo, d, h, mi, s, ns, time.UTC)}
}

func putc(y int, mo time.Month, d, h, mi, s, ns int) *Time {
	t := utc(y, mo, d, h, mi, s, ns)
	return &t
}

// compareFields reports every field where got and want differ, by path. Times must be equal
// instants in UTC; json.RawMessage compares as JSON; nil and empty slices differ.
func compareFields(t *testing.T, path string, got, want reflect.Value) {
	t.Helper()
	switch {
	case got.Type() == reflect.TypeOf(time.Time{}):
		g, w := got.Interface().(time.Time), want.Interface().(time.Time)
		if !g.Equal(w) || g.Location() != time.UTC {
			t.Errorf("%s = %v, want %v (UTC)", path, g, w)
		}
	case got.Type() == reflect.TypeOf(json.RawMessage{}):
		g, w := got.Interface().(json.RawMessage), want.Interface().(json.RawMessage)
		if (g == nil) != (w == nil) || !jsonEqual(g, w) {
			t.Errorf("%s = %s, want %s", path, g, w)
		}
	case got.Kind() == reflect.Struct:
		for i := range got.NumField() {
			name := path + "." + got.Type().Field(i).Name
			if !got.Type().Field(i).IsExported() { // no Interface() for it
				if !got.Field(i).Equal(want.Field(i)) {
					t.Errorf("%s = %v, want %v", name, got.Field(i), want.Field(i))
				}
				continue
			}
			compareFields(t, name, got.Field(i), want.Field(i))
		}
	case got.Kind() == reflect.Pointer:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				t.Errorf("%s nil = %v, want nil = %v (%v)", path, got.IsNil(), want.IsNil(), deref(got))
			}
			return
		}
		compareFields(t, path, got.Elem(), want.Elem())
	case got.Kind() == reflect.Slice:
		if got.IsNil() != want.IsNil() || got.Len() != want.Len() {
			t.Errorf("%s = %v (nil %v), want %v (nil %v)", path, got.Interface(), got.IsNil(), want.Interface(), want.IsNil())
			return
		}
		for i := range got.Len() {
			compareFields(t, fmt.Sprintf("%s[%d]", path, i), got.Index(i), want.Index(i))
		}
	default:
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Errorf("%s = %#v, want %#v", path, got.Interface(), want.Interface())
		}
	}
}

func deref(v reflect.Value) any {
	if v.IsNil() {
		return nil
	}
	return v.Elem().Interface()
}

func jsonEqual(a, b []byte) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

func decodeFixture[T any](t *testing.T, name string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(readFixture(t, name), &v); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return v
}

func assertDecoded[T any](t *testing.T, name string, want T) {
	t.Helper()
	got := decodeFixture[T](t, name)
	compareFields(t, reflect.TypeOf(want).Name(), reflect.ValueOf(got), reflect.ValueOf(want))
}

var rawNull = json.RawMessage("null")

func wantConversation() Conversation {
	return Conversation{
		ID:              4711,
		AcceptsMessages: Some(true),
		AddonURLs:       map[string]string{"crm": "https://crm.example.com/contacts/88", "shop": "https://shop.example.com/orders?c=88"},
		Contact: Contact{
			ID: 88, Name: ptr("Jane Roe"), Email: ptr("jane@example.com"), EmailVerified: true,
			PhoneNumber: nil, MobileNumber: ptr("+4915112345678"), IsMobileNumberVerified: false, Verified: true,
			Company: ptr("Example GmbH"), Position: nil, Gender: ptr("f"), Salutation: ptr("ms"),
			Street: ptr("Hauptstr. 1"), City: ptr("Berlin"), Country: ptr("DE"), LocLat: 52.52, LocLon: 13.405,
			Locale: "de_DE", ExternalCustomerID: nil, ContactByEmail: true, ContactByPhone: false,
			ContactByServiceChannels: true, ContactByServiceMessenger: false, IsBlocked: false, NeedsRegister: false,
			URLFacebook: nil, URLLinkedIn: ptr("https://www.linkedin.com/in/janeroe"), URLProfilePicture: nil, URLTwitter: nil,
			CreatedAt:          utc(2023, 11, 2, 8, 0, 0, 0),
			FirstMessageSentAt: putc(2023, 11, 2, 8, 1, 2, 500_000_000),
			LastMessageSentAt:  nil,
			ReadPermission:     true, WritePermission: false,
		},
		ContactChannel:            ContactChannel{State: "active", Type: "web"},
		ContactFirstMessageSentAt: putc(2024, 3, 1, 10, 15, 30, 123_456_000),
		ContactLastMessageSentAt:  nil,
		ContactLastUpdateAt:       utc(2024, 3, 1, 10, 15, 30, 0), // sent as 12:15:30+02:00
		ConversationContactUUID:   "5f0c6c2e-8d1b-4c59-9b7e-2d3f4a5b6c7d",
		ConversationPartSet: []ConversationPart{
			{
				ID: 9001, PartType: "ChatMeta", NameFriendly: "Chat",
				CreatedAt: utc(2024, 3, 1, 10, 15, 0, 0), EndedAt: putc(2024, 3, 1, 10, 45, 10, 250_000_000),
				Duration: "00:30:10", Browser: Browser{Name: "Firefox", OS: "Linux", Version: "124.0"},
				Location: Location{City: "Berlin", Country: "DE", Lat: 52.52, Lon: 13.405},
				Referrer: nil, ReadPermission: true, WritePermission: true,
			},
			{
				ID: 9002, PartType: "ChatMeta", NameFriendly: "Chat",
				CreatedAt: utc(2024, 3, 2, 9, 0, 0, 0), EndedAt: putc(2024, 3, 2, 9, 5, 0, 0),
				Duration: "00:05:00", Browser: Browser{Name: "Chrome", OS: "Windows", Version: "123.0.1"},
				Location: Location{City: "Hamburg", Country: "DE", Lat: 53.55, Lon: 9.99},
				Referrer: ptr("https://www.example.com/pricing"), ReadPermission: true, WritePermission: false,
			},
		},
		CreatedAt:       utc(2024, 3, 1, 10, 15, 0, 0), // sent without zone
		Custom:          json.RawMessage(`{"order": {"id": "A-17", "items": [1, 2, 3], "gift": null}, "vip": true}`),
		CustomerID:      12,
		DataPrivacy:     Some(false),
		ExpiryState:     2,
		FeedbackMessage: nil,
		LanguageName:    "German",
		LastMessage: &Message{
			ID: "4711.9002.7", MsgID: "4711.9002.7", ConversationID: 4711, Conversation: IDRef{ID: 4711},
			PartID: 9002, SentAt: utc(2024, 3, 2, 9, 4, 59, 1000), SentAtTime: "09:04:59.000001", Type: "message",
			Event: rawNull, Body: "Thanks, bye!", Reference: rawNull, URL: nil,
			State:      MessageState{Type: StateRead, ErrorCode: rawNull, Message: "Read by user"},
			OperatorID: nil, OperatorName: "", OperatorDisplayName: "", OperatorIsBot: false,
			Name: "Jane Roe", DisplayName: "Jane", Sender: Sender{Type: SenderContact, ID: 88},
			MarkedReadOperator: true, MarkedReadContact: true,
		},
		LastMessageSentAt:      utc(2024, 3, 2, 9, 4, 59, 1000),
		Locale:                 "de_DE",
		MarkedReadContact:      true,
		MarkedReadOperator:     false,
		OperatorAssignedTo:     ptr(int64(3)),
		OrganizationID:         7,
		PageImpressions:        Some(json.Number("12.5")),
		PostSurveyOption:       rawNull,
		PreSurveyOption:        rawNull,
		Rate:                   nil,
		ReadPermission:         true,
		SlotReserved:           true,
		Status:                 StatusPending,
		StatusDescription:      "Pending",
		Subject:                rawNull,
		Topics:                 []Topic{{5, 7, "Billing", true, true}, {6, 7, "Shipping", true, false}},
		Widget:                 Widget{ID: 31, LanguageName: "German", Name: "Shop widget"},
		WidgetGoals:            json.RawMessage(`[]`),
		UnreadMessagesOperator: json.RawMessage(`[]`),
		UpdatedAt:              utc(2024, 3, 2, 9, 5, 0, 500_000_000),
		Visits:                 rawNull,
		WritePermission:        true,
	}
}

func wantMessage() Message {
	return Message{
		ID: "4711.9001.3", MsgID: "4711.9001.3", ConversationID: 4711, Conversation: IDRef{ID: 4711},
		PartID: 9001, SentAt: utc(2024, 3, 1, 10, 16, 5, 654_321_000), SentAtTime: "10:16:05.654321",
		Type: "message", Event: rawNull, Body: "Hello Jane, how can I help?", Reference: rawNull,
		URL:        ptr("https://www.example.com/help"),
		State:      MessageState{Type: StateDelivered, ErrorCode: rawNull, Message: "Delivered to contact"},
		OperatorID: ptr(int64(3)), OperatorName: "Max Mustermann", OperatorDisplayName: "Max", OperatorIsBot: false,
		Name: "Max Mustermann", DisplayName: "Max", Sender: Sender{Type: SenderOperator, ID: 3},
		MarkedReadOperator: true, MarkedReadContact: false,
	}
}

func wantContact() Contact {
	return Contact{
		ID:                     88,
		ContactUUIDs:           []string{"5f0c6c2e-8d1b-4c59-9b7e-2d3f4a5b6c7d", "0b9e8f7a-6c5d-4e3f-8a1b-2c3d4e5f6a7b"},
		ConversationCount:      ptr(2),
		Name:                   ptr("Jane Roe"),
		Email:                  ptr("jane@example.com"),
		EmailVerified:          true,
		PhoneNumber:            ptr("+49301234567"),
		MobileNumber:           nil,
		IsMobileNumberVerified: false,
		Verified:               true,
		Company:                nil,
		Position:               ptr("Buyer"),
		Gender:                 ptr("f"),
		Salutation:             ptr("ms"),
		Street:                 nil,
		City:                   ptr("Berlin"),
		Country:                ptr("DE"),
		LocLat:                 52.52, LocLon: -13.405,
		Locale:                    "de_DE",
		ExternalCustomerID:        ptr("CRM-0088"),
		ContactByEmail:            true,
		ContactByPhone:            true,
		ContactByServiceChannels:  false,
		ContactByServiceMessenger: true,
		IsBlocked:                 true,
		NeedsRegister:             true,
		URLFacebook:               ptr("https://www.facebook.com/janeroe"),
		URLLinkedIn:               nil,
		URLProfilePicture:         ptr("https://cdn.example.com/p/88.png"),
		URLTwitter:                ptr("https://twitter.com/janeroe"),
		CreatedAt:                 utc(2023, 11, 2, 8, 0, 0, 0),
		FirstMessageSentAt:        putc(2023, 11, 2, 8, 1, 2, 0), // sent as 09:01:02+01:00
		LastMessageSentAt:         nil,
		ReadPermission:            true,
		WritePermission:           true,
	}
}

func TestDecodeConversation(t *testing.T) {
	assertDecoded(t, "conversation.json", wantConversation())
	c := decodeFixture[Conversation](t, "conversation.json")
	if !c.Ongoing() {
		t.Error("a pending conversation is not ongoing")
	}
	if c.LastMessage.FromOperator() || c.LastMessage.State.Label() != "Read by user" {
		t.Errorf("last message from operator %v, label %q", c.LastMessage.FromOperator(), c.LastMessage.State.Label())
	}
	// custom is kept as raw JSON, nested objects intact.
	var custom struct {
		Order struct {
			ID    string  `json:"id"`
			Items []int   `json:"items"`
			Gift  *string `json:"gift"`
		} `json:"order"`
		VIP bool `json:"vip"`
	}
	if err := json.Unmarshal(c.Custom, &custom); err != nil || custom.Order.ID != "A-17" || len(custom.Order.Items) != 3 || !custom.VIP {
		t.Errorf("custom = %s (%v)", c.Custom, err)
	}
}

// TestDecodeConversationListShape: a list item has no conversation_part_set and a rating.
func TestDecodeConversationListShape(t *testing.T) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(readFixture(t, "conversation.json"), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "conversation_part_set")
	m["rate"] = json.RawMessage("5")
	m["status"] = json.RawMessage(`"ended"`)
	m["feedback_message"] = json.RawMessage(`"great"`)
	m["custom"] = json.RawMessage(`{}`)
	b, _ := json.Marshal(m)
	var c Conversation
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if c.ConversationPartSet != nil || c.Rate == nil || *c.Rate != 5 || c.Ongoing() || Str(c.FeedbackMessage) != "great" || string(c.Custom) != "{}" {
		t.Errorf("parts %v, rate %v, ongoing %v, feedback %v, custom %s", c.ConversationPartSet, c.Rate, c.Ongoing(), c.FeedbackMessage, c.Custom)
	}
}

func TestDecodeMessage(t *testing.T) {
	assertDecoded(t, "message.json", wantMessage())
	m := decodeFixture[Message](t, "message.json")
	if !m.FromOperator() || m.State.Label() != "Delivered to contact" {
		t.Errorf("from operator %v, label %q", m.FromOperator(), m.State.Label())
	}
}

func TestDecodeContact(t *testing.T) {
	assertDecoded(t, "contact.json", wantContact())
}

func TestDecodeNote(t *testing.T) {
	assertDecoded(t, "note.json", Note{
		ID: 501, OrganizationID: 7, ContactIdentityID: 88, Body: "Prefers e-mail; call only after 5 pm.",
		OperatorID: Opt[int64]{Null: true}, CreatedAt: utc(2024, 3, 3, 14, 0, 0, 123_000_000), UpdatedAt: utc(2024, 3, 3, 14, 5, 0, 0),
		ReadPermission: true, WritePermission: false,
	})
}

func TestDecodeNavigationEvent(t *testing.T) {
	assertDecoded(t, "navigation_event.json", NavigationEvent{
		ID: 70001, OrganizationID: 7, ContactIdentityID: ptr(int64(88)), ConversationID: nil,
		URL: "https://shop.example.com/cart?step=2", Title: "Your cart", Referrer: ptr("https://www.example.com/"),
		CreatedAt: utc(2024, 3, 1, 10, 14, 58, 0),
	})
}

func TestDecodeOperator(t *testing.T) {
	assertDecoded(t, "operator.json", Operator{
		ID: 3, OrganizationID: 7, Name: "Max Mustermann", DisplayName: "Max", Email: "max@example.com",
		Role: RoleAgent, IsBot: Some(false), IsAway: Some(true), IsOnline: Some(true), Locale: "de_DE",
		OperatorGroupID: ptr(int64(2)), CreatedAt: utc(2022, 7, 15, 0, 0, 0, 0),
		UpdatedAt: utc(2024, 3, 1, 8, 0, 0, 500_000_000), ReadPermission: true, WritePermission: false,
	})
}

func TestDecodeSlotsAndAway(t *testing.T) {
	assertDecoded(t, "slots.json", Slots{OperatorID: 3, CurrentSlots: Some(2), TotalSlots: Some(5)})
	assertDecoded(t, "away.json", AwayStatus{OperatorID: 3, IsAway: Some(true), ChangedAt: putc(2024, 3, 4, 7, 30, 0, 1000)})
}

func TestDecodeDataPoints(t *testing.T) {
	assertDecoded(t, "datapoint.json", DataPoint{
		WidgetIDs: IDList{31, 32}, OrganizationID: 7, OperatorID: ptr(int64(3)), OperatorGroupID: nil,
		Time: utc(2024, 3, 1, 10, 45, 10, 0), Value: ptr(1810.5), ValueStr: nil,
		ConversationID: ptr(int64(4711)), ConversationPartID: ptr(int64(9001)), ConversationSessionID: ptr(int64(9001)),
		IsChatbotMetric: false, ChatbotInteraction: ptr(false), HumanInteraction: ptr(true),
	})
	// um_missed_opportunity: no operator_id and no operator_group_id at all.
	assertDecoded(t, "datapoint_missed_opportunity.json", DataPoint{
		WidgetIDs: IDList{31}, OrganizationID: 7, OperatorID: nil, OperatorGroupID: nil,
		Time: utc(2024, 3, 1, 23, 59, 59, 0), Value: ptr(1.0), ValueStr: ptr("4712"),
		IsChatbotMetric: true,
	})
	for raw, want := range map[string]IDList{`5`: {5}, `null`: nil, `[]`: {}, `[1, 2, 3]`: {1, 2, 3}} {
		var dp DataPoint
		if err := json.Unmarshal([]byte(`{"um_widget_id": `+raw+`, "time": "2024-01-01T00:00:00+01:00"}`), &dp); err != nil {
			t.Errorf("um_widget_id %s: %v", raw, err)
			continue
		}
		if !reflect.DeepEqual(dp.WidgetIDs, want) {
			t.Errorf("um_widget_id %s = %#v, want %#v", raw, dp.WidgetIDs, want)
		}
		if !dp.Time.Equal(time.Date(2023, 12, 31, 23, 0, 0, 0, time.UTC)) {
			t.Errorf("time = %v", dp.Time)
		}
	}
	var dp DataPoint
	if err := json.Unmarshal([]byte(`{"um_widget_id": "31"}`), &dp); err == nil {
		t.Error("um_widget_id as a string accepted")
	}
}

// TestUnknownFieldsTolerated adds fields the spec does not name, at top level and nested:
// decoding must succeed and give the same value.
func TestUnknownFieldsTolerated(t *testing.T) {
	extras := map[string]json.RawMessage{
		"brand_new_field":   json.RawMessage(`{"a": [1, {"b": null}], "c": "d"}`),
		"another_one":       json.RawMessage(`null`),
		"numeric_extension": json.RawMessage(`1e300`),
	}
	addExtras := func(t *testing.T, raw []byte, nested ...string) []byte {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		for k, v := range extras {
			m[k] = v
		}
		for _, key := range nested {
			var n map[string]json.RawMessage
			if err := json.Unmarshal(m[key], &n); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			for k, v := range extras {
				n[k] = v
			}
			m[key], _ = json.Marshal(n)
		}
		b, _ := json.Marshal(m)
		return b
	}
	check := func(t *testing.T, name string, v, plain any, nested ...string) {
		if err := json.Unmarshal(addExtras(t, readFixture(t, name), nested...), v); err != nil {
			t.Fatalf("%s with extra fields: %v", name, err)
		}
		if err := json.Unmarshal(readFixture(t, name), plain); err != nil {
			t.Fatal(err)
		}
		// The types whose fields the spec does not show keep the fields they do not know,
		// sorted by key, compact, for the screens to show.
		if ex := reflect.ValueOf(v).Elem().FieldByName("Extra"); ex.IsValid() {
			want := Extra{{"another_one", json.RawMessage(`null`)},
				{"brand_new_field", json.RawMessage(`{"a":[1,{"b":null}],"c":"d"}`)},
				{"numeric_extension", json.RawMessage(`1e300`)}}
			if got := ex.Interface().(Extra); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Extra = %q, want %q", name, got.Pairs(), want.Pairs())
			}
			ex.SetZero()
		}
		compareFields(t, name, reflect.ValueOf(v).Elem(), reflect.ValueOf(plain).Elem())
	}
	check(t, "conversation.json", &Conversation{}, &Conversation{}, "contact", "last_message", "um_widget", "contact_channel")
	check(t, "message.json", &Message{}, &Message{}, "state", "sender", "conversation")
	check(t, "contact.json", &Contact{}, &Contact{})
	check(t, "note.json", &Note{}, &Note{})
	check(t, "navigation_event.json", &NavigationEvent{}, &NavigationEvent{})
	check(t, "operator.json", &Operator{}, &Operator{})
	check(t, "slots.json", &Slots{}, &Slots{})
	check(t, "away.json", &AwayStatus{}, &AwayStatus{})
	check(t, "datapoint.json", &DataPoint{}, &DataPoint{})
	check(t, "page_contacts.json", &Page[Contact]{}, &Page[Contact]{})
	check(t, "cursor_messages.json", &CursorPage[Message]{}, &CursorPage[Message]{})
}

func TestDecodePages(t *testing.T) {
	p := decodeFixture[Page[Contact]](t, "page_contacts.json")
	if p.Count != 25 || p.Next != "https://api.example.com/prefix/api/um/v3/contact_identities/?limit=2&offset=4&search_query=jane+roe" ||
		p.Previous != "https://api.example.com/prefix/api/um/v3/contact_identities/?limit=2&search_query=jane+roe" || len(p.Results) != 2 {
		t.Errorf("page = count %d next %q previous %q, %d results", p.Count, p.Next, p.Previous, len(p.Results))
	}
	compareFields(t, "page.Results[0]", reflect.ValueOf(p.Results[0]), reflect.ValueOf(wantContact()))
	if p.Results[1].ID != 87 || p.Results[1].Name != nil || p.Results[1].Email != nil {
		t.Errorf("second contact = %+v", p.Results[1])
	}

	empty := decodeFixture[Page[Conversation]](t, "page_empty.json")
	if empty.Count != 0 || empty.Next != "" || empty.Previous != "" || empty.Results == nil || len(empty.Results) != 0 {
		t.Errorf("empty page = %+v (results nil: %v)", empty, empty.Results == nil)
	}

	bare := decodeFixture[Page[Operator]](t, "page_operators_bare.json")
	if bare.Count != 2 || bare.Next != "" || bare.Previous != "" || len(bare.Results) != 2 ||
		bare.Results[0].Role != RoleOwner || bare.Results[1].OperatorGroupID == nil || *bare.Results[1].OperatorGroupID != 4 || bare.Results[1].IsBot != Some(true) {
		t.Errorf("bare array page = %+v", bare)
	}
	var emptyBare Page[Note]
	if err := json.Unmarshal([]byte(" [ ] "), &emptyBare); err != nil || emptyBare.Count != 0 || len(emptyBare.Results) != 0 {
		t.Errorf("empty bare array: %+v, %v", emptyBare, err)
	}

	cur := decodeFixture[CursorPage[Message]](t, "cursor_messages.json")
	if cur.Count != nil || cur.Next != "https://api.example.com/api/um/v3/conversations/4711/messages/?cursor=4711.9001.2&limit=2" ||
		cur.Previous != "" || len(cur.Results) != 2 {
		t.Errorf("cursor page = %+v", cur)
	}
	compareFields(t, "cursor.Results[0]", reflect.ValueOf(cur.Results[0]), reflect.ValueOf(wantMessage()))
	if m := cur.Results[1]; m.OperatorID != nil || m.FromOperator() || m.State.Type != StateSubmitted || m.State.Label() != "Submitted" || m.URL != nil {
		t.Errorf("second message = %+v", m)
	}

	var withCount CursorPage[Contact]
	if err := json.Unmarshal([]byte(`{"count": 0, "next": null, "previous": null, "results": null}`), &withCount); err != nil {
		t.Fatal(err)
	}
	if withCount.Count == nil || *withCount.Count != 0 || withCount.Results == nil {
		t.Errorf("cursor page with count 0 = %+v", withCount)
	}
	for _, bad := range []string{`{"results": {}}`, `"x"`, `[{"id": "nope"}]`, `{"count": "3"}`} {
		var p Page[Contact]
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("page %s accepted", bad)
		}
	}
}

func TestParseTime(t *testing.T) {
	cases := []struct {
		in   string
		want time.Time
	}{
		{"2024-03-01T10:15:30Z", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01T10:15:30.123456Z", time.Date(2024, 3, 1, 10, 15, 30, 123_456_000, time.UTC)},
		{"2024-03-01T10:15:30.1Z", time.Date(2024, 3, 1, 10, 15, 30, 100_000_000, time.UTC)},
		{"2024-03-01T10:15:30.123456789Z", time.Date(2024, 3, 1, 10, 15, 30, 123_456_789, time.UTC)},
		{"2024-03-01T10:15:30", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01T10:15:30.5", time.Date(2024, 3, 1, 10, 15, 30, 500_000_000, time.UTC)},
		{"2024-03-01T12:15:30+02:00", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01T05:15:30.25-05:00", time.Date(2024, 3, 1, 10, 15, 30, 250_000_000, time.UTC)},
		{"2024-03-01T12:15:30+0200", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01 10:15:30", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01 10:15:30.75+00:00", time.Date(2024, 3, 1, 10, 15, 30, 750_000_000, time.UTC)},
		{"2024-03-01T10:15Z", time.Date(2024, 3, 1, 10, 15, 0, 0, time.UTC)},
		{"2024-03-01T10:15", time.Date(2024, 3, 1, 10, 15, 0, 0, time.UTC)},
		{"2024-03-01", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"  2024-03-01T10:15:30Z\n", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01T11:15:30+01", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01T11:15:30.1+01", time.Date(2024, 3, 1, 10, 15, 30, 100_000_000, time.UTC)},
		{"2024-03-01 07:15:30-03", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01T11:15+01", time.Date(2024, 3, 1, 10, 15, 0, 0, time.UTC)},
		{"2024-03-01t10:15:30z", time.Date(2024, 3, 1, 10, 15, 30, 0, time.UTC)},
		{"2024-03-01t10:15:30.5z", time.Date(2024, 3, 1, 10, 15, 30, 500_000_000, time.UTC)},
	}
	for _, c := range cases {
		got, err := ParseTime(c.in)
		if err != nil {
			t.Errorf("ParseTime(%q): %v", c.in, err)
			continue
		}
		if !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "2024-13-01T00:00:00Z", "2024-03-01T25:00:00Z", "01.03.2024", "2024-03-01T10:15:30 CET", "1709288130",
		"0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"} {
		if got, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) = %v, want an error", bad, got)
		}
	}
}

func TestTimeJSON(t *testing.T) {
	var tm Time
	for _, in := range []string{`null`, `""`, ` null `} {
		tm = Time{time.Now()}
		if err := json.Unmarshal([]byte(in), &tm); err != nil || !tm.IsZero() {
			t.Errorf("%s: %v, %v", in, tm, err)
		}
	}
	for _, bad := range []string{`123`, `true`, `"soon"`, `{}`} {
		if err := json.Unmarshal([]byte(bad), &tm); err == nil {
			t.Errorf("%s accepted as a timestamp", bad)
		}
	}
	b, err := json.Marshal(Time{time.Date(2024, 3, 1, 11, 15, 30, 123_456_789, berlin)})
	if err != nil || string(b) != `"2024-03-01T10:15:30.123456Z"` {
		t.Errorf("marshal = %s, %v", b, err)
	}
	if b, _ := json.Marshal(Time{}); string(b) != "null" {
		t.Errorf("zero marshals as %s", b)
	}
	var p struct {
		A *Time `json:"a"`
		B *Time `json:"b"`
	}
	if err := json.Unmarshal([]byte(`{"a": null, "b": "2024-03-01T10:15:30Z"}`), &p); err != nil || p.A != nil || p.B == nil {
		t.Errorf("nullable: %+v, %v", p, err)
	}
}

// The fields the spec shows only as empty arrays decode whatever shape they arrive in: one
// unexpected value must not make a whole page of conversations fail.
func TestOpenShapedConversationFieldsDecodeAnyValue(t *testing.T) {
	for _, v := range []string{`[]`, `[{"id":1}]`, `{}`, `{"goal":"checkout"}`, `"x"`, `3`, `null`} {
		var c Conversation
		body := `{"id":1,"um_widget_goals":` + v + `,"unread_messages_operator":` + v + `}`
		if err := json.Unmarshal([]byte(body), &c); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if c.ID != 1 {
			t.Fatalf("%s: id %d", v, c.ID)
		}
		if v != "null" && (string(c.WidgetGoals) != v || string(c.UnreadMessagesOperator) != v) {
			t.Fatalf("%s: kept %s and %s", v, c.WidgetGoals, c.UnreadMessagesOperator)
		}
	}
}
