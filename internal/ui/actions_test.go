package ui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// ownSandbox is a sandbox for tests that write.
func ownSandbox(t *testing.T) *sandbox.Running { return viewtest.Sandbox(t, sandbox.Options{}) }

func TestEditTopicsUpdatesRowAndDetailInPlace(t *testing.T) {
	t.Parallel()
	sb := ownSandbox(t)
	app, c, d := startOn(t, sb, 200, 50)
	tri := app.Screen().(*conversations.Model)
	d.key("enter") // open the first conversation
	row, _ := tri.List.Selected()
	d.key("t")
	d.waitFor("Topics of conversation")
	d.key("tab") // from the topic picker to the free-text field
	d.read("Escalated, vip")
	before := c.Usage(client.FamilyConversations)
	d.key("enter")
	d.key("enter") // a second enter while saving sends nothing
	if used := c.Usage(client.FamilyConversations) - before; used != 1 {
		t.Fatalf("saving topics sent %d requests, want exactly 1", used)
	}
	got, _ := tri.List.Selected()
	want := append(append([]string{}, row.Topics...), "Escalated", "vip")
	if strings.Join(got.Topics, ",") != strings.Join(want, ",") {
		t.Fatalf("row topics %q, want %q", got.Topics, want)
	}
	conv, err := c.GetConversation(t.Context(), row.ID)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, tp := range conv.Topics {
		texts = append(texts, tp.Text)
	}
	if strings.Join(texts, ",") != strings.Join(want, ",") {
		t.Fatalf("server has topics %q, want %q", texts, want)
	}
	if v := d.view(); !strings.Contains(v, "Escalated, vip") {
		t.Fatalf("detail or row does not show the new topics:\n%s", v)
	}
}

func TestDeleteMarkedConversations(t *testing.T) {
	t.Parallel()
	sb := ownSandbox(t)
	app, c, d := startOn(t, sb, 120, 40)
	tri := app.Screen().(*conversations.Model)
	// Mark two ended conversations and one ongoing one.
	var ended, ongoing []int64
	for i, r := range tri.List.Rows() {
		mark := (r.Status == client.StatusEnded && len(ended) < 2) || (r.Status != client.StatusEnded && len(ongoing) < 1)
		if !mark {
			continue
		}
		for cur, _ := tri.List.Selected(); cur.ID != r.ID; cur, _ = tri.List.Selected() {
			d.key("j")
			if cur2, _ := tri.List.Selected(); cur2.ID == cur.ID {
				t.Fatalf("cannot reach row %d", i)
			}
		}
		d.key(" ") // marks and moves down
		if r.Status == client.StatusEnded {
			ended = append(ended, r.ID)
		} else {
			ongoing = append(ongoing, r.ID)
		}
		if len(ended) == 2 && len(ongoing) == 1 {
			break
		}
		d.key("k")
	}
	if len(ended) != 2 || len(ongoing) != 1 {
		t.Fatalf("found %d ended and %d ongoing rows to mark", len(ended), len(ongoing))
	}
	d.key("d")
	v := d.waitFor("Delete 2 of 3 marked conversations?")
	if !strings.Contains(v, "1 ongoing one is not sent and stays") {
		t.Fatalf("confirmation does not warn about the ongoing conversation:\n%s", v)
	}
	d.key("y")
	v = d.waitFor("Deleted 2 conversations.")
	if !strings.Contains(v, "1 ongoing conversation not sent") {
		t.Fatalf("no report of the ongoing conversation:\n%s", v)
	}
	for _, id := range ended {
		if _, err := c.GetConversation(t.Context(), id); !client.IsNotFound(err) {
			t.Fatalf("ended conversation %d still there (err %v)", id, err)
		}
	}
	if _, err := c.GetConversation(t.Context(), ongoing[0]); err != nil {
		t.Fatalf("ongoing conversation %d was deleted: %v", ongoing[0], err)
	}
}

// TestDeleteOneOngoingWarnsThenShowsTheAnswer: d on an ongoing conversation warns (the spec
// keeps ongoing conversations from list DELETEs only, so the single DELETE is the server's
// to judge); enter does not confirm, y sends it, and the sandbox's refusal shows.
func TestDeleteOneOngoingWarnsThenShowsTheAnswer(t *testing.T) {
	t.Parallel()
	sb := ownSandbox(t)
	app, c, d := startOn(t, sb, 120, 40)
	tri := app.Screen().(*conversations.Model)
	r, _ := tri.List.Selected()
	if r.Status == client.StatusEnded {
		t.Skip("the first row is ended")
	}
	before := c.Usage(client.FamilyConversations)
	d.key("d")
	d.waitFor("The API may refuse or end it")
	d.key("enter")
	d.waitFor("y delete · n/esc cancel") // still asking
	if c.Usage(client.FamilyConversations) != before {
		t.Fatal("enter sent the delete of an ongoing conversation")
	}
	d.key("y")
	d.waitFor(fmt.Sprintf("Refused by the API: Conversation %d is ongoing", r.ID))
	if used := c.Usage(client.FamilyConversations) - before; used != 1 {
		t.Fatalf("the delete cost %d requests, want 1", used)
	}
}

func TestNoteFromTheConversationsScreenSavesAndCloses(t *testing.T) {
	t.Parallel()
	sb := ownSandbox(t)
	app, c, d := startOn(t, sb, 120, 40)
	tri := app.Screen().(*conversations.Model)
	row, _ := tri.List.Selected()
	d.key("n")
	d.waitFor("New note about")
	d.read("Call back on Monday")
	d.key("ctrl+s")
	v := d.waitFor("Note saved")
	if strings.Contains(v, "New note about") {
		t.Fatalf("the note form stayed open after saving:\n%s", v)
	}
	notes, err := c.ListNotes(t.Context(), client.NoteListOptions{ContactIdentityID: row.ContactID})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range notes.Results {
		found = found || n.Body == "Call back on Monday"
	}
	if !found {
		t.Fatalf("the note is not on the server: %+v", notes.Results)
	}
}
