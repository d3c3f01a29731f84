package client

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// A kept answer is the body as the server sent it: fields the client does not know, the
// server's spelling of a time and white space included; a token it echoes is redacted.
func TestKeepAnswerHoldsTheBodyAsSent(t *testing.T) {
	const body = `{"id": 12, "status": "ended", "created_at": "2026-11-20T10:15:00.000001+01:00", "from_the_future": [1, {"a": null}], "echo": "` + testToken + `"}`
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, _ int) { writeJSON(w, http.StatusOK, body) })
	c, _ := newTestClient(t, rec.base(), nil)
	ctx, a := KeepAnswer(bg())
	if a.JSON() != nil {
		t.Fatal("an answer before any request")
	}
	conv, err := c.UpdateConversation(ctx, 12, ConversationUpdate{Status: ptr(StatusEnded)})
	if err != nil || conv.ID != 12 {
		t.Fatalf("update: %v %+v", err, conv)
	}
	want := strings.Replace(body, testToken, "[redacted]", 1)
	if got := string(a.JSON()); got != want {
		t.Fatalf("kept:\n%s\nwant:\n%s", got, want)
	}
	// A read with the same context keeps its own answer (the last one).
	rec.setRespond(func(w http.ResponseWriter, r *http.Request, _ int) {
		writeJSON(w, http.StatusOK, `{"id": 12,  "status": "pending"}`)
	})
	if _, err := c.GetConversation(ctx, 12); err != nil {
		t.Fatal(err)
	}
	if got := string(a.JSON()); got != `{"id": 12,  "status": "pending"}` {
		t.Fatalf("kept after the read: %s", got)
	}
	// A failed request leaves what was kept.
	rec.setRespond(func(w http.ResponseWriter, r *http.Request, _ int) {
		writeJSON(w, http.StatusForbidden, `{"detail": "no"}`)
	})
	if _, err := c.UpdateConversation(ctx, 12, ConversationUpdate{Status: ptr(StatusEnded)}); err == nil {
		t.Fatal("a 403 succeeded")
	}
	if got := string(a.JSON()); got != `{"id": 12,  "status": "pending"}` {
		t.Fatalf("kept after a refusal: %s", got)
	}
}

// A dry-run client describes each write (method, path with the base URL's path and the
// query, the context headers, the JSON body; never the token) and sends none; reads go out.
func TestDryRunDescribesWritesAndSendsNone(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		writeJSON(w, http.StatusOK, `{"id": 7, "name": "Ann", "email": "ann@example.com"}`)
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OrganizationID, cfg.OperatorID = 1001, 7 })
	var seen []DryRequest
	d := c.WithDryRun(func(r DryRequest) { seen = append(seen, r) })
	email := "ann@example.com"
	_, _, err := d.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: &email})
	if !errors.Is(err, ErrDryRun) {
		t.Fatalf("upsert: %v", err)
	}
	if _, err := d.SetOperatorAway(bg(), 7, true); !errors.Is(err, ErrDryRun) {
		t.Fatalf("away: %v", err)
	}
	if rec.count() != 0 {
		t.Fatalf("a dry run sent %d requests", rec.count())
	}
	if _, err := d.GetContact(bg(), 7); err != nil || rec.count() != 1 {
		t.Fatalf("a read of the dry run: %v, %d requests", err, rec.count())
	}
	got, err := json.Marshal(seen)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"method":"PUT","path":"/prefix/api/um/v3/contact_identities/?identifier=email",` +
		`"headers":{"Service-Operator-Id":"7","Service-Organization-Id":"1001"},"body":{"email":"ann@example.com"}},` +
		`{"method":"PATCH","path":"/prefix/api/um/v3/operators/7/away/",` +
		`"headers":{"Service-Operator-Id":"7","Service-Organization-Id":"1001"},"body":{"is_away":true}}]`
	if string(got) != want {
		t.Fatalf("described:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(string(got), testToken) {
		t.Fatal("the token is in a description")
	}
	// The gates come first: a refused write is not described.
	seen = nil
	g := d.WithGate(RefuseWrites("read-only"))
	var refused *RefusedError
	if _, err := g.SetOperatorAway(bg(), 7, true); !errors.As(err, &refused) || len(seen) != 0 {
		t.Fatalf("a gated dry run: %v, %d described", err, len(seen))
	}
	// The client it came from still sends.
	if _, err := c.SetOperatorAway(bg(), 7, true); err != nil || rec.count() != 2 {
		t.Fatalf("the client without the dry run: %v, %d requests", err, rec.count())
	}
}
