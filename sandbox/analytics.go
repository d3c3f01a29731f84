package sandbox

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Scopes of a metric: what a data point is attached to.
const (
	scopeConversation = iota // conversation_id only
	scopeSession             // conversation, part and session ids
	scopeOperator            // operator events; sometimes with a conversation
	scopeMissed              // no operator keys at all
)

type pointCtx struct {
	org    *genOrg
	op     *genOp
	convID int64
}

type valueFunc func(g *gen, pc *pointCtx) (*float64, *string)

type metricDef struct {
	name  string
	scope int
	mult  float64 // relative frequency
	value valueFunc
}

func fp(f float64) *float64 { return &f }

func vNone(*gen, *pointCtx) (*float64, *string) { return nil, nil }

func vOne(*gen, *pointCtx) (*float64, *string) { return fp(1), nil }

// vSeconds draws a skewed duration between lo and hi seconds.
func vSeconds(lo, hi, median float64) valueFunc {
	return func(g *gen, _ *pointCtx) (*float64, *string) {
		v := median * math.Exp(g.rng.NormFloat64()*0.8)
		v = math.Round(math.Min(hi, math.Max(lo, v)))
		return fp(v), nil
	}
}

func vSecondsStr(lo, hi, median float64, s string) valueFunc {
	sec := vSeconds(lo, hi, median)
	return func(g *gen, pc *pointCtx) (*float64, *string) {
		v, _ := sec(g, pc)
		return v, strp(s)
	}
}

func vCount(lo, hi int) valueFunc {
	return func(g *gen, _ *pointCtx) (*float64, *string) {
		return fp(float64(lo + g.intn(hi-lo+1))), nil
	}
}

func vStr(list []string) valueFunc {
	return func(g *gen, _ *pointCtx) (*float64, *string) { return nil, strp(pick(g, list)) }
}

func vOneStr(list []string) valueFunc {
	return func(g *gen, _ *pointCtx) (*float64, *string) { return fp(1), strp(pick(g, list)) }
}

func vConvText(_ *gen, pc *pointCtx) (*float64, *string) {
	return fp(1), strp(strconv.FormatInt(pc.convID, 10))
}

func vRating(g *gen, _ *pointCtx) (*float64, *string) {
	return fp(float64([]int{1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5}[g.intn(12)])), nil
}

func vSlotUsage(g *gen, pc *pointCtx) (*float64, *string) {
	total := pc.op.slots
	cur := g.intn(total + 1)
	return fp(math.Round(float64(cur)/float64(total)*1000) / 10), strp(fmt.Sprintf("%d:%d", cur, total))
}

func vGoal(g *gen, pc *pointCtx) (*float64, *string) {
	i := g.intn(len(pc.org.spec.goals))
	return fp(float64(i + 1)), strp(pc.org.spec.goals[i])
}

func vTopic(g *gen, pc *pointCtx) (*float64, *string) {
	t := pick(g, pc.org.topics)
	return fp(float64(t.id)), strp(t.text)
}

func vSurvey(labels []string) valueFunc {
	return func(g *gen, _ *pointCtx) (*float64, *string) {
		i := g.intn(len(labels))
		return fp(float64(i)), strp(labels[i])
	}
}

func vCountry(g *gen, _ *pointCtx) (*float64, *string) { return nil, strp(g.pickCountry().code) }

func vBrowser(g *gen, _ *pointCtx) (*float64, *string) { return nil, strp(pick(g, browsers).name) }

// vForward is the compound "<from operator>:<to operator or group>:<by operator>".
func vForward(group bool) valueFunc {
	return func(g *gen, pc *pointCtx) (*float64, *string) {
		from := pick(g, pc.org.humans).id
		to := pick(g, pc.org.humans).id
		if group {
			to = pick(g, pc.org.groups)
		}
		by := from
		if g.chance(0.3) {
			by = pick(g, pc.org.humans).id
		}
		return fp(1), strp(fmt.Sprintf("%d:%d:%d", from, to, by))
	}
}

// metricDefs lists every metric of the analytics API, in the order of the spec.
var metricDefs = []metricDef{
	{"um_conversation_first_message", scopeConversation, 1.2, vNone},
	{"um_conversation_first_message_assignment_update", scopeConversation, 1.2, vNone},
	{"um_conversation_duration", scopeConversation, 1, vSeconds(60, 5400, 720)},
	{"um_chat_messages_total", scopeSession, 1.2, vCount(2, 48)},
	{"um_chat_messages_ct", scopeSession, 1.2, vCount(1, 24)},
	{"um_chat_messages_co", scopeSession, 1.2, vCount(1, 24)},
	{"um_operator_status", scopeOperator, 2, vStr(operatorStatuses)},
	{"um_operator_slot_usage", scopeOperator, 2, vSlotUsage},
	{"um_operator_response_time_first", scopeSession, 1, vSeconds(5, 900, 45)},
	{"um_operator_response_time_first_service_time", scopeSession, 1, vSeconds(5, 900, 35)},
	{"um_operator_response_time_conversation_first", scopeSession, 1, vSeconds(5, 900, 50)},
	{"um_operator_response_time_conversation_first_service_time", scopeSession, 1, vSeconds(5, 900, 40)},
	{"um_operator_response_time", scopeSession, 1.5, vSeconds(5, 900, 60)},
	{"um_operator_response_time_service_time", scopeSession, 1.5, vSeconds(5, 900, 50)},
	{"um_operator_response_time_to_unanswered_session_first", scopeSession, 0.5, vSeconds(30, 900, 240)},
	{"um_operator_response_time_to_unanswered_session_first_service_time", scopeSession, 0.5, vSeconds(30, 900, 180)},
	{"um_operator_response_time_to_unanswered_session", scopeSession, 0.5, vSeconds(30, 900, 300)},
	{"um_operator_response_time_to_unanswered_session_service_time", scopeSession, 0.5, vSeconds(30, 900, 220)},
	{"um_conversation_rating", scopeConversation, 0.6, vRating},
	{"um_conversation_feedback", scopeConversation, 0.4, vOne},
	{"um_conversation_unanswered_live", scopeConversation, 0.3, vOne},
	{"um_conversation_unanswered_ended", scopeConversation, 0.3, vOne},
	{"um_conversation_inactivity_action", scopeConversation, 0.5, vOneStr(inactivityActions)},
	{"um_conversation_goal_reached", scopeConversation, 0.5, vGoal},
	{"um_conversation_reopen", scopeConversation, 0.3, vOneStr([]string{"new", "pending"})},
	{"um_missed_opportunity", scopeMissed, 0.5, vConvText},
	{"um_conversation_topic", scopeConversation, 0.8, vTopic},
	{"um_conversation_topic_change", scopeConversation, 0.8, vNone},
	{"um_conversation_pre_survey", scopeConversation, 0.5, vSurvey(preSurveyLabels)},
	{"um_conversation_post_survey", scopeConversation, 0.5, vSurvey(postSurveyLabels)},
	{"um_contact_unique_visit", scopeSession, 1, vConvText},
	{"um_contact_country", scopeSession, 1, vCountry},
	{"um_contact_browser", scopeSession, 1, vBrowser},
	{"um_contact_response_time_backchannel", scopeSession, 0.5, vSeconds(60, 86400, 3600)},
	{"um_contact_response_time_backchannel_service_time", scopeSession, 0.5, vSeconds(60, 86400, 2400)},
	{"um_conversation_category", scopeConversation, 1, vStr(conversationCategories)},
	{"um_conversation_part_category", scopeSession, 1.2, vOneStr(conversationCategories)},
	{"um_conversation_session_count", scopeConversation, 1, vCount(1, 4)},
	{"um_conversation_session_duration_live", scopeSession, 1, vSecondsStr(30, 3600, 420, "live")},
	{"um_conversation_session_duration_offline", scopeSession, 0.5, vSecondsStr(10, 3600, 180, "offline")},
	{"um_conversation_session_duration_re_engage", scopeSession, 0.3, vSecondsStr(10, 3600, 240, "re-engage")},
	{"um_conversation_status_duration", scopeConversation, 1.5, func(g *gen, pc *pointCtx) (*float64, *string) {
		v, _ := vSeconds(10, 86400, 900)(g, pc)
		return v, strp(pick(g, statusDurationValues))
	}},
	{"um_conversation_unassigned_duration", scopeConversation, 0.6, vSeconds(5, 1800, 90)},
	{"um_chat_session_manual_forward_live", scopeSession, 0.3, vForward(false)},
	{"um_chat_session_manual_forward_offline", scopeSession, 0.2, vForward(false)},
	{"um_chat_session_manual_forward_re_engage", scopeSession, 0.1, vForward(false)},
	{"um_chat_session_manual_forward_group_live", scopeSession, 0.2, vForward(true)},
	{"um_chat_session_manual_forward_group_offline", scopeSession, 0.1, vForward(true)},
	{"um_chat_session_manual_forward_group_re_engage", scopeSession, 0.1, vForward(true)},
	{"um_chat_session_bot_forward_received", scopeSession, 0.5, vOne},
	{"um_contact_response_time", scopeSession, 1, vSeconds(3, 600, 40)},
	{"um_contact_response_time_service_time", scopeSession, 1, vSeconds(3, 600, 30)},
}

// metricAliases maps other spellings to a metric name.
var metricAliases = map[string]string{
	"um_chat_session_manual_forward_re_group_engage": "um_chat_session_manual_forward_group_re_engage",
}

func lookupMetric(name string) (metricDef, bool) {
	if a, ok := metricAliases[name]; ok {
		name = a
	}
	for _, m := range metricDefs {
		if m.name == name {
			return m, true
		}
	}
	return metricDef{}, false
}

// --- seeding -----------------------------------------------------------------------------------

func (g *gen) seedAnalytics() error {
	now := time.UnixMicro(g.now).UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	nowSec := now.Unix()
	id := int64(0)
	type emptyDay struct {
		o              *genOrg
		m              metricDef
		d              int
		dayStart, span int64
	}
	var empty []emptyDay
	for _, o := range g.orgs {
		for d := seedDays - 1; d >= 0; d-- {
			dayStart := today.AddDate(0, 0, -d).Unix()
			span := int64(86400)
			if d == 0 {
				span = nowSec - dayStart
				if span <= 0 {
					continue
				}
			}
			for _, m := range metricDefs {
				expect := float64(g.size.analyticsDay) * float64(o.spec.share) / 50 * m.mult
				n := int(expect + g.rng.Float64())
				if m.name == "um_operator_status" || m.name == "um_operator_slot_usage" {
					n = max(n, 1)
				}
				if n == 0 {
					empty = append(empty, emptyDay{o: o, m: m, d: d, dayStart: dayStart, span: span})
				}
				for ; n > 0; n-- {
					id++
					if err := g.insertPoint(id, o, m, dayStart+g.rng.Int64N(span), d); err != nil {
						return err
					}
				}
			}
		}
	}
	// Every metric has data points on each of the days in each organization: a day of a rare
	// metric that drew none gets one. They come from a generator of their own, so the points
	// above and everything seeded after them stay as they were.
	main := g.rng
	g.rng = g.fillRNG
	defer func() { g.rng = main }()
	for _, e := range empty {
		id++
		if err := g.insertPoint(id, e.o, e.m, e.dayStart+g.rng.Int64N(e.span), e.d); err != nil {
			return err
		}
	}
	return nil
}

func (g *gen) insertPoint(id int64, o *genOrg, m metricDef, t int64, daysAgo int) error {
	op := pick(g, o.humans)
	switch m.scope {
	case scopeOperator:
		if g.chance(0.1) {
			op = o.bot
		}
	case scopeConversation, scopeSession:
		if !strings.Contains(m.name, "forward") && g.chance(0.25) {
			op = o.bot
		}
	}
	isBot := op.isBot
	pc := &pointCtx{org: o, op: op}
	var convID, partID, sessionID, chatbot, human, opID, groupID any
	idx := -1
	if list := o.convDay[int64(daysAgo)]; len(list) > 0 && g.chance(0.8) {
		idx = pick(g, list)
	} else if len(o.convIDs) > 0 {
		idx = g.intn(len(o.convIDs))
	}
	if idx >= 0 {
		pc.convID = o.convIDs[idx]
	}
	attach := m.scope == scopeConversation || m.scope == scopeSession || m.scope == scopeMissed ||
		(m.scope == scopeOperator && g.chance(0.2))
	if attach && idx >= 0 && m.scope != scopeMissed {
		convID = o.convIDs[idx]
		if m.scope != scopeConversation {
			partID, sessionID = o.partIDs[idx], o.partIDs[idx]
		}
		if m.scope != scopeOperator {
			botPart := isBot || g.chance(0.3)
			chatbot, human = b2i(botPart), b2i(!isBot || g.chance(0.6))
		}
	}
	if m.scope != scopeMissed {
		opID, groupID = op.id, op.groupID
	} else {
		isBot = false
	}
	value, valueStr := m.value(g, pc)
	var v, vs any
	if value != nil {
		v = *value
	}
	if valueStr != nil {
		vs = *valueStr
	}
	w := pick(g, o.widgets)
	widgets := "[" + strconv.FormatInt(w.id, 10)
	if len(o.widgets) > 1 && g.chance(0.1) {
		if w2 := pick(g, o.widgets); w2.id != w.id {
			widgets += "," + strconv.FormatInt(w2.id, 10)
		}
	}
	widgets += "]"
	return g.exec(`INSERT INTO analytics(id, metric, organization_id, widget_ids, operator_id, operator_group_id, time,
		value, value_str, conversation_id, conversation_part_id, conversation_session_id, is_chatbot_metric,
		chatbot_interaction, human_interaction) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		id, m.name, o.id, widgets, opID, groupID, t, v, vs, convID, partID, sessionID, b2i(isBot), chatbot, human)
}

// --- the endpoint ------------------------------------------------------------------------------

// optInt is a nullable integer for keys that may be absent altogether.
type optInt struct{ v *int64 }

func (o optInt) MarshalJSON() ([]byte, error) {
	if o.v == nil {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatInt(*o.v, 10)), nil
}

type pointJSON struct {
	WidgetIDs             []int64  `json:"um_widget_id"`
	OrganizationID        int64    `json:"organization_id"`
	OperatorID            *optInt  `json:"operator_id,omitempty"`
	OperatorGroupID       *optInt  `json:"operator_group_id,omitempty"`
	Time                  string   `json:"time"`
	Value                 *float64 `json:"value"`
	ValueStr              *string  `json:"value_str"`
	ConversationID        *int64   `json:"conversation_id"`
	ConversationPartID    *int64   `json:"conversation_part_id"`
	ConversationSessionID *int64   `json:"conversation_session_id"`
	IsChatbotMetric       bool     `json:"is_chatbot_metric"`
	ChatbotInteraction    *bool    `json:"chatbot_interaction"`
	HumanInteraction      *bool    `json:"human_interaction"`
}

type analyticsJSON struct {
	Results []pointJSON `json:"results"`
}

const maxAnalyticsDays = 93

// analyticsIDs parses an id filter: several ids separated by whitespace ("+" or "%20"), and
// commas for good measure.
func (rq *request) analyticsIDs(name string) ([]int64, error) {
	var ids []int64
	for _, v := range rq.q[name] {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return unicode.IsSpace(r) || r == '+' || r == ',' }) {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, badRequest("%s: %q is not an integer id.", name, f)
			}
			ids = append(ids, n)
		}
	}
	return ids, nil
}

// analyticsRange resolves the date filters to [from, to) in Unix seconds.
func (rq *request) analyticsRange() (int64, int64, error) {
	parse := func(name string) (time.Time, bool, bool, error) {
		v, ok := rq.str(name)
		if !ok {
			return time.Time{}, false, false, nil
		}
		t, dateOnly, err := parseTimestamp(v)
		if err != nil {
			return time.Time{}, false, false, badRequest("%s: expected YYYY-mm-dd or YYYY-mm-ddTHH:MM:SS, got %q.", name, v)
		}
		return t.UTC(), dateOnly, true, nil
	}
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	ed, edDate, edOK, err := parse("event_date")
	if err != nil {
		return 0, 0, err
	}
	from, _, fromOK, err := parse("event_date_from")
	if err != nil {
		return 0, 0, err
	}
	to, toDate, toOK, err := parse("event_date_to")
	if err != nil {
		return 0, 0, err
	}
	var lo, hi time.Time
	switch {
	case edOK && (fromOK || toOK):
		return 0, 0, badRequest("Use either event_date or event_date_from/event_date_to, not both.")
	case edOK:
		if !edDate {
			return 0, 0, badRequest("event_date: expected a date YYYY-mm-dd.")
		}
		lo, hi = ed, ed.AddDate(0, 0, 1)
	case fromOK && toOK:
		lo = from
		hi = to.Add(time.Second)
		if toDate {
			hi = to.AddDate(0, 0, 1)
		}
		if !hi.After(lo) {
			return 0, 0, badRequest("event_date_from must not be after event_date_to.")
		}
	case fromOK:
		lo, hi = from, day(from).AddDate(0, 0, 1)
	case toOK:
		lo, hi = day(to), to.Add(time.Second)
		if toDate {
			hi = to.AddDate(0, 0, 1)
		}
	default:
		lo = day(rq.s.opts.Now().UTC())
		hi = lo.AddDate(0, 0, 1)
	}
	days := int(day(hi.Add(-time.Second)).Sub(day(lo)).Hours()/24) + 1
	if days > maxAnalyticsDays {
		return 0, 0, badRequest("The requested period covers %d days; at most %d days are allowed per request.", days, maxAnalyticsDays)
	}
	return lo.Unix(), hi.Unix(), nil
}

func (rq *request) analytics() (int, any, error) {
	m, ok := lookupMetric(rq.route.metric)
	if !ok {
		return 0, nil, notFound()
	}
	lo, hi, err := rq.analyticsRange()
	if err != nil {
		return 0, nil, err
	}
	w := &whereB{}
	w.add("a.metric = ?", m.name)
	w.add("a.time >= ? AND a.time < ?", lo, hi)
	orgs, err := rq.analyticsIDs("organization_id")
	if err != nil {
		return 0, nil, err
	}
	if !rq.tok.customer {
		w.add("a.organization_id = ?", rq.org)
	}
	if len(orgs) > 0 {
		w.add("a.organization_id IN ("+placeholders(len(orgs))+")", int64Args(orgs)...)
	}
	widgets, err := rq.analyticsIDs("um_widget_id")
	if err != nil {
		return 0, nil, err
	}
	if len(widgets) > 0 {
		w.add("EXISTS (SELECT 1 FROM json_each(a.widget_ids) j WHERE j.value IN ("+placeholders(len(widgets))+"))", int64Args(widgets)...)
	}
	for _, f := range []struct{ param, col string }{{"operator_id", "a.operator_id"}, {"operator_group_id", "a.operator_group_id"}} {
		ids, err := rq.analyticsIDs(f.param)
		if err != nil {
			return 0, nil, err
		}
		if len(ids) > 0 {
			w.add(f.col+" IN ("+placeholders(len(ids))+")", int64Args(ids)...)
		}
	}
	if v, ok := rq.str("operator_mode"); ok {
		switch v {
		case "human":
			w.add("a.is_chatbot_metric = 0")
		case "bot":
			w.add("a.is_chatbot_metric = 1")
		default:
			return 0, nil, badRequest("operator_mode: expected human or bot, got %q.", v)
		}
	}
	rows, err := rq.s.db.QueryContext(rq.ctx, `SELECT a.widget_ids, a.organization_id, a.operator_id, a.operator_group_id,
		a.time, a.value, a.value_str, a.conversation_id, a.conversation_part_id, a.conversation_session_id,
		a.is_chatbot_metric, a.chatbot_interaction, a.human_interaction
		FROM analytics a`+w.sql()+` ORDER BY a.time, a.conversation_id, a.id`, w.args...)
	if err != nil {
		return 0, nil, fmt.Errorf("analytics: %w", err)
	}
	defer rows.Close()
	out := analyticsJSON{Results: []pointJSON{}}
	for rows.Next() {
		var p pointJSON
		var widgetsJSON string
		var opID, groupID *int64
		var t int64
		if err := rows.Scan(&widgetsJSON, &p.OrganizationID, &opID, &groupID, &t, &p.Value, &p.ValueStr,
			&p.ConversationID, &p.ConversationPartID, &p.ConversationSessionID, &p.IsChatbotMetric,
			&p.ChatbotInteraction, &p.HumanInteraction); err != nil {
			return 0, nil, fmt.Errorf("scan analytics: %w", err)
		}
		if err := json.Unmarshal([]byte(widgetsJSON), &p.WidgetIDs); err != nil {
			return 0, nil, fmt.Errorf("analytics widget ids: %w", err)
		}
		if m.scope != scopeMissed {
			p.OperatorID, p.OperatorGroupID = &optInt{opID}, &optInt{groupID}
		}
		p.Time = time.Unix(t, 0).UTC().Format("2006-01-02T15:04:05")
		out.Results = append(out.Results, p)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("analytics: %w", err)
	}
	return http.StatusOK, out, nil
}
