package analytics

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/screens/analytics/plot/plottest"
)

// plotted is one chart of the chart pane read back, with the group it draws.
type plotted struct {
	group groupView
	plottest.Reading
}

// readCharts reads the chart pane's charts back: one, or with a split one per group shown
// (each under its caption line, "■ name · …"). A group without values shows a line
// saying so instead of a chart.
func readCharts(t *testing.T, m *Model) []plotted {
	t.Helper()
	lines := chartLines(t, m)
	text := strings.Join(lines, "\n")
	var panes [][]string // the chart lines of each group shown
	if m.split == SplitNone {
		panes = [][]string{lines}
	} else {
		for i, l := range lines {
			switch {
			case strings.HasPrefix(l, "■ "):
				if want := "■ " + m.d.groups[len(panes)].name + " · "; !strings.HasPrefix(l, want) {
					t.Fatalf("caption %d is %q, want %q…:\n%s", len(panes), l, want, text)
				}
				panes = append(panes, nil)
			case len(panes) > 0 && strings.HasPrefix(l, "+ "):
				lines = lines[:i]
			case len(panes) > 0:
				panes[len(panes)-1] = append(panes[len(panes)-1], l)
			}
		}
	}
	var out []plotted
	for i, p := range panes {
		g := m.d.groups[i]
		if !hasValues(g.buckets, m.chart) {
			if !strings.Contains(strings.Join(p, "\n"), "No values to chart.") {
				t.Fatalf("%s has no values but no line says so:\n%s", g.name, text)
			}
			continue
		}
		// Below a chart of a split, the lines its height left over are blank.
		for len(p) > 3 && strings.TrimSpace(p[len(p)-1]) == "" {
			p = p[:len(p)-1]
		}
		r, err := plottest.Read(p)
		if err != nil {
			t.Fatalf("%s: %v:\n%s", g.name, err, text)
		}
		out = append(out, plotted{group: g, Reading: r})
	}
	return out
}

func hasValues(bs []Bucket, kind ChartKind) bool {
	for _, b := range bs {
		if _, ok := BucketValue(b, kind); ok {
			return true
		}
	}
	return false
}

// bucketColumns are the columns of bars bucket i of n takes on a time axis w columns
// wide: from the one its start falls in to the one before where the next starts (at
// least its first).
func bucketColumns(i, n, w int) (int, int) {
	c0, c1 := i*w/n, (i+1)*w/n
	return c0, max(c0+1, c1)
}

// checkPlotted checks that the chart pane shows the data: in every chart, each column
// stands for the value of its buckets (the mean of their values where several share a
// column), within the range its height stands for on the value axis from 0 to ymax; and
// a column where none of its buckets has a value (a mean or median of hours or days
// without data points) is empty. It returns the charts read.
func checkPlotted(t *testing.T, m *Model) []plotted {
	t.Helper()
	ymax := 0.0
	for _, g := range m.d.groups {
		for _, b := range g.buckets {
			if v, ok := BucketValue(b, m.chart); ok {
				ymax = math.Max(ymax, v)
			}
		}
	}
	ymax = niceMax(ymax, m.chart)
	charts := readCharts(t, m)
	if len(charts) == 0 {
		t.Fatalf("no chart:\n%s", strings.Join(chartLines(t, m), "\n"))
	}
	for _, c := range charts {
		n := len(c.group.buckets)
		for x, h := range c.Heights {
			sum, k := 0.0, 0
			var in []string
			for i, b := range c.group.buckets {
				if c0, c1 := bucketColumns(i, n, c.Width); x < c0 || x >= c1 {
					continue
				}
				v, ok := BucketValue(b, m.chart)
				in = append(in, fmt.Sprintf("%s=%v", b.Start.Format("01-02T15"), v))
				if ok {
					sum, k = sum+v, k+1
				}
			}
			if len(in) == 0 {
				t.Fatalf("%s: column %d has no bucket", c.group.name, x)
			}
			if k == 0 {
				if h != -1 {
					t.Errorf("%s: column %d (%v) has no value but a bar of %d eighths:\n%s", c.group.name, x, in, h, strings.Join(chartLines(t, m), "\n"))
				}
				continue
			}
			mean := sum / float64(k)
			if lo, hi := c.Range(h, ymax); h < 1 || mean < lo || mean > hi {
				t.Errorf("%s: column %d (%v): a bar of %d eighths (%.2f to %.2f) for %.2f:\n%s", c.group.name, x, in, h, lo, hi, mean, strings.Join(chartLines(t, m), "\n"))
			}
		}
	}
	return charts
}

// The chart shows the data of the screen's results at every size, for every kind and
// split: the golden test's results from the sandbox (a month per day), and synthetic
// results of two days per hour and of a year per day (more days than columns).
func TestChartPlotsTheBucketValues(t *testing.T) {
	sizes := [][2]int{{80, 24}, {120, 40}, {200, 50}, {99, 30}, {81, 19}}
	check := func(name string, m *Model) {
		t.Helper()
		for _, split := range []SplitMode{SplitNone, SplitOperator, SplitInteraction} {
			for _, kind := range []ChartKind{ChartCount, ChartMean, ChartMedian} {
				m.split, m.chart = split, kind
				m.derive()
				for _, sz := range sizes {
					m.SetSize(sz[0], sz[1])
					t.Run(fmt.Sprintf("%s/%s/%s/%dx%d", name, split, kind, sz[0], sz[1]), func(t *testing.T) { checkPlotted(t, m) })
				}
			}
		}
	}
	ctx, _ := sandboxCtx(t)
	h, tm := startHost(t, ctx, 120, 40)
	waitState(t, h, "the first query", loadedNotRunning)
	askTheQuestion(t, h, tm) // the steps of TestGolden
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := tm.FinalModel(t).(*host).s
	check("sandbox month", m)

	m = New(offlineCtx(t))
	m.Update(metricPickedMsg{metric: client.MetricConversationDuration})
	m.Update(rangePickedMsg{r: Range{Preset: PresetCustom, Custom: Period{From: day("2026-11-19"), To: day("2026-11-20")}}})
	m.SetSize(120, 40)
	loadSynthetic(t, m, hostilePoints())
	check("two days", m)

	m.Update(rangePickedMsg{r: Range{Preset: PresetCustom, Custom: Period{From: day("2025-11-21"), To: day("2026-11-20")}}})
	loadSynthetic(t, m, yearPoints())
	check("a year", m)
}

// yearPoints are data points over the year to fixedNow: a few a day, none on some days.
func yearPoints() []client.DataPoint {
	var pts []client.DataPoint
	for i := range 365 * 3 {
		if i%29 < 6 {
			continue
		}
		v := float64((i * 53) % 700)
		pts = append(pts, client.DataPoint{Time: client.Time{Time: fixedNow.AddDate(-1, 0, 0).Add(time.Duration(i) * 8 * time.Hour)},
			Value: &v, IsChatbotMetric: i%3 == 0, HumanInteraction: bp(i%2 == 0), ChatbotInteraction: bp(i%5 == 0)})
	}
	client.SortDataPoints(pts)
	return pts
}

// With colour, each row of a chart is a few runs, each coloured once (label, axis, bars;
// the blanks between bars join their run), never a colour per cell; without colour the
// chart is the same text with no escape codes at all.
func TestChartColoursRunsNotCells(t *testing.T) {
	colour, mono := theme.New(theme.Default(), true, false), theme.New(theme.Default(), true, true)
	p := Period{From: day("2026-08-23"), To: day("2026-11-20")}
	for _, split := range []SplitMode{SplitNone, SplitInteraction} {
		groups := benchGroups(p, split)
		c := drawChart(colour, groups, p.Granularity(), ChartMean, client.UnitSeconds, 200, 50)
		m := drawChart(mono, groups, p.Granularity(), ChartMean, client.UnitSeconds, 200, 50)
		if ansi.Strip(c) != m || strings.Contains(m, "\x1b") {
			t.Fatalf("split %s: the chart in colour and in mono differ:\n%s\n%s", split, ansi.Strip(c), m)
		}
		for i, l := range strings.Split(c, "\n") {
			// The caption of a split's chart is two runs; a row of a chart at most three.
			if n := strings.Count(l, "\x1b["); n > 6 {
				t.Errorf("split %s: line %d has %d escape codes: %q", split, i, n, l)
			}
		}
		if !strings.Contains(c, "\x1b[") {
			t.Errorf("split %s: no colour at all", split)
		}
	}
}
