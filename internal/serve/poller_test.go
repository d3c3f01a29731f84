package serve

import (
	"context"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/waitfor"
)

// manualTimer is the poller's timer in tests: a poll runs when the test fires it.
type manualTimer struct {
	mu    sync.Mutex
	asked []time.Duration
	ch    chan time.Time
}

func newManualTimer() *manualTimer { return &manualTimer{ch: make(chan time.Time)} }

func (m *manualTimer) after(d time.Duration) <-chan time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asked = append(m.asked, d)
	return m.ch
}

// lastAsked is the wait asked for last (-1 before any).
func (m *manualTimer) lastAsked() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.asked) == 0 {
		return -1
	}
	return m.asked[len(m.asked)-1]
}

// waits are the waits asked for so far.
func (m *manualTimer) waits() []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.asked)
}

// fire lets the poller's wait end.
func (m *manualTimer) fire() { m.ch <- time.Now() }

// fakeClock is a clock the test moves.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// polls collects what a poller delivers.
type polls struct {
	mu  sync.Mutex
	got []Poll
}

func (p *polls) add(r Poll) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = append(p.got, r)
}

func (p *polls) n() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.got)
}

func (p *polls) last() Poll {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.got[len(p.got)-1]
}

func noRecover(string) {}

// One poll asks once for the conversations updated since the last answer (minus the
// overlap), as a poll (one attempt), and an edit made between two polls is in the next
// answer.
func TestPollerAsksForWhatChanged(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	c := api.client(t, time.Minute)
	timer := newManualTimer()
	got := &polls{}
	p := newPoller(0, c, common.Budget{Interval: 30 * time.Second, PerDay: common.APIDailyLimit}, timer.after, time.Now, got.add, nil, noRecover)
	p.start()
	t.Cleanup(p.stop)

	waitfor.True(t, "the poller's first wait", func() bool { return timer.lastAsked() >= 0 })
	if every := p.state().every; every != 30*time.Second {
		t.Errorf("PollEvery = %s, want 30s", every)
	}
	timer.fire()
	waitfor.True(t, "the first poll", func() bool { return got.n() == 1 })
	first := got.last()
	if first.Err != nil {
		t.Fatal(first.Err)
	}
	if first.Reached.IsZero() || first.At.IsZero() || !first.Since.Before(first.Reached) {
		t.Errorf("first poll: since %v, reached %v, at %v", first.Since, first.Reached, first.At)
	}

	// An edit elsewhere (another client) between two polls.
	id := api.info.HostileConversationID
	if _, err := api.client(t, 0).SetConversationTopics(context.Background(), id, []string{"Billing"}); err != nil {
		t.Fatal(err)
	}
	before := api.log.count(t, conversationsFamily)
	timer.fire()
	waitfor.True(t, "the second poll", func() bool { return got.n() == 2 })
	second := got.last()
	if second.Err != nil {
		t.Fatal(second.Err)
	}
	if !slices.ContainsFunc(second.Conversations, func(cv client.Conversation) bool { return cv.ID == id }) {
		t.Errorf("the edited conversation %d is not in the next poll's %d conversations", id, len(second.Conversations))
	}
	if want := first.Reached.Add(-pollOverlap); !second.Since.Equal(want) {
		t.Errorf("second poll since %v, want the first answer's time minus %s: %v", second.Since, pollOverlap, want)
	}
	if n := api.log.count(t, conversationsFamily) - before; n != 1 {
		t.Errorf("the second poll cost %d requests, want 1", n)
	}
	last := api.log.lines(t)[len(api.log.lines(t))-1]
	q, _ := url.ParseQuery(last.Query)
	if last.Method != "GET" || last.Path != "/api/um/v3/conversations/" || !q.Has("updated_at_from_date") {
		t.Errorf("the poll asked %s %s?%s", last.Method, last.Path, last.Query)
	}
}

// The poller's pace follows the organization's activity: the configured interval while
// someone pressed a key lately, slower while everyone is idle, none after long without a
// key, and at once when someone comes back.
func TestPollerPaceFollowsActivity(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	c := api.client(t, time.Minute)
	clock := &fakeClock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	timer := newManualTimer()
	got := &polls{}
	p := newPoller(0, c, common.Budget{Interval: 30 * time.Second, PerDay: common.APIDailyLimit}, timer.after, clock.now, got.add, nil, noRecover)
	p.start()
	t.Cleanup(p.stop)
	waitfor.True(t, "the first wait", func() bool { return timer.lastAsked() == 30*time.Second })

	steps := []struct {
		quiet time.Duration
		every time.Duration
	}{
		{common.IdleAfter, 30 * time.Second * common.IdleFactor},
		{common.LongIdleAfter, 30 * time.Second * common.LongIdleFactor},
		{common.StopAfter, 0},
	}
	start := clock.now()
	for i, s := range steps {
		clock.set(start.Add(s.quiet))
		timer.fire()
		waitfor.True(t, "a poll", func() bool { return got.n() == i+1 })
		waitfor.True(t, "the pace after "+s.quiet.String()+" without a key", func() bool { return p.state().every == s.every })
	}
	// Asleep: no timer is armed; a key wakes it and, the last poll being long ago, it
	// polls at once.
	asked := len(timer.asked)
	clock.set(clock.now().Add(time.Hour))
	p.key(clock.now())
	waitfor.True(t, "a wait after the key", func() bool {
		timer.mu.Lock()
		defer timer.mu.Unlock()
		return len(timer.asked) > asked
	})
	if d := timer.lastAsked(); d != 0 {
		t.Errorf("after a key the poller waits %s, want 0 (at once)", d)
	}
	if every := p.state().every; every != 30*time.Second {
		t.Errorf("PollEvery after a key = %s, want 30s", every)
	}
}

// A panic in a poller is logged and the poller counts as stopped: the next session that
// connects starts it again.
func TestPollerStartsAgainAfterAPanic(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	timer := newManualTimer()
	var mu sync.Mutex
	var caught []string
	recovered := func(where string) {
		if r := recover(); r != nil {
			mu.Lock()
			caught = append(caught, where)
			mu.Unlock()
		}
	}
	panics := true
	got := &polls{}
	deliver := func(r Poll) {
		mu.Lock()
		p := panics
		panics = false
		mu.Unlock()
		if p {
			panic("a delivery that fails")
		}
		got.add(r)
	}
	p := newPoller(0, api.client(t, time.Minute), common.Budget{Interval: 30 * time.Second, PerDay: common.APIDailyLimit}, timer.after, time.Now, deliver, nil, recovered)
	p.start()
	t.Cleanup(p.stop)
	timer.fire()
	waitfor.True(t, "the panic to be caught", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(caught) == 1
	})
	waitfor.True(t, "the poller to count as stopped", func() bool { return p.state().every == 0 })
	p.start()
	timer.fire()
	waitfor.True(t, "a poll after the restart", func() bool { return got.n() == 1 })
}
