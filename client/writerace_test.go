package client

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/waitfor"
)

// A GET sent before a write and answered after it may show what the write changed as it
// was: its caller gets it, but the memory must not keep it, or the next read (the one the
// edit's form refreshes with) is answered with the data from before the edit.
func TestAnswerSentBeforeAWriteIsNotKept(t *testing.T) {
	release := make(chan struct{})
	var gets atomic.Int32
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Method == http.MethodPatch {
			writeJSON(w, http.StatusOK, `{"is_away": true}`)
			return
		}
		if gets.Add(1) == 1 {
			<-release
			writeJSON(w, http.StatusOK, `{"count": 1, "next": null, "previous": null, "results": [{"id": 11, "status": "new"}]}`)
			return
		}
		writeJSON(w, http.StatusOK, `{"count": 1, "next": null, "previous": null, "results": [{"id": 11, "status": "ended"}]}`)
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.CacheTTL = time.Minute })
	opts := ConversationListOptions{Filter: ConversationFilter{Status: StatusNew}}
	before := make(chan *Page[Conversation], 1)
	go func() {
		p, err := c.ListConversations(context.Background(), opts)
		if err != nil {
			t.Error(err)
		}
		before <- p
	}()
	waitfor.True(t, "the first GET to reach the server", func() bool { return rec.count() == 1 })
	if _, err := c.SetOperatorAway(context.Background(), 7, true); err != nil {
		t.Fatal(err)
	}
	// A GET after the write ended is sent, whatever is in flight from before it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	after, err := c.ListConversations(ctx, opts)
	if err != nil {
		t.Fatalf("the GET after the write: %v", err)
	}
	if s := after.Results[0].Status; s != StatusEnded {
		t.Fatalf("the GET after the write saw status %q", s)
	}
	close(release)
	if p := <-before; p == nil || p.Results[0].Status != StatusNew {
		t.Fatalf("the GET sent before the write got %+v, want its own answer", p)
	}
	again, err := c.ListConversations(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if s := again.Results[0].Status; s != StatusEnded {
		t.Errorf("the memory answers status %q: it kept the answer of a GET sent before the write", s)
	}
	if n := rec.count(); n != 3 {
		t.Errorf("the server saw %d requests, want 3 (GET, PATCH, GET; the last GET from memory)", n)
	}
}
