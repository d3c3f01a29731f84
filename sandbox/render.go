package sandbox

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// stamp is a timestamp stored as microseconds since the epoch and rendered as ISO 8601 UTC
// with microseconds and Z.
type stamp int64

const stampLayout = "2006-01-02T15:04:05.000000Z"

func (t stamp) String() string { return time.UnixMicro(int64(t)).UTC().Format(stampLayout) }

func (t stamp) MarshalJSON() ([]byte, error) { return []byte(`"` + t.String() + `"`), nil }

func (t *stamp) Scan(src any) error {
	switch v := src.(type) {
	case int64:
		*t = stamp(v)
		return nil
	case float64:
		*t = stamp(int64(v))
		return nil
	}
	return fmt.Errorf("timestamp: unexpected %T", src)
}

type topicJSON struct {
	ID              int64  `json:"id"`
	OrganizationID  int64  `json:"organization_id"`
	Text            string `json:"text"`
	ReadPermission  bool   `json:"read_permission"`
	WritePermission bool   `json:"write_permission"`
}

type contactJSON struct {
	ID                        int64     `json:"id"`
	ContactUUIDs              *[]string `json:"contact_uuids,omitempty"`
	ConversationCount         *int      `json:"conversation_count,omitempty"`
	Name                      *string   `json:"name"`
	Email                     *string   `json:"email"`
	EmailVerified             bool      `json:"email_verified"`
	PhoneNumber               *string   `json:"phone_number"`
	MobileNumber              *string   `json:"mobile_number"`
	IsMobileNumberVerified    bool      `json:"is_mobile_number_verified"`
	Verified                  bool      `json:"verified"`
	Company                   *string   `json:"company"`
	Position                  *string   `json:"position"`
	Gender                    *string   `json:"gender"`
	Salutation                *string   `json:"salutation"`
	Street                    *string   `json:"street"`
	City                      *string   `json:"city"`
	Country                   *string   `json:"country"`
	LocLat                    float64   `json:"loc_lat"`
	LocLon                    float64   `json:"loc_lon"`
	Locale                    string    `json:"locale"`
	ExternalCustomerID        *string   `json:"external_customer_id"`
	ContactByEmail            bool      `json:"contact_by_email"`
	ContactByPhone            bool      `json:"contact_by_phone"`
	ContactByServiceChannels  bool      `json:"contact_by_service_channels"`
	ContactByServiceMessenger bool      `json:"contact_by_service_messenger"`
	IsBlocked                 bool      `json:"is_blocked"`
	NeedsRegister             bool      `json:"needs_register"`
	URLFacebook               *string   `json:"url_facebook"`
	URLLinkedIn               *string   `json:"url_linkedin"`
	URLProfilePicture         *string   `json:"url_profile_picture"`
	URLTwitter                *string   `json:"url_twitter"`
	CreatedAt                 stamp     `json:"created_at"`
	FirstMessageSentAt        *stamp    `json:"first_message_sent_at"`
	LastMessageSentAt         *stamp    `json:"last_message_sent_at"`
	ReadPermission            bool      `json:"read_permission"`
	WritePermission           bool      `json:"write_permission"`
}

// contactColumns are the contact columns scanned by contactTargets, for table alias a.
func contactColumns(a string) string {
	cols := []string{"id", "name", "email", "email_verified", "phone_number", "mobile_number",
		"is_mobile_number_verified", "company", "position", "gender", "salutation", "street", "city", "country",
		"loc_lat", "loc_lon", "locale", "external_customer_id", "contact_by_email", "contact_by_phone",
		"contact_by_service_channels", "contact_by_service_messenger", "is_blocked", "needs_register",
		"url_facebook", "url_linkedin", "url_profile_picture", "url_twitter", "created_at",
		"first_message_sent_at", "last_message_sent_at"}
	for i, c := range cols {
		cols[i] = a + "." + c
	}
	return strings.Join(cols, ", ")
}

func contactTargets(c *contactJSON) []any {
	return []any{&c.ID, &c.Name, &c.Email, &c.EmailVerified, &c.PhoneNumber, &c.MobileNumber,
		&c.IsMobileNumberVerified, &c.Company, &c.Position, &c.Gender, &c.Salutation, &c.Street, &c.City, &c.Country,
		&c.LocLat, &c.LocLon, &c.Locale, &c.ExternalCustomerID, &c.ContactByEmail, &c.ContactByPhone,
		&c.ContactByServiceChannels, &c.ContactByServiceMessenger, &c.IsBlocked, &c.NeedsRegister,
		&c.URLFacebook, &c.URLLinkedIn, &c.URLProfilePicture, &c.URLTwitter, &c.CreatedAt,
		&c.FirstMessageSentAt, &c.LastMessageSentAt}
}

type idObj struct {
	ID int64 `json:"id"`
}

type messageState struct {
	Type      int     `json:"type"`
	ErrorCode *string `json:"error_code"`
	Message   string  `json:"message"`
}

type messageSender struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
}

type messageJSON struct {
	ID                  string        `json:"id"`
	MsgID               string        `json:"msgid"`
	ConversationID      int64         `json:"conversation_id"`
	Conversation        idObj         `json:"conversation"`
	PartID              int64         `json:"part_id"`
	SentAt              stamp         `json:"sent_at"`
	SentAtTime          string        `json:"sent_at_time"`
	Type                string        `json:"type"`
	Event               *string       `json:"event"`
	Body                string        `json:"body"`
	Reference           *string       `json:"reference"`
	URL                 *string       `json:"url"`
	State               messageState  `json:"state"`
	OperatorID          *int64        `json:"operator_id"`
	OperatorName        string        `json:"operator_name"`
	OperatorDisplayName string        `json:"operator_display_name"`
	OperatorIsBot       bool          `json:"operator_is_bot"`
	Name                string        `json:"name"`
	DisplayName         string        `json:"display_name"`
	Sender              messageSender `json:"sender"`
	MarkedReadOperator  bool          `json:"marked_read_operator"`
	MarkedReadContact   bool          `json:"marked_read_contact"`

	seq int64
}

const messageColumns = `conversation_id, part_id, seq, sent_at, body, url, state_type, operator_id, operator_name,
	operator_display_name, operator_is_bot, sender_type, sender_id, name, display_name, marked_read_operator,
	marked_read_contact`

// prefixed qualifies a comma-separated column list with a table alias.
func prefixed(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, p := range parts {
		parts[i] = alias + "." + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

func messageTargets(m *messageJSON) []any {
	return []any{&m.ConversationID, &m.PartID, &m.seq, &m.SentAt, &m.Body, &m.URL, &m.State.Type, &m.OperatorID,
		&m.OperatorName, &m.OperatorDisplayName, &m.OperatorIsBot, &m.Sender.Type, &m.Sender.ID, &m.Name,
		&m.DisplayName, &m.MarkedReadOperator, &m.MarkedReadContact}
}

// finish fills the derived fields after scanning.
func (m *messageJSON) finish() {
	m.ID = messageID(m.ConversationID, m.PartID, m.seq)
	m.MsgID = m.ID
	m.Conversation = idObj{ID: m.ConversationID}
	m.SentAtTime = time.UnixMicro(int64(m.SentAt)).UTC().Format("15:04:05.000000")
	m.Type = "message"
	m.State.Message = stateMessage(m.State.Type)
}

func messageID(conv, part, seq int64) string {
	return strconv.FormatInt(conv, 10) + "." + strconv.FormatInt(part, 10) + "." + strconv.FormatInt(seq, 10)
}

func stateMessage(t int) string {
	switch t {
	case 1:
		return "Submitted"
	case 3:
		return "Delivered to contact"
	case 4:
		return "Read by user"
	}
	return "Unknown"
}

type partBrowser struct {
	Name    string `json:"name"`
	OS      string `json:"os"`
	Version string `json:"version"`
}

type partLocation struct {
	City    string  `json:"city"`
	Country string  `json:"country"`
	Lat     float64 `json:"lat"`
	Lon     float64 `json:"lon"`
}

type partJSON struct {
	ID              int64        `json:"id"`
	PartType        string       `json:"part_type"`
	NameFriendly    string       `json:"name_friendly"`
	CreatedAt       stamp        `json:"created_at"`
	EndedAt         stamp        `json:"ended_at"`
	Duration        string       `json:"duration"`
	Browser         partBrowser  `json:"browser"`
	Location        partLocation `json:"location"`
	Referrer        *string      `json:"referrer"`
	ReadPermission  bool         `json:"read_permission"`
	WritePermission bool         `json:"write_permission"`
}

func hms(us int64) string {
	if us < 0 {
		us = 0
	}
	s := us / usSecond
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, (s/60)%60, s%60)
}

type channelJSON struct {
	State string `json:"state"`
	Type  string `json:"type"`
}

type widgetJSON struct {
	ID           int64  `json:"id"`
	LanguageName string `json:"language_name"`
	Name         string `json:"name"`
}

type conversationJSON struct {
	ID                        int64           `json:"id"`
	AcceptsMessages           bool            `json:"accepts_messages"`
	AddonURLs                 json.RawMessage `json:"addon_urls"`
	Contact                   contactJSON     `json:"contact"`
	ContactChannel            channelJSON     `json:"contact_channel"`
	ContactFirstMessageSentAt *stamp          `json:"contact_first_message_sent_at"`
	ContactLastMessageSentAt  *stamp          `json:"contact_last_message_sent_at"`
	ContactLastUpdateAt       stamp           `json:"contact_last_update_at"`
	ConversationContactUUID   string          `json:"conversation_contact_uuid"`
	ConversationPartSet       *[]partJSON     `json:"conversation_part_set,omitempty"`
	CreatedAt                 stamp           `json:"created_at"`
	Custom                    json.RawMessage `json:"custom"`
	CustomerID                int64           `json:"customer_id"`
	DataPrivacy               bool            `json:"data_privacy"`
	ExpiryState               int             `json:"expiry_state"`
	FeedbackMessage           *string         `json:"feedback_message"`
	LanguageName              string          `json:"language_name"`
	LastMessage               *messageJSON    `json:"last_message"`
	LastMessageSentAt         stamp           `json:"last_message_sent_at"`
	Locale                    string          `json:"locale"`
	MarkedReadContact         bool            `json:"marked_read_contact"`
	MarkedReadOperator        bool            `json:"marked_read_operator"`
	OperatorAssignedTo        *int64          `json:"operator_assigned_to"`
	OrganizationID            int64           `json:"organization_id"`
	PageImpressions           int64           `json:"page_impressions"`
	PostSurveyOption          *string         `json:"post_survey_option"`
	PreSurveyOption           *string         `json:"pre_survey_option"`
	Rate                      *int64          `json:"rate"`
	ReadPermission            bool            `json:"read_permission"`
	SlotReserved              bool            `json:"slot_reserved"`
	Status                    string          `json:"status"`
	StatusDescription         string          `json:"status_description"`
	Subject                   *string         `json:"subject"`
	Topics                    []topicJSON     `json:"topics"`
	Widget                    widgetJSON      `json:"um_widget"`
	WidgetGoals               []any           `json:"um_widget_goals"`
	UnreadMessagesOperator    []any           `json:"unread_messages_operator"`
	UpdatedAt                 stamp           `json:"updated_at"`
	Visits                    *string         `json:"visits"`
	WritePermission           bool            `json:"write_permission"`
}

func statusDescription(s string) string {
	switch s {
	case "new":
		return "New conversation, not yet answered"
	case "pending":
		return "Pending, waiting for a reply"
	case "ended":
		return "Ended"
	}
	return s
}

type operatorJSON struct {
	ID              int64  `json:"id"`
	OrganizationID  int64  `json:"organization_id"`
	Name            string `json:"name"`
	DisplayName     string `json:"display_name"`
	Email           string `json:"email"`
	Role            string `json:"role"`
	IsBot           bool   `json:"is_bot"`
	IsAway          bool   `json:"is_away"`
	IsOnline        bool   `json:"is_online"`
	Locale          string `json:"locale"`
	OperatorGroupID *int64 `json:"operator_group_id"`
	CreatedAt       stamp  `json:"created_at"`
	UpdatedAt       stamp  `json:"updated_at"`
	ReadPermission  bool   `json:"read_permission"`
	WritePermission bool   `json:"write_permission"`
	MaxSlots        *int   `json:"max_slots,omitempty"` // with VariantSlotsList only
}

type noteJSON struct {
	ID                int64  `json:"id"`
	OrganizationID    int64  `json:"organization_id"`
	ContactIdentityID int64  `json:"contact_identity_id"`
	Body              string `json:"body"`
	OperatorID        *int64 `json:"operator_id"`
	CreatedAt         stamp  `json:"created_at"`
	UpdatedAt         stamp  `json:"updated_at"`
	ReadPermission    bool   `json:"read_permission"`
	WritePermission   bool   `json:"write_permission"`
}

type navigationJSON struct {
	ID                int64   `json:"id"`
	OrganizationID    int64   `json:"organization_id"`
	ContactIdentityID *int64  `json:"contact_identity_id"`
	ConversationID    *int64  `json:"conversation_id"`
	URL               string  `json:"url"`
	Title             string  `json:"title"`
	Referrer          *string `json:"referrer"`
	CreatedAt         stamp   `json:"created_at"`
}
