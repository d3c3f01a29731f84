package analytics

import (
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/screens/analytics/plot"
)

// seriesStyle colours the i-th series (Chart1, Chart2, then again); plain in mono.
func seriesStyle(st *theme.Styles, i int) lipgloss.Style {
	if st.Mono || st.Plain {
		return st.Base
	}
	if i%2 == 1 {
		return st.Base.Foreground(st.Palette.Chart2.On(st.Dark))
	}
	return st.Base.Foreground(st.Palette.Chart1.On(st.Dark))
}

// drawChart renders the groups' buckets (of granularity g) as time-series bar charts of
// w×h cells: one chart, or with a split one small chart per group, stacked, on a shared
// value axis so they compare. It returns exactly w×h cells.
func drawChart(st *theme.Styles, groups []groupView, g Granularity, kind ChartKind, unit client.Unit, w, h int) string {
	if len(groups) == 0 || w < 16 || h < 3 {
		return layout.Block(nil, w, h)
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
	// A chart per group needs four lines (its caption, a row of bars, the time axis and its
	// labels). As many as fit
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
	return layout.Block(lines, w, h)
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

// chartBlock draws one series as a bar chart (see package plot) on a value axis from 0 to
// ymax: each bucket's value over the columns of its hour or day. A bucket without a value
// (a mean or median of an hour or day without data points) leaves its columns empty;
// counts have a value in every bucket (0 when empty). The time axis is labelled on whole
// hours or days (see xLabels).
func chartBlock(st *theme.Styles, buckets []Bucket, g Granularity, series int, kind ChartKind, unit client.Unit, ymax float64, w, h int) string {
	pb := make([]plot.Bucket, len(buckets))
	any := false
	for i, b := range buckets {
		v, ok := BucketValue(b, kind)
		pb[i] = plot.Bucket{Start: b.Start, Value: v, Present: ok}
		any = any || ok
	}
	if !any {
		return layout.Block([]string{"", "  " + st.Muted.Render("No values to chart.")}, w, h)
	}
	first, end := buckets[0].Start, g.Next(buckets[len(buckets)-1].Start)
	grid := plot.Draw(plot.Spec{
		Width: w, Height: h,
		Buckets: pb, End: end,
		Series:     series,
		YMax:       ymax,
		ValueLabel: func(v float64) string { return FormatAxis(unit, kind, v) },
		TimeLabels: func(gw int) []plot.TimeLabel { return xLabels(first, end, g, gw) },
	})
	return paintGrid(grid, [...]lipgloss.Style{plot.Axis: st.Subtle, plot.Label: st.Muted, plot.Value: seriesStyle(st, series)})
}

// paintGrid renders the grid's rows with one style per kind of cell. Each run of cells of
// one kind is styled once; blank cells join the run they are in (the styles only colour
// text, so a blank looks the same in any of them), so a row costs a few runs, never a
// style per cell.
func paintGrid(grid *plot.Grid, styles [plot.Value + 1]lipgloss.Style) string {
	// The styles only colour text: each is the same codes before its text and after it,
	// taken once from the style instead of measuring and rendering every run.
	var open, end [len(styles)]string
	for k, s := range styles {
		open[k], end[k], _ = strings.Cut(s.Render("x"), "x")
	}
	var b strings.Builder
	b.Grow(grid.Width * grid.Height * 4)
	for y := range grid.Height {
		if y > 0 {
			b.WriteByte('\n')
		}
		kind := plot.Blank
		for _, c := range grid.Row(y) {
			if c.Kind != plot.Blank && c.Kind != kind {
				b.WriteString(end[kind])
				kind = c.Kind
				b.WriteString(open[kind])
			}
			b.WriteRune(c.Rune)
		}
		b.WriteString(end[kind])
	}
	return b.String()
}

// labelCells is the least distance between the starts of two time labels: five cells of
// text and two of space.
const labelCells = 7

// xLabels are the time axis labels of buckets of granularity g from first to end, on an
// axis gw columns wide: whole hours (midnight shows its date, "11-25") or whole days,
// every step-th one, the step the smallest of 1, 2, 3, 4, 6, 12 or 24 hours or of 1, 2,
// 3, 7, 14, 28, … days that keeps labels labelCells apart. Each label starts in the column
// where its hour or day starts.
func xLabels(first, end time.Time, g Granularity, gw int) []plot.TimeLabel {
	span := end.Sub(first)
	if span <= 0 || gw <= 0 {
		return nil
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
	var labels []plot.TimeLabel
	for k := 0; t.Before(end); t, k = g.Next(t), k+1 {
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
		labels = append(labels, plot.TimeLabel{At: t, Text: text})
	}
	return labels
}
