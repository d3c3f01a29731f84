package serve

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// onClock runs the hub, its sessions and its client on clock: the client's memory ages,
// and the sessions' screens refresh, as the test moves it.
func onClock(t testing.TB, api *testAPI, clock *manualClock) hubOption {
	return func(o *Options) {
		c, err := client.New(client.Config{BaseURL: api.run.URL, Token: api.info.CustomerToken, CacheTTL: 2 * time.Minute, Now: clock.now})
		if err != nil {
			t.Fatal(err)
		}
		o.Client, o.Now, o.AfterFunc = c, clock.now, clock.afterFunc
	}
}

// operatorsFamily matches the requests of the operators family.
func operatorsFamily(r logged) bool { return strings.Contains(r.Path, "/api/um/v3/operators/") }

// visitOperators shows the operators screen until its slots are in, then goes back to the
// conversations.
func visitOperators(term *terminal) {
	term.t.Helper()
	term.press("3")
	term.waitScreen("the operators with their slots", func(s string) bool {
		return strings.Contains(s, "operators ·") && strings.Contains(s, "slots ") && !strings.Contains(s, "slots …")
	})
	term.press("1")
	term.waitScreen("the conversations", func(s string) bool { return !strings.Contains(s, "operators ·") })
}

// operatorVisits is the operators-family requests of n sessions visiting the operators
// screen once a minute each, one after another 2 s apart, for minutes minutes.
func operatorVisits(t *testing.T, n, minutes int) int {
	api := startAPI(t)
	clock := newManualClock()
	timer := newManualTimer()
	th := startHub(t, api, []*member{{name: "Vic", role: "viewer"}}, withTimer(timer), onClock(t, api, clock), func(o *Options) {
		o.MaxSessions = n
	})
	c := th.dial(t, "Vic")
	var terms []*terminal
	for i := range n {
		term := open(t, c, fmt.Sprintf("Vic %d", i+1), 120, 40)
		term.waitText("conversations")
		terms = append(terms, term)
	}
	settle(t, th)
	start := api.log.count(t, operatorsFamily)
	for m := range minutes {
		for _, term := range terms {
			visitOperators(term)
			clock.advance(2 * time.Second)
		}
		settle(t, th)
		t.Logf("minute %d: %d operators-family requests", m+1, api.log.count(t, operatorsFamily)-start)
		clock.advance(time.Minute - time.Duration(n)*2*time.Second)
	}
	return api.log.count(t, operatorsFamily)
}

func TestOperatorsAreReadOnceForEverySession(t *testing.T) {
	one := operatorVisits(t, 1, 10)
	ten := operatorVisits(t, 10, 10)
	t.Logf("operators-family requests: 1 session %d, 10 sessions %d", one, ten)
	if d := ten - one; d < -2 || d > 2 {
		t.Errorf("10 sessions cost %d operators-family requests, one costs %d", ten, one)
	}
}

// search types a search on the conversations screen and waits for its answer.
func search(term *terminal, text string, want string) {
	term.t.Helper()
	term.press("/")
	term.waitText("Search conversations:")
	term.press(text + "\r")
	term.waitText(want)
}

// An identical search by two sessions 3 minutes apart (past the memory's time-to-live)
// costs one full request and one revalidation: the second session's is a changed-only
// read of the search's conversations since the first answer, which finds none.
func TestAnIdenticalSearchIsRevalidatedNotFetchedAgain(t *testing.T) {
	clock := newManualClock()
	api := startAPIOn(t, clock.now)
	th := startHub(t, api, []*member{{name: "Vic", role: "viewer"}}, withTimer(newManualTimer()), onClock(t, api, clock))
	p, err := api.client(t, 0).ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var name string
	if n := p.Results[0].Contact.Name; n != nil {
		name, _, _ = strings.Cut(*n, " ")
	}
	if name == "" {
		t.Fatalf("the newest conversation's contact has no name: %+v", p.Results[0].Contact)
	}
	c := th.dial(t, "Vic")
	a := open(t, c, "Vic 1", 120, 40)
	b := open(t, c, "Vic 2", 120, 40)
	a.waitText("conversations")
	b.waitText("conversations")
	settle(t, th)
	// The sandbox's data was stamped at its start; the search comes a while later.
	clock.advance(10 * time.Minute)
	searches := func(revalidation bool) int {
		return api.log.count(t, func(r logged) bool {
			return strings.HasSuffix(r.Path, "/api/um/v3/conversations/") && strings.Contains(r.Query, "search_query=") &&
				strings.Contains(r.Query, "updated_at_from_date=") == revalidation
		})
	}
	search(a, name, `"`+name+`"`)
	settle(t, th)
	clock.advance(3 * time.Minute)
	search(b, name, `"`+name+`"`)
	settle(t, th)
	full, checks := searches(false), searches(true)
	t.Logf("two identical searches 3 minutes apart: %d full requests, %d revalidations", full, checks)
	if full != 1 || checks > 1 {
		t.Errorf("two identical searches 3 minutes apart: %d full requests and %d revalidations, want 1 and at most 1", full, checks)
	}
	if a, b := a.screen(), b.screen(); rowsOf(a) != rowsOf(b) {
		t.Errorf("the two sessions show different rows:\n%s\n---\n%s", a, b)
	}
}

// rowsOf is the lines of a screen that show a conversation ("#id").
func rowsOf(screen string) string {
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "#") {
			rows = append(rows, l)
		}
	}
	return strings.Join(rows, "\n")
}
