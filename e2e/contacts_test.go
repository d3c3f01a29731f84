//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

var contactsLoaded = regexp.MustCompile(`\d+ contacts? ·`)

// searchContacts opens the contacts screen with 2 and the search prompt with /, types
// query and waits for the ranked results.
func searchContacts(t *testing.T, tui *TUI, query string) string {
	t.Helper()
	tui.Keys("2", "/")
	tui.WaitFor("Search contacts:", 10*time.Second)
	tui.Type(query)
	tui.Keys("Enter")
	quoted := fmt.Sprintf("search:%q", query)
	return tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, quoted) && contactsLoaded.MatchString(s) && !strings.Contains(s, "Loading contacts")
	}, 15*time.Second, "ranked contacts for "+query)
}

// rankOf is the position of contact id among the server's ranked results for query.
func rankOf(t *testing.T, sb *Sandbox, query string, id int64) int {
	t.Helper()
	p, err := sb.Client(t).SearchContacts(t.Context(), query, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range p.Results {
		if c.ID == id {
			return i
		}
	}
	t.Fatalf("contact %d is not among the results for %q", id, query)
	return 0
}

// openRank moves to the rank-th result and opens it; it waits for the detail to load.
func openRank(t *testing.T, tui *TUI, rank int) string {
	t.Helper()
	for i := 0; i < rank; i++ {
		tui.Keys("j")
	}
	tui.Keys("Enter")
	return tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "Notes (") && strings.Contains(s, "Conversations (") &&
			!strings.Contains(s, "loading…") && !strings.Contains(s, "Loading contact")
	}, 15*time.Second, "the contact detail")
}

func TestSearchContactByAWordOfItsCityAndOpenIt(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	// A contact whose city is one plain word, picked through the API.
	var target client.Contact
	for ct, err := range c.ContactsAll(t.Context(), client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		city := client.Str(ct.City)
		if regexp.MustCompile(`^[A-Za-z]{4,}$`).MatchString(city) && client.Str(ct.Name) != "" && ct.ConversationCount != nil && *ct.ConversationCount > 0 {
			target = ct
			break
		}
	}
	if target.ID == 0 {
		t.Fatal("no contact with a one-word city")
	}
	word := strings.ToLower(client.Str(target.City))
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		tui := StartTUI(t, size[0], size[1], sb.Env)
		waitList(t, tui)
		s := searchContacts(t, tui, word)
		checkFits(t, s, size[0], size[1])
		s = openRank(t, tui, rankOf(t, sb, word, target.ID))
		checkFits(t, s, size[0], size[1])
		name := sanitize.Line(client.Str(target.Name))
		for _, want := range []string{name, client.Str(target.City), fmt.Sprintf("Conversations (%d)", *target.ConversationCount)} {
			if !strings.Contains(s, want) {
				t.Fatalf("%dx%d: the opened contact lacks %q:\n%s", size[0], size[1], want, s)
			}
		}
		if n := sb.CountRequests(t, func(r Request) bool {
			return r.Method == "GET" && r.Path == "/api/um/v3/contact_identities/" && strings.Contains(r.Query, "search_query="+word)
		}); n < 1 {
			t.Fatal("the search never reached the API")
		}
		tui.Keys("q")
		tui.WaitUntil(func(string) bool { return tui.Dead() }, 5*time.Second, "parley to quit on q")
	}
}

func TestCreateANoteAndDeleteIt(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	var target client.Contact
	for ct, err := range c.ContactsAll(t.Context(), client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		if client.Str(ct.Email) != "" && client.Str(ct.Name) != "" && ct.ConversationCount != nil && *ct.ConversationCount <= 3 {
			target = ct
			break
		}
	}
	if target.ID == 0 {
		t.Fatal("no contact to write about")
	}
	email := client.Str(target.Email)
	notesOf := func() []client.Note {
		p, err := c.ListNotes(client.Fresh(context.Background()), client.NoteListOptions{ContactIdentityID: target.ID, ListOptions: client.ListOptions{Limit: 100}})
		if err != nil {
			t.Fatal(err)
		}
		return p.Results
	}
	before := len(notesOf())

	tui := StartTUI(t, 80, 24, sb.Env)
	waitList(t, tui)
	searchContacts(t, tui, email)
	s := openRank(t, tui, rankOf(t, sb, email, target.ID))
	if !strings.Contains(s, fmt.Sprintf("Notes (%d)", before)) {
		t.Fatalf("detail does not count %d notes:\n%s", before, s)
	}

	tui.Keys("n")
	tui.WaitFor("New note about", 10*time.Second)
	tui.Type("Asked for a callback on Monday.")
	tui.Keys("Enter")
	tui.Type("Prefers mornings.")
	tui.Keys("C-s")
	s = tui.WaitFor(fmt.Sprintf("Notes (%d)", before+1), 15*time.Second)
	if !strings.Contains(s, "Asked for a callback on Monday.") || !strings.Contains(s, "Prefers mornings.") {
		t.Fatalf("the new note is not shown:\n%s", s)
	}
	after := notesOf()
	if len(after) != before+1 {
		t.Fatalf("the API has %d notes, want %d", len(after), before+1)
	}
	var created client.Note
	for _, n := range after {
		if n.Body == "Asked for a callback on Monday.\nPrefers mornings." {
			created = n
		}
	}
	if created.ID == 0 {
		t.Fatalf("no note with the typed body among %+v", after)
	}

	// The new note is the newest, so the first entry after the contact's conversations (the
	// detail starts on the first of them).
	cp, err := c.ListConversations(t.Context(), client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: 100}, Filter: client.ConversationFilter{ContactIdentityID: target.ID}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(cp.Results); i++ {
		tui.Keys("j")
	}
	tui.Keys("d")
	s = tui.WaitFor("Delete note?", 10*time.Second)
	if !strings.Contains(s, fmt.Sprintf("Delete note #%d", created.ID)) {
		t.Fatalf("the confirmation does not name note %d:\n%s", created.ID, s)
	}
	tui.Keys("y")
	tui.WaitFor(fmt.Sprintf("Note #%d deleted", created.ID), 15*time.Second)
	tui.WaitFor(fmt.Sprintf("Notes (%d)", before), 5*time.Second)
	if _, err := c.GetNote(client.Fresh(context.Background()), created.ID); !client.IsNotFound(err) {
		t.Fatalf("note %d still exists: %v", created.ID, err)
	}
	if n := sb.CountRequests(t, func(r Request) bool {
		return r.Method == "DELETE" && r.Path == fmt.Sprintf("/api/um/v3/notes/%d/", created.ID)
	}); n != 1 {
		t.Fatalf("%d DELETE requests for the note, want 1", n)
	}
}

// TestRestoredContactsSwallowNoKeys: parley restored on the contacts screen (its state file
// says so) opens no prompt: 2 and 3 typed at once switch to the operators, 2 back, and q
// quits; nothing is typed into a search.
func TestRestoredContactsSwallowNoKeys(t *testing.T) {
	sb := StartSandbox(t, "small")
	state := t.TempDir()
	if err := os.MkdirAll(filepath.Join(state, "parley"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "parley", "state.json"), []byte(`{"screen":"contacts"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tui := StartTUI(t, 80, 24, append(slices.Clone(sb.Env), "XDG_STATE_HOME="+state))
	s := tui.WaitUntil(contactsLoaded.MatchString, 15*time.Second, "the restored contacts screen")
	if strings.Contains(s, "Search contacts:") {
		t.Fatalf("the restored contacts screen opened the search prompt:\n%s", s)
	}
	tui.Type("23")
	s = tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "operators ·") || strings.Contains(s, "Search contacts:")
	},
		10*time.Second, "the operators screen")
	if strings.Contains(s, "Search contacts:") {
		t.Fatalf("2 3 were typed into a search:\n%s", s)
	}
	tui.Type("2q")
	tui.WaitUntil(func(string) bool { return tui.Dead() }, 5*time.Second, "parley to quit on q")
}
