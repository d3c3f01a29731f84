package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestCacheAnswersRepeatsAndClearsOnWrite(t *testing.T) {
	var gets, patches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPatch {
			patches.Add(1)
			_, _ = w.Write([]byte(`{"id": 7, "status": "ended"}`))
			return
		}
		gets.Add(1)
		_, _ = w.Write([]byte(`{"id": 7, "status": "new"}`))
	}))
	defer srv.Close()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c, err := New(Config{BaseURL: srv.URL, Token: "t", CacheTTL: time.Minute, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range 3 {
		if _, err := c.GetConversation(ctx, 7); err != nil {
			t.Fatal(err)
		}
	}
	if n := gets.Load(); n != 1 {
		t.Fatalf("3 identical GETs within the TTL sent %d requests, want 1", n)
	}
	if n := c.Usage(FamilyConversations); n != 1 {
		t.Fatalf("cached answers were counted: usage %d, want 1", n)
	}
	if _, err := c.GetConversation(Fresh(ctx), 7); err != nil {
		t.Fatal(err)
	}
	if n := gets.Load(); n != 2 {
		t.Fatalf("Fresh GET did not reach the server: %d requests", n)
	}
	// Another operator context is another cache entry.
	if _, err := c.WithContext(0, 5).GetConversation(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if n := gets.Load(); n != 3 {
		t.Fatalf("GET as another operator was answered from cache: %d requests", n)
	}
	ended := StatusEnded
	if _, err := c.UpdateConversation(ctx, 7, ConversationUpdate{Status: &ended}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetConversation(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if n := gets.Load(); n != 4 {
		t.Fatalf("GET after a write was answered from cache: %d requests", n)
	}
	now = now.Add(2 * time.Minute)
	if _, err := c.GetConversation(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if n := gets.Load(); n != 5 {
		t.Fatalf("GET after the TTL was answered from cache: %d requests", n)
	}
}

func TestMemoryEvictsBeyondMaxBytes(t *testing.T) {
	// Entries of 20 estimated bytes (plus the bookkeeping of an entry each) in a memory of
	// five such entries.
	const each = 20 + entryOverhead
	m := newMemo(time.Hour, 5*each, time.Now)
	key := func(s string) memoKey { return memoKey{url: s} }
	for _, k := range []string{"a", "b", "c"} {
		m.put(key(k), k, 20, true)
	}
	m.get(key("a")) // a is now the most recently used
	for _, k := range []string{"d", "e", "f"} {
		m.put(key(k), k, 20, true)
	}
	if _, ok := m.get(key("b")); ok {
		t.Fatal("least recently used entry b survived")
	}
	if _, ok := m.get(key("a")); !ok {
		t.Fatal("recently used entry a was evicted")
	}
	if bytes, n := m.usage(); bytes > 5*each || n != 5 {
		t.Fatalf("memory holds %d entries of %d bytes, max 5 entries of %d", n, bytes, 5*each)
	}
}
