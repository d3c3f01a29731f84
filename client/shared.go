package client

import (
	"context"
	"net/http"
	"sync"
	"time"
)

type withinKey struct{}

// Within marks ctx so that a GET (also a Poll or Fresh one) may be answered by an answer
// held in the memory that is at most d old: a list page or another answer without a
// version, a thread (LatestMessages), a conversation's parts (ConversationWithParts), a
// contact (GetContact). Without Fresh the memory answers as it always does (within the
// time-to-live, or while the version holds); Within lets a Fresh or polling context that
// many callers share take what one of them fetched a moment ago. d <= 0 leaves ctx as it
// is. Independently of Within, identical GETs in flight at the same time are always sent
// once (single-flight, for every GET, whatever the context) and each caller gets its own
// copy of the answer.
func Within(ctx context.Context, d time.Duration) context.Context {
	if d <= 0 {
		return ctx
	}
	return context.WithValue(ctx, withinKey{}, d)
}

func withinOf(ctx context.Context) (time.Duration, bool) {
	d, ok := ctx.Value(withinKey{}).(time.Duration)
	return d, ok
}

// mayRecall reports whether ctx lets the memory answer with data held since at: always
// without Fresh (the caller has checked the time-to-live or the version), else only with
// Within when the data is at most that old.
func (c *Client) mayRecall(ctx context.Context, at time.Time) bool {
	if !isFresh(ctx) {
		return true
	}
	d, ok := withinOf(ctx)
	return ok && !at.IsZero() && c.now().Sub(at) <= d
}

// flightKey names a GET that identical ones in flight share: the organization and the
// reader it goes out as, and its whole URL.
type flightKey struct {
	org, reader int64
	url         string
}

// flight is a GET in flight: its sender fills the fields, then closes done.
type flight struct {
	done    chan struct{}
	epoch   uint64 // the writes ended before it started
	joiners int    // callers waiting for it besides its sender (under flights.mu)
	// The last attempt's answer: answered when it is a success status with a body the
	// joiners decode for themselves; otherwise err is the sender's error.
	status    int
	header    http.Header
	body      []byte
	answered  bool
	err       error
	abandoned bool // the sender's context ended it: joiners ask again
}

// flights are the GETs in flight of a client and every client derived from it, and the
// count of writes that ended (epoch): a GET started after a write ended never joins one
// started before, and the answer of one started before is not kept.
type flights struct {
	mu    sync.Mutex
	m     map[flightKey]*flight
	epoch uint64
}

func newFlights() *flights { return &flights{m: map[flightKey]*flight{}} }

// join returns the flight of key to wait for, or a new one to send (lead true).
func (g *flights) join(key flightKey) (f *flight, lead bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.m[key]; ok && f.epoch == g.epoch {
		f.joiners++
		return f, false
	}
	f = &flight{done: make(chan struct{}), epoch: g.epoch}
	g.m[key] = f
	return f, true
}

// finish ends flight f of key: its joiners read what it holds.
func (g *flights) finish(key flightKey, f *flight) {
	g.mu.Lock()
	if g.m[key] == f {
		delete(g.m, key)
	}
	g.mu.Unlock()
	close(f.done)
}

// waiting is how many callers wait for a GET in flight that another one sends.
func (g *flights) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for _, f := range g.m {
		n += f.joiners
	}
	return n
}

// advance records a write that ended.
func (g *flights) advance() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.epoch++
}

// current reports whether no write ended since epoch.
func (g *flights) current(epoch uint64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.epoch == epoch
}
