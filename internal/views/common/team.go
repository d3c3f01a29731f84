package common

import (
	"time"

	"github.com/parley-tui/parley/client"
)

// PolledMsg is one answer of the team hub's shared poller: the conversations of the
// session's organization updated since Since (by the server's clock), every page of it,
// asked once for every session of that organization. Err non-nil: the poll failed (lists
// keep their rows).
type PolledMsg struct {
	Org           int64
	Since         time.Time
	Reached       time.Time // client.ServerReached after the answer
	At            time.Time // local time of the answer
	Conversations []client.Conversation
	Err           error
}

// OutlookMsg is the team hub's word that the day's forecast changed the shared polls'
// pace: they are stretched so that organization Org's budget lasts the shift
// (Outlook.Stretch > 1), or no longer.
type OutlookMsg struct {
	Org     int64
	Outlook Outlook
}

// Team is what a session of the hub knows of the hub.
type Team interface {
	Sessions(org int64) int   // sessions connected for that organization (≥ 1 for one's own)
	PollEvery() time.Duration // the shared poller's period now (0 while it does not poll)
	Outlook() Outlook         // the organization's day's budget as the forecast sees it
}
