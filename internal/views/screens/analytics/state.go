package analytics

import (
	"slices"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/when"
)

// State is the analytics query and how its results are shown, as parley keeps it between
// runs (the state file): the metric, the date range, the filters and operator mode, the
// chart kind, the split and the left pane. Every field reads tolerantly: a value the
// running parley does not know leaves that part as it is.
type State struct {
	Metric string `json:"metric,omitempty"`
	// Range is the preset's name (today, yesterday, last7, last30, last_month, last90) or
	// custom, with From and To (RFC 3339) and WithTime.
	Range    string    `json:"range,omitempty"`
	From     time.Time `json:"from,omitzero"`
	To       time.Time `json:"to,omitzero"`
	WithTime bool      `json:"with_time,omitempty"`
	Mode     string    `json:"mode,omitempty"`
	Orgs     []int64   `json:"organizations,omitempty"`
	Widgets  []int64   `json:"widgets,omitempty"`
	Ops      []int64   `json:"operators,omitempty"`
	Groups   []int64   `json:"groups,omitempty"`
	Chart    string    `json:"chart,omitempty"`
	Split    string    `json:"split,omitempty"`
	View     string    `json:"view,omitempty"`
}

var presetNames = map[Preset]string{
	PresetToday: "today", PresetYesterday: "yesterday", PresetLast7: "last7", PresetLast30: "last30",
	PresetLastMonth: "last_month", PresetLast90: "last90", PresetCustom: "custom",
}

var chartNames = map[ChartKind]string{ChartCount: "count", ChartMean: "mean", ChartMedian: "median"}

var splitNames = map[SplitMode]string{SplitNone: "none", SplitOperator: "operator", SplitInteraction: "interaction"}

var viewNames = map[leftView]string{viewChart: "chart", viewTable: "table", viewBreakdown: "breakdown"}

func lookup[K comparable](names map[K]string, name string) (K, bool) {
	for k, n := range names {
		if n == name {
			return k, true
		}
	}
	var zero K
	return zero, false
}

// State is the screen's query and display now.
func (m *Model) State() State {
	s := State{
		Metric: string(m.metric.Metric), Range: presetNames[m.rng.Preset], Mode: string(m.mode),
		Orgs: m.filters.Orgs, Widgets: m.filters.Widgets, Ops: m.filters.Operators, Groups: m.filters.Groups,
		Chart: chartNames[m.chart], Split: splitNames[m.split], View: viewNames[m.left],
	}
	if m.rng.Preset == PresetCustom {
		s.From, s.To, s.WithTime = m.rng.Custom.From, m.rng.Custom.To, m.rng.Custom.WithTime
	}
	return s
}

// Restore takes back a State: each known part replaces the screen's, an unknown or invalid
// one is left out (a custom range whose end is not after its start, a chart kind the metric
// has no values for). The query runs when the screen is shown, as at start-up.
func (m *Model) Restore(s State) {
	if info, ok := client.LookupMetric(s.Metric); ok {
		m.metric = info
		m.chart = DefaultChart(info)
	}
	if p, ok := lookup(presetNames, s.Range); ok {
		switch {
		case p != PresetCustom:
			m.rng = Range{Preset: p}
		case when.InRange(s.From) && when.InRange(s.To) && s.To.After(s.From):
			// Held to the years a typed date may take: a period from a damaged or edited
			// file must not become thousands of requests.
			m.rng = Range{Preset: PresetCustom, Custom: Period{From: s.From, To: s.To, WithTime: s.WithTime}}
		}
	}
	switch mode := client.OperatorMode(s.Mode); mode {
	case client.OperatorModeAll, client.OperatorModeHuman, client.OperatorModeBot:
		m.mode = mode
	}
	positive := func(ids []int64) []int64 {
		return slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return id <= 0 })
	}
	m.filters = Filters{Orgs: positive(s.Orgs), Widgets: positive(s.Widgets), Operators: positive(s.Ops), Groups: positive(s.Groups)}
	if c, ok := lookup(chartNames, s.Chart); ok && (c == ChartCount || HasQuantity(m.metric)) {
		m.chart = c
	}
	if sp, ok := lookup(splitNames, s.Split); ok {
		m.split = sp
	}
	if v, ok := lookup(viewNames, s.View); ok {
		m.left = v
	}
	m.refreshQuery()
}
