package common

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
)

// ParseWhen reads a time typed in a form: "" (unset), "now", "today", "yesterday", an age
// such as "15m", "6h", "7d" or "2w", a date "2026-11-01", a date and time "2026-11-01 14:30",
// or any ISO 8601 timestamp. Dates are UTC midnight.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" {
		return time.Time{}, nil
	}
	day := func(t time.Time) time.Time {
		y, m, d := t.UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	switch s {
	case "now":
		return now.UTC(), nil
	case "today":
		return day(now), nil
	case "yesterday":
		return day(now).AddDate(0, 0, -1), nil
	}
	if n := len(s); n >= 2 {
		unit := s[n-1]
		if v, err := strconv.Atoi(s[:n-1]); err == nil && v >= 0 {
			switch unit {
			case 'm':
				return now.Add(-time.Duration(v) * time.Minute).UTC(), nil
			case 'h':
				return now.Add(-time.Duration(v) * time.Hour).UTC(), nil
			case 'd':
				return now.AddDate(0, 0, -v).UTC(), nil
			case 'w':
				return now.AddDate(0, 0, -7*v).UTC(), nil
			}
		}
	}
	if t, err := time.Parse("2006-01-02 15:04", s); err == nil {
		return t, nil
	}
	if t, err := client.ParseTime(strings.ToUpper(s)); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q: use a date (2026-11-01), date and time (2026-11-01 14:30), ISO 8601, or an age like 6h, 7d", s)
}

// FormatWhen shows a time for editing in a form ("" for zero).
func FormatWhen(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04")
}

// ParseID reads an optional positive integer id ("" = 0).
func ParseID(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("%q is not a positive whole number", s)
	}
	return v, nil
}
