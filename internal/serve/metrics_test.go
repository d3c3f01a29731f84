package serve

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/waitfor"
)

// withMetrics gives a test hub metrics m, served on a free loopback port, and makes c (a
// client whose requests m counts) the hub's client.
func withMetrics(m *Metrics, c *client.Client) hubOption {
	return func(o *Options) { o.Metrics, o.MetricsAddr, o.Client = m, "127.0.0.1:0", c }
}

// meteredClient is a client of base with the response memory on whose requests m counts.
func (a *testAPI) meteredClient(t testing.TB, base string, m *Metrics) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: base, Token: a.info.CustomerToken, CacheTTL: 2 * time.Minute, OnRequest: m.Request})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// families is a scrape of /metrics, read by Prometheus's text parser.
type families map[string]*dto.MetricFamily

// scrape reads the hub's /metrics.
func (th *testHub) scrape(t testing.TB) families {
	t.Helper()
	resp, err := http.Get("http://" + th.MetricsAddr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// gather reads m's registry directly.
func gather(t testing.TB, m *Metrics) families {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := families{}
	for _, f := range fams {
		out[f.GetName()] = f
	}
	return out
}

// sum adds up the values of the series of name whose labels have kv (label, value, …).
func (f families) sum(name string, kv ...string) float64 {
	fam, ok := f[name]
	if !ok {
		return 0
	}
	total := 0.0
	for _, m := range fam.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for i := 0; i+1 < len(kv); i += 2 {
			if labels[kv[i]] != kv[i+1] {
				match = false
			}
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			total += m.GetCounter().GetValue()
		case m.Gauge != nil:
			total += m.GetGauge().GetValue()
		}
	}
	return total
}

// requests are the counts of parley_api_requests_total by family, method and status.
func (f families) requests() map[string]float64 {
	out := map[string]float64{}
	for _, m := range f[metricRequests].GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		out[labels["family"]+" "+labels["method"]+" "+labels["status"]] += m.GetCounter().GetValue()
	}
	return out
}

// health is the hub's /healthz: its status code and text.
func (th *testHub) health(t testing.TB) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + th.MetricsAddr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// What /metrics says is what happened: the requests by family, method and status are the
// sandbox's request log since the hub started, the sessions by role and the connections are
// the SSH sessions the test opened, the day's budget is the conversations family's count,
// and the shared poll, the memory, the write refused and the audit line are counted.
func TestMetricsTellWhatHappened(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	m := NewMetrics()
	timer := newManualTimer()
	audit := &syncBuffer{}
	ms := threeUsers(t, api)
	_, newest := firstPage(t, api)
	th := startHub(t, api, ms, withTimer(timer), withMetrics(m, api.meteredClient(t, api.run.URL, m)),
		func(o *Options) { o.Audit = NewAudit(audit, api.info.CustomerToken) })
	before := th.scrape(t)
	mark := len(api.log.lines(t))
	if n := before.sum(metricSessions); n != 0 {
		t.Fatalf("%v sessions before any connected", n)
	}

	clara := open(t, th.dial(t, "Clara"), "Clara", 120, 40)
	sam := open(t, th.dial(t, "Sam"), "Sam", 120, 40)
	vic := open(t, th.dial(t, "Vic"), "Vic", 120, 40)
	for _, term := range []*terminal{clara, sam, vic} {
		term.waitText(fmt.Sprintf("#%d", newest)) // the list's first page is in
	}
	clara.setTopic("Escalated")
	timer.fire() // one shared poll
	waitfor.True(t, "the poll's answer", func() bool { return th.scrape(t).sum(metricPolls, "outcome", "answered") == 1 })
	// A write the role refuses, as a session's client sends it: Vic is a viewer.
	if _, err := th.sessionClient(User{Name: "Vic", Role: RoleViewer}).SetOperatorAway(context.Background(), ms[0].operator, true); err == nil {
		t.Fatal("a viewer's write went through")
	}
	settle(t, th)
	after := th.scrape(t)

	// Requests: the sandbox's log since the mark, by family, method and status.
	want := map[string]float64{}
	for _, r := range api.log.lines(t)[mark:] {
		want[string(client.FamilyOfPath(r.Path))+" "+r.Method+" "+strconv.Itoa(r.Status)]++
	}
	got := after.requests()
	for k, n := range before.requests() {
		got[k] -= n
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: /metrics counts %v requests, the sandbox's log %v", k, got[k], n)
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok && n != 0 {
			t.Errorf("%s: /metrics counts %v requests the sandbox never logged", k, n)
		}
	}
	if len(want) == 0 {
		t.Fatal("the sandbox logged no request")
	}
	t.Logf("the sandbox's log since the hub started, by family, method and status: %v", want)

	// Sessions and connections: the three the test opened.
	for role, n := range map[string]float64{"agent": 1, "supervisor": 1, "viewer": 1} {
		if got := after.sum(metricSessions, "role", role); got != n {
			t.Errorf("%s sessions: %v, want %v", role, got, n)
		}
	}
	if got := after.sum(metricConnections); got != 3 {
		t.Errorf("%v connections, want 3", got)
	}

	// The day's budget: every conversations-family request of the hub's client was answered.
	conv := 0
	for _, r := range api.log.lines(t)[mark:] {
		if client.FamilyOfPath(r.Path) == client.FamilyConversations {
			conv++
		}
	}
	if got := after.sum(metricBudgetUsed, "family", "conversations"); got != float64(conv) {
		t.Errorf("conversations used today: %v, want %d", got, conv)
	}
	if got := after.sum(metricBudgetLeft, "family", "conversations"); got != float64(common.APIDailyLimit-conv) {
		t.Errorf("conversations left today: %v, want %d", got, common.APIDailyLimit-conv)
	}
	if got := after.sum(metricBudgetLimit, "family", "operators"); got != common.APIDailyLimit {
		t.Errorf("the operators family's limit: %v", got)
	}

	// The rest: the poll's pace, the memory, the refusal, the audit line, health.
	if got := after.sum(metricPollInterval); got != 30 {
		t.Errorf("the poll interval is %vs, want the configured 30s", got)
	}
	if hits := after.sum(metricMemory, "result", "hit") + after.sum(metricJoins); hits == 0 {
		t.Error("three sessions on one list: no read answered by the memory or joined")
	}
	if got := after.sum(metricRefusals, "reason", refusedViewer); got != 1 {
		t.Errorf("%v refusals of a viewer's write, want 1", got)
	}
	lines := float64(strings.Count(audit.String(), "\n"))
	if got := after.sum(metricAudit); got != lines || lines != 2 {
		t.Errorf("%v audit lines counted, %v written, want 2 (the topics, the refusal)", got, lines)
	}
	if got := after.sum(metricHealthy); got != 1 {
		t.Errorf("%s = %v, want 1", metricHealthy, got)
	}
	if _, ok := after["process_resident_memory_bytes"]; !ok {
		t.Error("no process_resident_memory_bytes")
	}

	vic.press("q")
	vic.ended()
	waitfor.True(t, "Vic's session gone", func() bool { return th.scrape(t).sum(metricSessions, "role", "viewer") == 0 })
	if got := th.scrape(t).sum(metricSessions); got != 2 {
		t.Errorf("%v sessions after Vic quit, want 2", got)
	}
}

// switchProxy passes TCP connections to target while it is on; switched off, it closes
// every connection and refuses new ones (the API stops answering), and switched on again it
// listens on the same address.
type switchProxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func newSwitchProxy(t testing.TB, target string) *switchProxy {
	p := &switchProxy{t: t, target: target, conns: map[net.Conn]struct{}{}}
	p.on()
	t.Cleanup(p.off)
	return p
}

// on listens (again, on the same address).
func (p *switchProxy) on() {
	addr := p.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				_ = c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
			go func() { _, _ = io.Copy(c, up); _ = c.Close() }()
		}
	}()
}

// off closes the listener and every connection.
func (p *switchProxy) off() {
	p.mu.Lock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
	}
	clear(p.conns)
	p.mu.Unlock()
	p.wg.Wait()
}

// /healthz answers 200 while the API answers the shared poll, 503 with the reason once a
// poll gets no answer, and 200 again after the next poll the API answers.
func TestHealthFollowsTheAPI(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	proxy := newSwitchProxy(t, api.run.Addr.String())
	m := NewMetrics()
	timer := newManualTimer()
	th := listenHub(t, api, []*member{{name: "Vic", role: "viewer"}}, withTimer(timer),
		withMetrics(m, api.meteredClient(t, "http://"+proxy.addr, m)))
	if ok, why := th.Health(); ok || why != "the hub is not serving yet" {
		t.Errorf("before Serve: %v %q", ok, why)
	}
	th.serve(t)
	waitfor.True(t, "the hub serving", func() bool { code, _ := th.health(t); return code == http.StatusOK })
	vic := open(t, th.dial(t, "Vic"), "Vic", 80, 24)
	vic.waitList()
	poll := func(outcome string, n float64) {
		t.Helper()
		timer.fire()
		waitfor.True(t, fmt.Sprintf("poll %v %s", n, outcome), func() bool { return th.scrape(t).sum(metricPolls, "outcome", outcome) == n })
	}
	poll("answered", 1)
	if code, body := th.health(t); code != http.StatusOK || !strings.HasPrefix(body, "ok: ") {
		t.Fatalf("with the API answering: %d %q", code, body)
	}

	proxy.off()
	poll("failed", 1)
	code, body := th.health(t)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "the last poll at") || !strings.Contains(body, "failed") {
		t.Errorf("with the API gone: %d %q", code, body)
	}
	if strings.Contains(body, api.info.CustomerToken) {
		t.Error("/healthz shows the token")
	}
	if got := th.scrape(t).sum(metricHealthy); got != 0 {
		t.Errorf("%s = %v with the API gone", metricHealthy, got)
	}

	proxy.on()
	poll("answered", 2)
	if code, body := th.health(t); code != http.StatusOK {
		t.Errorf("with the API back: %d %q", code, body)
	}
}

// The hub refuses a metrics address without metrics to serve there.
func TestMetricsAddrWithoutMetrics(t *testing.T) {
	t.Parallel()
	th := listenHub(t, nil, []*member{{name: "Vic", role: "viewer"}})
	t.Cleanup(func() { _ = th.ln.Close() })
	h, err := New(Options{Client: th.opts.Client, Users: th.opts.Users, HostKey: th.opts.HostKey, Keys: th.opts.Keys, Look: th.opts.Look,
		Addr: "127.0.0.1:0", MetricsAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Listen(context.Background()); err == nil {
		t.Error("a metrics address without metrics was taken")
	}
}

// docs/hub.md names every metric of the hub, and names no parley_ metric that does not
// exist.
func TestHubDocNamesEveryMetric(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "hub.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	descs := make(chan *prometheus.Desc)
	go func() {
		NewMetrics().Registry().Describe(descs)
		close(descs)
	}()
	fqName := regexp.MustCompile(`fqName: "([^"]+)"`)
	names := map[string]bool{}
	for d := range descs {
		if m := fqName.FindStringSubmatch(d.String()); m != nil && strings.HasPrefix(m[1], "parley_") {
			names[m[1]] = true
		}
	}
	if len(names) < 10 {
		t.Fatalf("only %d metrics described: %v", len(names), names)
	}
	for name := range names {
		if !strings.Contains(doc, "| `"+name+"` |") {
			t.Errorf("docs/hub.md's table of metrics has no row for %s", name)
		}
	}
	for _, m := range regexp.MustCompile("\\| `(parley_[a-z_]+)` \\|").FindAllStringSubmatch(doc, -1) {
		if !names[m[1]] {
			t.Errorf("docs/hub.md names %s, which the hub does not have", m[1])
		}
	}
}

// A panic a session's TUI catches (and goes on) is counted, and reported as before: by the
// hub's reporter, or as its value when there is none.
func TestATUIPanicIsCounted(t *testing.T) {
	t.Parallel()
	m := NewMetrics()
	th := listenHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, func(o *Options) { o.Metrics = m })
	t.Cleanup(func() { _ = th.ln.Close() })
	o := th.uiOptions(&session{user: th.currentUsers().List[0], events: make(chan client.Event)}, Look{})
	summary, path, err := o.ReportCrash(&ui.Crash{Where: "Update", Value: "boom"})
	if summary != "boom" || path != "" || err != nil {
		t.Errorf("reported %q %q %v", summary, path, err)
	}
	if n := gather(t, m).sum(metricPanics, "where", panicTUI); n != 1 {
		t.Errorf("%v panics of a TUI counted, want 1", n)
	}
}

// The budget left never wraps and stays within the limit: a count from the ledger's file
// can be any int.
func TestBudgetLeftNeverWraps(t *testing.T) {
	t.Parallel()
	for used, want := range map[int]int{0: common.APIDailyLimit, 4999: 1, 5000: 0, 7000: 0, math.MaxInt: 0,
		math.MinInt: common.APIDailyLimit, -1: common.APIDailyLimit} {
		if got := budgetLeft(used); got != want {
			t.Errorf("budgetLeft(%d) = %d, want %d", used, got, want)
		}
	}
}
