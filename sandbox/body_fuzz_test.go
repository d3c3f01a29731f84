package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
)

// writableServer is one small sandbox the body fuzz target writes to (the shared one stays
// as seeded).
var writableServer onceServer

// bodyWrite is a write whose JSON body comes from outside: the request, and what the
// resource looks like afterwards (its path, and the client type it must decode into).
type bodyWrite struct {
	method, path string
	read         func(answer map[string]any) string // the resource's path after a 2xx
	decode       func([]byte) error                 // the client's reading of it
	echoed       []string                           // string fields stored as sent
}

func into[T any](b []byte) error { var v T; return json.Unmarshal(b, &v) }

// The sandbox's ids of the small seed: a conversation, a contact and an operator.
const (
	fuzzConversation = 700002
	fuzzContact      = 50002
	fuzzOperator     = 2002
)

var bodyWrites = []bodyWrite{
	{http.MethodPatch, fmt.Sprintf("/api/um/v3/conversations/%d/", fuzzConversation),
		func(map[string]any) string { return fmt.Sprintf("/api/um/v3/conversations/%d/", fuzzConversation) }, into[client.Conversation], nil},
	{http.MethodPatch, fmt.Sprintf("/api/um/v3/contact_identities/%d/", fuzzContact),
		func(map[string]any) string { return fmt.Sprintf("/api/um/v3/contact_identities/%d/", fuzzContact) }, into[client.Contact],
		[]string{"name", "company", "position", "street", "city"}},
	{http.MethodPut, "/api/um/v3/contact_identities/?identifier=email",
		func(a map[string]any) string { return fmt.Sprintf("/api/um/v3/contact_identities/%v/", a["id"]) }, into[client.Contact], nil},
	{http.MethodPost, "/api/um/v3/notes/",
		func(a map[string]any) string { return fmt.Sprintf("/api/um/v3/notes/%v/", a["id"]) }, into[client.Note], []string{"body"}},
	{http.MethodPatch, fmt.Sprintf("/api/um/v3/operators/%d/", fuzzOperator),
		func(map[string]any) string { return fmt.Sprintf("/api/um/v3/operators/%d/", fuzzOperator) }, into[client.Operator], nil},
	{http.MethodPatch, fmt.Sprintf("/api/um/v3/operators/%d/away/", fuzzOperator),
		func(map[string]any) string { return fmt.Sprintf("/api/um/v3/operators/%d/", fuzzOperator) }, into[client.Operator], nil},
}

// The JSON bodies of the writes, from any bytes: the answer is a 2xx or a 4xx with a
// detail, never a 500; after a 2xx the resource reads back (200) in a shape the client
// decodes, with the strings it was sent, and so does its list. Seeds hold the extremes:
// int64 minimum and maximum ids, numbers past them, NaN, a byte order mark, deep nesting,
// a field of 1 MB (over the body limit) and one just under it.
func FuzzWriteBodies(f *testing.F) {
	// Bodies each write understands, then the rest (extremes, wrong shapes, a byte order
	// mark, deep nesting, a 1 MB field: one over the body limit, one just under) round the
	// writes.
	big := strings.Repeat("x", 1<<20)
	own := [][]string{
		{`{"topics": ["Billing", "\u0000x"]}`, `{"status": "ended"}`, `{"operator_assigned_to": 9223372036854775807}`},
		{`{"name": "Zoë \u202e\u200b", "city": null}`, `{"email": " a@b "}`, `{"country": "de"}`},
		{`{"email": "fuzz@example.com", "name": "Fuzz"}`, `{"email": "9223372036854775807@x"}`},
		{`{"contact_identity_id": 50002, "body": "a note"}`, `{"contact_identity_id": 9223372036854775807, "body": "x"}`},
		{`{"max_slots": 9223372036854775807}`, `{"max_slots": -1}`, `{"display_name": "\u3164"}`},
		{`{"is_away": true}`, `{"is_away": "yes"}`},
	}
	for i, bodies := range own {
		for _, b := range bodies {
			f.Add(uint8(i), []byte(b))
		}
	}
	for i, b := range []string{
		`{"operator_assigned_to": -9223372036854775808}`, `{"operator_assigned_to": 9223372036854775808}`,
		`{"operator_assigned_to": 1e400}`, `{"operator_assigned_to": "NaN"}`, `{"contact_identity_id": -9223372036854775808, "body": "x"}`,
		`{"contact_identity_id": 50002.5, "body": "x"}`, "\ufeff{\"name\": \"bom\"}", `{"update": {"name": "x"}}`, `{}`, `null`,
		`[]`, `"x"`, `{"name": "a"} {}`, strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat(`}`, 20000),
		`{"name": "` + big + `"}`, `{"body": "` + big[:1<<20-100] + `", "contact_identity_id": 50002}`,
	} {
		f.Add(uint8(i%len(bodyWrites)), []byte(b))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		w := bodyWrites[int(which)%len(bodyWrites)]
		a := writableServer.api(t, "writable")
		r := a.do(w.method, w.path, body, "application/json")
		what := fmt.Sprintf("%s %s %.120q", w.method, w.path, body)
		switch {
		case r.status >= 400 && r.status < 500:
			r.detail(t)
			return
		case r.status < 200 || r.status >= 300:
			t.Fatalf("%s: status %d: %s", what, r.status, truncate(string(r.body), 300))
		}
		var answer map[string]any
		if err := json.Unmarshal(r.body, &answer); err != nil {
			t.Fatalf("%s: a %d answer that is no JSON object: %v", what, r.status, err)
		}
		var sent map[string]any
		_ = json.Unmarshal(bytes.TrimPrefix(body, []byte("\ufeff")), &sent)
		path := w.read(answer)
		got := a.get(path)
		if got.status != http.StatusOK {
			t.Fatalf("%s: then GET %s: %d %s", what, path, got.status, truncate(string(got.body), 300))
		}
		if err := w.decode(got.body); err != nil {
			t.Fatalf("%s: the client cannot read %s: %v\n%s", what, path, err, truncate(string(got.body), 300))
		}
		var now map[string]any
		got.json(t, &now)
		for k, v := range sent {
			if s, ok := v.(string); ok && slices.Contains(w.echoed, k) {
				if now[k] != s {
					t.Fatalf("%s: %s is %q after the write", what, k, now[k])
				}
			}
		}
		list := path[:strings.LastIndex(strings.TrimSuffix(path, "/"), "/")+1] + "?limit=100"
		if l := a.get(list); l.status != http.StatusOK || into[struct{ Results []json.RawMessage }](l.body) != nil {
			t.Fatalf("%s: then GET %s: %d %s", what, list, l.status, truncate(string(l.body), 300))
		}
	})
}
