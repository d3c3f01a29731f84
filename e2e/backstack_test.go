//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// TestLookupOpensTheNewestConversationAndEscReturns plays the quick lookup: 2, /, a word,
// Enter, Enter opens the contact, Enter its newest conversation; the status bar says
// "esc: back to <name>", and Escape returns to the contact's detail without a request.
// Then 3 and 2 again: no search prompt opens by itself, and q quits.
func TestLookupOpensTheNewestConversationAndEscReturns(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	var target client.Contact
	for ct, err := range c.ContactsAll(t.Context(), client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		city := client.Str(ct.City)
		plainName := regexp.MustCompile(`^[A-Za-z]+ [A-Za-z]+$`).MatchString(client.Str(ct.Name)) && len(client.Str(ct.Name)) <= 16
		if regexp.MustCompile(`^[A-Za-z]{4,}$`).MatchString(city) && plainName && ct.ConversationCount != nil && *ct.ConversationCount > 0 {
			if rankOf(t, sb, strings.ToLower(city), ct.ID) == 0 {
				target = ct
				break
			}
		}
	}
	if target.ID == 0 {
		t.Fatal("no contact with a plain name ranked first for its one-word city")
	}
	word := strings.ToLower(client.Str(target.City))
	name := sanitize.Line(client.Str(target.Name)) // whole in a narrow status bar too
	newest, err := c.ListConversations(t.Context(), client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: 1, Ordering: "-last_message_sent_at"},
		Filter:      client.ConversationFilter{ContactIdentityID: target.ID}})
	if err != nil || len(newest.Results) == 0 {
		t.Fatalf("the contact's newest conversation: %v", err)
	}
	conv := newest.Results[0].ID

	tui := StartTUI(t, 80, 24, sb.Env)
	waitList(t, tui)
	searchContacts(t, tui, word) // 2, /, the word, Enter
	openRank(t, tui, 0)          // Enter
	tui.Keys("Enter")
	s := tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("#%d", conv)) && strings.Contains(s, "esc: back to "+name)
	}, 15*time.Second, "the newest conversation, with the way back")
	checkFits(t, s, 80, 24)

	before := len(sb.Requests(t))
	tui.Keys("Escape")
	tui.WaitUntil(func(s string) bool {
		return contactOpenOn(s) && strings.Contains(s, name) && !strings.Contains(s, "esc: back")
	}, 10*time.Second, "the contact's detail again")
	if n := len(sb.Requests(t)) - before; n != 0 {
		t.Fatalf("going back cost %d requests", n)
	}

	tui.Keys("3")
	tui.WaitFor("operators", 10*time.Second)
	tui.Keys("2")
	s = tui.WaitUntil(contactOpenOn, 10*time.Second, "the contacts screen as it was")
	if strings.Contains(s, "Search contacts:") {
		t.Fatalf("2 opened the search prompt again:\n%s", s)
	}
	tui.Keys("q")
	tui.WaitUntil(func(string) bool { return tui.Dead() }, 5*time.Second, "parley to quit on q")
}

func contactOpenOn(s string) bool {
	return strings.Contains(s, "Notes (") && strings.Contains(s, "Conversations (") && !strings.Contains(s, "loading…")
}

// TestQuitOverAHalfWrittenNoteAsks: ctrl+c over a note with text asks "Discard the note?";
// n returns to the note as typed (q in it is text); ctrl+c twice quits.
func TestQuitOverAHalfWrittenNoteAsks(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 80, 24, sb.Env)
	waitList(t, tui)
	tui.Keys("n")
	tui.WaitFor("New note about", 10*time.Second)
	tui.Type("Call back q")
	tui.WaitFor("Call back q", 5*time.Second)
	tui.Keys("C-c")
	s := tui.WaitFor("Discard the note?", 5*time.Second)
	if !strings.Contains(s, "y discard · n/esc cancel") || tui.Dead() {
		t.Fatalf("the question lacks its keys, or parley quit:\n%s", s)
	}
	tui.Keys("n")
	s = tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "Discard the note?") }, 5*time.Second, "the note again")
	if !strings.Contains(s, "Call back q") {
		t.Fatalf("n lost the note:\n%s", s)
	}
	tui.Keys("C-c")
	tui.WaitFor("Discard the note?", 5*time.Second)
	tui.Keys("C-c")
	tui.WaitUntil(func(string) bool { return tui.Dead() }, 5*time.Second, "parley to quit on a second ctrl+c")
}

// TestDeleteRefusesEnter: a delete question is answered by y only; Enter, pressed by
// habit, sends nothing and the question stays.
func TestDeleteRefusesEnter(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, conv := range p.Results {
		if conv.Status == client.StatusEnded {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatal("no ended conversation on the first page")
	}
	tui := StartTUI(t, 120, 40, sb.Env)
	waitList(t, tui)
	for i := 0; i < at; i++ {
		tui.Keys("j")
	}
	tui.Keys("d")
	s := tui.WaitFor("y delete · n/esc cancel", 10*time.Second)
	if !strings.Contains(s, fmt.Sprintf("#%d", p.Results[at].ID)) {
		t.Fatalf("the question does not name conversation %d:\n%s", p.Results[at].ID, s)
	}
	tui.Keys("Enter")
	tui.Keys("n") // keys are taken in order: once n closed the question, Enter was taken before
	tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "y delete") }, 5*time.Second, "the question to close on n")
	// A request sent after those keys: a DELETE that Enter started went out before it.
	gets := func() int {
		return sb.CountRequests(t, func(r Request) bool { return r.Method == "GET" && strings.HasSuffix(r.Path, "/conversations/") })
	}
	before := gets()
	tui.Keys("r")
	tui.WaitUntil(func(string) bool { return gets() > before }, 10*time.Second, "the refresh after the question")
	if n := sb.CountRequests(t, func(r Request) bool { return r.Method == "DELETE" }); n != 0 {
		t.Fatalf("Enter on the delete question sent %d DELETEs", n)
	}
	if _, err := c.GetConversation(client.Fresh(t.Context()), p.Results[at].ID); err != nil {
		t.Fatalf("conversation %d: %v", p.Results[at].ID, err)
	}
}
