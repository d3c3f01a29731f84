package serve

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
)

func TestGateFollowsTheRoles(t *testing.T) {
	t.Parallel()
	const own, other, stranger = 7, 8, 99
	knows := func(org, op int64) bool { return org == 1001 && (op == own || op == other) }
	viewer := Gate(User{Role: RoleViewer, Operator: own, Org: 1001}, knows)
	agent := Gate(User{Role: RoleAgent, Operator: own, Org: 1001}, knows)
	super := Gate(User{Role: RoleSupervisor, Operator: own, Org: 1001}, knows)
	const base = "/prefix/api/um/v3"
	tests := []struct {
		name         string
		gate         func(string, string, int64) error
		method, path string
		operator     int64
		refused      string // "" = allowed
		kind         string // the refusal's kind (parley_write_refusals_total's reason)
	}{
		{"viewer: topics", viewer, "PATCH", base + "/conversations/5/", own, "a viewer cannot change anything", refusedViewer},
		{"viewer: note", viewer, "POST", base + "/notes/", own, "a viewer cannot change anything", refusedViewer},
		{"viewer: own away", viewer, "PATCH", base + "/operators/7/away/", own, "a viewer cannot change anything", refusedViewer},
		{"agent: topics as self", agent, "PATCH", base + "/conversations/5/", own, "", ""},
		{"agent: note as self", agent, "POST", base + "/notes/", own, "", ""},
		{"agent: delete contacts as self", agent, "DELETE", base + "/contact_identities/", own, "", ""},
		{"agent: topics as another", agent, "PATCH", base + "/conversations/5/", other, "an agent acts only as their own operator (7)", refusedOtherOperator},
		{"agent: without an operator", agent, "PATCH", base + "/conversations/5/", 0, "an agent acts only as their own operator (7)", refusedOtherOperator},
		{"agent: own away", agent, "PATCH", base + "/operators/7/away/", own, "", ""},
		{"agent: another's away", agent, "PATCH", base + "/operators/8/away/", own, "an agent sets only their own away status", refusedOthersAway},
		{"agent: edit an operator", agent, "PATCH", base + "/operators/8/", own, "an agent cannot change operators", refusedOperators},
		{"agent: edit self", agent, "PATCH", base + "/operators/7/", own, "an agent cannot change operators", refusedOperators},
		{"agent: delete an operator", agent, "DELETE", base + "/operators/8/", own, "an agent cannot change operators", refusedOperators},
		{"agent: post to operators", agent, "POST", base + "/operators/", own, "an agent cannot change operators", refusedOperators},
		{"supervisor: as self", super, "PATCH", base + "/conversations/5/", own, "", ""},
		{"supervisor: as another operator of the organization", super, "PATCH", base + "/operators/8/away/", other, "", ""},
		{"supervisor: as an operator the API does not list", super, "PATCH", base + "/conversations/5/", stranger, "operator 99 is not one of the organization's operators", refusedUnknownOperator},
		{"supervisor: without an operator", super, "PATCH", base + "/conversations/5/", 0, "a supervisor acts as an operator of their organization", refusedNoOperator},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.gate(tt.method, tt.path, tt.operator)
			switch {
			case tt.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.refused != "" && err == nil:
				t.Errorf("allowed, want refused with %q", tt.refused)
			case tt.refused != "" && !strings.Contains(err.Error(), tt.refused):
				t.Errorf("refused with %q, want %q", err, tt.refused)
			case tt.refused != "" && refusalKind(err) != tt.kind:
				t.Errorf("refused as %q, want %q", refusalKind(err), tt.kind)
			}
		})
	}
}

// An agent takes a conversation and hands it over to another operator through the hub: each
// action is a conversation PATCH that goes out as the agent's own operator, which is all the
// gate asks of an agent, so both pass and the sandbox has the conversation assigned first to
// the agent, then to the other operator.
func TestAnAgentTakesAndHandsOverAConversation(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	users := threeUsers(t, api)
	agent, other := users[0].operator, users[1].operator
	c := api.client(t, 0)
	p, err := c.ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	id := p.Results[0].ID
	if _, err := c.UpdateConversation(context.Background(), id, client.ConversationUpdate{Unassign: true}); err != nil {
		t.Fatal(err)
	}
	otherOp, err := c.GetOperator(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	assigned := func() int64 {
		t.Helper()
		conv, err := c.GetConversation(client.Fresh(context.Background()), id)
		if err != nil {
			t.Fatal(err)
		}
		if conv.OperatorAssignedTo == nil {
			return 0
		}
		return *conv.OperatorAssignedTo
	}
	th := startHub(t, api, users)
	clara := open(t, th.dial(t, "Clara"), "Clara", 120, 40)
	clara.waitText(fmt.Sprintf("#%d", id))
	clara.press("T")
	clara.waitText(fmt.Sprintf("Took conversation #%d", id))
	if got := assigned(); got != agent {
		t.Fatalf("after T the conversation has operator %d, want the agent %d", got, agent)
	}
	clara.press("A")
	clara.waitText("Assign conversation")
	clara.press(otherOp.DisplayName)
	clara.press("\r")
	clara.waitText(fmt.Sprintf("Assigned conversation #%d to", id))
	if got := assigned(); got != other {
		t.Fatalf("after A the conversation has operator %d, want %d", got, other)
	}
}
