package common

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// RestDelay is how long a list's cursor must rest on a row before the screen shows that
// row beside the list (the conversations screen's thread and detail, the contacts screen's
// preview).
const RestDelay = 150 * time.Millisecond

// Rest is a list cursor's rest timer: every move to another row starts one, and only the
// latest move's counts when it fires, so a held key costs nothing until it stops. Its
// owner id keeps one screen's timers from another's (every screen sees every timer).
type Rest struct {
	owner, seq int
	tick       Timer
}

// RestMsg is the rest timer of one move.
type RestMsg struct{ owner, seq int }

// NewRest returns a rest timer with an owner id of its own.
func NewRest(ctx *Ctx) Rest { return Rest{owner: ctx.NewID(), tick: ctx.Tick} }

// Moved starts the timer when the cursor went from row before to row now (ids; 0: no
// row) and now is not the row shown already; the timers of earlier moves become stale.
func (r *Rest) Moved(before, now, shown int64) tea.Cmd {
	if now == before || now == 0 || now == shown {
		return nil
	}
	r.seq++
	return r.tick(RestDelay, RestMsg{owner: r.owner, seq: r.seq})
}

// Rested reports whether msg is this timer's, of the latest move: the cursor rests where
// that move left it.
func (r Rest) Rested(msg RestMsg) bool { return msg.owner == r.owner && msg.seq == r.seq }
