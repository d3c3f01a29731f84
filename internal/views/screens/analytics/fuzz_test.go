package analytics

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
)

// The seeds run as regression tests in every `go test`; -fuzz explores from them.

var rangeSeeds = []string{"", "today", "yesterday", "now", "7d", "2w", "6h", "90m", "1h30m", "119d",
	"2026-07-23", "2026-11-20", "2026-11-19 08:00", "2026-10-01T08:00:00Z", "2026-10-01T08:00:00+02:00",
	"3000000h", "99999999999w", "1999-12-31", "2101-01-01", "2100-12-31", "2000-01-01", "soon", "\x1b[2J"}

// The custom range form: a period it accepts has a start before its end, inside 2000–2100,
// whole days or whole seconds, a chart granularity that fits its length, and an export file
// name without a directory in it.
func FuzzParseCustom(f *testing.F) {
	for i, s := range rangeSeeds {
		f.Add(s, rangeSeeds[(i*5+1)%len(rangeSeeds)], int64(i)*86400)
	}
	f.Fuzz(func(t *testing.T, from, to string, sec int64) {
		const span = int64(50 * 365 * 24 * 3600)
		if sec < 0 {
			sec = -(sec + 1)
		}
		now := time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC).Add(time.Duration(sec%span) * time.Second)
		p, err := ParseCustom(from, to, now)
		if err != nil {
			if p != (Period{}) {
				t.Fatalf("%q, %q: %+v with an error", from, to, p)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, fromTitle+":") && !strings.HasPrefix(msg, toTitle+":") &&
				!strings.HasPrefix(msg, "the range ends") {
				t.Fatalf("%q, %q: the message names no field: %s", from, to, msg)
			}
			return
		}
		lo, hi := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2101, 1, 1, 0, 0, 0, 0, time.UTC)
		if p.To.Before(p.From) || p.Start().Before(lo) || p.End().After(hi) {
			t.Fatalf("%q, %q: %+v", from, to, p)
		}
		if !p.WithTime && (!p.From.Equal(dayOf(p.From)) || !p.To.Equal(dayOf(p.To))) {
			t.Fatalf("%q, %q: %+v: whole days must be midnights", from, to, p)
		}
		if d := p.Days(); d < 1 || d > 36890 {
			t.Fatalf("%q, %q: %d days", from, to, d)
		}
		if (p.Granularity() == Hourly) != (p.Length() <= HourlyLimit) {
			t.Fatalf("%q, %q: %v granularity for %v", from, to, p.Granularity(), p.Length())
		}
		name := ExportName(client.MetricOperatorResponseTimeFirst, p, export.CSV)
		if filepath.Base(name) != name || strings.ContainsAny(name, ` :\`) {
			t.Fatalf("%q, %q: export file name %q", from, to, name)
		}
		// The form shows the period again; read back, it is the same period.
		again, err := ParseCustom(FormatWhen(p.From, p.WithTime), FormatWhen(p.To, p.WithTime), now)
		if err != nil || again != p {
			t.Fatalf("%q, %q: %+v shown as %q–%q reads back as %+v, %v", from, to, p,
				FormatWhen(p.From, p.WithTime), FormatWhen(p.To, p.WithTime), again, err)
		}
	})
}

// The id fields of the analytics filters: every id accepted is positive and written back the
// same.
func FuzzParseIDs(f *testing.F) {
	for _, s := range []string{"", " 12, 15 20 ", "12 x", "1+2", "0", "-3", "+4", "\n", " \v ", "12\n15\r\n20",
		"7+8\u00a09", "9223372036854775807", "9223372036854775808", "١", "1,,2", strings.Repeat("9 ", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := ParseIDs(s)
		if err != nil {
			if ids != nil {
				t.Fatalf("%q: %v with an error", s, ids)
			}
			return
		}
		for _, id := range ids {
			if id <= 0 {
				t.Fatalf("%q: id %d", s, id)
			}
		}
		if len(ids) > (len(s)+1)/2 {
			t.Fatalf("%q: %d ids", s, len(ids))
		}
		back, err := ParseIDs(FormatIDs(ids))
		if err != nil || !slices.Equal(back, ids) {
			t.Fatalf("%q: %v shown as %q reads back as %v, %v", s, ids, FormatIDs(ids), back, err)
		}
	})
}
