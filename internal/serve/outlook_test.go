package serve

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/waitfor"
)

// dayStore is the request ledger of a test: the day's counts, shared by every client given
// it, as the ledger is by the hub and the user's other parley processes.
type dayStore struct {
	mu     sync.Mutex
	counts map[string]map[client.CounterKey]client.Tally
}

func (s *dayStore) Add(day string, k client.CounterKey, t client.Tally) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts == nil {
		s.counts = map[string]map[client.CounterKey]client.Tally{}
	}
	if s.counts[day] == nil {
		s.counts[day] = map[client.CounterKey]client.Tally{}
	}
	c := s.counts[day][k]
	c.Answered, c.Refused, c.Unreached = c.Answered+t.Answered, c.Refused+t.Refused, c.Unreached+t.Unreached
	s.counts[day][k] = c
}

func (s *dayStore) Each(day string, fn func(client.CounterKey, client.Tally)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, t := range s.counts[day] {
		fn(k, t)
	}
}

// When the ledger's pace runs the day's budget out before the shift ends, the hub
// stretches its shared polls, every session shows the forecast and is told, and the
// metrics tell the forecast and the stretch, before the API's limit is reached: here the ledger says 1,000 conversation requests by 09:00, then
// the team spends 20 a minute (1,200 an hour), which runs the 5,000 out around 12:15, and
// the shift ends at 17:00.
func TestTheHubStretchesItsPollsWhenTheForecastFallsShortOfTheShift(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	api := startAPIOn(t, clock.now)
	timer := newManualTimer()
	ledger := &dayStore{}
	var hubClient *client.Client
	m := NewMetrics()
	th := startHub(t, api, []*member{{name: "Vic", role: "viewer"}}, withTimer(timer), func(o *Options) {
		c, err := client.New(client.Config{BaseURL: api.run.URL, Token: api.info.CustomerToken, CacheTTL: 2 * time.Minute,
			Now: clock.now, Store: ledger, OnRequest: m.Request})
		if err != nil {
			t.Fatal(err)
		}
		hubClient = c
		withMetrics(m, c)(o)
		o.Now, o.AfterFunc = clock.now, clock.afterFunc
		o.ShiftEnd = 17 * time.Hour
	})
	org := hubClient.OrganizationID()
	day := clock.now().UTC().Format(time.DateOnly)
	ledger.Add(day, client.CounterKey{OrganizationID: org, Family: client.FamilyConversations}, client.Tally{Answered: 1000})
	c := th.dial(t, "Vic")
	terms := []*terminal{open(t, c, "Vic 1", 200, 40), open(t, c, "Vic 2", 200, 40)}
	for _, term := range terms {
		term.waitList()
	}
	waitfor.True(t, "the first wait of the poller", func() bool { return timer.lastAsked() >= 0 })
	if d := timer.lastAsked(); d != 30*time.Second {
		t.Fatalf("the poller first waits %s, want the interval", d)
	}
	stretched := 0
	for minute := 1; minute <= 20 && stretched == 0; minute++ {
		clock.advance(time.Minute)
		terms[minute%2].press([]string{"j", "k"}[minute/2%2]) // someone works: the poll keeps its pace
		for range 20 {
			if _, err := hubClient.ListConversations(client.Fresh(context.Background()), client.ConversationListOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		asked := len(timer.waits())
		timer.fire()
		waitfor.True(t, "the poller's next wait", func() bool { return len(timer.waits()) > asked })
		if o := th.Outlook(org); o.Stretch > 1 {
			stretched = minute
			t.Logf("minute %d: the poller waits %s; forecast %+v", minute, timer.lastAsked(), o.Forecast)
		}
	}
	if stretched == 0 {
		t.Fatalf("the polls were never stretched; outlook %+v", th.Outlook(org))
	}
	o := th.Outlook(org)
	if !o.Short() || o.Forecast.Out.After(clock.now().Add(4*time.Hour)) {
		t.Errorf("the outlook when the polls were stretched: %+v", o)
	}
	every := timer.lastAsked()
	if pe := (team{hub: th.Hub, org: org}).PollEvery(); every <= 30*time.Second || pe != every {
		t.Errorf("the stretched poller waits %s (PollEvery %s), want more than the interval", every, pe)
	}
	scrape := th.scrape(t)
	o = th.Outlook(org) // at the scrape's clock and count
	// The poller's metrics name the organization as the users file does, the budget's as
	// the API answers for it (the token's default organization is 0 in the file).
	if got := scrape.sum(metricPollStretch, "org", strconv.FormatInt(org, 10)); got != float64(o.Stretch) {
		t.Errorf("%s = %v, the poller's stretch %d", metricPollStretch, got, o.Stretch)
	}
	conv := []string{"org", strconv.FormatInt(hubClient.Counters().Effective(org), 10), "family", string(client.FamilyConversations)}
	if got, want := scrape.sum(metricRunsOut, conv...), float64(o.Forecast.Out.Unix()); got != want {
		t.Errorf("%s = %v, the forecast %v", metricRunsOut, got, want)
	}
	if got := scrape.sum(metricPace, conv...); got != o.Forecast.PerHour {
		t.Errorf("%s = %v, the forecast's pace %v", metricPace, got, o.Forecast.PerHour)
	}
	if _, ok := scrape[metricRunsOut]; ok && len(scrape[metricRunsOut].GetMetric()) != 1 {
		t.Errorf("%s tells of families whose budget lasts the day: %v", metricRunsOut, scrape[metricRunsOut])
	}
	forecast := regexp.MustCompile(`budget lasts until (\d\d:\d\d) at this pace`)
	for _, term := range terms {
		term.waitText("before the shift ends at 17:00") // the toast
		screen := term.waitScreen("the forecast", forecast.MatchString)
		shown, err := time.Parse("15:04", forecast.FindStringSubmatch(screen)[1])
		if err != nil {
			t.Fatal(err)
		}
		out := o.Forecast.Out
		shown = time.Date(out.Year(), out.Month(), out.Day(), shown.Hour(), shown.Minute(), 0, 0, out.Location())
		if d := shown.Sub(out); d < -2*time.Minute || d > 2*time.Minute {
			t.Errorf("%s's status bar says the budget lasts until %s, the forecast %s", term.name, shown.Format("15:04"), out.Format("15:04:05"))
		}
		term.waitText("shared " + common.CompactDuration(every) + " (forecast)")
	}
	if n := api.log.count(t, func(r logged) bool { return r.Status == http.StatusTooManyRequests }); n != 0 {
		t.Errorf("%d requests were refused with 429", n)
	}
	if used := hubClient.Usage(client.FamilyConversations); used >= common.APIDailyLimit {
		t.Errorf("the ledger counts %d conversation requests: the limit was reached", used)
	}
}
