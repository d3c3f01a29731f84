package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/writes"
)

// LoadFailedLines says that a list could not load and which key tries again, wrapped to
// w columns in at most n lines, each indented by two spaces.
func LoadFailedLines(err error, retryKey string, w, n int) []string {
	text := "Could not load: " + writes.ErrorText(err)
	if retryKey != "" {
		text += " " + retryKey + " tries again."
	}
	lines := strings.Split(ansi.Wrap(text, max(1, w-2), ""), "\n")
	if n < 1 {
		n = 1
	}
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = layout.Pad(lines[n-1]+" …", w-2)
	}
	for i := range lines {
		lines[i] = "  " + strings.TrimRight(lines[i], " ")
	}
	return lines
}
