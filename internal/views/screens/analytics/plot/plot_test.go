package plot_test

import (
	"fmt"
	"go/build"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/parley-tui/parley/internal/views/screens/analytics/plot"
	"github.com/parley-tui/parley/internal/views/screens/analytics/plot/plottest"
)

var day0 = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

// days are n daily buckets from day0 with the values of v (v(i) false: no value).
func days(n int, v func(i int) (float64, bool)) ([]plot.Bucket, time.Time) {
	bs := make([]plot.Bucket, n)
	for i := range bs {
		bs[i].Start = day0.AddDate(0, 0, i)
		bs[i].Value, bs[i].Present = v(i)
	}
	return bs, day0.AddDate(0, 0, n)
}

// dayLabels labels every day that starts at least 7 columns after the last label.
func dayLabels(bs []plot.Bucket, end time.Time) func(int) []plot.TimeLabel {
	return func(w int) []plot.TimeLabel {
		var out []plot.TimeLabel
		last := -100
		for _, b := range bs {
			if c := int(float64(b.Start.Sub(day0)) / float64(end.Sub(day0)) * float64(w)); c-last >= 7 {
				out = append(out, plot.TimeLabel{At: b.Start, Text: b.Start.Format("01-02")})
				last = c
			}
		}
		return out
	}
}

func spec(bs []plot.Bucket, end time.Time, ymax float64, w, h int) plot.Spec {
	return plot.Spec{Width: w, Height: h, Buckets: bs, End: end, Series: 1, YMax: ymax,
		ValueLabel: func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) },
		TimeLabels: dayLabels(bs, end)}
}

// read draws s and reads it back, checking that the grid is exactly its size and that
// every cell's kind fits its rune.
func read(t *testing.T, s plot.Spec) plottest.Reading {
	t.Helper()
	g := plot.Draw(s)
	lines := strings.Split(g.String(), "\n")
	if g.Width != s.Width || g.Height != s.Height || len(lines) != s.Height {
		t.Fatalf("%dx%d: a grid of %dx%d, %d lines", s.Width, s.Height, g.Width, g.Height, len(lines))
	}
	for y, l := range lines {
		if n := utf8.RuneCountInString(l); n != s.Width {
			t.Fatalf("%dx%d: line %d is %d cells", s.Width, s.Height, y, n)
		}
		for x, c := range g.Row(y) {
			bar := strings.ContainsRune("▁▂▃▄▅▆▇█", c.Rune)
			if bar != (c.Kind == plot.Value) || (c.Kind == plot.Value && c.Series != 1) || (c.Rune == ' ') != (c.Kind == plot.Blank) ||
				(strings.ContainsRune("│┤└─┬", c.Rune) && c.Kind != plot.Axis) {
				t.Fatalf("%dx%d: the cell at %d,%d is %q of kind %d, series %d", s.Width, s.Height, x, y, c.Rune, c.Kind, c.Series)
			}
		}
	}
	r, err := plottest.Read(lines)
	if err != nil {
		t.Fatalf("%dx%d: %v\n%s", s.Width, s.Height, err, g.String())
	}
	return r
}

// checkValues checks that every column of bars shows the values of its buckets: the mean
// of the values of the buckets starting in it (or of the bucket covering it), within the
// range its height stands for; an empty column where none of them has a value.
func checkValues(t *testing.T, r plottest.Reading, bs []plot.Bucket, end time.Time, ymax float64, drawn string) {
	t.Helper()
	n := len(bs) // buckets of one day each: bucket i starts in column ⌊i·width/n⌋
	for x, h := range r.Heights {
		var in []plot.Bucket
		for i, b := range bs {
			if c0, c1 := i*r.Width/n, (i+1)*r.Width/n; c0 == x || (c0 < x && x < c1) {
				in = append(in, b)
			}
		}
		sum, n := 0.0, 0
		for _, b := range in {
			if b.Present {
				sum += b.Value
				n++
			}
		}
		if n == 0 {
			if h != -1 {
				t.Fatalf("column %d (buckets %v) has no value but a bar of %d eighths:\n%s", x, in, h, drawn)
			}
			continue
		}
		mean := sum / float64(n)
		if lo, hi := r.Range(h, ymax); h < 1 || mean < lo || mean > hi {
			t.Fatalf("column %d: a bar of %d eighths (%.3f to %.3f) for the value %.3f:\n%s", x, h, lo, hi, mean, drawn)
		}
	}
}

// The bars show the buckets' values at every size: each column's height stands for a
// range holding its bucket's value, gaps are empty columns and zeros the lowest eighth.
func TestBarsShowTheValues(t *testing.T) {
	sizes := [][2]int{{80, 24}, {120, 40}, {200, 50}, {73, 3}, {16, 4}, {40, 7}}
	cases := []struct {
		name string
		n    int
		v    func(int) (float64, bool)
	}{
		{"fewer buckets than columns, with gaps", 31, func(i int) (float64, bool) { return float64((i * 37) % 160), i%5 != 3 }},
		{"one bucket", 1, func(int) (float64, bool) { return 42, true }},
		{"zeros", 12, func(i int) (float64, bool) { return float64(i % 2 * 50), true }},
		{"more buckets than columns", 400, func(i int) (float64, bool) { return float64(i % 17 * 9), i%40 >= 10 }},
		{"a lone value between gaps", 9, func(i int) (float64, bool) { return 100, i == 4 }},
	}
	for _, c := range cases {
		bs, end := days(c.n, c.v)
		ymax := 0.0
		for _, b := range bs {
			ymax = max(ymax, b.Value)
		}
		ymax *= 1.1
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, sz[0], sz[1]), func(t *testing.T) {
				s := spec(bs, end, ymax, sz[0], sz[1])
				r := read(t, s)
				if r.Rows != sz[1]-2 || r.Width < 1 {
					t.Fatalf("%d rows of %d columns", r.Rows, r.Width)
				}
				checkValues(t, r, bs, end, ymax, plot.Draw(s).String())
			})
		}
	}
}

// Split charts compare: on one value axis, the same value is a bar of the same height
// whatever the rest of its series.
func TestSharedScale(t *testing.T) {
	a, end := days(10, func(i int) (float64, bool) { return float64(i * 10), true })
	b, _ := days(10, func(i int) (float64, bool) { return 40, i == 4 })
	ra, rb := read(t, spec(a, end, 100, 60, 12)), read(t, spec(b, end, 100, 60, 12))
	if fmt.Sprint(ra.ValueLabels) != fmt.Sprint(rb.ValueLabels) {
		t.Errorf("value labels %v and %v", ra.ValueLabels, rb.ValueLabels)
	}
	for x, h := range rb.Heights {
		if h != -1 && h != ra.Heights[x] {
			t.Errorf("column %d: 40 is %d eighths high beside a series up to 90, %d alone", x, ra.Heights[x], h)
		}
	}
}

// The value axis is labelled from 0 on the axis line up, every quarter of the rows, each
// label the value at the top edge of its row; the labels are right-aligned to the axis.
func TestValueLabels(t *testing.T) {
	bs, end := days(4, func(int) (float64, bool) { return 1, true })
	for _, h := range []int{3, 4, 6, 10, 22, 50} {
		r := read(t, spec(bs, end, 80, 40, h))
		step := max(1, r.Rows/4)
		want := map[int]string{}
		for k := 0; k <= r.Rows; k += step {
			want[k] = strconv.FormatFloat(80*float64(k)/float64(r.Rows), 'f', 1, 64)
		}
		if fmt.Sprint(r.ValueLabels) != fmt.Sprint(want) {
			t.Errorf("height %d: value labels %v, want %v", h, r.ValueLabels, want)
		}
		if r.Axis != len("80.0") {
			t.Errorf("height %d: the value axis is in column %d", h, r.Axis)
		}
	}
}

// Each time label starts in the first column of its bucket; labels that would overlap or
// run past the right edge are left out.
func TestTimeLabelsStartAtTheirBucket(t *testing.T) {
	bs, end := days(30, func(int) (float64, bool) { return 1, true })
	for _, w := range []int{30, 45, 80, 120, 200} {
		s := spec(bs, end, 2, w, 8)
		r := read(t, s)
		if len(r.TimeLabels) == 0 {
			t.Fatalf("width %d: no time labels", w)
		}
		span := float64(end.Sub(day0))
		for x, l := range r.TimeLabels {
			d, err := time.Parse("2006-01-02", "2026-"+l)
			if err != nil {
				t.Fatalf("width %d: label %q: %v", w, l, err)
			}
			if want := int(float64(d.Sub(day0)) / span * float64(r.Width)); x != want {
				t.Errorf("width %d: %s starts in column %d, its day in %d", w, l, x, want)
			}
		}
	}
	// Overlapping labels: only the first of two in one column is drawn.
	s := spec(bs, end, 2, 40, 6)
	s.TimeLabels = func(int) []plot.TimeLabel {
		return []plot.TimeLabel{{At: day0, Text: "aaaa"}, {At: day0.Add(time.Hour), Text: "bbbb"}, {At: day0.AddDate(0, 0, 29), Text: "cccc"}}
	}
	r := read(t, s)
	if fmt.Sprint(r.TimeLabels) != "map[0:aaaa]" {
		t.Errorf("labels %v, want only aaaa (bbbb overlaps it, cccc runs past the edge)", r.TimeLabels)
	}
}

// Too small for a chart, odd values and no buckets: a blank grid of exactly the size,
// never a panic.
func TestOddInput(t *testing.T) {
	bs, end := days(5, func(i int) (float64, bool) {
		return []float64{math.NaN(), math.Inf(1), -5, 1e300, 3}[i], true
	})
	for _, s := range []plot.Spec{
		spec(bs, end, 10, 80, 2), spec(bs, end, 10, 5, 10), spec(nil, end, 10, 80, 10),
		spec(bs, end, 0, 80, 10), spec(bs, end, math.NaN(), 80, 10), spec(bs, bs[0].Start, 10, 80, 10),
		spec(bs, end, 10, 0, 0), spec(bs, end, 10, -3, -1),
	} {
		g := plot.Draw(s)
		if g.Width != max(0, s.Width) || g.Height != max(0, s.Height) {
			t.Errorf("%dx%d: drew %dx%d", s.Width, s.Height, g.Width, g.Height)
		}
	}
	r := read(t, spec(bs, end, 10, 25, 6))
	if r.Heights[0] != -1 || r.Heights[1] != -1 {
		t.Errorf("NaN and infinity drawn as %d and %d eighths", r.Heights[0], r.Heights[1])
	}
	if h := r.Heights[len(r.Heights)-1]; h != 10 { // 3 of 10 over 4 rows of 8 eighths: 9.6
		t.Errorf("3 of 10 is %d eighths high, want 10", h)
	}
	if r.Heights[10] != 1 || r.Heights[15] != 32 {
		t.Errorf("-5 is %d eighths high (want the lowest), 1e300 %d (want the top)", r.Heights[10], r.Heights[15])
	}
}

// The renderer depends on the standard library alone: no terminal UI module (and no
// init of one) comes into the build with it, and colouring its cells is the caller's job.
func TestStandardLibraryOnly(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") {
			t.Errorf("plot imports %s", imp)
		}
	}
	if len(pkg.Imports) == 0 {
		t.Error("no imports read")
	}
}
