package contacts_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/contacts"
)

// The edit form shows the contact's text sanitized, and sends only what the user changed:
// the hostile text the API holds in the fields left alone stays as it was, byte for byte,
// instead of being replaced by what the form showed of it.
func TestEditSendsOnlyTheChangedFieldAndLeavesHostileTextAlone(t *testing.T) {
	e := writable(t)
	bg := context.Background()
	conv, err := e.c.GetConversation(bg, e.info.HostileConversationID)
	if err != nil {
		t.Fatal(err)
	}
	// The seeded name has escape sequences, bidi overrides, a C1 control and a ZWJ; the
	// other fields get more of the same (and a tab, which the form shows as spaces).
	before, err := e.c.UpdateContact(bg, conv.Contact.ID, client.ContactUpdate{
		Email:   ptr("mallory@example.org"),
		Company: ptr("\x1b]0;CO\x07Acme\u202e Ltd\u0085"),
		City:    ptr("Zw\u200dJ\u009b2J\tcity"),
		Street:  ptr("\x1b[2J\u2066Main St\u2069 1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	name := client.Str(before.Name)
	if !strings.ContainsRune(name, '\u009b') || !strings.ContainsRune(name, '\u200d') || !strings.ContainsRune(name, '\u202e') {
		t.Fatalf("the seeded name is not hostile enough: %q", name)
	}

	m := openModal(contacts.NewEditForm(e.ctx, *before), 76, 40)
	// The Name field (focused, so it starts with "> ") shows what the detail shows,
	// the C1 control's U+FFFD included.
	shown := sanitize.Line(name)
	if !strings.Contains(shown, "�") || !strings.Contains(ansi.Strip(m.View()), "> "+shown) {
		t.Fatalf("the Name field does not show %q:\n%s", shown, m.View())
	}

	m = press(m, "tab", "end")
	m = typeInto(m, "2")
	m, cmd, _ := save(m)
	if cmd == nil {
		t.Fatalf("ctrl+s started nothing:\n%s", m.View())
	}
	if d := task(t, cmd); d.Err != nil {
		t.Fatalf("task: %v", d.Err)
	}
	patches := e.rec.requests("PATCH", "/contact_identities/")
	if len(patches) != 2 { // the seeding one, then the form's
		t.Fatalf("%d PATCHes", len(patches))
	}
	body := bodyOf(t, patches[1])
	if keys := slices.Sorted(maps.Keys(body)); len(keys) != 1 || body["email"] != "mallory@example.org2" {
		t.Fatalf("PATCH body %s: want only the email", patches[1].Body)
	}

	after, err := e.c.GetContact(bg, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if client.Str(after.Email) != "mallory@example.org2" {
		t.Fatalf("email %q", client.Str(after.Email))
	}
	for _, f := range []struct {
		label      string
		was, isNow *string
	}{
		{"name", before.Name, after.Name}, {"company", before.Company, after.Company},
		{"city", before.City, after.City}, {"street", before.Street, after.Street},
	} {
		if client.Str(f.isNow) != client.Str(f.was) {
			t.Errorf("%s changed: %q, was %q", f.label, client.Str(f.isNow), client.Str(f.was))
		}
	}
}

// A field the user left alone is not checked either: hostile text the API holds there
// (which would fail the check as shown) does not stop saving another field.
func TestEditIgnoresProblemsOfUntouchedFields(t *testing.T) {
	e := writable(t)
	bg := context.Background()
	ct := e.contactWith(t, func(c client.Contact) bool {
		n := client.Str(c.Name)
		return client.Str(c.Email) != "" && n != "" && sanitize.IsClean(n) && strings.TrimSpace(n) == n
	})
	// The sandbox takes any string with an @ as an email; the form's check would not.
	odd := "\x1b[1mboss\x1b[0m@example.org"
	before, err := e.c.UpdateContact(bg, ct.ID, client.ContactUpdate{Email: &odd})
	if err != nil {
		t.Skipf("the sandbox refuses %q: %v", odd, err)
	}
	m := openModal(contacts.NewEditForm(e.ctx, *before), 76, 40)
	m = press(m, "end")
	m = typeInto(m, " Jr")
	m, cmd, _ := save(m)
	if cmd == nil {
		t.Fatalf("ctrl+s started nothing:\n%s", m.View())
	}
	if d := task(t, cmd); d.Err != nil {
		t.Fatalf("task: %v", d.Err)
	}
	after, err := e.c.GetContact(bg, ct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if client.Str(after.Email) != odd || client.Str(after.Name) != client.Str(before.Name)+" Jr" {
		t.Fatalf("after: name %q email %q", client.Str(after.Name), client.Str(after.Email))
	}
}
