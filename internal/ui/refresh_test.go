package ui

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestAutoRefreshSlowsStepByStepAndAKeyWakesIt: on the conversations screen with keys
// arriving, auto-refresh runs at the configured 30 s; without keys it slows to 2 min after
// 2 minutes, to 10 min after 10, and stops after 30 with nothing armed (each tick finds the
// pace of its time); the next key refreshes at once and brings back 30 s. The status bar
// says each state.
func TestAutoRefreshSlowsStepByStepAndAKeyWakesIt(t *testing.T) {
	t.Parallel()
	l, clock := policyApp(t, sandbox.Options{}, Options{RequestBudget: 500})
	start := clock.Now()
	for i := range 4 { // working: a key before every tick
		l.Key([]string{"j", "k"}[i%2])
		l.poll(clock)
		if got := clock.Now().Sub(start); got != time.Duration(i+1)*30*time.Second {
			t.Fatalf("refresh %d at +%v, want every 30s", i+1, got)
		}
	}
	if n := l.conversationsPolled(); n != 4 {
		t.Fatalf("%d auto-refreshes in 2 minutes of work, want 4", n)
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto 30s") || strings.Contains(bar, "idle") {
		t.Fatalf("working: %q", bar)
	}
	lastKey := clock.Now().Add(-30 * time.Second)

	// No key any more: one more refresh 30 s on, then every 2 minutes from 2 minutes on.
	var at []time.Duration
	for !l.app.AutoDue().IsZero() && clock.Now().Sub(lastKey) < time.Hour {
		if l.poll(clock) {
			at = append(at, clock.Now().Sub(lastKey))
		}
		bar := l.statusBar()
		switch quiet := clock.Now().Sub(lastKey); {
		case quiet >= 30*time.Minute:
		case quiet >= 10*time.Minute && !strings.Contains(bar, "auto 10m (long idle)"):
			t.Fatalf("after %v without a key: %q", quiet, bar)
		case quiet >= 2*time.Minute && quiet < 10*time.Minute && !strings.Contains(bar, "auto 2m (idle)"):
			t.Fatalf("after %v without a key: %q", quiet, bar)
		}
	}
	m := time.Minute
	want := []time.Duration{m, 3 * m / 2, 7 * m / 2, 11 * m / 2, 15 * m / 2, 19 * m / 2, 39 * m / 2, 59 * m / 2}
	if len(at) != len(want) {
		t.Fatalf("refreshes %v after the last key, want %v", at, want)
	}
	for i := range want {
		if at[i] != want[i] {
			t.Fatalf("refreshes %v after the last key, want %v", at, want)
		}
	}
	if quiet := clock.Now().Sub(lastKey); quiet != 79*m/2 || !l.app.AutoDue().IsZero() {
		t.Fatalf("the last tick came %v after the last key, and armed %v; want 39m30s and nothing", quiet, l.app.AutoDue())
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto off (idle; a key resumes)") {
		t.Fatalf("asleep: %q", bar)
	}

	// Hours later a key refreshes at once.
	polled := l.conversationsPolled()
	clock.Add(5 * time.Hour)
	l.Key("j")
	l.Until("the refresh on the key", func() bool { return l.conversationsPolled() == polled+1 })
	if due := l.app.AutoDue(); due.Sub(clock.Now()) != 30*time.Second {
		t.Fatalf("after the key the next tick is due in %v, want 30s", due.Sub(clock.Now()))
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto 30s") {
		t.Fatalf("awake: %q", bar)
	}
	// The next keys change nothing: the pace stays, nothing more is sent.
	l.Key("k", "j")
	l.Quiet(30 * time.Millisecond)
	if n := l.conversationsPolled(); n != polled+1 {
		t.Fatalf("keys of someone working refreshed: %d", n-polled)
	}
}

// TestLosingFocusSlowsAutoRefresh: a terminal that reports it lost the focus is one step
// slower (2 min right away, 10 min after 2 minutes without a key, stopped after 10);
// getting the focus back counts as a key: a refresh at once when the last is older than
// 30 s.
func TestLosingFocusSlowsAutoRefresh(t *testing.T) {
	t.Parallel()
	l, clock := policyApp(t, sandbox.Options{}, Options{RequestBudget: 500})
	start := clock.Now()
	l.Deliver(tea.BlurMsg{})
	if bar := l.statusBar(); !strings.Contains(bar, "auto 2m (unfocused)") {
		t.Fatalf("unfocused: %q", bar)
	}
	if l.poll(clock) { // armed at 30 s before the blur: finds the slower pace
		t.Fatalf("unfocused, refreshed after 30s")
	}
	if d := clock.Now().Sub(start); d != 30*time.Second {
		t.Fatalf("tick at +%v", d)
	}
	// At 2 minutes the next step is due: 10 minutes.
	if l.poll(clock) || clock.Now().Sub(start) != 2*time.Minute || !strings.Contains(l.statusBar(), "auto 10m (unfocused)") {
		t.Fatalf("unfocused for 2 minutes (+%v): %q", clock.Now().Sub(start), l.statusBar())
	}
	if l.poll(clock) || clock.Now().Sub(start) != 10*time.Minute {
		t.Fatalf("unfocused: a refresh at +%v", clock.Now().Sub(start))
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto off (unfocused; a key resumes)") || !l.app.AutoDue().IsZero() {
		t.Fatalf("unfocused for 10 minutes: %q, due %v", bar, l.app.AutoDue())
	}
	polled := l.conversationsPolled()
	l.Deliver(tea.FocusMsg{})
	l.Until("the refresh on focus", func() bool { return l.conversationsPolled() == polled+1 })
	if bar := l.statusBar(); !strings.Contains(bar, "auto 30s") || strings.Contains(bar, "unfocused") {
		t.Fatalf("focused again: %q", bar)
	}
}

// TestDailyLimitStopsPollingAndHoldsTheStatusBar: when the API refuses a family for its
// daily limit, the status bar says so until the limit's end in local time, also after the
// toast went; auto-refresh of that family stops; the loaded rows stay usable; `r` says
// why it cannot fetch.
func TestDailyLimitStopsPollingAndHoldsTheStatusBar(t *testing.T) {
	t.Parallel()
	l, clock := policyApp(t, sandbox.Options{DailyLimit: 4}, Options{RequestBudget: 500})
	tr := l.app.Screen().(*conversations.Model)
	rows := len(tr.List.Rows())
	// 4 a day: the list, the thread the cursor rests on, and refreshes until the limit.
	limited := func() bool { return strings.Contains(l.statusBar(), "daily limit: conversations until") }
	for i := 0; i < 6 && !limited(); i++ {
		l.Key("j")
		l.poll(clock)
		l.Quiet(20 * time.Millisecond)
	}
	l.Until("the daily limit", limited)
	bar := l.statusBar()
	// The sandbox's day ends at 00:00 UTC of its clock (the app's, in UTC here): tomorrow.
	if !strings.Contains(bar, "daily limit: conversations until Sat 00:00") || !strings.Contains(bar, "auto off (daily limit)") ||
		strings.Contains(bar, "rate-limited") {
		t.Fatalf("status bar %q", bar)
	}
	if !strings.Contains(l.toasts(), "Daily limit of conversations requests reached") {
		t.Fatalf("no toast announces the limit: %q", l.toasts())
	}
	refused := l.log.Count("GET", "/conversations/")
	for range 5 {
		l.Key("j")
		clock.Add(30 * time.Second)
		l.Deliver(l.app.AutoTick())
		l.Quiet(20 * time.Millisecond)
	}
	if n := l.log.Count("GET", "/conversations/"); n != refused {
		t.Fatalf("auto-refresh went on at the limit: %d more requests", n-refused)
	}
	if due := l.app.AutoDue(); !due.Equal(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("armed for %v, want the end of the limit", due)
	}
	l.app.toasts = nil
	if len(tr.List.Rows()) != rows {
		t.Fatalf("%d rows at the limit, %d before", len(tr.List.Rows()), rows)
	}
	if !strings.Contains(l.statusBar(), "daily limit: conversations until Sat 00:00") {
		t.Fatalf("the state went with the toast: %q", l.statusBar())
	}
	l.Key("r")
	l.Until("r says why", func() bool { return strings.Contains(l.toasts(), "Daily limit of conversations requests reached") })

	// The next day polling goes on (and the limit is forgotten).
	clock.Add(time.Date(2026, 11, 21, 0, 0, 1, 0, time.UTC).Sub(clock.Now()))
	l.Deliver(limitEndedMsg{})
	l.Key("j")
	if !l.poll(clock) || strings.Contains(l.statusBar(), "daily limit") {
		t.Fatalf("the next day: no refresh, or still limited: %q", l.statusBar())
	}
}

// failing answers 503 (the API's JSON error) to everything while on.
type failing struct {
	next http.RoundTripper
	on   atomic.Bool
}

func (f *failing) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.on.Load() {
		return &http.Response{StatusCode: 503, Status: "503 Service Unavailable", Request: r,
			Header: http.Header{"Content-Type": {"application/json"}},
			Body:   http.NoBody}, nil
	}
	return f.next.RoundTrip(r)
}

// TestServerErrorAndUnreachableAreNotRateLimits: a 503 shows "server error 503" and a
// stopped server "unreachable", each with the data's age ("offline data as of 15:04"), as
// long as no answer came, and never "rate-limited"; the next answer ends the state.
func TestServerErrorAndUnreachableAreNotRateLimits(t *testing.T) {
	t.Parallel()
	f := &failing{}
	var sb *sandbox.Running
	l, clock := policyApp(t, sandbox.Options{}, Options{RequestBudget: 500}, func(c *client.Config, s *sandbox.Running) {
		f.next = c.HTTPClient.Transport
		c.HTTPClient = &http.Client{Transport: f}
		c.MaxRetries = 1
		sb = s
	})
	f.on.Store(true)
	l.Key("j")
	if !l.tick(clock) {
		t.Fatal("no refresh")
	}
	l.Until("the server error", func() bool { return strings.Contains(l.statusBar(), "server error 503") })
	l.Until("the retry given up", func() bool { return l.app.trouble.down != nil && len(l.app.trouble.waits) == 0 })
	bar := l.statusBar()
	if !strings.Contains(bar, "server error 503") || !strings.Contains(bar, "offline data as of 15:04") || strings.Contains(bar, "rate-limited") {
		t.Fatalf("server error: %q", bar)
	}
	clock.Add(5 * time.Minute)
	l.Deliver(statusTickMsg{})
	if bar := l.statusBar(); !strings.Contains(bar, "server error 503") {
		t.Fatalf("the state did not last: %q", bar)
	}

	f.on.Store(false)
	l.Key("j")
	if !l.tick(clock) {
		t.Fatal("no refresh")
	}
	l.Until("the answer", func() bool { return l.app.trouble.down == nil })
	if bar := l.statusBar(); strings.Contains(bar, "server error") || strings.Contains(bar, "offline") {
		t.Fatalf("answered again: %q", bar)
	}

	// A stopped sandbox: connection refused. The client's idle connections go first: one it
	// dialled and has not used yet would hold the server's shutdown its 5 s grace and fail it.
	if tr, ok := f.next.(interface{ CloseIdleConnections() }); ok {
		tr.CloseIdleConnections()
	}
	if err := sb.Close(); err != nil {
		t.Fatalf("stop the sandbox: %v", err)
	}
	l.Key("j")
	if !l.tick(clock) {
		t.Fatal("no refresh")
	}
	l.Until("unreachable", func() bool { return strings.Contains(l.statusBar(), "unreachable") })
	l.Until("the retry given up", func() bool { return len(l.app.trouble.waits) == 0 })
	bar = l.statusBar()
	if !strings.Contains(bar, "unreachable") || !strings.Contains(bar, "offline data as of 15:") || strings.Contains(bar, "rate-limited") ||
		strings.Contains(bar, "server error") {
		t.Fatalf("unreachable: %q", bar)
	}
}

// down503 answers every request with the API's 503 (a JSON detail, so the API counted it)
// while on, and notes the injected clock's time of each conversations attempt: polls
// (updated_at_from_date) apart from the others.
type down503 struct {
	next  http.RoundTripper
	clock *viewtest.MovingClock
	on    atomic.Bool

	mu           sync.Mutex
	polls, lists []time.Time
}

func (o *down503) RoundTrip(r *http.Request) (*http.Response, error) {
	if !o.on.Load() {
		return o.next.RoundTrip(r)
	}
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/conversations/") {
		o.mu.Lock()
		if r.URL.Query().Has("updated_at_from_date") {
			o.polls = append(o.polls, o.clock.Now())
		} else {
			o.lists = append(o.lists, o.clock.Now())
		}
		o.mu.Unlock()
	}
	return &http.Response{StatusCode: 503, Status: "503 Service Unavailable", Request: r,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   io.NopCloser(strings.NewReader(`{"detail":"Service temporarily unavailable"}`))}, nil
}

// attempts are the times of the poll and list attempts so far.
func (o *down503) attempts() (polls, lists []time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.polls), slices.Clone(o.lists)
}

// TestOutageBacksOffPollingWithOneAttemptATick: while the API answers 503 (with a JSON
// detail: each attempt counts against the day's budget), an auto-refresh tick makes one
// attempt, never retries, and each failed tick doubles the time to the next one (30 s,
// 1 min, 2, 4, 8) up to the long-idle pace (10 min), although someone keeps working; the
// status bar says it backs off. A refresh the user asks for (r) is still retried. The
// first answer ends the back-off: the next tick is 30 s on again.
func TestOutageBacksOffPollingWithOneAttemptATick(t *testing.T) {
	t.Parallel()
	var o *down503
	l, clock := policyApp(t, sandbox.Options{}, Options{RequestBudget: 500}, func(c *client.Config, _ *sandbox.Running) {
		c.MaxRetryWait = time.Millisecond // retries, where made, take no time
		o = &down503{next: c.HTTPClient.Transport, clock: viewtest.NewMovingClock(time.Time{})}
		c.HTTPClient = &http.Client{Transport: o}
	})
	o.clock = clock
	start := clock.Now()
	used := l.app.ctx.Client.Usage(client.FamilyConversations)
	// working moves the clock to the armed tick and delivers it, someone at the keyboard
	// all along: the terminal's focus coming back just before the tick counts as a key and
	// keeps the pace live.
	working := func() {
		clock.Add(l.app.AutoDue().Sub(clock.Now()))
		l.Deliver(tea.FocusMsg{})
		l.Deliver(l.app.AutoTick())
		l.Settle()
	}
	o.on.Store(true)
	for due := l.app.AutoDue(); !due.IsZero() && due.Sub(start) <= 40*time.Minute; due = l.app.AutoDue() {
		working() // 40 minutes of an outage
	}
	polls, _ := o.attempts()
	var at []time.Duration
	for _, p := range polls {
		at = append(at, p.Sub(start))
	}
	m := time.Minute
	want := []time.Duration{m / 2, 3 * m / 2, 7 * m / 2, 15 * m / 2, 31 * m / 2, 51 * m / 2, 71 * m / 2}
	if !slices.Equal(at, want) {
		t.Fatalf("auto-refresh attempts during the outage at %v, want one a tick at %v", at, want)
	}
	if n := l.app.ctx.Client.Usage(client.FamilyConversations) - used; n != len(want) {
		t.Fatalf("the outage's polling cost %d requests of the budget, want %d", n, len(want))
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto 10m (backing off)") || !strings.Contains(bar, "server error 503") {
		t.Fatalf("backing off: %q", bar)
	}

	// r is the user's: it is retried as every request (1 + DefaultMaxRetries attempts).
	_, lists := o.attempts()
	l.Key("r")
	l.Settle()
	if _, after := o.attempts(); len(after)-len(lists) != 1+client.DefaultMaxRetries {
		t.Fatalf("r during the outage made %d attempts, want %d", len(after)-len(lists), 1+client.DefaultMaxRetries)
	}

	// The API answers again: the first answer ends the back-off.
	o.on.Store(false)
	polled := l.conversationsPolled()
	working()
	l.Until("the answer", func() bool { return l.app.trouble.down == nil && l.conversationsPolled() == polled+1 })
	if d := l.app.AutoDue().Sub(clock.Now()); d != 30*time.Second {
		t.Fatalf("after the first answer the next tick is due in %v, want 30s", d)
	}
	if bar := l.statusBar(); !strings.Contains(bar, "auto 30s") || strings.Contains(bar, "backing off") {
		t.Fatalf("answered again: %q", bar)
	}
}
