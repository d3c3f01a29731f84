package ui

import "time"

// EffectiveInterval is the auto-refresh period the request budget allows: the configured
// interval, stretched so that the budget's remaining requests last until the end of the
// UTC day (every auto-refresh costs one conversations request). paused is true when the
// budget is spent; a manual refresh still works then.
func EffectiveInterval(configured time.Duration, budget, used int, now time.Time) (d time.Duration, paused bool) {
	remaining := budget - used
	if remaining <= 0 {
		return 0, true
	}
	y, m, day := now.UTC().Date()
	midnight := time.Date(y, m, day+1, 0, 0, 0, 0, time.UTC)
	spread := midnight.Sub(now) / time.Duration(remaining)
	if spread > configured {
		return spread.Round(time.Second), false
	}
	return configured, false
}
