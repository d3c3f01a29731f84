package common

import "time"

// Budget paces auto-refresh so that a day's requests last the day: every auto-refresh of
// parley, whatever the screen, is spaced by it (the root's timer ticks at the pace of the
// active screen's refreshes, and a screen shows its pace from it).
type Budget struct {
	// Interval is the configured auto-refresh period (0 or less: auto-refresh is off).
	Interval time.Duration
	// PerDay is the requests one parley may spend per request family and UTC day.
	PerDay int
}

// On reports whether auto-refresh is on.
func (b Budget) On() bool { return b.Interval > 0 }

// Pace is the auto-refresh period the budget allows for refreshes that cost cost requests
// (at least one) of a family of which used were spent today: the configured interval,
// stretched so that the remaining requests last until the end of the UTC day. paused is
// true when they cannot pay for another refresh; a manual refresh still works then.
func (b Budget) Pace(used, cost int, now time.Time) (d time.Duration, paused bool) {
	cost = max(1, cost)
	remaining := b.PerDay - used
	if remaining < cost {
		return 0, true
	}
	y, m, day := now.UTC().Date()
	untilMidnight := time.Date(y, m, day+1, 0, 0, 0, 0, time.UTC).Sub(now)
	spread := untilMidnight * time.Duration(cost) / time.Duration(remaining)
	if spread > b.Interval {
		return spread.Round(time.Second), false
	}
	return b.Interval, false
}
