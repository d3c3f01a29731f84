package ui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// A session of the team hub (Options.Team set): the hub polls the organization's
// conversations once for every session and hands each answer to each of them as a
// common.PolledMsg; the conversations screen merges it instead of polling itself. The other
// screens keep their own auto-refresh (the hub's client shares identical reads).

// hub reports whether the app runs in a session of the team hub.
func (a *App) hub() bool { return a.opts.Team != nil }

// shared reports whether the shown screen takes the hub's shared polls instead of an
// auto-refresh of its own: the conversations screen, while the session shows the
// organization the hub gave it (after a switch to another one with ctrl+o no poll comes
// for what it shows, and it refreshes itself again).
func (a *App) shared() bool {
	return a.hub() && a.shown().id == common.ScreenConversations &&
		a.ctx.Client.OrganizationID() == a.base.OrganizationID()
}

// onPolled hands a shared poll of the session's organization to the conversations
// screen, shown or not; a poll of another organization, or outside a hub session, is
// dropped.
func (a *App) onPolled(msg common.PolledMsg) tea.Cmd {
	if !a.hub() || !a.pollIsOurs(msg.Org) {
		return nil
	}
	for i, sp := range a.specs {
		if sp.id == common.ScreenConversations {
			return a.route.ToScreen(i, msg)
		}
	}
	return nil
}

// pollIsOurs reports whether a poll of organization org is for the organization the
// session shows: the one its client sends as Service-Organization-Id or, when it sends
// none, the one the API answered for (the operator directory's).
func (a *App) pollIsOurs(org int64) bool {
	cur := a.ctx.Client.OrganizationID()
	if org == cur {
		return true
	}
	return cur == 0 && org != 0 && (org == a.opsOrg || org == a.tokenOrg)
}

// teamSegments are the hub's parts of the status bar: the sessions connected for the
// organization shown.
func (a *App) teamSegments() []segment {
	if !a.hub() {
		return nil
	}
	n := a.opts.Team.Sessions(a.ctx.Client.OrganizationID())
	return []segment{{strconv.Itoa(n) + " connected", "", a.ctx.Styles.StatusBar, 3}}
}

// sharedSegment is the auto-refresh part of the status bar while the shown screen takes
// the shared polls: the shared poller's period ("shared 30s", the usual state, the first
// to go on a narrow terminal; "shared 2m (forecast)" while it is stretched so that the
// day's budget lasts the shift), or that it does not poll now.
func (a *App) sharedSegment() segment {
	st := a.ctx.Styles
	if every := a.opts.Team.PollEvery(); every > 0 {
		if a.opts.Team.Outlook().Stretch > 1 {
			// Slowed so that the day's budget lasts the shift (forecast.go).
			return segment{"shared " + common.CompactDuration(every) + " (forecast)", "", st.StatusWarn, 3}
		}
		return segment{"shared " + common.CompactDuration(every), "", st.StatusBar, 4}
	}
	return segment{"shared: not polling", "not polling", st.StatusBar, 3}
}
