package serve

import (
	"errors"
	"fmt"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
)

// readClient is the client of organization org's shared reads: the hub's identity (no
// Service-Operator-Id), held in the memory every session shares, and the operators, their
// slots and the navigation fetched once for all of the organization's sessions inside
// their interval (shareWindows).
func (h *Hub) readClient(org int64) *client.Client {
	return h.opts.Client.ShareReads(0).WithContext(org, 0).ShareWithin(shareWindows(h.opts.RefreshInterval))
}

// shareWindows are how long the organization's operators, slots and navigation, once
// fetched by one session, answer every session: the refresh interval (what one session's
// screen refreshes at while someone works), and for the slots common.SlotsFactor intervals
// (what the operators screen asks them at). With auto-refresh off, none: the memory's
// time-to-live.
func shareWindows(interval time.Duration) client.ShareWindows {
	if interval <= 0 {
		return client.ShareWindows{}
	}
	return client.ShareWindows{Operators: interval, Slots: interval * common.SlotsFactor, Navigation: interval}
}

// sessionClient is a session's client: its reads are the hub's shared ones, its writes go
// out as the user's operator, pass the role's gate first and are recorded in the audit
// log, refused or not.
func (h *Hub) sessionClient(u User) *client.Client {
	return h.readClient(u.Org).WithContext(u.Org, u.Operator).WithGate(Gate(u, h.knows)).WithWriteHook(h.audit(u))
}

// audit records a write of user u.
func (h *Hub) audit(u User) func(client.RequestInfo) {
	return func(ri client.RequestInfo) {
		w := Write{User: u.Name, Org: u.Org, Operator: ri.Operator, Method: ri.Method, Path: ri.Path, Query: ri.Query,
			Status: ri.Status, Refused: ri.Refused, Err: ri.Err, At: h.opts.Now()}
		var re *client.RefusedError
		if errors.As(ri.Err, &re) {
			w.Reason = re.Reason
		}
		if ri.Refused {
			h.opts.Metrics.refused(refusalKind(ri.Err))
		}
		h.opts.Audit.Record(w)
	}
}

// uiOptions are the options of a session's TUI: its client, look and keys, its role
// (a viewer reads only, an agent acts as no one else) and the hub (Team): the
// conversations screen takes the organization's shared polls instead of polling itself.
func (h *Hub) uiOptions(sess *session, look Look) ui.Options {
	u := sess.user
	o := ui.Options{
		Client: h.sessionClient(u), Styles: look.Styles, AskBackground: look.AskBackground, Hyperlinks: look.Hyperlinks, Now: h.opts.Now,
		Keys: h.opts.Keys(), Demo: h.opts.Demo, Label: h.opts.Label, RefreshInterval: h.opts.RefreshInterval,
		// The hub is the team: the organization's whole day is its budget.
		RequestBudget: common.APIDailyLimit, PageSize: h.opts.PageSize, Events: sess.events, DefaultOperatorID: u.Operator,
		ReadOnly:      u.Role == RoleViewer,
		FixedOperator: u.Role == RoleAgent,
		// Every role stays in its entry's organization: the hub's customer token would
		// otherwise let a session read the others.
		FixedOrganization: true,
		// y copies to the agent's terminal (OSC 52), never into the hub machine's tmux.
		Remote:   true,
		Team:     team{hub: h, org: u.Org},
		UserName: u.Name,
		// Each session alerts for its own operator and view, from the shared polls.
		Alerts: h.opts.Alerts, MarkReadOnOpen: h.opts.MarkReadOnOpen, Views: h.opts.Views, Orderings: h.opts.Orderings,
	}
	report := h.opts.ReportCrash
	o.ReportCrash = func(c *ui.Crash) (string, string, error) {
		h.opts.Metrics.panicked(panicTUI)
		if report == nil {
			return fmt.Sprint(c.Value), "", nil
		}
		return report(u.Name, c)
	}
	return o
}

// team is what a session knows of the hub (common.Team): the sessions connected and its
// organization's poller's pace.
type team struct {
	hub *Hub
	org int64
}

func (t team) Sessions(org int64) int { return t.hub.Sessions(org) }

func (t team) PollEvery() time.Duration {
	t.hub.mu.Lock()
	p := t.hub.pollers[t.org]
	t.hub.mu.Unlock()
	if p == nil {
		return 0
	}
	return p.state().every
}
