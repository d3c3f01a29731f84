package client

// Metric is an analytics resource name (analytics-v1.md, Events).
type Metric string

// Every metric of the Analytics API v1.
const (
	MetricConversationFirstMessage                         Metric = "um_conversation_first_message"
	MetricConversationFirstMessageAssignmentUpdate         Metric = "um_conversation_first_message_assignment_update"
	MetricConversationDuration                             Metric = "um_conversation_duration"
	MetricChatMessagesTotal                                Metric = "um_chat_messages_total"
	MetricChatMessagesCT                                   Metric = "um_chat_messages_ct"
	MetricChatMessagesCO                                   Metric = "um_chat_messages_co"
	MetricOperatorStatus                                   Metric = "um_operator_status"
	MetricOperatorSlotUsage                                Metric = "um_operator_slot_usage"
	MetricOperatorResponseTimeFirst                        Metric = "um_operator_response_time_first"
	MetricOperatorResponseTimeFirstServiceTime             Metric = "um_operator_response_time_first_service_time"
	MetricOperatorResponseTimeConversationFirst            Metric = "um_operator_response_time_conversation_first"
	MetricOperatorResponseTimeConversationFirstServiceTime Metric = "um_operator_response_time_conversation_first_service_time"
	MetricOperatorResponseTime                             Metric = "um_operator_response_time"
	MetricOperatorResponseTimeServiceTime                  Metric = "um_operator_response_time_service_time"
	MetricOperatorResponseTimeToUnansweredSessionFirst     Metric = "um_operator_response_time_to_unanswered_session_first"
	MetricOperatorResponseTimeToUnansweredSessionFirstST   Metric = "um_operator_response_time_to_unanswered_session_first_service_time"
	MetricOperatorResponseTimeToUnansweredSession          Metric = "um_operator_response_time_to_unanswered_session"
	MetricOperatorResponseTimeToUnansweredSessionST        Metric = "um_operator_response_time_to_unanswered_session_service_time"
	MetricConversationRating                               Metric = "um_conversation_rating"
	MetricConversationFeedback                             Metric = "um_conversation_feedback"
	MetricConversationUnansweredLive                       Metric = "um_conversation_unanswered_live"
	MetricConversationUnansweredEnded                      Metric = "um_conversation_unanswered_ended"
	MetricConversationInactivityAction                     Metric = "um_conversation_inactivity_action"
	MetricConversationGoalReached                          Metric = "um_conversation_goal_reached"
	MetricConversationReopen                               Metric = "um_conversation_reopen"
	MetricMissedOpportunity                                Metric = "um_missed_opportunity"
	MetricConversationTopic                                Metric = "um_conversation_topic"
	MetricConversationTopicChange                          Metric = "um_conversation_topic_change"
	MetricConversationPreSurvey                            Metric = "um_conversation_pre_survey"
	MetricConversationPostSurvey                           Metric = "um_conversation_post_survey"
	MetricContactUniqueVisit                               Metric = "um_contact_unique_visit"
	MetricContactCountry                                   Metric = "um_contact_country"
	MetricContactBrowser                                   Metric = "um_contact_browser"
	MetricContactResponseTimeBackchannel                   Metric = "um_contact_response_time_backchannel"
	MetricContactResponseTimeBackchannelServiceTime        Metric = "um_contact_response_time_backchannel_service_time"
	MetricConversationCategory                             Metric = "um_conversation_category"
	MetricConversationPartCategory                         Metric = "um_conversation_part_category"
	MetricConversationSessionCount                         Metric = "um_conversation_session_count"
	MetricConversationSessionDurationLive                  Metric = "um_conversation_session_duration_live"
	MetricConversationSessionDurationOffline               Metric = "um_conversation_session_duration_offline"
	MetricConversationSessionDurationReEngage              Metric = "um_conversation_session_duration_re_engage"
	MetricConversationStatusDuration                       Metric = "um_conversation_status_duration"
	MetricConversationUnassignedDuration                   Metric = "um_conversation_unassigned_duration"
	MetricChatSessionManualForwardLive                     Metric = "um_chat_session_manual_forward_live"
	MetricChatSessionManualForwardOffline                  Metric = "um_chat_session_manual_forward_offline"
	MetricChatSessionManualForwardReEngage                 Metric = "um_chat_session_manual_forward_re_engage"
	MetricChatSessionManualForwardGroupLive                Metric = "um_chat_session_manual_forward_group_live"
	MetricChatSessionManualForwardGroupOffline             Metric = "um_chat_session_manual_forward_group_offline"
	MetricChatSessionManualForwardGroupReEngage            Metric = "um_chat_session_manual_forward_group_re_engage"
	MetricChatSessionBotForwardReceived                    Metric = "um_chat_session_bot_forward_received"
	MetricContactResponseTime                              Metric = "um_contact_response_time"
	MetricContactResponseTimeServiceTime                   Metric = "um_contact_response_time_service_time"
)

// Unit tells how a metric's `value` reads.
type Unit string

// Units of metric values.
const (
	UnitNone    Unit = ""        // no value: each data point is one occurrence
	UnitCount   Unit = "count"   // a count (messages, sessions) or 1 per occurrence
	UnitSeconds Unit = "seconds" // a duration in seconds
	UnitPercent Unit = "percent" // a utilization in percent
	UnitRating  Unit = "rating"  // a contact's rating
	UnitID      Unit = "id"      // an identifier (goal, topic, survey option): not a quantity
)

// Metric groups, the themes of the analytics screen's picker.
const (
	GroupConversations = "Conversations"
	GroupMessages      = "Messages"
	GroupResponseTimes = "Response times"
	GroupOperators     = "Operator status and slots"
	GroupContacts      = "Contacts"
	GroupSurveys       = "Surveys and ratings"
	GroupForwards      = "Forwards"
	GroupSessions      = "Sessions"
)

// MetricGroups lists the groups in display order.
var MetricGroups = []string{
	GroupConversations, GroupMessages, GroupResponseTimes, GroupOperators,
	GroupContacts, GroupSurveys, GroupForwards, GroupSessions,
}

// MetricInfo describes a metric from the spec: what is tracked and what value and
// value_str mean.
type MetricInfo struct {
	Metric      Metric
	Group       string
	Description string // when the event is tracked
	Value       string // meaning of `value` ("" when the spec states none)
	ValueStr    string // meaning of `value_str` ("" when the spec states none)
	Unit        Unit
	// Categorical metrics carry a category in value_str worth a breakdown.
	Categorical bool
}

// Metrics lists every metric of the Analytics API v1 with its spec description.
var Metrics = []MetricInfo{
	{MetricConversationFirstMessage, GroupConversations, "The first message of a conversation is sent (operator or contact).", "", "", UnitNone, false},
	{MetricConversationFirstMessageAssignmentUpdate, GroupConversations, "As the first-message metric, but the assigned operator follows the conversation's current state.", "", "", UnitNone, false},
	{MetricConversationDuration, GroupConversations, "A conversation ends (a resumed conversation can end again).", "duration in seconds", "", UnitSeconds, false},
	{MetricConversationCategory, GroupConversations, "A conversation starts.", "", "category: live, offline, re-engage", UnitNone, true},
	{MetricConversationPartCategory, GroupConversations, "A conversation part starts.", "1 per part", "category: live, offline, re-engage", UnitCount, true},
	{MetricConversationStatusDuration, GroupConversations, "Time a conversation stays in an active status (New, Open, Pending); one record per status.", "seconds", "status value", UnitSeconds, true},
	{MetricConversationUnassignedDuration, GroupConversations, "Time a conversation stays unassigned in an active status; recorded on assignment or end.", "seconds", "", UnitSeconds, false},
	{MetricConversationUnansweredLive, GroupConversations, "A live session times out without an operator reply (an operator was online).", "1 per conversation", "", UnitCount, false},
	{MetricConversationUnansweredEnded, GroupConversations, "A conversation ends without any operator reply.", "1 per conversation", "", UnitCount, false},
	{MetricConversationInactivityAction, GroupConversations, "The system triggers an inactivity prevention action set in the widget.", "1 per action", "the action (status_unassign, active_reassign, …)", UnitCount, true},
	{MetricConversationGoalReached, GroupConversations, "A conversation goal is reached.", "goal id", "goal name", UnitID, true},
	{MetricConversationReopen, GroupConversations, "An ended conversation is resumed.", "1 per reopen", "new status after resuming", UnitCount, true},
	{MetricMissedOpportunity, GroupConversations, "A contact tries to start a conversation while no operator is available.", "1 per attempt", "conversation id as text", UnitCount, false},
	{MetricConversationTopic, GroupConversations, "The latest topics set for a conversation (one event per conversation).", "topic ids", "topic names", UnitID, true},
	{MetricConversationTopicChange, GroupConversations, "Topics were changed for a conversation.", "", "", UnitNone, false},
	{MetricChatMessagesTotal, GroupMessages, "Messages sent or received in a session, tracked at its end.", "message count", "", UnitCount, false},
	{MetricChatMessagesCT, GroupMessages, "Operator messages in a session, tracked at its end.", "message count", "", UnitCount, false},
	{MetricChatMessagesCO, GroupMessages, "Messages received in a session, tracked at its end.", "message count", "", UnitCount, false},
	{MetricOperatorResponseTimeFirst, GroupResponseTimes, "First operator response in a session.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeFirstServiceTime, GroupResponseTimes, "First operator response in a session, service times considered.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeConversationFirst, GroupResponseTimes, "First operator response in the first session of a conversation.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeConversationFirstServiceTime, GroupResponseTimes, "First response in the first session of a conversation, service times considered.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTime, GroupResponseTimes, "Operator responses in a session, all but the first.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeServiceTime, GroupResponseTimes, "Operator responses but the first, service times considered.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeToUnansweredSessionFirst, GroupResponseTimes, "Response in the first session of a conversation started while no operator was available.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeToUnansweredSessionFirstST, GroupResponseTimes, "As above, service times considered.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeToUnansweredSession, GroupResponseTimes, "Response in a session started while no operator was available.", "seconds", "", UnitSeconds, false},
	{MetricOperatorResponseTimeToUnansweredSessionST, GroupResponseTimes, "As above, service times considered.", "seconds", "", UnitSeconds, false},
	{MetricContactResponseTimeBackchannel, GroupResponseTimes, "A contact responds to an asynchronous operator reply.", "seconds", "", UnitSeconds, false},
	{MetricContactResponseTimeBackchannelServiceTime, GroupResponseTimes, "As above, service times considered.", "seconds", "", UnitSeconds, false},
	{MetricContactResponseTime, GroupResponseTimes, "Listed by path only; its value is not described.", "not described", "", UnitNone, false},
	{MetricContactResponseTimeServiceTime, GroupResponseTimes, "Listed by path only; its value is not described.", "not described", "", UnitNone, false},
	{MetricOperatorStatus, GroupOperators, "An operator's status changes (explicit action or slot change).", "", "status: online, slots_full, away, offline, removed_widget", UnitNone, true},
	{MetricOperatorSlotUsage, GroupOperators, "The number of occupied slots changes.", "utilization in percent", "current_slots:total_slots", UnitPercent, false},
	{MetricContactUniqueVisit, GroupContacts, "A unique visitor (by cookie) starts a conversation; registered at the end of the session.", "1 per visitor", "conversation id as text", UnitCount, false},
	{MetricContactCountry, GroupContacts, "A contact's country is identified (once per start or resume).", "", "country", UnitNone, true},
	{MetricContactBrowser, GroupContacts, "A contact's browser is identified (once per start or resume).", "", "browser", UnitNone, true},
	{MetricConversationRating, GroupSurveys, "A contact rates a conversation (only the latest rating counts).", "the rating", "", UnitRating, false},
	{MetricConversationFeedback, GroupSurveys, "A contact leaves feedback (occurrence only, not content).", "1 per feedback", "", UnitCount, false},
	{MetricConversationPreSurvey, GroupSurveys, "A pre-conversation survey is answered.", "index of the selected option", "label of the option", UnitID, true},
	{MetricConversationPostSurvey, GroupSurveys, "A post-conversation survey is answered.", "index of the selected option", "label of the option", UnitID, true},
	{MetricChatSessionManualForwardLive, GroupForwards, "A live session is reassigned to an operator.", "1 per forward", "operator ids: from, to, by", UnitCount, false},
	{MetricChatSessionManualForwardOffline, GroupForwards, "An offline session is reassigned to an operator.", "1 per forward", "operator ids: from, to, by", UnitCount, false},
	{MetricChatSessionManualForwardReEngage, GroupForwards, "A re-engage session is reassigned to an operator.", "1 per forward", "operator ids: from, to, by", UnitCount, false},
	{MetricChatSessionManualForwardGroupLive, GroupForwards, "A live session is reassigned to an operator group.", "1 per forward", "operator ids: from, to, by", UnitCount, false},
	{MetricChatSessionManualForwardGroupOffline, GroupForwards, "An offline session is reassigned to an operator group.", "1 per forward", "operator ids: from, to, by", UnitCount, false},
	{MetricChatSessionManualForwardGroupReEngage, GroupForwards, "A re-engage session is reassigned to an operator group.", "1 per forward", "operator ids: from, to, by", UnitCount, false},
	{MetricChatSessionBotForwardReceived, GroupForwards, "A conversation first assigned to a chatbot is reassigned to another operator (counted for the receiver).", "1 per forward", "", UnitCount, false},
	{MetricConversationSessionCount, GroupSessions, "Number of sessions in a conversation; updated per session, time stays that of the first.", "session count", "", UnitCount, false},
	{MetricConversationSessionDurationLive, GroupSessions, "A session in which operator and contact were active together.", "seconds", "live", UnitSeconds, false},
	{MetricConversationSessionDurationOffline, GroupSessions, "A session in which only the contact was active.", "seconds", "offline", UnitSeconds, false},
	{MetricConversationSessionDurationReEngage, GroupSessions, "A session in which only operators were active.", "seconds", "re-engage", UnitSeconds, false},
}

// LookupMetric returns the description of a metric name.
func LookupMetric(name string) (MetricInfo, bool) {
	for _, m := range Metrics {
		if string(m.Metric) == name {
			return m, true
		}
	}
	return MetricInfo{}, false
}
