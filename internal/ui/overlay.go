package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

func widthOf(s string) int { return ansi.StringWidth(s) }

// overlayAt draws fg's lines over bg's, with fg's top-left corner at (x, y). Both are
// rendered (possibly styled) blocks; bg keeps its content left and right of fg.
func overlayAt(bg, fg string, x, y, w int) string {
	bgLines := strings.Split(bg, "\n")
	for i, l := range strings.Split(fg, "\n") {
		row := y + i
		if row < 0 || row >= len(bgLines) {
			continue
		}
		fw := ansi.StringWidth(l)
		if x+fw > w {
			l = ansi.Truncate(l, max(0, w-x), "")
			fw = ansi.StringWidth(l)
		}
		base := bgLines[row]
		left := ansi.Truncate(base, x, "")
		if lw := ansi.StringWidth(left); lw < x {
			left += strings.Repeat(" ", x-lw)
		}
		right := ansi.TruncateLeft(base, x+fw, "")
		bgLines[row] = left + "\x1b[0m" + l + "\x1b[0m" + right
	}
	return strings.Join(bgLines, "\n")
}

// overlayCenter centers fg over bg (w×h).
func overlayCenter(bg, fg string, w, h int) string {
	fw, fh := blockSize(fg)
	return overlayAt(bg, fg, max(0, (w-fw)/2), max(0, (h-fh)/2), w)
}

func blockSize(s string) (w, h int) {
	lines := strings.Split(s, "\n")
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w, len(lines)
}
