package client

import (
	"encoding/binary"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The query builders turn filters and options into url.Values. Whatever the values hold
// (&, =, #, %, line breaks, invalid UTF-8), the encoded query decodes back to exactly the
// values set: every value encoded, nothing injected, nothing else sent.

// fuzzTime maps a number to a time the API can be sent (ISO 8601 has four-digit years), or
// zero (unset) for 0.
func fuzzTime(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	lo := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	hi := time.Date(9999, 12, 31, 23, 59, 59, 999999, time.UTC).UnixMicro()
	m := n % (hi - lo)
	if m < 0 {
		m += hi - lo
	}
	return time.UnixMicro(lo + m).UTC()
}

// decode encodes q as a request would and parses it again, as a server does.
func decode(t *testing.T, q url.Values) url.Values {
	t.Helper()
	enc := q.Encode()
	if strings.ContainsAny(enc, " \n\r\t#") {
		t.Fatalf("the query %q has characters a URL cannot carry", enc)
	}
	back, err := url.ParseQuery(enc)
	if err != nil {
		t.Fatalf("the query %q does not parse: %v", enc, err)
	}
	return back
}

// expect checks that got holds exactly want: the same keys, one value each.
func expect(t *testing.T, got url.Values, want map[string]string) {
	t.Helper()
	for k, vs := range got {
		w, ok := want[k]
		if !ok || len(vs) != 1 || vs[0] != w {
			t.Fatalf("%s=%q sent; want %q (set: %v)", k, vs, w, ok)
		}
	}
	for k, w := range want {
		if _, ok := got[k]; !ok {
			t.Fatalf("%s=%q is missing", k, w)
		}
	}
}

func FuzzConversationFilterValues(f *testing.F) {
	f.Add("268e9e51-e1f0-4244-944e-6392c6031c59", "new", int64(7), int64(4002), int64(3001), int64(50052), int64(100), int64(400),
		int64(1798000000000000), int64(-1), int64(0), int64(1))
	f.Add("a&status=ended#x", "new&id__gt=1", int64(-1), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0))
	f.Add("\x00\n\xff=%", " ", int64(1<<62), int64(0), int64(0), int64(0), int64(0), int64(0), int64(1), int64(2), int64(3), int64(4))
	f.Fuzz(func(t *testing.T, uuid, status string, op, topic, widget, contact, gt, lt, t1, t2, t3, t4 int64) {
		fl := ConversationFilter{ContactUUID: uuid, Status: status, OperatorID: op, TopicID: topic, WidgetID: widget,
			ContactIdentityID: contact, IDGreaterThan: gt, IDLessThan: lt,
			ContactFirstMessageFromDate: fuzzTime(t1), ContactFirstMessageToDate: fuzzTime(t2),
			UpdatedAtFromDate: fuzzTime(t3), LastActivityToDate: fuzzTime(t4)}
		want := map[string]string{}
		for k, v := range map[string]string{"contact_uuid": uuid, "status": status} {
			if v != "" {
				want[k] = v
			}
		}
		for k, v := range map[string]int64{"operator_id": op, "topics": topic, "um_widget_id": widget,
			"contact_identity_id": contact, "id__gt": gt, "id__lt": lt} {
			if v != 0 {
				want[k] = strconv.FormatInt(v, 10)
			}
		}
		got := decode(t, fl.Values())
		times := map[string]time.Time{"contact_first_message_from_date": fl.ContactFirstMessageFromDate,
			"contact_first_message_to_date": fl.ContactFirstMessageToDate, "updated_at_from_date": fl.UpdatedAtFromDate,
			"last_activity_to_date": fl.LastActivityToDate}
		for k, tm := range times {
			if tm.IsZero() {
				continue
			}
			back, err := ParseTime(got.Get(k))
			if err != nil || !back.Equal(tm) {
				t.Fatalf("%s=%q reads back as %v, %v; want %v", k, got.Get(k), back, err, tm)
			}
			want[k] = got.Get(k)
		}
		expect(t, got, want)
		if fl.IsZero() != (len(got) == 0) {
			t.Fatalf("IsZero %v with %d parameters", fl.IsZero(), len(got))
		}
	})
}

func FuzzContactFilterValues(f *testing.F) {
	f.Add(int64(50001), "anna@example.com", "Anna Schneider", "de_DE", int64(1798000000000000), int64(0), uint8(1))
	f.Add(int64(0), "a+b@x.y&name=z", "Ä ö\tü\n", "", int64(0), int64(5), uint8(2))
	f.Fuzz(func(t *testing.T, id int64, email, name, locale string, to, from int64, verified uint8) {
		fl := ContactFilter{ID: id, Email: email, Name: name, Locale: locale, ToDateTime: fuzzTime(to), FromDateTime: fuzzTime(from)}
		want := map[string]string{}
		if verified%3 > 0 {
			v := verified%3 == 1
			fl.Verified = &v
			want["verified"] = strconv.FormatBool(v)
		}
		for k, v := range map[string]string{"email": email, "name": name, "locale": locale} {
			if v != "" {
				want[k] = v
			}
		}
		if id != 0 {
			want["id"] = strconv.FormatInt(id, 10)
		}
		got := decode(t, fl.Values())
		for k, tm := range map[string]time.Time{"to_date_time": fl.ToDateTime, "from_date_time": fl.FromDateTime} {
			if tm.IsZero() {
				continue
			}
			if back, err := ParseTime(got.Get(k)); err != nil || !back.Equal(tm) {
				t.Fatalf("%s=%q reads back as %v, %v; want %v", k, got.Get(k), back, err, tm)
			}
			want[k] = got.Get(k)
		}
		expect(t, got, want)
		if fl.IsZero() != (len(got) == 0) {
			t.Fatalf("IsZero %v with %d parameters", fl.IsZero(), len(got))
		}
	})
}

// fuzzIDs reads a fuzz input as a list of ids (8 bytes each, at most 200).
func fuzzIDs(b []byte) []int64 {
	var out []int64
	for len(b) >= 8 && len(out) < 200 {
		out = append(out, int64(binary.LittleEndian.Uint64(b)))
		b = b[8:]
	}
	return out
}

// List options and bulk deletes: a bulk delete sends exactly the marked ids in delete_ids,
// and one that selects nothing is refused before any request.
func FuzzListAndBulkDeleteValues(f *testing.F) {
	f.Add(10, 20, "-created_at", "berlin smith", []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, []byte{}, "")
	f.Add(0, 0, "", "  ", []byte{}, []byte{}, "")
	f.Add(1000, -5, "id&x=1", "a&delete_ids=1,2,3", []byte{}, []byte{9, 0, 0, 0, 0, 0, 0, 0}, "new")
	f.Fuzz(func(t *testing.T, limit, offset int, ordering, search string, del, excl []byte, status string) {
		o := ListOptions{Limit: limit, Offset: offset, Ordering: ordering, Search: search, ExcludeIDs: fuzzIDs(excl)}
		q := url.Values{}
		o.encode(q)
		want := map[string]string{}
		if l := ClampLimit(limit); l > 0 {
			if l > MaxLimit {
				t.Fatalf("limit %d sent", l)
			}
			want["limit"] = strconv.Itoa(l)
		}
		if offset > 0 {
			want["offset"] = strconv.Itoa(offset)
		}
		if ordering != "" {
			want["ordering"] = ordering
		}
		if s := strings.TrimSpace(search); s != "" {
			want["search_query"] = s
		}
		if ex := fuzzIDs(excl); len(ex) > 0 {
			want["exclude_ids"] = joinWith(ex, ",")
		}
		expect(t, decode(t, q), want)

		b := BulkDelete[ConversationFilter]{DeleteIDs: fuzzIDs(del), Filter: ConversationFilter{Status: status}, Search: search, Limit: limit}
		bq, err := b.values()
		if len(b.DeleteIDs) == 0 && status == "" && strings.TrimSpace(search) == "" {
			if err != ErrEmptyBulkDelete {
				t.Fatalf("a bulk delete of nothing: %v", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		got := decode(t, bq)
		if len(b.DeleteIDs) > 0 {
			var sent []int64
			for _, s := range strings.Split(got.Get("delete_ids"), ",") {
				n, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					t.Fatalf("delete_ids=%q", got.Get("delete_ids"))
				}
				sent = append(sent, n)
			}
			if !slices.Equal(sent, b.DeleteIDs) {
				t.Fatalf("delete_ids sends %v, marked %v", sent, b.DeleteIDs)
			}
		} else if got.Has("delete_ids") {
			t.Fatalf("delete_ids=%q sent with nothing marked", got.Get("delete_ids"))
		}
		if status != "" && got.Get("status") != status {
			t.Fatalf("status=%q, want %q", got.Get("status"), status)
		}
	})
}

func joinWith(ids []int64, sep string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, sep)
}

// Analytics: each window's query carries the id filters exactly and dates within the window.
func FuzzAnalyticsValues(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0}, []byte{}, int64(1790000000), int64(1800000000), false, uint8(0))
	f.Add([]byte{}, []byte{3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0}, int64(1790000000), int64(1790000000), true, uint8(1))
	f.Fuzz(func(t *testing.T, orgs, ops []byte, from, to int64, withTime bool, mode uint8) {
		const lo, span = int64(946684800), int64(100 * 365 * 86400) // 2000-01-01 and about a century
		sec := func(n int64) time.Time {
			m := n % span
			if m < 0 {
				m += span
			}
			return time.Unix(lo+m, 0).UTC()
		}
		q := AnalyticsQuery{Metric: "um_conversation_duration", OrganizationIDs: fuzzIDs(orgs), OperatorIDs: fuzzIDs(ops),
			From: sec(from), To: sec(to), WithTime: withTime, OperatorMode: []OperatorMode{OperatorModeAll, OperatorModeHuman, OperatorModeBot}[mode%3]}
		if q.To.Before(q.From) {
			q.From, q.To = q.To, q.From
		}
		if q.To.Sub(q.From) > 3*365*24*time.Hour {
			q.To = q.From.AddDate(3, 0, 0) // a few dozen windows are enough to check
		}
		if err := q.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, w := range q.Windows() {
			got := decode(t, q.values(w))
			for key, want := range map[string][]int64{"organization_id": q.OrganizationIDs, "operator_id": q.OperatorIDs} {
				if len(want) == 0 {
					if got.Has(key) {
						t.Fatalf("%s=%q sent unset", key, got.Get(key))
					}
					continue
				}
				var sent []int64
				for _, s := range strings.Fields(got.Get(key)) {
					n, err := strconv.ParseInt(s, 10, 64)
					if err != nil {
						t.Fatalf("%s=%q", key, got.Get(key))
					}
					sent = append(sent, n)
				}
				if !slices.Equal(sent, want) {
					t.Fatalf("%s sends %v, want %v", key, sent, want)
				}
			}
			if got.Get("operator_mode") != string(q.OperatorMode) {
				t.Fatalf("operator_mode=%q, want %q", got.Get("operator_mode"), q.OperatorMode)
			}
			layout := time.DateOnly
			if withTime {
				layout = "2006-01-02T15:04:05"
			}
			var f, e time.Time
			var err1, err2 error
			if d := got.Get("event_date"); d != "" {
				f, err1 = time.Parse(layout, d)
				e, err2 = f, nil
			} else {
				f, err1 = time.Parse(layout, got.Get("event_date_from"))
				e, err2 = time.Parse(layout, got.Get("event_date_to"))
			}
			if err1 != nil || err2 != nil || !f.Equal(w.From.Truncate(time.Second)) || !e.Equal(w.To.Truncate(time.Second)) {
				t.Fatalf("window %+v is sent as %v: %v %v", w, got, err1, err2)
			}
		}
	})
}
