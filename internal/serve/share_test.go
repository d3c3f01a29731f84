package serve

import (
	"context"
	"fmt"
	"testing"

	"github.com/parley-tui/parley/client"
)

// Five sessions opening the same thread within the memory's time-to-live cost one request
// for it: reads go out under the hub's identity and are held once for every session.
func TestFiveSessionsOpeningOneThreadCostOneRequest(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	ops := api.operators(t)
	// Five users acting as five operators: a session's reads still go out as the hub.
	ms := []*member{{name: "Clara", role: "agent", operator: ops["agent"][0]}}
	for i, id := range ops["admin"][:4] {
		ms = append(ms, &member{name: fmt.Sprintf("Sup%d", i+1), role: "supervisor", operator: id})
	}
	th := startHub(t, api, ms)
	p, err := api.client(t, 0).ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 3, Ordering: client.Conversations.Shown}})
	if err != nil {
		t.Fatal(err)
	}
	third := p.Results[2].ID
	thread := fmt.Sprintf("/api/um/v3/conversations/%d/messages/", third)
	asked := func() int { return api.log.count(t, func(r logged) bool { return r.Path == thread }) }
	var terms []*terminal
	for _, m := range ms {
		term := open(t, th.dial(t, m.name), m.name, 120, 40)
		term.waitList()
		terms = append(terms, term)
	}
	for _, term := range terms {
		term.press("jj")
		term.waitText(fmt.Sprintf("#%d", third))
	}
	if n := asked(); n != 1 {
		t.Errorf("5 sessions opening conversation %d's thread sent %d requests for it, want 1", third, n)
	}
	detail := fmt.Sprintf("/api/um/v3/conversations/%d/", third)
	if n := api.log.count(t, func(r logged) bool { return r.Path == detail }); n > 1 {
		t.Errorf("its detail was asked %d times", n)
	}
	t.Logf("conversation-family requests for 5 sessions: %d", api.log.count(t, conversationsFamily))
}
