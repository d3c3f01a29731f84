package serve

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/waitfor"
)

// withTimer makes the hub's pollers wait on timer: a poll runs when the test fires it.
func withTimer(timer *manualTimer) hubOption { return func(o *Options) { o.After = timer.after } }

// An edit made in one session shows in the other after one shared poll, and that poll is
// the only request it costs the other session.
func TestAnEditShowsInTheOtherSessionAfterOneSharedPoll(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	timer := newManualTimer()
	th := startHub(t, api, threeUsers(t, api), withTimer(timer))
	p, err := api.client(t, 0).ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	first := p.Results[0]
	if len(first.Topics) != 0 {
		t.Fatalf("the first conversation has topics already: %v", first.Topics)
	}
	clara := open(t, th.dial(t, "Clara"), "Clara", 120, 40)
	sam := open(t, th.dial(t, "Sam"), "Sam", 120, 40)
	clara.waitText(fmt.Sprintf("#%d", first.ID))
	sam.waitText(fmt.Sprintf("#%d", first.ID))
	sam.waitText("2 connected")

	clara.setTopic("Escalated")
	if strings.Contains(sam.screen(), "Escalated") {
		t.Fatal("Sam's list shows the edit before any poll")
	}
	before := len(api.log.lines(t))
	timer.fire()
	sam.waitText("Escalated")
	var polls []string
	for _, r := range api.log.lines(t)[before:] {
		t.Logf("after the poll: %s %s?%s", r.Method, r.Path, r.Query)
		if strings.Contains(r.Query, "updated_at_from_date") {
			polls = append(polls, r.Query)
		}
	}
	if len(polls) != 1 {
		t.Errorf("%d polls, want one: %q", len(polls), polls)
	}
}

// A viewer is offered no edit: the edit keys do nothing and nothing is sent.
func TestAViewerSendsNoWrite(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api))
	vic := open(t, th.dial(t, "Vic"), "Vic", 120, 40)
	vic.waitText("read-only")
	writes := func() int { return api.log.count(t, func(r logged) bool { return r.Method != "GET" }) }
	before := writes()
	vic.press("t")                // topics
	vic.press("n")                // a note
	vic.press("d")                // delete
	vic.press("2")                // then the contacts screen: the keys before it were handled
	vic.waitText("time: created") // the contacts list's header
	for _, form := range []string{"Topics of conversation", "New note", "Delete"} {
		if strings.Contains(vic.screen(), form) {
			t.Errorf("the viewer got %q:\n%s", form, vic.screen())
		}
	}
	if n := writes() - before; n != 0 {
		t.Errorf("the viewer's keys sent %d writes", n)
	}
}

// An agent is not offered act as (ctrl+p), and is told why at once; nor an operator's edit
// form (e), told why before any form opens; a supervisor is offered act as.
func TestAnAgentCannotActAsAnotherOperator(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api))
	clara := open(t, th.dial(t, "Clara"), "Clara", 120, 40)
	sam := open(t, th.dial(t, "Sam"), "Sam", 120, 40)
	clara.waitList()
	sam.waitList()
	clara.press("\x10") // ctrl+p
	clara.waitText("ctrl+p (act as operator) is off: an agent acts only as their own operator")
	clara.press("3")
	clara.waitText("operators")
	clara.press("e")
	clara.waitText("e (edit) is off: an agent cannot change operators")
	clara.press("2")
	clara.waitText("time: created") // the contacts list's header
	if s := clara.screen(); strings.Contains(s, "Act as operator") || strings.Contains(s, "Edit operator") {
		t.Errorf("the agent was offered act as or an operator's form:\n%s", s)
	}
	sam.press("\x10")
	sam.waitText("Act as operator")
}

// No session picks another organization (ctrl+o), a supervisor's neither: the hub's
// customer token would let it read them. The picker would open at once; the screen
// switch after the key shows that the key was read.
func TestNoSessionPicksAnotherOrganization(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api))
	sam := open(t, th.dial(t, "Sam"), "Sam", 120, 40)
	sam.waitList()
	sam.press("\x0f") // ctrl+o
	sam.press("2")
	sam.waitText("time: created") // the contacts list's header
	if strings.Contains(sam.screen(), "Organization (Service-Organization-Id)") {
		t.Errorf("the supervisor was offered another organization:\n%s", sam.screen())
	}
}

// The conversation-family requests of a hub over a few shared polls are the same with 1,
// 5 and 20 idle sessions (±1): one poll a tick for everybody, and what the sessions load
// at start is read once for all of them.
func TestIdleSessionsCostWhatOneCosts(t *testing.T) {
	if testing.Short() {
		t.Skip("20 sessions")
	}
	t.Parallel()
	const polls = 3
	var mu sync.Mutex
	costs := map[int]int{}
	// Each count of sessions has a sandbox and a hub of its own: they run side by side, and
	// the group returns when all three have counted.
	t.Run("sessions", func(t *testing.T) {
		for _, n := range []int{1, 5, 20} {
			t.Run(fmt.Sprint(n), func(t *testing.T) {
				t.Parallel()
				api := startAPI(t)
				timer := newManualTimer()
				// A short interval: a session that polled for itself would show in the counts.
				th := startHub(t, api, []*member{{name: "Vic", role: "viewer"}}, withTimer(timer), func(o *Options) {
					o.MaxSessions = 20
					o.RefreshInterval = time.Second
				})
				c := th.dial(t, "Vic")
				// All sessions start at once (their start-ups overlap as a team's morning does),
				// then each shows its list.
				terms := make([]*terminal, n)
				for i := range n {
					terms[i] = open(t, c, fmt.Sprintf("Vic %d", i+1), 120, 40)
				}
				for _, term := range terms {
					term.waitList()
				}
				settle(t, th)
				for range polls {
					before := api.log.count(t, conversationsFamily)
					timer.fire()
					waitfor.True(t, "the poll", func() bool { return api.log.count(t, conversationsFamily) > before })
					settle(t, th)
				}
				cost := api.log.count(t, conversationsFamily)
				t.Logf("%2d idle sessions, start-up and %d shared polls: %d conversation-family requests", n, polls, cost)
				mu.Lock()
				costs[n] = cost
				mu.Unlock()
			})
		}
	})
	if len(costs) != 3 {
		t.Fatalf("counted %d of 3 hubs", len(costs))
	}
	for _, n := range []int{5, 20} {
		if d := costs[n] - costs[1]; d < -1 || d > 1 {
			t.Errorf("%d idle sessions cost %d conversation-family requests, one costs %d", n, costs[n], costs[1])
		}
	}
}
