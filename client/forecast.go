package client

import (
	"math"
	"sync"
	"time"
)

// The day's forecast: at the pace of the last hour's requests (as the counters, the
// persistent ledger when there is one, show them: every process of the user and every
// session of a hub), when does a family's count reach the day's limit? The pace is measured
// by looking at the count now and then (paceEvery apart, paceWindow long); until
// paceMinimum of looking, it is the day's average since the API's day began (once the day
// is an hour old; before, none).
const (
	paceEvery   = time.Minute
	paceWindow  = time.Hour
	paceMinimum = 10 * time.Minute
)

// Forecast is how long a family's daily budget lasts at the pace of its recent use. Its
// times are on the local clock (Config.Now): Reset, the end of the API's day, is the
// server's next UTC midnight placed there by what the answers told of the server's clock
// (ServerNow), so that it can be compared with a shift's end and shown as the clock
// reads.
type Forecast struct {
	Family Family
	// Used is today's count of the family (what the API counted), Limit the day's limit
	// the forecast runs against.
	Used, Limit int
	// PerHour is the pace, requests an hour (0: not measured yet); Over is how long it was
	// measured over: the last hour, or the day so far while parley has not looked for
	// long enough.
	PerHour float64
	Over    time.Duration
	// Now is when the forecast was made; Reset when the API's day ends and the count
	// starts again.
	Now, Reset time.Time
	// Out is when Used reaches Limit at PerHour: zero when the day ends first or there is
	// no pace; Now when the limit is reached already.
	Out time.Time
}

// Lasts reports whether the budget lasts until t at this pace (it does when it lasts the
// day, or when nothing is known of the pace).
func (f Forecast) Lasts(t time.Time) bool { return f.Out.IsZero() || !f.Out.Before(t) }

// paceLog is what the count of one family of one organization was, now and then.
type paceLog struct{ samples []paceSample }

type paceSample struct {
	at time.Time
	n  int
}

// look records the count n seen at at, and returns the pace over the samples kept:
// requests an hour and the time they span (0 and the span while it is shorter than
// paceMinimum). A count lower than the last one (a new day) starts over.
func (l *paceLog) look(at time.Time, n int) (perHour float64, over time.Duration) {
	if k := len(l.samples); k > 0 && (n < l.samples[k-1].n || at.Before(l.samples[k-1].at)) {
		l.samples = l.samples[:0]
	}
	if k := len(l.samples); k == 0 || at.Sub(l.samples[k-1].at) >= paceEvery {
		l.samples = append(l.samples, paceSample{at: at, n: n})
	}
	// The oldest sample kept is the last one at least a window old.
	drop := 0
	for drop+1 < len(l.samples) && !l.samples[drop+1].at.After(at.Add(-paceWindow)) {
		drop++
	}
	l.samples = append(l.samples[:0], l.samples[drop:]...)
	base := l.samples[0]
	over = at.Sub(base.at)
	if over < paceMinimum {
		return 0, over
	}
	return float64(n-base.n) / over.Hours(), over
}

// paces are the pace logs of a client and its siblings (shared like the counters).
type paces struct {
	mu   sync.Mutex
	logs map[CounterKey]*paceLog
}

// Forecast is family f's forecast for the organization that answers this client, against
// a day's limit of limit requests.
func (c *Client) Forecast(f Family, limit int) Forecast {
	now := c.now()
	est, _, _ := c.clock.offsets()
	server := now.Add(est).UTC()
	midnight := time.Date(server.Year(), server.Month(), server.Day()+1, 0, 0, 0, 0, time.UTC)
	// A count from the ledger's file is whatever the file says: never below 0 here.
	fc := Forecast{Family: f, Used: max(0, c.counters.Get(c.org, f)), Limit: max(0, limit), Now: now,
		Reset: now.Add(midnight.Sub(server))}
	c.paces.mu.Lock()
	k := CounterKey{OrganizationID: c.counters.Effective(c.org), Family: f}
	l := c.paces.logs[k]
	if l == nil {
		l = &paceLog{}
		c.paces.logs[k] = l
	}
	fc.PerHour, fc.Over = l.look(now, fc.Used)
	c.paces.mu.Unlock()
	if fc.PerHour == 0 {
		// Not looked long enough: the day's average so far, by the server's day, once
		// that is an hour old.
		if day := server.Sub(midnight.Add(-24 * time.Hour)); day >= paceWindow && fc.Used > 0 {
			fc.PerHour, fc.Over = float64(fc.Used)/day.Hours(), day
		}
	}
	left := fc.Limit - fc.Used
	switch {
	case fc.PerHour <= 0:
	case left <= 0:
		fc.Out = now
	default:
		hours := float64(left) / fc.PerHour
		if untilReset := fc.Reset.Sub(now).Hours(); hours < untilReset && hours < math.MaxInt64/float64(time.Hour) {
			fc.Out = now.Add(time.Duration(hours * float64(time.Hour)))
		}
	}
	return fc
}
