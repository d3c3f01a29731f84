package analytics

import (
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
)

// benchGroups are the chart groups of a synthetic metric over p split by mode: a value
// every few hours, with days and hours left empty now and then so the means have gaps.
func benchGroups(p Period, mode SplitMode) []groupView {
	var pts []client.DataPoint
	for t, i := p.Start(), 0; t.Before(p.End()); t, i = t.Add(97*time.Minute), i+1 {
		if i%23 < 4 {
			continue // a stretch without data points
		}
		v := float64(30 + (i*37)%400)
		pts = append(pts, client.DataPoint{Time: client.Time{Time: t}, Value: &v, IsChatbotMetric: i%3 == 0,
			HumanInteraction: bp(i%2 == 0), ChatbotInteraction: bp(i%3 == 0)})
	}
	var out []groupView
	for _, g := range Split(pts, mode) {
		out = append(out, groupView{name: g.Name, short: g.Short, summary: Summarize(g.Points), buckets: Buckets(g.Points, p)})
	}
	return out
}

// BenchmarkChart draws the analytics chart at 200×50 with colour on:
//
//	go test -run '^$' -bench Chart -count 5 ./internal/views/screens/analytics/
func BenchmarkChart(b *testing.B) {
	st := theme.New(theme.Default(), true, false)
	cases := []struct {
		name  string
		p     Period
		split SplitMode
		kind  ChartKind
	}{
		{"90days-mean", Period{From: day("2026-08-23"), To: day("2026-11-20")}, SplitNone, ChartMean},
		{"year-count", Period{From: day("2025-11-21"), To: day("2026-11-20")}, SplitNone, ChartCount},
		{"2days-split-median", Period{From: day("2026-11-19"), To: day("2026-11-20")}, SplitInteraction, ChartMedian},
	}
	for _, c := range cases {
		groups := benchGroups(c.p, c.split)
		g := c.p.Granularity()
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_ = drawChart(st, groups, g, c.kind, client.UnitSeconds, 200, 50)
			}
		})
	}
}
