package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
)

// The day's forecast: the status bar says when the day's budget runs out at the pace of
// the last hour ("budget lasts until 15:40 at this pace"; in a hub session the team's,
// from the hub), and a toast says when polling is stretched so that it lasts the shift
// (Options.ShiftEnd; the hub's shared polls, or this parley's own auto-refresh), and when
// that ends.

// outlook is the day's budget as this session sees it: the hub's for the session's
// organization, else this parley's own against its request budget, with the stretch of
// its auto-refresh.
func (a *App) outlook() common.Outlook {
	if a.hub() {
		return a.opts.Team.Outlook()
	}
	p, _ := a.autoPace()
	return a.ctx.Budget.DayOutlook(a.ctx.Client, a.ctx.Budget.PerDay, p.Shift)
}

// forecastSegment is the status bar's forecast when the day's budget runs out before the
// API's day ends: "budget lasts until 15:40 at this pace" (a family other than
// conversations named first), marked while that is before the shift ends. None while it
// lasts the day, or before a pace is known.
func (a *App) forecastSegment() (segment, bool) {
	o := a.outlook()
	f, st := o.Forecast, a.ctx.Styles
	if f.Out.IsZero() {
		return segment{}, false // it lasts the day, or nothing is known of the pace
	}
	until := untilText(f.Out, a.ctx.Now())
	text, short := "budget lasts until "+until+" at this pace", "budget to "+until
	if f.Family != client.FamilyConversations {
		text, short = familyName(f.Family)+" "+text, familyName(f.Family)+" "+short
	}
	if o.Short() {
		return segment{text, short, st.StatusWarn, 1}, true
	}
	return segment{text, short, st.StatusBar, 4}, true
}

// onOutlook takes the hub's word that its shared polls are stretched for the shift, or no
// longer are.
func (a *App) onOutlook(msg common.OutlookMsg) tea.Cmd {
	if !a.hub() || !a.pollIsOurs(msg.Org) {
		return nil
	}
	return a.noteStretch(msg.Outlook, "the shared poll", a.opts.Team.PollEvery())
}

// noteStretch toasts a change of the stretch of polling for the shift: what polls (what)
// and its period now (every).
func (a *App) noteStretch(o common.Outlook, what string, every time.Duration) tea.Cmd {
	was := a.auto.toldStretch
	a.auto.toldStretch = max(1, o.Stretch)
	now := a.ctx.Now()
	switch {
	case o.Stretch > 1 && was <= 1:
		f := o.Forecast
		out := "runs out"
		if !f.Out.IsZero() {
			out = "runs out at " + untilText(f.Out, now)
		}
		end := ""
		if !o.ShiftEnd.IsZero() {
			end = ", before the shift ends at " + untilText(o.ShiftEnd, now)
		}
		slower := ""
		if every > 0 {
			slower = " to every " + common.CompactDuration(every)
		}
		return a.addToast(fmt.Sprintf("At this pace the day's %s budget %s%s: %s slows down%s.",
			familyName(f.Family), out, end, what, slower), true)
	case o.Stretch <= 1 && was > 1:
		back := ""
		if every > 0 {
			back = ", back to every " + common.CompactDuration(every)
		}
		return a.addToast(fmt.Sprintf("The day's budget lasts the shift at this pace: %s is no longer slowed%s.", what, back), false)
	}
	return nil
}
