package common_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
)

// A list that could not load says why in the lines it has, and which key tries again.
func TestLoadFailedLinesFitTheirWidth(t *testing.T) {
	err := &client.TransportError{Method: "GET", Host: "api.example.com:443", Err: errors.New("connection refused")}
	lines := common.LoadFailedLines(err, "r", 30, 3)
	if len(lines) > 3 || !strings.HasPrefix(lines[0], "  Could not load: Cannot") {
		t.Fatalf("LoadFailedLines = %q", lines)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 30 {
			t.Fatalf("line %q is %d wide", l, w)
		}
	}
	if all := strings.Join(strings.Fields(strings.Join(common.LoadFailedLines(err, "r", 80, 4), " ")), " "); !strings.Contains(all, "r tries again.") {
		t.Fatalf("no retry key in %q", all)
	}
}
