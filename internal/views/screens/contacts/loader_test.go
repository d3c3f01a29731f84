package contacts_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// Opening another contact cancels the requests for the one left, also while one waits out
// a 429: no retries are spent on a contact the pane no longer shows.
func TestDetailOpeningAnotherContactCancelsTheLeftOnesRequests(t *testing.T) {
	t.Parallel()
	api := viewtest.NewThrottling(t, "/contact_identities/1/", `{"id":2,"count":0,"next":null,"previous":null,"results":[]}`)
	m := contacts.NewDetail(viewtest.Ctx(api.Client))
	m.SetSize(60, 20)
	second := api.Leave(t, m.Open(1, false), func() tea.Cmd { return m.Open(2, false) })
	for _, msg := range viewtest.Run(second, wait) {
		m, _ = m.Update(msg)
	}
	if c, ok := m.Contact(); !ok || c.ID != 2 || m.Loading() {
		t.Fatalf("contact 2 not shown: %+v %v, loading %v", c, ok, m.Loading())
	}
}

// The answers for a contact left are dropped when they arrive after the next contact's:
// its fields, conversations and notes stay on the pane.
func TestDetailDropsTheAnswersForTheContactLeft(t *testing.T) {
	e := readOnly(t)
	first := e.contactWith(t, func(c client.Contact) bool { return c.ConversationCount != nil && *c.ConversationCount >= 2 })
	second := e.contactWith(t, func(c client.Contact) bool { return c.ID != first.ID && client.Str(c.Name) != client.Str(first.Name) })
	m := contacts.NewDetail(e.ctx)
	m.SetSize(100, 40)
	left := viewtest.Run(m.Open(first.ID, false), wait) // answered before the pane moves on
	for _, msg := range viewtest.Run(m.Open(second.ID, false), wait) {
		m, _ = m.Update(msg)
	}
	want, convs := m.View(), len(m.Conversations())
	for _, msg := range left {
		m, _ = m.Update(msg)
	}
	if c, ok := m.Contact(); !ok || c.ID != second.ID || m.View() != want || len(m.Conversations()) != convs {
		t.Fatalf("the contact left showed through: contact %d, %d conversations (want %d)\n%s", c.ID, len(m.Conversations()), convs, m.View())
	}
}
