// Package plot draws a time series of buckets as a bar chart on a grid of terminal cells.
// It knows nothing of terminals, styles or colours: every cell says what it belongs to (a
// series, an axis or a label), and the caller colours runs of cells as it likes.
//
// A chart of 26×7 cells, four days of values 10, 95, none and 58 on an axis up to 120:
//
//	120s┤
//	 96s┤     █████
//	 72s┤     █████     ▃▃▃▃▃▃
//	 48s┤     █████     ██████
//	 24s┤▃▃▃▃▃█████     ██████
//	  0s└┬─────────┬──────────
//	     10-01     10-03
//
// The value axis runs from 0 on the time axis line up to YMax at the top of the first row,
// each row an equal part of it, labelled every quarter of the rows with the value at the
// top edge of the row; a value is drawn as a bar from the axis up to it, rounded to an
// eighth of a cell (▁ to ▇ at its top). A bucket without a value leaves its columns empty; a bucket
// with one always shows at least ▁, also for 0, so a gap and a zero never look alike. The
// time axis runs from the first bucket's start to End, each bucket taking the columns of
// its time span; where buckets are narrower than a column, the column shows the mean of
// the values of the buckets that start in it.
package plot

import (
	"math"
	"math/bits"
	"time"
	"unicode/utf8"
)

// Bucket is one step of the series: the time it starts and its value, if it has one.
type Bucket struct {
	Start   time.Time
	Value   float64
	Present bool
}

// TimeLabel is a label of the time axis: Text starts in the column of At.
type TimeLabel struct {
	At   time.Time
	Text string
}

// Spec is what to draw.
type Spec struct {
	Width, Height int
	// Buckets in time order; End is the end of the last one.
	Buckets []Bucket
	End     time.Time
	// Series is stamped on the cells of the bars.
	Series int
	// YMax is the value at the top of the chart (values above it are drawn up to the top).
	YMax float64
	// ValueLabel formats a value of the value axis (0, YMax and values between).
	ValueLabel func(v float64) string
	// TimeLabels are the labels of a time axis width columns wide. A label that would
	// overlap the one before it or run past the chart's right edge is left out.
	TimeLabels func(width int) []TimeLabel
}

// Kind is what a cell belongs to.
type Kind uint8

// Kinds of cells.
const (
	Blank Kind = iota // nothing drawn: a space
	Axis              // the value and time axes and their ticks
	Label             // a value or time label
	Value             // a bar of the series
)

// Cell is one cell of the grid.
type Cell struct {
	Rune   rune
	Kind   Kind
	Series int // for Value cells
}

// Grid is the drawn chart: Height rows of Width cells.
type Grid struct {
	Width, Height int
	cells         []Cell
}

// Row is the y-th row (0 is the top).
func (g *Grid) Row(y int) []Cell { return g.cells[y*g.Width : (y+1)*g.Width] }

// String is the grid as plain text, its rows joined by newlines.
func (g *Grid) String() string {
	buf := make([]byte, 0, g.Width*g.Height*3+g.Height)
	for y := range g.Height {
		if y > 0 {
			buf = append(buf, '\n')
		}
		for _, c := range g.Row(y) {
			buf = utf8.AppendRune(buf, c.Rune)
		}
	}
	return string(buf)
}

func (g *Grid) set(x, y int, r rune, k Kind, series int) {
	if x >= 0 && x < g.Width && y >= 0 && y < g.Height {
		g.cells[y*g.Width+x] = Cell{Rune: r, Kind: k, Series: series}
	}
}

// text writes s from column x of row y, one rune a cell.
func (g *Grid) text(x, y int, s string, k Kind) {
	for _, r := range s {
		g.set(x, y, r, k, 0)
		x++
	}
}

// newGrid is a blank grid of w×h.
func newGrid(w, h int) *Grid {
	w, h = max(0, w), max(0, h)
	g := &Grid{Width: w, Height: h, cells: make([]Cell, w*h)}
	for i := range g.cells {
		g.cells[i].Rune = ' '
	}
	return g
}

// eighths are the tops of bars, one eighth of a cell to a full cell.
var eighths = [9]rune{' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

// Draw draws s on a grid of exactly s.Width×s.Height cells. A chart needs three rows (a row
// of bars, the time axis and its labels) and room for its value labels and one column of
// bars; a smaller grid stays blank.
func Draw(s Spec) *Grid {
	g := newGrid(s.Width, s.Height)
	rows := s.Height - 2 // of bars, above the time axis and its labels
	if rows < 1 || len(s.Buckets) == 0 {
		return g
	}
	ymax := s.YMax
	if !(ymax > 0) || math.IsInf(ymax, 0) {
		ymax = 1
	}
	// The value labels: 0 on the time axis and every step-th row's top edge above it.
	step := max(1, rows/4)
	type valueLabel struct {
		row  int // the row the label is on; rows is the time axis
		text string
	}
	var labels []valueLabel
	lw := 0
	for k := 0; k <= rows; k += step {
		l := valueLabel{row: rows - k}
		if s.ValueLabel != nil {
			l.text = s.ValueLabel(ymax * float64(k) / float64(rows))
		}
		labels = append(labels, l)
		lw = max(lw, utf8.RuneCountInString(l.text))
	}
	pw := s.Width - lw - 1 // the columns of bars, right of the value axis
	if pw < 1 {
		return g
	}
	// The value axis and its labels.
	for y := range rows {
		g.set(lw, y, '│', Axis, 0)
	}
	for _, l := range labels {
		g.text(lw-utf8.RuneCountInString(l.text), l.row, l.text, Label)
		if l.row < rows {
			g.set(lw, l.row, '┤', Axis, 0)
		}
	}
	// The time axis.
	g.set(lw, rows, '└', Axis, 0)
	for x := range pw {
		g.set(lw+1+x, rows, '─', Axis, 0)
	}
	first := s.Buckets[0].Start
	span := s.End.Sub(first)
	if span <= 0 {
		span = 1 // one bucket without an end: it takes every column
	}
	col := func(t time.Time) int { return column(t.Sub(first), span, pw) }
	if s.TimeLabels != nil {
		next := 0 // the first column a label may start in
		for _, l := range s.TimeLabels(pw) {
			x, n := col(l.At), utf8.RuneCountInString(l.Text)
			if l.At.Before(first) || !l.At.Before(s.End) || x < next || lw+1+x+n > s.Width {
				continue
			}
			g.set(lw+1+x, rows, '┬', Axis, 0)
			g.text(lw+1+x, rows+1, l.Text, Label)
			next = x + n + 1
		}
	}
	// The bars.
	for x, e := range columnHeights(s.Buckets, col, pw, ymax, rows*8) {
		if e < 0 {
			continue // a gap
		}
		for y := rows - 1; e > 0; y, e = y-1, e-8 {
			g.set(lw+1+x, y, eighths[min(8, e)], Value, s.Series)
		}
	}
	return g
}

// column is the column of the time d after the start of an axis span long and pw columns
// wide: ⌊d·pw/span⌋ in exact integer arithmetic (so a bucket of a whole number of columns
// starts exactly where it should), within 0…pw-1.
func column(d, span time.Duration, pw int) int {
	if d <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(d), uint64(pw))
	if hi >= uint64(span) {
		return pw - 1
	}
	q, _ := bits.Div64(hi, lo, uint64(span))
	return int(min(q, uint64(pw-1)))
}

// columnHeights is the height of the bar of each of the pw columns in eighths of a cell
// (at most top), -1 where no bucket with a value falls. A column shows the mean of the
// values of the buckets that start in it; a column in which none starts shows the bucket
// that covers it (the one starting in the nearest column to its left).
func columnHeights(buckets []Bucket, col func(time.Time) int, pw int, ymax float64, top int) []int {
	sum := make([]float64, pw)
	n := make([]int, pw)
	starts := make([]bool, pw)
	for _, b := range buckets {
		x := col(b.Start)
		starts[x] = true
		if b.Present && !math.IsNaN(b.Value) && !math.IsInf(b.Value, 0) {
			sum[x] += max(0, b.Value)
			n[x]++
		}
	}
	heights := make([]int, pw)
	for x := range pw {
		switch {
		case !starts[x] && x > 0:
			heights[x] = heights[x-1]
		case n[x] == 0:
			heights[x] = -1
		default:
			e := math.Round(sum[x] / float64(n[x]) / ymax * float64(top))
			heights[x] = int(min(float64(top), max(1, e))) // clamped before the conversion: no overflow
		}
	}
	return heights
}
