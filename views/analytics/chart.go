package analytics

import (
	"math"
	"strings"
	"time"

	"github.com/NimbleMarkets/ntcharts/canvas/runes"
	"github.com/NimbleMarkets/ntcharts/linechart/timeserieslinechart"
	"github.com/charmbracelet/lipgloss"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/views/common"
)

// seriesStyle colours the i-th series (Chart1, Chart2, then again); plain in mono.
func seriesStyle(st *theme.Styles, i int) lipgloss.Style {
	if st.Mono {
		return st.Base
	}
	if i%2 == 1 {
		return st.Base.Foreground(st.Palette.Chart2)
	}
	return st.Base.Foreground(st.Palette.Chart1)
}

// drawChart renders the groups' buckets as time-series line charts of w×h cells: one chart,
// or with a split one small chart per group, stacked, on a shared value axis so they
// compare. It returns exactly w×h cells.
func drawChart(st *theme.Styles, groups []groupView, kind ChartKind, unit client.Unit, w, h int) string {
	if len(groups) == 0 || w < 16 || h < 3 {
		return common.Block(nil, w, h)
	}
	ymax := 0.0
	for _, g := range groups {
		for _, b := range g.buckets {
			if v, ok := BucketValue(b, kind); ok {
				ymax = math.Max(ymax, v)
			}
		}
	}
	ymax = niceMax(ymax, kind)
	if len(groups) == 1 {
		return chartBlock(st, groups[0].buckets, 0, kind, unit, ymax, w, h)
	}
	// A chart per group needs four lines (caption, two of plot, the axis). As many as fit
	// are drawn; a last line says how many more a taller window would show.
	const minGroupLines = 4
	shown, room := len(groups), h
	if shown*minGroupLines > h {
		room = h - 1 // the line about the rest
		shown = room / minGroupLines
	}
	var lines []string
	for i, g := range groups[:shown] {
		ch := room / shown
		if i == shown-1 {
			ch = room - len(lines)
		}
		caption := seriesStyle(st, i).Render("■ "+g.name) + st.Muted.Render(" · "+plural(g.summary.Count, "data point"))
		lines = append(lines, caption)
		lines = append(lines, strings.Split(chartBlock(st, g.buckets, i, kind, unit, ymax, w, ch-1), "\n")...)
	}
	if rest := len(groups) - shown; rest > 0 {
		lines = append(lines, st.Muted.Render("+ "+plural(rest, "more group")+": a taller window shows them"))
	}
	return common.Block(lines, w, h)
}

// niceMax is the top of the value axis: a little above the largest value, never zero.
func niceMax(v float64, kind ChartKind) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	top := v * 1.1
	if kind == ChartCount {
		top = math.Ceil(top)
	}
	return top
}

// chartBlock draws one series.
func chartBlock(st *theme.Styles, buckets []Bucket, series int, kind ChartKind, unit client.Unit, ymax float64, w, h int) string {
	var pts []timeserieslinechart.TimePoint
	for _, b := range buckets {
		if v, ok := BucketValue(b, kind); ok {
			pts = append(pts, timeserieslinechart.TimePoint{Time: b.Start, Value: v})
		}
	}
	if len(pts) == 0 || len(buckets) == 0 {
		return common.Block([]string{"", "  " + st.Muted.Render("No values to chart.")}, w, h)
	}
	hourly := len(buckets) > 1 && buckets[1].Start.Sub(buckets[0].Start) == time.Hour
	first, last := buckets[0].Start, buckets[len(buckets)-1].Start
	if !last.After(first) {
		step := 24 * time.Hour
		if hourly {
			step = time.Hour
		}
		last = first.Add(step)
		if len(pts) == 1 {
			pts = append(pts, timeserieslinechart.TimePoint{Time: last, Value: pts[0].Value})
		}
	}
	xfmt := func(_ int, v float64) string {
		t := time.Unix(int64(v), 0).UTC()
		if hourly {
			return t.Format("15:04")
		}
		return t.Format("01-02")
	}
	// Labels of one width, so stacked charts line their axes up.
	lw := 0
	for _, v := range []float64{0, ymax / 4, ymax / 2, ymax * 3 / 4, ymax} {
		lw = max(lw, len(FormatAxis(unit, kind, v)))
	}
	yfmt := func(_ int, v float64) string {
		s := FormatAxis(unit, kind, v)
		return strings.Repeat(" ", max(0, lw-len(s))) + s
	}
	ystep := max(1, (h-2)/4)
	c := timeserieslinechart.New(w, h,
		timeserieslinechart.WithTimeRange(first, last),
		timeserieslinechart.WithYRange(0, ymax),
		timeserieslinechart.WithXYSteps(8, ystep),
		timeserieslinechart.WithXLabelFormatter(xfmt),
		timeserieslinechart.WithYLabelFormatter(yfmt),
		timeserieslinechart.WithAxesStyles(st.Subtle, st.Muted),
		timeserieslinechart.WithLineStyle(runes.ThinLineStyle),
		timeserieslinechart.WithStyle(seriesStyle(st, series)),
	)
	for _, p := range pts {
		c.Push(p)
	}
	c.Draw()
	return common.Block(strings.Split(c.View(), "\n"), w, h)
}
