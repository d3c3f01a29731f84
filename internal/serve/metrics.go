package serve

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/sat"
	"github.com/parley-tui/parley/internal/views/common"
)

// Metrics is what the hub tells a monitoring system: Prometheus's text format at /metrics
// and the hub's health at /healthz of the metrics address (Options.MetricsAddr). Its
// registry is its own, never the library's global one.
//
// The API client is made before the hub: its requests reach Metrics through Request (the
// client's Config.OnRequest), and the hub plugs in later (Options.Metrics). What the hub
// knows (sessions, connections, the pollers' pace, the day's budget from the request
// ledger, the audit log) is read at each scrape. A nil *Metrics counts nothing.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	memory   *prometheus.CounterVec
	joins    *prometheus.CounterVec
	refusals *prometheus.CounterVec
	panics   *prometheus.CounterVec
	polls    *prometheus.CounterVec
	hub      atomic.Pointer[Hub]
}

// The metrics' names; docs/hub.md says what each one means.
const (
	metricSessions     = "parley_hub_sessions"
	metricConnections  = "parley_hub_connections"
	metricHealthy      = "parley_hub_healthy"
	metricRequests     = "parley_api_requests_total"
	metricBudgetUsed   = "parley_budget_used_requests"
	metricBudgetLeft   = "parley_budget_left_requests"
	metricBudgetLimit  = "parley_budget_limit_requests"
	metricNotCounted   = "parley_budget_not_counted_requests"
	metricPollInterval = "parley_poll_interval_seconds"
	metricPollStretch  = "parley_poll_stretch_factor"
	metricPace         = "parley_budget_pace_requests_per_hour"
	metricRunsOut      = "parley_budget_runs_out_timestamp_seconds"
	metricPolls        = "parley_polls_total"
	metricMemory       = "parley_memory_reads_total"
	metricJoins        = "parley_shared_reads_joined_total"
	metricRefusals     = "parley_write_refusals_total"
	metricPanics       = "parley_panics_recovered_total"
	metricAudit        = "parley_audit_lines_total"
)

// NewMetrics makes the hub's metrics with a registry of their own, which also holds the
// Go runtime's and the process's (go_*, process_*: resident memory, open files, CPU).
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: counterVec(metricRequests,
			"Requests the hub sent to the API, every attempt, by family, method and HTTP status (none: no answer came).",
			"family", "method", "status"),
		memory: counterVec(metricMemory,
			"Reads that asked the hub's response memory: hit (answered from it, nothing sent) or miss (sent, or joined to one in flight).",
			"result"),
		joins: counterVec(metricJoins,
			"Reads answered by an identical read in flight at the same time (single flight): nothing was sent for them.",
			"family"),
		refusals: counterVec(metricRefusals,
			"Writes the hub refused before sending them, by the role's reason.",
			"reason"),
		panics: counterVec(metricPanics,
			"Panics caught: in a session's TUI (it goes on), ending a session, or in the hub's own goroutines.",
			"where"),
		polls: counterVec(metricPolls,
			"Shared polls of an organization's conversations, by outcome (answered or failed).",
			"org", "outcome"),
	}
	m.reg.MustRegister(m.requests, m.memory, m.joins, m.refusals, m.panics, m.polls, hubCollector{m},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, r := range []string{"hit", "miss"} {
		m.memory.WithLabelValues(r)
	}
	for _, w := range panicPlaces {
		m.panics.WithLabelValues(w)
	}
	for _, r := range refusalReasons {
		m.refusals.WithLabelValues(r)
	}
	return m
}

// counterVec is a counter of the hub's, with its labels.
func counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

// Registry is the registry the metrics are gathered from.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Request counts one request of the hub's client (client.Config.OnRequest): an attempt
// sent, a read answered from the memory or joined to one in flight. A write the gates
// refused is counted by the hub, which knows the reason (refused).
func (m *Metrics) Request(r client.RequestInfo) {
	if m == nil || r.Refused {
		return
	}
	switch {
	case r.Cached:
		m.memory.WithLabelValues("hit").Inc()
		return
	case r.Joined:
		m.joins.WithLabelValues(string(r.Family)).Inc()
	default:
		status := "none"
		if r.Status != 0 {
			status = strconv.Itoa(r.Status)
		}
		m.requests.WithLabelValues(string(r.Family), r.Method, status).Inc()
	}
	if r.Method == http.MethodGet && r.Attempt == 0 && !r.Bypassed {
		m.memory.WithLabelValues("miss").Inc()
	}
}

// Where a panic is caught (parley_panics_recovered_total's where).
const (
	panicTUI     = "tui"     // in a session's TUI, which goes on (up to a storm of them)
	panicSession = "session" // it ended the session
	panicHub     = "hub"     // in a goroutine of the hub (a poller, a timer): the hub goes on
)

var panicPlaces = []string{panicTUI, panicSession, panicHub}

// panicked counts a panic caught at where.
func (m *Metrics) panicked(where string) {
	if m != nil {
		m.panics.WithLabelValues(where).Inc()
	}
}

// refused counts a write the hub refused before sending it, for the role's reason (one of
// refusalReasons).
func (m *Metrics) refused(reason string) {
	if m != nil {
		m.refusals.WithLabelValues(reason).Inc()
	}
}

// polled counts a shared poll of organization org.
func (m *Metrics) polled(org int64, err error) {
	if m == nil {
		return
	}
	outcome := "answered"
	if err != nil {
		outcome = "failed"
	}
	m.polls.WithLabelValues(strconv.FormatInt(org, 10), outcome).Inc()
}

// Handler serves /metrics (Prometheus's text format, or OpenMetrics when asked) and
// /healthz (200 "ok: …" while the hub serves and the API answered its last poll, 503 with
// the reason otherwise).
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		h := m.hub.Load()
		if h == nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("unhealthy: the hub has not started\n"))
			return
		}
		ok, why := h.Health()
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("unhealthy: " + why + "\n"))
			return
		}
		_, _ = w.Write([]byte("ok: " + why + "\n"))
	})
	return mux
}

// hubCollector reads the hub's state at each scrape.
type hubCollector struct{ m *Metrics }

var (
	descSessions = prometheus.NewDesc(metricSessions, "Sessions connected, by the role of their user.", []string{"role"}, nil)
	descConns    = prometheus.NewDesc(metricConnections,
		"Connections open: handshakes in progress, connections without a session and connections with sessions.", nil, nil)
	descHealthy = prometheus.NewDesc(metricHealthy,
		"1 while the hub serves and the API answered its last poll (as /healthz answers 200), else 0.", nil, nil)
	descUsed = prometheus.NewDesc(metricBudgetUsed,
		"Requests of the day (UTC) the API counted, by organization and family, from the request ledger.", []string{"org", "family"}, nil)
	descLeft = prometheus.NewDesc(metricBudgetLeft,
		"The day's limit of a family minus the requests the API counted (never below 0), by organization and family.",
		[]string{"org", "family"}, nil)
	descLimit = prometheus.NewDesc(metricBudgetLimit, "The API's daily limit of a family, per organization.", []string{"family"}, nil)
	descNot   = prometheus.NewDesc(metricNotCounted,
		"Attempts of the day the API did not count: refused (429) or unreached (no answer, a gateway's error page).",
		[]string{"org", "family", "why"}, nil)
	descPoll    = prometheus.NewDesc(metricPollInterval, "The shared poller's period for an organization now (0: not polling).", []string{"org"}, nil)
	descAudit   = prometheus.NewDesc(metricAudit, "Lines written to the audit log since the hub started.", nil, nil)
	descStretch = prometheus.NewDesc(metricPollStretch,
		"The factor the day's forecast stretches an organization's shared poll by so that its budget lasts the shift (1: none).",
		[]string{"org"}, nil)
	descPace = prometheus.NewDesc(metricPace,
		"The pace of a family's requests over the last hour (the day's average before ten minutes of looking), by organization and family; none while not known.",
		[]string{"org", "family"}, nil)
	descRunsOut = prometheus.NewDesc(metricRunsOut,
		"When a family's day's budget runs out at that pace (Unix time), by organization and family; only when that is before the API's day ends.",
		[]string{"org", "family"}, nil)
)

func (c hubCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descSessions, descConns, descHealthy, descUsed, descLeft, descLimit, descNot, descPoll, descAudit,
		descStretch, descPace, descRunsOut} {
		ch <- d
	}
}

func (c hubCollector) Collect(ch chan<- prometheus.Metric) {
	h := c.m.hub.Load()
	if h == nil {
		return
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	byRole := h.SessionsByRole()
	for _, r := range Roles {
		gauge(descSessions, float64(byRole[r]), string(r))
	}
	gauge(descConns, float64(h.Connections()))
	healthy := 0.0
	if ok, _ := h.Health(); ok {
		healthy = 1
	}
	gauge(descHealthy, healthy)
	for _, f := range client.DailyFamilies() {
		gauge(descLimit, common.APIDailyLimit, string(f))
	}
	c.budget(h, gauge)
	for org, p := range h.pollersNow() {
		now := p.state()
		gauge(descPoll, now.every.Seconds(), strconv.FormatInt(org, 10))
		gauge(descStretch, float64(now.stretch), strconv.FormatInt(org, 10))
	}
	if a := h.opts.Audit; a != nil {
		ch <- prometheus.MustNewConstMetric(descAudit, prometheus.CounterValue, float64(a.Lines()))
	}
}

// budget tells the day's counts of the request ledger: for every organization the hub's
// users work in (and any other the ledger counted today) and every limited family, what
// was counted and what is left; for the other families (analytics metrics, other) what
// was counted.
func (c hubCollector) budget(h *Hub, gauge func(*prometheus.Desc, float64, ...string)) {
	counters := h.opts.Client.Counters()
	type key struct {
		org int64
		fam client.Family
	}
	tallies := map[key]client.Tally{}
	var orgs []int64
	for _, org := range h.currentUsers().Orgs() {
		if org = counters.Effective(org); !slices.Contains(orgs, org) {
			orgs = append(orgs, org)
		}
	}
	for _, v := range counters.Snapshot() {
		tallies[key{v.OrganizationID, v.Family}] = v.Tally
		if !slices.Contains(orgs, v.OrganizationID) {
			orgs = append(orgs, v.OrganizationID)
		}
	}
	slices.Sort(orgs)
	for _, org := range orgs {
		o := strconv.FormatInt(org, 10)
		for _, f := range client.DailyFamilies() {
			t := tallies[key{org, f}]
			gauge(descUsed, float64(t.Answered), o, string(f))
			gauge(descLeft, float64(budgetLeft(t.Answered)), o, string(f))
			// The day's forecast (outlook.go): nothing while its pace is not known, and no
			// time while the budget lasts the day.
			fc := h.Forecast(org, f)
			if fc.PerHour > 0 {
				gauge(descPace, fc.PerHour, o, string(f))
			}
			if !fc.Out.IsZero() {
				gauge(descRunsOut, float64(fc.Out.Unix()), o, string(f))
			}
		}
	}
	for k, t := range tallies {
		o := strconv.FormatInt(k.org, 10)
		if !slices.Contains(client.DailyFamilies(), k.fam) {
			gauge(descUsed, float64(t.Answered), o, string(k.fam))
		}
		if t.Refused > 0 {
			gauge(descNot, float64(t.Refused), o, string(k.fam), "refused")
		}
		if t.Unreached > 0 {
			gauge(descNot, float64(t.Unreached), o, string(k.fam), "unreached")
		}
	}
}

// budgetLeft is the daily limit minus used, from 0 to the limit (used comes from a file:
// any int, which the subtraction saturates for).
func budgetLeft(used int) int {
	return min(common.APIDailyLimit, max(0, sat.Sub(common.APIDailyLimit, used)))
}

// errNoMetrics is Listen's error for a metrics address without Metrics.
var errNoMetrics = errors.New("serve: a metrics address without metrics (Options.Metrics)")
