package serve

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
)

// Poll is one answer of an organization's shared poller: the conversations updated since
// Since (by the server's clock), every page of it, as each session of the organization
// receives it.
type Poll = common.PolledMsg

// pollOverlap is how far before the server's time of the last poll the next one asks for
// changes (as internal/views/screens/conversations/listing.RefreshOverlap).
const pollOverlap = 2 * time.Minute

// maxPollPages bounds the pages one poll follows (100 conversations each).
const maxPollPages = 20

// pollTimeout bounds one poll, all its pages.
const pollTimeout = time.Minute

// poller is an organization's shared poller. While sessions of the organization are
// connected it asks for the conversations updated since its last answer, at the pace of
// the auto-refresh policy (common.Budget.Pace) for the most recent key of any of them and
// the organization's use of the day's budget, stretched when the day's forecast says the
// budget runs out before the shift ends (common.Budget.ShiftStretch), and hands every
// answer to each of them.
type poller struct {
	org    int64
	client *client.Client // reads of the hub in the organization's context
	budget common.Budget
	now    func() time.Time
	// after is the timer (time.After; tests give their own to decide when a poll runs).
	after func(time.Duration) <-chan time.Time
	// deliver hands an answer to every session of the organization; tell hands them the
	// day's outlook when the stretch of the polls for the shift changes.
	deliver func(Poll)
	tell    func(common.Outlook)
	// recover is deferred in the goroutine (it logs a panic; the hub keeps running).
	recover func(where string)

	wake chan struct{}

	mu       sync.Mutex
	lastKey  time.Time // the last key of any session of the organization (or a connect)
	lastPoll time.Time // when the last poll was answered (local)
	reached  time.Time // the server's time of the last answer: the next poll asks since it
	cost     int       // requests the last poll took (pages)
	every    time.Duration
	stretch  int          // the shift's stretch of the pace now (1: none)
	spent    common.Spent // what the polls of the last hour cost, for the forecast
	running  bool
	cancel   context.CancelFunc
	done     chan struct{}
}

func newPoller(org int64, c *client.Client, b common.Budget, after func(time.Duration) <-chan time.Time, now func() time.Time,
	deliver func(Poll), tell func(common.Outlook), recover func(string)) *poller {
	return &poller{org: org, client: c, budget: b, after: after, now: now, deliver: deliver, tell: tell, recover: recover,
		wake: make(chan struct{}, 1), cost: 1, stretch: 1}
}

// start runs the poller if it is not running. The first poll asks for the changes since
// the server's time now (minus the overlap): sessions load their lists themselves when
// they start.
func (p *poller) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		return
	}
	now := p.now()
	if p.reached.IsZero() {
		p.reached = p.client.ServerReached()
	}
	if p.lastPoll.IsZero() {
		p.lastPoll = now
	}
	p.lastKey = now
	ctx, cancel := context.WithCancel(context.Background())
	p.running, p.cancel, p.done = true, cancel, make(chan struct{})
	go p.run(ctx, p.done)
}

// stop ends the poller (the last session of the organization left) and waits for it.
func (p *poller) stop() {
	p.mu.Lock()
	if !p.running {
		p.mu.Unlock()
		return
	}
	p.running = false
	cancel, done := p.cancel, p.done
	p.every = 0
	p.mu.Unlock()
	cancel()
	<-done
}

// key records a key of a session of the organization; a key that makes the pace faster
// (someone is back after a while) wakes the poller to count its next poll anew.
func (p *poller) key(at time.Time) {
	p.mu.Lock()
	before := common.ActivityAt(at.Sub(p.lastKey), true)
	if at.After(p.lastKey) {
		p.lastKey = at
	}
	p.mu.Unlock()
	if before != common.Live {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

// pollState is what a poller does at one moment.
type pollState struct {
	running bool          // it runs: a session of the organization is connected
	every   time.Duration // its period (0 while it does not poll)
	stretch int           // the factor the day's forecast stretches the polls by (1: none)
}

// state is what the poller does now, read at once.
func (p *poller) state() pollState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return pollState{running: p.running, every: p.every, stretch: p.stretch}
}

// Outlook is the organization's day's budget as the forecast sees it now, with the
// stretch of the polls.
func (p *poller) Outlook() common.Outlook {
	return p.budget.DayOutlook(p.client, p.budget.PerDay, p.state().stretch)
}

// pace is the period for the organization's activity, budget and forecast now, and when
// the next poll is due. When the forecast's stretch changes, the sessions are told.
func (p *poller) pace() (every time.Duration, due time.Time) {
	p.mu.Lock()
	now := p.now()
	act := common.ActivityAt(now.Sub(p.lastKey), true)
	used := p.client.Usage(client.FamilyConversations)
	pace := p.budget.Pace(act, used, p.cost)
	f := p.client.Forecast(client.FamilyConversations, p.budget.PerDay)
	stretch := 1
	if pace.Every > 0 {
		stretch = p.budget.ShiftStretch(f, p.spent.PerHour(f), pace, p.cost)
		pace = p.budget.ForShift(pace, stretch)
	}
	changed := stretch != p.stretch
	p.every, p.stretch = pace.Every, stretch
	every, due = pace.Every, p.lastPoll.Add(pace.Every)
	p.mu.Unlock()
	if changed && p.tell != nil {
		p.tell(p.Outlook())
	}
	return every, due
}

func (p *poller) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	// After a panic (logged by recover) the poller counts as stopped: the next session
	// that connects starts it again.
	defer func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.done == done {
			p.running, p.every = false, 0
		}
	}()
	defer p.recover(fmt.Sprintf("the poller of organization %d", p.org))
	for {
		every, due := p.pace()
		var tick <-chan time.Time
		if every > 0 {
			tick = p.after(max(0, due.Sub(p.now())))
		}
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
			continue // the pace may have changed: count again
		case <-tick:
		}
		if ctx.Err() != nil {
			return
		}
		p.deliver(p.poll(ctx))
	}
}

// poll asks once: the conversations updated since the last answer, every page.
func (p *poller) poll(ctx context.Context) Poll {
	p.mu.Lock()
	since := p.reached.Add(-pollOverlap)
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	ctx = client.Fresh(client.Poll(ctx)) // one attempt: the next tick asks again
	res := Poll{Org: p.org, Since: since}
	pages := 0
	page, err := p.client.ListConversations(ctx, client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: client.MaxLimit},
		Filter:      client.ConversationFilter{UpdatedAtFromDate: since},
	})
	for err == nil {
		pages++
		res.Conversations = append(res.Conversations, page.Results...)
		if page.Next == "" || pages >= maxPollPages {
			break
		}
		page, err = client.FetchPage[client.Conversation](ctx, p.client, page.Next)
	}
	res.At = p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastPoll = res.At
	p.cost = max(1, pages)
	p.spent.Add(res.At, pages)
	if err != nil {
		res.Err = fmt.Errorf("conversations updated since %s: %w", since.UTC().Format(time.RFC3339), err)
		if pages > 0 {
			res.Conversations = nil // a partial answer would move the window past what was not read
		}
		return res
	}
	res.Reached = p.client.ServerReached()
	p.reached = res.Reached
	return res
}
