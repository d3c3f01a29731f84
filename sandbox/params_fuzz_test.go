package sandbox

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/parley-tui/parley/client"
)

// The seeds run as regression tests in every `go test`; -fuzz explores from them.

// parseTimestamp: what it accepts is one instant in UTC (a date: its midnight) that reads
// back the same, and every timestamp the client sends is accepted as that instant.
func FuzzParseTimestamp(f *testing.F) {
	for _, s := range []string{"2026-11-01", "2026-11-01T10:00:00Z", "2026-11-01T10:00:00.123456Z", "2026-11-01T10:00:00+01:00",
		"2026-11-01T10:00:00+0100", "2026-11-01T10:00:00+01", "2026-11-01T10:00:00 01:00", "2026-11-01T10:00 0130",
		"2026-11-01 10:00", "2026-11-01 10:00:00+01:00", "2026-11-01T10:00", "2026-02-30", "tomorrow", "0001-01-01T00:00:00Z",
		"9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59-23:59", "0000-01-01T00:00:00+23:59", "-0001-01-01", " 2026-11-01 "} {
		f.Add(s, int64(0))
	}
	f.Add("", int64(1798000000123456))
	f.Add("", int64(-62135596800000000))
	f.Fuzz(func(t *testing.T, v string, micros int64) {
		tm, dateOnly, err := parseTimestamp(v)
		if err == nil {
			if tm.Location() != time.UTC {
				t.Fatalf("%q: %v is not UTC", v, tm)
			}
			if dateOnly && !tm.Equal(tm.Truncate(24*time.Hour)) {
				t.Fatalf("%q: a date at %v", v, tm)
			}
			if y := tm.Year(); y >= 1 && y <= 9999 {
				back, _, err := parseTimestamp(tm.Format("2006-01-02T15:04:05.999999999Z07:00"))
				if err != nil || !back.Equal(tm) {
					t.Fatalf("%q: %v reads back as %v, %v", v, tm, back, err)
				}
			}
		}
		// What the client sends for a time in range.
		lo, hi := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(), time.Date(9999, 12, 31, 23, 59, 59, 999999, time.UTC).UnixMicro()
		m := micros % (hi - lo)
		if m < 0 {
			m += hi - lo
		}
		want := time.UnixMicro(lo + m).UTC()
		if want.IsZero() {
			return // the client sends no filter for the zero time
		}
		sent := client.ConversationFilter{UpdatedAtFromDate: want}.Values().Get("updated_at_from_date")
		got, _, err := parseTimestamp(sent)
		if err != nil || !got.Equal(want) {
			t.Fatalf("the client sends %v as %q; the sandbox reads %v, %v", want, sent, got, err)
		}
	})
}

var ftsTerm = regexp.MustCompile(`"(?:[^"]|"")*"\*`)

// ftsQuery: search text becomes at most maxSearchKeywords quoted prefix terms joined by OR,
// never FTS5 syntax, with no control characters.
func FuzzFTSQuery(f *testing.F) {
	for _, s := range []string{"berlin", "an berlin", `"`, `a"b"c`, `NEAR(a b)`, `a AND`, `OR OR`, `*`, "name:foo", "\x00", "\x1b[2J",
		"ab\xffcd", "😀", "中文", strings.Repeat("x ", 100), "a+b+c", "x\u0301", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := ftsQuery(s)
		if q == "" {
			return
		}
		terms := ftsTerm.FindAllString(q, -1)
		if strings.Join(terms, " OR ") != q {
			t.Fatalf("%q: %q is not quoted prefix terms joined by OR", s, q)
		}
		if len(terms) > maxSearchKeywords {
			t.Fatalf("%q: %d terms", s, len(terms))
		}
		for _, term := range terms {
			if strings.ContainsFunc(term, func(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar }) {
				t.Fatalf("%q: term %q carries a control character", s, term)
			}
			inner := strings.ReplaceAll(term[1:len(term)-2], `""`, `"`)
			if !strings.ContainsFunc(inner, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
				t.Fatalf("%q: term %q has no letter or digit", s, term)
			}
		}
	})
}
