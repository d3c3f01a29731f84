package analytics

// This file holds the screen's pure computations: periods and presets, request planning,
// bucketing, summaries, breakdowns, splits and value formatting. It has no Bubble Tea
// imports so it is easy to test.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/when"
)

// HourlyLimit is the longest period charted per hour; longer periods are charted per day.
const HourlyLimit = 48 * time.Hour

// Granularity is the width of a chart bucket.
type Granularity int

// Granularities.
const (
	Hourly Granularity = iota
	Daily
)

func (g Granularity) String() string {
	if g == Hourly {
		return "hour"
	}
	return "day"
}

// Floor is the start of the bucket holding t (UTC).
func (g Granularity) Floor(t time.Time) time.Time {
	t = t.UTC()
	if g == Hourly {
		return t.Truncate(time.Hour)
	}
	return dayOf(t)
}

// Next is the start of the bucket after the one starting at t. Days are calendar days (UTC
// has no daylight saving, so a day is always 24 hours, but AddDate keeps month ends right).
func (g Granularity) Next(t time.Time) time.Time {
	if g == Hourly {
		return t.Add(time.Hour)
	}
	return t.AddDate(0, 0, 1)
}

func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Period is a resolved date range. Without WithTime, From and To are UTC days (midnight)
// and both are included; with WithTime they are instants and both are included.
type Period struct {
	From, To time.Time
	WithTime bool
}

// End is the exclusive end of the period.
func (p Period) End() time.Time {
	if p.WithTime {
		return p.To.UTC().Add(time.Second)
	}
	return dayOf(p.To).AddDate(0, 0, 1)
}

// Start is the inclusive start of the period.
func (p Period) Start() time.Time {
	if p.WithTime {
		return p.From.UTC()
	}
	return dayOf(p.From)
}

// Equal reports whether two periods are the same.
func (p Period) Equal(q Period) bool {
	return p.WithTime == q.WithTime && p.From.Equal(q.From) && p.To.Equal(q.To)
}

// Length is how long the period lasts.
func (p Period) Length() time.Duration { return p.End().Sub(p.Start()) }

// Days is the number of calendar days the period touches, both ends included (the API's
// way of counting its 93-day limit).
func (p Period) Days() int {
	last := dayOf(p.End().Add(-time.Second))
	return int(last.Sub(dayOf(p.Start())).Hours()/24) + 1
}

// Granularity is per hour for periods of at most two days, per day otherwise.
func (p Period) Granularity() Granularity {
	if p.Length() <= HourlyLimit {
		return Hourly
	}
	return Daily
}

// Apply sets the period of q.
func (p Period) Apply(q client.AnalyticsQuery) client.AnalyticsQuery {
	q.From, q.To, q.WithTime = p.From.UTC(), p.To.UTC(), p.WithTime
	if !p.WithTime {
		q.From, q.To = dayOf(p.From), dayOf(p.To)
	}
	return q
}

// String shows the period in UTC: "2026-10-01 → 2026-10-31" or with times.
func (p Period) String() string {
	if p.WithTime {
		return p.From.UTC().Format("2006-01-02 15:04:05") + " → " + p.To.UTC().Format("2006-01-02 15:04:05")
	}
	if dayOf(p.From).Equal(dayOf(p.To)) {
		return dayOf(p.From).Format(time.DateOnly)
	}
	return dayOf(p.From).Format(time.DateOnly) + " → " + dayOf(p.To).Format(time.DateOnly)
}

// Preset is a named date range relative to today (UTC).
type Preset int

// Presets, in menu order; PresetCustom uses typed dates.
const (
	PresetToday Preset = iota
	PresetYesterday
	PresetLast7
	PresetLast30
	PresetLastMonth
	PresetLast90
	PresetCustom
)

// Presets lists the relative presets in menu order (custom is added by the menu).
var Presets = []Preset{PresetToday, PresetYesterday, PresetLast7, PresetLast30, PresetLastMonth, PresetLast90}

// Label names a preset.
func (p Preset) Label() string {
	switch p {
	case PresetToday:
		return "Today"
	case PresetYesterday:
		return "Yesterday"
	case PresetLast7:
		return "Last 7 days"
	case PresetLast30:
		return "Last 30 days"
	case PresetLastMonth:
		return "Last month"
	case PresetLast90:
		return "Last 90 days"
	}
	return "Custom"
}

// Period resolves a relative preset at now. "Last N days" ends today; "last month" is the
// previous calendar month.
func (p Preset) Period(now time.Time) Period {
	today := dayOf(now)
	switch p {
	case PresetYesterday:
		y := today.AddDate(0, 0, -1)
		return Period{From: y, To: y}
	case PresetLast7:
		return Period{From: today.AddDate(0, 0, -6), To: today}
	case PresetLast30:
		return Period{From: today.AddDate(0, 0, -29), To: today}
	case PresetLastMonth:
		first := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
		return Period{From: first.AddDate(0, -1, 0), To: first.AddDate(0, 0, -1)}
	case PresetLast90:
		return Period{From: today.AddDate(0, 0, -89), To: today}
	}
	return Period{From: today, To: today}
}

// Range is the user's choice of dates: a preset, or a custom period.
type Range struct {
	Preset Preset
	Custom Period
}

// Period resolves the range at now.
func (r Range) Period(now time.Time) Period {
	if r.Preset == PresetCustom {
		return r.Custom
	}
	return r.Preset.Period(now)
}

// The custom range form's fields, by their titles.
const (
	fromTitle = "From (UTC)"
	toTitle   = "To (UTC, included)"
)

// ParseCustom reads the custom range form: each end is a date ("2026-10-01"), a date and
// time ("2026-10-01 14:30", ISO 8601), "today", "yesterday" or an age ("7d", "2w", "6h"),
// read by when.ParseSpan. When either end carries a time of day the period uses times (a
// date alone then means its first second as the start and its last second as the end);
// otherwise it is whole days.
func ParseCustom(from, to string, now time.Time) (Period, error) {
	sp, err := when.ParseSpan(fromTitle, from, toTitle, to, now)
	if err != nil {
		return Period{}, err
	}
	return Period{From: sp.From, To: sp.To, WithTime: sp.WithTime}, nil
}

// ErrFutureRange says that a period has not started yet.
var ErrFutureRange = errors.New("this range is in the future: no data yet")

// FutureRange returns ErrFutureRange when all of p is after now.
func FutureRange(p Period, now time.Time) error {
	if p.Start().After(now) {
		return ErrFutureRange
	}
	return nil
}

// FormatWhen shows one end of a period for a form.
func FormatWhen(t time.Time, withTime bool) string {
	if withTime {
		return t.UTC().Format("2006-01-02 15:04:05")
	}
	return t.UTC().Format(time.DateOnly)
}

// Plan is the windows (one request each) the query will cost: periods of at most 93 days.
func Plan(q client.AnalyticsQuery) []client.AnalyticsWindow { return q.Windows() }

// CostText is "1 request" or "3 requests".
func CostText(n int) string { return strconv.Itoa(n) + " " + layout.Plural(n, "request", "requests") }

// QueryKey identifies a query's results: metric, organization context, period, filters and
// operator mode. Two queries with the same key return the same data points.
func QueryKey(q client.AnalyticsQuery, contextOrg int64) string {
	ids := func(v []int64) string {
		s := slices.Clone(v)
		slices.Sort(s)
		s = slices.Compact(s)
		parts := make([]string, len(s))
		for i, id := range s {
			parts[i] = strconv.FormatInt(id, 10)
		}
		return strings.Join(parts, ",")
	}
	from, to := q.From.UTC().Format(time.RFC3339), q.To.UTC().Format(time.RFC3339)
	return strings.Join([]string{string(q.Metric), strconv.FormatInt(contextOrg, 10), from, to,
		strconv.FormatBool(q.WithTime), ids(q.OrganizationIDs), ids(q.WidgetIDs), ids(q.OperatorIDs),
		ids(q.OperatorGroupIDs), string(q.OperatorMode)}, "|")
}

// Bucket is one chart column: the data points whose time falls in [Start, next Start).
type Bucket struct {
	Start  time.Time
	Count  int
	Values []float64 // the non-null values, in time order
}

// Buckets spreads pts over every bucket of the period (empty buckets included, in order).
// Points outside the period are left out.
func Buckets(pts []client.DataPoint, p Period) []Bucket {
	g := p.Granularity()
	start, end := g.Floor(p.Start()), p.End()
	var out []Bucket
	for t := start; t.Before(end); t = g.Next(t) {
		out = append(out, Bucket{Start: t})
		if len(out) > 100000 {
			break // a guard against absurd periods; hourly is at most 48 buckets
		}
	}
	if len(out) == 0 {
		return nil
	}
	for i := range pts {
		t := pts[i].Time.UTC()
		if t.Before(start) || !t.Before(end) {
			continue
		}
		var idx int
		if g == Hourly {
			idx = int(t.Sub(start) / time.Hour)
		} else {
			idx = int(dayOf(t).Sub(start).Hours() / 24)
		}
		if idx < 0 || idx >= len(out) {
			continue
		}
		out[idx].Count++
		if v := pts[i].Value; v != nil {
			out[idx].Values = append(out[idx].Values, *v)
		}
	}
	return out
}

// Summary describes a set of data points: how many there are, and statistics of their
// non-null values.
type Summary struct {
	Count                            int // data points
	N                                int // data points with a value
	Sum, Mean, Median, P90, Min, Max float64
}

// Summarize computes the summary of pts.
func Summarize(pts []client.DataPoint) Summary {
	vals := make([]float64, 0, len(pts))
	for i := range pts {
		if v := pts[i].Value; v != nil && !math.IsNaN(*v) {
			vals = append(vals, *v)
		}
	}
	return SummarizeValues(len(pts), vals)
}

// SummarizeValues computes the statistics of vals (count is the number of data points,
// vals their non-null values). Median and p90 interpolate linearly between the closest
// ranks (the "R-7" definition spreadsheets use).
func SummarizeValues(count int, vals []float64) Summary {
	s := Summary{Count: count, N: len(vals)}
	if len(vals) == 0 {
		return s
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	for _, v := range sorted {
		s.Sum += v
	}
	s.Mean = s.Sum / float64(len(sorted))
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	s.Median = Percentile(sorted, 0.5)
	s.P90 = Percentile(sorted, 0.9)
	return s
}

// Percentile is the q-quantile (0..1) of sorted values, interpolating linearly between the
// closest ranks. It is 0 for no values.
func Percentile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	q = min(1, max(0, q))
	pos := q * float64(n-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, n-1)
	frac := pos - float64(lo)
	return sorted[lo] + (sorted[hi]-sorted[lo])*frac
}

// Slice is one row of a breakdown.
type Slice struct {
	Label string
	Count int
	N     int     // points with a value
	Sum   float64 // of their values
}

// Mean is the mean value of the slice (0 without values).
func (s Slice) Mean() float64 {
	if s.N == 0 {
		return 0
	}
	return s.Sum / float64(s.N)
}

// NoValueStr labels data points whose value_str is null or empty.
const NoValueStr = "(none)"

// NoOperator labels data points without an operator.
const NoOperator = "(no operator)"

// ByValueStr counts the points per value_str (strs[i] is point i's sanitized value_str, ""
// for null), largest first, ties by label with "(none)" last.
func ByValueStr(pts []client.DataPoint, strs []string) []Slice {
	idx := map[string]int{}
	var out []Slice
	for i := range pts {
		label := NoValueStr
		if i < len(strs) && strs[i] != "" {
			label = strs[i]
		}
		j, ok := idx[label]
		if !ok {
			j = len(out)
			idx[label] = j
			out = append(out, Slice{Label: label})
		}
		out[j].Count++
		if v := pts[i].Value; v != nil {
			out[j].N++
			out[j].Sum += *v
		}
	}
	sortSlices(out)
	return out
}

// OperatorSlice is one operator's row of the breakdown by operator.
type OperatorSlice struct {
	Slice
	ID    int64
	HasID bool
	Org   int64 // organization_id of the operator's first point
}

// ByOperator counts the points per operator_id, largest first ("(no operator)" last among
// ties). ok is false when no point
// carries an operator (the metric has none, like um_missed_opportunity).
func ByOperator(pts []client.DataPoint) (out []OperatorSlice, ok bool) {
	idx := map[int64]int{}
	none := -1
	for i := range pts {
		p := &pts[i]
		var j int
		if p.OperatorID == nil {
			if none < 0 {
				none = len(out)
				out = append(out, OperatorSlice{Slice: Slice{Label: NoOperator}})
			}
			j = none
		} else {
			ok = true
			var seen bool
			if j, seen = idx[*p.OperatorID]; !seen {
				j = len(out)
				idx[*p.OperatorID] = j
				out = append(out, OperatorSlice{ID: *p.OperatorID, HasID: true, Org: p.OrganizationID,
					Slice: Slice{Label: "#" + strconv.FormatInt(*p.OperatorID, 10)}})
			}
		}
		out[j].Count++
		if v := p.Value; v != nil {
			out[j].N++
			out[j].Sum += *v
		}
	}
	if !ok {
		return nil, false
	}
	slices.SortStableFunc(out, func(a, b OperatorSlice) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), boolOrder(b.HasID, a.HasID), cmp.Compare(a.ID, b.ID))
	})
	return out, true
}

func sortSlices(s []Slice) {
	slices.SortStableFunc(s, func(a, b Slice) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), boolOrder(a.Label == NoValueStr, b.Label == NoValueStr), cmp.Compare(a.Label, b.Label))
	})
}

// boolOrder sorts false before true.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// SplitMode divides the results by who took part.
type SplitMode int

// Split modes, in the order `i` cycles through them.
const (
	SplitNone        SplitMode = iota
	SplitOperator              // is_chatbot_metric: the operator at the time was a human or a bot
	SplitInteraction           // chatbot_interaction/human_interaction: human only, bot only, both
)

func (s SplitMode) String() string {
	switch s {
	case SplitOperator:
		return "human/bot operator"
	case SplitInteraction:
		return "human only/bot only/both"
	}
	return "none"
}

// Next is the following split mode.
func (s SplitMode) Next() SplitMode { return (s + 1) % 3 }

// Group is one part of split results.
type Group struct {
	Name   string
	Short  string // for narrow column headers
	Points []client.DataPoint
}

// Group names.
const (
	GroupAll           = "all"
	GroupHumanOperator = "human operator"
	GroupBotOperator   = "bot operator"
	GroupHumanOnly     = "human only"
	GroupBotOnly       = "bot only"
	GroupBoth          = "both"
	GroupNoInteraction = "no flags"
)

// Interaction classifies a point by chatbot_interaction and human_interaction: "human
// only", "bot only", "both", or "no flags" when neither is true (not tracked for a
// conversation event).
func Interaction(p *client.DataPoint) string {
	bot := p.ChatbotInteraction != nil && *p.ChatbotInteraction
	human := p.HumanInteraction != nil && *p.HumanInteraction
	switch {
	case bot && human:
		return GroupBoth
	case human:
		return GroupHumanOnly
	case bot:
		return GroupBotOnly
	}
	return GroupNoInteraction
}

// Split divides pts by mode. SplitNone gives one group ("all"). The other modes always
// give their main groups (possibly empty) in a fixed order; "no flags" appears only when
// some point has neither interaction flag.
func Split(pts []client.DataPoint, mode SplitMode) []Group {
	switch mode {
	case SplitOperator:
		g := []Group{{Name: GroupHumanOperator, Short: "human"}, {Name: GroupBotOperator, Short: "bot"}}
		for _, p := range pts {
			i := 0
			if p.IsChatbotMetric {
				i = 1
			}
			g[i].Points = append(g[i].Points, p)
		}
		return g
	case SplitInteraction:
		g := []Group{{Name: GroupHumanOnly, Short: "human"}, {Name: GroupBotOnly, Short: "bot"},
			{Name: GroupBoth, Short: "both"}, {Name: GroupNoInteraction, Short: "no flags"}}
		for i := range pts {
			var j int
			switch Interaction(&pts[i]) {
			case GroupHumanOnly:
				j = 0
			case GroupBotOnly:
				j = 1
			case GroupBoth:
				j = 2
			default:
				j = 3
			}
			g[j].Points = append(g[j].Points, pts[i])
		}
		if len(g[3].Points) == 0 {
			g = g[:3]
		}
		return g
	}
	return []Group{{Name: GroupAll, Short: GroupAll, Points: pts}}
}

// ChartKind is what the chart plots per bucket.
type ChartKind int

// Chart kinds, in the order `c` cycles through them.
const (
	ChartCount ChartKind = iota
	ChartMean
	ChartMedian
)

func (c ChartKind) String() string {
	switch c {
	case ChartMean:
		return "mean"
	case ChartMedian:
		return "median"
	}
	return "count"
}

// HasQuantity reports whether a metric's value is a quantity worth averaging (a duration,
// a percentage, a rating, or a count such as messages per session), as opposed to no
// value, a constant 1 per occurrence, or an identifier.
func HasQuantity(info client.MetricInfo) bool {
	switch info.Unit {
	case client.UnitSeconds, client.UnitPercent, client.UnitRating:
		return true
	case client.UnitCount:
		return !strings.HasPrefix(info.Value, "1 per")
	}
	return false
}

// DefaultChart is the chart a metric opens with: the median for durations (skewed, so the
// median tells more than the mean), the mean for other quantities, else the count.
func DefaultChart(info client.MetricInfo) ChartKind {
	switch {
	case info.Unit == client.UnitSeconds:
		return ChartMedian
	case HasQuantity(info):
		return ChartMean
	}
	return ChartCount
}

// NextChart is the chart kind after c for the metric (count only when it has no quantity).
func NextChart(c ChartKind, info client.MetricInfo) ChartKind {
	if !HasQuantity(info) {
		return ChartCount
	}
	return (c + 1) % 3
}

// BucketValue is what the chart plots for b; ok is false when the bucket has nothing to
// plot (no values for a mean or median).
func BucketValue(b Bucket, kind ChartKind) (v float64, ok bool) {
	switch kind {
	case ChartMean, ChartMedian:
		if len(b.Values) == 0 {
			return 0, false
		}
		s := SummarizeValues(b.Count, b.Values)
		if kind == ChartMean {
			return s.Mean, true
		}
		return s.Median, true
	}
	return float64(b.Count), true
}

// exact is the magnitude from which a float64 no longer holds every whole number (2^53):
// a value read from JSON that large may not be the one sent (9223372036854775807 reads as
// 9223372036854775808), so it is shown rounded, never as if exact.
const exact = 1 << 53

// FormatDuration shows seconds as "12s", "3m05s" or "1h02m" (hours keep counting past a
// day: "26h05m"); "—" for no number and for more seconds than a float64 counts exactly
// (2^53, some 285 million years), which no duration can be.
func FormatDuration(sec float64) string {
	if math.IsNaN(sec) || math.IsInf(sec, 0) || math.Abs(sec) >= exact {
		return "—"
	}
	sign := ""
	if sec < 0 {
		sign, sec = "-", -sec
	}
	s := int64(math.Round(sec))
	switch {
	case s < 60:
		return fmt.Sprintf("%s%ds", sign, s)
	case s < 3600:
		return fmt.Sprintf("%s%dm%02ds", sign, s/60, s%60)
	}
	m := (s + 30) / 60 // round to the minute
	return fmt.Sprintf("%s%dh%02dm", sign, m/60, m%60)
}

// FormatNumber shows a number with at most two decimals and thousands separators for
// whole numbers; from 2^53 on (where a float64 no longer holds every whole number) rounded
// to three digits, "9.22e+18", and "—" for no number.
func FormatNumber(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case math.Abs(v) >= exact:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case v == math.Trunc(v):
		return layout.Thousands(int64(v)) // |v| < 2^53: the conversion is exact
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// FormatID shows a value that is an id (a goal, a topic, a survey option) as the API sends
// it: no thousands separators, no rounding.
func FormatID(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// FormatValue shows a value in the metric's unit: seconds as durations, percentages with
// "%", everything else as a number.
func FormatValue(u client.Unit, v float64) string {
	switch u {
	case client.UnitSeconds:
		return FormatDuration(v)
	case client.UnitPercent:
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return "—"
		case math.Abs(v) >= exact:
			return FormatNumber(v) + "%" // "9.22e+18%"
		}
		s := strconv.FormatFloat(v, 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + "%"
	}
	return FormatNumber(v)
}

// FormatAxis is a short ASCII label for a chart's value axis.
func FormatAxis(u client.Unit, kind ChartKind, v float64) string {
	if kind == ChartCount {
		return shortNumber(math.Round(v)) // counts are whole numbers
	}
	switch u {
	case client.UnitSeconds:
		return FormatDuration(v)
	case client.UnitPercent:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + "%"
	}
	return shortNumber(v)
}

func shortNumber(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case a >= 1e12:
		return strconv.FormatFloat(v, 'g', 2, 64)
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', 0, 64) + "k"
	case a >= 10 || v == math.Trunc(v):
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// ParseIDs reads ids separated by commas, white space (a pasted column too) or "+" (as in
// a copied query string); "" is none. parley analytics export reads its id flags the same way.
func ParseIDs(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '+' || unicode.IsSpace(r) }) {
		id, err := forms.ParseID(f)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

// FormatIDs joins ids with spaces.
func FormatIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, " ")
}
