package when

import (
	"errors"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The seeds run as regression tests in every `go test`; -fuzz explores from them.
var whenSeeds = []string{
	"", " ", "now", "NOW", "today", "yesterday", "Yesterday ", "tomorrow",
	"15m", "6h", "7d", "2w", "0d", "0h", "90m", "1h30m", "1.5h", "2w3d", "1d12h", "45s", "007d",
	"3000000h", "999999999999999999d", "99999999999w", "18446744073709551616d", "1000000w1h",
	"9999999999999999999.99999999999h", "1e9h", "-7d", "+7d", "7 d", "7days", "1ms", ".5h", "5.h",
	"2026-11-01", "2026-11-01 14:30", "2026-11-01T14:30", "2026-11-01t14:30:00z", "2026-11-01T08:30:00.5Z",
	"2026-11-01T08:30:00+01:00", "2026-11-01T08:30:00+0100", "2026-11-01T08:30:00+01", "2026-11-01 08:30:00",
	"1999-12-31", "2000-01-01", "2100-12-31T23:59:59.999999999Z", "2101-01-01", "0001-01-01T00:00:00Z",
	"9999-12-31T23:59:59-01:00", "2000-01-01T00:30:00+01:00", "2026-02-30", "2026-13-01", "2026-11-01T25:00",
	"\x1b[31m7d", "7d\x00", "\xff\xfe", "٣d", "７d", "2026-11-01\u00a014:30", strings.Repeat("9", 400) + "h",
	strings.Repeat("1h", 200),
}

// fuzzNow maps any number to a clock inside the accepted years.
func fuzzNow(sec int64) time.Time {
	const span = int64(100 * 365 * 24 * 3600)
	if sec < 0 {
		sec = -(sec + 1)
	}
	return time.Date(FirstYear, 6, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(sec%span) * time.Second)
}

// checkError holds for every error of the package: the input repeated is bounded and has no
// control character (it is shown in forms and on a terminal), and the forms are listed.
func checkError(t *testing.T, in string, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		return // ParseSpan's own messages (empty, reversed)
	}
	msg := err.Error()
	if !strings.Contains(msg, Forms) {
		t.Fatalf("%q: the message lists no forms: %s", in, msg)
	}
	if n := utf8.RuneCountInString(msg) - utf8.RuneCountInString(e.Field); n > 400 {
		t.Fatalf("%q: a message of %d characters", in, n)
	}
	for _, r := range msg {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			t.Fatalf("%q: the message carries the control character %U: %q", in, r, msg)
		}
	}
}

var simpleAge = regexp.MustCompile(`^([0-9]{1,6})([smhdw])$`)

func FuzzParse(f *testing.F) {
	for i, s := range whenSeeds {
		f.Add(s, int64(i)*7919*3600)
	}
	f.Fuzz(func(t *testing.T, s string, sec int64) {
		now := fuzzNow(sec)
		v, err := ParseValue(s, now)
		if err != nil {
			checkError(t, s, err)
			if v != (Value{}) {
				t.Fatalf("%q: %+v returned with an error", s, v)
			}
		} else {
			if (strings.TrimSpace(s) == "") != v.Time.IsZero() {
				t.Fatalf("%q: %+v; only an empty text is unset", s, v)
			}
			if !v.Time.IsZero() {
				if v.Time.Before(earliest) || !v.Time.Before(beyond) || v.Time.Location() != time.UTC {
					t.Fatalf("%q at %v: %v is outside %d–%d or not UTC", s, now, v.Time, FirstYear, LastYear)
				}
				if v.Date && (v.Clock || !v.Time.Equal(dayOf(v.Time))) {
					t.Fatalf("%q: %+v: a date is a midnight without a clock", s, v)
				}
				// What a form shows for it reads back to the minute.
				back, err := Parse(Format(v.Time), now)
				if err != nil || !back.Equal(v.Time.Truncate(time.Minute)) {
					t.Fatalf("%q: %v is shown as %q, which reads back as %v, %v", s, v.Time, Format(v.Time), back, err)
				}
			}
		}
		// A week later, a relative time moves by a week and an absolute one stays.
		later := now.AddDate(0, 0, 7)
		w, err2 := ParseValue(s, later)
		if err == nil && err2 == nil && !v.Time.IsZero() {
			if d := w.Time.Sub(v.Time); d != 0 && d != 7*24*time.Hour {
				t.Fatalf("%q: %v at %v but %v a week later", s, v.Time, now, w.Time)
			}
		}
		// A stored time reads as the same time typed.
		if st, serr := ParseStamp(s); serr == nil && (err != nil || !v.Time.Equal(st)) {
			t.Fatalf("%q: ParseStamp gives %v, ParseValue %v, %v", s, st, v.Time, err)
		}
		// A plain age is exactly that long before now.
		if m := simpleAge.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s))); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			unit := map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour, "w": 7 * 24 * time.Hour}[m[2]]
			inRange := n <= int64(now.Sub(earliest)/unit) // no product that could overflow
			if inRange != (err == nil) {
				t.Fatalf("%q at %v = %v, %v; in range: %v", s, now, v.Time, err, inRange)
			}
			if want := now.Add(-time.Duration(n) * unit); inRange && !v.Time.Equal(want) {
				t.Fatalf("%q at %v = %v; want %v", s, now, v.Time, want)
			}
		}
	})
}

func FuzzParseSpan(f *testing.F) {
	for i, s := range whenSeeds {
		f.Add(s, whenSeeds[(i*7+3)%len(whenSeeds)], int64(i)*86400)
	}
	f.Add("2026-11-19 08:00", "2026-11-20", int64(0))
	f.Add("7d", "today", int64(0))
	f.Add("2026-11-20", "2026-11-01", int64(0))
	f.Fuzz(func(t *testing.T, from, to string, sec int64) {
		now := fuzzNow(sec)
		sp, err := ParseSpan("From", from, "To", to, now)
		if err != nil {
			checkError(t, from+" / "+to, err)
			if sp != (Span{}) {
				t.Fatalf("%q, %q: %+v returned with an error", from, to, sp)
			}
			if len(err.Error()) > 1000 {
				t.Fatalf("a message of %d bytes", len(err.Error()))
			}
			return
		}
		if sp.To.Before(sp.From) {
			t.Fatalf("%q, %q: %+v ends before it starts", from, to, sp)
		}
		for _, x := range []time.Time{sp.From, sp.To} {
			if x.Before(earliest) || !x.Before(beyond) || x.Location() != time.UTC {
				t.Fatalf("%q, %q: %+v leaves %d–%d", from, to, sp, FirstYear, LastYear)
			}
			if sp.WithTime && !x.Equal(x.Truncate(time.Second)) {
				t.Fatalf("%q, %q: %+v is not to the second", from, to, sp)
			}
			if !sp.WithTime && !x.Equal(dayOf(x)) {
				t.Fatalf("%q, %q: %+v: whole days are midnights", from, to, sp)
			}
		}
		// Both ends parse on their own, and a day named at the end is included whole.
		fv, ferr := ParseValue(from, now)
		tv, terr := ParseValue(to, now)
		if ferr != nil || terr != nil || strings.TrimSpace(from) == "" || strings.TrimSpace(to) == "" {
			t.Fatalf("%q, %q: a span from ends that do not parse (%v, %v)", from, to, ferr, terr)
		}
		if sp.WithTime != (fv.Clock || tv.Clock) {
			t.Fatalf("%q, %q: WithTime %v", from, to, sp.WithTime)
		}
		if sp.WithTime && !tv.Clock && (sp.To.Hour() != 23 || sp.To.Minute() != 59 || sp.To.Second() != 59) {
			t.Fatalf("%q, %q: the end day is not included whole: %v", from, to, sp.To)
		}
	})
}

// The package is a leaf: the command line imports it without the screens, so it imports the
// standard library only (its tests may import more).
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "when.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range file.Imports {
		if path := strings.Trim(imp.Path.Value, `"`); strings.Contains(strings.Split(path, "/")[0], ".") {
			t.Errorf("when.go imports %s", path)
		}
	}
}
