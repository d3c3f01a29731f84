package ui

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// sim drives the root model through a scripted day on an injected clock: every command
// runs to its end at once (requests go to the sandbox over HTTP), timers never fire by
// themselves, and the clock moves only when the script says; auto-refresh ticks are
// delivered when the clock reaches the time the app armed them for.
type sim struct {
	t     *testing.T
	app   *App
	clock *viewtest.MovingClock
	log   *viewtest.RequestLog
}

// deliver hands msg to the app and the messages its commands lead to, one after the
// other, skipping the commands that only sleep (ticks: the clock is the script's).
func (s *sim) deliver(msg tea.Msg) {
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if _, ok := m.(tea.QuitMsg); ok {
			s.t.Fatal("the app quit")
		}
		// The root's update without the panic guard, whose wrapping would hide the ticks
		// from RunSkippingTicks.
		_, cmd := s.app.update(m)
		if opened := s.app.route.Settle(); opened != nil {
			cmd = tea.Batch(cmd, opened)
		}
		queue = append(queue, viewtest.RunSkippingTicks(cmd, 10*time.Second)...)
	}
}

// at moves the clock to t, delivering each auto-refresh tick that comes due on the way.
func (s *sim) at(t time.Time) {
	for {
		due := s.app.AutoDue()
		if due.IsZero() || due.After(t) {
			break
		}
		s.clock.Add(due.Sub(s.clock.Now()))
		s.deliver(s.app.AutoTick())
	}
	s.clock.Add(t.Sub(s.clock.Now()))
}

func (s *sim) keys(keys ...string) {
	for _, k := range keys {
		s.deliver(viewtest.Key(k))
	}
}

// counts are the requests of the sandbox's log so far, per family.
func (s *sim) counts() map[string]int {
	out := map[string]int{}
	for _, r := range s.log.Lines() {
		out[familyOfPath(r.Path)]++
	}
	return out
}

// familyOfPath is the API family of a request path (spec, Limits).
func familyOfPath(p string) string {
	for _, f := range []string{"conversations", "contact_identities", "navigation", "operators", "notes", "analytics"} {
		if strings.Contains(p, "/"+f+"/") {
			return f
		}
	}
	return "other"
}

func minus(a, b map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range a {
		if d := v - b[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// work is a spell of an agent working on the conversations screen from the clock's time
// to end: a key every 30 seconds (moving through the list), a thread opened every 4
// minutes and left the minute after, a search every 20 minutes and a look at the contacts
// screen once an hour.
func (s *sim) work(end time.Time) {
	for s.clock.Now().Before(end) {
		now := s.clock.Now()
		m := now.Minute()
		switch {
		case now.Second() != 0:
			s.keys([]string{"j", "k", "j"}[now.Second()%3])
		case m == 50:
			s.keys("2") // the contacts screen, for a minute
		case m == 51:
			s.keys("1")
		case m%20 == 5:
			s.keys("/", "r", "e", "f", "u", "n", "d", "enter")
		case m%20 == 6:
			s.keys("esc", "esc") // back to the list, then the search cleared
		case m%4 == 0:
			s.keys("j", "enter")
		case m%4 == 1:
			s.keys("esc")
		default:
			s.keys("j")
		}
		s.at(now.Add(30 * time.Second))
	}
}

// dayFigures are the requests of one agent's simulated day: per family in an active
// hour, an idle hour, the night and the whole UTC day; for a half day, also what the
// time from half an hour after the agent left cost (late).
type dayFigures struct {
	active, idle, night, day, late map[string]int
}

// simulateDay runs one agent's working day with the default settings (auto-refresh 30 s,
// a team of ten: 500 requests per family) against the sandbox and its request log:
// parley opened at 08:00 UTC, work with two short breaks and an idle lunch hour until
// 17:00, then left open overnight until 08:00 the next day. With halfDay the agent
// leaves at 12:00 and parley stays open from then on.
func simulateDay(t *testing.T, halfDay bool) dayFigures {
	log := &viewtest.RequestLog{}
	day := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	clock := viewtest.NewMovingClock(day)
	sb := viewtest.Sandbox(t, sandbox.Options{RequestLog: log, Now: clock.Now})
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken, Now: clock.Now,
		CacheTTL: 2 * time.Minute, HTTPClient: &http.Client{Transport: viewtest.Transport(t)}})
	if err != nil {
		t.Fatal(err)
	}
	viewtest.Ctx(c) // plain colours
	app := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: clock.Now,
		RefreshInterval: 30 * time.Second, PageSize: 100})
	s := &sim{t: t, app: app, clock: clock, log: log}
	init := app.initCmds()
	s.deliver(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, m := range viewtest.RunSkippingTicks(init, 10*time.Second) {
		s.deliver(m)
	}

	hour := func(h, m int) time.Time { return day.Add(time.Duration(h-8)*time.Hour + time.Duration(m)*time.Minute) }
	var f dayFigures
	s.work(hour(9, 0))
	f.active = s.counts()
	s.work(hour(10, 0))
	s.at(hour(10, 15)) // a break
	s.work(hour(12, 0))
	if !halfDay {
		before := s.counts()
		s.at(hour(13, 0)) // lunch: an idle hour, parley open
		f.idle = minus(s.counts(), before)
		s.work(hour(15, 0))
		s.at(hour(15, 15))
		s.work(hour(17, 0))
	}
	before := s.counts()
	var stopped map[string]int
	if halfDay {
		s.at(hour(12, 0).Add(common.StopAfter)) // the last key was before 12:00
		stopped = s.counts()
	}
	s.at(hour(24, 0)) // left open: the rest of the day
	f.day = s.counts()
	s.at(hour(32, 0)) // and the night until 08:00
	f.night = minus(s.counts(), before)
	if halfDay {
		f.late = minus(s.counts(), stopped)
	}
	return f
}

// TestSimulatedAgentDayStaysUnderTheBudget: one agent's scripted working day spends, in
// every family, no more than the default budget (a tenth of the API's 5000), little in
// the idle lunch hour, nothing while parley sits open overnight, and what the table
// "Requests per agent-shift" of docs/budget.md says.
func TestSimulatedAgentDayStaysUnderTheBudget(t *testing.T) {
	t.Parallel()
	f := simulateDay(t, false)
	half := simulateDay(t, true)
	budget := 5000 / 10
	for fam, n := range f.day {
		if n > budget {
			t.Errorf("%s: %d requests in the day, over the budget of %d", fam, n, budget)
		}
	}
	// Auto-refresh stops 30 minutes after the last key: of the evening and the night
	// only that half hour costs anything (a full day spends the allowance before), and
	// no more than the policy's steps allow in it at the configured interval.
	if n := total(f.night); n != 0 {
		t.Errorf("the night after a full day cost %d requests: %v", n, f.night)
	}
	if n := total(half.late); n != 0 {
		t.Errorf("after auto-refresh stopped, the afternoon and night after a half day cost %d requests: %v", n, half.late)
	}
	if n, most := total(half.night), stepsBeforeStop(30*time.Second); n == 0 || n > most {
		t.Errorf("the half hour after a half day cost %d requests (the policy allows %d): %v", n, most, half.night)
	}
	if n := total(f.idle); n == 0 || n > 8 {
		t.Errorf("the idle hour cost %d requests: %v", n, f.idle)
	}
	conv := f.day["conversations"]
	if conv != config.AgentDayRequests {
		t.Errorf("the day cost %d conversations requests; config.AgentDayRequests (quoted by parley config --help) says %d", conv, config.AgentDayRequests)
	}
	rows := map[string]string{
		"active hour": fmt.Sprintf("| active hour (08:00–09:00, with start-up) | %d | %d |", f.active["conversations"], total(f.active)),
		"idle hour":   fmt.Sprintf("| idle hour (lunch, parley open) | %d | %d |", f.idle["conversations"], total(f.idle)),
		"night":       fmt.Sprintf("| night (17:00–08:00, parley open) | %d | %d |", f.night["conversations"], total(f.night)),
		"half":        fmt.Sprintf("| left at 12:00, parley open until 08:00 | %d | %d |", half.night["conversations"], total(half.night)),
		"whole day":   fmt.Sprintf("| whole day (the UTC day) | %d | %d |", conv, total(f.day)),
		"agents":      fmt.Sprintf("| agents of one organization in 5,000 a day | %d | |", 5000/conv),
	}
	t.Logf("per family: active hour %v; idle hour %v; night %v; day %v; after a half day %v", f.active, f.idle, f.night, f.day, half.night)
	doc := readBudgetDoc(t)
	for what, row := range rows {
		t.Log(row)
		if !strings.Contains(doc, row+"\n") {
			t.Errorf("the \"Requests per agent-shift\" table of docs/budget.md lacks the %s row %q", what, row)
		}
	}
}

// stepsBeforeStop is the most auto-refreshes the policy makes between the last key and
// its stop, at the configured interval unstretched by the budget: live until
// common.IdleAfter, then every IdleFactor intervals until common.LongIdleAfter, then
// every LongIdleFactor intervals until common.StopAfter.
func stepsBeforeStop(interval time.Duration) int {
	return int(common.IdleAfter/interval) +
		int((common.LongIdleAfter-common.IdleAfter)/(interval*common.IdleFactor)) +
		int((common.StopAfter-common.LongIdleAfter)/(interval*common.LongIdleFactor))
}

// readBudgetDoc is docs/budget.md, the page of auto-refresh and the request budget.
func readBudgetDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "budget.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
