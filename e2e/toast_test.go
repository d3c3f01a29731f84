//go:build e2e

package e2e

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ToastText is the text of the topmost toast on a screen (a box whose first line starts
// with ✗, ✓ or ⚠), its lines joined by single spaces and a word cut at a hyphen joined
// again; "" when no toast shows. Only the box's own cells are read, by display column, so
// the panes around and under it (whatever rows they hold) add nothing to its words.
func ToastText(screen string) string {
	lines := strings.Split(screen, "\n")
	text := ""
	for i, l := range lines {
		for off := 0; ; {
			k := strings.Index(l[off:], "╭")
			if k < 0 {
				break
			}
			k += off
			off = k + len("╭")
			r := strings.Index(l[off:], "╮")
			if r < 0 {
				break
			}
			left, right := ansi.StringWidth(l[:k]), ansi.StringWidth(l[:off+r])
			if body, ok := boxBody(lines[i+1:], left, right); ok {
				text = body
			}
		}
	}
	return text
}

// boxBody reads the lines of a box whose borders stand at the columns left and right,
// from its first line under the top border to the bottom border; ok when it is a toast.
func boxBody(lines []string, left, right int) (string, bool) {
	var words []string
	for n, l := range lines {
		if strings.HasPrefix(ansi.Cut(l, left, left+1), "╰") {
			body := strings.Join(words, " ")
			return strings.ReplaceAll(body, "- ", "-"), n > 0
		}
		if ansi.Cut(l, left, left+1) != "│" {
			return "", false
		}
		inner := strings.Fields(ansi.Cut(l, left+1, right))
		if n == 0 && (len(inner) == 0 || !strings.ContainsAny(inner[0], "✗✓⚠")) {
			return "", false
		}
		words = append(words, inner...)
	}
	return "", false
}
