package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// A WriteGate is asked before a write (POST, PATCH, PUT, DELETE) is sent; an error refuses it
// and nothing is sent. path is the API path the spec names ("/api/um/v3/operators/7/away/",
// without the base URL's path and without the query); operator is the Service-Operator-Id
// the write would carry (0: the token's own).
type WriteGate func(method, path string, operator int64) error

// RefusedError is a write a gate refused before sending (WithGate): nothing reached the
// server, nothing was counted, nothing changed. Error() reads
// "PATCH /api/um/v3/operators/7/away/: not sent: a viewer cannot change anything".
type RefusedError struct {
	Method, Path, Reason string
	// Err is the gate's error (errors.Is and errors.As reach it).
	Err error
}

func (e *RefusedError) Error() string { return e.Method + " " + e.Path + ": not sent: " + e.Reason }

func (e *RefusedError) Unwrap() error { return e.Err }

// WithGate returns a derived client whose writes pass g first: an error of g refuses the
// write with a *RefusedError before anything is sent, counted or waited for. Gates chain:
// a client derived from one with a gate asks that gate first, then g; WithContext and
// ShareReads keep them.
func (c *Client) WithGate(g WriteGate) *Client {
	d := *c
	if g != nil {
		d.gates = append(slices.Clip(c.gates), g)
	}
	return &d
}

// checkGates asks the gates about a write of method to u.
func (c *Client) checkGates(method string, u *url.URL) error {
	if len(c.gates) == 0 {
		return nil
	}
	path := u.Path
	if base := c.base.Path; base != "" && strings.HasPrefix(path, base+"/") {
		path = path[len(base):]
	}
	for _, g := range c.gates {
		err := g(method, path, c.operator)
		if err == nil {
			continue
		}
		reason := err.Error()
		var re *RefusedError
		if errors.As(err, &re) {
			reason = re.Reason // a gate that says it the client's way
		}
		return &RefusedError{Method: method, Path: path, Reason: c.redactText(reason), Err: c.redact(err)}
	}
	return nil
}

// WithWriteHook returns a derived client that calls fn with the outcome of every write
// attempt (sent or refused by a gate), once per write, after its last attempt: method,
// path, query, family, the operator it went out as, the final status and error (the token
// never in it), Refused for a write a gate refused. Hooks chain like gates. fn runs on the
// goroutine of the call and must not block.
func (c *Client) WithWriteHook(fn func(RequestInfo)) *Client {
	d := *c
	if fn != nil {
		d.writeHooks = append(slices.Clip(c.writeHooks), fn)
	}
	return &d
}

type withinKey struct{}

// Within marks ctx so that a GET (also a Poll or Fresh one) may be answered by an answer
// held in the memory that is at most d old: a list page or another answer without a
// version, a thread (LatestMessages), a conversation's parts (ConversationWithParts), a
// contact (GetContact). Without Fresh the memory answers as it always does (within the
// time-to-live, or while the version holds); Within lets a Fresh or polling context that
// many callers share take what one of them fetched a moment ago. d <= 0 leaves ctx as it
// is. Independently of it, identical GETs in flight at the same time are sent once
// (single-flight) and each caller gets its own copy of the answer; only a Fresh GET
// without Within sends its own, since the one in flight started before it was asked for.
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

// ShareWindows are how long an answer held in the memory answers every read of its kind
// (zero: as any other answer): the team hub's reads of the operator list, the slots and
// the navigation, fetched once per organization for all sessions inside their interval.
type ShareWindows struct {
	// Operators: the operator list and single operators (GET /operators/, /operators/{id}/).
	Operators time.Duration
	// Slots: an operator's slots (GET /operators/{id}/slots/).
	Slots time.Duration
	// Navigation: the navigation list (GET /navigation/).
	Navigation time.Duration
}

// ShareWithin returns a derived client whose reads of operators, slots and navigation are
// answered by what the memory holds while it is at most w's window of that kind old,
// whatever the caller's context asks (Fresh, Poll, a shorter Within), except a read that
// skips the memory on purpose (Fresh without Within: the user's r). Such an answer is kept
// for its window when that is longer than the time-to-live. With ShareReads, every client
// derived with the same reader then costs one request a window for each of them together.
func (c *Client) ShareWithin(w ShareWindows) *Client {
	d := *c
	d.windows = w
	return &d
}

// windowFor is the share window of a GET of path (0: none).
func (c *Client) windowFor(path string) time.Duration {
	switch familyOf(path) {
	case FamilyNavigation:
		return c.windows.Navigation
	case FamilyOperators:
		if strings.HasSuffix(path, "/slots/") {
			return c.windows.Slots
		}
		return c.windows.Operators
	}
	return 0
}

// recallAge is how old an answer to a GET of path, held in the memory, may be to answer
// it under ctx, and whether one may at all: the time-to-live without Fresh (the entry's
// own, for a timed one), within Within's age with Fresh, none for Fresh without Within;
// and at least the path's share window (ShareWithin) unless Fresh without Within.
func (c *Client) recallAge(ctx context.Context, path string) (time.Duration, bool) {
	d, within := withinOf(ctx)
	switch {
	case !isFresh(ctx):
		d = c.memo.ttl
	case !within:
		return 0, false
	}
	return max(d, c.windowFor(path)), true
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

// join returns the flight of key to wait for, or a new one to send (lead true). With own
// set the caller sends its own even when one is in flight (it replaces that one for later
// callers; the earlier one still answers those waiting for it).
func (g *flights) join(key flightKey, own bool) (f *flight, lead bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.m[key]; ok && f.epoch == g.epoch && !own {
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

// now is the count of writes that ended so far (for current).
func (g *flights) now() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.epoch
}

// current reports whether no write ended since epoch.
func (g *flights) current(epoch uint64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.epoch == epoch
}

// RefuseWrites is a gate that refuses every write, saying why (a read-only parley, a
// viewer of the team hub).
func RefuseWrites(reason string) WriteGate {
	return func(string, string, int64) error { return errors.New(reason) }
}
