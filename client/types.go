package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/parley-tui/parley/internal/when"
)

// Time is an API timestamp. It decodes ISO 8601 with or without fractional seconds and with
// or without a zone (no zone means UTC), and encodes as RFC 3339 in UTC with microseconds.
type Time struct{ time.Time }

// ParseTime parses an ISO 8601 timestamp in any of the shapes the API uses (when.ParseISO),
// or a date alone.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	// ISO 8601 allows the separator and the UTC designator in lower case.
	if len(s) > 10 && s[10] == 't' {
		s = s[:10] + "T" + s[11:]
	}
	if strings.HasSuffix(s, "z") {
		s = s[:len(s)-1] + "Z"
	}
	t, ok := when.ParseISO(s)
	if !ok {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return time.Time{}, fmt.Errorf("timestamp %q is not ISO 8601", s)
		}
		t = d
	}
	// A zone offset can push year 0 or 9999 out of the four-digit range, which
	// MarshalJSON would then write in a form ParseTime cannot read back.
	if y := t.Year(); y < 0 || y > 9999 {
		return time.Time{}, fmt.Errorf("timestamp %q is out of range", s)
	}
	return t, nil
}

// UnmarshalJSON accepts a timestamp string or null (the zero Time).
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	if s == "" {
		t.Time = time.Time{}
		return nil
	}
	v, err := ParseTime(s)
	if err != nil {
		return err
	}
	t.Time = v
	return nil
}

// MarshalJSON writes RFC 3339 UTC with microseconds, or null for the zero Time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(timeFormat))
}

const timeFormat = "2006-01-02T15:04:05.000000Z07:00"

// formatFilterTime is how timestamps go into filter query parameters.
func formatFilterTime(t time.Time) string { return t.UTC().Format(timeFormat) }

// Conversation is a chat with a contact (spec: Conversation).
type Conversation struct {
	ID                        int64              `json:"id"`
	AcceptsMessages           Opt[bool]          `json:"accepts_messages"`
	AddonURLs                 map[string]string  `json:"addon_urls"`
	Contact                   Contact            `json:"contact"`
	ContactChannel            ContactChannel     `json:"contact_channel"`
	ContactFirstMessageSentAt *Time              `json:"contact_first_message_sent_at"`
	ContactLastMessageSentAt  *Time              `json:"contact_last_message_sent_at"`
	ContactLastUpdateAt       Time               `json:"contact_last_update_at"`
	ConversationContactUUID   string             `json:"conversation_contact_uuid"`
	ConversationPartSet       []ConversationPart `json:"conversation_part_set,omitempty"`
	CreatedAt                 Time               `json:"created_at"`
	Custom                    json.RawMessage    `json:"custom,omitempty"`
	CustomerID                int64              `json:"customer_id"`
	DataPrivacy               Opt[bool]          `json:"data_privacy"`
	ExpiryState               int                `json:"expiry_state"`
	FeedbackMessage           *string            `json:"feedback_message"`
	LanguageName              string             `json:"language_name"`
	LastMessage               *Message           `json:"last_message"`
	LastMessageSentAt         Time               `json:"last_message_sent_at"`
	Locale                    string             `json:"locale"`
	MarkedReadContact         bool               `json:"marked_read_contact"`
	MarkedReadOperator        bool               `json:"marked_read_operator"`
	OperatorAssignedTo        *int64             `json:"operator_assigned_to"`
	OrganizationID            int64              `json:"organization_id"`
	PageImpressions           Opt[json.Number]   `json:"page_impressions"`
	PostSurveyOption          json.RawMessage    `json:"post_survey_option,omitempty"`
	PreSurveyOption           json.RawMessage    `json:"pre_survey_option,omitempty"`
	Rate                      *int               `json:"rate"`
	ReadPermission            bool               `json:"read_permission"`
	SlotReserved              bool               `json:"slot_reserved"`
	Status                    string             `json:"status"`
	StatusDescription         string             `json:"status_description"`
	Subject                   json.RawMessage    `json:"subject,omitempty"`
	Topics                    []Topic            `json:"topics"`
	Widget                    Widget             `json:"um_widget"`
	WidgetGoals               json.RawMessage    `json:"um_widget_goals,omitempty"`
	UnreadMessagesOperator    json.RawMessage    `json:"unread_messages_operator,omitempty"`
	UpdatedAt                 Time               `json:"updated_at"`
	Visits                    json.RawMessage    `json:"visits,omitempty"`
	WritePermission           bool               `json:"write_permission"`
}

// Conversation status values seen in the spec.
const (
	StatusNew     = "new"
	StatusPending = "pending"
	StatusEnded   = "ended"
)

// Ongoing reports whether the conversation is not ended (a list DELETE never deletes it).
func (c Conversation) Ongoing() bool { return c.Status != StatusEnded }

// ContactChannel is a conversation's contact_channel.
type ContactChannel struct {
	State string `json:"state"`
	Type  string `json:"type"`
}

// Widget is a conversation's um_widget.
type Widget struct {
	ID           int64  `json:"id"`
	LanguageName string `json:"language_name"`
	Name         string `json:"name"`
}

// ConversationPart is one session of a conversation (element of conversation_part_set).
type ConversationPart struct {
	ID              int64    `json:"id"`
	PartType        string   `json:"part_type"`
	NameFriendly    string   `json:"name_friendly"`
	CreatedAt       Time     `json:"created_at"`
	EndedAt         *Time    `json:"ended_at"`
	Duration        string   `json:"duration"`
	Browser         Browser  `json:"browser"`
	Location        Location `json:"location"`
	Referrer        *string  `json:"referrer"`
	ReadPermission  bool     `json:"read_permission"`
	WritePermission bool     `json:"write_permission"`
}

// Browser of a conversation part.
type Browser struct {
	Name    string `json:"name"`
	OS      string `json:"os"`
	Version string `json:"version"`
}

// Location of a conversation part.
type Location struct {
	City    string  `json:"city"`
	Country string  `json:"country"`
	Lat     float64 `json:"lat"`
	Lon     float64 `json:"lon"`
}

// Topic is a label on conversations.
type Topic struct {
	ID              int64  `json:"id"`
	OrganizationID  int64  `json:"organization_id"`
	Text            string `json:"text"`
	ReadPermission  bool   `json:"read_permission"`
	WritePermission bool   `json:"write_permission"`
}

// Message is one message of a conversation. Its ID has the form
// "<conversation_id>.<part_id>.<sequence>" and is the messages cursor.
type Message struct {
	ID                  string          `json:"id"`
	MsgID               string          `json:"msgid"`
	ConversationID      int64           `json:"conversation_id"`
	Conversation        IDRef           `json:"conversation"`
	PartID              int64           `json:"part_id"`
	SentAt              Time            `json:"sent_at"`
	SentAtTime          string          `json:"sent_at_time"`
	Type                string          `json:"type"`
	Event               json.RawMessage `json:"event,omitempty"`
	Body                string          `json:"body"`
	Reference           json.RawMessage `json:"reference,omitempty"`
	URL                 *string         `json:"url"`
	State               MessageState    `json:"state"`
	OperatorID          *int64          `json:"operator_id"`
	OperatorName        string          `json:"operator_name"`
	OperatorDisplayName string          `json:"operator_display_name"`
	OperatorIsBot       bool            `json:"operator_is_bot"`
	Name                string          `json:"name"`
	DisplayName         string          `json:"display_name"`
	Sender              Sender          `json:"sender"`
	MarkedReadOperator  bool            `json:"marked_read_operator"`
	MarkedReadContact   bool            `json:"marked_read_contact"`
}

// FromOperator reports whether an operator (human or bot) sent the message.
func (m Message) FromOperator() bool { return m.Sender.Type == SenderOperator }

// Role is who sent the message: RoleBot ("bot") for a bot operator, SenderOperator
// ("operator") for a human one, else SenderContact ("contact").
func (m Message) Role() string {
	switch {
	case m.FromOperator() && m.OperatorIsBot:
		return RoleBot
	case m.FromOperator():
		return SenderOperator
	}
	return SenderContact
}

// SenderName is the name a message's sender goes by, as the API sent it (unsanitized):
// the display name, else the name; for an operator's message the operator's display name
// first, and the operator's name when the message names no one. "" when nothing names the
// sender.
func (m Message) SenderName() string {
	name := m.DisplayName
	if name == "" {
		name = m.Name
	}
	if m.FromOperator() {
		if m.OperatorDisplayName != "" {
			name = m.OperatorDisplayName
		} else if name == "" {
			name = m.OperatorName
		}
	}
	return strings.TrimSpace(name)
}

// IDRef is an object carrying only an id.
type IDRef struct {
	ID int64 `json:"id"`
}

// Sender types.
const (
	SenderOperator = "operator"
	SenderContact  = "contact"
)

// Sender of a message.
type Sender struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
}

// Message state types seen in the spec.
const (
	StateSubmitted = 1
	StateDelivered = 3
	StateRead      = 4
)

// MessageState is a message's delivery state.
type MessageState struct {
	Type      int             `json:"type"`
	ErrorCode json.RawMessage `json:"error_code,omitempty"`
	Message   string          `json:"message"`
}

// Label is the state's human text: the server's message when present, else the spec's
// pairing of type and text.
func (s MessageState) Label() string {
	if s.Message != "" {
		return s.Message
	}
	switch s.Type {
	case StateSubmitted:
		return "Submitted"
	case StateDelivered:
		return "Delivered to contact"
	case StateRead:
		return "Read by user"
	}
	return ""
}

// Contact is a contact identity. Conversations embed it without ContactUUIDs and
// ConversationCount.
type Contact struct {
	ID                        int64    `json:"id"`
	ContactUUIDs              []string `json:"contact_uuids,omitempty"`
	ConversationCount         *int     `json:"conversation_count,omitempty"`
	Name                      *string  `json:"name"`
	Email                     *string  `json:"email"`
	EmailVerified             bool     `json:"email_verified"`
	PhoneNumber               *string  `json:"phone_number"`
	MobileNumber              *string  `json:"mobile_number"`
	IsMobileNumberVerified    bool     `json:"is_mobile_number_verified"`
	Verified                  bool     `json:"verified"`
	Company                   *string  `json:"company"`
	Position                  *string  `json:"position"`
	Gender                    *string  `json:"gender"`
	Salutation                *string  `json:"salutation"`
	Street                    *string  `json:"street"`
	City                      *string  `json:"city"`
	Country                   *string  `json:"country"`
	LocLat                    float64  `json:"loc_lat"`
	LocLon                    float64  `json:"loc_lon"`
	Locale                    string   `json:"locale"`
	ExternalCustomerID        *string  `json:"external_customer_id"`
	ContactByEmail            bool     `json:"contact_by_email"`
	ContactByPhone            bool     `json:"contact_by_phone"`
	ContactByServiceChannels  bool     `json:"contact_by_service_channels"`
	ContactByServiceMessenger bool     `json:"contact_by_service_messenger"`
	IsBlocked                 bool     `json:"is_blocked"`
	NeedsRegister             bool     `json:"needs_register"`
	URLFacebook               *string  `json:"url_facebook"`
	URLLinkedIn               *string  `json:"url_linkedin"`
	URLProfilePicture         *string  `json:"url_profile_picture"`
	URLTwitter                *string  `json:"url_twitter"`
	CreatedAt                 Time     `json:"created_at"`
	FirstMessageSentAt        *Time    `json:"first_message_sent_at"`
	LastMessageSentAt         *Time    `json:"last_message_sent_at"`
	ReadPermission            bool     `json:"read_permission"`
	WritePermission           bool     `json:"write_permission"`
}

// Str dereferences a nullable string ("" for null).
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Note is a note about a contact (fields beyond the creation body: docs/api-notes.md; they
// may be missing from another server's answer). Extra keeps the fields it does not know.
type Note struct {
	ID                int64  `json:"id"`
	OrganizationID    int64  `json:"organization_id"`
	ContactIdentityID int64  `json:"contact_identity_id"`
	Body              string `json:"body"`
	// OperatorID is the author; null (Null set) when the note was written without an
	// operator (an organization token without Service-Operator-Id), unknown when not sent.
	OperatorID      Opt[int64] `json:"operator_id"`
	CreatedAt       Time       `json:"created_at"` // zero when not sent
	UpdatedAt       Time       `json:"updated_at"`
	ReadPermission  bool       `json:"read_permission"`
	WritePermission bool       `json:"write_permission"`
	Extra           Extra      `json:"-"`
}

// NavigationEvent is a page a contact visited (fields: docs/api-notes.md; they may be
// missing from another server's answer). Extra keeps the fields it does not know.
type NavigationEvent struct {
	ID                int64   `json:"id"`
	OrganizationID    int64   `json:"organization_id"`
	ContactIdentityID *int64  `json:"contact_identity_id"`
	ConversationID    *int64  `json:"conversation_id"`
	URL               string  `json:"url"`
	Title             string  `json:"title"`
	Referrer          *string `json:"referrer"`
	CreatedAt         Time    `json:"created_at"` // zero when not sent
	Extra             Extra   `json:"-"`
}

// Operator roles (docs/api-notes.md).
const (
	RoleOwner = "owner"
	RoleAdmin = "admin"
	RoleAgent = "agent"
	RoleBot   = "bot"
)

// Operator is a human or bot agent of an organization (fields: docs/api-notes.md; they may
// be missing from another server's answer: texts are then "", the flags unknown). Extra
// keeps the fields it does not know.
type Operator struct {
	ID              int64     `json:"id"`
	OrganizationID  int64     `json:"organization_id"`
	Name            string    `json:"name"`
	DisplayName     string    `json:"display_name"`
	Email           string    `json:"email"`
	Role            string    `json:"role"`
	IsBot           Opt[bool] `json:"is_bot"`
	IsAway          Opt[bool] `json:"is_away"`
	IsOnline        Opt[bool] `json:"is_online"`
	Locale          string    `json:"locale"`
	OperatorGroupID *int64    `json:"operator_group_id"`
	CreatedAt       Time      `json:"created_at"`
	UpdatedAt       Time      `json:"updated_at"`
	ReadPermission  bool      `json:"read_permission"`
	WritePermission bool      `json:"write_permission"`
	// MaxSlots is the operator's slot total when its record carries one (max_slots), as a
	// server does that answers the slots as a list of the occupied ones.
	MaxSlots Opt[int] `json:"-"`
	Extra    Extra    `json:"-"`
}

// Slots is an operator's slot usage (GET /operators/{id}/slots/); see Slots.UnmarshalJSON
// for the shapes read. A number the answer does not give stays unknown.
type Slots struct {
	OperatorID   int64    `json:"operator_id"`
	CurrentSlots Opt[int] `json:"current_slots"`
	TotalSlots   Opt[int] `json:"total_slots"`
	// Held is the occupied slots as compact JSON, when the answer lists them.
	Held  []json.RawMessage `json:"-"`
	Extra Extra             `json:"-"`
}

// AwayStatus is the answer of PATCH /operators/{id}/away/. IsAway and IsOnline are known
// only when the answer states them; Operator is set when the answer is the whole operator.
type AwayStatus struct {
	OperatorID int64     `json:"operator_id"`
	IsAway     Opt[bool] `json:"is_away"`
	ChangedAt  *Time     `json:"changed_at"`
	IsOnline   Opt[bool] `json:"-"`
	Operator   *Operator `json:"-"`
	Extra      Extra     `json:"-"`
}

// Page is one page of an offset-paginated list.
type Page[T any] struct {
	Count    int    `json:"count"`
	Next     string `json:"next"`
	Previous string `json:"previous"`
	Results  []T    `json:"results"`
	// Counted: the answer carried a count (a number); a bare array, or an envelope without
	// one, did not: Count is then len(Results) or 0, nothing the server said.
	Counted bool `json:"-"`
	// BadCount: the answer's count was below zero, which no list can have: Count is 0 and
	// Counted false, and a screen shows the count as unknown ("—") rather than the rows.
	BadCount bool `json:"-"`
	// noResults: the decoded envelope had no `results` at all (an answer the client refuses);
	// `"results": null` decodes as empty.
	noResults bool
}

// UnmarshalJSON accepts the offset envelope, and also a bare JSON array (some list
// endpoints of the spec are described only as "list of …").
func (p *Page[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var items []T
		if err := json.Unmarshal(b, &items); err != nil {
			return err
		}
		if items == nil {
			items = []T{}
		}
		*p = Page[T]{Count: len(items), Results: items}
		return nil
	}
	env, results, err := decodeEnvelope[T](b)
	if err != nil {
		return err
	}
	// A count below zero is no count: no list has fewer than no items.
	counted := env.Count != nil && *env.Count >= 0
	count := 0
	if counted {
		count = *env.Count
	}
	*p = Page[T]{Count: count, Counted: counted, BadCount: env.Count != nil && !counted, Next: Str(env.Next), Previous: Str(env.Previous), Results: results, noResults: env.Results == nil}
	return nil
}

// CursorPage is one page of a cursor-paginated list (`/all/` endpoints and messages).
// Count is nil for messages, which carry none.
type CursorPage[T any] struct {
	Count    *int   `json:"count,omitempty"`
	Next     string `json:"next"`
	Previous string `json:"previous"`
	Results  []T    `json:"results"`
	// noResults: as in Page.
	noResults bool
}

// UnmarshalJSON decodes the cursor envelope; null links become "".
func (p *CursorPage[T]) UnmarshalJSON(b []byte) error {
	env, results, err := decodeEnvelope[T](b)
	if err != nil {
		return err
	}
	if env.Count != nil && *env.Count < 0 {
		env.Count = nil // no count: no list has fewer than no items
	}
	*p = CursorPage[T]{Count: env.Count, Next: Str(env.Next), Previous: Str(env.Previous), Results: results, noResults: env.Results == nil}
	return nil
}

// envelope is a list answer's envelope as sent (nil: not sent, or null).
type envelope struct {
	Count    *int            `json:"count"`
	Next     *string         `json:"next"`
	Previous *string         `json:"previous"`
	Results  json.RawMessage `json:"results"`
}

// decodeEnvelope decodes a list answer's envelope and its results (see decodeResults).
func decodeEnvelope[T any](b []byte) (envelope, []T, error) {
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return env, nil, err
	}
	results, err := decodeResults[T](env.Results)
	return env, results, err
}

// decodeResults decodes an envelope's `results` (raw is nil when the key was missing): never
// nil, empty for null. A type error names the field from the envelope down.
func decodeResults[T any](raw json.RawMessage) ([]T, error) {
	if raw == nil {
		return []T{}, nil
	}
	var items []T
	if err := json.Unmarshal(raw, &items); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			te.Field = strings.TrimSuffix("results."+te.Field, ".")
		}
		return nil, err
	}
	if items == nil {
		items = []T{}
	}
	return items, nil
}
