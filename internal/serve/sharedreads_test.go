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

// operatorsFamily matches the requests of the operators family; operatorList those of its
// list.
func operatorsFamily(r logged) bool { return strings.Contains(r.Path, "/api/um/v3/operators/") }

func operatorList(r logged) bool { return r.Path == "/api/um/v3/operators/" }

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

// visits are the operators-family requests of a hub, and of them the list's.
type visits struct{ all, list int }

// operatorVisits is the operators-family requests of n sessions visiting the operators
// screen once a minute each, one after another gap apart, for minutes minutes, on a hub
// whose refresh interval is interval.
func operatorVisits(t *testing.T, n, minutes int, gap, interval time.Duration) visits {
	api := startAPI(t)
	clock := newManualClock()
	timer := newManualTimer()
	th := startHub(t, api, []*member{{name: "Vic", role: "viewer"}}, withTimer(timer), onClock(t, api, clock), func(o *Options) {
		o.MaxSessions, o.RefreshInterval = n, interval
	})
	c := th.dial(t, "Vic")
	terms := make([]*terminal, n)
	for i := range n {
		terms[i] = open(t, c, fmt.Sprintf("Vic %d", i+1), 120, 40)
	}
	for _, term := range terms {
		term.waitList()
	}
	settle(t, th)
	start := api.log.count(t, operatorsFamily)
	for m := range minutes {
		for _, term := range terms {
			visitOperators(term)
			clock.advance(gap)
		}
		settle(t, th)
		t.Logf("minute %d: %d operators-family requests", m+1, api.log.count(t, operatorsFamily)-start)
		clock.advance(time.Minute - time.Duration(n)*gap)
	}
	return visits{all: api.log.count(t, operatorsFamily), list: api.log.count(t, operatorList)}
}

// Ten sessions visiting the operators screen every minute for ten minutes cost the hub
// what one session does (±2): the list, the slots and the directory are fetched once for
// all of them inside their windows. Visits spread over the whole minute cost the list once
// per refresh interval (what one session showing the screen all along costs) and the slots
// what one session's do. The three hubs run at once: their minutes of settling do not add
// up.
func TestOperatorsAreReadOnceForEverySession(t *testing.T) {
	t.Parallel()
	const interval = 30 * time.Second
	var one, ten, spread visits
	t.Run("hubs", func(t *testing.T) {
		for name, run := range map[string]func(t *testing.T){
			"1 session":            func(t *testing.T) { one = operatorVisits(t, 1, 10, 2*time.Second, interval) },
			"10 sessions 2s apart": func(t *testing.T) { ten = operatorVisits(t, 10, 10, 2*time.Second, interval) },
			"10 sessions 6s apart": func(t *testing.T) { spread = operatorVisits(t, 10, 10, 6*time.Second, interval) },
		} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				run(t)
			})
		}
	})
	if t.Failed() {
		return
	}
	t.Logf("operators-family requests: 1 session %d, 10 sessions 2s apart %d", one.all, ten.all)
	if d := ten.all - one.all; d < -2 || d > 2 {
		t.Errorf("10 sessions cost %d operators-family requests, one costs %d", ten.all, one.all)
	}
	t.Logf("10 sessions 6s apart: %d operators-family requests, %d of them the list's", spread.all, spread.list)
	if most := int(10*time.Minute/interval) + 2; spread.list > most {
		t.Errorf("10 sessions spread over each minute asked for the operator list %d times, more than once an interval (%d)", spread.list, most)
	}
	if d := (spread.all - spread.list) - (one.all - one.list); d < -2 || d > 2 {
		t.Errorf("10 sessions spread over each minute cost %d other operators-family requests, one session %d",
			spread.all-spread.list, one.all-one.list)
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
	t.Parallel()
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
	a.waitList()
	b.waitList()
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
