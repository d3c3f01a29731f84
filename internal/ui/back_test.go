package ui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/navigation"
	"github.com/parley-tui/parley/internal/views/screens/operators"
)

// usage is the requests of every family the client counted so far.
func usage(c *client.Client) map[client.Family]int {
	out := map[client.Family]int{}
	for _, f := range []client.Family{client.FamilyConversations, client.FamilyContacts, client.FamilyNavigation,
		client.FamilyOperators, client.FamilyNotes, client.FamilyOther} {
		out[f] = c.Usage(f)
	}
	return out
}

// TestEscReturnsToTheContactAConversationWasOpenedFrom: a conversation opened from a
// contact's detail (2, the contact, enter on its newest conversation) says "esc: back to
// <name>"; esc in its thread returns to the contact with the list's cursor and the pane
// focus as they were, without a request. A screen chosen by its number key leaves the path:
// esc then does the screen's own thing.
func TestEscReturnsToTheContactAConversationWasOpenedFrom(t *testing.T) {
	sb := testSandbox(t)
	app, c, d := startOn(t, sb, 120, 40)
	d.key("2")
	d.waitList("contacts")
	cs := app.Screen().(*contacts.Model)
	for i := 0; ; i++ {
		if r, ok := cs.List.Selected(); ok && r.ConversationCount > 0 {
			break
		}
		if i > 50 {
			t.Fatal("no contact with conversations among the first rows")
		}
		d.key("j")
	}
	row, _ := cs.List.Selected()
	cursor := cs.List.Cursor()
	d.key("enter")
	d.Until("the contact's conversations", func() bool { return len(cs.Detail.Conversations()) > 0 })
	first := cs.Detail.Conversations()[0]
	d.key("enter")
	tri, ok := app.Screen().(*conversations.Model)
	if !ok {
		t.Fatalf("enter on the contact's first conversation showed %s", app.ScreenName())
	}
	d.Until("the conversation open", func() bool { return tri.Msgs.ConversationID() == first.ID })
	d.waitFor("esc: back to " + row.Title())
	before := usage(c)
	d.key("esc")
	if app.Screen() != cs {
		t.Fatalf("esc showed %s, want the contacts screen", app.ScreenName())
	}
	if cs.Focused() != contacts.PaneDetail || cs.Detail.ID() != row.ID || cs.List.Cursor() != cursor {
		t.Fatalf("back on contacts: focus %v, detail %d, cursor %d; want the detail of %d, cursor %d",
			cs.Focused(), cs.Detail.ID(), cs.List.Cursor(), row.ID, cursor)
	}
	if sel, ok := cs.Detail.SelectedConversation(); !ok || sel.ID != first.ID {
		t.Fatalf("the detail's selection is %d (%v), want conversation %d", sel.ID, ok, first.ID)
	}
	if after := usage(c); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("going back cost requests: %v, then %v", before, after)
	}
	if strings.Contains(d.view(), "esc: back") {
		t.Fatalf("the back hint stayed after going back:\n%s", d.view())
	}

	// Again, then 2 and 1 by hand: the path is left, esc moves the focus to the list.
	d.key("enter")
	d.waitFor("esc: back to " + row.Title())
	d.key("2", "1")
	if strings.Contains(d.view(), "esc: back") {
		t.Fatal("the back hint stayed after choosing screens by their keys")
	}
	d.key("esc")
	if app.Screen() != tri || tri.Focused() != conversations.PaneList {
		t.Fatalf("esc after leaving the path: screen %s, focus %v; want the conversation list", app.ScreenName(), tri.Focused())
	}
}

// TestEscReturnsToTheNavigationEvent: enter on a navigation event opens its conversation;
// the status bar says "esc: back to navigation" and esc returns to the event under the
// cursor. Moving to another pane first makes esc the screen's own again (back to the list
// pane), and the back hint waits.
func TestEscReturnsToTheNavigationEvent(t *testing.T) {
	sb := testSandbox(t)
	app, _, d := startOn(t, sb, 120, 40)
	d.key("5")
	nav := app.Screen().(*navigation.Model)
	d.Until("navigation events", nav.Loaded)
	for i := 0; ; i++ {
		if r, ok := nav.Selected(); ok && r.ConversationID != 0 && i > 0 {
			break
		}
		if i > 50 {
			t.Fatal("no event with a conversation among the first rows")
		}
		d.key("j")
	}
	ev, _ := nav.Selected()
	d.key("enter")
	tri := app.Screen().(*conversations.Model)
	d.Until("the event's conversation", func() bool { return tri.Msgs.ConversationID() == ev.ConversationID })
	d.waitFor("esc: back to navigation")
	d.key("tab") // to the list pane: esc there has nothing of its own to do
	d.key("tab") // back to the thread: now esc moves the focus to the list
	d.key("esc")
	if app.Screen() != tri || tri.Focused() != conversations.PaneList {
		t.Fatalf("esc in a pane the user moved to: screen %s, focus %v", app.ScreenName(), tri.Focused())
	}
	d.waitFor("esc: back to navigation")
	d.key("esc")
	if app.Screen() != nav {
		t.Fatalf("esc showed %s, want navigation", app.ScreenName())
	}
	if r, _ := nav.Selected(); r.ID != ev.ID {
		t.Fatalf("back on navigation the cursor is on %d, want %d", r.ID, ev.ID)
	}
}

// TestAJumpOutrunByAKeyIsDropped: enter on an operator asks for their conversations, and
// the switch arrives as a command's result. When the next key was read with enter (enter
// and 4 in one read, a fast typist over SSH) and left the operators screen first, the late
// switch must not take the user back from analytics to the conversations. Enter alone still
// opens the operator's conversations.
func TestAJumpOutrunByAKeyIsDropped(t *testing.T) {
	sb := testSandbox(t)
	app, _, d := startOn(t, sb, 120, 40)
	d.key("3")
	ops := app.Screen().(*operators.Model)
	d.Until("operators", ops.Loaded)
	d.read("\r4")
	if got := app.ScreenName(); got != "Analytics" {
		t.Fatalf("enter then 4 in one read shows %s, want Analytics", got)
	}
	if v := d.view(); strings.Contains(v, "esc: back") {
		t.Fatalf("the dropped jump left a back hint:\n%s", v)
	}
	d.key("3", "enter")
	if _, ok := app.Screen().(*conversations.Model); !ok {
		t.Fatalf("enter on an operator shows %s, want their conversations", app.ScreenName())
	}
	d.waitFor("assigned to")
}
