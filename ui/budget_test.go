package ui

import (
	"testing"
	"time"
)

func TestEffectiveInterval(t *testing.T) {
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
		d, paused := EffectiveInterval(c.configured, c.budget, c.used, noon)
		if d != c.want || paused != c.paused {
			t.Errorf("%s: got %v paused=%v, want %v paused=%v", c.name, d, paused, c.want, c.paused)
		}
	}
}
