package scroll_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/scroll"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

func lines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d", i)
	}
	return out
}

// The pane moves with the move keys as bound (a line, a page of its height less one, the
// ends), never past its lines; the wheel by the steps given; Show scrolls the least.
func TestPaneMoves(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"down": {"v"}}); err != nil {
		t.Fatal(err)
	}
	p := scroll.New(nil)
	p.SetSize(10, 4)
	p.SetLines(lines(10))
	for _, c := range []struct {
		key  string
		want int
	}{{"v", 1}, {"j", 1}, {"pgdown", 4}, {"end", 6}, {"pgdown", 6}, {"up", 5}, {"home", 0}, {"up", 0}} {
		ok := p.Key(keys, viewtest.Key(c.key))
		if p.Offset() != c.want || ok != (c.key != "j") {
			t.Fatalf("%s: offset %d (took it: %v), want %d", c.key, p.Offset(), ok, c.want)
		}
	}
	p.Wheel(3)
	p.Wheel(9)
	if p.Offset() != 6 || !p.AtBottom() {
		t.Fatalf("the wheel past the end: offset %d", p.Offset())
	}
	p.Show(1, 3)
	if p.Offset() != 1 {
		t.Fatalf("Show(1, 3) from 6: offset %d, want 1", p.Offset())
	}
	p.Show(3, 9)
	if p.Offset() != 3 {
		t.Fatalf("Show(3, 9), taller than the pane: offset %d, want its first line on top", p.Offset())
	}
	p.SetLines(lines(5))
	if p.Offset() != 1 {
		t.Fatalf("fewer lines: offset %d, want 1 (the last at the bottom)", p.Offset())
	}
}

// View is exactly w×h: the lines in view, blank lines after the last; with More, the last
// line of a pane with lines below says how many.
func TestPaneView(t *testing.T) {
	p := scroll.New(theme.Plain(false))
	p.SetSize(12, 3)
	p.SetLines(lines(5))
	want := []string{"line 0      ", "line 1      ", " ↓ 3 more li"}
	if got := strings.Split(p.View(), "\n"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("view %q, want %q", got, want)
	}
	if p.Shown(2) || !p.Shown(1) {
		t.Error("a line under the hint counts as shown")
	}
	p.SetOffset(9)
	if got := strings.Split(p.View(), "\n"); got[2] != "line 4      " {
		t.Fatalf("at the end: %q", got)
	}
	p.SetLines(lines(1))
	for _, l := range strings.Split(p.View(), "\n") {
		if ansi.StringWidth(l) != 12 {
			t.Fatalf("a line %q is not 12 cells", l)
		}
	}
}

// InView leaves out the line under the "more" hint; ViewWith draws one line in view another
// way and changes nothing for a line out of view or under the hint.
func TestViewWith(t *testing.T) {
	p := scroll.New(theme.Plain(true))
	p.SetSize(10, 4)
	p.SetLines(lines(10))
	p.SetOffset(2)
	if from, to := p.InView(); from != 2 || to != 5 {
		t.Fatalf("in view: %d to %d, want 2 to 5 (line 5 is under the hint)", from, to)
	}
	got := strings.Split(p.ViewWith(3, "marked"), "\n")
	if len(got) != 4 || strings.TrimSpace(got[1]) != "marked" || strings.TrimSpace(got[0]) != "line 2" {
		t.Fatalf("ViewWith(3): %q", got)
	}
	for _, i := range []int{0, 5, 9, -1} {
		if v := p.ViewWith(i, "marked"); v != p.View() {
			t.Errorf("ViewWith(%d) changed the view: %q", i, v)
		}
	}
	p.SetOffset(6)
	if from, to := p.InView(); from != 6 || to != 10 {
		t.Fatalf("at the bottom: %d to %d, want 6 to 10", from, to)
	}
}
