package sandbox_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// These targets send fuzzed query values over real HTTP to the shared sandbox (SQLite with
// FTS5): whatever comes, the answer is a 200 or a 400 with a detail, never a 500, and what a
// 200 holds obeys the parameter. The seeds run as regression tests in every `go test`.

// search_query: any text is a search (never a syntax error), and the page is a page.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range []string{"berlin", "an berlin", "order thanks", `"`, `"unbalanced`, `*`, `a*b`, `NEAR(a b)`,
		`a AND`, `OR OR`, `NOT`, `(`, `)`, `^start`, `name:foo`, `org : "o1"`, `-`, `{name}`, `col:*`,
		`'; DROP TABLE contacts; --`, "\x00", "\x1b[2J", `""""`, "\u202e", "😀", "中文", "ab\xffcd", `a+b-c`,
		strings.Repeat("x ", 100), strings.Repeat("é", 300), "Müller straße", "x\u0301"} {
		f.Add(s, uint8(5))
	}
	f.Fuzz(func(t *testing.T, q string, limit uint8) {
		a := shared(t)
		lim := int(limit%120) + 1
		for _, res := range []string{"contact_identities", "conversations"} {
			r := a.get("/api/um/v3/" + res + "/?limit=" + strconv.Itoa(lim) + "&search_query=" + url.QueryEscape(q))
			if r.status != http.StatusOK {
				t.Fatalf("%s search %q: status %d: %s", res, q, r.status, truncate(string(r.body), 300))
			}
			var p page[struct {
				ID int64 `json:"id"`
			}]
			r.json(t, &p)
			if p.Count == nil || *p.Count < len(p.Results) || len(p.Results) > min(lim, 100) {
				t.Fatalf("%s search %q: count %v, %d results for limit %d", res, q, p.Count, len(p.Results), lim)
			}
			seen := map[int64]bool{}
			for _, x := range p.Results {
				if seen[x.ID] {
					t.Fatalf("%s search %q: %d twice on one page", res, q, x.ID)
				}
				seen[x.ID] = true
			}
		}
	})
}

// cursor and limit of an /all/ endpoint: a cursor is an id ("12") or an id the other way
// ("-12"); a page after it holds only ids beyond it, in ascending order, and links on from
// its last (or back from its first) id.
func FuzzCursor(f *testing.F) {
	for _, c := range []string{"", "0", "700002", "-700010", "x", "-", "--5", "1.5", "99999999999999999999", " 700005 ",
		"+700005", "-+5", "9223372036854775807", "-9223372036854775807", "0x10", "７", "\x00"} {
		f.Add(c, "5")
	}
	f.Add("700002", "")
	f.Add("700002", "0")
	f.Add("700002", "-3")
	f.Add("700002", "1000")
	f.Add("700002", "x")
	f.Add("700002", "99999999999999999999")
	f.Fuzz(func(t *testing.T, cursor, limit string) {
		a := shared(t)
		q := url.Values{}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		if limit != "" {
			q.Set("limit", limit)
		}
		r := a.get("/api/um/v3/conversations/all/?" + q.Encode())
		c := strings.TrimSpace(cursor)
		back := strings.HasPrefix(c, "-")
		n, cerr := strconv.ParseInt(strings.TrimPrefix(c, "-"), 10, 64)
		cursorOK := c == "" || (cerr == nil && n >= 0)
		l := strings.TrimSpace(limit)
		lv, lerr := strconv.ParseInt(l, 10, 64)
		limitOK := l == "" || lerr == nil || (strings.Trim(l, "0123456789") == "" && l != "") // too large still counts
		if r.status == http.StatusBadRequest {
			if cursorOK && limitOK {
				t.Fatalf("cursor %q, limit %q: refused: %s", cursor, limit, r.detail(t))
			}
			if d := r.detail(t); !strings.Contains(d, "cursor") && !strings.Contains(d, "limit") {
				t.Fatalf("cursor %q, limit %q: the detail names neither: %s", cursor, limit, d)
			}
			return
		}
		if r.status != http.StatusOK || !cursorOK || !limitOK {
			t.Fatalf("cursor %q, limit %q: status %d: %s", cursor, limit, r.status, truncate(string(r.body), 300))
		}
		var p page[struct {
			ID int64 `json:"id"`
		}]
		r.json(t, &p)
		max := 10
		if l != "" && lerr == nil && lv > 0 {
			max = int(min(lv, 100))
		} else if l != "" && lerr != nil {
			max = 100 // a number too large for int64
		}
		if len(p.Results) > max {
			t.Fatalf("cursor %q, limit %q: %d results", cursor, limit, len(p.Results))
		}
		var ids []int64
		for _, x := range p.Results {
			ids = append(ids, x.ID)
			if c != "" && ((back && x.ID >= n) || (!back && x.ID <= n)) {
				t.Fatalf("cursor %q: id %d is on the wrong side", cursor, x.ID)
			}
		}
		if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
			t.Fatalf("cursor %q: ids %v are not ascending", cursor, ids)
		}
		for link, want := range map[*string]string{p.Next: "", p.Previous: "-"} {
			if link == nil {
				continue
			}
			u, err := url.Parse(*link)
			if err != nil || len(ids) == 0 {
				t.Fatalf("cursor %q: link %q for %d results", cursor, *link, len(ids))
			}
			id := ids[len(ids)-1]
			if want == "-" {
				id = ids[0]
			}
			if got := u.Query().Get("cursor"); got != want+strconv.FormatInt(id, 10) {
				t.Fatalf("cursor %q: link cursor %q, want %s%d", cursor, got, want, id)
			}
		}
	})
}

// Timestamp filters: a value the API reads gives a 200, anything else a 400 naming the
// parameter; a lower bound after the upper one matches nothing.
func FuzzTimestampFilter(f *testing.F) {
	for _, s := range []string{"2026-11-01", "2026-11-01T10:00:00Z", "2026-11-01T10:00:00.123456Z", "2026-11-01T10:00:00+01:00",
		"2026-11-01T10:00:00 01:00", "2026-11-01 10:00", "2026-11-01T10:00", "2026-02-30", "tomorrow", "0", "99999-01-01",
		"-0001-01-01", "2026-11-20T24:01:00", "2026-11-20T10:00:00+25:00", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
		"9999-12-31T23:59:59-23:59", "0000-01-01T00:00:00+23:59", "2026-11-01t10:00:00z", " 2026-11-01 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		a := shared(t)
		for _, name := range []string{"updated_at_from_date", "last_activity_to_date"} {
			r := a.get("/api/um/v3/conversations/?limit=1&" + name + "=" + url.QueryEscape(v))
			switch r.status {
			case http.StatusOK:
			case http.StatusBadRequest:
				if d := r.detail(t); !strings.HasPrefix(d, name+":") {
					t.Fatalf("%s=%q: the detail does not name the parameter: %s", name, v, d)
				}
			default:
				t.Fatalf("%s=%q: status %d: %s", name, v, r.status, truncate(string(r.body), 300))
			}
		}
	})
}
