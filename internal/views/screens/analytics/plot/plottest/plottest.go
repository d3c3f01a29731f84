// Package plottest reads a chart drawn by package plot back from its text, for tests that
// check what a chart shows: the height of every column of bars, and the labels.
package plottest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Reading is one chart read back.
type Reading struct {
	Axis  int // the column of the value axis
	Rows  int // rows of bars, above the time axis line
	Width int // columns of bars, right of the value axis
	// Heights are the bars, column by column, in eighths of a cell; -1 is an empty column.
	Heights []int
	// TimeLabels by the column of bars they start in.
	TimeLabels map[int]string
	// ValueLabels by the number of rows above the time axis line their line is (0 is the
	// axis line itself).
	ValueLabels map[int]string
}

var eighths = map[rune]int{'▁': 1, '▂': 2, '▃': 3, '▄': 4, '▅': 5, '▆': 6, '▇': 7, '█': 8}

// Read reads the chart of lines (plain text, no escape codes), which are exactly one chart:
// rows of bars, the time axis line and its labels.
func Read(lines []string) (Reading, error) {
	var r Reading
	if len(lines) < 3 {
		return r, fmt.Errorf("%d lines: a chart has at least 3", len(lines))
	}
	grid := make([][]rune, len(lines))
	for i, l := range lines {
		grid[i] = []rune(l)
	}
	r.Rows = len(lines) - 2
	axisLine, labelLine := grid[r.Rows], grid[r.Rows+1]
	r.Axis = strings.IndexRune(lines[r.Rows], '└')
	if r.Axis < 0 {
		return r, fmt.Errorf("no time axis line: %q", lines[r.Rows])
	}
	r.Axis = utf8.RuneCountInString(lines[r.Rows][:r.Axis])
	r.Width = len(axisLine) - r.Axis - 1
	r.TimeLabels, r.ValueLabels = map[int]string{}, map[int]string{}
	for y := 0; y <= r.Rows; y++ {
		if len(grid[y]) != len(axisLine) {
			return r, fmt.Errorf("line %d is %d cells wide, the axis line %d", y, len(grid[y]), len(axisLine))
		}
		if l := strings.TrimSpace(string(grid[y][:r.Axis])); l != "" {
			r.ValueLabels[r.Rows-y] = l
		}
		switch a := grid[y][r.Axis]; {
		case y == r.Rows:
		case a == '┤' && r.ValueLabels[r.Rows-y] != "":
		case a == '│' && r.ValueLabels[r.Rows-y] == "":
		default:
			return r, fmt.Errorf("line %d: value axis %q beside the label %q", y, a, r.ValueLabels[r.Rows-y])
		}
	}
	for x := range r.Width {
		c := r.Axis + 1 + x
		switch axisLine[c] {
		case '┬':
			start := c
			if start >= len(labelLine) || labelLine[start] == ' ' || (start > 0 && labelLine[start-1] != ' ') {
				return r, fmt.Errorf("the tick at column %d has no label starting under it: %q", x, string(labelLine))
			}
			end := start
			for end < len(labelLine) && labelLine[end] != ' ' {
				end++
			}
			r.TimeLabels[x] = string(labelLine[start:end])
		case '─':
		default:
			return r, fmt.Errorf("time axis column %d is %q", x, axisLine[c])
		}
		h, top := 0, false // top: the bar has ended (above it only blanks)
		for y := r.Rows - 1; y >= 0; y-- {
			ch := grid[y][c]
			e, bar := eighths[ch]
			switch {
			case ch == ' ':
				top = true
			case !bar || top:
				return r, fmt.Errorf("column %d, line %d: %q is not part of a bar", x, y, ch)
			default:
				h += e
				top = e < 8
			}
		}
		if h == 0 {
			h = -1
		}
		r.Heights = append(r.Heights, h)
	}
	if n := len(r.TimeLabels); n > 0 {
		labels := strings.Fields(string(labelLine))
		if len(labels) != n {
			return r, fmt.Errorf("%d time labels %q, %d ticks", len(labels), labels, n)
		}
	}
	return r, nil
}

// Range is the range of values a bar of height h eighths stands for on a value axis from 0
// to ymax: within half an eighth of its top. The lowest eighth also stands for 0 (every
// value is drawn at least that high).
func (r Reading) Range(h int, ymax float64) (lo, hi float64) {
	eighth := ymax / float64(8*r.Rows)
	lo, hi = (float64(h)-0.5)*eighth, (float64(h)+0.5)*eighth
	if h <= 1 {
		lo = 0
	}
	return lo, hi
}
