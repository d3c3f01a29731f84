//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// actionsSetup puts the first conversation of the list into a known state (unassigned,
// pending, unread) and returns it with the sandbox's owner operator.
func actionsSetup(t *testing.T, c *client.Client) (id int64, owner client.Operator) {
	t.Helper()
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Ordering: listOrder}})
	if err != nil || len(p.Results) == 0 {
		t.Fatalf("first conversation: %v", err)
	}
	id = p.Results[0].ID
	pending, unread := client.StatusPending, false
	if _, err := c.UpdateConversation(t.Context(), id, client.ConversationUpdate{Unassign: true, Status: &pending, MarkedReadOperator: &unread}); err != nil {
		t.Fatal(err)
	}
	for op, err := range c.Operators(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if op.Role == client.RoleOwner {
			owner = op
		}
	}
	if owner.ID == 0 {
		t.Fatal("the sandbox has no owner operator")
	}
	p, err = c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Ordering: listOrder}})
	if err != nil || len(p.Results) == 0 || p.Results[0].ID != id {
		t.Fatalf("conversation %d is no longer the first one (by last message) after the setup: %v", id, err)
	}
	return id, owner
}

// Each conversation action played with its key in tmux as the sandbox's agent, and the
// sandbox's state read over HTTP after each: take, assign to the owner through the picker,
// unassign (the owner's: asked first), mark read, end (asked first), reopen.
func TestConversationActions(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	id, owner := actionsSetup(t, c)
	agent, err := strconv.ParseInt(sb.RestrictedOperatorID, 10, 64)
	if err != nil {
		t.Fatalf("agent operator id %q: %v", sb.RestrictedOperatorID, err)
	}
	server := func() *client.Conversation {
		t.Helper()
		conv, err := c.GetConversation(client.Fresh(t.Context()), id)
		if err != nil {
			t.Fatal(err)
		}
		return conv
	}
	assignee := func() int64 {
		if a := server().OperatorAssignedTo; a != nil {
			return *a
		}
		return 0
	}
	tui := StartTUI(t, 120, 40, append(sb.Env, "PARLEY_OPERATOR_ID="+sb.RestrictedOperatorID))
	waitList(t, tui)
	step := func(what string, keys ...string) {
		t.Helper()
		tui.Keys(keys...)
		tui.WaitFor(what, 10*time.Second)
	}

	step(fmt.Sprintf("Took conversation #%d.", id), "T")
	if got := assignee(); got != agent {
		t.Fatalf("after T: operator %d, want the agent %d", got, agent)
	}

	step("Assign conversation", "A")
	tui.Type(owner.DisplayName)
	step(fmt.Sprintf("Assigned conversation #%d to", id), "Enter")
	if got := assignee(); got != owner.ID {
		t.Fatalf("after A: operator %d, want the owner %d", got, owner.ID)
	}

	step("Unassign conversation?", "U") // the owner's now: asked first
	step(fmt.Sprintf("Unassigned conversation #%d.", id), "y")
	if got := assignee(); got != 0 {
		t.Fatalf("after U: operator %d, want none", got)
	}

	step(fmt.Sprintf("Marked conversation #%d read.", id), "u")
	if !server().MarkedReadOperator {
		t.Fatal("after u: still unread")
	}

	step(fmt.Sprintf("End conversation #%d", id), "E")
	step(fmt.Sprintf("Ended conversation #%d.", id), "y")
	if st := server().Status; st != client.StatusEnded {
		t.Fatalf("after E: status %q", st)
	}

	step(fmt.Sprintf("Reopened conversation #%d", id), "O")
	if st := server().Status; st != client.StatusPending {
		t.Fatalf("after O: status %q", st)
	}
}

// A server that refuses the status field (sandbox --variant read-only-fields): ending says
// which field was refused and the conversation stays as it was.
func TestEndRefusedByTheServerNamesTheField(t *testing.T) {
	sb := StartSandbox(t, "small", "--variant", "read-only-fields")
	c := sb.Client(t)
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Ordering: listOrder}})
	if err != nil || len(p.Results) == 0 {
		t.Fatalf("first conversation: %v", err)
	}
	conv := p.Results[0]
	if conv.Status == client.StatusEnded {
		t.Fatalf("the first conversation of the seed is ended")
	}
	tui := StartTUI(t, 160, 40, sb.Env)
	waitList(t, tui)
	tui.Keys("E")
	tui.WaitFor(fmt.Sprintf("End conversation #%d", conv.ID), 10*time.Second)
	tui.Keys("y")
	want := fmt.Sprintf(`Could not end conversation #%d: the API refused status "ended": status: this field is read-only`, conv.ID)
	tui.WaitUntil(func(s string) bool { return strings.Contains(ToastText(s), want) }, 10*time.Second, want)
	got, err := c.GetConversation(client.Fresh(t.Context()), conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != conv.Status {
		t.Fatalf("status %q after a refused end, was %q", got.Status, conv.Status)
	}
}
