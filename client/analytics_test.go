package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestWindowsDates(t *testing.T) {
	from := date(2024, 1, 1)
	for _, tc := range []struct {
		days int
		want [][2]time.Time
	}{
		{1, [][2]time.Time{{from, from}}},
		{2, [][2]time.Time{{from, date(2024, 1, 2)}}},
		{93, [][2]time.Time{{from, date(2024, 4, 2)}}},
		{94, [][2]time.Time{{from, date(2024, 4, 2)}, {date(2024, 4, 3), date(2024, 4, 3)}}},
		{186, [][2]time.Time{{from, date(2024, 4, 2)}, {date(2024, 4, 3), date(2024, 7, 4)}}},
		{200, [][2]time.Time{{from, date(2024, 4, 2)}, {date(2024, 4, 3), date(2024, 7, 4)}, {date(2024, 7, 5), date(2024, 7, 18)}}},
	} {
		q := AnalyticsQuery{Metric: MetricConversationDuration, From: from, To: from.AddDate(0, 0, tc.days-1)}
		if err := q.Validate(); err != nil {
			t.Fatalf("%d days: %v", tc.days, err)
		}
		ws := q.Windows()
		var got [][2]time.Time
		total := 0
		for i, w := range ws {
			got = append(got, [2]time.Time{w.From, w.To})
			if w.WithTime {
				t.Errorf("%d days: window %d has WithTime", tc.days, i)
			}
			n := int(w.To.Sub(w.From).Hours()/24) + 1
			if n > MaxAnalyticsDays || n < 1 {
				t.Errorf("%d days: window %d covers %d days", tc.days, i, n)
			}
			total += n
			if i > 0 && !w.From.Equal(ws[i-1].To.AddDate(0, 0, 1)) {
				t.Errorf("%d days: window %d starts %v, the previous ended %v", tc.days, i, w.From, ws[i-1].To)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%d days: windows %v, want %v", tc.days, got, tc.want)
		}
		if total != tc.days || q.Requests() != len(tc.want) {
			t.Errorf("%d days: windows cover %d days in %d requests", tc.days, total, q.Requests())
		}
	}
	// Only the UTC date counts without WithTime: 23:30 in New York on Dec 31 is Jan 1 UTC.
	ny := time.FixedZone("EST", -5*3600)
	q := AnalyticsQuery{Metric: MetricConversationDuration, From: time.Date(2023, 12, 31, 23, 30, 0, 0, ny), To: time.Date(2024, 1, 1, 18, 0, 0, 0, time.UTC)}
	if ws := q.Windows(); len(ws) != 1 || !ws[0].From.Equal(from) || !ws[0].To.Equal(from) {
		t.Errorf("windows %v, want the single day 2024-01-01", ws)
	}
	// No range: one window, the server's current day.
	if ws := (AnalyticsQuery{Metric: MetricConversationDuration}).Windows(); len(ws) != 1 || !ws[0].From.IsZero() || !ws[0].To.IsZero() {
		t.Errorf("no range: %v", ws)
	}
	if n := (AnalyticsQuery{Metric: MetricConversationDuration}).Requests(); n != 1 {
		t.Errorf("no range: %d requests", n)
	}
}

func TestWindowsDateTimes(t *testing.T) {
	from := time.Date(2024, 1, 1, 6, 30, 15, 500_000_000, time.UTC)
	start := from.Truncate(time.Second)
	// The API counts the calendar days a period touches: 06:30 on Jan 1 to 06:30 on Apr 3
	// is 93×24 h but touches 94 days, and is refused.
	endOfDay := func(y int, m time.Month, d int) time.Time { return date(y, m, d).AddDate(0, 0, 1).Add(-time.Second) }
	for _, tc := range []struct {
		name string
		from time.Time
		to   time.Time
		want [][2]time.Time
	}{
		{"one second", from, start, [][2]time.Time{{start, start}}},
		{"one day", from, start.Add(24 * time.Hour), [][2]time.Time{{start, start.Add(24 * time.Hour)}}},
		{"to the end of the 93rd day", from, endOfDay(2024, 4, 2), [][2]time.Time{{start, endOfDay(2024, 4, 2)}}},
		{"into the 94th day", from, date(2024, 4, 3), [][2]time.Time{{start, endOfDay(2024, 4, 2)}, {date(2024, 4, 3), date(2024, 4, 3)}}},
		{"93x24h", from, start.Add(93 * 24 * time.Hour), [][2]time.Time{
			{start, endOfDay(2024, 4, 2)},
			{date(2024, 4, 3), start.Add(93 * 24 * time.Hour)},
		}},
		{"200 days and 3 hours", from, start.Add(200*24*time.Hour + 3*time.Hour), [][2]time.Time{
			{start, endOfDay(2024, 4, 2)},
			{date(2024, 4, 3), endOfDay(2024, 7, 4)},
			{date(2024, 7, 5), start.Add(200*24*time.Hour + 3*time.Hour)},
		}},
		{"from midnight", date(2024, 1, 1), date(2024, 4, 3).Add(time.Hour), [][2]time.Time{
			{date(2024, 1, 1), endOfDay(2024, 4, 2)},
			{date(2024, 4, 3), date(2024, 4, 3).Add(time.Hour)},
		}},
		{"from the last second of a day", endOfDay(2024, 1, 1), date(2024, 4, 4), [][2]time.Time{
			{endOfDay(2024, 1, 1), endOfDay(2024, 4, 2)},
			{date(2024, 4, 3), date(2024, 4, 4)},
		}},
	} {
		q := AnalyticsQuery{Metric: MetricOperatorStatus, From: tc.from, To: tc.to, WithTime: true}
		ws := q.Windows()
		var got [][2]time.Time
		for i, w := range ws {
			got = append(got, [2]time.Time{w.From, w.To})
			if !w.WithTime {
				t.Errorf("%s: window %d lacks WithTime", tc.name, i)
			}
			if w.To.Before(w.From) {
				t.Errorf("%s: window %d ends before it starts", tc.name, i)
			}
			if days := int(day(w.To).Sub(day(w.From)).Hours()/24) + 1; days > MaxAnalyticsDays {
				t.Errorf("%s: window %d touches %d calendar days", tc.name, i, days)
			}
			if i > 0 && w.From.Sub(ws[i-1].To) != time.Second {
				t.Errorf("%s: window %d starts %v after the previous end", tc.name, i, w.From.Sub(ws[i-1].To))
			}
		}
		if len(ws) > 0 && (!ws[0].From.Equal(tc.from.Truncate(time.Second)) || !ws[len(ws)-1].To.Equal(tc.to.Truncate(time.Second))) {
			t.Errorf("%s: windows cover %v..%v, want %v..%v", tc.name, ws[0].From, ws[len(ws)-1].To, tc.from, tc.to)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: windows %v\nwant %v", tc.name, got, tc.want)
		}
		if q.Requests() != len(tc.want) {
			t.Errorf("%s: Requests() = %d", tc.name, q.Requests())
		}
	}
	// Zones are converted to UTC.
	q := AnalyticsQuery{Metric: MetricOperatorStatus, From: time.Date(2024, 1, 1, 9, 0, 0, 0, tokyo), To: time.Date(2024, 1, 1, 10, 0, 0, 0, tokyo), WithTime: true}
	if ws := q.Windows(); len(ws) != 1 || ws[0].From != time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) || ws[0].To != time.Date(2024, 1, 1, 1, 0, 0, 0, time.UTC) {
		t.Errorf("zoned windows %v", ws)
	}
}

var spaceEncoded = regexp.MustCompile(`^[0-9]+((\+|%20)[0-9]+)*$`)

func TestAnalyticsQueryParameters(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"results": []}`) })
	c, _ := newTestClient(t, rec.base(), nil)
	ids := AnalyticsQuery{
		Metric:           MetricChatMessagesTotal,
		OrganizationIDs:  []int64{7, 8},
		WidgetIDs:        []int64{31},
		OperatorIDs:      []int64{3, 4, 5},
		OperatorGroupIDs: []int64{2, 20},
	}
	withIDs := func(kv ...string) url.Values {
		v := url.Values{"organization_id": {"7 8"}, "um_widget_id": {"31"}, "operator_id": {"3 4 5"}, "operator_group_id": {"2 20"}}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	day := date(2024, 3, 1)
	cases := []struct {
		name string
		mod  func(q *AnalyticsQuery)
		want url.Values
	}{
		{"ids only", func(q *AnalyticsQuery) {}, withIDs()},
		{"single day", func(q *AnalyticsQuery) { q.From, q.To = day, day.Add(20*time.Hour) }, withIDs("event_date", "2024-03-01")},
		{"range", func(q *AnalyticsQuery) { q.From, q.To = day, day.AddDate(0, 0, 30) }, withIDs("event_date_from", "2024-03-01", "event_date_to", "2024-03-31")},
		{"date-times", func(q *AnalyticsQuery) {
			q.From, q.To, q.WithTime = day.Add(6*time.Hour+30*time.Minute+15*time.Second+999*time.Millisecond), day.Add(18*time.Hour), true
		}, withIDs("event_date_from", "2024-03-01T06:30:15", "event_date_to", "2024-03-01T18:00:00")},
		{"date-times in a zone", func(q *AnalyticsQuery) {
			q.From, q.To, q.WithTime = time.Date(2024, 3, 1, 9, 0, 0, 0, tokyo), time.Date(2024, 3, 1, 10, 0, 0, 0, berlin), true
		}, withIDs("event_date_from", "2024-03-01T00:00:00", "event_date_to", "2024-03-01T09:00:00")},
		{"human", func(q *AnalyticsQuery) { q.OperatorMode = OperatorModeHuman }, withIDs("operator_mode", "human")},
		{"bot", func(q *AnalyticsQuery) { q.OperatorMode = OperatorModeBot }, withIDs("operator_mode", "bot")},
		{"nothing", func(q *AnalyticsQuery) { *q = AnalyticsQuery{Metric: MetricChatMessagesTotal} }, url.Values{}},
	}
	for _, tc := range cases {
		q := ids
		tc.mod(&q)
		if _, err := c.Analytics(bg(), q); err != nil {
			t.Fatalf("%s: %v", tc.name, mustFail(t, err))
		}
		got := rec.last(t)
		assertRequest(t, got, "GET", "/prefix/api/um/v1/analytics/um_chat_messages_total/", tc.want, "")
		raw, _ := url.ParseQuery(got.RawQuery) // raw values, to check the space encoding
		for _, p := range strings.Split(got.RawQuery, "&") {
			k, v, _ := strings.Cut(p, "=")
			if _, isID := raw[k]; isID && strings.HasSuffix(k, "_id") && !spaceEncoded.MatchString(v) {
				t.Errorf("%s: %s=%s is not ids joined by + or %%20", tc.name, k, v)
			}
		}
		// AnalyticsURL shows the same request.
		if u := c.AnalyticsURL(q, q.Windows()[0]); u != rec.srv.URL+got.Path+queryPart(got.RawQuery) {
			t.Errorf("%s: AnalyticsURL = %s, sent %s?%s", tc.name, u, got.Path, got.RawQuery)
		}
	}
}

func queryPart(raw string) string {
	if raw == "" {
		return ""
	}
	return "?" + raw
}

func TestAnalyticsMergesWindowsInTimeOrder(t *testing.T) {
	from := date(2024, 1, 1)
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if _, err := time.Parse(time.DateOnly, r.URL.Query().Get("event_date_from")); err != nil {
			writeJSON(w, 400, `{"detail": "bad date"}`)
			return
		}
		// The answers come in reverse time order: the first request gets the latest points
		// (as late-tracked events would), each answer newest first.
		k := 2 - n
		start := []time.Time{date(2024, 1, 1), date(2024, 4, 3), date(2024, 7, 5)}[k]
		ts := func(d int) string { return start.AddDate(0, 0, d).Format("2006-01-02T15:04:05") }
		// A tie at day 1 whose server order must survive.
		writeJSON(w, 200, fmt.Sprintf(`{"results": [
			{"time": %q, "value": 3, "conversation_id": %d, "um_widget_id": [1], "organization_id": 7, "operator_id": null, "operator_group_id": null},
			{"time": %q, "value": 2, "conversation_id": %d, "um_widget_id": [1], "organization_id": 7, "operator_id": 3, "operator_group_id": 2},
			{"time": %q, "value": 2, "conversation_id": %d, "um_widget_id": [1], "organization_id": 7, "operator_id": 3, "operator_group_id": 2},
			{"time": %q, "value": 1, "conversation_id": %d, "um_widget_id": [1], "organization_id": 7, "operator_id": 3, "operator_group_id": 2}
		]}`, ts(2), 100*k+30, ts(1), 100*k+21, ts(1), 100*k+22, ts(0), 100*k+10))
	})
	c, _ := newTestClient(t, rec.base(), nil)
	q := AnalyticsQuery{Metric: MetricConversationDuration, From: from, To: from.AddDate(0, 0, 199)}
	pts, err := c.Analytics(bg(), q)
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	reqs := rec.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	wantWindows := [][2]string{{"2024-01-01", "2024-04-02"}, {"2024-04-03", "2024-07-04"}, {"2024-07-05", "2024-07-18"}}
	for i, r := range reqs {
		want := url.Values{"event_date_from": {wantWindows[i][0]}, "event_date_to": {wantWindows[i][1]}}
		assertRequest(t, r, "GET", "/prefix/api/um/v1/analytics/um_conversation_duration/", want, "")
	}
	var got []int64
	for i, p := range pts {
		got = append(got, *p.ConversationID)
		if i > 0 && p.Time.Before(pts[i-1].Time.Time) {
			t.Errorf("point %d (%v) before point %d (%v)", i, p.Time, i-1, pts[i-1].Time)
		}
	}
	want := []int64{10, 21, 22, 30, 110, 121, 122, 130, 210, 221, 222, 230}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged conversation ids %v, want %v", got, want)
	}
	if pts[0].OperatorID == nil || *pts[0].OperatorID != 3 || pts[3].OperatorID != nil {
		t.Errorf("operator ids: %v, %v", pts[0].OperatorID, pts[3].OperatorID)
	}

	// A failing window stops the walk with a classified error.
	rec.setRespond(func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 4 {
			writeJSON(w, 400, `{"detail": "A single request cannot cover more than 93 days."}`)
			return
		}
		writeJSON(w, 200, `{"results": []}`)
	})
	_, err = c.Analytics(bg(), q)
	mustFail(t, err)
	if !IsValidation(err) || !strings.Contains(err.Error(), "um_conversation_duration") || rec.count() != 5 {
		t.Errorf("err %v after %d requests", err, rec.count())
	}
}

// TestAnalyticsFollowsNextLinks: the spec shows no paging of analytics answers; an answer that
// does carry a next link is followed (with the filters it carries), each page counted against
// the metric; a next link back to a page already read is an error, not a loop.
func TestAnalyticsFollowsNextLinks(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		q := r.URL.Query()
		q.Set("page", fmt.Sprint(n+2))
		next := "http://" + r.Host + r.URL.Path + "?" + q.Encode()
		switch n {
		case 0:
			writeJSON(w, 200, `{"next": "`+next+`", "results": [{"time": "2024-01-01T10:00:00", "conversation_id": 1}]}`)
		case 1:
			writeJSON(w, 200, `{"next": "`+next+`", "results": [{"time": "2024-01-01T09:00:00", "conversation_id": 2}]}`)
		default:
			writeJSON(w, 200, `{"next": null, "results": [{"time": "2024-01-01T11:00:00", "conversation_id": 3}]}`)
		}
	})
	c, _ := newTestClient(t, rec.base(), nil)
	pts, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricConversationRating, From: date(2024, 1, 1), To: date(2024, 1, 1)})
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	var got []int64
	for _, p := range pts {
		got = append(got, *p.ConversationID)
	}
	if !reflect.DeepEqual(got, []int64{2, 1, 3}) {
		t.Errorf("points %v, want [2 1 3] (all pages, in time order)", got)
	}
	reqs := rec.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if q := reqs[2].Query; q.Get("event_date") != "2024-01-01" || q.Get("page") != "3" {
		t.Errorf("third request %v", q)
	}
	if u := c.Usage("analytics:um_conversation_rating"); u != 3 {
		t.Errorf("usage %d, want 3", u)
	}

	// A next link that points back at the first page.
	rec.setRespond(func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"next": "http://`+r.Host+r.URL.String()+`", "results": [{"time": "2024-01-01T10:00:00"}]}`)
	})
	before := rec.count()
	_, err = c.Analytics(bg(), AnalyticsQuery{Metric: MetricConversationFeedback})
	if !errors.Is(err, ErrPagingLoop) || rec.count() != before+1 {
		t.Errorf("looping next: %v after %d requests", err, rec.count()-before)
	}
}

func TestSortDataPointsStable(t *testing.T) {
	mk := func(ts string, id int64) DataPoint {
		tm, _ := ParseTime(ts)
		return DataPoint{Time: Time{tm}, ConversationID: ptr(id)}
	}
	pts := []DataPoint{mk("2024-01-02T00:00:00", 1), mk("2024-01-01T00:00:00", 2), mk("2024-01-02T00:00:00", 3), mk("2024-01-01T23:59:59+01:00", 4)}
	SortDataPoints(pts)
	var got []int64
	for _, p := range pts {
		got = append(got, *p.ConversationID)
	}
	if !reflect.DeepEqual(got, []int64{2, 4, 1, 3}) {
		t.Errorf("order %v", got)
	}
}

func TestAnalyticsLimiter(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"results": []}`) })
	var ev events
	c, w := newTestClient(t, rec.base(), func(cfg *Config) {
		cfg.AnalyticsPerMinute = 10
		cfg.Now = clock.Now
		cfg.OrganizationID = 7
		cfg.OnEvent = ev.add
	})
	w.advance = clock.Advance
	get := func(c *Client, m Metric) {
		t.Helper()
		if _, err := c.Analytics(bg(), AnalyticsQuery{Metric: m}); err != nil {
			t.Fatal(mustFail(t, err))
		}
	}
	for i := range 10 {
		if free := c.AnalyticsFree(MetricConversationRating); free != 10-i {
			t.Errorf("before request %d: %d free", i+1, free)
		}
		get(c, MetricConversationRating)
		clock.Advance(time.Second)
	}
	if len(ev.all()) != 0 || len(w.all()) != 0 {
		t.Fatalf("the first 10 requests waited: %v", ev.all())
	}
	// Now at +10s: the oldest request leaves the window at +60s and the margin.
	wait := 50*time.Second + AnalyticsMargin
	if d := c.AnalyticsDelay(MetricConversationRating); d != wait {
		t.Errorf("AnalyticsDelay = %v, want %v", d, wait)
	}
	if f := c.AnalyticsFree(MetricConversationRating); f != 0 {
		t.Errorf("AnalyticsFree = %d, want 0", f)
	}
	// Another metric of the same organization and the same metric of another organization go at once.
	get(c, MetricConversationFeedback)
	other := c.WithContext(9, 0)
	if d := other.AnalyticsDelay(MetricConversationRating); d != 0 {
		t.Errorf("org 9 delay %v", d)
	}
	get(other, MetricConversationRating)
	if len(ev.all()) != 0 || len(w.all()) != 0 {
		t.Fatalf("other metric or organization waited: %v", ev.all())
	}
	before := rec.count()
	get(c, MetricConversationRating) // the 11th
	evs := ev.all()
	if len(evs) != 1 {
		t.Fatalf("events %+v, want one EventQueued", evs)
	}
	e := evs[0]
	if e.Kind != EventQueued || e.Delay != wait || e.Family != "analytics:um_conversation_rating" || e.Method != "GET" || e.Status != 0 {
		t.Errorf("event %+v", e)
	}
	if got := w.all(); !reflect.DeepEqual(got, []time.Duration{wait}) {
		t.Errorf("waits %v, want [%v]", got, wait)
	}
	if rec.count() != before+1 {
		t.Errorf("%d requests for the 11th call", rec.count()-before)
	}
	// At +61s the window holds +1s…+9s and +61s: the 12th waits for +62s.
	get(c, MetricConversationRating)
	if got := w.all(); len(got) != 2 || got[1] != time.Second {
		t.Errorf("waits %v, want a second one of 1s", got)
	}
	if u := c.Usage("analytics:um_conversation_rating"); u != 12 {
		t.Errorf("usage %d, want 12", u)
	}
}

// The API starts a request's minute when it handles it, somewhere between the send and the
// answer: the limiter counts from the answer, and a request in flight holds its place until
// it ends.
func TestAnalyticsLimiterCountsFromTheAnswer(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	var c *Client
	inFlight := -1
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		clock.Advance(3 * time.Second) // a slow answer
		if n == 0 {
			// While the first request is in flight its place is taken for a minute from now
			// at least.
			inFlight = c.AnalyticsFree(MetricConversationRating)
		}
		writeJSON(w, 200, `{"results": []}`)
	})
	c, w := newTestClient(t, rec.base(), func(cfg *Config) {
		cfg.AnalyticsPerMinute = 2
		cfg.Now = clock.Now
	})
	w.advance = clock.Advance
	for range 3 {
		if _, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricConversationRating}); err != nil {
			t.Fatal(mustFail(t, err))
		}
	}
	if inFlight != 1 {
		t.Errorf("free while the first is in flight: %d, want 1", inFlight)
	}
	// Sent at 0s and 3s, answered at 3s and 6s: the third waits from 6s to 3s + 61s.
	if got, want := w.all(), []time.Duration{time.Minute + AnalyticsMargin - 3*time.Second}; !reflect.DeepEqual(got, want) {
		t.Errorf("waits %v, want %v", got, want)
	}
}

// TestAnalyticsLimiterFollowsTheAnsweringOrganization: once Counters.Resolve says that
// requests without an organization header are answered by organization 7, both share one
// window of 10 per minute per metric, as the API counts them; other organizations do not.
func TestAnalyticsLimiterFollowsTheAnsweringOrganization(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"results": []}`) })
	c, w := newTestClient(t, rec.base(), func(cfg *Config) {
		cfg.AnalyticsPerMinute = 10
		cfg.Now = clock.Now
	})
	w.advance = clock.Advance
	get := func(c *Client) {
		t.Helper()
		if _, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricConversationRating}); err != nil {
			t.Fatal(mustFail(t, err))
		}
	}
	noHeader, org7, org9 := c.WithContext(0, 0), c.WithContext(7, 0), c.WithContext(9, 0)
	for range 6 {
		get(noHeader)
	}
	if f := org7.AnalyticsFree(MetricConversationRating); f != 10 {
		t.Fatalf("before Resolve organization 7 has %d free, want 10", f)
	}
	c.Counters().Resolve(0, 7)
	if f := org7.AnalyticsFree(MetricConversationRating); f != 4 {
		t.Errorf("after Resolve organization 7 has %d free, want 4", f)
	}
	if f := noHeader.AnalyticsFree(MetricConversationRating); f != 4 {
		t.Errorf("after Resolve no header has %d free, want 4", f)
	}
	for range 4 {
		get(org7)
	}
	if len(w.all()) != 0 {
		t.Fatalf("waited %v within the limit", w.all())
	}
	if d := noHeader.AnalyticsDelay(MetricConversationRating); d != time.Minute+AnalyticsMargin {
		t.Errorf("no header: delay %v, want a minute and the margin", d)
	}
	get(noHeader) // the 11th for organization 7
	if got := w.all(); !reflect.DeepEqual(got, []time.Duration{time.Minute + AnalyticsMargin}) {
		t.Errorf("waits %v, want [a minute and the margin]", got)
	}
	if f := org9.AnalyticsFree(MetricConversationRating); f != 10 {
		t.Errorf("organization 9 has %d free, want 10", f)
	}

	// Sends under two header values that turn out to reach one organization can exceed
	// the limit together (6 + 10 here); none is then free, never a negative count.
	org5, org11 := c.WithContext(5, 0), c.WithContext(11, 0)
	for range 6 {
		get(org5)
	}
	for range 10 {
		get(org11)
	}
	c.Counters().Resolve(5, 11)
	if f := org11.AnalyticsFree(MetricConversationRating); f != 0 {
		t.Errorf("organizations 5 and 11 folded: %d free, want 0", f)
	}
}

func TestAnalyticsLimiterAcrossWindowsAndCancel(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"results": []}`) })
	var ev events
	c, w := newTestClient(t, rec.base(), func(cfg *Config) {
		cfg.AnalyticsPerMinute = 2
		cfg.Now = clock.Now
		cfg.OnEvent = ev.add
	})
	w.advance = clock.Advance
	q := AnalyticsQuery{Metric: MetricOperatorSlotUsage, From: date(2024, 1, 1), To: date(2024, 7, 18)}
	if _, err := c.Analytics(bg(), q); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 3 || !reflect.DeepEqual(w.all(), []time.Duration{time.Minute + AnalyticsMargin}) {
		t.Errorf("%d requests, waits %v; want 3 and [a minute and the margin]", rec.count(), w.all())
	}

	// Cancelling while queued sends nothing more. One more request fills the window again.
	if _, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricOperatorSlotUsage}); err != nil || len(w.all()) != 1 {
		t.Fatalf("err %v, waits %v", err, w.all())
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.sleep = sleepCtx
	c2 := c.WithContext(0, 0)
	var once bool
	c2.onEvent = func(e Event) {
		if e.Kind == EventQueued && !once {
			once = true
			cancel()
		}
	}
	before := rec.count()
	_, err := c2.Analytics(ctx, AnalyticsQuery{Metric: MetricOperatorSlotUsage})
	mustFail(t, err)
	if !errors.Is(err, context.Canceled) || rec.count() != before {
		t.Errorf("err %v, %d requests", err, rec.count()-before)
	}
}

func TestAnalyticsValidate(t *testing.T) {
	d := date(2024, 3, 1)
	bad := map[string]AnalyticsQuery{
		"no metric":           {From: d, To: d},
		"operator mode":       {Metric: MetricConversationRating, OperatorMode: "robot"},
		"only from":           {Metric: MetricConversationRating, From: d},
		"only to":             {Metric: MetricConversationRating, To: d},
		"reversed dates":      {Metric: MetricConversationRating, From: d, To: d.AddDate(0, 0, -1)},
		"reversed date-times": {Metric: MetricConversationRating, From: d.Add(time.Second), To: d, WithTime: true},
	}
	rec := newRecorder(t, nil)
	c, _ := newTestClient(t, rec.base(), nil)
	for name, q := range bad {
		if err := q.Validate(); err == nil {
			t.Errorf("%s: valid", name)
		}
		_, err := c.Analytics(bg(), q)
		mustFail(t, err)
	}
	if rec.count() != 0 {
		t.Errorf("invalid queries sent %d requests", rec.count())
	}
	good := map[string]AnalyticsQuery{
		"today":                          {Metric: MetricConversationRating},
		"one day":                        {Metric: MetricConversationRating, From: d, To: d},
		"same day, to before from":       {Metric: MetricConversationRating, From: d.Add(20 * time.Hour), To: d.Add(time.Hour)},
		"same second with time":          {Metric: MetricConversationRating, From: d, To: d, WithTime: true},
		"long range, split":              {Metric: MetricConversationRating, From: d, To: d.AddDate(2, 0, 0)},
		"human":                          {Metric: MetricConversationRating, OperatorMode: OperatorModeHuman},
		"bot":                            {Metric: MetricConversationRating, OperatorMode: OperatorModeBot},
		"metric the client doesn't know": {Metric: "um_future_metric"},
	}
	for name, q := range good {
		if err := q.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestAnalytics94Days: the second window is a single day and goes out as event_date.
func TestAnalytics94Days(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"results": []}`) })
	c, _ := newTestClient(t, rec.base(), nil)
	q := AnalyticsQuery{Metric: MetricMissedOpportunity, From: date(2024, 1, 1), To: date(2024, 4, 3), OperatorMode: OperatorModeBot}
	if _, err := c.Analytics(bg(), q); err != nil {
		t.Fatal(mustFail(t, err))
	}
	reqs := rec.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	path := "/prefix/api/um/v1/analytics/um_missed_opportunity/"
	assertRequest(t, reqs[0], "GET", path, url.Values{"event_date_from": {"2024-01-01"}, "event_date_to": {"2024-04-02"}, "operator_mode": {"bot"}}, "")
	assertRequest(t, reqs[1], "GET", path, url.Values{"event_date": {"2024-04-03"}, "operator_mode": {"bot"}}, "")
}
