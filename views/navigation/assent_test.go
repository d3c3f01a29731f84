package navigation_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/viewtest"
)

// eventsAsSent is another server, made from the sandbox: in its navigation lists (an
// envelope or a bare array) every event lacks created_at and contact_identity_id and
// carries fields parley does not read.
type eventsAsSent struct{ next http.RoundTripper }

func (e eventsAsSent) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := e.next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/navigation/") || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var page map[string]json.RawMessage
	items := json.RawMessage(body)
	bare := bytes.HasPrefix(bytes.TrimSpace(body), []byte("["))
	if !bare {
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, err
		}
		items = page["results"]
	}
	var events []map[string]any
	if err := json.Unmarshal(items, &events); err != nil {
		return nil, err
	}
	for _, ev := range events {
		delete(ev, "created_at")
		delete(ev, "contact_identity_id")
		ev["duration_ms"] = 1200
		ev["device"] = "phone\u202e"
	}
	items, _ = json.Marshal(events)
	body = items
	if !bare {
		page["results"] = items
		body, _ = json.Marshal(page)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestEventsShowAsSent: an event without a time and a contact shows "—" for both, in both
// layouts, and p shows its fields with those parley does not read, sanitized; with lists as
// envelopes and as bare arrays. Before, the fields parley does not read were dropped.
func TestEventsShowAsSent(t *testing.T) {
	for _, v := range []sandbox.Variant{"", sandbox.VariantBareLists} {
		name := string(v)
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			opts := sandbox.Options{}
			if v != "" {
				opts.Variants = []sandbox.Variant{v}
			}
			e := viewtest.NewEnv(t, opts, func(next http.RoundTripper) http.RoundTripper { return eventsAsSent{next} })
			l, m := open(t, e, 130, 30)
			r, ok := m.Selected()
			if !ok || !r.At.IsZero() || r.ContactID != 0 {
				t.Fatalf("the first event %+v (%v): a time or a contact the server did not send", r, ok)
			}
			first := strings.Split(l.H.View(), "\n")[3] // under the header and the column titles
			if f := strings.Fields(first); len(f) < 4 || f[1] != "—" || f[2] != "—" {
				t.Fatalf("the row does not show — for the time and the contact:\n%s", first)
			}
			l.Key("p")
			if !m.DetailShown() {
				t.Fatal("p did not show the detail")
			}
			view := l.H.View()
			viewtest.CheckSize(t, view, 130, 30, "the screen with the detail")
			for _, want := range []string{fmt.Sprintf("Event #%d", r.ID), "Time          —", "Contact       —",
				"Also sent", `device="phone"`, "duration_ms=1200"} {
				if !strings.Contains(view, want) {
					t.Errorf("the detail lacks %q:\n%s", want, view)
				}
			}
			if strings.ContainsRune(view, '\u202e') {
				t.Fatal("a bidi control from the server reached the screen")
			}
			l.Key("j")
			if r2, _ := m.Selected(); !strings.Contains(l.H.View(), fmt.Sprintf("Event #%d", r2.ID)) {
				t.Fatalf("the detail does not follow the cursor to %d:\n%s", r2.ID, l.H.View())
			}
		})
	}
}
