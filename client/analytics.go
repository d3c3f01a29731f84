package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MaxAnalyticsDays is the longest period one analytics request may cover.
const MaxAnalyticsDays = 93

// OperatorMode limits analytics to data points logged while a human or a bot was involved.
type OperatorMode string

// Operator modes; the zero value means all operators.
const (
	OperatorModeAll   OperatorMode = ""
	OperatorModeHuman OperatorMode = "human"
	OperatorModeBot   OperatorMode = "bot"
)

// AnalyticsQuery is one analytics question. Ranges longer than 93 days are split by
// Windows into consecutive requests whose results Analytics merges in time order.
type AnalyticsQuery struct {
	Metric Metric
	// Several ids per filter combine with OR (sent space-separated in one parameter).
	OrganizationIDs  []int64
	WidgetIDs        []int64
	OperatorIDs      []int64
	OperatorGroupIDs []int64
	// From and To are inclusive. Both zero: the current UTC day (server default).
	// Without WithTime only their UTC dates count.
	From, To time.Time
	// WithTime sends date-times (YYYY-mm-ddTHH:MM:SS) instead of dates.
	WithTime     bool
	OperatorMode OperatorMode
}

// AnalyticsWindow is the period of one request.
type AnalyticsWindow struct {
	From, To time.Time
	WithTime bool
}

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Validate checks the query before any request.
func (q AnalyticsQuery) Validate() error {
	if q.Metric == "" {
		return fmt.Errorf("analytics: no metric")
	}
	switch q.OperatorMode {
	case OperatorModeAll, OperatorModeHuman, OperatorModeBot:
	default:
		return fmt.Errorf("analytics: operator mode %q is not human or bot", q.OperatorMode)
	}
	if q.From.IsZero() != q.To.IsZero() {
		return fmt.Errorf("analytics: a range needs both from and to")
	}
	if !q.From.IsZero() {
		from, to := q.From, q.To
		if !q.WithTime {
			from, to = day(from), day(to)
		}
		if to.Before(from) {
			return fmt.Errorf("analytics: range ends (%s) before it starts (%s)", to.Format(time.DateOnly), from.Format(time.DateOnly))
		}
	}
	return nil
}

// Windows splits the query's period into consecutive windows of at most 93 days: dates
// [from, from+92d], [from+93d, …]. With times, a window also touches at most 93 calendar
// days (the API counts the days a period touches, inclusive): the first runs from the start
// to one second before midnight 93 days after the start's day, the next ones from midnight to
// one second before midnight 93 days later. A query without dates is one window (the
// server's current day).
func (q AnalyticsQuery) Windows() []AnalyticsWindow {
	if q.From.IsZero() || q.To.IsZero() {
		return []AnalyticsWindow{{}}
	}
	var out []AnalyticsWindow
	if !q.WithTime {
		from, to := day(q.From), day(q.To)
		for s := from; !s.After(to); s = s.AddDate(0, 0, MaxAnalyticsDays) {
			e := s.AddDate(0, 0, MaxAnalyticsDays-1)
			if e.After(to) {
				e = to
			}
			out = append(out, AnalyticsWindow{From: s, To: e})
		}
		return out
	}
	from, to := q.From.UTC().Truncate(time.Second), q.To.UTC().Truncate(time.Second)
	for s := from; !s.After(to); s = day(s).AddDate(0, 0, MaxAnalyticsDays) {
		e := day(s).AddDate(0, 0, MaxAnalyticsDays).Add(-time.Second)
		if e.After(to) {
			e = to
		}
		out = append(out, AnalyticsWindow{From: s, To: e, WithTime: true})
	}
	return out
}

// Requests is how many requests the query costs.
func (q AnalyticsQuery) Requests() int { return len(q.Windows()) }

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, " ")
}

// values builds the query string of one window.
func (q AnalyticsQuery) values(w AnalyticsWindow) url.Values {
	v := url.Values{}
	if len(q.OrganizationIDs) > 0 {
		v.Set("organization_id", joinIDs(q.OrganizationIDs))
	}
	if len(q.WidgetIDs) > 0 {
		v.Set("um_widget_id", joinIDs(q.WidgetIDs))
	}
	if len(q.OperatorIDs) > 0 {
		v.Set("operator_id", joinIDs(q.OperatorIDs))
	}
	if len(q.OperatorGroupIDs) > 0 {
		v.Set("operator_group_id", joinIDs(q.OperatorGroupIDs))
	}
	switch {
	case w.From.IsZero():
	case w.WithTime:
		v.Set("event_date_from", w.From.UTC().Format("2006-01-02T15:04:05"))
		v.Set("event_date_to", w.To.UTC().Format("2006-01-02T15:04:05"))
	case w.From.Equal(w.To):
		v.Set("event_date", w.From.Format(time.DateOnly))
	default:
		v.Set("event_date_from", w.From.Format(time.DateOnly))
		v.Set("event_date_to", w.To.Format(time.DateOnly))
	}
	if q.OperatorMode != OperatorModeAll {
		v.Set("operator_mode", string(q.OperatorMode))
	}
	return v
}

// AnalyticsURL is the request URL of one window, for display and tests.
func (c *Client) AnalyticsURL(q AnalyticsQuery, w AnalyticsWindow) string {
	return c.endpoint("/api/um/v1/analytics/"+string(q.Metric)+"/", q.values(w))
}

// AnalyticsWindowPoints fetches the data points of one window. The spec shows no paging of
// analytics answers; should an answer carry a `next` link, it is followed to the end.
func (c *Client) AnalyticsWindowPoints(ctx context.Context, q AnalyticsQuery, w AnalyticsWindow) ([]DataPoint, error) {
	link := c.AnalyticsURL(q, w)
	var seen links
	var all []DataPoint
	for {
		if err := seen.visit(link); err != nil {
			return nil, err
		}
		// The answer is {"results": [...]}; a `next` link, should one come, is read like a
		// cursor page's.
		var env CursorPage[DataPoint]
		if _, err := c.do(ctx, request{method: http.MethodGet, url: link}, &env); err != nil {
			return nil, err
		}
		all = append(all, env.Results...)
		if env.Next == "" || len(env.Results) == 0 {
			return all, nil
		}
		link = env.Next
	}
}

// Analytics fetches every window of q (waiting for the client-side limiter as needed) and
// returns the data points merged in time order.
func (c *Client) Analytics(ctx context.Context, q AnalyticsQuery) ([]DataPoint, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	var all []DataPoint
	for _, w := range q.Windows() {
		pts, err := c.AnalyticsWindowPoints(ctx, q, w)
		if err != nil {
			return nil, fmt.Errorf("analytics %s: %w", q.Metric, err)
		}
		all = append(all, pts...)
	}
	SortDataPoints(all)
	return all, nil
}

// SortDataPoints orders points by time (stable, so equal times keep the server's order).
func SortDataPoints(pts []DataPoint) {
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].Time.Before(pts[j].Time.Time) })
}

// DataPoint is one tracked analytics event.
type DataPoint struct {
	WidgetIDs             IDList   `json:"um_widget_id"`
	OrganizationID        int64    `json:"organization_id"`
	OperatorID            *int64   `json:"operator_id"`
	OperatorGroupID       *int64   `json:"operator_group_id"`
	Time                  Time     `json:"time"`
	Value                 *float64 `json:"value"`
	ValueStr              *string  `json:"value_str"`
	ConversationID        *int64   `json:"conversation_id"`
	ConversationPartID    *int64   `json:"conversation_part_id"`
	ConversationSessionID *int64   `json:"conversation_session_id"`
	IsChatbotMetric       bool     `json:"is_chatbot_metric"`
	ChatbotInteraction    *bool    `json:"chatbot_interaction"`
	HumanInteraction      *bool    `json:"human_interaction"`
}

// IDList is an array of ids that also accepts a single number or null.
type IDList []int64

// UnmarshalJSON accepts [1,2], 1 or null.
func (l *IDList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*l = nil
		return nil
	}
	if len(b) > 0 && b[0] == '[' {
		var ids []int64
		if err := json.Unmarshal(b, &ids); err != nil {
			return err
		}
		*l = ids
		return nil
	}
	var id int64
	if err := json.Unmarshal(b, &id); err != nil {
		return fmt.Errorf("um_widget_id: %w", err)
	}
	*l = IDList{id}
	return nil
}
