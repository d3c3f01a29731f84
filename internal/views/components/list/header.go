package list

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// HeaderPart is one part of a list's header (the count, the search, a filter, the
// ordering) in its forms, longest first; an empty form leaves the part out at that level.
type HeaderPart []string

// form is the part's form at level l (its shortest past its last).
func (p HeaderPart) form(l int) string {
	if len(p) == 0 {
		return ""
	}
	return p[min(l, len(p)-1)]
}

// HeaderSep joins the parts of a header.
const HeaderSep = " · "

// FitHeader lays a header out in lines of w cells, each starting with a space, and
// keeps every part visible as long as it can: on one line in the longest forms that fit,
// else over up to maxLines lines (whole parts per line, the longest forms that fit so). Only
// when not even that fits is the last line cut, ending in "…".
func FitHeader(parts []HeaderPart, w, maxLines int) []string {
	levels := 1
	for _, p := range parts {
		levels = max(levels, len(p))
	}
	var lines []string
	for n := 1; n <= max(1, maxLines); n++ {
		for l := range levels {
			var cut bool
			lines, cut = wrapParts(parts, l, w)
			if len(lines) <= n && !cut {
				return lines
			}
		}
	}
	keep := min(len(lines), max(1, maxLines))
	last := keep - 1
	if keep < len(lines) {
		lines[last] += " …" // more parts than lines
	}
	lines = lines[:keep]
	lines[last] = ansi.Truncate(lines[last], w, "…")
	return lines
}

// wrapParts puts the parts' forms at level l on lines of w cells, as many whole parts per
// line as fit; a part wider than a line is cut with "…" (and cut reports it).
func wrapParts(parts []HeaderPart, l, w int) (lines []string, cut bool) {
	line := ""
	for _, p := range parts {
		f := p.form(l)
		if f == "" {
			continue
		}
		switch {
		case line == "":
			line = " " + f
		case ansi.StringWidth(line+HeaderSep+f) <= w:
			line += HeaderSep + f
		default:
			lines = append(lines, line)
			line = " " + f
		}
		if ansi.StringWidth(line) > w {
			line, cut = ansi.Truncate(line, w, "…"), true
		}
	}
	return append(lines, line), cut
}

// ShortValue cuts a header value to n cells with "…" (a search or a filter's value): a
// long one then leaves room for the other parts.
func ShortValue(s string, n int) string {
	if ansi.StringWidth(s) <= n {
		return s
	}
	return strings.TrimRight(ansi.Truncate(s, n-1, ""), " ") + "…"
}
