package analytics

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
)

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02T15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t
}

func day(s string) time.Time { return at(s + "T00:00:00") }

func fp(v float64) *float64 { return &v }

func pt(ts string, v *float64) client.DataPoint {
	return client.DataPoint{Time: client.Time{Time: at(ts)}, Value: v}
}

func bp(v bool) *bool { return &v }

func TestGranularity(t *testing.T) {
	cases := []struct {
		p    Period
		want Granularity
	}{
		{Period{From: day("2026-10-01"), To: day("2026-10-01")}, Hourly},
		{Period{From: day("2026-10-01"), To: day("2026-10-02")}, Hourly}, // two whole days
		{Period{From: day("2026-10-01"), To: day("2026-10-03")}, Daily},
		{Period{From: at("2026-10-01T08:00:00"), To: at("2026-10-03T07:59:59"), WithTime: true}, Hourly},
		{Period{From: at("2026-10-01T08:00:00"), To: at("2026-10-03T08:00:00"), WithTime: true}, Daily},
	}
	for _, c := range cases {
		if g := c.p.Granularity(); g != c.want {
			t.Errorf("%s: granularity %s, want %s", c.p, g, c.want)
		}
	}
}

func TestBucketsHourlyAcrossMidnight(t *testing.T) {
	p := Period{From: at("2026-10-31T22:00:00"), To: at("2026-11-01T01:59:59"), WithTime: true}
	pts := []client.DataPoint{
		pt("2026-10-31T21:59:59", fp(100)), // before the period
		pt("2026-10-31T22:00:00", fp(1)),
		pt("2026-10-31T22:59:59", fp(3)),
		pt("2026-10-31T23:59:59", nil),
		pt("2026-11-01T00:00:00", fp(5)),
		pt("2026-11-01T01:59:59", fp(7)),
		pt("2026-11-01T02:00:00", fp(100)), // after
	}
	b := Buckets(pts, p)
	want := []struct {
		start string
		count int
		vals  int
	}{
		{"2026-10-31T22:00:00", 2, 2},
		{"2026-10-31T23:00:00", 1, 0},
		{"2026-11-01T00:00:00", 1, 1},
		{"2026-11-01T01:00:00", 1, 1},
	}
	if len(b) != len(want) {
		t.Fatalf("%d buckets, want %d: %+v", len(b), len(want), b)
	}
	for i, w := range want {
		if !b[i].Start.Equal(at(w.start)) || b[i].Count != w.count || len(b[i].Values) != w.vals {
			t.Errorf("bucket %d = %s count %d values %v; want %s %d %d", i, b[i].Start, b[i].Count, b[i].Values, w.start, w.count, w.vals)
		}
	}
	if v, ok := BucketValue(b[0], ChartMean); !ok || v != 2 {
		t.Errorf("mean of bucket 0 = %v %v, want 2", v, ok)
	}
	if _, ok := BucketValue(b[1], ChartMedian); ok {
		t.Error("a bucket without values has no median")
	}
	if v, _ := BucketValue(b[1], ChartCount); v != 1 {
		t.Errorf("count of bucket 1 = %v", v)
	}
}

func TestBucketsHourlyDatesOnly(t *testing.T) {
	// Two whole days, per hour: 48 buckets; the last point of the 2nd day lands in the last.
	p := Period{From: day("2026-02-28"), To: day("2026-03-01")}
	b := Buckets([]client.DataPoint{pt("2026-02-28T00:00:00", nil), pt("2026-03-01T23:59:59", nil), pt("2026-03-02T00:00:00", nil)}, p)
	if len(b) != 48 {
		t.Fatalf("%d buckets, want 48", len(b))
	}
	if b[0].Count != 1 || b[47].Count != 1 || !b[47].Start.Equal(at("2026-03-01T23:00:00")) {
		t.Errorf("first %+v last %+v", b[0], b[47])
	}
	if !b[24].Start.Equal(day("2026-03-01")) {
		t.Errorf("bucket 24 starts %s, want March 1st (February 2026 has 28 days)", b[24].Start)
	}
}

func TestBucketsDailyAcrossMonthEnds(t *testing.T) {
	// January 30th to March 2nd 2024 (a leap year): 33 days.
	p := Period{From: day("2024-01-30"), To: day("2024-03-02")}
	pts := []client.DataPoint{
		pt("2024-01-31T23:59:59", fp(10)),
		pt("2024-02-01T00:00:00", fp(20)),
		pt("2024-02-29T12:00:00", fp(30)),
		pt("2024-03-01T00:00:01", fp(40)),
		pt("2024-03-02T23:59:59", fp(50)),
	}
	b := Buckets(pts, p)
	if len(b) != 33 {
		t.Fatalf("%d buckets, want 33", len(b))
	}
	counts := map[string]int{}
	for _, x := range b {
		if x.Start.Hour() != 0 || x.Start.Location() != time.UTC {
			t.Fatalf("bucket %s does not start at UTC midnight", x.Start)
		}
		if x.Count > 0 {
			counts[x.Start.Format(time.DateOnly)] = x.Count
		}
	}
	for _, d := range []string{"2024-01-31", "2024-02-01", "2024-02-29", "2024-03-01", "2024-03-02"} {
		if counts[d] != 1 {
			t.Errorf("day %s has %d points, want 1 (all: %v)", d, counts[d], counts)
		}
	}
	if !b[len(b)-1].Start.Equal(day("2024-03-02")) {
		t.Errorf("last bucket %s", b[len(b)-1].Start)
	}
	// A period with times: buckets are whole days from the first day's midnight.
	pt2 := Period{From: at("2026-12-31T18:00:00"), To: at("2027-01-03T06:00:00"), WithTime: true}
	b = Buckets([]client.DataPoint{pt("2026-12-31T18:00:00", nil), pt("2027-01-01T00:00:00", nil), pt("2027-01-03T06:00:00", nil)}, pt2)
	if len(b) != 4 || !b[0].Start.Equal(day("2026-12-31")) || b[0].Count != 1 || b[1].Count != 1 || b[3].Count != 1 {
		t.Errorf("buckets across the new year: %+v", b)
	}
}

func TestBucketsEmpty(t *testing.T) {
	b := Buckets(nil, Period{From: day("2026-10-01"), To: day("2026-10-07")})
	if len(b) != 7 {
		t.Fatalf("%d buckets", len(b))
	}
	for _, x := range b {
		if x.Count != 0 {
			t.Fatal("count in an empty bucket")
		}
		if _, ok := BucketValue(x, ChartMean); ok {
			t.Fatal("mean of an empty bucket")
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSummaries(t *testing.T) {
	var pts []client.DataPoint
	for i := 1; i <= 10; i++ {
		pts = append(pts, pt("2026-10-01T00:00:00", fp(float64(i))))
	}
	pts = append(pts, pt("2026-10-01T00:00:00", nil)) // a point without a value
	s := Summarize(pts)
	if s.Count != 11 || s.N != 10 || s.Sum != 55 || s.Mean != 5.5 || s.Min != 1 || s.Max != 10 {
		t.Errorf("summary %+v", s)
	}
	if !near(s.Median, 5.5) || !near(s.P90, 9.1) {
		t.Errorf("median %v p90 %v, want 5.5 and 9.1", s.Median, s.P90)
	}
	// Odd count, unsorted input with a repeated value.
	s = SummarizeValues(5, []float64{30, 10, 20, 10, 50})
	if s.Median != 20 || !near(s.P90, 42) || s.Min != 10 || s.Max != 50 || s.Mean != 24 {
		t.Errorf("odd summary %+v", s)
	}
	// A single point.
	s = SummarizeValues(1, []float64{42})
	if s.Median != 42 || s.P90 != 42 || s.Min != 42 || s.Max != 42 || s.Mean != 42 {
		t.Errorf("single %+v", s)
	}
	// No values at all (a metric without value): only the count.
	s = Summarize([]client.DataPoint{pt("2026-10-01T00:00:00", nil)})
	if s.Count != 1 || s.N != 0 || s.Mean != 0 || s.Median != 0 {
		t.Errorf("no values %+v", s)
	}
	if s := Summarize(nil); s.Count != 0 {
		t.Errorf("empty %+v", s)
	}
	if Percentile(nil, 0.5) != 0 {
		t.Error("percentile of nothing")
	}
}

func TestPlanRequests(t *testing.T) {
	from := day("2026-01-01")
	cases := []struct {
		days, want int
		lastDays   int
	}{
		{1, 1, 1}, {93, 1, 93}, {94, 2, 1}, {200, 3, 14},
	}
	for _, c := range cases {
		p := Period{From: from, To: from.AddDate(0, 0, c.days-1)}
		if p.Days() != c.days {
			t.Fatalf("period of %d days counts %d", c.days, p.Days())
		}
		ws := Plan(p.Apply(client.AnalyticsQuery{Metric: client.MetricConversationDuration}))
		if len(ws) != c.want {
			t.Errorf("%d days: %d requests, want %d", c.days, len(ws), c.want)
			continue
		}
		total := 0
		for i, w := range ws {
			n := int(w.To.Sub(w.From).Hours()/24) + 1
			if n > client.MaxAnalyticsDays {
				t.Errorf("%d days: window %d covers %d days", c.days, i, n)
			}
			if i > 0 && !w.From.Equal(ws[i-1].To.AddDate(0, 0, 1)) {
				t.Errorf("%d days: window %d starts %s, not the day after %s", c.days, i, w.From, ws[i-1].To)
			}
			total += n
		}
		if total != c.days {
			t.Errorf("%d days: windows cover %d days", c.days, total)
		}
		last := ws[len(ws)-1]
		if n := int(last.To.Sub(last.From).Hours()/24) + 1; n != c.lastDays || !last.To.Equal(p.To) {
			t.Errorf("%d days: last window %s..%s (%d days), want %d days ending %s", c.days, last.From, last.To, n, c.lastDays, p.To)
		}
		if CostText(len(ws)) == "" {
			t.Error("no cost text")
		}
	}
	// With times, 94 days of 24 h are two requests as well.
	p := Period{From: at("2026-01-01T06:00:00"), To: at("2026-01-01T06:00:00").Add(94*24*time.Hour - time.Second), WithTime: true}
	if n := len(Plan(p.Apply(client.AnalyticsQuery{Metric: client.MetricConversationDuration}))); n != 2 {
		t.Errorf("94 days with times: %d requests", n)
	}
	// The API counts the calendar days a period touches: a window with times that starts
	// mid-day must end before the 94th day begins, and the windows leave no second out.
	p = Period{From: at("2026-01-01T12:00:00"), To: at("2026-06-01T00:00:00"), WithTime: true}
	ws := Plan(p.Apply(client.AnalyticsQuery{Metric: client.MetricConversationDuration}))
	for i, w := range ws {
		if d := (Period{From: w.From, To: w.To, WithTime: true}).Days(); d > client.MaxAnalyticsDays {
			t.Errorf("window %d (%s → %s) touches %d calendar days", i, w.From, w.To, d)
		}
		if i > 0 && !w.From.Equal(ws[i-1].To.Add(time.Second)) {
			t.Errorf("window %d starts %s, not a second after %s", i, w.From, ws[i-1].To)
		}
	}
	if len(ws) == 0 || !ws[0].From.Equal(p.From) || !ws[len(ws)-1].To.Equal(p.To) {
		t.Errorf("the windows do not cover %s", p)
	}
	if CostText(1) != "1 request" || CostText(3) != "3 requests" {
		t.Error("cost text")
	}
}

func TestPresets(t *testing.T) {
	now := at("2026-03-31T23:30:00")
	cases := map[Preset][2]string{
		PresetToday:     {"2026-03-31", "2026-03-31"},
		PresetYesterday: {"2026-03-30", "2026-03-30"},
		PresetLast7:     {"2026-03-25", "2026-03-31"},
		PresetLast30:    {"2026-03-02", "2026-03-31"},
		PresetLastMonth: {"2026-02-01", "2026-02-28"},
		PresetLast90:    {"2026-01-01", "2026-03-31"},
	}
	for p, want := range cases {
		got := p.Period(now)
		if got.WithTime || got.From.Format(time.DateOnly) != want[0] || got.To.Format(time.DateOnly) != want[1] {
			t.Errorf("%s = %s, want %s → %s", p.Label(), got, want[0], want[1])
		}
	}
	if p := PresetLastMonth.Period(at("2026-01-15T00:00:00")); p.String() != "2025-12-01 → 2025-12-31" {
		t.Errorf("last month in January: %s", p)
	}
	if d := PresetLast90.Period(now).Days(); d != 90 {
		t.Errorf("last 90 days has %d days", d)
	}
}

func TestParseCustom(t *testing.T) {
	now := at("2026-11-20T15:04:05")
	p, err := ParseCustom("2026-07-23", "2026-11-20", now)
	if err != nil || p.WithTime || p.Days() != 121 {
		t.Fatalf("dates: %+v %v", p, err)
	}
	p, err = ParseCustom("2026-11-19 08:00", "2026-11-20", now)
	if err != nil || !p.WithTime || !p.From.Equal(at("2026-11-19T08:00:00")) || !p.To.Equal(at("2026-11-20T23:59:59")) {
		t.Fatalf("with a time: %+v %v", p, err)
	}
	if p.Granularity() != Hourly {
		t.Errorf("40 hours should be hourly")
	}
	p, err = ParseCustom("7d", "today", now)
	if err != nil || p.WithTime || p.From.Format(time.DateOnly) != "2026-11-13" || p.To.Format(time.DateOnly) != "2026-11-20" {
		t.Fatalf("ages: %+v %v", p, err)
	}
	if _, err := ParseCustom("2026-11-20", "2026-11-01", now); err == nil || !strings.Contains(err.Error(), "before") {
		t.Errorf("reversed range: %v", err)
	}
	if _, err := ParseCustom("", "2026-11-01", now); err == nil {
		t.Error("empty start accepted")
	}
	if _, err := ParseCustom("soon", "2026-11-01", now); err == nil || !strings.HasPrefix(err.Error(), `From (UTC): "soon" is not a date`) {
		t.Errorf("bad start: %v", err)
	}
}

// Ends outside 2000–2100 are refused with the field's title, however large the age: 3000000h
// used to wrap around into the year 2269 and 99999999999w into a negative year, and both
// ranges were accepted.
func TestParseCustomRefusesTimesOutsideTheRange(t *testing.T) {
	now := at("2026-11-20T15:04:05")
	for _, c := range []struct{ from, to, want string }{
		{"2026-01-01", "3000000h", `To (UTC, included): "3000000h" is too far back (before 2000)`},
		{"99999999999w", "today", `From (UTC): "99999999999w" is too far back (before 2000)`},
		{"1999-12-31", "2026-01-01", `From (UTC): "1999-12-31" is too far back (before 2000)`},
		{"2026-01-01", "2101-01-01 00:00", `To (UTC, included): "2101-01-01 00:00" is too far ahead (after 2100)`},
	} {
		p, err := ParseCustom(c.from, c.to, now)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseCustom(%q, %q) = %+v, %v; want %q", c.from, c.to, p, err, c.want)
		}
	}
}

func TestSplitAndBreakdowns(t *testing.T) {
	op := func(id int64) *int64 { return &id }
	s := func(v string) *string { return &v }
	pts := []client.DataPoint{
		{OperatorID: op(1), Value: fp(10), ValueStr: s("online"), HumanInteraction: bp(true), ChatbotInteraction: bp(false)},
		{OperatorID: op(1), Value: fp(20), ValueStr: s("away"), HumanInteraction: bp(true), ChatbotInteraction: bp(true)},
		{OperatorID: op(2), ValueStr: s("online"), IsChatbotMetric: true, ChatbotInteraction: bp(true)},
		{OperatorID: nil},
	}
	strs := []string{"online", "away", "online", ""}
	by := ByValueStr(pts, strs)
	if len(by) != 3 || by[0].Label != "online" || by[0].Count != 2 || by[0].N != 1 || by[0].Mean() != 10 || by[2].Label != NoValueStr {
		t.Errorf("by value_str %+v", by)
	}
	ops, ok := ByOperator(pts)
	if !ok || len(ops) != 3 || ops[0].ID != 1 || ops[0].Count != 2 || ops[0].Mean() != 15 || ops[2].HasID {
		t.Errorf("by operator %+v %v", ops, ok)
	}
	if _, ok := ByOperator([]client.DataPoint{{}, {}}); ok {
		t.Error("points without operators have no operator breakdown")
	}
	g := Split(pts, SplitInteraction)
	if len(g) != 4 || len(g[0].Points) != 1 || len(g[1].Points) != 1 || len(g[2].Points) != 1 || len(g[3].Points) != 1 {
		t.Errorf("interaction split %+v", g)
	}
	g = Split(pts[:3], SplitInteraction)
	if len(g) != 3 {
		t.Errorf("without unflagged points the split has %d groups", len(g))
	}
	g = Split(pts, SplitOperator)
	if len(g) != 2 || len(g[0].Points) != 3 || len(g[1].Points) != 1 {
		t.Errorf("operator split %+v", g)
	}
	if g := Split(pts, SplitNone); len(g) != 1 || len(g[0].Points) != 4 {
		t.Errorf("no split %+v", g)
	}
}

func TestFormatting(t *testing.T) {
	cases := map[float64]string{0: "0s", 12: "12s", 12.4: "12s", 59.6: "1m00s", 185: "3m05s", 3599: "59m59s", 3720: "1h02m", 3749: "1h02m", 93900: "26h05m", -12: "-12s"}
	for v, want := range cases {
		if got := FormatDuration(v); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", v, got, want)
		}
	}
	if got := FormatValue(client.UnitPercent, 45.55); got != "45.5%" && got != "45.6%" {
		t.Errorf("percent %q", got)
	}
	if got := FormatValue(client.UnitPercent, 50); got != "50%" {
		t.Errorf("percent %q", got)
	}
	if got := FormatValue(client.UnitRating, 4.25); got != "4.25" {
		t.Errorf("rating %q", got)
	}
	if got := FormatValue(client.UnitCount, 12345); got != "12,345" {
		t.Errorf("count %q", got)
	}
	if got := FormatAxis(client.UnitSeconds, ChartCount, 12000); got != "12k" {
		t.Errorf("axis %q", got)
	}
	if got := FormatAxis(client.UnitSeconds, ChartMedian, 65); got != "1m05s" {
		t.Errorf("axis %q", got)
	}
}

// Values at the ends of int64 (as an analytics answer may send them: JSON numbers read as
// float64), and no number at all, show as a number rounded where a float64 cannot hold it
// exactly, or "—": never a wrapped or doubled sign, never NaN or Inf.
func TestFormattingAtTheEnds(t *testing.T) {
	maxI, minI := float64(math.MaxInt64), float64(math.MinInt64)
	for _, c := range []struct {
		unit client.Unit
		v    float64
		want string
	}{
		{client.UnitSeconds, maxI, "—"}, {client.UnitSeconds, minI, "—"}, {client.UnitSeconds, math.Inf(1), "—"},
		{client.UnitSeconds, 1<<53 - 1, "2501999792983h37m"}, {client.UnitSeconds, -(1<<53 - 1), "-2501999792983h37m"},
		{client.UnitCount, maxI, "9.22e+18"}, {client.UnitCount, minI, "-9.22e+18"}, {client.UnitCount, math.NaN(), "—"},
		{client.UnitCount, 1<<53 - 1, "9,007,199,254,740,991"}, {client.UnitCount, -(1<<53 - 1), "-9,007,199,254,740,991"},
		{client.UnitPercent, maxI, "9.22e+18%"}, {client.UnitPercent, math.Inf(-1), "—"},
	} {
		if got := FormatValue(c.unit, c.v); got != c.want {
			t.Errorf("FormatValue(%s, %v) = %q, want %q", c.unit, c.v, got, c.want)
		}
	}
	for _, v := range []float64{maxI, minI, math.Inf(1), math.NaN(), math.MaxFloat64} {
		for _, kind := range []ChartKind{ChartCount, ChartMean} {
			if got := FormatAxis(client.UnitCount, kind, v); strings.Contains(got, "Inf") || strings.Contains(got, "NaN") || len(got) > 10 {
				t.Errorf("FormatAxis(%v) = %q", v, got)
			}
		}
	}
}

// Any float64 an answer holds formats in every unit: no panic, no "NaN" or "Inf", a short
// text, and a whole number below 2^53 reads back exactly.
func FuzzFormatValue(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 0.5, 12345, 1e15, 1 << 53, -(1 << 53), math.MaxInt64, math.MinInt64,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.NaN()} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		for _, u := range []client.Unit{client.UnitSeconds, client.UnitPercent, client.UnitRating, client.UnitCount, client.UnitID} {
			got := FormatValue(u, v)
			if got == "" || strings.Contains(got, "NaN") || strings.Contains(got, "Inf") || u != client.UnitID && len(got) > 32 {
				t.Fatalf("FormatValue(%s, %v) = %q", u, v, got)
			}
		}
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			got := FormatNumber(v)
			back, err := strconv.ParseFloat(strings.ReplaceAll(got, ",", ""), 64)
			if err != nil || back != v {
				t.Fatalf("FormatNumber(%v) = %q reads back as %v, %v", v, got, back, err)
			}
		}
		if got := FormatAxis(client.UnitCount, ChartMean, v); got == "" || strings.Contains(got, "NaN") || strings.Contains(got, "Inf") {
			t.Fatalf("FormatAxis(%v) = %q", v, got)
		}
	})
}

func TestQueryKeyAndIDs(t *testing.T) {
	q := client.AnalyticsQuery{Metric: client.MetricConversationDuration, OperatorIDs: []int64{3, 1}, From: day("2026-10-01"), To: day("2026-10-31")}
	q2 := q
	q2.OperatorIDs = []int64{1, 3, 3}
	if QueryKey(q, 0) != QueryKey(q2, 0) {
		t.Error("the key depends on the order of ids")
	}
	if QueryKey(q, 0) == QueryKey(q, 7) {
		t.Error("the key ignores the organization context")
	}
	q2.OperatorMode = client.OperatorModeHuman
	if QueryKey(q, 0) == QueryKey(q2, 0) {
		t.Error("the key ignores the operator mode")
	}
	ids, err := ParseIDs(" 12, 15 20 ")
	if err != nil || len(ids) != 3 || FormatIDs(ids) != "12 15 20" {
		t.Errorf("ParseIDs = %v %v", ids, err)
	}
	if _, err := ParseIDs("12 x"); err == nil {
		t.Error("ParseIDs accepted x")
	}
}

// A list pasted as a column (line breaks) reads as its ids; white space alone is no id at
// all (it used to give the id 0).
func TestParseIDsWhiteSpace(t *testing.T) {
	for in, want := range map[string][]int64{"12\n15\r\n20": {12, 15, 20}, "7+8\u00a09": {7, 8, 9}, "\n": nil, " \v ": nil} {
		ids, err := ParseIDs(in)
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("ParseIDs(%q) = %v, %v; want %v", in, ids, err, want)
		}
	}
}

func TestChartDefaults(t *testing.T) {
	dur, _ := client.LookupMetric(string(client.MetricOperatorResponseTimeFirst))
	occ, _ := client.LookupMetric(string(client.MetricConversationFirstMessage))
	slot, _ := client.LookupMetric(string(client.MetricOperatorSlotUsage))
	goal, _ := client.LookupMetric(string(client.MetricConversationGoalReached))
	if DefaultChart(dur) != ChartMedian || DefaultChart(occ) != ChartCount || DefaultChart(slot) != ChartMean || DefaultChart(goal) != ChartCount {
		t.Error("default chart kinds")
	}
	if NextChart(ChartCount, occ) != ChartCount || NextChart(ChartMedian, dur) != ChartCount || NextChart(ChartCount, dur) != ChartMean {
		t.Error("chart cycle")
	}
}

func TestUnitShortFitsFifteenColumns(t *testing.T) {
	for _, info := range client.Metrics {
		long, short := unitText(info), unitShort(info)
		if ansi.StringWidth(short) > 15 || short == "" {
			t.Errorf("%s: short unit %q", info.Metric, short)
		}
		if len(long) <= 15 && short != long {
			t.Errorf("%s: %q shortened to %q though it fits", info.Metric, long, short)
		}
	}
}
