package common

import (
	"testing"
	"time"
)

func TestBudgetPace(t *testing.T) {
	noon := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) // 12 h = 43,200 s left today
	cases := []struct {
		name       string
		configured time.Duration
		budget     int
		used       int
		want       time.Duration
		paused     bool
	}{
		{"plenty of budget keeps the configured interval", 30 * time.Second, 5000, 0, 30 * time.Second, false},
		{"400 a day from noon: 43,200 s / 400 = 108 s", 30 * time.Second, 400, 0, 108 * time.Second, false},
		{"what is left is spread over the rest of the day", 30 * time.Second, 400, 300, 432 * time.Second, false},
		{"a longer configured interval wins", 10 * time.Minute, 400, 0, 10 * time.Minute, false},
		{"spent budget pauses", 30 * time.Second, 400, 400, 0, true},
		{"overspent budget pauses", 30 * time.Second, 400, 450, 0, true},
	}
	for _, c := range cases {
		d, paused := Budget{Interval: c.configured, PerDay: c.budget}.Pace(c.used, 1, noon)
		if d != c.want || paused != c.paused {
			t.Errorf("%s: got %v paused=%v, want %v paused=%v", c.name, d, paused, c.want, c.paused)
		}
	}
}

// A refresh that costs several requests (the operators list and the slots in view) is
// spaced by its cost: 8 requests a refresh, 392 left at 15:04:05 UTC.
func TestBudgetPaceOfACostlyRefresh(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)
	left := 8*time.Hour + 55*time.Minute + 55*time.Second
	b := Budget{Interval: 20 * time.Second, PerDay: 400}
	if d, paused := b.Pace(8, 8, now); paused || d != (left*8/392).Round(time.Second) {
		t.Fatalf("got %v paused=%v, want %v", d, paused, (left * 8 / 392).Round(time.Second))
	}
	if _, paused := (Budget{Interval: 20 * time.Second, PerDay: 9}).Pace(8, 8, now); !paused {
		t.Fatal("1 request left pays for a refresh of 8")
	}
}
