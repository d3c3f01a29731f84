// Package when is parley's one reader of dates and times given as text: the filter forms,
// the analytics custom range and the command-line flags read what people type with Parse,
// and saved views and the config file read what they hold with ParseStamp (the same shapes
// without the words and ages, so a stored time means the same on every day it is read). It
// imports nothing but the standard library, so the client and the command line can use it
// without pulling in the screens.
//
// Accepted (case does not matter, spaces around are ignored):
//   - "" (not set), "now", "today", "yesterday";
//   - an age before now: a number and a unit, w (weeks), d (days), h (hours), m (minutes) or
//     s (seconds), several in a row ("1h30m", "2w3d") and with a fraction ("1.5h");
//   - a date "2026-11-01" (UTC midnight), a date and time "2026-11-01 14:30";
//   - ISO 8601 with or without seconds, fraction and zone (no zone means UTC).
//
// Every time outside the years FirstYear to LastYear is refused, and an age is measured
// before it is multiplied, so no number typed can overflow into another century.
package when

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The years a typed time may fall in.
const (
	FirstYear = 2000
	LastYear  = 2100
)

var (
	earliest = time.Date(FirstYear, 1, 1, 0, 0, 0, 0, time.UTC)
	beyond   = time.Date(LastYear+1, 1, 1, 0, 0, 0, 0, time.UTC) // the first instant too late
)

// InRange reports whether t falls in the years FirstYear to LastYear, as every typed time
// must (a time read back from a file is held to the same).
func InRange(t time.Time) bool { return !t.Before(earliest) && t.Before(beyond) }

// Forms names what may be typed, for messages and help texts.
const Forms = "a date (2026-11-01), a date and time (2026-11-01 14:30), ISO 8601, or an age like 6h, 7d, 2w"

// StampForms names what ParseStamp reads, for messages.
const StampForms = "a date (2026-11-01) or ISO 8601 (2026-11-01T09:00:00Z)"

// maxAge is longer than the whole accepted range whatever the clock says, and far from
// overflowing a time.Duration: a longer age is too far back without computing it.
const maxAge = 200 * 366 * 24 * time.Hour

// maxQuoted bounds how much of the input a message repeats.
const maxQuoted = 40

// Value is a typed time and what the text named.
type Value struct {
	// Time is in UTC; zero when the text was empty.
	Time time.Time
	// Date: the text named a calendar day alone (a date, "today", "yesterday"); Time is its
	// midnight.
	Date bool
	// Clock: the text named a time of day ("now", a date and time, an ISO 8601 timestamp, an
	// age with hours, minutes or seconds). An age in whole days or weeks is neither a Date
	// nor a Clock.
	Clock bool
}

// Error is a typed time that cannot be used.
type Error struct {
	// Field names the field or flag, when the caller gave one.
	Field string
	// Input is the text as typed, without the spaces around it.
	Input string
	// Problem says what is wrong: "is not a date, a time or an age", "is too far back
	// (before 2000)", …
	Problem string
	// stamp: the text was read by ParseStamp, which takes fewer forms.
	stamp bool
}

func (e *Error) Error() string {
	forms := Forms
	if e.stamp {
		forms = StampForms
	}
	msg := quote(e.Input) + " " + e.Problem + "; use " + forms
	if e.Field != "" {
		return e.Field + ": " + msg
	}
	return msg
}

// quote repeats the input in a message: quoted, escaped and cut to maxQuoted runes.
func quote(s string) string {
	if utf8.RuneCountInString(s) > maxQuoted {
		n := 0
		for i := range s {
			if n == maxQuoted {
				s = s[:i]
				break
			}
			n++
		}
		return fmt.Sprintf("%q…", s)
	}
	return fmt.Sprintf("%q", s)
}

// Parse reads a typed time at now (see the package comment). "" gives the zero time and no
// error.
func Parse(s string, now time.Time) (time.Time, error) {
	v, err := ParseValue(s, now)
	return v.Time, err
}

// ParseField is ParseValue with the field's name (a form field's title, a flag) at the start
// of its errors.
func ParseField(field, s string, now time.Time) (Value, error) {
	v, err := ParseValue(s, now)
	if e, ok := err.(*Error); ok {
		e.Field = field
	}
	return v, err
}

// ParseValue reads a typed time at now and says whether it named a day or a time of day.
func ParseValue(s string, now time.Time) (Value, error) { return parse(s, now, false) }

// ParseStamp reads a stored time: a date (its UTC midnight) or an ISO 8601 timestamp, in
// the years FirstYear to LastYear. Words and ages are refused: they would mean another
// time on another day; so is "", a time that is not there.
func ParseStamp(s string) (time.Time, error) {
	if strings.TrimSpace(s) == "" {
		return time.Time{}, &Error{Input: s, Problem: "is not a date or a time", stamp: true}
	}
	v, err := parse(s, time.Time{}, true)
	return v.Time, err
}

// parse reads s at now; stamp refuses the words and ages.
func parse(s string, now time.Time, stamp bool) (Value, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return Value{}, nil
	}
	low := strings.ToLower(in)
	now = now.UTC()
	var v Value
	switch {
	case stamp:
		t, date, ok := parseTimestamp(strings.ToUpper(in))
		if !ok {
			return Value{}, &Error{Input: in, Problem: "is not a date or a time", stamp: true}
		}
		v = Value{Time: t, Date: date, Clock: !date}
	case low == "now":
		v = Value{Time: now, Clock: true}
	case low == "today":
		v = Value{Time: dayOf(now), Date: true}
	case low == "yesterday":
		v = Value{Time: dayOf(now).AddDate(0, 0, -1), Date: true}
	default:
		if age, clock, ok, tooLong := parseAge(low); ok {
			if tooLong {
				return Value{}, &Error{Input: in, Problem: tooFarBack}
			}
			v = Value{Time: now.Add(-age), Clock: clock}
		} else if t, date, ok := parseTimestamp(strings.ToUpper(in)); ok {
			v = Value{Time: t, Date: date, Clock: !date}
		} else {
			return Value{}, &Error{Input: in, Problem: "is not a date, a time or an age"}
		}
	}
	if v.Time.Before(earliest) {
		return Value{}, &Error{Input: in, Problem: tooFarBack, stamp: stamp}
	}
	if !v.Time.Before(beyond) {
		return Value{}, &Error{Input: in, Problem: fmt.Sprintf("is too far ahead (after %d)", LastYear), stamp: stamp}
	}
	return v, nil
}

var tooFarBack = fmt.Sprintf("is too far back (before %d)", FirstYear)

// units are the units of an age, longest name first where one is the start of another.
var units = []struct {
	name string
	size time.Duration
}{
	{"w", 7 * 24 * time.Hour},
	{"d", 24 * time.Hour},
	{"h", time.Hour},
	{"m", time.Minute},
	{"s", time.Second},
}

// parseAge reads an age such as "7d", "90m", "1h30m" or "1.5h" (in lower case). ok is false
// when s is not an age at all; tooLong when it is one longer than maxAge, which is then not
// computed. clock reports a unit shorter than a day. No arithmetic here can overflow: every
// product is checked against maxAge before it is made.
func parseAge(s string) (age time.Duration, clock, ok, tooLong bool) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false, false, false
	}
	for s != "" {
		// The whole part.
		i := 0
		var whole uint64
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if whole <= uint64(maxAge)/10 {
				whole = whole*10 + uint64(s[i]-'0')
			} else {
				whole = uint64(maxAge) + 1 // too long already: only the digits still matter
			}
			i++
		}
		digits := i
		// The fraction: up to 9 digits count (nanoseconds of an hour are already far below
		// anything a filter can tell apart); more are read and ignored.
		var frac, scale uint64 = 0, 1
		if i < len(s) && s[i] == '.' {
			i++
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				if scale < 1e9 {
					frac = frac*10 + uint64(s[i]-'0')
					scale *= 10
				}
				digits++
				i++
			}
		}
		if digits == 0 {
			return 0, false, false, false
		}
		s = s[i:]
		var size time.Duration
		for _, u := range units {
			if strings.HasPrefix(s, u.name) {
				size = u.size
				s = s[len(u.name):]
				break
			}
		}
		if size == 0 {
			return 0, false, false, false
		}
		if size < 24*time.Hour {
			clock = true
		}
		if tooLong {
			continue // the rest must still be an age
		}
		if whole > uint64(maxAge/size) {
			tooLong = true
			continue
		}
		part := time.Duration(whole)*size + time.Duration(float64(frac)*(float64(size)/float64(scale)))
		if part > maxAge-age {
			tooLong = true
			continue
		}
		age += part
	}
	return age, clock, true, tooLong
}

// isoLayouts are the ISO 8601 shapes of the API's timestamps (ParseISO).
var isoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02T15:04:05.999999999Z07", // an offset of whole hours: +01
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02T15:04Z07",
}

// formLayouts are the "2026-11-01 14:30" of the forms, read after the ISO 8601 shapes.
var formLayouts = []string{
	"2006-01-02 15:04",
	"2006-01-02 15:04Z07:00",
}

// ParseISO reads s in one of the ISO 8601 shapes of the API's timestamps, with or without
// seconds, fraction and zone (no zone means UTC); the time is in UTC. It is what
// client.ParseTime reads API timestamps with; it checks no range.
func ParseISO(s string) (time.Time, bool) { return parseFirst(isoLayouts, s) }

// parseFirst reads s in the first of layouts that fits, in UTC.
func parseFirst(layouts []string, s string) (time.Time, bool) {
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// parseTimestamp reads a date or an ISO 8601 timestamp (the input upper-cased); date
// reports a date alone.
func parseTimestamp(s string) (t time.Time, date, ok bool) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true, true
	}
	if t, ok := ParseISO(s); ok {
		return t, false, true
	}
	t, ok = parseFirst(formLayouts, s)
	return t, false, ok
}

func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Format shows a time for editing in a form: "" for zero, a date for midnight, else a date
// and time to the minute (UTC). Parse reads it back.
func Format(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format("2006-01-02 15:04")
}

// Span is a range typed as a start and an end, both included: whole days (From and To are
// UTC midnights) unless WithTime, then instants to the second.
type Span struct {
	From, To time.Time
	WithTime bool
}

// ParseSpan reads a range from two typed times, both required. When either end names a time
// of day the span uses times: a day at the start then means its first second, at the end its
// last second. Otherwise it is whole days (an age counts from the day it falls on). fromField
// and toField name the two fields in errors. The end must not come before the start.
func ParseSpan(fromField, from, toField, to string, now time.Time) (Span, error) {
	for _, x := range []struct{ field, s string }{{fromField, from}, {toField, to}} {
		if strings.TrimSpace(x.s) == "" {
			return Span{}, fmt.Errorf("%s: empty; give a start and an end, each %s", x.field, Forms)
		}
	}
	f, err := ParseField(fromField, from, now)
	if err != nil {
		return Span{}, err
	}
	t, err := ParseField(toField, to, now)
	if err != nil {
		return Span{}, err
	}
	sp := Span{From: dayOf(f.Time), To: dayOf(t.Time), WithTime: f.Clock || t.Clock}
	layout := time.DateOnly
	if sp.WithTime {
		layout = "2006-01-02 15:04:05"
		if f.Clock {
			sp.From = f.Time.Truncate(time.Second)
		}
		if t.Clock {
			sp.To = t.Time.Truncate(time.Second)
		} else {
			sp.To = sp.To.AddDate(0, 0, 1).Add(-time.Second)
		}
	}
	if sp.To.Before(sp.From) {
		return Span{}, fmt.Errorf("the range ends (%s) before it starts (%s)", sp.To.Format(layout), sp.From.Format(layout))
	}
	return sp, nil
}
