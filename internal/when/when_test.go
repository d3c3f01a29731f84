package when

import (
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Every form the filter forms and the command line accepted before still reads the same.
func TestParseForms(t *testing.T) {
	for _, c := range []struct {
		in          string
		want        time.Time
		date, clock bool
	}{
		{"", time.Time{}, false, false},
		{"   ", time.Time{}, false, false},
		{"now", now, false, true},
		{"NOW", now, false, true},
		{"today", at("2026-11-20T00:00:00Z"), true, false},
		{" Yesterday ", at("2026-11-19T00:00:00Z"), true, false},
		{"15m", at("2026-11-20T14:49:05Z"), false, true},
		{"6h", at("2026-11-20T09:04:05Z"), false, true},
		{"6H", at("2026-11-20T09:04:05Z"), false, true},
		{"0h", now, false, true},
		{"7d", at("2026-11-13T15:04:05Z"), false, false},
		{"0d", now, false, false},
		{"2w", at("2026-11-06T15:04:05Z"), false, false},
		{"90m", at("2026-11-20T13:34:05Z"), false, true},
		{" 1h30m ", at("2026-11-20T13:34:05Z"), false, true},
		{"1.5h", at("2026-11-20T13:34:05Z"), false, true},
		{"1d12h", at("2026-11-19T03:04:05Z"), false, true},
		{"2w3d", at("2026-11-03T15:04:05Z"), false, false},
		{"45s", at("2026-11-20T15:03:20Z"), false, true},
		{"007d", at("2026-11-13T15:04:05Z"), false, false},
		{"2026-11-01", at("2026-11-01T00:00:00Z"), true, false},
		{"2026-11-01 14:30", at("2026-11-01T14:30:00Z"), false, true},
		{"2026-11-01T14:30", at("2026-11-01T14:30:00Z"), false, true},
		{"2026-11-01t14:30:00z", at("2026-11-01T14:30:00Z"), false, true},
		{"2026-11-01T08:30:00", at("2026-11-01T08:30:00Z"), false, true},
		{"2026-11-01T08:30:00.5Z", at("2026-11-01T08:30:00.5Z"), false, true},
		{"2026-11-01T08:30:00+01:00", at("2026-11-01T07:30:00Z"), false, true},
		{"2026-11-01T08:30:00+0100", at("2026-11-01T07:30:00Z"), false, true},
		{"2026-11-01T08:30:00+01", at("2026-11-01T07:30:00Z"), false, true},
		{"2026-11-01 08:30:00", at("2026-11-01T08:30:00Z"), false, true},
		{"2000-01-01", at("2000-01-01T00:00:00Z"), true, false},
		{"2100-12-31T23:59:59.999999999Z", at("2100-12-31T23:59:59.999999999Z"), false, true},
	} {
		v, err := ParseValue(c.in, now)
		if err != nil || !v.Time.Equal(c.want) || v.Date != c.date || v.Clock != c.clock {
			t.Errorf("ParseValue(%q) = %+v, %v; want %v date=%v clock=%v", c.in, v, err, c.want, c.date, c.clock)
		}
		if err == nil && !v.Time.IsZero() && v.Time.Location() != time.UTC {
			t.Errorf("ParseValue(%q) is in %v, not UTC", c.in, v.Time.Location())
		}
	}
}

// A clock in another zone reads the same instants, in UTC.
func TestParseNowInAnotherZone(t *testing.T) {
	local := now.In(time.FixedZone("X", -10*3600)) // still the 20th in UTC, the 20th 05:04 there
	got, err := Parse("yesterday", local)
	if err != nil || !got.Equal(at("2026-11-19T00:00:00Z")) || got.Location() != time.UTC {
		t.Errorf("yesterday = %v, %v", got, err)
	}
	got, err = Parse("6h", local)
	if err != nil || !got.Equal(at("2026-11-20T09:04:05Z")) || got.Location() != time.UTC {
		t.Errorf("6h = %v, %v", got, err)
	}
}

// Ages and dates outside 2000–2100 are refused, whatever their size, and no age overflows
// into another century (3000000h used to be year 2269, 99999999999w a negative year).
func TestParseOutOfRange(t *testing.T) {
	for in, problem := range map[string]string{
		"3000000h":                         "too far back (before 2000)",
		"999999999999999999d":              "too far back (before 2000)",
		"99999999999w":                     "too far back (before 2000)",
		"18446744073709551616d":            "too far back (before 2000)",
		"99999999999999999999999999999m":   "too far back (before 2000)",
		"9999999999999999999.99999999999h": "too far back (before 2000)",
		"1000000w1h":                       "too far back (before 2000)",
		"1h1000000w":                       "too far back (before 2000)",
		"27y":                              "is not a date, a time or an age",
		"9900d":                            "too far back (before 2000)",
		"1999-12-31":                       "too far back (before 2000)",
		"1999-12-31T23:59:59.999Z":         "too far back (before 2000)",
		"2000-01-01T00:30:00+01:00":        "too far back (before 2000)",
		"2101-01-01":                       "too far ahead (after 2100)",
		"2100-12-31T23:30:00-01:00":        "too far ahead (after 2100)",
		"9999-12-31":                       "too far ahead (after 2100)",
		"0001-01-01T00:00:00Z":             "too far back (before 2000)",
	} {
		got, err := Parse(in, now)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, got)
			continue
		}
		if !strings.Contains(err.Error(), problem) || !strings.HasSuffix(err.Error(), "; use "+Forms) {
			t.Errorf("Parse(%q): %v; want %q and the accepted forms", in, err, problem)
		}
		if !got.IsZero() {
			t.Errorf("Parse(%q) returned %v with its error", in, got)
		}
	}
	// The edge: 9820 days before now is still 2000, a day more is not.
	got, err := Parse("9820d", now)
	if err != nil || !got.Equal(at("2000-01-01T15:04:05Z")) {
		t.Errorf("9820d = %v, %v", got, err)
	}
	if got, err := Parse("9821d", now); err == nil {
		t.Errorf("9821d = %v", got)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, in := range []string{"0", "7", "d", "h7", "-7d", "+7d", "7days", "7 d", "1.5.5h", ".5h", "7dd", "1h-30m",
		"last week", "2026-13-01", "2026-02-30", "2026-11-01 25:00", "2026/11/01", "1ms", "tomorrow", "nowish", "2026-11-01T"} {
		if got, err := Parse(in, now); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, got)
		} else if !strings.Contains(err.Error(), "is not a date, a time or an age") {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

// The message names the field, repeats the input (escaped and cut) and lists the forms.
func TestErrorText(t *testing.T) {
	_, err := ParseField("--updated-from", "3000000h", now)
	want := `--updated-from: "3000000h" is too far back (before 2000); use a date (2026-11-01), a date and time (2026-11-01 14:30), ISO 8601, or an age like 6h, 7d, 2w`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	_, err = ParseField("Updated after", "\x1b[31m"+strings.Repeat("x", 500), now)
	if err == nil || strings.Contains(err.Error(), "\x1b") || len(err.Error()) > 300 || !strings.HasPrefix(err.Error(), `Updated after: "\x1b[31mxxx`) {
		t.Errorf("long hostile input: %q", err)
	}
}

func TestFormatReadsBack(t *testing.T) {
	for _, tm := range []time.Time{at("2026-11-01T00:00:00Z"), at("2026-11-01T14:30:00Z"), at("2026-11-01T14:30:59Z").In(time.FixedZone("X", 3600))} {
		s := Format(tm)
		got, err := Parse(s, now)
		if err != nil || !got.Equal(tm.Truncate(time.Minute)) {
			t.Errorf("Format(%v) = %q reads back as %v, %v", tm, s, got, err)
		}
	}
	if Format(time.Time{}) != "" {
		t.Error("zero is not empty")
	}
}

func TestParseSpan(t *testing.T) {
	for _, c := range []struct {
		from, to string
		want     Span
	}{
		{"2026-07-23", "2026-11-20", Span{From: at("2026-07-23T00:00:00Z"), To: at("2026-11-20T00:00:00Z")}},
		{"2026-11-19 08:00", "2026-11-20", Span{From: at("2026-11-19T08:00:00Z"), To: at("2026-11-20T23:59:59Z"), WithTime: true}},
		{"2026-11-19", "2026-11-20T10:00:00.75Z", Span{From: at("2026-11-19T00:00:00Z"), To: at("2026-11-20T10:00:00Z"), WithTime: true}},
		{"7d", "today", Span{From: at("2026-11-13T00:00:00Z"), To: at("2026-11-20T00:00:00Z")}},
		{"6h", "now", Span{From: at("2026-11-20T09:04:05Z"), To: now, WithTime: true}},
		{"2026-11-20", "2026-11-20", Span{From: at("2026-11-20T00:00:00Z"), To: at("2026-11-20T00:00:00Z")}},
	} {
		got, err := ParseSpan("from", c.from, "to", c.to, now)
		if err != nil || got != c.want {
			t.Errorf("ParseSpan(%q, %q) = %+v, %v; want %+v", c.from, c.to, got, err, c.want)
		}
	}
	for _, c := range []struct{ from, to, want string }{
		{"2026-11-20", "2026-11-01", "the range ends (2026-11-01) before it starts (2026-11-20)"},
		{"2026-11-20 10:00", "2026-11-20 09:00", "the range ends (2026-11-20 09:00:00) before it starts (2026-11-20 10:00:00)"},
		{"", "2026-11-01", "from: empty"},
		{"2026-11-01", " ", "to: empty"},
		{"soon", "2026-11-01", `from: "soon" is not`},
		{"2026-11-01", "99999999999w", `to: "99999999999w" is too far back`},
	} {
		if _, err := ParseSpan("from", c.from, "to", c.to, now); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseSpan(%q, %q): %v; want %q", c.from, c.to, err, c.want)
		}
	}
}

// A stored time (a saved view, the config file) is a date or an ISO 8601 timestamp, read
// alike on every day: the words and ages people type are refused, and so is a time outside
// the years the typed ones may fall in.
func TestParseStamp(t *testing.T) {
	for in, want := range map[string]time.Time{
		"2026-03-01":                  at("2026-03-01T00:00:00Z"),
		" 2026-03-01T09:00:00Z ":      at("2026-03-01T09:00:00Z"),
		"2026-03-01T09:00:00.123456Z": at("2026-03-01T09:00:00.123456Z"),
		"2026-03-01T09:00:00+01:00":   at("2026-03-01T08:00:00Z"),
		"2026-03-01t09:00:00z":        at("2026-03-01T09:00:00Z"),
		"2026-03-01 09:00":            at("2026-03-01T09:00:00Z"),
		"2100-12-31T23:59:59.999999Z": at("2100-12-31T23:59:59.999999Z"),
	} {
		got, err := ParseStamp(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseStamp(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":           `"" is not a date or a time; use ` + StampForms,
		"today":      `"today" is not a date or a time; use ` + StampForms,
		"7d":         `"7d" is not a date or a time; use ` + StampForms,
		"now":        `"now" is not a date or a time; use ` + StampForms,
		"2026-13-01": `"2026-13-01" is not a date or a time; use ` + StampForms,
		"1999-12-31": `"1999-12-31" is too far back (before 2000); use ` + StampForms,
		"2101-01-01": `"2101-01-01" is too far ahead (after 2100); use ` + StampForms,
	} {
		if got, err := ParseStamp(in); err == nil || err.Error() != want {
			t.Errorf("ParseStamp(%q) = %v, %v; want the error %s", in, got, err, want)
		}
	}
}
