package analytics

import (
	"math"
	"strings"
	"time"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
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

// drawChart renders the groups' buckets (of granularity g) as time-series line charts of
// w×h cells: one chart, or with a split one small chart per group, stacked, on a shared
// value axis so they compare. It returns exactly w×h cells.
func drawChart(st *theme.Styles, groups []groupView, g Granularity, kind ChartKind, unit client.Unit, w, h int) string {
	if len(groups) == 0 || w < 16 || h < 3 {
		return common.Block(nil, w, h)
	}
	ymax := 0.0
	for _, gr := range groups {
		for _, b := range gr.buckets {
			if v, ok := BucketValue(b, kind); ok {
				ymax = math.Max(ymax, v)
			}
		}
	}
	ymax = niceMax(ymax, kind)
	if len(groups) == 1 {
		return chartBlock(st, groups[0].buckets, g, 0, kind, unit, ymax, w, h)
	}
	// A chart per group needs four lines (caption, two of plot, the axis). As many as fit
	// are drawn, all of one height so that their value axes are the same (the lines left
	// over stay blank below them); a last line says how many more a taller window would
	// show.
	const minGroupLines = 4
	shown, room := len(groups), h
	if shown*minGroupLines > h {
		room = h - 1 // the line about the rest
		shown = room / minGroupLines
	}
	var lines []string
	for i, gr := range groups[:shown] {
		ch := room / shown
		caption := seriesStyle(st, i).Render("■ "+gr.name) + st.Muted.Render(" · "+plural(gr.summary.Count, "data point"))
		lines = append(lines, caption)
		lines = append(lines, strings.Split(chartBlock(st, gr.buckets, g, i, kind, unit, ymax, w, ch-1), "\n")...)
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

// chartBlock draws one series: a line through the buckets' values at their start times,
// on a value axis from 0 to ymax. A bucket without a value (a mean or median of an hour or
// day without data points) is left out and the line breaks there: it never joins the
// buckets around a gap. Counts have a value in every bucket (0 when empty). The time axis
// is labelled on whole hours or days (see xLabels).
func chartBlock(st *theme.Styles, buckets []Bucket, g Granularity, series int, kind ChartKind, unit client.Unit, ymax float64, w, h int) string {
	vals := make([]float64, len(buckets))
	has := make([]bool, len(buckets))
	times := make([]time.Time, len(buckets))
	any := false
	for i, b := range buckets {
		vals[i], has[i] = BucketValue(b, kind)
		times[i] = b.Start
		any = any || has[i]
	}
	if !any {
		return common.Block([]string{"", "  " + st.Muted.Render("No values to chart.")}, w, h)
	}
	first, last := times[0], times[len(times)-1]
	if !last.After(first) { // one bucket: a flat line across it
		last = g.Next(first)
		times, vals, has = append(times, last), append(vals, vals[0]), append(has, has[0])
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
	var labels map[int]string
	xfmt := func(i int, _ float64) string { return labels[i] }
	ystep := max(1, (h-2)/4)
	style := seriesStyle(st, series)
	c := timeserieslinechart.New(w, h,
		timeserieslinechart.WithTimeRange(first, last),
		timeserieslinechart.WithYRange(0, ymax),
		timeserieslinechart.WithXYSteps(1, ystep), // every column may hold a label: xfmt picks
		timeserieslinechart.WithXLabelFormatter(xfmt),
		timeserieslinechart.WithYLabelFormatter(yfmt),
		timeserieslinechart.WithAxesStyles(st.Subtle, st.Muted),
	)
	gw := c.GraphWidth()
	labels = xLabels(first, last, g, gw)
	c.Draw() // nothing pushed: the axes and their labels
	origin := c.Origin()
	ys := float64(origin.Y) / ymax
	point := func(i int) canvas.Point {
		return canvas.Point{X: xColumn(times[i], first, last, gw), Y: int(math.Round(vals[i] * ys))}
	}
	for i := 0; i < len(times); {
		if !has[i] {
			i++
			continue
		}
		j := i // the run of buckets with a value from i to j
		for j+1 < len(times) && has[j+1] {
			j++
		}
		drawRun(&c.Canvas, origin, point, i, j, style)
		i = j + 1
	}
	return common.Block(strings.Split(c.View(), "\n"), w, h)
}

// drawRun draws the line through the points i…j (graph coordinates from point) on cv, a
// column at a time like ntcharts' own line charts: the height of a column is the mean of
// the line's heights in it.
func drawRun(cv *canvas.Model, origin canvas.Point, point func(int) canvas.Point, i, j int, style lipgloss.Style) {
	x0, x1 := point(i).X, point(j).X
	sum := make([]float64, x1-x0+1)
	n := make([]int, len(sum))
	add := func(p canvas.Point) {
		if k := p.X - x0; k >= 0 && k < len(sum) {
			sum[k] += float64(p.Y)
			n[k]++
		}
	}
	add(point(i))
	for k := i; k < j; k++ {
		for _, p := range graph.GetLinePoints(point(k), point(k+1)) {
			add(p)
		}
	}
	seq := make([]int, 0, len(sum))
	for k := range sum {
		y := 0
		if n[k] > 0 {
			y = int(math.Round(sum[k] / float64(n[k])))
		}
		seq = append(seq, min(origin.Y, max(0, origin.Y-y)))
	}
	startX := origin.X + x0
	graph.DrawLineSequence(cv, startX == origin.X, startX, seq, runes.ThinLineStyle, style)
}

// xColumn is the graph column of t on a time axis from first to last gw columns wide.
func xColumn(t, first, last time.Time, gw int) int {
	span := last.Sub(first).Seconds()
	if span <= 0 {
		return 0
	}
	return int(math.Round(t.Sub(first).Seconds() / span * float64(gw)))
}

// labelCells is the least distance between the starts of two time labels: five cells of
// text and two of space.
const labelCells = 7

// xLabels are the time axis labels by graph column, on a time axis from first to last gw
// columns wide: whole hours (midnight shows its date, "11-25") or whole days, every
// step-th one, the step the smallest of 1, 2, 3, 4, 6, 12 or 24 hours or of 1, 2, 3, 7,
// 14, 28, … days that keeps labels labelCells apart. Each label starts in the column of
// its hour or day, where that bucket's value is drawn.
func xLabels(first, last time.Time, g Granularity, gw int) map[int]string {
	labels := map[int]string{}
	span := last.Sub(first)
	if span <= 0 || gw <= 0 {
		return labels
	}
	unit, steps := time.Hour, []int{1, 2, 3, 4, 6, 12, 24}
	if g == Daily {
		unit, steps = 24*time.Hour, []int{1, 2, 3, 7, 14, 28, 56, 91, 182, 364}
	}
	perUnit := float64(gw) * float64(unit) / float64(span) // columns per hour or day
	step := steps[len(steps)-1]
	for _, s := range steps {
		if float64(s)*perUnit >= labelCells {
			step = s
			break
		}
	}
	t := g.Floor(first)
	if t.Before(first) {
		t = g.Next(t)
	}
	for k := 0; !t.After(last); t, k = g.Next(t), k+1 {
		var text string
		switch {
		case g == Daily && k%step == 0:
			text = t.Format("01-02")
		case g == Hourly && t.Hour()%step == 0 && t.Hour() == 0:
			text = t.Format("01-02")
		case g == Hourly && t.Hour()%step == 0:
			text = t.Format("15:04")
		default:
			continue
		}
		labels[xColumn(t, first, last, gw)] = text
	}
	return labels
}
