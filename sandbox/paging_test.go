package sandbox_test

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

func TestOffsetWalkMatchesCount(t *testing.T) {
	t.Parallel()
	a := shared(t)
	for _, tc := range []struct {
		name, path string
	}{
		{"conversations", "/api/um/v3/conversations/?limit=7"},
		{"contacts", "/api/um/v3/contact_identities/?limit=9"},
		{"notes", "/api/um/v3/notes/?limit=5"},
		{"navigation", "/api/um/v3/navigation/?limit=50"},
		{"operators", "/api/um/v3/operators/?limit=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := a.as()
			a.t = t
			items, count, pages := walkOffset[struct {
				ID int64 `json:"id"`
			}](a, tc.path)
			if count == 0 {
				t.Fatal("no items seeded")
			}
			if len(items) != count {
				t.Fatalf("walked %d items, count says %d", len(items), count)
			}
			seen := map[int64]bool{}
			for _, it := range items {
				if seen[it.ID] {
					t.Fatalf("id %d twice", it.ID)
				}
				seen[it.ID] = true
			}
			if pages < 2 && count > 2 {
				t.Fatalf("expected several pages, got %d", pages)
			}
		})
	}
}

func TestDefaultOrderIsIDDescending(t *testing.T) {
	t.Parallel()
	a := shared(t)
	items, count, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100")
	if len(items) != count {
		t.Fatalf("walked %d of %d", len(items), count)
	}
	if !sort.SliceIsSorted(items, func(i, j int) bool { return items[i].ID > items[j].ID }) {
		t.Fatal("conversations not sorted by id descending")
	}
	cs, _, _ := walkOffset[contact](a, "/api/um/v3/contact_identities/?limit=100")
	if !sort.SliceIsSorted(cs, func(i, j int) bool { return cs[i].ID > cs[j].ID }) {
		t.Fatal("contacts not sorted by id descending")
	}
}

func TestOffsetPageShapeAndLimits(t *testing.T) {
	t.Parallel()
	a := shared(t)
	var p page[conversation]
	a.mustGet("/api/um/v3/conversations/", &p)
	if len(p.Results) != 10 {
		t.Fatalf("default limit: %d results, want 10", len(p.Results))
	}
	if p.Previous != nil || p.Next == nil {
		t.Fatalf("first page links: next=%v previous=%v", p.Next, p.Previous)
	}
	var pn page[note]
	a.mustGet("/api/um/v3/navigation/?limit=1000", &pn)
	if *pn.Count <= 100 || len(pn.Results) != 100 {
		t.Fatalf("limit=1000: %d results of %d, want 100", len(pn.Results), *pn.Count)
	}
	if !strings.Contains(*pn.Next, "limit=100") {
		t.Fatalf("next does not carry the effective limit: %s", *pn.Next)
	}
	for _, lim := range []string{"0", "-5"} {
		a.mustGet("/api/um/v3/conversations/?limit="+lim, &p)
		if len(p.Results) != 10 {
			t.Fatalf("limit=%s: %d results, want the default 10", lim, len(p.Results))
		}
	}
	// A limit too large for any integer type is still "larger than 100".
	a.mustGet("/api/um/v3/navigation/?limit=99999999999999999999999", &pn)
	if len(pn.Results) != 100 || !strings.Contains(*pn.Next, "limit=100") {
		t.Fatalf("huge limit: %d results, next %v", len(pn.Results), pn.Next)
	}
	// …and such an offset is past the end.
	a.mustGet("/api/um/v3/conversations/?offset=99999999999999999999999", &p)
	if len(p.Results) != 0 || p.Next != nil || p.Previous == nil || *p.Count == 0 {
		t.Fatalf("huge offset: %d results, next %v, previous %v", len(p.Results), p.Next, p.Previous)
	}
	a.mustGet("/api/um/v3/conversations/?offset=100000", &p)
	if len(p.Results) != 0 || p.Next != nil || *p.Count == 0 {
		t.Fatalf("offset past the end: %d results, next %v, count %d", len(p.Results), p.Next, *p.Count)
	}
	if p.Previous == nil {
		t.Fatal("offset past the end should link back")
	}
	// A set that matches nothing has neither next nor previous, whatever the offset.
	for _, path := range []string{
		"/api/um/v3/conversations/?status=ended&id__lt=1&offset=10",
		"/api/um/v3/contact_identities/?search_query=zzzqqqxxx&offset=20",
	} {
		a.mustGet(path, &p)
		if *p.Count != 0 || len(p.Results) != 0 || p.Next != nil || p.Previous != nil {
			t.Fatalf("%s: count %d, %d results, next %v, previous %v", path, *p.Count, len(p.Results), p.Next, p.Previous)
		}
	}
	// previous of the second page drops the offset; links keep every filter.
	a.mustGet("/api/um/v3/conversations/?limit=5&offset=5&status=ended&exclude_ids=1,2", &p)
	prev, err := url.Parse(*p.Previous)
	if err != nil {
		t.Fatal(err)
	}
	if prev.Query().Get("offset") != "" || prev.Query().Get("status") != "ended" || prev.Query().Get("exclude_ids") != "1,2" {
		t.Fatalf("previous link: %s", *p.Previous)
	}
	next, _ := url.Parse(*p.Next)
	if next.Query().Get("offset") != "10" || next.Query().Get("limit") != "5" || next.Query().Get("status") != "ended" {
		t.Fatalf("next link: %s", *p.Next)
	}
	if !strings.HasPrefix(*p.Next, a.base+"/api/um/v3/conversations/?") {
		t.Fatalf("next link is not absolute under %s: %s", a.base, *p.Next)
	}
}

func TestOffsetCapTenThousand(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	sandbox.SetOffsetCap(r.Server, 25)
	a := newAPI(t, r)
	items, count, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=10")
	if len(items) != 25 {
		t.Fatalf("walked %d items past a cap of 25", len(items))
	}
	if count <= 25 {
		t.Fatalf("count %d must still report the true total", count)
	}
	var p page[conversation]
	a.mustGet("/api/um/v3/conversations/?offset=25", &p)
	if len(p.Results) != 0 || p.Next != nil {
		t.Fatalf("beyond the cap: %d results, next %v", len(p.Results), p.Next)
	}
	// /all/ is not capped.
	all, c, _ := walkCursor[conversation](a, "/api/um/v3/conversations/all/?limit=10")
	if len(all) != count || *c != count {
		t.Fatalf("/all/ walked %d, count %d, want %d", len(all), *c, count)
	}
}

func TestAllCursorWalks(t *testing.T) {
	t.Parallel()
	a := shared(t)
	for _, res := range []string{"conversations", "contact_identities"} {
		path := "/api/um/v3/" + res + "/all/?limit=13"
		items, count, pages := walkCursor[struct {
			ID int64 `json:"id"`
		}](a, path)
		if count == nil || *count != len(items) {
			t.Fatalf("%s: walked %d items, count %v", res, len(items), count)
		}
		if pages < 2 {
			t.Fatalf("%s: one page only", res)
		}
		for i := 1; i < len(items); i++ {
			if items[i].ID <= items[i-1].ID {
				t.Fatalf("%s: /all/ not ascending at %d", res, i)
			}
		}
		// The offset list agrees on the total.
		var p page[struct{}]
		a.mustGet("/api/um/v3/"+res+"/?limit=1", &p)
		if *p.Count != *count {
			t.Fatalf("%s: list count %d, /all/ count %d", res, *p.Count, *count)
		}
		// Backwards from the end with previous links returns the same items.
		var last page[struct {
			ID int64 `json:"id"`
		}]
		a.mustGet("/api/um/v3/"+res+"/all/?limit=13&cursor="+strconv.FormatInt(items[len(items)-1].ID-1, 10), &last)
		if len(last.Results) != 1 || last.Next != nil || last.Previous == nil {
			t.Fatalf("%s: last page: %d results next %v previous %v", res, len(last.Results), last.Next, last.Previous)
		}
		var back []int64
		prev := *last.Previous
		back = append(back, last.Results[0].ID)
		for prev != "" {
			var p page[struct {
				ID int64 `json:"id"`
			}]
			a.mustGet(prev, &p)
			if !strings.Contains(prev, "cursor=-") {
				t.Fatalf("previous link without a - cursor: %s", prev)
			}
			for i := len(p.Results) - 1; i >= 0; i-- {
				back = append(back, p.Results[i].ID)
			}
			prev = ""
			if p.Previous != nil {
				prev = *p.Previous
			}
		}
		if len(back) != len(items) {
			t.Fatalf("%s: backwards walk found %d of %d", res, len(back), len(items))
		}
		// ordering other than id is refused.
		for _, o := range []string{"-id", "created_at", "name"} {
			r := a.get("/api/um/v3/" + res + "/all/?ordering=" + o)
			expectStatus(t, r, 400, res+" /all/ ordering="+o)
			r.detail(t)
		}
		expectStatus(t, a.get("/api/um/v3/"+res+"/all/?ordering=id"), 200, "ordering=id")
		for _, c := range []string{"abc", "-x", "1.5", "--3"} {
			r := a.get("/api/um/v3/" + res + "/all/?cursor=" + c)
			expectStatus(t, r, 400, "bad cursor "+c)
			r.detail(t)
		}
	}
}

func TestAllCursorKeepsFilters(t *testing.T) {
	t.Parallel()
	a := shared(t)
	items, count, _ := walkCursor[conversation](a, "/api/um/v3/conversations/all/?limit=5&status=ended")
	if *count != len(items) || len(items) == 0 {
		t.Fatalf("walked %d, count %d", len(items), *count)
	}
	for _, c := range items {
		if c.Status != "ended" {
			t.Fatalf("conversation %d has status %s", c.ID, c.Status)
		}
	}
}

func TestMessagesCursorWalk(t *testing.T) {
	t.Parallel()
	a := shared(t)
	long := a.info.LongConversationID
	path := "/api/um/v3/conversations/" + itoa(long) + "/messages/"
	var first page[message]
	a.mustGet(path, &first)
	if first.Count != nil {
		t.Fatal("messages envelope must not carry count")
	}
	if len(first.Results) != 100 {
		t.Fatalf("default page: %d messages, want 100", len(first.Results))
	}
	if first.Previous != nil {
		t.Fatal("first page has a previous link")
	}
	msgs, _, pages := walkCursor[message](a, path)
	if len(msgs) < 1500 {
		t.Fatalf("long conversation has %d messages, want >= 1500", len(msgs))
	}
	if pages != (len(msgs)+99)/100 {
		t.Fatalf("%d pages for %d messages", pages, len(msgs))
	}
	// Newest first, strictly.
	for i := 1; i < len(msgs); i++ {
		if !msgBefore(t, msgs[i].ID, msgs[i-1].ID) {
			t.Fatalf("messages not newest first at %d: %s then %s", i, msgs[i-1].ID, msgs[i].ID)
		}
		if msgs[i].SentAt > msgs[i-1].SentAt {
			t.Fatalf("sent_at not descending at %d", i)
		}
	}
	oldest := msgs[len(msgs)-1]
	if !strings.HasPrefix(oldest.Body, "Start of the long thread") {
		t.Fatalf("oldest message: %q", oldest.Body)
	}
	for _, m := range msgs[:5] {
		if m.ID != m.MsgID || m.ConversationID != long || m.OperatorIsBot == nil {
			t.Fatalf("message fields: %+v", m)
		}
	}
	// The conversation's last_message is the newest message.
	var c conversation
	a.mustGet("/api/um/v3/conversations/"+itoa(long)+"/", &c)
	if c.LastMessage == nil || c.LastMessage.ID != msgs[0].ID {
		t.Fatalf("last_message %v, newest %s", c.LastMessage, msgs[0].ID)
	}
	// ordering=id walks oldest first and finds the same messages.
	asc, _, _ := walkCursor[message](a, path+"?ordering=id&limit=77")
	if len(asc) != len(msgs) || asc[0].ID != oldest.ID {
		t.Fatalf("ascending walk: %d messages starting %s", len(asc), asc[0].ID)
	}
	// previous goes back towards the newest.
	var second page[message]
	a.mustGet(*first.Next, &second)
	if second.Previous == nil || !strings.Contains(*second.Previous, "cursor=-") {
		t.Fatalf("second page previous: %v", second.Previous)
	}
	var back page[message]
	a.mustGet(*second.Previous, &back)
	if len(back.Results) != 100 || back.Results[0].ID != first.Results[0].ID || back.Previous != nil {
		t.Fatalf("previous page differs from the first page")
	}
	// limit is honoured and capped.
	var small page[message]
	a.mustGet(path+"?limit=3", &small)
	if len(small.Results) != 3 || !strings.Contains(*small.Next, "limit=3") {
		t.Fatalf("limit=3: %d results, next %v", len(small.Results), small.Next)
	}
	a.mustGet(path+"?limit=500", &small)
	if len(small.Results) != 100 {
		t.Fatalf("limit=500: %d results", len(small.Results))
	}
	// Bad cursors and orderings are 400.
	for _, bad := range []string{"?cursor=abc", "?cursor=1.2.3", "?cursor=" + itoa(long) + ".x.1", "?ordering=sent_at", "?limit=x"} {
		r := a.get(path + bad)
		expectStatus(t, r, 400, bad)
		r.detail(t)
	}
	expectStatus(t, a.get("/api/um/v3/conversations/1/messages/"), 404, "messages of unknown conversation")
}

func msgBefore(t *testing.T, a, b string) bool {
	t.Helper()
	pa, pb := msgKey(t, a), msgKey(t, b)
	if pa[0] != pb[0] {
		return pa[0] < pb[0]
	}
	return pa[1] < pb[1]
}

func msgKey(t *testing.T, id string) [2]int64 {
	t.Helper()
	f := strings.Split(id, ".")
	if len(f) != 3 {
		t.Fatalf("message id %q", id)
	}
	p, err1 := strconv.ParseInt(f[1], 10, 64)
	s, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("message id %q", id)
	}
	return [2]int64{p, s}
}

// capEdges checks an offset list at the edges of its cap (offsetCap results reachable by
// offset) with page size limit: path is the list with its filters or search and without
// limit and offset, total the number of matches, capped whether count reports at most the
// cap (the capped-count variant). The page that ends at the cap and every page after it have
// no next link; next always leads to a page with results; previous steps back a page, or from
// past the cap to the last reachable page.
func capEdges(t *testing.T, a *api, path string, total, offsetCap, limit int, capped bool) {
	t.Helper()
	reach := min(total, offsetCap)
	if total <= offsetCap {
		t.Fatalf("%s: %d matches, not more than the cap of %d: the cap is not reached", path, total, offsetCap)
	}
	wantCount := total
	if capped {
		wantCount = reach
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	at := func(offset int) string {
		return path + sep + "limit=" + strconv.Itoa(limit) + "&offset=" + strconv.Itoa(offset)
	}
	lastPage := (reach - 1) / limit * limit // the last page a walk from 0 reaches
	for _, offset := range []int{max(0, reach-limit), lastPage, reach - 1, reach, reach + 1, (reach + total) / 2, total - 1, total, total + limit} {
		var p page[struct {
			ID int64 `json:"id"`
		}]
		a.mustGet(at(offset), &p)
		what := at(offset)
		if *p.Count != wantCount {
			t.Fatalf("%s: count %d, want %d", what, *p.Count, wantCount)
		}
		if want := max(0, min(limit, reach-offset)); len(p.Results) != want {
			t.Fatalf("%s: %d results, want %d", what, len(p.Results), want)
		}
		if hasNext := offset+limit < reach; (p.Next != nil) != hasNext {
			t.Fatalf("%s: next %v, want a next link: %v", what, p.Next, hasNext)
		}
		if p.Next != nil {
			var n page[struct{}]
			a.mustGet(*p.Next, &n)
			if len(n.Results) == 0 {
				t.Fatalf("%s: next %s returns nothing", what, *p.Next)
			}
		}
		wantPrev := -1 // none
		switch {
		case offset == 0:
		case offset-limit > reach-1:
			wantPrev = lastPage
		default:
			wantPrev = max(0, offset-limit)
		}
		if (p.Previous != nil) != (wantPrev >= 0) {
			t.Fatalf("%s: previous %v, want one: %v", what, p.Previous, wantPrev >= 0)
		}
		if p.Previous != nil {
			u, err := url.Parse(*p.Previous)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := strconv.Atoi(u.Query().Get("offset")) // no offset = 0
			if got != wantPrev || u.Query().Get("limit") != strconv.Itoa(limit) {
				t.Fatalf("%s: previous %s, want offset %d", what, *p.Previous, wantPrev)
			}
			var back page[struct{}]
			a.mustGet(*p.Previous, &back)
			if len(back.Results) == 0 {
				t.Fatalf("%s: previous %s returns nothing", what, *p.Previous)
			}
		}
	}
}

// The envelope at the cap, for conversations and contacts, with and without filters and
// search, with and without capped-count, with page sizes that end exactly at the cap and
// ones that do not; and the walk from the first page ends at the cap.
func TestOffsetCapEdges(t *testing.T) {
	t.Parallel()
	const offsetCap = 20
	plain := newAPI(t, start(t, sandbox.Options{OffsetCap: offsetCap}))
	capped := newAPI(t, start(t, sandbox.Options{OffsetCap: offsetCap, Variants: []sandbox.Variant{sandbox.VariantCappedCount}}))
	for _, path := range []string{
		"/api/um/v3/conversations/",
		"/api/um/v3/conversations/?status=ended",
		"/api/um/v3/conversations/?search_query=order",
		"/api/um/v3/conversations/?ordering=-last_message_sent_at&status=ended",
		"/api/um/v3/contact_identities/",
		"/api/um/v3/contact_identities/?verified=true",
		"/api/um/v3/contact_identities/?search_query=a+e+i+o+u",
		"/api/um/v3/contact_identities/?ordering=name",
	} {
		var first page[struct{}]
		plain.mustGet(path, &first)
		total := *first.Count
		for _, limit := range []int{7, 10, offsetCap, 100} {
			capEdges(t, plain, path, total, offsetCap, limit, false)
			capEdges(t, capped, path, total, offsetCap, limit, true)
		}
		for _, a := range []*api{plain, capped} {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			items, _, _ := walkOffset[struct {
				ID int64 `json:"id"`
			}](a, path+sep+"limit=7")
			if len(items) != offsetCap {
				t.Fatalf("%s: the walk from the first page found %d, want the cap of %d", path, len(items), offsetCap)
			}
		}
	}
}
