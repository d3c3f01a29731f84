// Package analytics is the analytics screen for supervisors: pick a metric and a date
// range, filter by organization, widget, operator, operator group and operator mode, and
// read the results as a time-series chart, a summary, breakdowns by value_str and by
// operator, and a table of the raw data points; export them as CSV or JSON.
//
// Queries run window by window (at most 93 days per request) in commands; the client's
// limiter keeps each metric under 10 requests per minute and queues the rest (the status
// bar counts down). Results are cached per query for the whole run, so switching back to
// an earlier query, or changing only how results are shown, costs no request.
package analytics

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/components/scroll"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

// RunDelay is how long the keys must pause before a changed one-request query runs by
// itself: every key that reaches the screen in the meantime restarts the wait, so a
// path of several changes typed at an ordinary pace costs one request. The new query and
// its cost show at once; enter runs it without waiting.
const RunDelay = 800 * time.Millisecond

// windowTimeout bounds one window's request, waits for the limiter included.
const windowTimeout = 3 * time.Minute

// DefaultMetric is the metric the screen opens with: conversations started.
const DefaultMetric = client.MetricConversationFirstMessage

// View of the left pane.
type leftView int

const (
	viewChart leftView = iota
	viewTable
	viewBreakdown // every row of the breakdowns, scrollable
)

// Filters are the query's id filters; several ids in one filter combine with OR.
type Filters struct {
	Orgs, Widgets, Operators, Groups []int64
}

// result is the data points of one query, as fetched.
type result struct {
	key    string
	query  client.AnalyticsQuery
	period Period
	points []client.DataPoint
	strs   []string // sanitized value_str per point ("" for null)
	at     time.Time
}

// run is a query being fetched window by window: a generation of the screen's runs
// loader, cancelled when the run is replaced or ends (a queued window never goes out for a
// query nobody looks at any more).
type run struct {
	stamp   common.Stamp // the window in flight's
	key     string
	query   client.AnalyticsQuery
	period  Period
	windows []client.AnalyticsWindow
	next    int // index of the window in flight
	points  []client.DataPoint
	fresh   bool
	// queuedUntil is when the window in flight may leave the client's limiter (zero when
	// it went out at once).
	queuedUntil time.Time
}

// Messages of the screen (each carries what it needs to be matched).
type (
	runTickMsg      struct{ seq int }
	clockTickMsg    struct{ seq int }
	metricPickedMsg struct{ metric client.Metric }
	rangePickedMsg  struct{ r Range }
	menuClosedMsg   struct{}
	filtersMsg      struct {
		f    Filters
		mode client.OperatorMode
	}
	windowMsg struct {
		stamp  common.Stamp
		key    string
		index  int
		points []client.DataPoint
		err    error
	}
)

// Model is the analytics screen.
type Model struct {
	common.Base
	ctx *common.Ctx

	// The query.
	metric  client.MetricInfo
	rng     Range
	filters Filters
	mode    client.OperatorMode

	// How results are shown (no request).
	chart ChartKind
	split SplitMode
	left  leftView

	// Query state.
	key      string // key of the current query
	period   Period // its resolved period
	cost     int    // its requests
	pending  bool   // not in the cache and not run yet
	menuOpen bool   // a picker or the filter form is open: hold automatic runs
	focused  bool
	seq      int  // debounce generation
	armed    bool // an automatic run waits for tick seq
	runs     common.Loader
	run      *run
	cache    map[string]*result
	cur      *result // results of the current query, nil until fetched
	err      string  // the last run's error
	errFresh bool    // the failed run skipped the response cache (r): enter retries it so

	// Limiter snapshot for the controls line, taken in Update (and every second while it
	// changes with time: see clockDue).
	free     int
	delay    time.Duration
	now      time.Time
	clockSeq int
	ticking  bool

	// Derived from cur, split and chart (recomputed by derive).
	d derived

	// table is the data point table's cursor and scroll; a page keeps one row in view.
	table list.Window
	// tstats measures the table's columns over the whole results (see measureTable).
	tstats tableStats
	// bd is the whole-breakdown view's scroll position (its lines are drawn for the width).
	bd scroll.Pane

	// Names of operators of other organizations (a customer token's results cover every
	// organization; the root's directory has the current one's): one operator list per
	// organization, asked once per run of parley (namesAsked), a request of nameLoads
	// keyed by the organization's id.
	names      map[int64]string
	namesAsked map[int64]bool
	nameLoads  common.Loader
	namesSeen  int // lists of names taken in, so the table measures its operators again

	width, height int
}

// New returns the screen. Nothing is requested until it is first shown.
func New(ctx *common.Ctx) *Model {
	info, _ := client.LookupMetric(string(DefaultMetric))
	m := &Model{
		ctx:    ctx,
		metric: info,
		rng:    Range{Preset: PresetLast30},
		chart:  DefaultChart(info),
		cache:  map[string]*result{},
		table:  list.Window{Overlap: 1},
		bd:     scroll.New(nil),

		runs:       common.NewLoader(ctx),
		names:      map[int64]string{},
		namesAsked: map[int64]bool{},
		nameLoads:  common.NewLoader(ctx),
	}
	m.now = ctx.Now()
	m.refreshQuery()
	return m
}

// Focus runs the query when its results are not there yet (the first time the screen is
// shown, or after a change made while another screen was active) and re-resolves relative
// ranges when the date changed since. Days are the server's (common.Ctx.ServerNow): with
// this machine's clock days off, "last 30 days" still ends on the server's today, and no
// range the server has reached is taken for one in the future.
func (m *Model) Focus() tea.Cmd {
	m.focused = true
	m.snapshot()
	if !m.rng.Period(m.ctx.ServerNow()).Equal(m.period) {
		return tea.Batch(m.queryChanged(0), m.startClock())
	}
	return tea.Batch(m.schedule(0), m.startClock())
}

// Blur is called when another screen becomes active.
func (m *Model) Blur() { m.focused = false }

// Metric is the selected metric.
func (m *Model) Metric() client.MetricInfo { return m.metric }

// Period is the resolved period of the current query.
func (m *Model) Period() Period { return m.period }

// Query is the current query.
func (m *Model) Query() client.AnalyticsQuery { return m.query() }

// Points are the data points of the current query (nil until fetched).
func (m *Model) Points() []client.DataPoint {
	if m.cur == nil {
		return nil
	}
	return m.cur.points
}

// Loaded reports whether the current query's results are shown.
func (m *Model) Loaded() bool { return m.cur != nil }

// query builds the API query from the controls.
func (m *Model) query() client.AnalyticsQuery {
	q := client.AnalyticsQuery{
		Metric:           m.metric.Metric,
		OrganizationIDs:  m.filters.Orgs,
		WidgetIDs:        m.filters.Widgets,
		OperatorIDs:      m.filters.Operators,
		OperatorGroupIDs: m.filters.Groups,
		OperatorMode:     m.mode,
	}
	return m.period.Apply(q)
}

// refreshQuery resolves the period and key of the controls and shows cached results.
func (m *Model) refreshQuery() {
	m.period = m.rng.Period(m.ctx.ServerNow())
	q := m.query()
	m.key = QueryKey(q, m.ctx.Client.OrganizationID())
	m.cost = len(Plan(q))
	if r, ok := m.cache[m.key]; ok {
		m.cur, m.pending = r, false
	} else {
		m.cur, m.pending = nil, true
	}
	m.err = ""
	m.table.Reset()
	m.bd.SetOffset(0)
	m.derive()
}

// queryChanged is called after a control changed the query: cached results show at once;
// otherwise a one-request query runs after delay (unless a picker is open or the screen is
// not shown) and a longer one waits for enter. A run of another query is cancelled.
func (m *Model) queryChanged(delay time.Duration) tea.Cmd {
	m.refreshQuery()
	if m.run != nil && m.run.key != m.key {
		m.stopRun()
	}
	m.snapshot()
	return m.schedule(delay)
}

// schedule starts the debounce of an automatic run when one is due.
func (m *Model) schedule(delay time.Duration) tea.Cmd {
	if !m.pending || m.running() || !m.focused || m.menuOpen || m.cost > 1 || m.inFuture() {
		m.armed = false
		return nil
	}
	m.seq++
	m.armed = true
	if delay <= 0 {
		delay = time.Millisecond
	}
	return m.ctx.Tick(delay, runTickMsg{seq: m.seq}) // the debounce of automatic runs
}

func (m *Model) running() bool { return m.run != nil && m.run.key == m.key }

// inFuture reports whether the whole period is still to come: there is no data to ask for
// yet, so no request is sent. A period that only ends in the future goes out as it is
// (the API has nothing after now, and the chart shows what came so far).
func (m *Model) inFuture() bool { return FutureRange(m.period, m.ctx.ServerNow()) != nil }

func (m *Model) stopRun() {
	m.runs.Next()
	m.run = nil
}

// snapshot reads the limiter for the controls line (Update only, never View).
func (m *Model) snapshot() {
	m.now = m.ctx.Now()
	if m.ctx.Client == nil {
		return
	}
	m.free = m.ctx.Client.AnalyticsFree(m.metric.Metric)
	m.delay = m.ctx.Client.AnalyticsDelay(m.metric.Metric)
}

// start runs the current query (fresh: bypassing every cache).
func (m *Model) start(fresh bool) tea.Cmd {
	if m.inFuture() {
		return nil // the screen says why
	}
	q := m.query()
	if err := q.Validate(); err != nil {
		m.err = err.Error()
		return nil
	}
	m.stopRun()
	m.run = &run{key: m.key, query: q, period: m.period, windows: Plan(q), fresh: fresh}
	m.err = ""
	return tea.Batch(m.fetchNext(), m.startClock())
}

// fetchNext starts the request of the run's next window. Its inputs are copied before the
// command is built.
func (m *Model) fetchNext() tea.Cmd {
	r := m.run
	c := m.ctx.Client
	m.snapshot()
	r.queuedUntil = time.Time{}
	if m.delay > 0 {
		r.queuedUntil = m.now.Add(m.delay)
	}
	stamp, parent := m.runs.Start(0)
	r.stamp = stamp
	q, w, idx, n, key, fresh := r.query, r.windows[r.next], r.next, len(r.windows), r.key, r.fresh
	return func() tea.Msg {
		wctx, cancel := common.RequestContextIn(parent, windowTimeout, fresh)
		defer cancel()
		pts, err := c.AnalyticsWindowPoints(wctx, q, w)
		if err != nil {
			err = fmt.Errorf("analytics %s, window %d of %d: %w", q.Metric, idx+1, n, err)
		}
		return windowMsg{stamp: stamp, key: key, index: idx, points: pts, err: err}
	}
}

// onWindow takes one window's points: the next window is requested, or the run completes
// and its results are cached. Results of any other run are dropped.
func (m *Model) onWindow(msg windowMsg) tea.Cmd {
	r := m.run
	if r == nil || msg.key != r.key || msg.index != r.next || !m.runs.Take(msg.stamp) {
		return nil // stale: a newer query replaced this one
	}
	if msg.err != nil {
		m.errFresh = r.fresh
		m.stopRun()
		m.err = writes.ErrorText(msg.err)
		m.snapshot()
		return common.ErrorToast(msg.err)
	}
	r.points = append(r.points, msg.points...)
	r.next++
	if r.next < len(r.windows) {
		return m.fetchNext()
	}
	client.SortDataPoints(r.points)
	res := &result{key: r.key, query: r.query, period: r.period, points: r.points, at: m.ctx.Now()}
	res.strs = make([]string, len(res.points))
	for i, p := range res.points {
		if p.ValueStr != nil {
			res.strs[i] = sanitize.Line(*p.ValueStr)
		}
	}
	m.cache[r.key] = res
	m.stopRun()
	if res.key == m.key {
		m.cur, m.pending = res, false
		m.table.Reset()
		m.bd.SetOffset(0)
		m.derive()
	}
	m.snapshot()
	return m.askNames(res.points)
}

// namesMsg carries the operator names of one organization.
type namesMsg struct {
	org   int64
	stamp common.Stamp
	names map[int64]string
	err   error
}

// askNames asks, once per organization, for the operators of organizations whose operators
// appear in points without a name: the breakdown by operator and the table then name them.
func (m *Model) askNames(points []client.DataPoint) tea.Cmd {
	var orgs []int64
	for i := range points {
		p := &points[i]
		if p.OperatorID == nil || p.OrganizationID == 0 || m.ctx.Operators[*p.OperatorID] != "" ||
			m.names[*p.OperatorID] != "" || m.namesAsked[p.OrganizationID] || slices.Contains(orgs, p.OrganizationID) {
			continue
		}
		orgs = append(orgs, p.OrganizationID)
	}
	var cmds []tea.Cmd
	for _, org := range orgs {
		m.namesAsked[org] = true
		stamp, parent := m.nameLoads.Start(org)
		c := m.ctx.Client.WithContext(org, 0) // as that organization's default operator
		cmds = append(cmds, func() tea.Msg {
			ctx, cancel := common.RequestContextIn(parent, windowTimeout, false)
			defer cancel()
			ops, err := c.AllOperators(ctx)
			if err != nil {
				return namesMsg{org: org, stamp: stamp, err: err}
			}
			names := make(map[int64]string, len(ops))
			for _, op := range ops {
				names[op.ID] = sanitize.Line(cmp.Or(op.DisplayName, op.Name))
			}
			return namesMsg{org: org, stamp: stamp, names: names}
		})
	}
	return tea.Batch(cmds...)
}

// namesPending is how many organizations' operator lists are still on their way.
func (m *Model) namesPending() int {
	n := 0
	for org := range m.namesAsked {
		if m.nameLoads.Pending(org) {
			n++
		}
	}
	return n
}

// operatorLabel names an operator: from the directory, else from its organization's
// list, else by id and organization.
func (m *Model) operatorLabel(id, org int64) string {
	if n := cmp.Or(m.ctx.Operators[id], m.names[id]); n != "" {
		return n
	}
	if org != 0 {
		return fmt.Sprintf("#%d · org %d", id, org)
	}
	return "#" + strconv.FormatInt(id, 10)
}

// clockDue reports whether the controls line changes with time while the screen is shown:
// a run's countdown, the wait for the next free request, or requests sent in the last
// minute that become free again.
func (m *Model) clockDue() bool {
	if !m.focused {
		return false
	}
	if m.run != nil || m.delay > 0 {
		return true
	}
	return m.ctx.Client != nil && m.free < m.ctx.Client.AnalyticsPerMinute()
}

// startClock ticks every second while clockDue, so the countdown and "N free this minute"
// stay true. A tick only reads the client's limiter (no I/O).
func (m *Model) startClock() tea.Cmd {
	if m.ticking || !m.clockDue() {
		return nil
	}
	m.ticking = true
	m.clockSeq++
	return m.ctx.Tick(time.Second, clockTickMsg{seq: m.clockSeq})
}

// Update handles the screen's keys, its pickers' results and its query results.
func (m *Model) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case common.RestyledMsg:
		m.d.chart = "" // drawn again in the current styles
		return m, nil
	case tea.KeyPressMsg:
		seq := m.seq
		cmd := m.onKey(msg)
		if m.armed && m.seq == seq {
			// Still typing: the automatic run waits for the keys to pause.
			cmd = tea.Batch(cmd, m.schedule(RunDelay))
		}
		return m, cmd
	case runTickMsg:
		if msg.seq != m.seq {
			return m, nil
		}
		m.armed = false
		if m.menuOpen || !m.pending || m.running() || m.cost > 1 || !m.focused {
			return m, nil
		}
		return m, m.start(false)
	case clockTickMsg:
		if msg.seq != m.clockSeq {
			return m, nil
		}
		m.snapshot()
		if !m.clockDue() {
			m.ticking = false
			return m, nil
		}
		return m, m.ctx.Tick(time.Second, clockTickMsg{seq: m.clockSeq})
	case windowMsg:
		return m, m.onWindow(msg)
	case metricPickedMsg:
		m.menuOpen = false
		if info, ok := client.LookupMetric(string(msg.metric)); ok && info.Metric != m.metric.Metric {
			m.metric = info
			m.chart = DefaultChart(info)
		}
		return m, m.queryChanged(RunDelay)
	case rangePickedMsg:
		m.menuOpen = false
		m.rng = msg.r
		return m, m.queryChanged(RunDelay)
	case menuClosedMsg:
		m.menuOpen = false
		return m, m.schedule(RunDelay)
	case filtersMsg:
		m.menuOpen = false
		m.filters, m.mode = msg.f, msg.mode
		return m, m.queryChanged(RunDelay)
	case common.TaskDoneMsg:
		if msg.Kind != KindExport || msg.Err != nil {
			return m, nil
		}
		if r, ok := msg.Result.(ExportResult); ok {
			return m, common.Toast("Wrote " + plural(r.Points, "data point") + " to " + r.Path)
		}
		return m, nil
	case namesMsg:
		if msg.stamp.Key != msg.org || !m.nameLoads.Take(msg.stamp) {
			return m, nil
		}
		// A failed list leaves ids shown; it is not asked again this run (namesAsked).
		for id, n := range msg.names {
			m.names[id] = n
		}
		if len(msg.names) > 0 {
			m.namesSeen++
			m.measureTable()
		}
		return m, nil
	case common.ContextChangedMsg:
		return m, m.queryChanged(RunDelay) // a new key (the organization is part of it)
	case common.RefreshMsg:
		return m, nil // analytics never refresh by themselves: each request counts
	}
	return m, nil
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.ctx.Keys
	switch {
	case key.Matches(msg, k.Metric):
		m.menuOpen = true
		return m.ctx.OpenModal(newMetricPicker(m.ctx, m.metric.Metric))
	case key.Matches(msg, k.Range):
		m.menuOpen = true
		return m.ctx.OpenModal(newRangeMenu(m.ctx, m.rng, m.query()))
	case key.Matches(msg, k.Filter):
		m.menuOpen = true
		return m.ctx.OpenModal(filterForm(m.ctx, m.filters, m.mode, m.names))
	case key.Matches(msg, k.Mode):
		switch m.mode {
		case client.OperatorModeAll:
			m.mode = client.OperatorModeHuman
		case client.OperatorModeHuman:
			m.mode = client.OperatorModeBot
		default:
			m.mode = client.OperatorModeAll
		}
		return m.queryChanged(RunDelay)
	case key.Matches(msg, k.Split):
		m.split = m.split.Next()
		m.derive()
		return nil
	case key.Matches(msg, k.ChartKind):
		m.chart = NextChart(m.chart, m.metric)
		m.derive()
		return nil
	case key.Matches(msg, k.NextPane), key.Matches(msg, k.PrevPane):
		if m.left == viewChart {
			m.left = viewTable
		} else {
			m.left = viewChart
		}
		return nil
	case key.Matches(msg, k.Breakdown):
		if m.left == viewBreakdown {
			m.left = viewChart
		} else {
			m.left = viewBreakdown
		}
		return nil
	case key.Matches(msg, k.Back) && m.left != viewChart:
		m.left = viewChart
		return nil
	case key.Matches(msg, k.Open):
		if m.err != "" && !m.running() {
			return m.start(m.errFresh) // the screen says "enter tries again"
		}
		if m.pending && !m.running() {
			return m.start(false)
		}
		if m.detailNeeded() {
			return m.openDetail()
		}
		return nil
	case key.Matches(msg, k.Refresh):
		if m.running() {
			return nil
		}
		return m.start(true)
	case key.Matches(msg, k.Export):
		if m.cur == nil {
			return common.ErrorToast(errors.New("nothing to export yet: run the query first (" + k.Open.Help().Key + ")"))
		}
		return m.ctx.OpenModal(exportForm(m.ctx, m.cur.query, m.cur.period, m.cur.points))
	}
	switch m.left {
	case viewTable:
		m.moveTable(msg)
	case viewBreakdown:
		m.scrollBreakdown(msg)
	}
	return nil
}

// scrollBreakdown moves the whole-breakdown view by a line, a page or to either end.
func (m *Model) scrollBreakdown(msg tea.KeyPressMsg) {
	w, h := m.leftInner()
	m.bd.SetSize(w, h)
	m.bd.SetLines(m.breakdownLines(w))
	m.bd.Key(m.ctx.Keys, msg)
}

// moveTable scrolls the data point table.
func (m *Model) moveTable(msg tea.KeyPressMsg) {
	m.table.HandleMoveKey(msg, m.ctx.Keys, len(m.Points()))
}

// Where is the analytics screen.
func (m *Model) Where() keymap.Where { return keymap.InAnalytics }
