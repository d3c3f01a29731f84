package layout_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// TestRecordFitsAndSaysWhatIsCut: a record is exactly w×h; a value not sent shows "—"; the
// fields parley does not read come under "Also sent"; what does not fit is counted on the
// last line.
func TestRecordFitsAndSaysWhatIsCut(t *testing.T) {
	st := viewtest.Ctx(nil).Styles
	fields := []layout.Field{{Label: "Email", Value: "max@example.com"}, {Label: "Group", Value: ""}}
	extra := []string{`team={"id":4}`, `shift="early"`}
	for _, size := range [][2]int{{40, 8}, {12, 3}, {80, 20}} {
		w, h := size[0], size[1]
		lines := layout.Record(st, "Operator Max (#3)", fields, extra, w, h)
		if len(lines) != h {
			t.Fatalf("%dx%d: %d lines", w, h, len(lines))
		}
		for i, l := range lines {
			if got := ansi.StringWidth(l); got != w {
				t.Fatalf("%dx%d: line %d is %d wide: %q", w, h, i, got, l)
			}
		}
	}
	v := ansi.Strip(strings.Join(layout.Record(st, "Operator Max (#3)", fields, extra, 40, 8), "\n"))
	for _, want := range []string{"Operator Max (#3)", "Email         max@example.com", "Group         —", "Also sent", `team={"id":4}`, `shift="early"`} {
		if !strings.Contains(v, want) {
			t.Errorf("the record lacks %q:\n%s", want, v)
		}
	}
	v = ansi.Strip(strings.Join(layout.Record(st, "Operator Max (#3)", fields, extra, 40, 4), "\n"))
	if !strings.Contains(v, "↓ 3 more lines") || strings.Contains(v, "shift") {
		t.Errorf("a cut record does not count what is below:\n%s", v)
	}
}
