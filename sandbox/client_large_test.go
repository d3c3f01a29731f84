//go:build large

package sandbox_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
)

// The real offset cap of 10,000 on the large data set (more than 12,000 conversations in the
// default organization), with and without capped-count: the envelope at the cap on the wire,
// and through the client a walk from the first page that ends at the 10,000th conversation,
// then goes on through /all/ (backwards from the last row loaded) to the oldest one. The data set is seeded once per test binary
// (largePath) and both servers serve the same file. It runs with -tags large (a step of the
// CI of its own: seeding the large data set and walking it take most of a minute), and
// -short leaves it out there too.
func TestClientLargeOffsetCap(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds the large data set")
	}
	t.Parallel()
	const offsetCap = 10000
	began := time.Now()
	opts := largeOptions(t)
	t.Logf("large data set seeded in %v", time.Since(began).Round(time.Millisecond))
	plainRun := start(t, opts)
	opts.Variants = []sandbox.Variant{sandbox.VariantCappedCount}
	cappedRun := start(t, opts)
	if !plainRun.Server.Reused() || !cappedRun.Server.Reused() {
		t.Fatal("the large data set was seeded again")
	}
	plain, capped := newAPI(t, plainRun), newAPI(t, cappedRun)

	for _, tc := range []struct {
		path   string
		limits []int
	}{
		{"/api/um/v3/conversations/", []int{100, 7}},
		{"/api/um/v3/conversations/?status=ended", []int{100}},
		{"/api/um/v3/conversations/?search_query=order", []int{100}},
		{"/api/um/v3/conversations/?ordering=-last_message_sent_at", []int{10}},
	} {
		var first page[struct{}]
		plain.mustGet(tc.path, &first)
		for _, limit := range tc.limits {
			capEdges(t, plain, tc.path, *first.Count, offsetCap, limit, false)
			capEdges(t, capped, tc.path, *first.Count, offsetCap, limit, true)
		}
	}

	ctx := context.Background()
	info := plainRun.Server.Info()
	var total struct{ Count *int }
	plain.mustGet("/api/um/v3/conversations/all/?limit=1", &total)
	if total.Count == nil || *total.Count <= offsetCap {
		t.Fatalf("/all/ count %v: the cap is not reached", total.Count)
	}
	for _, run := range []*sandbox.Running{plainRun, cappedRun} {
		isCapped := len(run.Server.Variants()) > 0
		c := newClient(t, run, info.CustomerToken, 0)
		page, err := c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: client.MaxLimit}})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: *total.Count, true: offsetCap}[isCapped]; page.Count != want {
			t.Fatalf("capped=%v: count %d, want %d", isCapped, page.Count, want)
		}
		var walked []int64
		for {
			if len(page.Results) == 0 {
				t.Fatalf("capped=%v: a next link led to an empty page after %d conversations", isCapped, len(walked))
			}
			for _, cv := range page.Results {
				walked = append(walked, cv.ID)
			}
			if page.Next == "" {
				break
			}
			if page, err = client.FetchPage[client.Conversation](ctx, c, page.Next); err != nil {
				t.Fatal(err)
			}
		}
		if len(walked) != offsetCap || !descending(walked) {
			t.Fatalf("capped=%v: the offset walk found %d conversations, want %d newest first", isCapped, len(walked), offsetCap)
		}
		// Past the cap the rows go on through /all/, older than the last one loaded; its count
		// is the true total with and without capped-count.
		var rest []int64
		cursor := "-" + strconv.FormatInt(walked[len(walked)-1], 10)
		for cursor != "" {
			p, err := c.ConversationsAllPage(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Cursor: cursor, Limit: client.MaxLimit}})
			if err != nil {
				t.Fatal(err)
			}
			if p.Count == nil || *p.Count != *total.Count {
				t.Fatalf("capped=%v: /all/ count %v, want %d", isCapped, p.Count, *total.Count)
			}
			for i := len(p.Results) - 1; i >= 0; i-- {
				rest = append(rest, p.Results[i].ID)
			}
			cursor = ""
			if p.Previous != "" {
				if cursor = cursorOf(t, p.Previous); cursor == "" {
					t.Fatalf("previous link without a cursor: %s", p.Previous)
				}
			}
		}
		if !descending(rest) || rest[0] >= walked[len(walked)-1] {
			t.Fatalf("capped=%v: /all/ backwards from the last row loaded is not older rows, newest first", isCapped)
		}
		// Both newest first and apart, and as many as the count: the walk by offset missed
		// no row before the 10,000th, and /all/ none after it.
		if got := len(walked) + len(rest); got != *total.Count {
			t.Fatalf("capped=%v: %d by offset and %d through /all/, want %d in all", isCapped, len(walked), len(rest), *total.Count)
		}
	}
}

// cursorOf is the cursor parameter of a link ("" when it has none).
func cursorOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	return u.Query().Get("cursor")
}

// descending reports whether ids are strictly descending (so also distinct).
func descending(ids []int64) bool {
	for i := 1; i < len(ids); i++ {
		if ids[i] >= ids[i-1] {
			return false
		}
	}
	return true
}
