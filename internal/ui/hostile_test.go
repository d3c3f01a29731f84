package ui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// Hostile text from the API reaches no screen as anything a terminal acts on or hides. The
// sandbox's hostile contact has escape sequences, a bidi override, a ZWNJ outside a word,
// tag characters, Hangul fillers, isolates, a word joiner, a BOM and a line separator in
// its name, and its conversation's messages and notes carry more: the list, the thread
// (from its last message to its first) with the detail pane, and the contact with its
// notes are checked whole, styles and all.
func TestHostileTextIsInertOnEveryScreen(t *testing.T) {
	sb := testSandbox(t)
	app, _, d := startOn(t, sb, 200, 50)
	hostile := sb.Server.Info().HostileConversationID
	viewtest.CheckInert(t, d.view(), "the conversations list")

	d.key("/")
	d.read("mallory")
	d.key("enter")
	d.waitFor(fmt.Sprintf("#%d", hostile))
	viewtest.CheckInert(t, d.view(), "the search's list")
	d.key("enter")
	d.waitFor("Thanks, I'm looking into it.")
	viewtest.CheckInert(t, d.view(), "the thread's end")
	d.key("g")
	d.waitFor("Hi, my order is broken")
	for i := 0; i < 60 && !strings.Contains(d.view(), "Invalid UTF-8"); i++ {
		viewtest.CheckInert(t, d.view(), "the thread")
		d.key("j")
	}
	viewtest.CheckInert(t, d.view(), "the thread")

	d.key("2", "/")
	d.waitFor("enter search · esc cancel")
	d.read("mallory")
	d.key("enter")
	cs := app.Screen().(*contacts.Model)
	d.Until("the hostile contact's notes", func() bool {
		r, ok := cs.List.Selected()
		return ok && strings.Contains(r.Name, "Mallory") && cs.Detail.ID() == r.ID && !cs.Detail.Loading()
	})
	viewtest.CheckInert(t, d.view(), "the contact")
	if r, _ := cs.List.Selected(); r.Name != "␛]0;pwned␇Mallory redoc ␛[31mRed␛[0m�2J 👩💻" {
		t.Errorf("the name shows as %q", r.Name)
	}
}
