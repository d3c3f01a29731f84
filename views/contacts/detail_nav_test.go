package contacts_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/contacts"
)

// tallNote gives a contact without notes a note of n numbered lines and returns the
// contact and the note's id.
func tallNote(t *testing.T, e *env, n int) (client.Contact, int64) {
	t.Helper()
	ct := e.contactWith(t, func(c client.Contact) bool {
		if client.Str(c.Name) == "" || c.ConversationCount == nil || *c.ConversationCount == 0 {
			return false
		}
		p, err := e.c.ListNotes(context.Background(), client.NoteListOptions{ContactIdentityID: c.ID})
		return err == nil && len(p.Results) == 0
	})
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("tall line %d", i+1)
	}
	note, err := e.c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: strings.Join(lines, "\n")})
	if err != nil {
		t.Fatal(err)
	}
	return ct, note.ID
}

// j reads a note taller than the pane line by line before it moves on, and the selection
// stays visible all the way (a bar marks the body of the selected note).
func TestDetailJReadsThroughATallNote(t *testing.T) {
	e := writable(t)
	ct, tall := tallNote(t, e, 60)
	hs := newHarness(t, e.ctx, 80, 22)
	openContact(t, hs, ct)
	for i := 0; i < 50; i++ {
		if id, _, ok := hs.s.Detail.SelectedNote(); ok && id == tall {
			break
		}
		hs.key("j")
	}
	if id, _, ok := hs.s.Detail.SelectedNote(); !ok || id != tall {
		t.Fatal("j never reached the tall note")
	}
	for i := 0; i < 200 && !strings.Contains(hs.s.View(), "tall line 60"); i++ {
		hs.key("j")
		if id, _, ok := hs.s.Detail.SelectedNote(); !ok || id != tall {
			t.Fatalf("j left the note before its end was shown:\n%s", hs.s.View())
		}
		if !strings.Contains(hs.s.View(), "▌") && !strings.Contains(hs.s.View(), fmt.Sprintf("#%d ·", tall)) {
			t.Fatalf("the selected note is not marked:\n%s", hs.s.View())
		}
	}
	if !strings.Contains(hs.s.View(), "tall line 60") {
		t.Fatal("the end of the note never showed")
	}
	// k reads back up to its first line while it stays selected.
	for i := 0; i < 200 && !strings.Contains(hs.s.View(), "tall line 1\n") && !strings.Contains(hs.s.View(), "tall line 1 "); i++ {
		hs.key("k")
		if id, _, ok := hs.s.Detail.SelectedNote(); !ok || id != tall {
			t.Fatalf("k left the note before its start was shown:\n%s", hs.s.View())
		}
	}
}

// A page down into the middle of a tall note, then j, goes on from there: it never jumps
// back to the first entry of the pane.
func TestDetailPageIntoATallNoteThenJGoesOn(t *testing.T) {
	e := writable(t)
	ct, tall := tallNote(t, e, 60)
	hs := newHarness(t, e.ctx, 80, 22)
	openContact(t, hs, ct)
	for i := 0; i < 50; i++ {
		if id, _, ok := hs.s.Detail.SelectedNote(); ok && id == tall {
			break
		}
		hs.key("j")
	}
	hs.key("ctrl+d", "ctrl+d")
	before := hs.s.View()
	if id, _, ok := hs.s.Detail.SelectedNote(); !ok || id != tall {
		t.Fatalf("paging inside the note let it go:\n%s", before)
	}
	hs.key("j")
	if _, ok := hs.s.Detail.SelectedConversation(); ok {
		t.Fatalf("j jumped back to a conversation:\n%s", hs.s.View())
	}
	after := hs.s.View()
	if !strings.Contains(after, "tall line") || strings.Contains(after, "Conversations (") {
		t.Fatalf("j after a page down scrolled back up:\n%s", after)
	}
}

// G shows the end of the pane, and the entry it selects (if any) is in view: d never
// asks about a note the user cannot see.
func TestDetailBottomSelectsOnlyWhatIsInView(t *testing.T) {
	e := writable(t)
	ct, tall := tallNote(t, e, 60)
	hs := newHarness(t, e.ctx, 80, 22)
	openContact(t, hs, ct)
	hs.key("G")
	v := hs.s.View()
	if !strings.Contains(v, fmt.Sprintf("%d · ", ct.ID)) {
		t.Fatalf("G did not show the end of the pane:\n%s", v)
	}
	if id, _, ok := hs.s.Detail.SelectedNote(); ok {
		if !strings.Contains(v, "▌") && !strings.Contains(v, fmt.Sprintf("#%d ·", id)) {
			t.Fatalf("G selected note %d, which is out of view:\n%s", id, v)
		}
	}
	// Back up with k: the last note is selected again once it shows.
	for i := 0; i < 30; i++ {
		hs.key("k")
		if id, _, ok := hs.s.Detail.SelectedNote(); ok {
			if id != tall {
				t.Fatalf("k selected note %d, want the last one %d", id, tall)
			}
			return
		}
	}
	t.Fatal("k from the bottom never selected the last note")
}

// A contact with a very long name: the delete question shows the start of the name and
// the id, and the box with its keys fits the screen.
func TestDeleteQuestionAboutALongNameFits(t *testing.T) {
	e := writable(t)
	name := strings.Repeat("Bartholomew ", 150)
	ct, _, err := e.c.UpsertContact(context.Background(), client.IdentifierEmail,
		client.ContactUpdate{Email: ptr("long.name@example.com"), Name: ptr(name)})
	if err != nil {
		t.Fatal(err)
	}
	for _, marked := range []bool{false, true} {
		hs := newHarness(t, e.ctx, 80, 24)
		hs.focus()
		hs.key("esc")
		hs.send(contacts.FilterMsg{Filter: client.ContactFilter{ID: ct.ID}})
		if marked {
			hs.key(" ")
		}
		hs.key("d")
		if hs.Top() == nil {
			t.Fatal("d did not ask")
		}
		v := ansi.Strip(hs.Top().View())
		if n := strings.Count(v, "\n") + 1; n > 24 {
			t.Fatalf("marked=%v: the question has %d lines at 80×24:\n%s", marked, n, v)
		}
		if !strings.Contains(v, "Bartholomew") || !strings.Contains(v, "no, keep it") {
			t.Fatalf("marked=%v: the question lacks the name or its keys:\n%s", marked, v)
		}
		if !marked && !strings.Contains(v, fmt.Sprintf("(#%d)", ct.ID)) {
			t.Fatalf("the question does not give the id:\n%s", v)
		}
		hs.key("n")
	}
}

// A field of a thousand characters takes a few lines, ending in "…": the conversations
// and notes still show on the first screen.
func TestDetailLongFieldIsCut(t *testing.T) {
	e := writable(t)
	street := strings.Repeat("Long Street ", 100)
	ct, _, err := e.c.UpsertContact(context.Background(), client.IdentifierEmail,
		client.ContactUpdate{Email: ptr("long.street@example.com"), Name: ptr("Street Person"), Street: ptr(street)})
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, e.ctx, 80, 24)
	openContact(t, hs, *ct)
	v := hs.s.View()
	if n := strings.Count(v, "Long Street"); n > 4*6 {
		t.Fatalf("the street fills %d mentions:\n%s", n, v)
	}
	if !strings.Contains(v, "…") || !strings.Contains(v, "Conversations (") || !strings.Contains(v, "Notes (") {
		t.Fatalf("the long street hides the rest:\n%s", v)
	}
}

// A contact longer than the pane says how much is below on its last line, like the
// conversation detail; at the end there is nothing more to say.
func TestDetailSaysWhatIsBelow(t *testing.T) {
	e := writable(t)
	ct, _ := tallNote(t, e, 30)
	hs := newHarness(t, e.ctx, 80, 22)
	openContact(t, hs, ct)
	lines := strings.Split(hs.s.Detail.View(), "\n")
	if last := ansi.Strip(lines[len(lines)-1]); !strings.Contains(last, "↓ ") || !strings.Contains(last, " more lines") {
		t.Fatalf("the last line of a tall contact is %q", last)
	}
	hs.key("G")
	if v := hs.s.Detail.View(); strings.Contains(v, "more lines") {
		t.Fatalf("at the end the pane still says there is more:\n%s", v)
	}
}

// Deleting a contact takes its conversations with it, and one with an ongoing conversation
// is not deleted at all: the question says how many conversations go and that rule.
func TestDeleteQuestionCountsTheContactsConversations(t *testing.T) {
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool {
		return c.ConversationCount != nil && *c.ConversationCount >= 2
	})
	hs := newHarness(t, e.ctx, 120, 40)
	hs.focus()
	hs.key("esc")
	hs.send(contacts.FilterMsg{Filter: client.ContactFilter{ID: ct.ID}})
	hs.key("d")
	if hs.Top() == nil {
		t.Fatal("d did not ask")
	}
	v := strings.Join(strings.Fields(ansi.Strip(hs.Top().View())), " ")
	want := fmt.Sprintf("Its %d conversations, notes and visited pages go with it; if one is ongoing, nothing is deleted", *ct.ConversationCount)
	if !strings.Contains(strings.ReplaceAll(v, "│ ", ""), want) {
		t.Fatalf("the question does not say %q:\n%s", want, hs.Top().View())
	}
	hs.key("n")
}

// In the detail of a contact whose conversations show an ongoing one, d says it cannot be
// deleted and sends nothing, instead of asking for a delete the server refuses.
func TestDeleteOfAContactWithAnOngoingConversationIsNotAsked(t *testing.T) {
	e := writable(t)
	var busy client.Contact
	for _, st := range []string{client.StatusNew, client.StatusPending} {
		p, err := e.c.ListConversations(context.Background(), client.ConversationListOptions{Filter: client.ConversationFilter{Status: st}})
		if err != nil {
			t.Fatal(err)
		}
		for _, cv := range p.Results {
			if cv.Contact.ID != 0 {
				c, err := e.c.GetContact(context.Background(), cv.Contact.ID)
				if err == nil {
					busy = *c
					break
				}
			}
		}
		if busy.ID != 0 {
			break
		}
	}
	if busy.ID == 0 {
		t.Fatal("no contact with an ongoing conversation")
	}
	hs := newHarness(t, e.ctx, 120, 40)
	openContact(t, hs, busy)
	before := len(e.rec.requests("DELETE", "/contact_identities/"))
	hs.key("d")
	if hs.Top() != nil || !strings.Contains(hs.LastToast(), "has an ongoing conversation") {
		t.Fatalf("modal %v, toast %q", hs.Top() != nil, hs.LastToast())
	}
	if n := len(e.rec.requests("DELETE", "/contact_identities/")); n != before {
		t.Fatalf("%d DELETEs sent", n-before)
	}
}
