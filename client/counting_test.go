package client

import (
	"context"
	"net"
	"net/http"
	"testing"
)

// countingAPI answers request n (0-based) of every test below: conversations first get two
// 429s, then a proxy's 502 page, then the API's own 503, then the list; a contact is not
// found.
func countingAPI(w http.ResponseWriter, r *http.Request, n int) {
	switch n {
	case 0, 1:
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusTooManyRequests, `{"detail": "Request was throttled."}`)
	case 2:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"))
	case 3:
		writeJSON(w, http.StatusServiceUnavailable, `{"detail": "Service temporarily unavailable, try again later."}`)
	case 4, 5:
		writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
	default:
		writeJSON(w, http.StatusNotFound, `{"detail": "Not found."}`)
	}
}

// TestUsageCountsWhatTheServerCounted: the day's usage is what the API counted: a 429 and a
// proxy's 502 page are not counted; the API's 503, its 404 and its answers are.
func TestUsageCountsWhatTheServerCounted(t *testing.T) {
	rec := newRecorder(t, countingAPI)
	c, _ := newTestClient(t, rec.base(), nil)
	// 429, 429, 502 (proxy), 503 (API), 200: five attempts, two counted by the API.
	if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(mustFail(t, err))
	}
	if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(mustFail(t, err))
	}
	if _, err := c.GetContact(bg(), 1); !IsNotFound(err) {
		t.Fatalf("contact: %v", err)
	}
	if rec.count() != 7 {
		t.Fatalf("%d requests reached the server, want 7", rec.count())
	}
	if got := c.Usage(FamilyConversations); got != 3 {
		t.Errorf("conversations usage %d, want 3 (the 503 and two lists)", got)
	}
	if got := c.Usage(FamilyContacts); got != 1 {
		t.Errorf("contacts usage %d, want 1 (the 404)", got)
	}
}

// TestTallyKeepsRefusedAndUnreachedApart: what the API did not count is still shown, by
// what happened to it; an attempt whose answer was lost after sending counts as answered,
// one the caller gave up before it left counts nowhere.
func TestTallyKeepsRefusedAndUnreachedApart(t *testing.T) {
	rec := newRecorder(t, countingAPI)
	c, _ := newTestClient(t, rec.base(), nil)
	for range 2 {
		if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
			t.Fatal(mustFail(t, err))
		}
	}
	if got, want := c.Tally(FamilyConversations), (Tally{Answered: 3, Refused: 2, Unreached: 1}); got != want {
		t.Errorf("conversations %+v, want %+v", got, want)
	}

	// No connection: unreached (each attempt, retries included).
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	_ = l.Close()
	down, _ := newTestClient(t, closed, func(cfg *Config) { cfg.MaxRetries = 2 })
	if _, err := down.GetOperator(bg(), 1); err == nil {
		t.Fatal("no error from a closed port")
	}
	if got, want := down.Tally(FamilyOperators), (Tally{Unreached: 3}); got != want {
		t.Errorf("closed port: %+v, want %+v", got, want)
	}

	// Sent, then the connection dropped without an answer: the API may have counted it.
	lost := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	})
	lc, _ := newTestClient(t, lost.base(), func(cfg *Config) { cfg.MaxRetries = -1 })
	if _, err := lc.GetNote(bg(), 1); err == nil {
		t.Fatal("no error for a lost answer")
	}
	if got, want := lc.Tally(FamilyNotes), (Tally{Answered: 1}); got != want || lost.count() != 1 {
		t.Errorf("lost answer: %+v after %d requests, want %+v after 1", got, lost.count(), want)
	}

	// Given up before it left: nothing.
	ctx, cancel := context.WithCancel(bg())
	cancel()
	if _, err := lc.GetNote(ctx, 1); err == nil {
		t.Fatal("no error for a cancelled request")
	}
	if got, want := lc.Tally(FamilyNotes), (Tally{Answered: 1}); got != want || lost.count() != 1 {
		t.Errorf("after a cancelled request: %+v, want %+v", got, want)
	}
}

func TestOutcomeOfAnAnswer(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   Tally
	}{
		{200, `{"results": []}`, Tally{Answered: 1}},
		{200, ``, Tally{Answered: 1}}, // a bad body, but the API answered
		{400, `{"detail": "bad"}`, Tally{Answered: 1}},
		{401, `{"detail": "Invalid token."}`, Tally{Answered: 1}},
		{429, `{"detail": "Daily request limit"}`, Tally{Refused: 1}},
		{429, `<html>throttled</html>`, Tally{Refused: 1}},
		{500, `<html><title>Server Error (500)</title></html>`, Tally{Answered: 1}},
		{502, `<html><title>502 Bad Gateway</title></html>`, Tally{Unreached: 1}},
		{502, `{"detail": "Upstream failed."}`, Tally{Answered: 1}},
		{503, ``, Tally{Unreached: 1}},
		{503, `{"message": "Service Unavailable"}`, Tally{Unreached: 1}}, // a gateway's JSON
		{504, `upstream request timeout`, Tally{Unreached: 1}},
		{504, `{"detail": "Timed out."}`, Tally{Answered: 1}},
	} {
		if got := outcome(tc.status, []byte(tc.body)); got != tc.want {
			t.Errorf("%d %q: %+v, want %+v", tc.status, tc.body, got, tc.want)
		}
	}
}
