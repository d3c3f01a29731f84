package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

// Writes to one contact at the same time (upserts, notes and deletes racing) never end in a
// 500, and an upsert by email never answers 404: each write sees the data as it is.
func TestConcurrentWritesToOneContact(t *testing.T) {
	t.Parallel()
	a := newAPI(t, start(t, sandbox.Options{}))
	var wg sync.WaitGroup
	var mu sync.Mutex
	bad := map[string]int{}
	note := func(what string, status int) {
		mu.Lock()
		defer mu.Unlock()
		bad[fmt.Sprintf("%s %d", what, status)]++
	}
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				r := a.send(http.MethodPut, "/api/um/v3/contact_identities/?identifier=email", `{"email": "race@example.com", "name": "Race"}`)
				if r.status != 200 && r.status != 201 {
					note("PUT", r.status)
					continue
				}
				var c struct{ ID int64 }
				if err := json.Unmarshal(r.body, &c); err != nil {
					note("PUT body", r.status)
					continue
				}
				id := c.ID
				r = a.send(http.MethodPost, "/api/um/v3/notes/", fmt.Sprintf(`{"contact_identity_id": %d, "body": "race note %d"}`, id, w))
				// The contact may be gone by now: a 400 naming it is fine, a 500 is not.
				if r.status != 201 && r.status != 400 {
					note("POST note", r.status)
				}
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				r := a.send(http.MethodDelete, "/api/um/v3/contact_identities/?email=race%40example.com", "")
				if r.status != 204 {
					note("DELETE", r.status)
				}
			}
		}()
	}
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("unexpected answers (what status: times): %v", bad)
	}
}
