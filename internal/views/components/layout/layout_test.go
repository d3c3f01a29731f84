package layout

import (
	"testing"
	"time"
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
