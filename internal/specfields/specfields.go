// Package specfields lists the field names of the API's objects as the API's field tables
// give them, and as docs/api-notes.md gives them for the objects the tables do not show
// (notes, navigation events, operators, slots, the away status). The client's types and the
// sandbox's responses are written apart on purpose (docs/api-notes.md, "Two sets of API
// types"); their tests check both against these names, so that neither side's guess becomes
// the other's unnoticed. Standard library only; nothing outside tests uses it.
package specfields

import (
	"reflect"
	"slices"
	"strings"
)

// The objects, by the name Fields takes.
const (
	Conversation = "conversation"
	Part         = "conversation part"
	Topic        = "topic"
	Message      = "message"
	Contact      = "contact"
	Channel      = "contact channel"
	Widget       = "widget"
	Browser      = "browser"
	Location     = "location"
	State        = "message state"
	Sender       = "message sender"
	ConvRef      = "message conversation"
	DataPoint    = "data point"
	Note         = "note"       // docs/api-notes.md
	Navigation   = "navigation" // docs/api-notes.md
	Operator     = "operator"   // docs/api-notes.md
	Slots        = "slots"      // docs/api-notes.md
	Away         = "away"       // docs/api-notes.md
)

// Fields returns the field names of the named object (nil for a name it does not know).
func Fields(object string) []string {
	switch object {
	case Conversation:
		return []string{"id", "accepts_messages", "addon_urls", "contact", "contact_channel",
			"contact_first_message_sent_at", "contact_last_message_sent_at", "contact_last_update_at",
			"conversation_contact_uuid", "conversation_part_set", "created_at", "custom", "customer_id",
			"data_privacy", "expiry_state", "feedback_message", "language_name", "last_message",
			"last_message_sent_at", "locale", "marked_read_contact", "marked_read_operator",
			"operator_assigned_to", "organization_id", "page_impressions", "post_survey_option",
			"pre_survey_option", "rate", "read_permission", "slot_reserved", "status", "status_description",
			"subject", "topics", "um_widget", "um_widget_goals", "unread_messages_operator", "updated_at",
			"visits", "write_permission"}
	case Part:
		return []string{"id", "part_type", "name_friendly", "created_at", "ended_at", "duration",
			"browser", "location", "referrer", "read_permission", "write_permission"}
	case Topic:
		return []string{"id", "organization_id", "text", "read_permission", "write_permission"}
	case Message:
		return []string{"id", "msgid", "conversation_id", "conversation", "part_id", "sent_at",
			"sent_at_time", "type", "event", "body", "reference", "url", "state", "operator_id", "operator_name",
			"operator_display_name", "operator_is_bot", "name", "display_name", "sender", "marked_read_operator",
			"marked_read_contact"}
	case Contact:
		return []string{"id", "contact_uuids", "conversation_count", "name", "email",
			"email_verified", "phone_number", "mobile_number", "is_mobile_number_verified", "verified",
			"company", "position", "gender", "salutation", "street", "city", "country", "loc_lat", "loc_lon",
			"locale", "external_customer_id", "contact_by_email", "contact_by_phone",
			"contact_by_service_channels", "contact_by_service_messenger", "is_blocked", "needs_register",
			"url_facebook", "url_linkedin", "url_profile_picture", "url_twitter", "created_at",
			"first_message_sent_at", "last_message_sent_at", "read_permission", "write_permission"}
	case Channel:
		return []string{"state", "type"}
	case Widget:
		return []string{"id", "language_name", "name"}
	case Browser:
		return []string{"name", "os", "version"}
	case Location:
		return []string{"city", "country", "lat", "lon"}
	case State:
		return []string{"type", "error_code", "message"}
	case Sender:
		return []string{"type", "id"}
	case ConvRef:
		return []string{"id"}
	case DataPoint:
		return []string{"um_widget_id", "organization_id", "operator_id", "operator_group_id", "time", "value",
			"value_str", "conversation_id", "conversation_part_id", "conversation_session_id", "is_chatbot_metric",
			"chatbot_interaction", "human_interaction"}
	case Note:
		return []string{"id", "organization_id", "contact_identity_id", "body", "operator_id",
			"created_at", "updated_at", "read_permission", "write_permission"}
	case Navigation:
		return []string{"id", "organization_id", "contact_identity_id", "conversation_id",
			"url", "title", "referrer", "created_at"}
	case Operator:
		return []string{"id", "organization_id", "name", "display_name", "email", "role",
			"is_bot", "is_away", "is_online", "locale", "operator_group_id", "created_at", "updated_at",
			"read_permission", "write_permission"}
	case Slots:
		return []string{"operator_id", "current_slots", "total_slots"}
	case Away:
		return []string{"operator_id", "is_away", "changed_at"}
	}
	return nil
}

// Without is list less the names in drop.
func Without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
}

// JSONNames maps the JSON names of a struct's fields to their Go names (fields without a
// name, or tagged "-", are left out).
func JSONNames(v any) map[string]string {
	rt := reflect.TypeOf(v)
	out := map[string]string{}
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = rt.Field(i).Name
		}
	}
	return out
}

// Diff names what got lacks of want (missing) and what it has beyond it (extra), sorted.
func Diff(got, want []string) (missing, extra []string) {
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}
