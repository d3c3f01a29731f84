package list

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/theme"
)

func TestViewsRowKeepsTheActiveViewInSight(t *testing.T) {
	t.Parallel()
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

// TestViewsRowAtFindsTheViewDrawnThere: At names the view under a cell of the row as View
// drew it, wide and narrow (after a "…" mark), and nothing on a mark or the blank end.
func TestViewsRowAtFindsTheViewDrawnThere(t *testing.T) {
	t.Parallel()
	st := theme.Plain(false)
	v := NewViewsRow([]string{"Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf"})
	for _, tc := range []struct {
		w, active int
	}{{200, 0}, {30, 7}, {30, 4}} {
		v.Select(tc.active)
		row := v.View(st, tc.w, false)
		cells := []rune(row) // the plain styles draw one cell a rune here
		seen := map[int]bool{}
		for x := range tc.w {
			i, ok := v.At(st, tc.w, false, x)
			if !ok {
				if c := cells[x]; c != ' ' && c != '…' {
					t.Errorf("w %d: cell %d (%q) of %q names no view", tc.w, x, c, row)
				}
				continue
			}
			seen[i] = true
			name := v.Names()[i]
			if start := strings.Index(row, name); start < 0 {
				t.Errorf("w %d: cell %d names %q, which is not drawn: %q", tc.w, x, name, row)
			}
		}
		for i, name := range v.Names() {
			b := strings.Index(row, name)
			if b < 0 {
				continue // left out of a narrow row
			}
			x := len([]rune(row[:b]))
			if got, ok := v.At(st, tc.w, false, x); !ok || got != i {
				t.Errorf("w %d: the cell where %q is drawn (%d) names view %d (%v), want %d", tc.w, name, x, got, ok, i)
			}
		}
		if !seen[v.Active()] {
			t.Errorf("w %d: the active view %q is under no cell of %q", tc.w, v.ActiveName(), row)
		}
		if _, ok := v.At(st, tc.w, false, tc.w); ok {
			t.Errorf("w %d: a cell past the row names a view", tc.w)
		}
	}
}
