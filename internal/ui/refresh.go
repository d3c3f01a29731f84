package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// The root's auto-refresh: one timer for the shown screen, paced by the policy of
// common.Budget from the activity (keys, the terminal's focus: all by the injected clock),
// the day's use of the screen's request family and the limits the API reported.

// autoClock is what the auto-refresh policy knows of the user and of its own timer.
type autoClock struct {
	lastKey time.Time // the last key (or the terminal getting the focus back)
	blurred bool      // the terminal reported it lost the focus
	lastRun time.Time // the last auto-refresh asked of a screen (start-up counts as one)
	due     time.Time // when the armed tick is due (zero: none armed)
	screen  int       // the screen the tick was armed for
	// failed counts the auto-refreshes in a row that met a server error or no answer
	// (client.Event.Poll); while the status bar holds that trouble the pace backs off
	// (common.Budget.BackOff), and the first answer of the API sets it back to 0.
	failed int
	// spent is what the auto-refreshes of the last hour spent of the day's pace, for the
	// forecast; toldStretch is the stretch for the shift the last toast told of
	// (forecast.go).
	spent       common.Spent
	toldStretch int
}

// activity is the policy's step now.
func (a *App) activity() common.Activity {
	return common.ActivityAt(a.ctx.Now().Sub(a.auto.lastKey), !a.auto.blurred)
}

// autoPace is the shown screen's auto-refresh pace now (none for a screen that never
// auto-refreshes, nor for one the hub's shared polls refresh), backed off after failed
// auto-refreshes while the server errs or cannot be reached, and until when its family is
// at the API's daily limit (zero when it is not): then it does not refresh at all. It only
// reads (View asks too).
func (a *App) autoPace() (common.Pace, time.Time) {
	sp := a.shown()
	if !sp.auto || a.shared() {
		// The shared polls of the hub refresh the conversations screen (team.go).
		return common.Pace{Activity: a.activity(), Manual: true}, time.Time{} // never auto-refreshes
	}
	p := a.ctx.Budget.Pace(a.activity(), a.ctx.Client.Usage(sp.family), 1)
	if p.Every > 0 {
		f := a.ctx.Client.Forecast(sp.family, a.ctx.Budget.PerDay)
		p = a.ctx.Budget.ForShift(p, a.ctx.Budget.ShiftStretch(f, a.auto.spent.PerHour(f), p, 1))
	}
	if a.trouble.down != nil {
		p = a.ctx.Budget.BackOff(p, a.auto.failed)
	}
	if until := a.trouble.limitedUntil(sp.family, a.ctx.Now()); !until.IsZero() {
		p.Every = 0
		return p, until
	}
	return p, time.Time{}
}

// armAuto arms the one auto-refresh tick for the shown screen's pace: the period after
// the last auto-refresh. Asleep, it arms nothing (the next key wakes it); with the budget
// spent or the daily limit reached it looks again when that may have changed (the end of
// the limit, the next UTC day).
func (a *App) armAuto() tea.Cmd {
	if !a.ctx.Budget.On() {
		return nil
	}
	a.autoGen++
	a.auto.due, a.auto.screen = time.Time{}, a.route.Active
	now := a.ctx.Now()
	p, limited := a.autoPace()
	var due time.Time
	switch {
	case p.Every > 0:
		due = a.auto.lastRun.Add(p.Every)
	case !limited.IsZero():
		due = limited
	case p.Spent:
		u := now.UTC()
		due = time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC)
	default:
		return nil // asleep
	}
	d := max(time.Second, due.Sub(now))
	a.auto.due = now.Add(d)
	return a.ctx.Tick(d, autoTickMsg{gen: a.autoGen})
}

// onAutoTick refreshes the shown screen when its pace says so (and the screen is on the
// terminal), then arms the next tick.
func (a *App) onAutoTick(msg autoTickMsg) tea.Cmd {
	if msg.gen != a.autoGen {
		return nil
	}
	p, _ := a.autoPace()
	var cmd tea.Cmd
	// A second of slack: the tick is timed by the real clock, the pace by the injected one.
	if p.Every > 0 && a.ctx.Now().Sub(a.auto.lastRun) >= p.Every-time.Second && !a.tooSmall() {
		cmd = a.autoRefresh()
	}
	var told tea.Cmd
	if !a.shared() && p.Every > 0 {
		told = a.noteStretch(a.outlook(), "auto-refresh", p.Every)
	}
	return tea.Batch(cmd, told, a.armAuto())
}

// autoRefresh asks the shown screen for an auto-refresh.
func (a *App) autoRefresh() tea.Cmd {
	now := a.ctx.Now()
	a.auto.lastRun = now
	a.auto.spent.Add(now, 1)
	return a.route.ToScreen(a.route.Active, common.RefreshMsg{Auto: true})
}

// noteKey records a key. A key that makes the pace faster (the first after an idle
// spell, or after the terminal got the focus back) refreshes at once when the last
// auto-refresh is older than the new pace, and arms the tick again; so does another
// screen shown.
func (a *App) noteKey(msg tea.KeyPressMsg) tea.Cmd {
	return a.wake(key.Matches(msg, a.ctx.Keys.Refresh))
}

// onFocus takes the terminal's focus reports (where the terminal sends them): losing the
// focus slows auto-refresh down one step; getting it back counts as a key.
func (a *App) onFocus(focused bool) tea.Cmd {
	if !focused {
		a.auto.blurred = true // the armed tick finds the slower pace
		return nil
	}
	a.auto.blurred = false
	return a.wake(false)
}

// wake records activity now; refreshed says the key itself refreshes the screen (`r`), so
// waking does not add a refresh of its own.
func (a *App) wake(refreshed bool) tea.Cmd {
	if !a.ctx.Budget.On() {
		return nil
	}
	moved := a.auto.screen != a.route.Active
	if a.activity() == common.Live && !moved {
		a.auto.lastKey = a.ctx.Now() // working on: the pace stays
		return nil
	}
	before, _ := a.autoPace()
	a.auto.lastKey = a.ctx.Now()
	after, _ := a.autoPace()
	faster := after.Every > 0 && (before.Every == 0 || after.Every < before.Every)
	if !faster && !moved {
		return nil
	}
	var cmd tea.Cmd
	switch {
	case !faster:
	case refreshed:
		a.auto.lastRun = a.ctx.Now()
	case a.ctx.Now().Sub(a.auto.lastRun) >= after.Every && !a.tooSmall():
		cmd = a.autoRefresh()
	}
	return tea.Batch(cmd, a.armAuto())
}

// AutoDue is when the armed auto-refresh tick is due by the injected clock (zero: none
// armed; tests and the simulation deliver it).
func (a *App) AutoDue() time.Time { return a.auto.due }

// AutoTick is the message of the armed auto-refresh tick (tests and the simulation
// deliver it when the injected clock reaches AutoDue).
func (a *App) AutoTick() tea.Msg { return autoTickMsg{gen: a.autoGen} }
