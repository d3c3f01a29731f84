package viewtest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/sandbox"
)

// MovingClock is a clock the test moves on.
type MovingClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewMovingClock returns a clock showing t.
func NewMovingClock(t time.Time) *MovingClock { return &MovingClock{t: t} }

// Now is the time the clock shows.
func (c *MovingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Add moves the clock on by d.
func (c *MovingClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Skewed is a sandbox on a clock the test moves (Server, from Now on) and a client whose
// local clock runs Skew ahead of the server's (behind when negative).
type Skewed struct {
	Server  *MovingClock
	Sandbox *sandbox.Running
	Client  *client.Client
	Skew    time.Duration
}

// NewSkewed starts a sandbox with opts on a moving clock and a client with the customer
// token whose local clock is skew off the sandbox's.
func NewSkewed(t testing.TB, skew time.Duration, opts sandbox.Options) *Skewed {
	t.Helper()
	s := &Skewed{Server: NewMovingClock(Now), Skew: skew}
	opts.Now = s.Server.Now
	s.Sandbox = Sandbox(t, opts)
	s.Client = ClientVia(t, s.Sandbox, nil, client.Config{Now: s.Local})
	return s
}

// Skews are the local clocks EachSkew runs with: 17 days ahead of the server's and 17 days
// behind it (any skew over a few minutes shows a rule that trusts the local clock).
var Skews = []time.Duration{17 * 24 * time.Hour, -17 * 24 * time.Hour}

// EachSkew runs f as a subtest for each of Skews ("local clock 17 days ahead"), each on a
// Skewed of its own started with opts.
func EachSkew(t *testing.T, opts sandbox.Options, f func(t *testing.T, s *Skewed)) {
	t.Helper()
	for _, skew := range Skews {
		name := fmt.Sprintf("local clock %d days ahead", skew/(24*time.Hour))
		if skew < 0 {
			name = fmt.Sprintf("local clock %d days behind", -skew/(24*time.Hour))
		}
		t.Run(name, func(t *testing.T) { f(t, NewSkewed(t, skew, opts)) })
	}
}

// Local is the client's clock: the server's, skewed.
func (s *Skewed) Local() time.Time { return s.Server.Now().Add(s.Skew) }

// Ctx is a view context on the client whose clock (Now) is the client's local one.
func (s *Skewed) Ctx() *common.Ctx {
	ctx := Ctx(s.Client)
	ctx.Now = s.Local
	return ctx
}

// Lossy is a proxy in front of the sandbox that can lose requests (see Proxy.Lose) and a
// view context on a client through it: the customer token, one attempt per request (a lost
// write is not sent again by the client itself), the skewed local clock as the client's
// and the view's.
func (s *Skewed) Lossy(t testing.TB) (*Proxy, *common.Ctx) {
	t.Helper()
	p := NewProxy(t, s.Sandbox.URL)
	ctx := s.Ctx()
	ctx.Client = p.ClientWith(t, client.Config{Token: s.Sandbox.Server.Info().CustomerToken, MaxRetries: -1, Now: s.Local})
	return p, ctx
}
