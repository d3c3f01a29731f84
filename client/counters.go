package client

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/parley-tui/parley/internal/sat"
)

// Family is a rate-limit family of the API: the daily limit is counted per family and per
// organization. Analytics requests count per metric ("analytics:<metric>").
type Family string

// The v3 families of the spec (Limits, rule 1), plus notes, which the spec leaves open and
// parley counts on their own.
const (
	FamilyConversations Family = "conversations"
	FamilyContacts      Family = "contacts"
	FamilyNavigation    Family = "navigation"
	FamilyOperators     Family = "operators"
	FamilyNotes         Family = "notes"
	FamilyOther         Family = "other"
)

// DailyFamilies are the families the API limits per day and organization (notes, which
// the spec leaves open, with the same limit assumed), conversations first.
func DailyFamilies() []Family {
	return []Family{FamilyConversations, FamilyContacts, FamilyNavigation, FamilyOperators, FamilyNotes}
}

const analyticsPrefix = "analytics:"

func analyticsFamily(m Metric) Family { return Family(analyticsPrefix + string(m)) }

// IsAnalytics reports whether f counts an analytics metric.
func (f Family) IsAnalytics() bool { return strings.HasPrefix(string(f), analyticsPrefix) }

// Metric returns the analytics metric of an analytics family ("" otherwise).
func (f Family) Metric() Metric {
	if !f.IsAnalytics() {
		return ""
	}
	return Metric(strings.TrimPrefix(string(f), analyticsPrefix))
}

// FamilyOfPath is the family a request to path counts in (FamilyOther for a path of
// neither API); the path may carry the base URL's path before /api/um/.
func FamilyOfPath(path string) Family { return familyOf(path) }

// familyOf maps a request path (with or without a base path prefix) to its family.
func familyOf(path string) Family {
	if i := strings.LastIndex(path, "/api/um/"); i >= 0 { // the base path may contain /api/um/ too
		path = path[i+len("/api/um/"):]
	} else {
		return FamilyOther
	}
	segs := strings.Split(strings.Trim(path, "/"), "/")
	// v3/<family>/…, v1/analytics/<metric>/, analytics/<metric>/
	if len(segs) > 0 && len(segs[0]) > 1 && segs[0][0] == 'v' {
		segs = segs[1:]
	}
	if len(segs) == 0 {
		return FamilyOther
	}
	switch segs[0] {
	case "conversations":
		return FamilyConversations
	case "contact_identities":
		return FamilyContacts
	case "navigation":
		return FamilyNavigation
	case "operators":
		return FamilyOperators
	case "notes":
		return FamilyNotes
	case "analytics":
		if len(segs) > 1 && segs[1] != "" {
			return analyticsFamily(Metric(segs[1]))
		}
	}
	return FamilyOther
}

// CounterKey names one counter: a family of one organization (0 = the token's default,
// while it is not known which organization that is).
type CounterKey struct {
	OrganizationID int64
	Family         Family
}

// Tally is what happened to the requests of one counter (every attempt, retries included,
// counts by what happened to it).
type Tally struct {
	// Answered: the API answered with a status other than 429, so it counted the request
	// against the daily limit. An attempt sent whose answer never came counts here too:
	// the API may well have counted it.
	Answered int
	// Refused: the API answered 429 (a limit reached); it did not count the request.
	Refused int
	// Unreached: the request never reached the API (no connection, a timeout before it
	// was sent, or a gateway's 502/503/504 without the API's JSON error body).
	Unreached int
}

// NotCounted is how many attempts the API did not count: refused or unreached (at most the
// largest int).
func (t Tally) NotCounted() int { return sat.Add(t.Refused, t.Unreached) }

// plus adds u, each count saturated at the bounds of int: a Store's counts come from a file
// and may be anything.
func (t Tally) plus(u Tally) Tally {
	return Tally{Answered: sat.Add(t.Answered, u.Answered), Refused: sat.Add(t.Refused, u.Refused),
		Unreached: sat.Add(t.Unreached, u.Unreached)}
}

// Store keeps the day's counts where every parley process of the user sees them (package
// ledger, through an adapter of the caller's). Days are UTC days, "2006-01-02".
type Store interface {
	// Add adds t to a counter of day. It is called from the goroutine that made the
	// request, after its answer, and may write to disk.
	Add(day string, k CounterKey, t Tally)
	// Each calls fn with every non-zero counter of day. It must not do I/O: the status bar
	// asks while drawing.
	Each(day string, fn func(CounterKey, Tally))
}

// Restart is a Store's word that the day's counts started again from zero: the file that
// kept them was damaged (Why, in a few words) and is kept under the name Kept since At.
type Restart struct {
	At        time.Time
	Kept, Why string
}

// Restarter is a Store that can tell a restart of the day's counts (the persistent
// ledger). Restarted must not do I/O: the status bar asks while drawing.
type Restarter interface {
	Restarted(day string) (Restart, bool)
}

// memoryStore is the Store of a client without one: the current day, in memory.
type memoryStore struct {
	mu     sync.Mutex
	day    string
	counts map[CounterKey]Tally
}

func (m *memoryStore) Add(day string, k CounterKey, t Tally) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if day != m.day {
		if day < m.day {
			return // an answer that came in after midnight for the day before
		}
		m.day, m.counts = day, map[CounterKey]Tally{}
	}
	m.counts[k] = m.counts[k].plus(t)
}

func (m *memoryStore) Each(day string, fn func(CounterKey, Tally)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if day != m.day {
		return
	}
	for k, t := range m.counts {
		fn(k, t)
	}
}

// Counters counts requests per family and organization during the current UTC day, as the
// API counts them (Tally): what it answered, apart from what it refused with 429 and what
// never reached it. The counts live in the configured Store (Config.Store, the persistent
// ledger shared with the user's other parley processes), else in memory. Safe for
// concurrent use.
//
// Requests are sent with an organization header (or none), but the API counts them against
// the organization that answers: the token's default one without the header, and also for
// an id the token may not use (an organization token ignores the header; a customer token
// falls back to its default for an unknown id). Once the caller knows which organization
// answers for a header value, Resolve makes both count as one: requests are stored under the
// organization known to answer at the time, and reading adds up every organization key known
// to be answered by the same organization, so counts stored before it was known (also by
// another process, such as a command-line export) are not lost.
type Counters struct {
	mu    sync.Mutex
	now   func() time.Time
	store Store
	alias map[int64]int64 // header value → the organization that answers for it
}

func newCounters(now func() time.Time, store Store) *Counters {
	if store == nil {
		store = &memoryStore{}
	}
	return &Counters{now: now, store: store, alias: map[int64]int64{}}
}

func (c *Counters) today() string { return c.now().UTC().Format(time.DateOnly) }

// effective is the organization that requests sent with header value org count against;
// the caller holds mu.
func (c *Counters) effective(org int64) int64 {
	for range 4 { // aliases never chain in practice; the bound guards against a cycle
		to, ok := c.alias[org]
		if !ok || to == org {
			break
		}
		org = to
	}
	return org
}

// Resolve records that requests sent with the organization header value sent (0: no
// header) are answered, and counted by the API, for organization answered: from now on both
// share one counter, and what was counted under sent so far counts for answered. It is a
// fact about the token, so it outlives the day's rollover. A zero answered is ignored.
func (c *Counters) Resolve(sent, answered int64) {
	if answered == 0 || sent == answered {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.effective(answered) == sent {
		return // would make a cycle: the latest word does not undo an earlier one
	}
	c.alias[sent] = answered
}

// Effective is the organization requests sent with header value org count against: org
// itself unless Resolve said otherwise.
func (c *Counters) Effective(org int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.effective(org)
}

// add counts one attempt sent with organization header value org.
func (c *Counters) add(org int64, f Family, t Tally) {
	day := c.today()
	c.mu.Lock()
	k := CounterKey{c.effective(org), f}
	c.mu.Unlock()
	c.store.Add(day, k, t) // may write to disk: not under mu, which drawing waits for
}

// Tally is today's tally of one family of the organization that answers for header value
// org.
func (c *Counters) Tally(org int64, f Family) Tally {
	day := c.today()
	c.mu.Lock()
	defer c.mu.Unlock()
	org = c.effective(org)
	var sum Tally
	c.store.Each(day, func(k CounterKey, t Tally) {
		if k.Family == f && c.effective(k.OrganizationID) == org {
			sum = sum.plus(t)
		}
	})
	return sum
}

// Get is today's count of answered requests (what the API counted) for one family of the
// organization that answers for header value org.
func (c *Counters) Get(org int64, f Family) int { return c.Tally(org, f).Answered }

// CounterValue is one row of a Snapshot.
type CounterValue struct {
	CounterKey
	Tally
}

// Restarted reports that today's counts started again from zero, when the Store can tell
// (a Restarter) and they did.
func (c *Counters) Restarted() (Restart, bool) {
	r, ok := c.store.(Restarter)
	if !ok {
		return Restart{}, false
	}
	return r.Restarted(c.today())
}

// Snapshot lists today's non-zero counters by the organization that answers, sorted by
// organization then family.
func (c *Counters) Snapshot() []CounterValue {
	day := c.today()
	c.mu.Lock()
	defer c.mu.Unlock()
	sums := map[CounterKey]Tally{}
	c.store.Each(day, func(k CounterKey, t Tally) {
		k.OrganizationID = c.effective(k.OrganizationID)
		sums[k] = sums[k].plus(t)
	})
	out := make([]CounterValue, 0, len(sums))
	for k, t := range sums {
		if t != (Tally{}) {
			out = append(out, CounterValue{k, t})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].OrganizationID != out[j].OrganizationID {
			return out[i].OrganizationID < out[j].OrganizationID
		}
		return out[i].Family < out[j].Family
	})
	return out
}

type limiterKey struct {
	org    int64
	family Family
}

// AnalyticsMargin is what the analytics limiter adds to the API's 60-second window. The
// API starts a request's window when it handles the request, which the client never sees:
// only that it was before the answer arrived. So a request's window is counted from the
// end of its attempt (its answer, or its failure), and ends AnalyticsMargin after the
// server's minute would, to absorb two clocks that do not run quite alike.
const AnalyticsMargin = time.Second

// slot is one request in a limiter window: sent, and ended (answered or failed) at end.
type slot struct {
	end     time.Time
	pending bool // in flight: its window will start when it ends, later than now
}

// limiter allows at most n requests per window per key: a sliding window over the times
// the requests ended, in which a request still in flight counts as if it ended now.
type limiter struct {
	mu     sync.Mutex
	n      int
	window time.Duration
	now    func() time.Time
	sent   map[limiterKey][]*slot
	// answering maps an organization header value to the organization the API counts the
	// request against (Counters.Effective); nil means the header value itself.
	answering func(org int64) int64
}

// key is k for the organization that answers its header value; sends recorded under other
// header values that turned out to be answered by the same organization are folded in, so
// they share one window. The caller holds mu.
func (l *limiter) key(k limiterKey) limiterKey {
	if l.answering == nil {
		return k
	}
	k.org = l.answering(k.org)
	for o, ts := range l.sent {
		if o.family != k.family || o.org == k.org || l.answering(o.org) != k.org {
			continue
		}
		l.sent[k] = append(slices.Clone(l.sent[k]), ts...)
		delete(l.sent, o)
	}
	return k
}

func newLimiter(n int, window time.Duration, now func() time.Time) *limiter {
	return &limiter{n: n, window: window, now: now, sent: map[limiterKey][]*slot{}}
}

// expiry is when s leaves the window, seen at now; the caller holds mu.
func (l *limiter) expiry(s *slot, now time.Time) time.Time {
	if s.pending {
		return now.Add(l.window)
	}
	return s.end.Add(l.window)
}

// prune drops the requests that left the window; the caller holds mu.
func (l *limiter) prune(k limiterKey, now time.Time) []*slot {
	ts := slices.DeleteFunc(l.sent[k], func(s *slot) bool { return !l.expiry(s, now).After(now) })
	l.sent[k] = ts
	return ts
}

// wait is how long until the first of a full window's requests leaves it; the caller
// holds mu.
func (l *limiter) wait(ts []*slot, now time.Time) time.Duration {
	first := l.expiry(ts[0], now)
	for _, s := range ts[1:] {
		if e := l.expiry(s, now); e.Before(first) {
			first = e
		}
	}
	return first.Sub(now)
}

// reserve takes a slot for a request about to be sent and returns it with 0, or returns
// how long to wait before asking again. The caller ends the slot (done) when the attempt
// ends.
func (l *limiter) reserve(k limiterKey) (*slot, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k, ts, wait := l.look(k)
	if wait > 0 {
		return nil, wait
	}
	s := &slot{pending: true}
	l.sent[k] = append(ts, s)
	return s, 0
}

// done starts the window of s: its attempt ended now.
func (l *limiter) done(s *slot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s.end, s.pending = l.now(), false
}

// peek is reserve without taking the slot.
func (l *limiter) peek(k limiterKey) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _, wait := l.look(k)
	return wait
}

// look returns k as key makes it, the requests of its window (pruned) and how long until
// one leaves a full window: 0 when a slot is free (a request still in the window leaves
// it after now). The caller holds mu.
func (l *limiter) look(k limiterKey) (limiterKey, []*slot, time.Duration) {
	k = l.key(k)
	now := l.now()
	ts := l.prune(k, now)
	if len(ts) < l.n {
		return k, ts, 0
	}
	return k, ts, l.wait(ts, now)
}

// free is how many requests key may send now without waiting.
func (l *limiter) free(k limiterKey) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	// Folding two header values into one organization (key) can leave more sends in the
	// window than the limit allows.
	return max(0, l.n-len(l.prune(l.key(k), l.now())))
}
