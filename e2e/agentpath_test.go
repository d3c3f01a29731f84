//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// TestAgentPath plays the agent's path of issue 18 at 80×24, one pane at a time: open the
// newest new conversation, read it back to its first message, set a topic, note the
// contact, go on to the next conversation. It counts the keys (the note's text aside: at
// most 9) and checks the sandbox's state after each edit. Then g in a 1,234-message thread
// (the sandbox's long thread, seeded at that length) goes to its first message at a cost
// of at most 2 message requests, the newest page included, as the sandbox's request log
// counts them.
func TestAgentPath(t *testing.T) {
	const maxKeys = 9
	const longThread = 1234
	sb := StartSandbox(t, "small", "--long-thread", strconv.Itoa(longThread))
	c := sb.Client(t)
	news, err := c.ListConversations(t.Context(), client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: 2, Ordering: listOrder},
		Filter:      client.ConversationFilter{Status: client.StatusNew},
	})
	if err != nil || len(news.Results) < 2 {
		t.Fatalf("the two newest new conversations: %v (%v)", news, err)
	}
	conv, next := news.Results[0], news.Results[1]
	var first string
	for m, err := range c.Messages(t.Context(), conv.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 1, Ordering: "id"}}) {
		if err != nil {
			t.Fatal(err)
		}
		first = m.Body
		break
	}
	notesOf := func() []client.Note {
		t.Helper()
		p, err := c.ListNotes(client.Fresh(context.Background()), client.NoteListOptions{ContactIdentityID: conv.Contact.ID, ListOptions: client.ListOptions{Limit: 100}})
		if err != nil {
			t.Fatal(err)
		}
		return p.Results
	}
	notesBefore := notesOf()

	tui := StartTUI(t, 80, 24, sb.Env)
	waitList(t, tui)
	var keys []string
	press := func(k ...string) {
		keys = append(keys, k...)
		tui.Keys(k...)
	}
	header := regexp.MustCompile(`#(\d+) · (\d+) loaded`)
	showing := func(id int64) string {
		t.Helper()
		return tui.WaitUntil(func(s string) bool {
			m := header.FindStringSubmatch(s)
			return m != nil && m[1] == strconv.FormatInt(id, 10) && !strings.Contains(s, "Loading messages") && !strings.Contains(s, "loading")
		}, 30*time.Second, fmt.Sprintf("the thread of %d", id))
	}

	press("s") // the new conversations, by last message, newest first
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "new") && listLoaded.MatchString(s) && !strings.Contains(s, "loading…")
	}, 15*time.Second, "the new conversations")
	press("Enter")
	showing(conv.ID)
	press("g")
	words := strings.Fields(first)
	if len(words) > 3 {
		words = words[:3]
	}
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, strings.Join(words, " ")) && strings.Contains(s, " · top")
	}, 15*time.Second, fmt.Sprintf("the first message %q at the top", first))

	press("t")
	tui.WaitFor("Topics of conversation", 10*time.Second)
	press("Space", "C-s") // the first topic offered, saved
	tui.WaitFor("Topics saved", 10*time.Second)
	got, err := c.GetConversation(t.Context(), conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Topics) == len(conv.Topics) {
		t.Fatalf("topics on the server: %d, as before", len(got.Topics))
	}

	press("n")
	tui.WaitFor("New note about", 10*time.Second)
	const note = "Asked for the first order's invoice again."
	tui.Type(note)
	press("C-s")
	tui.WaitFor("Note saved", 15*time.Second)
	notesAfter := notesOf()
	if len(notesAfter) != len(notesBefore)+1 {
		t.Fatalf("the contact has %d notes, want %d", len(notesAfter), len(notesBefore)+1)
	}

	press("J")
	showing(next.ID)
	if len(keys) > maxKeys {
		t.Fatalf("the agent path took %d keys (%q), want at most %d", len(keys), keys, maxKeys)
	}
	t.Logf("agent path: %d keys %q plus the note", len(keys), keys)

	// g in the long thread: its newest page and the oldest, nothing else.
	long, rank := findConversation(t, sb, "Start of the long thread", func(cv client.Conversation) bool {
		p, err := c.MessagesPage(t.Context(), cv.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}})
		return err == nil && p.Next != ""
	})
	n := 0
	for _, err := range c.Messages(t.Context(), long.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != longThread {
		t.Fatalf("the long thread has %d messages, want %d", n, longThread)
	}
	tui.Keys("Escape", "s", "s", "s") // back to the list, every status again
	waitList(t, tui)
	messages := func() int {
		return sb.CountRequests(t, func(r Request) bool {
			return r.Method == "GET" && strings.HasSuffix(r.Path, fmt.Sprintf("/conversations/%d/messages/", long.ID))
		})
	}
	before := messages()
	search(t, tui, "Start of the long thread")
	tui.Keys("g")
	for range rank {
		tui.Keys("j")
	}
	tui.Keys("Enter")
	showing(long.ID)
	tui.Keys("g")
	s := tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "Start of the long thread") && strings.Contains(s, " · top") && !strings.Contains(s, "loading")
	}, 30*time.Second, "the first message of the long thread")
	n = messages() - before
	if n > 2 {
		t.Fatalf("the first message of the long thread after g cost %d message requests, want at most 2:\n%s", n, s)
	}
	t.Logf("the first message of the %d-message thread: %d message requests (opening it and g)", longThread, n)
}
