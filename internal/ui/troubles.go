package ui

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
)

// troubles is what the client reported (client.Event) that the status bar holds while it
// is true: a retry's or the analytics queue's countdown, a family at its daily limit until
// a time, and a server that errs or cannot be reached until it answers again.
type troubles struct {
	waits  map[client.Family]wait      // countdowns: retries, the analytics queue, a long 429
	limits map[client.Family]time.Time // families at the daily limit, until when
	down   *outage                     // a server error or no answer, until the next answer
}

type wait struct {
	kind    client.EventKind // EventRetry, EventQueued, or EventFailed for a 429 not retried
	problem client.Problem
	status  int
	until   time.Time
}

// outage is a server error or an unreachable API: since the first failure, until an
// answer.
type outage struct {
	problem client.Problem
	status  int
	since   time.Time
}

// limitEndedMsg comes when a daily limit reported until then is over: the status bar and
// auto-refresh look again.
type limitEndedMsg struct{}

// limitedUntil is when family's daily limit ends, or zero when it is not at it now.
func (t *troubles) limitedUntil(f client.Family, now time.Time) time.Time {
	if until, ok := t.limits[f]; ok && now.Before(until) {
		return until
	}
	return time.Time{}
}

// onEvent takes a client event into the troubles, announces a daily limit reached with a
// toast (the status bar holds it), and arms what keeps the status bar current: the
// one-second tick of countdowns, a tick at the end of a limit, and auto-refresh when the
// shown screen's family may go on.
func (a *App) onEvent(ev client.Event) tea.Cmd {
	t := &a.trouble
	now := a.ctx.Now()
	if ev.Problem == client.ProblemNone && ev.Kind == client.EventRetry {
		ev.Problem = problemOfStatus(ev.Status) // an event that did not say
	}
	var cmds []tea.Cmd
	switch ev.Kind {
	case client.EventRetry, client.EventQueued:
		t.waits[ev.Family] = wait{kind: ev.Kind, problem: ev.Problem, status: ev.Status, until: now.Add(ev.Delay)}
		t.fail(ev, now)
	case client.EventFailed:
		delete(t.waits, ev.Family)
		switch ev.Problem {
		case client.ProblemDailyLimit:
			until := ev.Until
			if until.IsZero() {
				u := now.UTC()
				until = time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC)
			}
			if t.limitedUntil(ev.Family, now).IsZero() {
				cmds = append(cmds, a.addToast(limitToast(ev.Family, until, now), true))
			}
			t.limits[ev.Family] = until
			cmds = append(cmds, a.ctx.Tick(max(time.Second, until.Sub(now)), limitEndedMsg{}))
		case client.ProblemRateLimited:
			if !ev.Until.IsZero() {
				t.waits[ev.Family] = wait{kind: ev.Kind, problem: ev.Problem, status: ev.Status, until: ev.Until}
			}
		default:
			t.fail(ev, now)
			if ev.Poll && t.down != nil {
				// An auto-refresh met the outage: the next one waits longer.
				a.auto.failed++
				cmds = append(cmds, a.armAuto())
			}
		}
	case client.EventAnswered:
		t.down = nil
		if a.auto.failed > 0 {
			a.auto.failed = 0 // the outage is over: the pace is the policy's again
			cmds = append(cmds, a.armAuto())
		}
		if _, ok := t.limits[ev.Family]; ok {
			delete(t.limits, ev.Family)
			cmds = append(cmds, a.armAuto()) // the limit was lifted early: polling goes on
		}
	}
	if len(t.waits) > 0 && !a.statusTick {
		a.statusTick = true
		cmds = append(cmds, a.ctx.Tick(time.Second, statusTickMsg{}))
	}
	return tea.Batch(append(cmds, a.listen())...)
}

// problemOfStatus is the problem of a retry by its status alone: 429 a rate limit, 5xx a
// server error, none (0) no answer.
func problemOfStatus(status int) client.Problem {
	switch {
	case status == http.StatusTooManyRequests:
		return client.ProblemRateLimited
	case status >= 500:
		return client.ProblemServer
	case status == 0:
		return client.ProblemUnreachable
	}
	return client.ProblemNone
}

// fail records a server error or an unreachable API (other problems leave it as it is).
func (t *troubles) fail(ev client.Event, now time.Time) {
	if ev.Problem != client.ProblemServer && ev.Problem != client.ProblemUnreachable {
		return
	}
	since := now
	if t.down != nil {
		since = t.down.since
	}
	t.down = &outage{problem: ev.Problem, status: ev.Status, since: since}
}

// onStatusTick drops the countdowns that are over; it ticks on while any is left.
func (a *App) onStatusTick() tea.Cmd {
	now := a.ctx.Now()
	for f, w := range a.trouble.waits {
		if !now.Before(w.until) {
			delete(a.trouble.waits, f)
		}
	}
	if len(a.trouble.waits) == 0 {
		a.statusTick = false
		return nil
	}
	return a.ctx.Tick(time.Second, statusTickMsg{})
}

// onLimitEnded forgets the daily limits that are over and lets auto-refresh go on.
func (a *App) onLimitEnded() tea.Cmd {
	now := a.ctx.Now()
	for f, until := range a.trouble.limits {
		if !now.Before(until) {
			delete(a.trouble.limits, f)
		}
	}
	return a.armAuto()
}

// familyName names a family in the status bar: an analytics family by its metric.
func familyName(f client.Family) string {
	if f.IsAnalytics() {
		return string(f.Metric())
	}
	return string(f)
}

// untilText is a time to come in the local time of the clock: "01:00", or "Sat 01:00"
// when it is not today.
func untilText(until, now time.Time) string {
	u := until.In(now.Location())
	y1, m1, d1 := u.Date()
	y2, m2, d2 := now.Date()
	if y1 == y2 && m1 == m2 && d1 == d2 {
		return u.Format("15:04")
	}
	return u.Format("Mon 15:04")
}

func limitToast(f client.Family, until, now time.Time) string {
	return fmt.Sprintf("Daily limit of %s requests reached: the API takes them again at %s. "+
		"Auto-refresh of them stops; what is shown stays.", familyName(f), untilText(until, now))
}

// autoSegment is the status bar's auto-refresh state: the pace and why ("auto 30s",
// "auto 2m (idle)", "auto off (daily limit)"), or the hub's shared poller's where its
// polls refresh the shown screen ("shared 30s"); none when auto-refresh is off by
// configuration.
func (a *App) autoSegment() (segment, bool) {
	if a.shared() {
		return a.sharedSegment(), true
	}
	if !a.ctx.Budget.On() {
		return segment{}, false
	}
	st := a.ctx.Styles
	p, limited := a.autoPace()
	if !limited.IsZero() {
		return segment{"auto off (daily limit)", "", st.StatusWarn, 3}, true
	}
	text, short := p.Text(a.ctx.Budget, a.auto.blurred, a.ctx.Keys.Refresh.Help().Key)
	style := st.StatusBar
	if p.Spent || p.Slowed() || p.BackedOff {
		style = st.StatusWarn
	}
	// The usual state (live) is the first to go on a narrow terminal; any other outlasts
	// the time of the last refresh (priority 4), not the request count (2).
	priority := 3
	if p.Manual || p.Every > 0 && p.Activity == common.Live && !p.Slowed() && !p.BackedOff {
		priority = 4
	}
	return segment{text, short, style, priority}, true
}

// troubleSegments are the status bar's states of what the client reported, each as long
// as it is true: a family at its daily limit ("daily limit: conversations until 01:00"),
// the countdown of a retry ("rate-limited, retrying in 4s", "server error 503, retrying
// in 2s", "unreachable, retrying in 3s") or of the analytics queue, and a server error or
// an unreachable API that no answer has ended yet.
func (a *App) troubleSegments(now time.Time) []segment {
	st := a.ctx.Styles
	t := &a.trouble
	var segs []segment
	for _, f := range sortedFamilies(t.limits) {
		if until := t.limitedUntil(f, now); !until.IsZero() {
			u := untilText(until, now)
			segs = append(segs, segment{"daily limit: " + familyName(f) + " until " + u, "daily limit until " + u, st.StatusWarn, 0})
		}
	}
	// One countdown per problem (the soonest); the queue per family.
	soonest := map[client.Problem]wait{}
	counting := map[client.Problem]bool{}
	for _, f := range sortedFamilies(t.waits) {
		w := t.waits[f]
		secs := int(w.until.Sub(now).Round(time.Second) / time.Second)
		if secs < 0 {
			continue
		}
		if w.kind == client.EventQueued {
			segs = append(segs, segment{fmt.Sprintf("%s queued, %ds", f, secs), fmt.Sprintf("queued %ds", secs), st.StatusWarn, 0})
			continue
		}
		if s, ok := soonest[w.problem]; !ok || w.until.Before(s.until) {
			soonest[w.problem] = w
		}
		counting[w.problem] = true
	}
	for _, p := range []client.Problem{client.ProblemRateLimited, client.ProblemServer, client.ProblemUnreachable} {
		w, ok := soonest[p]
		if !ok {
			continue
		}
		d := w.until.Sub(now).Round(time.Second)
		secs := int(d / time.Second)
		switch {
		case p == client.ProblemRateLimited && w.kind == client.EventFailed:
			segs = append(segs, segment{"rate-limited for " + client.WaitText(d), "limited " + client.WaitText(d), st.StatusWarn, 0})
		case p == client.ProblemRateLimited:
			segs = append(segs, segment{fmt.Sprintf("rate-limited, retrying in %ds", secs), fmt.Sprintf("retry in %ds", secs), st.StatusWarn, 0})
		case p == client.ProblemServer:
			segs = append(segs, segment{fmt.Sprintf("%s, retrying in %ds", serverError(w.status), secs), fmt.Sprintf("server error, %ds", secs), st.StatusErr, 0})
		default:
			segs = append(segs, segment{fmt.Sprintf("unreachable, retrying in %ds", secs), fmt.Sprintf("unreachable, %ds", secs), st.StatusErr, 0})
		}
	}
	if d := t.down; d != nil && !counting[d.problem] {
		text := "unreachable"
		if d.problem == client.ProblemServer {
			text = serverError(d.status)
		}
		segs = append(segs, segment{text, "", st.StatusErr, 0})
	}
	return segs
}

// serverError names a 5xx: "server error 503".
func serverError(status int) string {
	if status == 0 {
		return "server error"
	}
	return fmt.Sprintf("server error %d", status)
}

func sortedFamilies[V any](m map[client.Family]V) []client.Family {
	out := make([]client.Family, 0, len(m))
	for f := range m {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}
