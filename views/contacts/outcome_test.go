package contacts_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/forms"
	"github.com/parley-tui/parley/views/viewtest"
)

// lossy is a sandbox of the test's own with the screen's client behind a proxy that can
// lose requests (one attempt per request); e.c still talks to the sandbox directly.
func lossy(t *testing.T) (*env, *viewtest.Proxy) {
	t.Helper()
	e := writable(t)
	p := viewtest.NewProxy(t, e.sb.URL)
	e.ctx = viewtest.Ctx(p.Client(t, e.info.CustomerToken, true))
	return e, p
}

// The contact PATCH is carried out and its answer lost: the form reads the contact again
// and closes as saved, confirmed; lost before the sandbox saw it, the form stays open with
// the text and says not saved.
func TestEditLostAnswerIsCheckedAgainstTheContact(t *testing.T) {
	for _, fault := range []viewtest.Fault{viewtest.DropAnswer, viewtest.DropRequest} {
		saved := fault == viewtest.DropAnswer
		t.Run(map[bool]string{true: "answer", false: "request"}[saved], func(t *testing.T) {
			e, p := lossy(t)
			ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
			m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
			m = press(m, "ctrl+u")
			m = typeInto(m, "Renamed Lost")
			p.Lose("PATCH", "/api/um/v3/contact_identities/", fault, 1)
			m, cmd, _ := save(m)
			d := task(t, cmd)
			if !errors.Is(d.Err, client.ErrOutcomeUnknown) {
				t.Fatalf("PATCH report: %+v", d)
			}
			m, _, out := drive(m, d)
			check, ok := find[common.TaskDoneMsg](out)
			if !ok || check.Lost == nil {
				t.Fatalf("no check after the lost answer: %#v", out)
			}
			m, _, out = drive(m, check)
			_, closed := find[common.CloseModalMsg](out)
			toast, _ := find[common.ToastMsg](out)
			now, err := e.c.GetContact(client.Fresh(context.Background()), ct.ID)
			if err != nil {
				t.Fatal(err)
			}
			if saved {
				if !closed || toast.Text != "Contact saved (confirmed after the connection dropped)" {
					t.Fatalf("closed %v, toast %q", closed, toast.Text)
				}
				if got := check.Result.(client.Contact); client.Str(got.Name) != "Renamed Lost" {
					t.Fatalf("check read %q", client.Str(got.Name))
				}
				if client.Str(now.Name) != "Renamed Lost" {
					t.Fatalf("name on the server %q", client.Str(now.Name))
				}
				return
			}
			want := "Not saved: the connection was lost before the server answered, and the contact on the server does not have the values sent. ctrl+s sends it again."
			if closed || toast.Text != "" || m.(*forms.Modal).Err() != want {
				t.Fatalf("closed %v, toast %q, error\n got %q\nwant %q", closed, toast.Text, m.(*forms.Modal).Err(), want)
			}
			if !strings.Contains(m.View(), "Renamed Lost") || client.Str(now.Name) == "Renamed Lost" {
				t.Fatalf("typed name lost or saved after all (%q):\n%s", client.Str(now.Name), m.View())
			}
		})
	}
}

// The note form opened over a contact's notes knows which notes were there: a note of the
// same text written earlier is not taken for the one a lost request never made. A note the
// sandbox did make shows in the detail once confirmed.
func TestNoteFromTheContactTellsItsOwnNoteApart(t *testing.T) {
	e, p := lossy(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	const text = "Called back, no answer."
	if _, err := e.c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: text}); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, e.ctx, 100, 30)
	openContact(t, hs, ct)
	before := len(hs.s.Detail.NoteIDs())

	p.Lose("POST", "/api/um/v3/notes/", viewtest.DropRequest, 1)
	hs.key("n")
	hs.typeText(text)
	hs.key("ctrl+s")
	want := "Not saved: the connection was lost before the server answered, and the note is not on the server. ctrl+s sends it again."
	f, ok := hs.Top().(interface{ Err() string })
	if !ok {
		t.Fatalf("the form closed; toast %q", hs.LastToast())
	}
	if f.Err() != want {
		t.Fatalf("error\n got %q\nwant %q", f.Err(), want)
	}
	hs.key("esc", "y")

	p.Lose("POST", "/api/um/v3/notes/", viewtest.DropAnswer, 1)
	hs.key("n")
	hs.typeText(text)
	hs.key("ctrl+s")
	if hs.Top() != nil || hs.LastToast() != "Note saved (confirmed after the connection dropped)" {
		t.Fatalf("toast %q", hs.LastToast())
	}
	if got := len(hs.s.Detail.NoteIDs()); got != before+1 {
		t.Fatalf("%d notes shown, want %d", got, before+1)
	}
}

// Deletes whose answer was lost are settled by reading the item again: a 404 is a delete.
func TestDeletesLostAnswerAreConfirmedByA404(t *testing.T) {
	e, p := lossy(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	n, err := e.c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: "to go"})
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, e.ctx, 100, 30)
	openContact(t, hs, ct)
	for i := 0; i < 200; i++ {
		if id, _, ok := hs.s.Detail.SelectedNote(); ok && id == n.ID {
			break
		}
		hs.key("j")
	}
	p.Lose("DELETE", "/api/um/v3/notes/", viewtest.DropAnswer, 1)
	hs.key("d", "y")
	if want := fmt.Sprintf("Note #%d deleted (confirmed after the connection dropped)", n.ID); hs.LastToast() != want {
		t.Fatalf("toast %q, want %q", hs.LastToast(), want)
	}

	hs.key("esc") // back to the list
	hs.send(contacts.FilterMsg{})
	hs.key("j")
	r, _ := hs.s.List.Selected()
	p.Lose("DELETE", "/api/um/v3/contact_identities/", viewtest.DropRequest, 1)
	hs.key("d", "y")
	if want := fmt.Sprintf("Not deleted: the connection was lost before the server answered, and contact #%d is still there.", r.ID); hs.LastToast() != want {
		t.Fatalf("toast %q, want %q", hs.LastToast(), want)
	}
	if _, ok := hs.s.List.Row(r.ID); !ok {
		t.Fatal("the row went although the contact is there")
	}
	p.Lose("DELETE", "/api/um/v3/contact_identities/", viewtest.DropAnswer, 1)
	hs.key("d", "y")
	if hs.LastToast() != "1 contact deleted (confirmed after the connection dropped)" {
		t.Fatalf("toast %q", hs.LastToast())
	}
	if _, ok := hs.s.List.Row(r.ID); ok {
		t.Fatal("the row stayed although the contact is gone")
	}
}

// A marked delete whose answer was lost: when every marked contact is still there it was
// not carried out, and the rows and the marks stay.
func TestDeleteMarkedLostRequestDeletesNothing(t *testing.T) {
	e, p := lossy(t)
	hs := newHarness(t, e.ctx, 100, 30)
	hs.focus()
	hs.key("esc")
	hs.key(" ", "j", " ")
	marked := hs.s.List.Marked()
	p.Lose("DELETE", "/api/um/v3/contact_identities/", viewtest.DropRequest, 1)
	hs.key("d", "y")
	if want := "Not deleted: the connection was lost before the server answered, and the 2 contacts are still there."; hs.LastToast() != want {
		t.Fatalf("toast %q, want %q", hs.LastToast(), want)
	}
	for _, r := range marked {
		if _, ok := hs.s.List.Row(r.ID); !ok {
			t.Fatalf("row %d went", r.ID)
		}
	}
	if len(hs.s.List.Marked()) != 2 {
		t.Fatalf("%d marks left", len(hs.s.List.Marked()))
	}
}
