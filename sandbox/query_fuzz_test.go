package sandbox_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// intParam is an integer query parameter of a list: the list, how the sandbox reads the
// value (one id, a size, a list of ids) and what a row of a 200 answer must satisfy for
// a value n.
type intParam struct {
	list, name string
	kind       int // oneID, size or idList
	holds      func(row map[string]any, n int64) bool
}

const (
	oneID = iota
	size
	idList
)

// num is the integer at path in a decoded row (numbers as json.Number); ok false when it is
// missing or not an integer.
func num(row map[string]any, path ...string) (int64, bool) {
	var v any = row
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return 0, false
		}
		v = m[p]
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

func is(path ...string) func(map[string]any, int64) bool {
	return func(row map[string]any, n int64) bool { v, ok := num(row, path...); return ok && v == n }
}

var intParams = []intParam{
	{"conversations", "operator_id", oneID, is("operator_assigned_to")},
	{"conversations", "id__gt", oneID, func(r map[string]any, n int64) bool { id, ok := num(r, "id"); return ok && id > n }},
	{"conversations", "id__lt", oneID, func(r map[string]any, n int64) bool { id, ok := num(r, "id"); return ok && id < n }},
	{"conversations", "contact_identity_id", oneID, is("contact", "id")},
	{"conversations", "topics", oneID, func(r map[string]any, n int64) bool {
		ts, _ := r["topics"].([]any)
		return slices.ContainsFunc(ts, func(t any) bool { m, _ := t.(map[string]any); return is("id")(m, n) })
	}},
	{"conversations", "um_widget_id", oneID, nil},
	{"conversations", "chat_widget_id", oneID, nil},
	{"conversations", "exclude_ids", idList, nil},
	{"conversations", "limit", size, nil},
	{"conversations", "offset", size, nil},
	{"contact_identities", "id", oneID, is("id")},
	{"contact_identities", "exclude_ids", idList, nil},
	{"contact_identities", "limit", size, nil},
	{"notes", "contact_identity_id", oneID, is("contact_identity_id")},
	{"notes", "offset", size, nil},
}

// readInt is how the sandbox reads an integer: white space around it is ignored; ok false
// for text that is no int64. A size too large for int64 saturates (sat) rather than fail.
func readInt(v string) (n int64, ok, sat bool) {
	v = strings.TrimSpace(v)
	n, err := strconv.ParseInt(v, 10, 64)
	// Too large is digits only: ParseInt reports the overflow before it reads what follows.
	if errors.Is(err, strconv.ErrRange) && n > 0 && strings.Trim(v, "0123456789") == "" {
		return math.MaxInt64, false, true
	}
	if err != nil {
		return 0, false, false
	}
	return n, true, false
}

// The integer query parameters of the lists, fed any text: a value the API reads gives a
// 200 whose rows obey it (the id filters, exclude_ids, limit and offset), anything else a
// 400 whose detail names the parameter; never a 500, whatever the number (int64 minimum and
// maximum, one past either, NaN, hex, a byte order mark, a 64 KB field).
func FuzzIntegerQueryParams(f *testing.F) {
	// Every parameter gets the extremes; the other odd values go round the parameters.
	odd := []string{"+5", "-0", "Inf", "1e3", "0x10", "1.0", "\ufeff5", "5\x00", "１２", "1,2,,3", "700001, 700002", ",",
		"1 2", strings.Repeat("9", 64<<10), "2001", "3001", "50001", "-1"}
	for i := range intParams {
		for _, v := range []string{"1", " 700002 ", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "NaN"} {
			f.Add(uint8(i), v)
		}
	}
	for i, v := range odd {
		f.Add(uint8(i%len(intParams)), v)
		f.Add(uint8((i+7)%len(intParams)), v)
	}
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		p := intParams[int(which)%len(intParams)]
		a := shared(t)
		q := url.Values{p.name: {value}}
		if p.name != "limit" {
			q.Set("limit", "100")
		}
		r := a.get("/api/um/v3/" + p.list + "/?" + q.Encode())
		var want int64
		wantOK := strings.TrimSpace(value) == ""
		var ids []int64
		switch p.kind {
		case oneID:
			n, ok, _ := readInt(value)
			want, wantOK = n, wantOK || ok
		case size:
			n, ok, sat := readInt(value)
			want = n
			wantOK = wantOK || (ok || sat) && !(p.name == "offset" && n < 0)
		case idList:
			wantOK = true
			for _, f := range strings.Split(value, ",") {
				if strings.TrimSpace(f) == "" {
					continue
				}
				n, ok, _ := readInt(f)
				wantOK = wantOK && ok
				ids = append(ids, n)
			}
		}
		if r.status == http.StatusBadRequest {
			if wantOK {
				t.Fatalf("%s %s=%.80q: refused: %s", p.list, p.name, value, r.detail(t))
			}
			if d := r.detail(t); !strings.Contains(d, p.name) {
				t.Fatalf("%s %s=%.80q: the detail does not name the parameter: %s", p.list, p.name, value, d)
			}
			return
		}
		if r.status != http.StatusOK || !wantOK {
			t.Fatalf("%s %s=%.80q: status %d: %s", p.list, p.name, value, r.status, truncate(string(r.body), 300))
		}
		dec := json.NewDecoder(bytes.NewReader(r.body))
		dec.UseNumber()
		var pg struct {
			Count   json.Number      `json:"count"`
			Next    *string          `json:"next"`
			Results []map[string]any `json:"results"`
		}
		if err := dec.Decode(&pg); err != nil {
			t.Fatalf("%s %s=%.80q: %v", p.list, p.name, value, err)
		}
		count, err := pg.Count.Int64()
		if err != nil || count < int64(len(pg.Results)) && p.name != "offset" {
			t.Fatalf("%s %s=%.80q: count %s for %d rows", p.list, p.name, value, pg.Count, len(pg.Results))
		}
		limit := int64(100)
		if p.name == "limit" {
			limit = 10
			if strings.TrimSpace(value) != "" && want > 0 {
				limit = min(want, 100)
			}
		}
		if int64(len(pg.Results)) > limit {
			t.Fatalf("%s %s=%.80q: %d rows for a limit of %d", p.list, p.name, value, len(pg.Results), limit)
		}
		if p.name == "offset" && want >= count && len(pg.Results) > 0 {
			t.Fatalf("%s offset=%.80q: %d rows past the end (%d)", p.list, value, len(pg.Results), count)
		}
		for _, row := range pg.Results {
			id, _ := num(row, "id")
			if p.holds != nil && strings.TrimSpace(value) != "" && !p.holds(row, want) {
				t.Fatalf("%s %s=%.80q: row %d does not obey it", p.list, p.name, value, id)
			}
			if slices.Contains(ids, id) {
				t.Fatalf("%s exclude_ids=%.80q: row %d is there", p.list, value, id)
			}
		}
		if pg.Next != nil {
			u, err := url.Parse(*pg.Next)
			if err != nil {
				t.Fatalf("next %q: %v", *pg.Next, err)
			}
			for _, k := range []string{"limit", "offset"} {
				if v := u.Query().Get(k); v != "" {
					if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < 0 {
						t.Fatalf("%s %s=%.80q: next link %s=%q", p.list, p.name, value, k, v)
					}
				}
			}
		}
	})
}
