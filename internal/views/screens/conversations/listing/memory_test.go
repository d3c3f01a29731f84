package listing_test

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// rowBudget is 1 KB: a conversation list keeps at most that much a row.
const rowBudget = 1024

// TestRowsStayCompact: the conversation list holding 12,000 rows, paged through to the
// last with ctrl+d and drawn on the way at 120×40, keeps at most 1 KB a row on the heap:
// the rows (sanitized, with their repeated texts interned), their index, the names it
// learnt and the drawn rows it caches (about a window's worth, not a drawn copy of every
// row passed). The conversations are the sandbox's, decoded from their JSON as the client
// decodes a page, each copy on its own (so no two rows share a string the API sent twice).
func TestRowsStayCompact(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	var page []client.Conversation
	for off := 0; ; off += 100 {
		p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100, Offset: off}})
		if err != nil {
			t.Fatal(err)
		}
		page = append(page, p.Results...)
		if p.Next == "" {
			break
		}
	}
	data, err := json.Marshal(page)
	if err != nil {
		t.Fatal(err)
	}
	m := newList(t, c, 100, 120, 40)
	before := heapInUse()
	const n = 12000
	convs := make([]client.Conversation, 0, n)
	for len(convs) < n {
		var copies []client.Conversation
		if err := json.Unmarshal(data, &copies); err != nil {
			t.Fatal(err)
		}
		for _, cv := range copies[:min(len(copies), n-len(convs))] {
			cv.ID = int64(len(convs) + 1)
			convs = append(convs, cv)
		}
	}
	m.Preload(convs, n)
	convs = nil // the list keeps rows, not the conversations
	for m.Cursor() < n-1 {
		m, _ = press(m, "ctrl+d")
		_ = m.View()
	}
	after := heapInUse()
	per := (int64(after) - int64(before)) / n
	if after < before {
		t.Fatalf("the heap shrank from %d to %d bytes: the measurement is broken", before, after)
	}
	t.Logf("%d rows: %d bytes a row on the heap (%.1f MB)", n, per, float64(after-before)/1e6)
	if per > rowBudget {
		t.Fatalf("the list keeps %d bytes a row, budget %d", per, rowBudget)
	}
	runtime.KeepAlive(m)
}

// heapInUse is the bytes of live objects on the heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
