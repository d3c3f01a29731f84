package contacts_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/viewtest"
)

// A note without text shows as "(empty note)", as an empty message does in the thread,
// not as a blank line.
func TestEmptyNoteSaysSo(t *testing.T) {
	e := readOnly(t)
	// The sandbox's hostile contact has a note with an empty body among its notes.
	ct := e.contactWith(t, func(c client.Contact) bool { return strings.Contains(client.Str(c.Name), "Mallory") })
	hs := newHarness(t, e.ctx, 160, 46)
	openContact(t, hs, ct)
	// Its notes include a 10,000-character one: page down until the empty one shows.
	v := hs.s.View()
	for i := 0; i < 40 && !strings.Contains(v, "(empty note)"); i++ {
		hs.key("ctrl+d")
		v = hs.s.View()
	}
	if !strings.Contains(v, "(empty note)") {
		t.Fatalf("the empty note is not marked:\n%s", v)
	}
	if strings.Count(v, "(empty note)") != 1 {
		t.Fatalf("more than one empty note marked:\n%s", v)
	}
}

// notesAsSent is another server, made from the sandbox: in its notes lists the note
// stripped has no operator_id and no created_at and carries fields parley does not read,
// and the note byOrg has operator_id null.
type notesAsSent struct {
	next            http.RoundTripper
	stripped, byOrg int64
}

func (n notesAsSent) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := n.next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/notes/") || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var page map[string]json.RawMessage
	var notes []map[string]any
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(page["results"], &notes); err != nil {
		return nil, err
	}
	for _, note := range notes {
		switch id, _ := note["id"].(float64); int64(id) {
		case n.stripped:
			delete(note, "operator_id")
			delete(note, "created_at")
			note["pinned"] = true
			note["color"] = "\u202ered"
		case n.byOrg:
			note["operator_id"] = nil
		}
	}
	page["results"], _ = json.Marshal(notes)
	body, _ = json.Marshal(page)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// A note's author and time show as the server sent them: a note without operator_id and
// created_at shows "—" for both, never "organization" and the year 1; null is the
// organization. The fields parley does not read show under the note, sanitized. Before, the
// note without them read "0001-01-01 00:00 · organization".
func TestNoteFieldsShowAsSent(t *testing.T) {
	e := readOnly(t)
	p, err := e.c.ListNotes(context.Background(), client.NoteListOptions{ListOptions: client.ListOptions{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	// A contact with two notes written by an operator.
	byContact := map[int64][]client.Note{}
	var ct int64
	for _, n := range p.Results {
		if n.OperatorID.Known && !n.CreatedAt.IsZero() {
			byContact[n.ContactIdentityID] = append(byContact[n.ContactIdentityID], n)
			if len(byContact[n.ContactIdentityID]) == 2 {
				ct = n.ContactIdentityID
				break
			}
		}
	}
	if ct == 0 {
		t.Fatal("no contact with two notes by an operator among the first 100 notes")
	}
	stripped, byOrg := byContact[ct][0], byContact[ct][1]
	e.rec.next = notesAsSent{next: e.rec.next, stripped: stripped.ID, byOrg: byOrg.ID}
	contact, err := e.c.GetContact(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, e.ctx, 160, 60)
	openContact(t, hs, *contact)
	v := hs.s.View()
	for _, want := range []string{
		fmt.Sprintf(" #%d · — · —", stripped.ID),
		`also sent: color="red" · pinned=true`,
		fmt.Sprintf(" #%d · %s · organization", byOrg.ID, byOrg.CreatedAt.In(viewtest.Now.Location()).Format("2006-01-02 15:04")),
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "0001-01-01") || strings.ContainsRune(v, '\u202e') {
		t.Fatalf("the detail shows a time the server did not send, or a bidi control:\n%s", v)
	}
}
