//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// TestPaletteAndHelpFilter walks the command palette and help's filter as a user types
// them at 80×24: ":" "ana" enter shows the analytics screen; ":" and a conversation's id
// opens it; "?" "cycle" filters help to the cycle keys, and enter on one runs it.
func TestPaletteAndHelpFilter(t *testing.T) {
	sb := StartSandbox(t, "small")
	page, err := sb.Client(t).ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 30, Ordering: listOrder}})
	if err != nil || len(page.Results) < 30 {
		t.Fatalf("conversations: %v (%d)", err, len(page.Results))
	}
	id := page.Results[29].ID // not on the first screen of the list
	tui := StartTUI(t, 80, 24, sb.Env)
	waitList(t, tui)

	tui.Type(":")
	tui.WaitFor("Command palette: Conversations", 10*time.Second)
	tui.Type("ana")
	tui.WaitUntil(func(s string) bool { return strings.Contains(s, "› Analytics") }, 10*time.Second, "Analytics first")
	tui.Keys("Enter")
	tui.WaitUntil(func(s string) bool {
		return !strings.Contains(s, "Command palette") && strings.Contains(s, "m pick metric")
	}, 20*time.Second, "the analytics screen")

	tui.Type(":")
	tui.WaitFor("Command palette: Analytics", 10*time.Second)
	tui.Type(fmt.Sprint(id))
	tui.WaitFor(fmt.Sprintf("› open conversation %d", id), 10*time.Second)
	tui.Keys("Enter")
	s := tui.WaitUntil(func(s string) bool {
		return !strings.Contains(s, "Command palette") && strings.Contains(s, fmt.Sprintf("#%d", id))
	}, 20*time.Second, fmt.Sprintf("conversation %d opened", id))
	if !strings.Contains(s, "loaded") {
		t.Fatalf("conversation %d's thread is not shown:\n%s", id, s)
	}

	// The conversation was opened from the analytics screen: esc goes back there (the
	// back stack); 1 shows the conversations screen as it was left (the thread), esc
	// its list.
	tui.Keys("Escape")
	tui.WaitUntil(func(s string) bool { return strings.Contains(s, "m pick metric") }, 20*time.Second, "back on the analytics screen")
	tui.Keys("1")
	tui.WaitFor(fmt.Sprintf("#%d", id), 10*time.Second)
	tui.Keys("Escape")
	waitList(t, tui)
	tui.Type("?")
	tui.WaitFor("Keys: Conversations", 10*time.Second)
	tui.Type("cycle")
	s = tui.WaitFor("filter: cycle", 10*time.Second)
	if !strings.Contains(s, "cycle status") || !strings.Contains(s, "cycle ordering") || strings.Contains(s, "toggle detail") {
		t.Fatalf("help filtered by \"cycle\":\n%s", s)
	}
	tui.Keys("Down", "Enter")
	tui.WaitUntil(func(s string) bool {
		return !strings.Contains(s, "Keys:") && strings.Contains(s, "oldest first")
	}, 20*time.Second, "the ordering cycled from help")
}
