package analytics

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// Layout.
const (
	controlsHeight = 7 // the query pane: five lines and its frame
	minRightWidth  = 30
	maxRightWidth  = 46
)

// groupView is one split group's numbers.
type groupView struct {
	name    string
	short   string
	summary Summary
	buckets []Bucket
}

// derived is everything computed from the results and the view settings; View only reads it.
type derived struct {
	groups []groupView
	all    Summary
	byStr  []Slice
	byOp   []OperatorSlice
	hasOp  bool
	chart  string // rendered for chartW×chartH
	chartW int
	chartH int
}

// derive recomputes the numbers and the chart from the current results.
func (m *Model) derive() {
	m.d = derived{}
	if m.cur == nil {
		return
	}
	pts := m.cur.points
	m.d.all = Summarize(pts)
	for _, g := range Split(pts, m.split) {
		m.d.groups = append(m.d.groups, groupView{name: g.Name, short: g.Short, summary: Summarize(g.Points), buckets: Buckets(g.Points, m.cur.period)})
	}
	if m.metric.Categorical {
		m.d.byStr = ByValueStr(pts, m.cur.strs)
	}
	m.d.byOp, m.d.hasOp = ByOperator(pts)
	m.measureTable()
	m.renderChart()
}

// renderChart draws the chart for the left pane's size (on data, setting or size changes).
func (m *Model) renderChart() {
	w, h := m.leftInner()
	m.d.chartW, m.d.chartH = w, h
	if m.cur == nil || len(m.cur.points) == 0 || w <= 0 || h <= 0 {
		m.d.chart = ""
		return
	}
	m.d.chart = drawChart(m.ctx.Styles, m.d.groups, m.cur.period.Granularity(), m.chart, m.metric.Unit, w, h)
}

// SetSize lays the panes out and redraws the chart.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.table.SetSize(m.tableRows())
	if m.cur != nil {
		m.renderChart()
	}
}

func (m *Model) rightWidth() int {
	return max(minRightWidth, min(maxRightWidth, m.width*36/100))
}

// leftInner is the inside of the chart/table pane.
func (m *Model) leftInner() (int, int) {
	return max(0, m.width-m.rightWidth()-2), max(0, m.height-controlsHeight-2)
}

// tableRows is how many data point rows the table shows.
func (m *Model) tableRows() int {
	_, h := m.leftInner()
	return max(1, h-1)
}

// View renders the screen at exactly its size.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	fs := m.ctx.FrameStyles()
	top := layout.Frame(fs, "Analytics · "+string(m.metric.Metric), m.controls(m.width-2), m.width, controlsHeight, false)
	resH := m.height - controlsHeight
	if resH < 3 {
		return layout.Block(strings.Split(top, "\n"), m.width, m.height)
	}
	rw := m.rightWidth()
	lw := m.width - rw
	iw, ih := m.leftInner()
	var leftTitle, leftBody string
	switch m.left {
	case viewTable:
		leftTitle = "Data points · " + layout.Count(len(m.Points()))
		if n := len(m.Points()); n > 0 {
			leftTitle += fmt.Sprintf(" · row %d", m.table.Cursor+1)
		}
		leftBody = m.tableView(iw, ih)
	case viewBreakdown:
		bd := m.bd // drawn from a copy: View changes nothing
		bd.SetSize(iw, ih)
		bd.SetLines(m.breakdownLines(iw))
		lines, off := bd.Lines(), bd.Offset()
		leftTitle = "Breakdown · every row"
		if len(lines) > ih {
			leftTitle += fmt.Sprintf(" · lines %d–%d of %d", off+1, min(len(lines), off+ih), len(lines))
		}
		leftBody = bd.View()
	default:
		leftTitle = m.chartTitle()
		leftBody = m.chartBody(iw, ih)
	}
	left := layout.Frame(fs, leftTitle, leftBody, lw, resH, true)
	sh := m.summaryHeight(resH)
	right := layout.Frame(fs, "Summary", m.summaryView(rw-2, sh-2, resH), rw, sh, false)
	if bh := resH - sh; bh >= 4 {
		right += "\n" + layout.Frame(fs, "Breakdown", m.breakdownView(rw-2, bh-2), rw, bh, false)
	} else if bh > 0 {
		right = layout.Frame(fs, "Summary", m.summaryView(rw-2, resH-2, resH), rw, resH, false)
	}
	return top + "\n" + layout.JoinHorizontal(left, right)
}

// chartTitle says what the chart plots.
func (m *Model) chartTitle() string {
	what := m.chart.String()
	if m.chart != ChartCount {
		what += " " + unitName(m.metric.Unit)
	}
	t := "Chart · " + what + " per " + m.period.Granularity().String()
	if m.split != SplitNone {
		t += " · split: " + m.split.String()
	}
	return t
}

func unitName(u client.Unit) string {
	switch u {
	case client.UnitSeconds:
		return "time"
	case client.UnitPercent:
		return "percent"
	case client.UnitRating:
		return "rating"
	}
	return "value"
}

// controls is the query pane: metric, range, filters and what the query costs, exactly
// w cells wide. A line too long for its key hint is cut with "…" before the hint, which
// always stays; the filters are summed up first.
func (m *Model) controls(w int) string {
	st := m.ctx.Styles
	k := m.ctx.Keys
	label := func(s string) string { return st.Label.Render(layout.Pad(s, 9)) }
	lines := make([]string, 0, 5)
	lines = append(lines, hintLine(st, label("Metric"), st.Bold.Render(string(m.metric.Metric))+st.Muted.Render(" · "+m.metric.Group), k.Metric.Help().Key+" pick", w))
	lines = append(lines, label("")+st.Muted.Render(layout.Pad(describe(m.metric), max(0, w-9))))
	p := m.period
	rangeHint := k.Range.Help().Key + " change"
	rangeText := m.rng.Preset.Label() + ": " + p.String() + " UTC · " + plural(p.Days(), "day") + " · per " + p.Granularity().String()
	if ansi.StringWidth(rangeText) > hintRoom(w, 9, rangeHint) {
		rangeText = m.rng.Preset.Label() + ": " + p.String() + " UTC · per " + p.Granularity().String()
	}
	lines = append(lines, hintLine(st, label("Range"), rangeText, rangeHint, w))
	filterHint := k.Mode.Help().Key + " mode · " + k.Filter.Help().Key + " filters"
	lines = append(lines, hintLine(st, label("Filters"), m.filterText(hintRoom(w, 9, filterHint)), filterHint, w))
	cost := m.costText(false)
	if ansi.StringWidth(cost) > w-9 {
		cost = m.costText(true) // the key hint at the end must stay
	}
	lines = append(lines, label("Cost")+layout.Pad(cost, max(0, w-9)))
	return layout.Block(lines, w, controlsHeight-2)
}

// hintGap is the least space between a control line's text and its key hint.
const hintGap = 2

// hintRoom is how many cells a control line of w cells has for its text, after its label
// of lw cells and its key hint.
func hintRoom(w, lw int, keys string) int {
	return max(0, w-lw-ansi.StringWidth(keys)-hintGap)
}

// hintLine is label, text and the key hint at the right end of a line of w cells. Text
// too long is cut with "…"; the hint stays (it goes only when even the label leaves no
// room for it).
func hintLine(st *theme.Styles, label, text, keys string, w int) string {
	lw := ansi.StringWidth(label)
	room := hintRoom(w, lw, keys)
	if room < 1 {
		return label + text
	}
	if ansi.StringWidth(text) > room {
		text = ansi.Truncate(text, room, "…")
	}
	gap := w - lw - ansi.StringWidth(text) - ansi.StringWidth(keys)
	return label + text + strings.Repeat(" ", gap) + st.Subtle.Render(keys)
}

// describe is a metric's one-line description: what is tracked and what value and
// value_str mean.
func describe(info client.MetricInfo) string {
	s := info.Description
	if info.Value != "" {
		s += " value: " + info.Value + "."
	}
	if info.ValueStr != "" {
		s += " value_str: " + info.ValueStr + "."
	}
	return s
}

// plural is n and word, made plural unless n is 1: "1 day", "1,200 data points".
func plural(n int, word string) string {
	return layout.Count(n) + " " + layout.Plural(n, word, word+"s")
}

// filterText says the operator mode and every id filter in at most w cells. Each part has
// forms from the most to the least detailed ("operator Ben or Aylin or Harbor Assistant",
// "operators: Ben +2", "operators: 3"); while the line is too wide, the widest part that
// has a shorter form takes it, so every filter stays named. Only when even the shortest
// forms do not fit is the line cut, with "…".
func (m *Model) filterText(w int) string {
	var parts [][]string
	switch m.mode {
	case client.OperatorModeHuman:
		parts = append(parts, []string{"human operators only", "humans only"})
	case client.OperatorModeBot:
		parts = append(parts, []string{"bots only"})
	default:
		parts = append(parts, []string{"all operators", ""}) // the default: dropped last
	}
	add := func(one, many string, ids []int64, names map[int64]string) {
		if len(ids) == 0 {
			return
		}
		vals := make([]string, len(ids))
		for i, id := range ids {
			if n := names[id]; n != "" {
				vals[i] = n
			} else {
				vals[i] = "#" + strconv.FormatInt(id, 10)
			}
		}
		forms := []string{one + " " + strings.Join(vals, " or ")}
		if len(ids) > 1 {
			forms = append(forms, fmt.Sprintf("%s: %s +%d", many, vals[0], len(ids)-1))
		}
		forms = append(forms, fmt.Sprintf("%s: %d", many, len(ids)))
		parts = append(parts, shorterForms(forms))
	}
	add("organization", "orgs", m.filters.Orgs, nil)
	add("widget", "widgets", m.filters.Widgets, nil)
	names := maps.Clone(m.names)
	maps.Copy(names, m.ctx.Operators)
	add("operator", "operators", m.filters.Operators, names)
	add("group", "groups", m.filters.Groups, nil)
	if len(parts) == 1 {
		parts = append(parts, []string{"every organization, widget, operator and group", "no id filters"})
	}
	level := make([]int, len(parts))
	text := func() string {
		var out []string
		for i, forms := range parts {
			if s := forms[level[i]]; s != "" {
				out = append(out, s)
			}
		}
		return strings.Join(out, " · ")
	}
	for ansi.StringWidth(text()) > w {
		widest, ww := -1, -1
		for i, forms := range parts {
			if cw := ansi.StringWidth(forms[level[i]]); level[i]+1 < len(forms) && cw > ww {
				widest, ww = i, cw
			}
		}
		if widest < 0 {
			return ansi.Truncate(text(), w, "…")
		}
		level[widest]++
	}
	return text()
}

// shorterForms keeps the forms that are narrower than every form before them.
func shorterForms(forms []string) []string {
	out := forms[:1]
	for _, f := range forms[1:] {
		if ansi.StringWidth(f) < ansi.StringWidth(out[len(out)-1]) {
			out = append(out, f)
		}
	}
	return out
}

// costText says what running the query costs, or where the run is; compact says it in
// fewer words, for a narrow screen.
func (m *Model) costText(compact bool) string {
	st := m.ctx.Styles
	k := m.ctx.Keys
	free := fmt.Sprintf("%d free this minute", m.free)
	if compact {
		free = fmt.Sprintf("%d free/min", m.free)
	}
	switch {
	case m.running():
		r := m.run
		s := fmt.Sprintf("running: window %d of %d", r.next+1, len(r.windows))
		if left := r.queuedUntil.Sub(m.now); left > 0 {
			s += fmt.Sprintf(" · queued by the 10/min limit, %ds", int(math.Ceil(left.Seconds())))
		}
		return st.Warning.Render(s)
	case m.err != "":
		return st.Error.Render("failed: "+m.err) + st.Muted.Render(" · "+k.Open.Help().Key+" tries again")
	case m.cur != nil && compact:
		return "cached · fetched " + m.cur.at.UTC().Format("15:04:05") + " (" + k.Refresh.Help().Key + ": again) · " + st.Muted.Render(free)
	case m.cur != nil:
		return "cached, 0 requests · fetched " + m.cur.at.UTC().Format("15:04:05") + " (" + k.Refresh.Help().Key + ": again) · " + st.Muted.Render(free)
	case m.inFuture():
		return st.Warning.Render("no request: the range is in the future") + " · " + st.Muted.Render(free)
	}
	s := CostText(m.cost)
	if m.cost > 1 && !compact {
		s += fmt.Sprintf(" (≤%d days each)", client.MaxAnalyticsDays)
	}
	s += " · " + free
	if m.cost > m.free {
		wait := "the rest wait for the limit"
		if compact {
			wait = "some wait"
		}
		if m.free == 0 && m.delay > 0 {
			wait = fmt.Sprintf("next slot in %ds", int(math.Ceil(m.delay.Seconds())))
		}
		s += " · " + wait
	}
	if m.cost > 1 {
		return s + st.Accent.Render(" · "+k.Open.Help().Key+" runs it")
	}
	return s
}

// chartBody is the chart, or what stands in for it.
func (m *Model) chartBody(w, h int) string {
	if notes := m.statusNotes(); notes != nil {
		return layout.Block(wrapNotes(notes, w), w, h)
	}
	if m.d.chart == "" || m.d.chartW != w || m.d.chartH != h {
		return layout.Block([]string{"", "  " + m.ctx.Styles.Muted.Render("Nothing to chart.")}, w, h)
	}
	return m.d.chart
}

// note is a sentence of a status message with its style; "" is a blank line.
type note struct {
	text  string
	style func(...string) string
}

// wrapNotes breaks each note into lines of at most w cells, indented by two, styling each
// line on its own so a style never runs into the pane's border.
func wrapNotes(notes []note, w int) []string {
	var lines []string
	for _, n := range notes {
		if n.text == "" {
			lines = append(lines, "")
			continue
		}
		for _, l := range strings.Split(ansi.Wrap(n.text, max(1, w-2), ""), "\n") {
			l = strings.TrimRight(l, " ")
			if n.style != nil {
				l = n.style(l)
			}
			lines = append(lines, "  "+l)
		}
	}
	return lines
}

// statusNotes stand in for results that are not there (nil when there are results).
func (m *Model) statusNotes() []note {
	st := m.ctx.Styles
	k := m.ctx.Keys
	switch {
	case m.running():
		r := m.run
		notes := []note{{}, {fmt.Sprintf("Loading window %d of %d…", r.next+1, len(r.windows)), st.Loading.Render}}
		if left := r.queuedUntil.Sub(m.now); left > 0 {
			notes = append(notes,
				note{fmt.Sprintf("Queued: goes out in %ds.", int(math.Ceil(left.Seconds()))), st.Warning.Render},
				note{"At most 10 requests per minute per metric.", st.Muted.Render})
		}
		return notes
	case m.err != "":
		return []note{{}, {"✗ " + m.err, st.Error.Render}, {"Press " + k.Open.Help().Key + " to try again.", st.Muted.Render}}
	case m.cur == nil && m.inFuture():
		return []note{{}, {"This range is in the future: no data yet.", st.Warning.Render},
			{"Press " + k.Range.Help().Key + " to pick another one.", st.Muted.Render}}
	case m.cur == nil && m.cost > 1:
		return []note{{}, {"This query costs " + CostText(m.cost) + fmt.Sprintf(" (periods of at most %d days).", client.MaxAnalyticsDays), nil},
			{"Press " + k.Open.Help().Key + " to run it.", st.Accent.Render}}
	case m.cur == nil && m.armed:
		return []note{{}, {"Runs when you pause.", st.Muted.Render}, {"Press " + k.Open.Help().Key + " to run it now.", st.Accent.Render}}
	case m.cur == nil:
		return []note{{}, {"Loading…", st.Loading.Render}}
	case len(m.cur.points) == 0:
		return []note{{}, {"No data points for this query.", st.Muted.Render}}
	}
	return nil
}

// summaryRow is one line of the summary: a name and how to show it for a group's numbers.
type summaryRow struct {
	name string
	f    func(Summary) string
}

// minBreakdownHeight is the breakdown pane the summary makes room for when the screen is
// short: its frame and a title and a row for each of two sections.
const minBreakdownHeight = 6

// summaryRows are the summary's statistics rows (below its first line: the unit, or the
// group names of a split). Every metric has the count of data points and of values; a
// metric whose value is a quantity adds sum, mean, median, p90, min and max in its unit
// (for the others they mean nothing: no value, a constant 1 or an id). When the screen is
// too short for the breakdown below, the unit line goes first (the chart title names the
// unit), then "With value" when every point has one.
func (m *Model) summaryRows(resH int) (rows []summaryRow, unitLine bool) {
	val := func(f func(Summary) float64) func(Summary) string {
		return func(s Summary) string {
			if s.N == 0 {
				return "—"
			}
			return FormatValue(m.metric.Unit, f(s))
		}
	}
	withValue := summaryRow{"With value", func(s Summary) string { return layout.Count(s.N) }}
	rows = []summaryRow{{"Data points", func(s Summary) string { return layout.Count(s.Count) }}, withValue}
	if HasQuantity(m.metric) {
		rows = append(rows,
			summaryRow{"Sum", val(func(s Summary) float64 { return s.Sum })},
			summaryRow{"Mean", val(func(s Summary) float64 { return s.Mean })},
			summaryRow{"Median", val(func(s Summary) float64 { return s.Median })},
			summaryRow{"p90", val(func(s Summary) float64 { return s.P90 })},
			summaryRow{"Min", val(func(s Summary) float64 { return s.Min })},
			summaryRow{"Max", val(func(s Summary) float64 { return s.Max })})
	}
	unitLine = m.split == SplitNone
	tight := func() bool { return resH-summaryLines(rows, unitLine, m.split) < minBreakdownHeight }
	if m.cur == nil || !tight() {
		return rows, unitLine
	}
	if unitLine {
		unitLine = false
		if !tight() {
			return rows, unitLine
		}
	}
	if m.d.all.N == m.d.all.Count {
		rows = slices.Delete(rows, 1, 2) // "With value", the same number as "Data points"
	}
	return rows, unitLine
}

// summaryLines is the height of a summary pane with rows: its frame, the first line (the
// unit, or the group names of a split) and the rows.
func summaryLines(rows []summaryRow, unitLine bool, split SplitMode) int {
	n := len(rows) + 2
	if unitLine || split != SplitNone {
		n++
	}
	return n
}

// summaryHeight is the height of the summary pane for results of resH lines.
func (m *Model) summaryHeight(resH int) int {
	rows, unitLine := m.summaryRows(resH)
	return min(summaryLines(rows, unitLine, m.split), resH)
}

// summaryView shows count, sum, mean, median, p90, min and max of value in the metric's
// unit; with a split, one column per group.
func (m *Model) summaryView(w, h, resH int) string {
	st := m.ctx.Styles
	if m.cur == nil {
		return layout.Block([]string{st.Muted.Render("No results yet.")}, w, h)
	}
	rows, unitLine := m.summaryRows(resH)
	const lw = 12
	var lines []string
	if m.split == SplitNone {
		if unitLine {
			unit := unitText(m.metric)
			if ansi.StringWidth(unit) > w-lw {
				unit = unitShort(m.metric)
			}
			lines = append(lines, st.Label.Render(layout.Pad("Unit", lw))+st.Muted.Render(unit))
		}
		for _, r := range rows {
			lines = append(lines, st.Label.Render(layout.Pad(r.name, lw))+r.f(m.d.all))
		}
		return layout.Block(lines, w, h)
	}
	// One column per group, as wide as its widest value plus a space; the labels take what
	// is left (up to 12), in short forms when that is little.
	n := max(1, len(m.d.groups))
	need := 0
	for _, g := range m.d.groups {
		need = max(need, ansi.StringWidth(g.short))
		for _, r := range rows {
			need = max(need, ansi.StringWidth(r.f(g.summary)))
		}
	}
	cw := max(need+1, (w-lw)/n)
	slw := min(lw, max(4, w-n*cw))
	if slw+n*cw > w { // even the widest value does not fit: narrower columns, shorter values
		slw = 4
		cw = max(4, (w-slw)/n)
	}
	head := layout.Pad("", slw)
	for _, g := range m.d.groups {
		short := g.short
		if ansi.StringWidth(short) > cw-1 && g.name == GroupNoInteraction {
			short = "none"
		}
		head += layout.PadLeft(fitValue(short, cw-1), cw)
	}
	lines = append(lines, st.Bold.Render(head))
	for _, r := range rows {
		name := r.name
		for ansi.StringWidth(name) >= slw {
			short, ok := shortRowNames[name]
			if !ok {
				break
			}
			name = short
		}
		line := st.Label.Render(layout.Pad(name, slw))
		for _, g := range m.d.groups {
			line += layout.PadLeft(fitValue(r.f(g.summary), cw-1), cw)
		}
		lines = append(lines, line)
	}
	return layout.Block(lines, w, h)
}

// fitValue shortens a summary value to w columns: a duration of hours loses its minutes
// (1234h05m → 1234h), anything else still too wide ends in "…".
func fitValue(v string, w int) string {
	if ansi.StringWidth(v) <= w {
		return v
	}
	// Durations: 1234h05m → 1234h, 48m32s → 48m.
	if i := strings.IndexAny(v, "hm"); i > 0 && i+1 <= w && i+1 < len(v) {
		return v[:i+1]
	}
	return ansi.Truncate(v, w, "…")
}

// shortRowNames are the summary's row names for a narrow split summary.
var shortRowNames = map[string]string{"Data points": "Points", "Points": "Pts", "With value": "Values",
	"Values": "Vals", "Median": "Med"}

// unitText says how to read the metric's value.
func unitText(info client.MetricInfo) string {
	switch {
	case info.Unit == client.UnitSeconds:
		return "duration"
	case info.Unit == client.UnitPercent:
		return "percent"
	case info.Unit == client.UnitRating:
		return "rating"
	case info.Unit == client.UnitID:
		return "an id, not a quantity"
	case info.Unit == client.UnitCount && HasQuantity(info):
		return "count"
	case info.Unit == client.UnitCount:
		return "1 per event"
	}
	return "none: each point is one event"
}

// unitShort is unitText for a narrow summary (at most 15 columns).
func unitShort(info client.MetricInfo) string {
	switch t := unitText(info); {
	case len(t) <= 15:
		return t
	case info.Unit == client.UnitID:
		return "id, no quantity"
	}
	return "— (1 per event)"
}

// breakdownSections are the breakdowns of the results: per value_str (categorical
// metrics) and per operator, each with its title.
func (m *Model) breakdownSections() (sections [][]barItem, titles []string) {
	if len(m.d.byStr) > 0 {
		items := make([]barItem, len(m.d.byStr))
		for i, s := range m.d.byStr {
			items[i] = barItem{label: s.Label, count: s.Count}
		}
		sections = append(sections, items)
		titles = append(titles, "By value_str")
	}
	if m.d.hasOp {
		quantity := HasQuantity(m.metric)
		items := make([]barItem, len(m.d.byOp))
		for i, s := range m.d.byOp {
			label := s.Label
			if s.HasID {
				label = m.operatorLabel(s.ID, s.Org)
			}
			it := barItem{label: label, count: s.Count}
			if quantity && s.N > 0 {
				it.extra = FormatValue(m.metric.Unit, s.Mean())
			}
			items[i] = it
		}
		sections = append(sections, items)
		title := "By operator"
		if quantity {
			title += " (count, mean)"
		}
		titles = append(titles, title)
	}
	return sections, titles
}

// breakdownLines is every row of every breakdown at width w, for the left pane (b).
func (m *Model) breakdownLines(w int) []string {
	st := m.ctx.Styles
	if notes := m.statusNotes(); notes != nil {
		return wrapNotes(notes, w)
	}
	sections, titles := m.breakdownSections()
	if len(sections) == 0 {
		return []string{st.Muted.Render("No value_str categories or operators to break down.")}
	}
	var lines []string
	for i, items := range sections {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, st.Section.Render(fmt.Sprintf("%s · %d", titles[i], len(items))))
		lines = append(lines, barList(st, items, m.d.all.Count, w, len(items), "")...)
	}
	return lines
}

// breakdownView lists the points per value_str (categorical metrics) and per operator, as
// many rows of each as the pane holds.
func (m *Model) breakdownView(w, h int) string {
	st := m.ctx.Styles
	if m.cur == nil || len(m.cur.points) == 0 {
		return layout.Block([]string{st.Muted.Render("—")}, w, h)
	}
	sections, titles := m.breakdownSections()
	if len(sections) == 0 {
		return layout.Block([]string{st.Muted.Render("No value_str categories or operators to break down.")}, w, h)
	}
	// Each section needs its title and a row; when the pane is too short for all of them,
	// the first ones (value_str before operators) keep theirs.
	for len(sections) > 1 && h/len(sections) < 2 {
		sections, titles = sections[:len(sections)-1], titles[:len(titles)-1]
	}
	var lines []string
	per := h / len(sections)
	for i, items := range sections {
		budget := per
		if i == len(sections)-1 {
			budget = h - len(lines)
		}
		if budget < 2 {
			break
		}
		lines = append(lines, st.Section.Render(titles[i]))
		lines = append(lines, barList(st, items, m.d.all.Count, w, budget-1, m.ctx.Keys.Breakdown.Help().Key)...)
	}
	return layout.Block(lines, w, h)
}

// tableView is the scrollable table of raw data points (visible rows only).
func (m *Model) tableView(w, h int) string {
	st := m.ctx.Styles
	if notes := m.statusNotes(); notes != nil {
		return layout.Block(wrapNotes(notes, w), w, h)
	}
	t := pointColumns(m.tstats.cols)
	widths := t.Widths(w, nil)
	var lines []string
	head := "  "
	if titles := t.Titles(widths); titles != "" {
		head += titles + " "
	}
	lines = append(lines, st.Bold.Render(head))
	pts := m.cur.points
	end := m.table.End(len(pts))
	for i := m.table.Offset; i < end; i++ {
		lead := "  "
		if i == m.table.Cursor {
			lead = "▸ " // the cursor shows without colours too
		}
		line := layout.Fit(t.Row(lead, point{m, i}, widths), w)
		if i == m.table.Cursor {
			line = st.Selected.Render(line)
		}
		lines = append(lines, line)
	}
	return layout.Block(lines, w, h)
}

// colSpec is a column of the data point table, in the order they show, with what makes it
// more or less useful. Columns keep their place; when they do not all fit, the ones with
// the highest rank number go first.
type colSpec struct {
	id, title, short string
	right            bool
	rank             int // 0 = the most useful
	cut              int // the text may be cut to this many cells (0: never cut)
}

var colSpecs = []colSpec{
	{id: "time", title: "time (UTC)", short: "time (UTC)", rank: 0},
	{id: "value", title: "value", short: "value", right: true, rank: 1},
	{id: "str", title: "value_str", short: "value_str", rank: 2, cut: 12},
	{id: "op", title: "operator", short: "op.", rank: 3, cut: 10},
	{id: "conv", title: "conversation", short: "conv.", right: true, rank: 4},
	{id: "kind", title: "op. kind", short: "kind", rank: 5},
	{id: "inter", title: "interaction", short: "inter.", rank: 6},
}

// colStat is what the whole result set holds in a column: nothing at all (every point has
// null there, or no interaction flag), and the widest cell.
type colStat struct {
	empty  bool
	widest int
	// short is true when the column holds a shorter form of every cell (the time
	// without its year, when every point is of one year).
	short bool
}

// tableStats measures the columns of the current results; derive calls it when the
// results or the names of operators changed, so View never scans every row.
type tableStats struct {
	res   *result
	names int
	cols  map[string]colStat
}

// measureTable measures every column over every data point of the current results.
func (m *Model) measureTable() {
	if m.cur == nil {
		m.tstats = tableStats{}
		return
	}
	if m.tstats.res == m.cur && m.tstats.names == m.namesSeen {
		return
	}
	cols := map[string]colStat{}
	pts := m.cur.points
	for _, c := range colSpecs {
		st := colStat{empty: c.id != "time" && c.id != "kind"}
		for i := range pts {
			p := &pts[i]
			switch c.id {
			case "value":
				st.empty = st.empty && p.Value == nil
			case "str":
				st.empty = st.empty && m.cur.strs[i] == ""
			case "op":
				st.empty = st.empty && p.OperatorID == nil
			case "conv":
				st.empty = st.empty && p.ConversationID == nil
			case "inter":
				st.empty = st.empty && Interaction(p) == GroupNoInteraction
			}
			st.widest = max(st.widest, ansi.StringWidth(m.cell(c.id, i, 0)))
		}
		if c.id == "time" && len(pts) > 0 {
			st.short = pts[0].Time.UTC().Year() == pts[len(pts)-1].Time.UTC().Year()
		}
		cols[c.id] = st
	}
	m.tstats = tableStats{res: m.cur, names: m.namesSeen, cols: cols}
}

// shortTime is the time of a point without its year ("11-20 15:04:05").
const shortTime = len("01-02 15:04:05")

// point is a row of the data point table: the point at index i of the model's results.
type point struct {
	m *Model
	i int
}

// pointColumns are the data point table's columns for the results stats measured.
// Columns empty for every data point are left out. The others come in by rank while they
// fit at their least width (the header's short form or the widest cell, or less for the
// columns that may be cut); then, by rank, each column that can grow to its whole width
// (the full header and the widest cell) does, and the room left goes to the columns that
// were cut. What remains stays blank at the end: no column is wider than it needs.
func pointColumns(stats map[string]colStat) layout.Table[point] {
	var cols []layout.Column[point]
	for _, c := range colSpecs {
		st := stats[c.id]
		if st.empty && c.id != "time" {
			continue
		}
		text := st.widest
		if c.id == "time" && st.short {
			text = shortTime
		}
		if c.cut > 0 {
			text = min(text, c.cut)
		}
		least := max(ansi.StringWidth(c.short), text)
		all := max(least, ansi.StringWidth(c.title), st.widest)
		id, right := c.id, c.right
		col := layout.Column[point]{Title: c.title, Short: c.short, Right: right, Min: least, Max: all, Whole: true,
			Drop: c.rank + 1, Cell: func(p point, w int) string {
				if right {
					return layout.PadLeft(p.m.cell(id, p.i, w), w)
				}
				return layout.Pad(p.m.cell(id, p.i, w), w)
			}}
		if c.cut > 0 {
			col.Grow = all
		}
		cols = append(cols, col)
	}
	return layout.Table[point]{Lead: 2, Columns: cols}
}

// cell is one table cell of point i (value_str already sanitized) for a column of w
// cells (0: any width); the time drops its year when w has no room for it.
func (m *Model) cell(id string, i, w int) string {
	p := &m.cur.points[i]
	switch id {
	case "time":
		if w > 0 && w < len(time.DateTime) {
			return p.Time.UTC().Format("01-02 15:04:05")
		}
		return p.Time.UTC().Format(time.DateTime)
	case "value":
		if p.Value == nil {
			return "—"
		}
		switch {
		case HasQuantity(m.metric):
			return FormatValue(m.metric.Unit, *p.Value)
		case m.metric.Unit == client.UnitID:
			return FormatID(*p.Value) // an id reads as written: 4001, not 4,001
		}
		return FormatNumber(*p.Value)
	case "str":
		if p.ValueStr == nil {
			return "—"
		}
		return m.cur.strs[i]
	case "op":
		if p.OperatorID == nil {
			return "—"
		}
		return m.operatorLabel(*p.OperatorID, p.OrganizationID)
	case "conv":
		if p.ConversationID == nil {
			return "—"
		}
		return strconv.FormatInt(*p.ConversationID, 10)
	case "kind":
		if p.IsChatbotMetric {
			return "bot"
		}
		return "human"
	case "inter":
		return Interaction(p)
	}
	return ""
}

// barItem is one line of a bar list.
type barItem struct {
	label string
	count int
	extra string
}

var eighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// barList draws items as "label ███▌ count share extra", at most n lines (the last says how
// many more there are when they do not fit).
func barList(st *theme.Styles, items []barItem, total, w, n int, allKey string) []string {
	if n <= 0 || len(items) == 0 {
		return nil
	}
	show := items
	more := 0
	switch {
	case len(items) > n && n == 1:
		show = items[:1]
	case len(items) > n:
		show, more = items[:n-1], len(items)-(n-1)
	}
	lw := 0
	for _, it := range show {
		lw = max(lw, ansi.StringWidth(it.label))
	}
	lw = min(lw, max(8, w*2/5))
	maxCount := 1
	for _, it := range show {
		maxCount = max(maxCount, it.count)
	}
	nums := make([]string, len(show))
	nw := 0
	for i, it := range show {
		nums[i] = layout.Count(it.count)
		if total > 0 {
			nums[i] += fmt.Sprintf(" %3.0f%%", float64(it.count)*100/float64(total))
		}
		if it.extra != "" {
			nums[i] += " " + layout.PadLeft(it.extra, 6)
		}
		nw = max(nw, ansi.StringWidth(nums[i]))
	}
	bw := max(0, w-lw-nw-2)
	out := make([]string, 0, len(show)+1)
	for i, it := range show {
		b := bar(float64(it.count)/float64(maxCount), bw)
		out = append(out, layout.Pad(it.label, lw)+" "+seriesStyle(st, 0).Render(layout.Pad(b, bw))+" "+layout.PadLeft(nums[i], nw))
	}
	if more > 0 {
		out = append(out, st.Muted.Render(fmt.Sprintf("+ %d more (%s: all)", more, allKey)))
	}
	return out
}

// bar is a horizontal bar of frac×w cells with eighth blocks.
func bar(frac float64, w int) string {
	if w <= 0 || frac <= 0 {
		return ""
	}
	e := int(math.Round(min(1, frac) * float64(w) * 8))
	return strings.Repeat("█", e/8) + eighths[e%8]
}
