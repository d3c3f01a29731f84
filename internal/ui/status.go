package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/sanitize"
)

// barCache keeps the last rendered bars: styling them is most of a frame's cost, and
// their text rarely changes between two keystrokes.
type barCache struct {
	tabKey, tab       string
	statusKey, status string
	footKey, foot     string
}

func (a *App) tabBar() string {
	counts := make([]string, len(a.specs))
	for i := range a.specs {
		counts[i] = a.tabCount(i)
	}
	key := strconv.Itoa(a.width) + "|" + strconv.Itoa(a.route.Active) + "|" + strconv.Itoa(len(a.specs)) + "|" + strings.Join(counts, ",")
	if key == a.bars.tabKey {
		return a.bars.tab
	}
	st := a.ctx.Styles
	var b strings.Builder
	accent := st.Accent.Render(" parley ")
	b.WriteString(accent)
	labels := make([]string, 0, len(a.specs))
	ids := make([]common.ScreenID, 0, len(a.specs))
	for i, sp := range a.specs {
		label := a.screenKey(i).Help().Key + " " + sp.title
		if counts[i] != "" {
			label += " " + counts[i] // arrivals not opened yet (alerts.go)
		}
		if i == a.route.Active {
			label = st.TabActive.Render(label)
		} else {
			label = st.Tab.Render(label)
		}
		b.WriteString(label)
		labels, ids = append(labels, label), append(ids, sp.id)
	}
	a.hits.tabs = tabSpans(accent, labels, ids) // where a click switches screens (mouse.go)
	a.bars.tabKey, a.bars.tab = key, layout.Fit(b.String(), a.width)
	return a.bars.tab
}

// segment is one part of the status bar; lower priority parts are dropped first when the
// terminal is narrow.
type segment struct {
	text     string
	short    string // used when the full text does not fit ("" = drop instead)
	style    lipgloss.Style
	priority int
}

// statusBar shows the context (demo data or the API, organization, acting operator, the
// hub user; read-only), today's conversation requests the API counted against the budget
// (and apart those it refused or that did not reach it; the team's in a hub session, with
// the sessions connected), the auto-refresh state, the day's forecast (forecast.go), the
// last refresh and the
// troubles the client reported (troubles.go); the keys are in the footer below it.
func (a *App) statusBar() string {
	st := a.ctx.Styles
	now := a.ctx.Now()
	var segs []segment
	api := a.opts.Label
	short := api
	if a.opts.Demo {
		api, short = "demo data (embedded sandbox)", "demo data"
	}
	if c, cs := a.contextLabel(); c != "" {
		api += " · " + c
		if a.opts.Demo {
			short += " · " + cs
		} else {
			short = cs // on a narrow terminal the organization and operator matter more than the host
		}
	}
	segs = append(segs, segment{" " + api, " " + short, st.StatusKey, 0})
	if text, short, ok := a.backHint(); ok {
		segs = append(segs, segment{text, short, st.StatusKey, 0}) // what esc does: kept whole longest
	}
	if a.opts.ReadOnly {
		segs = append(segs, segment{"read-only", "", st.StatusKey, 1})
	}
	if a.switching != nil {
		to := orgName(a.switching.org)
		segs = append(segs, segment{"checking " + to + "…", "checking…", st.StatusWarn, 1})
	}
	// Numbers keep a word even in their short form: a bare "139/400" or "08:39:28" says
	// nothing. The count is what the API counted; attempts it refused (429) or that never
	// reached it follow apart.
	// In a hub session the count is the team's: the hub's one client counts every
	// session's requests.
	tally := a.ctx.Client.Tally(client.FamilyConversations)
	count := "conv " + layout.Count(tally.Answered) + "/" + layout.Count(a.opts.RequestBudget)
	if a.hub() {
		count = "team " + count
	}
	apart := notCounted(tally)
	segs = append(segs, segment{count + " today" + apart, count + apart, st.StatusBar, 2})
	if r, ok := a.ctx.Client.Restarted(); ok {
		segs = append(segs, restartSegment(r, now, st.StatusWarn))
	}
	segs = append(segs, a.teamSegments()...)
	segs = append(segs, a.muteSegment()...)
	if seg, ok := a.autoSegment(); ok {
		segs = append(segs, seg)
	}
	if seg, ok := a.forecastSegment(); ok {
		segs = append(segs, seg)
	}
	if !a.lastRefresh.IsZero() {
		t := a.lastRefresh.In(now.Location()).Format("15:04:05")
		if a.trouble.down != nil {
			// What the screens show is what the last answers said.
			t = a.lastRefresh.In(now.Location()).Format("15:04")
			segs = append(segs, segment{"offline data as of " + t, "offline, as of " + t, st.StatusWarn, 1})
		} else {
			segs = append(segs, segment{"refreshed " + t, "as of " + t, st.StatusBar, 4})
		}
	}
	segs = append(segs, a.troubleSegments(now)...)
	var key strings.Builder
	key.WriteString(strconv.Itoa(a.width))
	for _, s := range segs {
		key.WriteString("|" + s.text)
	}
	if key.String() == a.bars.statusKey {
		return a.bars.status
	}
	a.bars.statusKey = key.String()
	a.bars.status = a.layoutStatus(segs)
	return a.bars.status
}

// notCounted names the attempts the API did not count (" · 12 refused, 3 unreached"), or
// is "" when there are none.
func notCounted(t client.Tally) string {
	var parts []string
	if t.Refused > 0 {
		parts = append(parts, layout.Count(t.Refused)+" refused")
	}
	if t.Unreached > 0 {
		parts = append(parts, layout.Count(t.Unreached)+" unreached")
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, ", ")
}

// restartSegment says that today's count started again from zero, and why: the request
// ledger's file was damaged and is kept aside ("count restarted 14:02: the ledger file was
// cut short or not JSON; kept as …"). It holds for the rest of the day: the count shown is
// what was counted since.
func restartSegment(r client.Restart, now time.Time, style lipgloss.Style) segment {
	at := r.At.In(now.Location()).Format("15:04")
	why := sanitize.Line(r.Why)
	text := "count restarted " + at + ": the ledger file was " + why + "; kept as " + sanitize.Line(r.Kept)
	return segment{text, "count restarted " + at + " (ledger file damaged)", style, 1}
}

// layoutStatus fits the segments into the width: the least important ones (highest
// priority number) first switch to their short form, then go.
func (a *App) layoutStatus(segs []segment) string {
	st := a.ctx.Styles
	const sep = " │ "
	width := func() int {
		n := 0
		for i, s := range segs {
			if i > 0 {
				n += widthOf(sep)
			}
			n += widthOf(s.text)
		}
		return n
	}
	room := a.width - 1
	order := make([]int, len(segs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return segs[order[x]].priority > segs[order[y]].priority })
	for _, i := range order {
		if width() <= room {
			break
		}
		if segs[i].short != "" {
			segs[i].text = segs[i].short
		}
	}
	for width() > room && len(segs) > 1 {
		worst := 1
		for i := range segs {
			if i > 0 && segs[i].priority > segs[worst].priority {
				worst = i
			}
		}
		segs = append(segs[:worst], segs[worst+1:]...)
	}
	bar := layout.Painter(st.StatusBar)
	var b strings.Builder
	for i, s := range segs {
		if i > 0 {
			b.WriteString(bar(sep))
		}
		b.WriteString(layout.Painter(s.style)(s.text))
	}
	left := b.String()
	gap := a.width - widthOf(left)
	if gap < 1 {
		return layout.Fit(left, a.width)
	}
	return left + bar(strings.Repeat(" ", gap))
}

// scope names the organizations what the active screen shows comes from. On the analytics
// screen that is its organization filter, and without one every organization the token can
// read (analytics rule 2): "all organizations" once the data shows several, "all
// organizations of the token" while it does not (an organization token reads one). Elsewhere
// it is the organization the API answers for: the one chosen, the one the operators
// directory showed when the API answered for another (an organization token, or an id the
// token cannot use), or the token's default.
func (a *App) scope() string {
	if s, ok := a.Screen().(common.OrgScoped); ok {
		filter, seen := s.Organizations()
		switch {
		case len(filter) == 1:
			return fmt.Sprintf("org %d", filter[0])
		case len(filter) > 1:
			return "orgs " + joinIDs(filter, 3)
		case len(seen) > 1:
			return "all organizations"
		}
		return "all organizations of the token"
	}
	switch cur := a.ctx.Client.OrganizationID(); {
	case cur != 0 && a.opsOrg != 0 && a.opsOrg != cur:
		// An organization token, or an id the token cannot use: the API answers for another.
		return fmt.Sprintf("org %d (not %d)", a.opsOrg, cur)
	case cur != 0:
		return fmt.Sprintf("org %d", cur)
	case a.opsOrg != 0:
		return fmt.Sprintf("org %d", a.opsOrg)
	}
	return "default org"
}

// joinIDs lists ids with ", ", the first n of them and a count of the rest ("1, 2, 3 +2").
func joinIDs(ids []int64, n int) string {
	parts := make([]string, 0, min(n, len(ids)))
	for _, id := range ids[:min(n, len(ids))] {
		parts = append(parts, strconv.FormatInt(id, 10))
	}
	s := strings.Join(parts, ", ")
	if len(ids) > n {
		s += fmt.Sprintf(" +%d", len(ids)-n)
	}
	return s
}
