package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// threadServer serves one conversation (42): the list, the single GET with one part, and
// its messages newest first by cursor, and counts the requests by path and query.
type threadServer struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	messages  []Message // oldest first
	updatedAt string    // "" leaves updated_at out
	lastAt    string
	state     map[string]string // message id → state text, when changed
	asked     []string          // path?query of every request
}

const threadID = 42

func newThreadServer(t *testing.T, n int) *threadServer {
	s := &threadServer{t: t, updatedAt: "2026-11-20T10:00:00Z", lastAt: "2026-11-20T09:59:00Z", state: map[string]string{}}
	for range n {
		s.add()
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// add appends a message to the thread (the server's side only).
func (s *threadServer) add() {
	seq := len(s.messages) + 1
	s.messages = append(s.messages, Message{ID: fmt.Sprintf("42.1.%d", seq), ConversationID: threadID,
		Body: fmt.Sprintf("message %d", seq), Sender: Sender{Type: SenderContact, ID: 1}})
}

func (s *threadServer) set(f func(s *threadServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

func (s *threadServer) conversation() map[string]any {
	c := map[string]any{"id": threadID, "status": "new", "last_message_sent_at": s.lastAt}
	if s.updatedAt != "" {
		c["updated_at"] = s.updatedAt
	}
	return c
}

func (s *threadServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, r.URL.Path+"?"+r.URL.RawQuery)
	w.Header().Set("Content-Type", "application/json")
	var body any
	switch r.URL.Path {
	case v3 + "/conversations/":
		body = map[string]any{"count": 1, "next": nil, "previous": nil, "results": []any{s.conversation()}}
	case v3 + "/conversations/42/":
		c := s.conversation()
		c["conversation_part_set"] = []any{map[string]any{"id": 1, "name_friendly": "Chat via Help Center"}}
		body = c
	case v3 + "/conversations/42/messages/":
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		end := len(s.messages) // exclusive, oldest first
		if cur := r.URL.Query().Get("cursor"); cur != "" {
			end = slices.IndexFunc(s.messages, func(m Message) bool { return m.ID == cur })
		}
		start := max(0, end-limit)
		var page []Message
		for i := end - 1; i >= start; i-- {
			m := s.messages[i]
			m.State.Message = s.state[m.ID]
			page = append(page, m)
		}
		next := any(nil)
		if start > 0 {
			next = fmt.Sprintf("%s%s/conversations/42/messages/?cursor=%s&limit=%d", s.srv.URL, v3, s.messages[start].ID, limit)
		}
		body = map[string]any{"next": next, "previous": nil, "results": page}
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"detail": "Not found."}`))
		return
	}
	b, err := json.Marshal(body)
	if err != nil {
		s.t.Error(err)
	}
	_, _ = w.Write(b)
}

// requests returns the requests asked since the last call.
func (s *threadServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.asked
	s.asked = nil
	return out
}

// listVersion lists the conversations (as a refresh does: past the memory) and returns the
// version the list shows for conversation 42.
func listVersion(t *testing.T, c *Client) Version {
	t.Helper()
	p, err := c.ListConversations(Fresh(context.Background()), ConversationListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return VersionOf(p.Results[0])
}

func seqs(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = strings.TrimPrefix(m.ID, "42.1.")
	}
	return out
}

func newHeldClient(t *testing.T, srv *threadServer, now *time.Time) *Client {
	t.Helper()
	c, err := New(Config{BaseURL: srv.srv.URL, Token: "t", CacheTTL: 2 * time.Minute, Now: func() time.Time { return *now }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A thread fetched at a version is answered from memory while the list shows that version,
// however long ago it was fetched; a new message (last_message_sent_at) costs one request
// for the newest page, merged on top of what is held: in order, each message once, the
// held ones on the page replaced by the page's (their state changed).
func TestLatestMessagesByVersion(t *testing.T) {
	srv := newThreadServer(t, 7)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c := newHeldClient(t, srv, &now)
	ctx := context.Background()
	v := listVersion(t, c)
	srv.requests()

	th, err := c.LatestMessages(ctx, threadID, v, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 1 || got[0] != v3+"/conversations/42/messages/?limit=5" {
		t.Fatalf("first open asked %q, want the newest page", got)
	}
	if got := seqs(th.Messages); !slices.Equal(got, []string{"7", "6", "5", "4", "3"}) || th.Next == "" || th.Fetched != 5 {
		t.Fatalf("first open: %v next %q fetched %d", got, th.Next, th.Fetched)
	}
	if _, err := c.OlderMessages(ctx, threadID, th.Next); err != nil {
		t.Fatal(err)
	}
	srv.requests()

	// An hour later, the list (refreshed) still shows the same version: from memory,
	// the older page included.
	now = now.Add(time.Hour)
	if got := listVersion(t, c); got != v {
		t.Fatalf("the list's version changed to %v", got)
	}
	srv.requests()
	th, err = c.LatestMessages(ctx, threadID, v, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 0 {
		t.Fatalf("the same version an hour later asked %q, want nothing", got)
	}
	if got := seqs(th.Messages); !slices.Equal(got, []string{"7", "6", "5", "4", "3", "2", "1"}) || th.Next != "" || th.Fetched != 0 {
		t.Fatalf("from memory: %v next %q fetched %d", got, th.Next, th.Fetched)
	}

	// Two new messages and a read receipt: the list shows a newer last_message_sent_at.
	srv.set(func(s *threadServer) {
		s.add()
		s.add()
		s.lastAt = "2026-11-20T11:00:00Z"
		s.state["42.1.6"] = "Read by user"
	})
	v2 := listVersion(t, c)
	srv.requests()
	if v2 == v || !v2.LastMessageSentAt.After(v.LastMessageSentAt) {
		t.Fatalf("the list's version %v did not move on from %v", v2, v)
	}
	th, err = c.LatestMessages(ctx, threadID, v2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 1 || got[0] != v3+"/conversations/42/messages/?limit=5" {
		t.Fatalf("a changed conversation asked %q, want only its newest page", got)
	}
	if got := seqs(th.Messages); !slices.Equal(got, []string{"9", "8", "7", "6", "5", "4", "3", "2", "1"}) {
		t.Fatalf("merged thread %v, want 9 down to 1, each once", got)
	}
	if th.Added != 2 || th.Fetched != 5 || th.Restarted || th.Next != "" || th.Version != v2 {
		t.Fatalf("merge: added %d fetched %d restarted %v next %q version %v", th.Added, th.Fetched, th.Restarted, th.Next, th.Version)
	}
	if th.Messages[3].State.Message != "Read by user" {
		t.Fatalf("message 6 kept its old state %q", th.Messages[3].State.Message)
	}
	// And the merged thread is what is held now.
	if th, err = c.LatestMessages(ctx, threadID, v2, 5); err != nil || len(srv.requests()) != 0 || len(th.Messages) != 9 {
		t.Fatalf("after the merge: %d messages, %v", len(th.Messages), err)
	}
	// The version the list shows is the server's: a version older than the one held (a
	// list page answered from memory) does not make the thread stale.
	if _, err = c.LatestMessages(ctx, threadID, v, 5); err != nil || len(srv.requests()) != 0 {
		t.Fatalf("an older version asked again: %v", err)
	}
}

// More new messages than a page holds: the thread starts over from the newest page.
func TestLatestMessagesRestartsAfterAGap(t *testing.T) {
	srv := newThreadServer(t, 3)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c := newHeldClient(t, srv, &now)
	ctx := context.Background()
	if _, err := c.LatestMessages(ctx, threadID, listVersion(t, c), 5); err != nil {
		t.Fatal(err)
	}
	srv.set(func(s *threadServer) {
		for range 8 {
			s.add()
		}
		s.updatedAt, s.lastAt = "2026-11-20T11:00:00Z", "2026-11-20T11:00:00Z"
	})
	th, err := c.LatestMessages(ctx, threadID, listVersion(t, c), 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := seqs(th.Messages); !th.Restarted || !slices.Equal(got, []string{"11", "10", "9", "8", "7"}) || !strings.Contains(th.Next, "cursor=42.1.7") {
		t.Fatalf("after a gap: restarted %v, %v, next %q", th.Restarted, got, th.Next)
	}
}

// A conversation without updated_at has no version: its thread is answered from memory for
// the time-to-live only.
func TestLatestMessagesWithoutVersionLastTheTTL(t *testing.T) {
	srv := newThreadServer(t, 3)
	srv.set(func(s *threadServer) { s.updatedAt = "" })
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c := newHeldClient(t, srv, &now)
	ctx := context.Background()
	v := listVersion(t, c)
	if v.Known() {
		t.Fatalf("a conversation without updated_at has version %v", v)
	}
	srv.requests()
	for range 2 {
		if _, err := c.LatestMessages(ctx, threadID, v, 5); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.requests(); len(got) != 1 {
		t.Fatalf("within the TTL: %q, want one request", got)
	}
	now = now.Add(2 * time.Minute)
	if _, err := c.LatestMessages(ctx, threadID, v, 5); err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 1 {
		t.Fatalf("past the TTL: %q, want one request", got)
	}
	// Fresh always asks.
	if _, err := c.LatestMessages(Fresh(ctx), threadID, v, 5); err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 1 {
		t.Fatalf("Fresh: %q, want one request", got)
	}
}

// The detail draws from the list row without a request; the parts cost the single GET
// once per version of the conversation.
func TestHeldConversationAndParts(t *testing.T) {
	srv := newThreadServer(t, 1)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c := newHeldClient(t, srv, &now)
	ctx := context.Background()
	if _, ok := c.HeldConversation(threadID, Version{}); ok {
		t.Fatal("a conversation never received is held")
	}
	v := listVersion(t, c)
	srv.requests()
	conv, ok := c.HeldConversation(threadID, v)
	if !ok || conv.ID != threadID || conv.Status != "new" || conv.ConversationPartSet != nil {
		t.Fatalf("the list row: %v %+v", ok, conv)
	}
	for range 2 {
		full, err := c.ConversationWithParts(ctx, threadID, v)
		if err != nil || len(full.ConversationPartSet) != 1 || full.ConversationPartSet[0].NameFriendly != "Chat via Help Center" {
			t.Fatalf("parts: %v %+v", err, full)
		}
	}
	if got := srv.requests(); len(got) != 1 || got[0] != v3+"/conversations/42/?" {
		t.Fatalf("parts twice at one version asked %q, want one single GET", got)
	}
	now = now.Add(time.Hour)
	if conv, ok = c.HeldConversation(threadID, v); !ok || len(conv.ConversationPartSet) != 1 {
		t.Fatalf("an hour later at the same version: %v %+v", ok, conv)
	}
	// A refresh shows the conversation changed: the row is the new one, the parts are not
	// held for it.
	srv.set(func(s *threadServer) { s.updatedAt = "2026-11-20T11:00:00Z" })
	v2 := listVersion(t, c)
	srv.requests()
	if conv, ok = c.HeldConversation(threadID, v2); !ok || conv.UpdatedAt.Time != v2.UpdatedAt || conv.ConversationPartSet != nil {
		t.Fatalf("after a change: %v %+v", ok, conv)
	}
	if _, err := c.ConversationWithParts(ctx, threadID, v2); err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 1 {
		t.Fatalf("parts after a change asked %q, want one single GET", got)
	}
	// A caller that knows a newer version than the one held gets nothing from memory.
	newer := v2
	newer.UpdatedAt = newer.UpdatedAt.Add(time.Minute)
	if _, ok := c.HeldConversation(threadID, newer); ok {
		t.Fatal("a conversation older than the caller's version was answered from memory")
	}
}

// Answers without a version are held decoded for the TTL, and expired ones are swept when
// something new is kept: the memory does not grow with what it no longer answers.
func TestMemorySweepsExpiredAnswers(t *testing.T) {
	srv := newThreadServer(t, 1)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c := newHeldClient(t, srv, &now)
	ctx := context.Background()
	for i := range 20 {
		if _, err := c.ListConversations(ctx, ConversationListOptions{ListOptions: ListOptions{Offset: i}}); err != nil {
			t.Fatal(err)
		}
	}
	bytes, entries := c.memo.usage()
	if entries != 21 || bytes == 0 { // 20 pages and conversation 42
		t.Fatalf("after 20 pages the memory holds %d entries of %d bytes", entries, bytes)
	}
	now = now.Add(3 * time.Minute)
	if _, err := c.LatestMessages(ctx, threadID, Version{}, 5); err != nil {
		t.Fatal(err)
	}
	if after, entries := c.memo.usage(); entries != 2 || after >= bytes { // the thread and conversation 42
		t.Fatalf("past the TTL the memory still holds %d entries of %d bytes", entries, after)
	}
}

// An answer held in memory is a copy: a caller that changes its page leaves the memory's
// alone.
func TestMemoryAnswersAreCopies(t *testing.T) {
	srv := newThreadServer(t, 1)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c := newHeldClient(t, srv, &now)
	ctx := context.Background()
	p, err := c.ListConversations(ctx, ConversationListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.Results[0].Status = "changed by the caller"
	again, err := c.ListConversations(ctx, ConversationListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again.Results[0].Status += " again"
	third, err := c.ListConversations(ctx, ConversationListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 1 {
		t.Fatalf("three identical list GETs asked %q, want one", got)
	}
	if third.Results[0].Status != "new" {
		t.Fatalf("the memory's page was changed by a caller: status %q", third.Results[0].Status)
	}
}

func TestHeldElsewhere(t *testing.T) {
	for path, want := range map[string]bool{
		"/api/um/v3/conversations/42/":                   true,
		"/api/um/v3/conversations/42/messages/":          true,
		"/prefix/api/um/v3/conversations/42/messages/":   true,
		"/api/um/v3/contact_identities/7/":               true,
		"/api/um/v3/conversations/":                      false,
		"/api/um/v3/conversations/all/":                  false,
		"/api/um/v3/contact_identities/7/conversations/": false,
		"/api/um/v3/notes/3/":                            false,
		"/prefix/api/um/v3/contact_identities/all/":      false,
		"/api/um/v3/conversations/42/messages/extra/":    false,
	} {
		if got := heldElsewhere(path); got != want {
			t.Errorf("heldElsewhere(%q) = %v, want %v", path, got, want)
		}
	}
}

// A single GET without conversation_part_set is the whole conversation: it has no parts,
// and asking again for them would find none either.
func TestConversationWithoutPartsIsAskedOnce(t *testing.T) {
	var gets int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets++
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id": 7, "status": "new", "updated_at": "2026-11-20T10:00:00Z"}`))
	}))
	t.Cleanup(srv.Close)
	for _, ttl := range []time.Duration{0, time.Minute} {
		gets = 0
		c, err := New(Config{BaseURL: srv.URL, Token: "t", CacheTTL: ttl})
		if err != nil {
			t.Fatal(err)
		}
		conv, err := c.ConversationWithParts(context.Background(), 7, Version{})
		if err != nil || conv.ConversationPartSet == nil {
			t.Fatalf("memory %v: parts %v (%v), want none but known", ttl, conv.ConversationPartSet, err)
		}
		if ttl > 0 {
			if _, err := c.ConversationWithParts(context.Background(), 7, Version{}); err != nil || gets != 1 {
				t.Fatalf("asked %d times for a conversation without parts (%v)", gets, err)
			}
		}
	}
}
