package contacts_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// With the local clock 17 days off the server's either way, every contact write whose
// answer is lost is settled by what the server shows, never by the local clock: the edit
// (the contact's values), the upsert (no check: it says the change may have been made and
// a resend updates the same contact), a note written from the contact (its id above the
// notes shown), the note delete and the contact deletes (a 404).
func TestLostWritesAreCheckedWithoutTheLocalClock(t *testing.T) {
	t.Parallel()
	viewtest.EachSkew(t, sandbox.Options{DailyLimit: 1 << 30}, func(t *testing.T, sk *viewtest.Skewed) {
		e := envOn(t, sk.Sandbox, 0)
		p, ctx := sk.Lossy(t)
		e.ctx = ctx
		bg := client.Fresh(context.Background())
		ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })

		// The edit: the PATCH arrives and its answer is lost.
		m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
		m = press(m, "ctrl+u")
		m = typeInto(m, "Skewed Lost")
		p.Lose("PATCH", "/api/um/v3/contact_identities/", viewtest.DropAnswer, 1)
		m, cmd, _ := save(m)
		_, _, out := drive(m, task(t, cmd))
		check, ok := find[common.TaskDoneMsg](out)
		if !ok || check.Err != nil || check.Lost == nil {
			t.Fatalf("edit: the check after the lost answer: %+v", check)
		}
		if now, err := e.c.GetContact(bg, ct.ID); err != nil || client.Str(now.Name) != "Skewed Lost" {
			t.Fatalf("edit: name on the server %q (%v)", client.Str(now.Name), err)
		}

		// The upsert: its answer is lost; the form says the change may have been made
		// and keeps the text; ctrl+s sends it again, and one contact has the email.
		const email = "skewed.upsert@example.com"
		m = openModal(contacts.NewUpsertForm(e.ctx), 76, 40)
		m = press(m, "enter") // identifier: email
		m = typeInto(m, "Skewed Upsert")
		m = press(m, "tab")
		m = typeInto(m, email)
		p.Lose("PUT", "/api/um/v3/contact_identities/", viewtest.DropAnswer, 1)
		m, cmd, _ = save(m)
		m, _, _ = drive(m, task(t, cmd))
		if got := m.(*forms.Modal).Err(); !strings.Contains(got, "The change may have been made: check before sending it again.") || strings.Contains(got, "Not saved") {
			t.Fatalf("upsert: error %q", got)
		}
		if viewtest.Closed(e.ctx) || !strings.Contains(m.View(), email) {
			t.Fatalf("upsert: the form closed or lost the text:\n%s", m.View())
		}
		_, cmd, _ = save(m)
		if d := task(t, cmd); d.Err != nil || d.Result.(contacts.Upserted).Created {
			t.Fatalf("upsert again: %+v", d)
		}
		if n := contactsWithEmail(t, e, email); n != 1 {
			t.Fatalf("upsert: %d contacts with the email, want 1", n)
		}

		// A note from the contact, then its delete, each with the answer lost.
		inServerOrder(e.ctx)
		hs := newHarness(t, e.ctx, 100, 30)
		openContact(t, hs, ct)
		p.Lose("POST", "/api/um/v3/notes/", viewtest.DropAnswer, 1)
		hs.key("n")
		hs.typeText("Skewed note")
		hs.key("ctrl+s")
		if hs.Top() != nil || hs.LastToast() != "Note saved (confirmed after the connection dropped)" {
			t.Fatalf("note: toast %q", hs.LastToast())
		}
		notes, err := e.c.ListNotes(bg, client.NoteListOptions{ContactIdentityID: ct.ID, ListOptions: client.ListOptions{Limit: client.MaxLimit, Ordering: "-id"}})
		if err != nil || len(notes.Results) == 0 || notes.Results[0].Body != "Skewed note" {
			t.Fatalf("note on the server: %v", err)
		}
		note := notes.Results[0].ID
		for range 200 {
			if id, _, ok := hs.s.Detail.SelectedNote(); ok && id == note {
				break
			}
			hs.key("j")
		}
		p.Lose("DELETE", "/api/um/v3/notes/", viewtest.DropAnswer, 1)
		hs.key("d", "y")
		if want := fmt.Sprintf("Note #%d deleted (confirmed after the connection dropped)", note); hs.LastToast() != want {
			t.Fatalf("note delete: toast %q, want %q", hs.LastToast(), want)
		}
		if _, err := e.c.GetNote(bg, note); !client.IsNotFound(err) {
			t.Fatalf("note %d is still there: %v", note, err)
		}

		// The contact deletes: two marked, the request lost (nothing deleted), then the
		// answer lost (both deleted).
		hs.key("esc")
		hs.send(contacts.FilterMsg{})
		marked := deleteTwoLosingTheRequest(t, hs, p)
		p.Lose("DELETE", "/api/um/v3/contact_identities/", viewtest.DropAnswer, 1)
		hs.key("d", "y")
		if want := "2 contacts deleted (confirmed after the connection dropped)"; hs.LastToast() != want {
			t.Fatalf("contacts delete: toast %q, want %q", hs.LastToast(), want)
		}
		for _, r := range marked {
			if _, err := e.c.GetContact(bg, r.ID); !client.IsNotFound(err) {
				t.Fatalf("contact %d is still there: %v", r.ID, err)
			}
		}
		if n := p.Met(); n != 6 {
			t.Fatalf("%d requests lost, want the 6 the test lost", n)
		}
	})
}

// contactsWithEmail counts the sandbox's contacts whose email is email.
func contactsWithEmail(t *testing.T, e *env, email string) int {
	t.Helper()
	p, err := e.c.ListContacts(client.Fresh(context.Background()), client.ContactListOptions{
		ListOptions: client.ListOptions{Limit: client.MaxLimit}, Filter: client.ContactFilter{Email: email}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ct := range p.Results {
		if strings.EqualFold(client.Str(ct.Email), email) {
			n++
		}
	}
	return n
}
