package common

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// SettleDelay is how long a list's cursor must rest on a row before the screen shows that
// row beside the list (the conversations screen's thread and detail, the contacts screen's
// preview).
const SettleDelay = 150 * time.Millisecond

// Settle is a list cursor's settle timer (a debounce): every move to another row starts one, and only the
// latest move's counts when it fires, so a held key costs nothing until it stops. Its
// owner id keeps one screen's timers from another's (every screen sees every timer).
type Settle struct {
	owner, seq int
	tick       Timer
}

// SettledMsg is the settle timer of one move.
type SettledMsg struct{ owner, seq int }

// NewSettle returns a settle timer with an owner id of its own.
func NewSettle(ctx *Ctx) Settle { return Settle{owner: ctx.NewID(), tick: ctx.Tick} }

// Moved starts the timer when the cursor went from row before to row now (ids; 0: no
// row) and now is not the row shown already; the timers of earlier moves become stale.
func (r *Settle) Moved(before, now, shown int64) tea.Cmd {
	if now == before || now == 0 || now == shown {
		return nil
	}
	r.seq++
	return r.tick(SettleDelay, SettledMsg{owner: r.owner, seq: r.seq})
}

// Settled reports whether msg is this timer's, of the latest move: the cursor rests where
// that move left it.
func (r Settle) Settled(msg SettledMsg) bool { return msg.owner == r.owner && msg.seq == r.seq }
