package serve

import (
	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
)

// The day's budget of each organization as its forecast sees it (common.Outlook): in
// every session's status bar (team.Outlook), in the metrics (Hub.Outlook), and told to the
// sessions when the shared poller stretches its polls for the shift or stops stretching
// them (common.OutlookMsg, which the TUI words as a toast).

// budget is the hub's request budget of an organization: the whole day's limit (the hub
// is the team), the refresh interval and the shift's end.
func (h *Hub) budget() common.Budget {
	return common.Budget{Interval: h.opts.RefreshInterval, PerDay: common.APIDailyLimit, Reserve: common.ReserveFor(common.APIDailyLimit),
		ShiftEnd: h.opts.ShiftEnd}
}

// Outlook is organization org's day's budget now: the family that runs out first at the
// pace of the last hour (the ledger's counts), the shift's end and the stretch of the
// shared polls for it (1 while no session of org is connected).
func (h *Hub) Outlook(org int64) common.Outlook {
	h.mu.Lock()
	p := h.pollers[org]
	h.mu.Unlock()
	if p != nil {
		return p.Outlook()
	}
	return h.budget().DayOutlook(h.readClient(org), common.APIDailyLimit, 1)
}

// Forecast is organization org's forecast of family f against the API's daily limit.
func (h *Hub) Forecast(org int64, f client.Family) client.Forecast {
	return h.readClient(org).Forecast(f, common.APIDailyLimit)
}

// tell hands organization org's outlook to each of its sessions.
func (h *Hub) tell(org int64, o common.Outlook) {
	h.mu.Lock()
	var to []*session
	for s := range h.sessions {
		if s.user.Org == org {
			to = append(to, s)
		}
	}
	h.mu.Unlock()
	for _, s := range to {
		s.offerOutlook(o)
	}
}

// offerOutlook keeps o as the session's next outlook, replacing one not delivered yet.
func (s *session) offerOutlook(o common.Outlook) {
	for {
		select {
		case <-s.done:
			return
		case s.outlooks <- o:
			return
		default:
			select {
			case <-s.outlooks:
			default:
			}
		}
	}
}

func (t team) Outlook() common.Outlook { return t.hub.Outlook(t.org) }
