package common

import (
	"iter"

	"github.com/parley-tui/parley/client"
)

// Arrival is a conversation that came into the session's queues, found in what a refresh
// merge or a shared poll already fetched (never by a request of its own): a conversation
// new to the list, one newly assigned to the acting operator, a new message from the
// contact in one assigned to them.
type Arrival struct {
	// Conversation is the conversation as the answer that brought it showed it (the row of
	// saved views judges it against each view's query). Never laid out: Name is.
	Conversation client.Conversation
	// Name is the contact's name (else email) as the list shows it: sanitized, one line.
	Name string
	// New: created after the list began watching, and the list's query lists it.
	New bool
	// Assigned: now assigned to the acting operator, and it was not before.
	Assigned bool
	// Message: assigned to the acting operator, with a message from the contact newer than
	// the last one known.
	Message bool
}

// Mine reports whether the arrival is in the acting operator's own queue.
func (a Arrival) Mine() bool { return a.Assigned || a.Message }

// ArrivedMsg carries the arrivals one refresh merge or one shared poll brought, to the
// root: it rings the bell and sends a desktop notification, as the settings and the mute
// allow.
type ArrivedMsg struct{ Arrivals []Arrival }

// Unseen counts the arrivals not opened yet (Arriving): All of them, those New to the
// list and those Mine (a conversation may be both).
type Unseen struct{ All, New, Mine int }

// CountArrivals counts as.
func CountArrivals(as iter.Seq[Arrival]) Unseen {
	var u Unseen
	for a := range as {
		u.All++
		if a.New {
			u.New++
		}
		if a.Mine() {
			u.Mine++
		}
	}
	return u
}

// Me is the operator parley acts as: the acting operator, else the token's default one (0
// while neither is known).
func (c *Ctx) Me() int64 {
	if c.Client != nil {
		if id := c.Client.OperatorID(); id != 0 {
			return id
		}
	}
	return c.DefaultOperatorID
}
