package contacts_test

import (
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
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
