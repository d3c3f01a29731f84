package sandbox_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// The metric names of analytics-v1.md.
var specMetrics = []string{
	"um_conversation_first_message", "um_conversation_first_message_assignment_update", "um_conversation_duration",
	"um_chat_messages_total", "um_chat_messages_ct", "um_chat_messages_co", "um_operator_status",
	"um_operator_slot_usage", "um_operator_response_time_first", "um_operator_response_time_first_service_time",
	"um_operator_response_time_conversation_first", "um_operator_response_time_conversation_first_service_time",
	"um_operator_response_time", "um_operator_response_time_service_time",
	"um_operator_response_time_to_unanswered_session_first",
	"um_operator_response_time_to_unanswered_session_first_service_time",
	"um_operator_response_time_to_unanswered_session", "um_operator_response_time_to_unanswered_session_service_time",
	"um_conversation_rating", "um_conversation_feedback", "um_conversation_unanswered_live",
	"um_conversation_unanswered_ended", "um_conversation_inactivity_action", "um_conversation_goal_reached",
	"um_conversation_reopen", "um_missed_opportunity", "um_conversation_topic", "um_conversation_topic_change",
	"um_conversation_pre_survey", "um_conversation_post_survey", "um_contact_unique_visit", "um_contact_country",
	"um_contact_browser", "um_contact_response_time_backchannel", "um_contact_response_time_backchannel_service_time",
	"um_conversation_category", "um_conversation_part_category", "um_conversation_session_count",
	"um_conversation_session_duration_live", "um_conversation_session_duration_offline",
	"um_conversation_session_duration_re_engage", "um_conversation_status_duration",
	"um_conversation_unassigned_duration", "um_chat_session_manual_forward_live",
	"um_chat_session_manual_forward_offline", "um_chat_session_manual_forward_re_engage",
	"um_chat_session_manual_forward_group_live", "um_chat_session_manual_forward_group_offline",
	"um_chat_session_manual_forward_group_re_engage", "um_chat_session_bot_forward_received",
	"um_contact_response_time", "um_contact_response_time_service_time",
}

var pointKeys = []string{"um_widget_id", "organization_id", "operator_id", "operator_group_id", "time", "value",
	"value_str", "conversation_id", "conversation_part_id", "conversation_session_id", "is_chatbot_metric",
	"chatbot_interaction", "human_interaction"}

type point struct {
	UmWidgetID      []int64  `json:"um_widget_id"`
	OrganizationID  int64    `json:"organization_id"`
	OperatorID      *int64   `json:"operator_id"`
	OperatorGroupID *int64   `json:"operator_group_id"`
	Time            string   `json:"time"`
	Value           *float64 `json:"value"`
	ValueStr        *string  `json:"value_str"`
	ConversationID  *int64   `json:"conversation_id"`
	IsChatbotMetric bool     `json:"is_chatbot_metric"`
}

func analyticsPoints(t *testing.T, a *api, metric, query string) []point {
	t.Helper()
	var out struct {
		Results []point `json:"results"`
	}
	a.mustGet("/api/um/v1/analytics/"+metric+"/?"+query, &out)
	return out.Results
}

func TestAnalyticsEveryMetric(t *testing.T) {
	t.Parallel()
	a := shared(t)
	for _, m := range specMetrics {
		r := a.get("/api/um/v1/analytics/" + m + "/?event_date_from=2026-09-01&event_date_to=2026-11-20")
		expectStatus(t, r, 200, m)
		var raw struct {
			Results []map[string]json.RawMessage `json:"results"`
		}
		r.json(t, &raw)
		if len(raw.Results) == 0 {
			t.Fatalf("%s: no data points over 81 days", m)
		}
		for _, p := range raw.Results {
			var keys []string
			for k := range p {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			want := append([]string(nil), pointKeys...)
			if m == "um_missed_opportunity" {
				want = want[:0]
				for _, k := range pointKeys {
					if k != "operator_id" && k != "operator_group_id" {
						want = append(want, k)
					}
				}
			}
			sort.Strings(want)
			if strings.Join(keys, ",") != strings.Join(want, ",") {
				t.Fatalf("%s: keys %v, want %v", m, keys, want)
			}
		}
		var pts []point
		r.json(t, &struct {
			Results *[]point `json:"results"`
		}{&pts})
		for i := 1; i < len(pts); i++ {
			if pts[i].Time < pts[i-1].Time {
				t.Fatalf("%s: not ordered by time", m)
			}
		}
		for _, p := range pts {
			if len(p.Time) != len("2006-01-02T15:04:05") || p.Time < "2026-09-01" || p.Time > "2026-11-20T10:15:30" {
				t.Fatalf("%s: time %q out of range", m, p.Time)
			}
			checkValue(t, m, p)
		}
	}
	// The unversioned path and the spelling variant of the spec work too.
	expectStatus(t, a.get("/api/um/analytics/um_conversation_rating/"), 200, "unversioned")
	expectStatus(t, a.get("/api/um/v1/analytics/um_chat_session_manual_forward_re_group_engage/"), 200, "variant spelling")
}

// The seed covers 120 days up to its clock: every metric has data points on each of them in
// each organization, rare metrics too.
func TestAnalyticsEveryMetricEveryDay(t *testing.T) {
	t.Parallel()
	a := shared(t)
	first := fixedNow.AddDate(0, 0, -119)
	windows := [][2]string{
		{first.Format("2006-01-02"), first.AddDate(0, 0, 92).Format("2006-01-02")},
		{first.AddDate(0, 0, 93).Format("2006-01-02"), fixedNow.Format("2006-01-02")},
	}
	for _, m := range specMetrics {
		days := map[int64]map[string]bool{}
		for _, w := range windows {
			for _, p := range analyticsPoints(t, a, m, q("event_date_from", w[0], "event_date_to", w[1])) {
				if days[p.OrganizationID] == nil {
					days[p.OrganizationID] = map[string]bool{}
				}
				days[p.OrganizationID][p.Time[:10]] = true
			}
		}
		for _, org := range a.info.OrgIDs {
			for d := 0; d < 120; d++ {
				if day := first.AddDate(0, 0, d).Format("2006-01-02"); !days[org][day] {
					t.Fatalf("%s: no data points on %s in organization %d (%d of 120 days)", m, day, org, len(days[org]))
				}
			}
		}
	}
}

func checkValue(t *testing.T, m string, p point) {
	t.Helper()
	v := func() float64 {
		if p.Value == nil {
			t.Fatalf("%s: value null", m)
		}
		return *p.Value
	}
	switch {
	case strings.HasPrefix(m, "um_operator_response_time"):
		if x := v(); x < 5 || x > 900 {
			t.Fatalf("%s: %v seconds", m, x)
		}
	case m == "um_conversation_rating":
		if x := v(); x < 1 || x > 5 {
			t.Fatalf("rating %v", x)
		}
	case m == "um_operator_slot_usage":
		x := v()
		if p.ValueStr == nil || !strings.Contains(*p.ValueStr, ":") || x < 0 || x > 100 {
			t.Fatalf("slot usage %v %v", x, p.ValueStr)
		}
	case m == "um_operator_status":
		switch deref(p.ValueStr) {
		case "online", "slots_full", "away", "offline", "removed_widget":
		default:
			t.Fatalf("operator status %q", deref(p.ValueStr))
		}
	case m == "um_conversation_category":
		switch deref(p.ValueStr) {
		case "live", "offline", "re-engage":
		default:
			t.Fatalf("category %q", deref(p.ValueStr))
		}
	case m == "um_missed_opportunity":
		if p.ValueStr == nil || p.OperatorID != nil {
			t.Fatalf("missed opportunity %+v", p)
		}
	}
}

func TestAnalyticsFilters(t *testing.T) {
	t.Parallel()
	a := shared(t)
	const m = "um_operator_response_time"
	week := "event_date_from=2026-11-14&event_date_to=2026-11-20"
	all := analyticsPoints(t, a, m, week)
	if len(all) < 5 {
		t.Fatalf("only %d points in a week", len(all))
	}
	// Default: today (UTC of Now).
	today := analyticsPoints(t, a, m, "")
	for _, p := range today {
		if !strings.HasPrefix(p.Time, "2026-11-20") {
			t.Fatalf("default day: %s", p.Time)
		}
	}
	// One date filter alone is that single day.
	for _, qs := range []string{"event_date=2026-11-15", "event_date_from=2026-11-15", "event_date_to=2026-11-15"} {
		for _, p := range analyticsPoints(t, a, m, qs) {
			if !strings.HasPrefix(p.Time, "2026-11-15") {
				t.Fatalf("%s: %s", qs, p.Time)
			}
		}
	}
	// Times narrow the range.
	for _, p := range analyticsPoints(t, a, m, "event_date_from=2026-11-15T12:00:00&event_date_to=2026-11-16T06:00:00") {
		if p.Time < "2026-11-15T12:00:00" || p.Time > "2026-11-16T06:00:00" {
			t.Fatalf("time range: %s", p.Time)
		}
	}
	// Organizations: several ids with "+" (OR); an organization token sees its own only.
	org1, org2 := a.info.OrgIDs[0], a.info.OrgIDs[1]
	both := analyticsPoints(t, a, m, week+"&organization_id="+itoa(org1)+"+"+itoa(org2))
	only2 := analyticsPoints(t, a, m, week+"&organization_id="+itoa(org2))
	if len(both) != len(all) || len(only2) == 0 || len(only2) >= len(all) {
		t.Fatalf("organization filter: all %d both %d only2 %d", len(all), len(both), len(only2))
	}
	viaToken := analyticsPoints(t, a.withToken(a.info.OrgTokens[org2]), m, week)
	if len(viaToken) != len(only2) {
		t.Fatalf("org token sees %d, want %d", len(viaToken), len(only2))
	}
	// Operators and groups, OR inside one parameter.
	op := *all[0].OperatorID
	byOp := analyticsPoints(t, a, m, week+"&operator_id="+itoa(op))
	for _, p := range byOp {
		if p.OperatorID == nil || *p.OperatorID != op {
			t.Fatalf("operator filter: %+v", p)
		}
	}
	group := *all[0].OperatorGroupID
	for _, p := range analyticsPoints(t, a, m, week+"&operator_group_id="+itoa(group)+"%20999") {
		if *p.OperatorGroupID != group {
			t.Fatalf("group filter: %+v", p)
		}
	}
	widget := all[0].UmWidgetID[0]
	for _, p := range analyticsPoints(t, a, m, week+"&um_widget_id="+itoa(widget)) {
		found := false
		for _, w := range p.UmWidgetID {
			found = found || w == widget
		}
		if !found {
			t.Fatalf("widget filter: %+v", p)
		}
	}
	// Operator mode.
	human := analyticsPoints(t, a, m, week+"&operator_mode=human")
	bot := analyticsPoints(t, a, m, week+"&operator_mode=bot")
	if len(human)+len(bot) != len(all) || len(bot) == 0 || len(human) == 0 {
		t.Fatalf("operator_mode: human %d bot %d all %d", len(human), len(bot), len(all))
	}
	for _, p := range bot {
		if !p.IsChatbotMetric {
			t.Fatal("bot mode returned a human point")
		}
	}
	// 93 days at most.
	expectStatus(t, a.get("/api/um/v1/analytics/"+m+"/?event_date_from=2026-08-20&event_date_to=2026-11-20"), 200, "93 days")
	for _, bad := range []string{
		"event_date_from=2026-08-19&event_date_to=2026-11-20",
		"event_date_from=2026-11-20&event_date_to=2026-11-01",
		"event_date=yesterday",
		"event_date_from=2026-11-20T25:00:00",
		"operator_mode=both",
		"operator_mode=human+bot",
		"organization_id=abc",
		"operator_id=1.5",
		"um_widget_id=x",
		"event_date=2026-11-01&event_date_from=2026-11-01",
	} {
		r := a.get("/api/um/v1/analytics/" + m + "/?" + bad)
		expectStatus(t, r, 400, bad)
		r.detail(t)
	}
}
