package list

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/theme"
)

func TestViewsRowKeepsTheActiveViewInSight(t *testing.T) {
	st := theme.Plain(false)
	v := NewViewsRow([]string{"Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf\x1b[31m"})
	v.SetCount(0, "1,204")
	v.SetCount(2, "")
	if got := v.View(st, 200, false); !strings.HasPrefix(got, " all 1,204  Alpha ") || strings.Contains(got, "Charlie 0") ||
		strings.Contains(got, "\x1b") || ansi.StringWidth(got) != 200 {
		t.Fatalf("wide row %q", got)
	}
	v.Select(v.Index("GOLF\x1b[31m"))
	got := v.View(st, 30, true)
	if ansi.StringWidth(got) != 30 || !strings.HasPrefix(got, "… ") || !strings.Contains(got, "Golf") ||
		!strings.Contains(got, "*") || strings.Contains(got, "all") {
		t.Fatalf("narrow row with the last view active: %q", got)
	}
	if v.Move(1) != 0 || v.Move(-1) != v.Len()-1 {
		t.Fatal("moving does not wrap around")
	}
	if i := v.Add("alpha"); i != 1 || v.Count(1) != "" {
		t.Fatalf("adding an existing name: %d", i)
	}
}
