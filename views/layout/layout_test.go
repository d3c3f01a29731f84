package layout

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/theme"
)

func TestAgoAndShortDuration(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		-time.Minute: "in the future", -30 * time.Second: "just now", -time.Second: "just now", 30 * time.Second: "just now", 5 * time.Minute: "5m ago",
		47 * time.Hour: "47h ago", 72 * time.Hour: "3d ago",
	} {
		if got := Ago(now.Add(-d), now); got != want {
			t.Errorf("Ago(%s before) = %q, want %q", d, got, want)
		}
	}
	for d, want := range map[time.Duration]string{
		45 * time.Second: "45s", 185 * time.Second: "3m05s", 127 * time.Minute: "2h07m",
	} {
		if got := ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestSpread(t *testing.T) {
	if got := Spread("ab", "cd", 7); got != "ab   cd" {
		t.Errorf("Spread = %q", got)
	}
	if got := Spread("ab", "cd", 4); got != "ab" {
		t.Errorf("Spread without room = %q, want the left part", got)
	}
}

// TestPickWindow: the window of a picker's list follows the cursor, says where labels are
// left out, pads every line to the width (cutting a long label with "…") and marks the
// cursor's line.
func TestPickWindow(t *testing.T) {
	st := theme.Plain(false)
	var labels []string
	for i := range 30 {
		labels = append(labels, fmt.Sprintf("operator %d", i))
	}
	labels[15] = strings.Repeat("long ", 20)
	lines := strings.Split(strings.TrimSuffix(pickWindow(st, labels, 15, 30, 24), "\n"), "\n")
	// 24 lines high: 12 rows, the cursor's in the middle, both marks.
	if len(lines) != 14 || lines[0] != "  ↑ more" || lines[13] != "  ↓ more" {
		t.Fatalf("window of 12 with both marks: %q", lines)
	}
	for _, l := range lines[1:13] {
		if ansi.StringWidth(l) != 30 {
			t.Errorf("line %q is %d cells, want 30", l, ansi.StringWidth(l))
		}
	}
	if !strings.HasPrefix(lines[7], "› long long") || !strings.HasSuffix(lines[7], "…") || lines[6] != Pad("  operator 14", 30) {
		t.Errorf("the cursor's line %q (before it %q)", lines[7], lines[6])
	}
	top := strings.Split(strings.TrimSuffix(pickWindow(st, labels[:2], 0, 20, 5), "\n"), "\n")
	if len(top) != 2 || !strings.HasPrefix(top[0], "› operator 0") || strings.Contains(strings.Join(top, ""), "more") {
		t.Errorf("two labels on a short terminal: %q", top)
	}
	if got := pickBoxWidth(200); got != 64 {
		t.Errorf("box on 200 columns: %d", got)
	}
	if got := pickBoxWidth(20); got != 30 {
		t.Errorf("box on 20 columns: %d", got)
	}
}

// TestPickBox: a picker's box holds, in order, the title, the note, the status, the list's
// window, the field and the help line, every line as wide as the box.
func TestPickBox(t *testing.T) {
	st := theme.Plain(false)
	p := Pick{Title: "Assign to…", Note: "Requests run as this operator.", Status: "  loading",
		Labels: []string{"Clara", "Ben"}, Cursor: 1, Input: "filter: cl", Move: "↑/↓", Choose: "enter", Cancel: "esc"}
	var inner []string
	for _, l := range strings.Split(PickBox(st, p, 80, 24), "\n") {
		if w := ansi.StringWidth(l); w != 64 {
			t.Fatalf("line %q is %d cells, want the box's 64", l, w)
		}
		inner = append(inner, strings.TrimRight(strings.Trim(l, "│╭╮╰╯─"), " "))
	}
	want := []string{"", " Assign to…", "", " Requests run as this operator.", "", "   loading", "   Clara", " › Ben", "",
		" filter: cl", "", " ↑/↓ move  enter choose  esc cancel", ""}
	if strings.Join(inner, "\n") != strings.Join(want, "\n") {
		t.Fatalf("box\n%s\nwant\n%s", strings.Join(inner, "\n"), strings.Join(want, "\n"))
	}
	p.Note, p.Status = "", ""
	if got := strings.Count(PickBox(st, p, 80, 24), "\n"); got != len(want)-4 {
		t.Fatalf("without a note and a status: %d lines, want %d", got+1, len(want)-3)
	}
}

// TestPaneAt: panes side by side in their order, each as wide as given.
func TestPaneAt(t *testing.T) {
	order := []string{"list", "thread", "detail"}
	widths := map[string]int{"list": 40, "thread": 50, "detail": 30}
	for _, tc := range []struct {
		x    int
		want string
		left int
		ok   bool
	}{{0, "list", 0, true}, {39, "list", 0, true}, {40, "thread", 40, true}, {89, "thread", 40, true},
		{90, "detail", 90, true}, {119, "detail", 90, true}, {120, "", 0, false}, {-1, "", 0, false}} {
		p, left, ok := PaneAt(tc.x, order, widths)
		if p != tc.want || left != tc.left || ok != tc.ok {
			t.Errorf("column %d: %q at %d (%v), want %q at %d (%v)", tc.x, p, left, ok, tc.want, tc.left, tc.ok)
		}
	}
}
