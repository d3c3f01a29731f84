package contacts_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/viewtest"
)

// # goes to a loaded contact at once; one that is not loaded yet is asked for by the `id`
// filter (with the list's other filters) and shows pinned with the cursor on it; one the
// list's filters leave out is said so.
func TestJumpToID(t *testing.T) {
	e := readOnly(t)
	m := newList(e, 10, 100, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	target := m.Rows()[6]
	before := len(e.rec.requests("GET", "/contact_identities/"))
	m, _ = viewtest.KeyAnswer(t, m, "#", fmt.Sprint(target.ID), wait)
	if r, _ := m.Selected(); r.ID != target.ID {
		t.Fatalf("# %d: cursor on %d, want the loaded row", target.ID, r.ID)
	}
	for _, s := range e.rec.requests("GET", "/contact_identities/")[before:] {
		if q, _ := url.ParseQuery(s.Query); q.Has("id") {
			t.Fatalf("# %d asked the server %q for a loaded row", target.ID, s.Query)
		}
	}

	far := e.contactWith(t, func(ct client.Contact) bool { _, loaded := m.Row(ct.ID); return !loaded })
	before = len(e.rec.requests("GET", "/contact_identities/"))
	m, _ = viewtest.KeyAnswer(t, m, "#", fmt.Sprint(far.ID), wait)
	sent := e.rec.requests("GET", "/contact_identities/")[before:]
	if len(sent) != 1 || !strings.Contains("&"+sent[0].Query+"&", fmt.Sprintf("&id=%d&", far.ID)) {
		t.Fatalf("# %d sent %v, want one request by id", far.ID, sent)
	}
	if r, _ := m.Selected(); r.ID != far.ID || r.Name == "" || !strings.Contains(m.View(), fmt.Sprintf("» #%d in this list", far.ID)) {
		t.Fatalf("# %d: cursor on %+v\n%s", far.ID, r, m.View())
	}

	verified := true
	m = viewtest.Settle(m, m.SetQuery(contacts.Query{Filter: client.ContactFilter{Verified: &verified}}), wait)
	unverified := e.contactWith(t, func(ct client.Contact) bool { return !ct.Verified })
	_, toasts := viewtest.KeyAnswer(t, m, "#", fmt.Sprint(unverified.ID), wait)
	if want := fmt.Sprintf("This list has no contact #%d.", unverified.ID); len(toasts) != 1 || toasts[0] != want {
		t.Fatalf("# of an unverified contact among the verified: toasts %q, want %q", toasts, want)
	}
}
