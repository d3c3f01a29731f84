package client

import (
	"net/http"
	"sync"
	"time"
)

// MaxStampLead is how far past the other estimate of the server's clock a conversation's
// updated_at may lie and still correct it. A stamp further ahead is taken for bad data,
// not for a clock: believing it would move every "updated since" window past the changes
// it is meant to catch.
const MaxStampLead = time.Hour

// ClockSource says where the client's idea of the server's clock comes from.
type ClockSource int

const (
	// ClockLocal: nothing learnt yet; the local clock stands in.
	ClockLocal ClockSource = iota
	// ClockStamps: no usable Date header; the newest updated_at seen is all there is.
	ClockStamps
	// ClockDate: the Date header of the API's answers.
	ClockDate
)

func (s ClockSource) String() string {
	switch s {
	case ClockDate:
		return "the Date header"
	case ClockStamps:
		return "the newest updated_at seen"
	}
	return "the local clock"
}

// serverClock is what the client has learnt of the server's clock, as offsets from the
// client's own clock (Config.Now): the Date header of the latest successful answer that
// had one, and the lower bound that the conversations' updated_at stamps set (the server's
// clock had reached a stamp when it sent it). Shared by the WithContext siblings.
type serverClock struct {
	mu       sync.Mutex
	date     time.Duration // server Date minus local time at receipt
	hasDate  bool
	floor    time.Duration // newest stamp minus local time at receipt, the largest seen
	hasFloor bool
}

// sawDate records the Date header of an answer received at local time local. An absent or
// unparsable header (http.ParseTime reads the three forms HTTP allows) teaches nothing.
func (s *serverClock) sawDate(h http.Header, local time.Time) {
	v := h.Get("Date")
	if v == "" {
		return
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.date, s.hasDate = t.Sub(local), true
}

// sawStamp records the newest updated_at of an answer handled at local time local.
func (s *serverClock) sawStamp(stamp, local time.Time) {
	if stamp.IsZero() {
		return
	}
	off := stamp.Sub(local)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.hasFloor || off > s.floor {
		s.floor, s.hasFloor = off, true
	}
}

// offsets returns the best estimate of server minus local time (for showing ages), the
// offset of a time the server's clock has certainly reached (for "updated since" windows)
// and where both come from.
//
// With a Date header both are its offset, raised to the stamps' lower bound when a stamp is
// newer than the Date says the server's clock is (then the Date lags the clock that stamps
// the data, which is the clock updated_at_from_date is compared with) but not by more than
// MaxStampLead. Without one the window rests on the stamps alone, which bound the server's
// clock from below whether the local clock is fast or slow; the estimate for ages is the
// local clock, raised to the stamps when they prove it slow.
func (s *serverClock) offsets() (estimate, reached time.Duration, src ClockSource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hasDate {
		off := s.date
		if s.hasFloor && s.floor > off && s.floor-off <= MaxStampLead {
			off = s.floor
		}
		return off, off, ClockDate
	}
	if !s.hasFloor || s.floor > MaxStampLead {
		return 0, 0, ClockLocal
	}
	return max(s.floor, 0), s.floor, ClockStamps
}

// ServerNow is the client's best estimate of the server's clock now: the local clock
// (Config.Now) corrected by the Date headers of the API's answers, or by the newest
// conversation updated_at seen when that is later. For ages shown next to API timestamps.
func (c *Client) ServerNow() time.Time {
	est, _, _ := c.clock.offsets()
	return c.now().Add(est)
}

// ServerReached is a time the server's clock has reached by now as far as the client can
// tell: ServerNow when the answers carry a Date header, else the newest conversation
// updated_at seen carried forward by the local clock, else the local clock. An "updated
// since" window starts from it (minus an overlap), so that a local clock running fast
// never moves the window past changes the server stamped with its own clock.
func (c *Client) ServerReached() time.Time {
	_, reached, _ := c.clock.offsets()
	return c.now().Add(reached)
}

// ServerTimeOf places local, a moment by the client's own clock (Config.Now), on the
// server's clock as the Date headers of the API's answers tell it (corrected as ServerNow
// is, and never later than the server's clock was then: a Date counts whole seconds and
// is written before the answer travels). ok is false when no answer carried a usable Date
// header: the conversations' stamps bound the server's clock from below only, and the
// local clock says nothing about it. A check that compares a server stamp with the moment
// a write was sent (a note's created_at) reads the moment through this, never the local
// clock itself.
func (c *Client) ServerTimeOf(local time.Time) (t time.Time, ok bool) {
	est, _, src := c.clock.offsets()
	if src != ClockDate {
		return time.Time{}, false
	}
	return local.Add(est), true
}

// ServerClock reports the offset of ServerNow from the local clock and where it comes from.
func (c *Client) ServerClock() (offset time.Duration, src ClockSource) {
	est, _, src := c.clock.offsets()
	return est, src
}

// stamped is an answer that carries server-stamped update times.
type stamped interface {
	newestStamp() time.Time
}

// stampedItem is an item of a list that carries its updated_at.
type stampedItem interface {
	stamp() time.Time
}

// stamp is the conversation's updated_at: the field updated_at_from_date filters on.
func (c Conversation) stamp() time.Time { return c.UpdatedAt.Time }

func (c *Conversation) newestStamp() time.Time { return c.UpdatedAt.Time }

func (p *Page[T]) newestStamp() time.Time       { return newestOf(p.Results) }
func (p *CursorPage[T]) newestStamp() time.Time { return newestOf(p.Results) }

func newestOf[T any](items []T) time.Time {
	var t time.Time
	for _, item := range items {
		if s, ok := any(item).(stampedItem); ok && s.stamp().After(t) {
			t = s.stamp()
		}
	}
	return t
}

// observe learns from an accepted answer: its Date header (none for an answer from the
// client's memory, whose Date would be old), the updated_at stamps it carries and, for the
// memory, the conversations and contacts in it when current (nil: always) holds.
func (c *Client) observe(h http.Header, out checker, current func() bool) {
	local := c.now()
	if h != nil {
		c.clock.sawDate(h, local)
	}
	if s, ok := out.(stamped); ok {
		c.clock.sawStamp(s.newestStamp(), local)
	}
	if c.memo != nil {
		c.memo.learn(c.org, c.readAs(), out, current)
	}
}
