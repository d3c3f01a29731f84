package cli

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/when"
)

// The seeds run as regression tests in every `go test`; -fuzz explores from them.

var fuzzNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

var timeSeeds = []string{"", "7d", "0d", "12h", "90m", " 1h30m ", "2w", "now", "today", "yesterday", "2026-03-01",
	"2026-03-01T08:30:00", "2026-03-01 08:30", "2026-03-01T08:30:00.5Z", "2026-03-01T08:30:00+01:00", "last week",
	"3000000h", "999999999999999999d", "99999999999w", "1999-12-31", "2101-01-01", "-7d", "2026-13-01", "\x1b[2J"}

var (
	earliest = time.Date(when.FirstYear, 1, 1, 0, 0, 0, 0, time.UTC)
	beyond   = time.Date(when.LastYear+1, 1, 1, 0, 0, 0, 0, time.UTC)
)

func inRange(t time.Time) bool { return !t.Before(earliest) && t.Before(beyond) }

// The conversation filter flags: every problem names its flag; what is accepted is in range,
// an upper bound given as a day covers the whole day, and every filter set goes into the
// query exactly.
func FuzzConversationFilterFlags(f *testing.F) {
	for i, s := range timeSeeds {
		f.Add([]string{"", "new", "Pending", "ENDED", "closed", "on-hold", "new status", "\x1b", "ñ"}[i%9], s, timeSeeds[(i*5+2)%len(timeSeeds)], uint8(i))
	}
	f.Fuzz(func(t *testing.T, status, from, to string, which uint8) {
		names := [][2]string{{"first-message-from", "first-message-to"}, {"last-message-from", "last-message-to"},
			{"updated-from", "updated-to"}, {"activity-from", "activity-to"}}[which%4]
		fl := conversationFlags(t, "--status="+status, "--"+names[0]+"="+from, "--"+names[1]+"="+to)
		warned := ""
		got, err := fl.filter(fuzzNow, func(s string) { warned = s })
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "--status ") && !strings.HasPrefix(msg, "--"+names[0]+": ") && !strings.HasPrefix(msg, "--"+names[1]+": ") {
				t.Fatalf("%q %q %q: the message names no flag: %s", status, from, to, msg)
			}
			return
		}
		st := strings.TrimSpace(status)
		switch {
		case st == "":
			if got.Status != "" {
				t.Fatalf("status %q sent for %q", got.Status, status)
			}
		case slices.Contains([]string{"new", "pending", "ended"}, strings.ToLower(st)):
			if got.Status != strings.ToLower(st) || warned != "" {
				t.Fatalf("status %q → %q (warning %q)", status, got.Status, warned)
			}
		default:
			if got.Status != st || !enumWord.MatchString(st) || !strings.HasPrefix(warned, "--status ") {
				t.Fatalf("status %q → %q (warning %q)", status, got.Status, warned)
			}
		}
		times := [][2]time.Time{{got.ContactFirstMessageFromDate, got.ContactFirstMessageToDate},
			{got.ContactLastMessageFromDate, got.ContactLastMessageToDate},
			{got.UpdatedAtFromDate, got.UpdatedAtToDate}, {got.LastActivityFromDate, got.LastActivityToDate}}[which%4]
		q := got.Values()
		keys := [][2]string{{"contact_first_message_from_date", "contact_first_message_to_date"},
			{"contact_last_message_from_date", "contact_last_message_to_date"},
			{"updated_at_from_date", "updated_at_to_date"}, {"last_activity_from_date", "last_activity_to_date"}}[which%4]
		for i, in := range []string{from, to} {
			v, err := when.ParseValue(in, fuzzNow)
			if err != nil {
				t.Fatalf("%q accepted by the flag, refused by when: %v", in, err)
			}
			want := v.Time
			if i == 1 && v.Date {
				want = want.AddDate(0, 0, 1).Add(-time.Microsecond)
			}
			if !times[i].Equal(want) || (!want.IsZero() && !inRange(want)) {
				t.Fatalf("--%s %q = %v, want %v in range", names[i], in, times[i], want)
			}
			// The query carries it, to the microsecond, and nothing else for it.
			sent := q.Get(keys[i])
			if want.IsZero() {
				if sent != "" {
					t.Fatalf("%s=%q sent for an empty flag", keys[i], sent)
				}
				continue
			}
			back, err := client.ParseTime(sent)
			if err != nil || !back.Equal(want.Truncate(time.Microsecond)) {
				t.Fatalf("%s=%q reads back as %v, %v; want %v", keys[i], sent, back, err, want)
			}
		}
		if got.Status != "" && q.Get("status") != got.Status {
			t.Fatalf("status=%q sent for %q", q.Get("status"), got.Status)
		}
	})
}

// The analytics range flags read as the analytics screen's custom range, and the requests
// they make cover the range exactly, in windows the API accepts.
func FuzzParseRange(f *testing.F) {
	for i, s := range timeSeeds {
		f.Add(s, timeSeeds[(i*7+3)%len(timeSeeds)])
	}
	f.Add("2026-01-01", "2026-12-31")
	f.Add("2000-01-01", "2100-12-31")
	f.Add("2026-01-01T10:00:00", "2026-06-01")
	f.Fuzz(func(t *testing.T, from, to string) {
		ft, tt, withTime, err := parseRange(from, to, fuzzNow)
		p, perr := analytics.ParseCustom(from, to, fuzzNow)
		if (err == nil) != (perr == nil) {
			t.Fatalf("%q, %q: the command line says %v, the screen %v", from, to, err, perr)
		}
		if err != nil {
			return
		}
		if !ft.Equal(p.From) || !tt.Equal(p.To) || withTime != p.WithTime {
			t.Fatalf("%q, %q: the command line reads %v–%v (%v), the screen %+v", from, to, ft, tt, withTime, p)
		}
		if tt.Before(ft) || !inRange(ft) || !inRange(tt) {
			t.Fatalf("%q, %q: %v–%v", from, to, ft, tt)
		}
		q := client.AnalyticsQuery{Metric: "um_conversation_duration", From: ft, To: tt, WithTime: withTime}
		if err := q.Validate(); err != nil {
			t.Fatalf("%q, %q: %v", from, to, err)
		}
		ws := q.Windows()
		if len(ws) == 0 || len(ws) > 400 {
			t.Fatalf("%q, %q: %d windows", from, to, len(ws))
		}
		if !ws[0].From.Equal(ft) || !ws[len(ws)-1].To.Equal(tt) {
			t.Fatalf("%q, %q: windows %v..%v, want %v..%v", from, to, ws[0].From, ws[len(ws)-1].To, ft, tt)
		}
		for i, w := range ws {
			if w.To.Before(w.From) || w.WithTime != withTime {
				t.Fatalf("%q, %q: window %d is %+v", from, to, i, w)
			}
			days := int(dayOf(w.To).Sub(dayOf(w.From))/(24*time.Hour)) + 1
			if days > client.MaxAnalyticsDays {
				t.Fatalf("%q, %q: window %d touches %d days", from, to, i, days)
			}
			if i > 0 {
				step := time.Second
				if !withTime {
					step = 24 * time.Hour
				}
				if !ws[i-1].To.Add(step).Equal(w.From) {
					t.Fatalf("%q, %q: a gap or overlap between windows %d and %d: %v, %v", from, to, i-1, i, ws[i-1].To, w.From)
				}
			}
		}
	})
}

func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Id lists: what is accepted is every id written, positive, and reads back the same; the
// command line and the analytics screen read a list the same way.
func FuzzParseIDList(f *testing.F) {
	for _, s := range []string{"", "1", "1,2,3", "1 2\t3", " 7 , 8 ,, 9 ", "1+2", "0", "-1", "+5", "007", "1.5", "a",
		"9223372036854775807", "9223372036854775808", "1\n2", "1\u00a02", "1,\x00", "١٢", strings.Repeat("1,", 500)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := parseIDList(s)
		aids, aerr := analytics.ParseIDs(s)
		if (err == nil) != (aerr == nil) || !slices.Equal(ids, aids) {
			t.Fatalf("%q: the command line reads %v, %v; the analytics screen %v, %v", s, ids, err, aids, aerr)
		}
		if err != nil {
			if ids != nil {
				t.Fatalf("%q: %v with an error", s, ids)
			}
			return
		}
		if len(ids) > len(s) {
			t.Fatalf("%q: %d ids", s, len(ids))
		}
		parts := make([]string, len(ids))
		for i, id := range ids {
			if id <= 0 {
				t.Fatalf("%q: id %d", s, id)
			}
			parts[i] = strconv.FormatInt(id, 10)
		}
		back, err := parseIDList(strings.Join(parts, ","))
		if err != nil || !slices.Equal(back, ids) {
			t.Fatalf("%q: %v written back reads %v, %v", s, ids, back, err)
		}
	})
}
