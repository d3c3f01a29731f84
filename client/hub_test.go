package client

import (
	"net/http"
	"testing"
	"time"
)

// hubServer answers every GET with a conversation list page and every PATCH with an away
// status.
func hubServer(t *testing.T) *recorder {
	t.Helper()
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Method == http.MethodPatch {
			writeJSON(w, http.StatusOK, `{"is_away": true}`)
			return
		}
		writeJSON(w, http.StatusOK, `{"count": 1, "next": null, "previous": null, "results": [{"id": 11, "status": "new"}]}`)
	})
}

func TestShareReadsSharesAnswersAndWritesAsEachOperator(t *testing.T) {
	rec := hubServer(t)
	hub, _ := newTestClient(t, rec.base(), func(c *Config) { c.CacheTTL = time.Minute; c.OperatorID = 3 })
	const org = 42
	shared := hub.ShareReads(0)
	a, b := shared.WithContext(org, 7), shared.WithContext(org, 9)

	if _, err := a.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := b.ListConversations(bg(), ConversationListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := rec.count(); n != 1 {
		t.Fatalf("the same GET from two sessions sharing reads sent %d requests, want 1 (the second from memory)", n)
	}
	if len(p.Results) != 1 || p.Results[0].ID != 11 {
		t.Fatalf("the answer from memory is %+v", p.Results)
	}
	get := rec.last(t)
	if v := get.Header.Get("Service-Operator-Id"); v != "" {
		t.Errorf("a shared read carries Service-Operator-Id %q, want none", v)
	}
	if v := get.Header.Get("Service-Organization-Id"); v != "42" {
		t.Errorf("a shared read carries Service-Organization-Id %q, want 42", v)
	}
	if a.OperatorID() != 7 || b.OperatorID() != 9 {
		t.Errorf("OperatorID is %d and %d, want 7 and 9", a.OperatorID(), b.OperatorID())
	}

	for _, cl := range []*Client{a, b} {
		if _, err := cl.SetOperatorAway(bg(), 7, true); err != nil {
			t.Fatal(err)
		}
	}
	reqs := rec.requests()
	if len(reqs) != 3 {
		t.Fatalf("the server saw %d requests, want 1 GET and 2 PATCHes", len(reqs))
	}
	for i, want := range []string{"7", "9"} {
		r := reqs[1+i]
		if r.Method != http.MethodPatch {
			t.Fatalf("request %d is a %s, want PATCH", 1+i, r.Method)
		}
		if v := r.Header.Get("Service-Operator-Id"); v != want {
			t.Errorf("PATCH %d carries Service-Operator-Id %q, want %s", i+1, v, want)
		}
	}
	// A write of any session clears the memory they share.
	if _, err := b.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := rec.count(); n != 4 {
		t.Fatalf("after a write the shared GET sent %d requests in all, want 4 (asked again)", n)
	}
}

func TestShareReadsWithAReaderSendsItOnReads(t *testing.T) {
	rec := hubServer(t)
	hub, _ := newTestClient(t, rec.base(), func(c *Config) { c.CacheTTL = time.Minute })
	a := hub.ShareReads(5).WithContext(1, 7)
	if _, err := a.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if v := rec.last(t).Header.Get("Service-Operator-Id"); v != "5" {
		t.Fatalf("a read shared as operator 5 carries Service-Operator-Id %q", v)
	}
	// A client of its own operator 5 (not sharing) holds its answers apart.
	if _, err := hub.WithContext(1, 5).ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	// Held conversations are under the reader too: a list row makes HeldConversation answer
	// every session sharing reads.
	if _, ok := hub.ShareReads(5).WithContext(1, 9).HeldConversation(11, Version{}); !ok {
		t.Error("a conversation a shared read brought is not held for another session sharing it")
	}
	if _, ok := hub.WithContext(1, 7).HeldConversation(11, Version{}); ok {
		t.Error("a conversation a shared read brought is held for operator 7's own reads")
	}
}
