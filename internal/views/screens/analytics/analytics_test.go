package analytics

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/internal/waitfor"
	"github.com/parley-tui/parley/sandbox"
)

// fixedNow is the clock of these tests; the sandbox seeds its data relative to it.
var fixedNow = viewtest.Now

// testCtx is a view context with plain styles and the fixed clock. The client keeps the real
// clock: its per-minute limiter must see time pass.
func testCtx(t *testing.T, baseURL, token string) *common.Ctx {
	t.Helper()
	// The client's clock runs from the tests' fixed one, as the sandbox's Date header does,
	// so the server's clock the client learns (the screen's days) is the tests' day.
	start := time.Now()
	now := func() time.Time { return fixedNow.Add(time.Since(start)) }
	c, err := client.New(client.Config{BaseURL: baseURL, Token: token, HTTPClient: &http.Client{Transport: viewtest.Transport(t)}, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return viewtest.Ctx(c) // modal changes as messages, routed by the test host
}

// sandboxCtx starts an in-process sandbox (small, seed 1, fixed clock) for one test.
func sandboxCtx(t *testing.T) (*common.Ctx, *sandbox.Running) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	return testCtx(t, sb.URL, sb.Server.Info().CustomerToken), sb
}

// Keys.
func typed(s string) tea.KeyPressMsg { return viewtest.Key(s) }

var (
	keyTab   = tea.KeyPressMsg{Code: tea.KeyTab}
	keyEnter = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyEsc   = tea.KeyPressMsg{Code: tea.KeyEscape}
)

// host is the shared stand-in root (viewtest.Host) that publishes a snapshot of the
// screen's state after every update, so a test can wait for a state instead of sleeping.
// It keeps the screen's timers (the debounce of automatic runs, the countdown's clock) on
// its own clock, which only the test moves (advance).
type host struct {
	*viewtest.Host
	s     *Model
	tm    *teatest.TestModel
	clock viewtest.Timers

	mu    sync.Mutex
	state hostState
}

type hostState struct {
	updates int
	key     string
	loaded  bool
	running bool
	modals  int
	menu    bool // the screen holds automatic runs for a menu it opened
	names   int  // operator lists of organizations still on their way
	toasts  []string
}

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := h.Host.Update(msg)
	h.mu.Lock()
	h.state.updates++
	h.state.key, h.state.loaded, h.state.running, h.state.modals = h.s.key, h.s.Loaded(), h.s.running(), len(h.Modals())
	h.state.menu = h.s.menuOpen
	h.state.names = h.s.namesPending()
	if t, ok := msg.(common.ToastMsg); ok && t.Text != "" {
		h.state.toasts = append(h.state.toasts, t.Text)
	}
	h.mu.Unlock()
	return h, cmd
}

func (h *host) snapshot() hostState {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.state
	s.toasts = append([]string(nil), h.state.toasts...)
	return s
}

// waitState polls the host until ok holds.
func waitState(t *testing.T, h *host, what string, ok func(hostState) bool) hostState {
	t.Helper()
	return waitfor.Value(t, what, h.snapshot, ok)
}

func loadedNotRunning(s hostState) bool {
	return s.loaded && !s.running && s.modals == 0 && s.names == 0
}

// keyFor is the query key of a metric, preset and mode without filters.
func keyFor(metric client.Metric, p Preset, mode client.OperatorMode) string {
	return QueryKey(p.Period(fixedNow).Apply(client.AnalyticsQuery{Metric: metric, OperatorMode: mode}), 0)
}

// waitFor lets the keys pause (the debounce's RunDelay passes) and waits until the results
// of the query with key are shown.
func waitFor(t *testing.T, h *host, key string) {
	t.Helper()
	h.advance(t, RunDelay)
	waitState(t, h, "the results of "+key, func(s hostState) bool { return s.key == key && loadedNotRunning(s) })
}

// startHost runs the screen in a teatest program of w×h and lets its first query run.
func startHost(t *testing.T, ctx *common.Ctx, w, h int) (*host, *teatest.TestModel) {
	t.Helper()
	s := New(ctx)
	hs := &host{Host: viewtest.NewHost(ctx, s), s: s}
	ctx.Timer = hs.clock.Arm
	tm := teatest.NewTestModel(t, hs, teatest.WithInitialTermSize(w, h))
	hs.tm = tm
	t.Cleanup(func() { _ = tm.Quit() })
	waitState(t, hs, "the screen shown", func(s hostState) bool { return s.updates > 0 })
	hs.advance(t, RunDelay)
	waitState(t, hs, "the first query", loadedNotRunning)
	return hs, tm
}

// questionPath is the keystrokes after `4` that answer "what was our median first response
// time last month, human operators only, and how did it move day by day?".
var questionPath = []tea.KeyPressMsg{
	typed("m"), keyTab, keyTab, keyEnter, // metric: the Response times group's first, um_operator_response_time_first
	typed("d"), typed("j"), keyEnter, // range: from "Last 30 days" one down to "Last month"
	typed("h"), // operator_mode human
}

func TestQuestionPathUnderTenKeystrokes(t *testing.T) {
	if n := len(questionPath); n >= 10 {
		t.Fatalf("the path takes %d keystrokes", n)
	}
	ctx, _ := sandboxCtx(t)
	h, tm := startHost(t, ctx, 120, 40)
	waitState(t, h, "the first query", loadedNotRunning)
	// A person types slower than a modal opens: each key after the one before was handled
	// (a menu opened or closed).
	for _, k := range questionPath {
		deliver(t, h, tm, k)
	}
	waitFor(t, h, keyFor(client.MetricOperatorResponseTimeFirst, PresetLastMonth, client.OperatorModeHuman))
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := tm.FinalModel(t).(*host).s
	if m.Period().Granularity() != Daily || m.chart != ChartMedian || m.Period().String() != "2026-10-01 → 2026-10-31" {
		t.Errorf("chart %s per %s over %s; want the median per day over October", m.chart, m.Period().Granularity(), m.Period())
	}
	// The screen's median is the median of what the API returns for that question.
	want, err := ctx.Client.Analytics(context.Background(), m.Query())
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || len(want) != len(m.Points()) {
		t.Fatalf("screen has %d points, the API %d", len(m.Points()), len(want))
	}
	for _, p := range want {
		if p.IsChatbotMetric {
			t.Fatal("operator_mode human returned a bot's data point")
		}
	}
	s := Summarize(want)
	view := ansi.Strip(m.View())
	if !regexp.MustCompile(`Median\s+` + regexp.QuoteMeta(FormatDuration(s.Median)) + `\s`).MatchString(view) {
		t.Errorf("the summary does not show the median %s:\n%s", FormatDuration(s.Median), view)
	}
	if !strings.Contains(view, "Chart · median time per day") {
		t.Errorf("the chart is not the median per day:\n%s", view)
	}
}

// askTheQuestion takes the screen tm runs, its first query loaded, along the question's
// path: the operators' first response time (m), last month (d), human operators only (h).
// One step at a time, each waiting for its query: the request counts in the controls line
// are then the same on every run.
func askTheQuestion(t *testing.T, h *host, tm *teatest.TestModel) {
	t.Helper()
	rt := client.MetricOperatorResponseTimeFirst
	for _, k := range []tea.Msg{typed("m"), keyTab, keyTab, keyEnter} {
		deliver(t, h, tm, k)
	}
	waitFor(t, h, keyFor(rt, PresetLast30, ""))
	for _, k := range []tea.Msg{typed("d"), typed("j"), keyEnter} {
		deliver(t, h, tm, k)
	}
	waitFor(t, h, keyFor(rt, PresetLastMonth, ""))
	deliver(t, h, tm, typed("h"))
	waitFor(t, h, keyFor(rt, PresetLastMonth, client.OperatorModeHuman))
}

// TestGolden renders the screen at 120×40 after the question's path, then with the split by
// interaction and the table, with the fixed seed and clock.
func TestGolden(t *testing.T) {
	ctx, _ := sandboxCtx(t)
	h, tm := startHost(t, ctx, 120, 40)
	waitState(t, h, "the first query", loadedNotRunning)
	askTheQuestion(t, h, tm)
	tm.Send(typed("i"))
	tm.Send(typed("i"))
	tm.Send(keyTab)
	for range 3 {
		tm.Send(typed("j"))
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := tm.FinalModel(t).(*host).s
	if m.split != SplitInteraction || m.left != viewTable || m.table.Cursor != 3 {
		t.Fatalf("split %s, left %d, cursor %d", m.split, m.left, m.table.Cursor)
	}
	t.Run("table", func(t *testing.T) { golden.RequireEqual(t, []byte(m.View())) })
	m.left, m.split = viewChart, SplitNone
	m.derive()
	t.Run("chart", func(t *testing.T) { golden.RequireEqual(t, []byte(m.View())) })
}

func TestExportWritesTheCLIFormat(t *testing.T) {
	dir := t.TempDir()
	s := func(v string) *string { return &v }
	pts := []client.DataPoint{pt("2026-10-01T08:00:00", fp(12)), {Time: client.Time{Time: at("2026-10-02T09:00:00")}, ValueStr: s("a,\"b\"\n")}}
	p := Period{From: day("2026-10-01"), To: day("2026-10-31")}
	for _, f := range []export.Format{export.CSV, export.JSON} {
		var want bytes.Buffer
		if err := export.DataPoints(&want, f, client.MetricConversationDuration, pts); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, ExportName(client.MetricConversationDuration, p, f))
		got1, err := WriteExport(forms.OutFile{Path: name, Auto: true}, f, client.MetricConversationDuration, pts)
		if err != nil {
			t.Fatal(err)
		}
		got2, err := WriteExport(forms.OutFile{Path: name, Auto: true}, f, client.MetricConversationDuration, pts)
		if err != nil {
			t.Fatal(err)
		}
		if got1 != name || got2 == got1 || !strings.HasSuffix(got2, "-2."+string(f)) {
			t.Errorf("auto names %q then %q", got1, got2)
		}
		for _, path := range []string{got1, got2} {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, want.Bytes()) {
				t.Errorf("%s differs from the CLI's format:\n%s\nwant\n%s", path, b, want.Bytes())
			}
		}
		// A typed name is overwritten, also when it was 0644.
		if err := os.Chmod(got1, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := WriteExport(forms.OutFile{Path: got1}, f, client.MetricConversationDuration, pts[:1]); err != nil || got != got1 {
			t.Errorf("overwrite: %q %v", got, err)
		}
		// Exports hold API data: 0600, whatever the umask lets other files be.
		for _, path := range []string{got1, got2} {
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v (%v), want 0600", filepath.Base(path), fi.Mode().Perm(), err)
			}
		}
	}
	if _, err := WriteExport(forms.OutFile{Path: filepath.Join(dir, "missing", "x.csv")}, export.CSV, client.MetricConversationDuration, pts); err == nil {
		t.Error("no error for a missing directory")
	}
	// Nothing but the exports is left in the directory (no temporary files).
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 4 {
		t.Errorf("the directory holds %d entries (%v), want the 4 exports", len(entries), err)
	}
	if n := ExportName(client.MetricConversationDuration, p, export.JSON); n != "parley-um_conversation_duration-2026-10-01_2026-10-31.json" {
		t.Errorf("name %q", n)
	}
}

// usage is how many requests the client sent today for metric.
func usage(ctx *common.Ctx, metric client.Metric) int {
	return ctx.Client.Usage(client.Family("analytics:" + string(metric)))
}

// advance moves the clock of the screen's timers on by d and delivers the timers that
// fall due by then, earliest first, each once the host handled the one before.
func (h *host) advance(t *testing.T, d time.Duration) {
	t.Helper()
	h.clock.Advance(d, func(msg tea.Msg) { deliver(t, h, h.tm, msg) })
}

// deliver sends msg and waits until the host handled it and what it started on the screen:
// a menu closed by it has delivered its choice (the screen holds its runs exactly while a
// menu is open).
func deliver(t *testing.T, h *host, tm *teatest.TestModel, msg tea.Msg) {
	t.Helper()
	n := h.snapshot().updates
	tm.Send(msg)
	waitState(t, h, fmt.Sprintf("%T handled", msg), func(s hostState) bool {
		return s.updates > n && s.menu == (s.modals > 0)
	})
}

// settle sends msgs, one after the other, then lets the debounce's time pass (2×RunDelay on
// the host's fake clock) and waits until no run is left.
func settle(t *testing.T, h *host, tm *teatest.TestModel, msgs ...tea.Msg) hostState {
	t.Helper()
	for _, m := range msgs {
		deliver(t, h, tm, m)
	}
	h.advance(t, 2*RunDelay)
	return waitState(t, h, "no run", func(s hostState) bool { return !s.running })
}

func TestCacheAndViewChangesCostNoRequest(t *testing.T) {
	ctx, _ := sandboxCtx(t)
	h, tm := startHost(t, ctx, 120, 40)
	metric := DefaultMetric
	if n := usage(ctx, metric); n != 1 {
		t.Fatalf("the first query cost %d requests", n)
	}
	// Chart kind, split and table: no request.
	s := settle(t, h, tm, typed("c"), typed("i"), typed("i"), typed("i"), keyTab, keyTab)
	if n := usage(ctx, metric); n != 1 || !s.loaded {
		t.Fatalf("view changes cost %d requests (loaded %v)", n-1, s.loaded)
	}
	// Human only is a new query; back to all operators (two quick presses) is cached.
	settle(t, h, tm, typed("h"))
	waitFor(t, h, keyFor(metric, PresetLast30, client.OperatorModeHuman))
	if n := usage(ctx, metric); n != 2 {
		t.Fatalf("human only: %d requests in all", n)
	}
	s = settle(t, h, tm, typed("h"), typed("h"))
	if s.key != keyFor(metric, PresetLast30, "") || !s.loaded || usage(ctx, metric) != 2 {
		t.Fatalf("back to all operators: key %s loaded %v, %d requests in all", s.key, s.loaded, usage(ctx, metric))
	}
	// r fetches again, bypassing every cache.
	settle(t, h, tm, typed("r"))
	waitFor(t, h, keyFor(metric, PresetLast30, ""))
	if n := usage(ctx, metric); n != 3 {
		t.Fatalf("r: %d requests in all, want 3", n)
	}
}

func TestLongRangeShowsCostAndRunsOnEnter(t *testing.T) {
	ctx, _ := sandboxCtx(t)
	h, tm := startHost(t, ctx, 120, 40)
	metric := client.MetricConversationDuration
	p, err := ParseCustom("119d", "today", fixedNow)
	if err != nil || p.Days() != 120 {
		t.Fatalf("120 days: %+v %v", p, err)
	}
	settle(t, h, tm, metricPickedMsg{metric: metric}, rangePickedMsg{r: Range{Preset: PresetCustom, Custom: p}})
	s := h.snapshot()
	if s.loaded || s.running || usage(ctx, metric) != 0 {
		t.Fatalf("a 2-request query ran by itself: %+v, %d requests", s, usage(ctx, metric))
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := tm.FinalModel(t).(*host).s
	view := ansi.Strip(m.View())
	for _, want := range []string{"2 requests (≤93 days each)", "enter runs it", "Press enter to run it.", "120 days"} {
		if !strings.Contains(view, want) {
			t.Errorf("the screen does not say %q:\n%s", want, view)
		}
	}
	// enter runs both windows, one after the other; the result is the API's whole range.
	_, cmd := m.Update(keyEnter)
	if !m.running() || m.run.next != 0 || len(m.run.windows) != 2 {
		t.Fatalf("enter did not start a 2-window run: %+v", m.run)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Loading window 1 of 2") || !strings.Contains(v, "running: window 1 of 2") {
		t.Errorf("no progress shown:\n%s", v)
	}
	drain(t, m, cmd)
	if !m.Loaded() || usage(ctx, metric) != 2 {
		t.Fatalf("loaded %v after %d requests", m.Loaded(), usage(ctx, metric))
	}
	want, err := ctx.Client.Analytics(context.Background(), m.Query())
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != len(m.Points()) || len(want) == 0 {
		t.Fatalf("%d points on screen, %d from the API", len(m.Points()), len(want))
	}
	view = ansi.Strip(m.View())
	if !regexp.MustCompile(`Data points\s+` + regexp.QuoteMeta(layout.Thousands(len(want))) + `\s`).MatchString(view) {
		t.Errorf("the summary count is not %d:\n%s", len(want), view)
	}
}

// drain runs cmd and every command that follows from it against m, like Bubble Tea would
// (batches concurrently, the rest in order), ignoring the countdown clock and modals.
func drain(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	walk(t, cmd, func(msg tea.Msg) tea.Cmd {
		switch msg.(type) {
		case clockTickMsg, common.ToastMsg, nil:
			return nil
		}
		_, next := m.Update(msg)
		return next
	})
}

// walk runs cmd and the commands it batches one after the other, hands each message to
// handle and runs the command handle returns in turn.
func walk(t *testing.T, cmd tea.Cmd, handle func(tea.Msg) tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	deadline := time.Now().Add(30 * time.Second)
	for len(queue) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("commands did not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if batch, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, batch...)
			continue
		}
		queue = append(queue, handle(msg))
	}
}

// lastWeek is a screen on ctx asking for metric over the last 7 days, sized w×h
// (loadSynthetic then gives it results).
func lastWeek(ctx *common.Ctx, metric client.Metric, w, h int) *Model {
	m := New(ctx)
	m.Update(metricPickedMsg{metric: metric})
	m.Update(rangePickedMsg{r: Range{Preset: PresetLast7}})
	m.SetSize(w, h)
	return m
}

// loadSynthetic puts pts in as the results of m's current query, as a finished run would.
func loadSynthetic(t *testing.T, m *Model, pts []client.DataPoint) {
	t.Helper()
	m.focused = true
	if cmd := m.start(false); cmd == nil {
		t.Fatalf("no run started: %s", m.err)
	}
	for i := range m.run.windows {
		var part []client.DataPoint
		if i == 0 {
			part = pts
		}
		m.Update(windowMsg{stamp: m.run.stamp, key: m.run.key, index: i, points: part})
	}
	if !m.Loaded() {
		t.Fatal("synthetic results not loaded")
	}
}

func offlineCtx(t *testing.T) *common.Ctx {
	return testCtx(t, "http://127.0.0.1:9", "token")
}

func TestStaleResultsDropped(t *testing.T) {
	m := New(offlineCtx(t))
	m.focused = true
	m.start(false)
	old, oldCtx := *m.run, m.runs.Context()
	m.Update(typed("h")) // another query: the old run is cancelled
	if m.run != nil {
		t.Fatal("the run of the previous query was not stopped")
	}
	if oldCtx.Err() == nil {
		t.Error("the previous run's context was not cancelled")
	}
	m.Update(windowMsg{stamp: old.stamp, key: old.key, index: 0, points: []client.DataPoint{pt("2026-11-01T00:00:00", nil)}})
	if m.Loaded() || len(m.cache) != 0 {
		t.Fatal("a stale window was taken")
	}
	// A late window of a run that is current but for the wrong index is dropped too.
	m.start(false)
	m.Update(windowMsg{stamp: m.run.stamp, key: m.run.key, index: 5})
	if m.Loaded() || m.run == nil || m.run.next != 0 {
		t.Fatal("a window out of order was taken")
	}
	// An error keeps nothing and says what happened.
	cmd := func() tea.Cmd {
		_, c := m.Update(windowMsg{stamp: m.run.stamp, key: m.run.key, index: 0, err: context.DeadlineExceeded})
		return c
	}()
	if m.running() || m.Loaded() || m.err == "" || cmd == nil {
		t.Fatalf("error not shown: %q", m.err)
	}
	if v := ansi.Strip(m.View()); v != "" {
		t.Fatal("a view before SetSize")
	}
	m.SetSize(100, 30)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "failed:") || !strings.Contains(v, "Press enter to try again") {
		t.Errorf("error view:\n%s", v)
	}
}

func hostilePoints() []client.DataPoint {
	s := func(v string) *string { return &v }
	op := func(id int64) *int64 { return &id }
	var pts []client.DataPoint
	strs := []string{"online", "away\x1b[31m\x07red", "\u202eevil\u202c", "a\r\nb\tc", "\x9b2J", "emoji 👩‍💻", viewtest.Invisible}
	for i := range 40 {
		p := client.DataPoint{Time: client.Time{Time: fixedNow.Add(-time.Duration(i) * 7 * time.Hour)}, OperatorID: op(int64(i % 3)),
			ValueStr: s(strs[i%len(strs)]), IsChatbotMetric: i%4 == 0}
		if i%5 != 0 {
			p.Value = fp(float64(i * 13))
			p.HumanInteraction = bp(i%2 == 0)
			p.ChatbotInteraction = bp(i%3 == 0)
		}
		pts = append(pts, p)
	}
	client.SortDataPoints(pts)
	return pts
}

func TestUntrustedTextSanitized(t *testing.T) {
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{1: "Ada"}
	m := lastWeek(ctx, client.MetricOperatorStatus, 160, 40)
	loadSynthetic(t, m, hostilePoints())
	for _, left := range []leftView{viewChart, viewTable} {
		m.left = left
		m.moveTable(typed("G"))
		v := m.View()
		viewtest.CheckInert(t, v, fmt.Sprintf("view %d", left))
		if !strings.Contains(v, "␛") {
			t.Errorf("escape not shown as a stand-in (view %d):\n%s", left, v)
		}
	}
	if !strings.Contains(m.View(), "emoji 👩💻") {
		t.Error("emoji lost (the sanitizer splits joined sequences into their emoji)")
	}
}

func TestViewIsExactlyItsSize(t *testing.T) {
	sizes := [][2]int{{80, 18}, {80, 22}, {81, 19}, {99, 30}, {120, 38}, {200, 48}, {80, 8}}
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{1: "Ada Lovelace-Byron the Second"}
	check := func(name string, m *Model) {
		t.Helper()
		for _, sz := range sizes {
			m.SetSize(sz[0], sz[1])
			lines := strings.Split(m.View(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%s at %dx%d: %d lines", name, sz[0], sz[1], len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Fatalf("%s at %dx%d: line %d is %d wide: %q", name, sz[0], sz[1], i, w, l)
				}
			}
		}
	}
	m := New(ctx)
	check("before any query", m)
	m.Update(rangePickedMsg{r: Range{Preset: PresetCustom, Custom: Period{From: day("2026-01-01"), To: day("2026-11-20")}}})
	check("an expensive query", m)
	m.Update(metricPickedMsg{metric: client.MetricConversationStatusDuration})
	m.Update(rangePickedMsg{r: Range{Preset: PresetToday}})
	loadSynthetic(t, m, hostilePoints())
	for _, split := range []SplitMode{SplitNone, SplitOperator, SplitInteraction} {
		for _, left := range []leftView{viewChart, viewTable} {
			for _, kind := range []ChartKind{ChartCount, ChartMean, ChartMedian} {
				m.split, m.left, m.chart = split, left, kind
				m.derive()
				check(fmt.Sprintf("split %s, view %d, %s", split, left, kind), m)
			}
		}
	}
	// No data points at all, and a single one.
	m.split, m.left = SplitNone, viewChart
	m.Update(rangePickedMsg{r: Range{Preset: PresetYesterday}})
	loadSynthetic(t, m, nil)
	check("no data points", m)
	m.SetSize(120, 38)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "No data points for this query.") {
		t.Errorf("empty results:\n%s", v)
	}
	m.Update(rangePickedMsg{r: Range{Preset: PresetLast90}})
	loadSynthetic(t, m, []client.DataPoint{pt("2026-11-01T10:00:00", fp(65))})
	check("one data point", m)
	m.SetSize(120, 38)
	if v := ansi.Strip(m.View()); !regexp.MustCompile(`Median\s+1m05s`).MatchString(v) {
		t.Errorf("single point:\n%s", v)
	}
}

func TestExportToast(t *testing.T) {
	m := New(offlineCtx(t))
	_, cmd := m.Update(typed("e"))
	if msg, ok := cmd().(common.ToastMsg); !ok || !msg.Error {
		t.Fatalf("export without results: %#v", msg)
	}
	_, cmd = m.Update(common.TaskDoneMsg{Kind: KindExport, Result: ExportResult{Path: "x.csv", Points: 1234}})
	if msg, ok := cmd().(common.ToastMsg); !ok || msg.Text != "Wrote 1,234 data points to x.csv" {
		t.Fatalf("toast %#v", msg)
	}
}

func TestPickerAndMenus(t *testing.T) {
	ctx := offlineCtx(t)
	p := newMetricPicker(ctx, DefaultMetric)
	p.SetSize(116, 36)
	p.Update(keyTab)
	if p.Selected() != client.MetricChatMessagesTotal {
		t.Errorf("tab: %s, want the Messages group's first metric", p.Selected())
	}
	p.Update(keyTab)
	if p.Selected() != client.MetricOperatorResponseTimeFirst {
		t.Errorf("tab tab: %s", p.Selected())
	}
	p.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	p.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	p.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	if p.Selected() != client.MetricConversationSessionCount {
		t.Errorf("shift+tab wraps to the last group: %s", p.Selected())
	}
	p.Update(viewtest.Key("end"))
	p.Update(viewtest.Key("down"))
	if p.Selected() != client.MetricConversationSessionDurationReEngage {
		t.Errorf("bottom: %s", p.Selected())
	}
	v := ansi.Strip(p.View())
	for _, want := range []string{"Sessions", "um_conversation_session_duration_re_engage", "A session in which only operators were active. value: seconds. value_str: re-engage."} {
		if !strings.Contains(v, want) {
			t.Errorf("the picker does not show %q:\n%s", want, v)
		}
	}
	if _, cmd := p.Update(keyEsc); cmd == nil {
		t.Error("esc does nothing")
	}

	// While a menu of the screen is open, a one-request query waits for it to close.
	m := New(ctx)
	m.focused = true
	menuHolds(t, m, "m", "the picker")
	_, cmd := m.Update(metricPickedMsg{metric: client.MetricConversationRating})
	if cmd == nil || m.menuOpen || !m.pending {
		t.Fatal("picking a metric schedules no run")
	}
	m.Update(runTickMsg{seq: m.seq})
	if !m.running() || m.metric.Metric != client.MetricConversationRating {
		t.Fatal("the scheduled run did not start")
	}

	// The range menu shows each preset's dates and cost and starts on the current one.
	r := newRangeMenu(ctx, Range{Preset: PresetLast30}, m.Query())
	r.SetSize(116, 36)
	if r.Selected() != PresetLast30 {
		t.Errorf("range menu starts on %s", r.Selected().Label())
	}
	r.Update(typed("j"))
	if r.Selected() != PresetLastMonth {
		t.Errorf("one down from last 30 days is %s", r.Selected().Label())
	}
	v = ansi.Strip(r.View())
	if !strings.Contains(v, "Last month    2026-10-01 → 2026-10-31") || !strings.Contains(v, "Custom…") {
		t.Errorf("range menu:\n%s", v)
	}
}

func TestNoRequestWhileHidden(t *testing.T) {
	m := New(offlineCtx(t))
	if cmd := m.Init(); cmd != nil {
		t.Fatal("Init requests something")
	}
	if _, cmd := m.Update(common.ContextChangedMsg{}); cmd != nil {
		t.Fatal("a context change schedules a run for a hidden screen")
	}
	if _, cmd := m.Update(typed("h")); cmd != nil || m.run != nil {
		t.Fatal("a change while hidden schedules a run")
	}
	cmd := m.Focus()
	if cmd == nil {
		t.Fatal("showing the screen does not run its query")
	}
	m.Update(runTickMsg{seq: m.seq})
	if !m.running() {
		t.Fatal("the scheduled run did not start")
	}
	m.Blur()
	if _, cmd := m.Update(common.RefreshMsg{Auto: true}); cmd != nil {
		t.Fatal("auto-refresh spends analytics requests")
	}
}

// Typing filters the picker as every picker filters (internal/views/components/picker): each word fuzzily, in
// the name, theme or description, best match first under its theme; arrows move among the
// matches; enter picks; esc clears the filter before it cancels.
func TestPickerFilter(t *testing.T) {
	ctx := offlineCtx(t)
	p := newMetricPicker(ctx, DefaultMetric)
	p.SetSize(116, 36)
	for _, k := range viewtest.Keys("unanswered service") {
		p.Update(k)
	}
	want := []client.Metric{
		client.MetricOperatorResponseTimeToUnansweredSessionFirstST,
		client.MetricOperatorResponseTimeToUnansweredSessionST,
	}
	var got []client.Metric
	for _, mt := range p.pick.Shown() {
		got = append(got, p.all[mt.Item].Metric)
	}
	if len(got) < 2 || !slices.Contains(got[:2], want[0]) || !slices.Contains(got[:2], want[1]) {
		t.Fatalf("filter %q shows %v first, want %v", p.pick.Query(), got, want)
	}
	if i := slices.Index(got, client.MetricOperatorResponseTimeToUnansweredSession); i >= 0 && i < 2 {
		t.Errorf("a metric without \"service\" in its name ranks %d: %v", i, got)
	}
	if p.Selected() != got[0] {
		t.Errorf("selected %s, want the best match %s", p.Selected(), got[0])
	}
	v := ansi.Strip(p.View())
	for _, s := range []string{fmt.Sprintf("%d of %d metrics", len(got), len(client.Metrics)), "Filter: unanswered service", "Response times", string(got[1])} {
		if !strings.Contains(v, s) {
			t.Errorf("the filtered picker does not show %q:\n%s", s, v)
		}
	}
	// j is text; the arrow moves.
	p.Update(typed("j"))
	if p.pick.Query() != "unanswered servicej" {
		t.Errorf("j typed %q", p.pick.Query())
	}
	p.Update(viewtest.Key("backspace"))
	p.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if p.Selected() != got[1] {
		t.Errorf("down: %s, want %s", p.Selected(), got[1])
	}
	_, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	var picked client.Metric
	for _, msg := range viewtest.Run(cmd, time.Second) {
		if m, ok := msg.(metricPickedMsg); ok {
			picked = m.metric
		}
	}
	if picked != got[1] {
		t.Errorf("enter picked %q, want %s", picked, got[1])
	}

	// Nothing matches: a message, enter does nothing; esc clears, then cancels.
	p.Update(typed("ŋ"))
	if len(p.pick.Shown()) != 0 || p.Selected() != "" || !strings.Contains(ansi.Strip(p.View()), "No metric matches") {
		t.Fatalf("no-match state: %d shown, view:\n%s", len(p.pick.Shown()), ansi.Strip(p.View()))
	}
	if _, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil {
		t.Error("enter with nothing to pick did something")
	}
	if _, cmd := p.Update(keyEsc); cmd != nil || p.pick.Query() != "" || len(p.pick.Shown()) != len(p.all) {
		t.Errorf("esc did not just clear the filter (%q, %d shown)", p.pick.Query(), len(p.pick.Shown()))
	}
	if p.Selected() == "" {
		t.Error("nothing selected after clearing the filter")
	}
	if _, cmd := p.Update(keyEsc); cmd == nil {
		t.Error("the second esc does not cancel")
	}
}

// At 80×24 (the screen gets 22 lines) the breakdown of a categorical metric shows its
// value_str categories (and, for a metric without a quantity, its operators too), and the
// summary of a quantity keeps its statistics.
func TestShortScreenShowsTheBreakdown(t *testing.T) {
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{1: "Ada"}
	for _, metric := range []client.Metric{client.MetricOperatorStatus, client.MetricConversationStatusDuration} {
		m := lastWeek(ctx, metric, 80, 22)
		loadSynthetic(t, m, hostilePoints())
		v := ansi.Strip(m.View())
		want := []string{"By value_str", "Data points 40"}
		if !HasQuantity(m.metric) {
			want = append(want, "By operator", "Ada")
		}
		for _, want := range want {
			if !strings.Contains(v, want) {
				t.Errorf("%s at 80×22 does not show %q:\n%s", metric, want, v)
			}
		}
		if HasQuantity(m.metric) {
			for _, want := range []string{"Median", "p90", "Max"} {
				if !strings.Contains(v, want) {
					t.Errorf("%s at 80×22: the summary lost %q:\n%s", metric, want, v)
				}
			}
		} else if strings.Contains(v, "Median") {
			t.Errorf("%s has no quantity but the summary lists a median:\n%s", metric, v)
		}
	}
}

// A window held back by the 10/min limit shows its countdown in full, also in the narrow
// chart pane of an 80-column terminal.
func TestQueuedCountdownFits(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := New(offlineCtx(t))
		m.focused = true
		m.SetSize(w, 22)
		m.start(false)
		m.run.queuedUntil = m.now.Add(15 * time.Second)
		v := ansi.Strip(m.View())
		if !strings.Contains(v, "goes out in 15s") || !strings.Contains(v, "10 requests per minute per metric") {
			t.Errorf("at %d columns the countdown is cut:\n%s", w, v)
		}
	}
}

// Values that are ids (topic, goal, survey option) show as the API sends them.
func TestIDValuesHaveNoSeparators(t *testing.T) {
	m := New(offlineCtx(t))
	m.Update(metricPickedMsg{metric: client.MetricConversationTopic})
	m.Update(rangePickedMsg{r: Range{Preset: PresetToday}})
	m.SetSize(120, 38)
	loadSynthetic(t, m, []client.DataPoint{pt("2026-11-20T10:00:00", fp(4001))})
	m.left = viewTable
	v := ansi.Strip(m.View())
	if !strings.Contains(v, " 4001 ") || strings.Contains(v, "4,001") {
		t.Errorf("the topic id is not shown as 4001:\n%s", v)
	}
}

// With a customer token the results cover every organization, and the root's directory
// names only the current one's operators: the others are named from their organization's
// operator list, asked once per organization for the whole run, never again for the next
// query. Until then (or when the list fails) an operator shows as its id and organization.
func TestOperatorsOfOtherOrganizationsAreNamed(t *testing.T) {
	ctx, sb := sandboxCtx(t)
	info := sb.Server.Info()
	own, err := ctx.Client.ListOperators(t.Context(), client.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	ctx.Operators = map[int64]string{}
	for _, o := range own.Results {
		ctx.Operators[o.ID] = o.DisplayName
	}
	m := New(ctx)
	m.SetSize(160, 48)
	opsUsage := func() int { // requests are counted per organization
		n := ctx.Client.Usage(client.FamilyOperators)
		for _, org := range info.OrgIDs {
			n += ctx.Client.WithContext(org, 0).Usage(client.FamilyOperators)
		}
		return n
	}
	before := opsUsage()
	m.focused = true
	drain(t, m, m.start(false))
	if !m.Loaded() {
		t.Fatalf("no results: %s", m.err)
	}
	others := map[int64]int64{} // operator → organization, for operators not in the directory
	for _, p := range m.Points() {
		if p.OperatorID != nil && ctx.Operators[*p.OperatorID] == "" {
			others[*p.OperatorID] = p.OrganizationID
		}
	}
	if len(others) == 0 {
		t.Fatalf("the results have no operator of another organization (orgs %v)", info.OrgIDs)
	}
	if n := opsUsage() - before; n != 1 {
		t.Fatalf("naming the other organization's operators cost %d operator requests, want 1", n)
	}
	for id, org := range others {
		if got := m.operatorLabel(id, org); strings.HasPrefix(got, "#") {
			t.Errorf("operator %d of organization %d is shown as %q", id, org, got)
		}
	}
	if got := m.operatorLabel(99999, 4242); got != "#99999 · org 4242" {
		t.Errorf("an operator nobody names: %q", got)
	}
	// Another query with the same operators asks for nothing more.
	m.mode = client.OperatorModeHuman
	m.refreshQuery()
	drain(t, m, m.start(false))
	if n := opsUsage() - before; n != 1 {
		t.Fatalf("a second query cost %d operator requests in all, want 1", n)
	}
}

// When the breakdown pane cannot hold every row, it says how many more there are and which
// key shows them: b puts every row of every breakdown in the left pane, scrolled with the
// move keys; b or esc returns to the chart.
func TestWholeBreakdownShowsEveryRow(t *testing.T) {
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{}
	var pts []client.DataPoint
	at := fixedNow.Add(-24 * time.Hour)
	for op := int64(1); op <= 30; op++ {
		ctx.Operators[op] = fmt.Sprintf("Operator%02d", op)
		for range op { // operator n has n points: a stable order, most first
			id := op
			pts = append(pts, client.DataPoint{OrganizationID: 1, OperatorID: &id, Time: client.Time{Time: at}})
		}
	}
	m := New(ctx)
	m.Update(rangePickedMsg{r: Range{Preset: PresetLast7}})
	m.SetSize(80, 22)
	loadSynthetic(t, m, pts)
	v := ansi.Strip(m.View())
	if !regexp.MustCompile(`\+ \d+ more \(b: all\)`).MatchString(v) {
		t.Fatalf("the short breakdown does not say how to see the rest:\n%s", v)
	}
	key := func(s string) { m.Update(typed(s)) }
	key("b")
	seen := map[string]bool{}
	for range 40 {
		v = ansi.Strip(m.View())
		if !strings.Contains(v, "Breakdown · every row") {
			t.Fatalf("b did not show the whole breakdown:\n%s", v)
		}
		for op := 1; op <= 30; op++ {
			if name := fmt.Sprintf("Operator%02d", op); strings.Contains(v, name) {
				seen[name] = true
			}
		}
		key("j")
	}
	if len(seen) != 30 {
		t.Fatalf("scrolling the whole breakdown showed %d of 30 operators", len(seen))
	}
	key("g")
	if v = ansi.Strip(m.View()); !strings.Contains(v, "By operator · 30") || !strings.Contains(v, "Operator30") {
		t.Fatalf("g did not return to the top of the breakdown:\n%s", v)
	}
	m.Update(keyEsc)
	if v = ansi.Strip(m.View()); strings.Contains(v, "Breakdown · every row") || !strings.Contains(v, "Chart ·") {
		t.Fatalf("esc did not return to the chart:\n%s", v)
	}
}

// At 80 columns the summary split three ways keeps its columns apart: every value is a
// word of its own and the group names all show.
func TestNarrowSplitSummaryKeepsColumnsApart(t *testing.T) {
	ctx := offlineCtx(t)
	m := lastWeek(ctx, client.MetricOperatorResponseTimeFirst, 80, 22)
	pts := hostilePoints()
	for i := range pts { // durations of minutes, as wide as the summary's values get
		if pts[i].Value != nil {
			v := *pts[i].Value * 97
			pts[i].Value = &v
		}
	}
	loadSynthetic(t, m, pts)
	m.split = SplitInteraction
	m.derive()
	summary := ""
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if i := strings.LastIndex(l, "││"); i >= 0 {
			summary += l[i+len("││"):] + "\n"
		}
	}
	var head, sum []string
	for _, l := range strings.Split(summary, "\n") {
		f := strings.Fields(strings.Trim(l, "│"))
		switch {
		case len(f) > 0 && f[0] == "Sum":
			sum = f
		case len(f) >= 3 && head == nil && f[0] == "human":
			head = f
		}
	}
	if h := strings.Join(head, " "); (h != "human bot both" && h != "human bot both none") || len(sum) != len(head)+1 {
		t.Fatalf("header %q, sum row %q:\n%s", head, sum, summary)
	}
}

// At 80 columns the Cost line of a query of several requests, waiting for the limit,
// still ends with the key that runs it.
func TestNarrowCostLineKeepsTheRunKey(t *testing.T) {
	m := New(offlineCtx(t))
	from := fixedNow.AddDate(0, 0, -206)
	m.Update(rangePickedMsg{r: Range{Preset: PresetCustom, Custom: Period{From: from, To: fixedNow}}})
	m.SetSize(80, 22)
	m.free, m.delay = 0, 15*time.Second
	if cost := viewtest.LineWith(m.View(), "Cost"); !strings.Contains(cost, "3 requests") || !strings.Contains(cost, "enter runs it") || ansi.StringWidth(cost) != 80 {
		t.Fatalf("cost line %q", cost)
	}
}

// The filter form offers the operators of other organizations once the results named them.
func TestFilterFormOffersOperatorsOfOtherOrganizations(t *testing.T) {
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{1: "Ada"}
	f := filterForm(ctx, Filters{Operators: []int64{7}}, "", map[int64]string{7: "Zed"})
	f.SetSize(76, 40)
	_ = f.Init()
	v := ansi.Strip(f.View())
	if !strings.Contains(v, "Ada (#1)") || !strings.Contains(v, "Zed (#7)") {
		t.Fatalf("the form does not offer both operators:\n%s", v)
	}
}

// controlLine is the line of the query pane that starts with label, without its frame.
func controlLine(t *testing.T, m *Model, label string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if l = strings.Trim(l, "│"); strings.HasPrefix(l, label) {
			return l
		}
	}
	t.Fatalf("no %q line:\n%s", label, ansi.Strip(m.View()))
	return ""
}

// Many filters do not fit the Filters line: each is summed up ("operators: Ben +2") before
// the line is cut, a cut ends in "…", and the key hints stay at its end.
func TestFiltersLineDegrades(t *testing.T) {
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{2002: "Ben", 2005: "Aylin", 2012: "Harbor Assistant"}
	m := New(ctx)
	m.Update(filtersMsg{f: Filters{Orgs: []int64{1001, 1002}, Widgets: []int64{3003, 3001},
		Operators: []int64{2002, 2005, 2012}, Groups: []int64{5001}}})
	for _, tc := range []struct {
		w    int
		want []string
	}{
		{160, []string{"organization #1001 or #1002", "widget #3003 or #3001", "operator Ben or Aylin or Harbor Assistant", "group #5001"}},
		{120, []string{"operators: Ben +2", "group #5001", "widget #3003 or #3001"}},
		{80, []string{"orgs: ", "widgets: ", "operators: ", "group"}},
	} {
		m.SetSize(tc.w, 24)
		line := controlLine(t, m, "Filters")
		if !strings.HasSuffix(line, "h mode · f filters") || strings.Contains(line, "…") {
			t.Errorf("at %d columns the key hints are gone or the line is cut: %q", tc.w, line)
		}
		for _, want := range tc.want {
			if !strings.Contains(line, want) {
				t.Errorf("at %d columns the line does not say %q: %q", tc.w, want, line)
			}
		}
	}
	// Cut anyway (a very narrow screen): the cut ends in "…", the hints stay.
	m.SetSize(60, 24)
	line := controlLine(t, m, "Filters")
	if !strings.HasSuffix(line, "h mode · f filters") || !strings.Contains(line, "…") {
		t.Errorf("at 60 columns: %q", line)
	}
	// Without filters the hints stay at 80 columns too, and so do the others'.
	m = New(ctx)
	m.SetSize(80, 24)
	for label, hint := range map[string]string{"Filters": "h mode · f filters", "Range": "d change", "Metric": "m pick"} {
		if line := controlLine(t, m, label); !strings.HasSuffix(line, hint) {
			t.Errorf("at 80 columns the %s line lost its hint: %q", label, line)
		}
	}
}

// Typing the question's path at an ordinary pace costs one request: a query runs by itself
// only once the keys stop for RunDelay, and every key on the screen restarts that wait.
func TestTypingThePathCostsOneRequest(t *testing.T) {
	for _, gap := range []time.Duration{100 * time.Millisecond, 300 * time.Millisecond, 600 * time.Millisecond} {
		t.Run(gap.String(), func(t *testing.T) {
			ctx, _ := sandboxCtx(t)
			h, tm := startHost(t, ctx, 120, 40)
			for _, k := range questionPath {
				deliver(t, h, tm, k)
				h.advance(t, gap)
			}
			h.advance(t, RunDelay) // the keys pause
			rt := client.MetricOperatorResponseTimeFirst
			waitFor(t, h, keyFor(rt, PresetLastMonth, client.OperatorModeHuman))
			if n := usage(ctx, rt); n != 1 {
				t.Errorf("keys %s apart cost %d requests, want 1", gap, n)
			}
		})
	}
}

// A key that does not change the query still restarts the wait: the run waits for the
// keys to pause, and meanwhile the screen says so.
func TestAnyKeyPostponesTheAutomaticRun(t *testing.T) {
	m := New(offlineCtx(t))
	m.focused = true
	m.SetSize(120, 40)
	m.Update(typed("h"))
	first := m.seq
	if !m.armed || m.run != nil {
		t.Fatalf("h did not arm a run (armed %v)", m.armed)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Runs when you pause.") || !strings.Contains(v, "human operators only") {
		t.Errorf("the pending query is not shown:\n%s", v)
	}
	m.Update(typed("i")) // the split: no new query
	m.Update(runTickMsg{seq: first})
	if m.run != nil {
		t.Fatal("the run started although a key came within RunDelay")
	}
	m.Update(runTickMsg{seq: m.seq})
	if !m.running() || m.armed {
		t.Fatal("the run did not start after the pause")
	}
}

// "N free this minute" follows the clock while the screen is shown: the clock keeps ticking
// while a request of the metric is still inside the minute, and stops once none is.
func TestFreeThisMinuteFollowsTheClock(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	c := viewtest.ClientVia(t, sb, nil, client.Config{Now: clock})
	m := New(viewtest.Ctx(c))
	m.SetSize(120, 40)
	m.Focus()
	drain(t, m, m.start(false))
	if !m.Loaded() || m.free != 9 {
		t.Fatalf("loaded %v, %d free", m.Loaded(), m.free)
	}
	advance(30 * time.Second)
	if _, cmd := m.Update(clockTickMsg{seq: m.clockSeq}); cmd == nil {
		t.Fatal("the clock stopped while a request is still inside the minute")
	}
	advance(31 * time.Second)
	_, cmd := m.Update(clockTickMsg{seq: m.clockSeq})
	if line := controlLine(t, m, "Cost"); !strings.Contains(line, "10 free this minute") {
		t.Errorf("a minute after the request: %q", line)
	}
	if cmd != nil || m.ticking {
		t.Error("the clock still ticks with every request free")
	}
	// Hidden, the screen does not tick; shown again with a request in the minute, it does.
	drain(t, m, m.start(true))
	m.Blur()
	if _, cmd := m.Update(clockTickMsg{seq: m.clockSeq}); cmd != nil || m.free != 9 {
		t.Errorf("hidden with %d free, the clock ticks: %v", m.free, cmd != nil)
	}
	if cmd := m.Focus(); cmd == nil {
		t.Error("showing the screen with a request in the minute starts no clock")
	}
}

// chartLines is the chart pane's inside: the lines between the pane's top and bottom
// borders, without the borders (the chart pane is the left one).
func chartLines(t *testing.T, m *Model) []string {
	t.Helper()
	m.left = viewChart
	return paneLines(t, m)
}

// paneLines is the inside of the left pane, whatever it shows.
func paneLines(t *testing.T, m *Model) []string {
	t.Helper()
	all := strings.Split(ansi.Strip(m.View()), "\n")
	iw, ih := m.leftInner()
	var out []string
	for _, l := range all[controlsHeight+1 : controlsHeight+1+ih] {
		r := []rune(l)
		out = append(out, string(r[1:1+iw]))
	}
	return out
}

// The time axis is labelled on whole hours (midnight by its date) or whole days, and
// each label starts in the column of its bucket.
func TestChartLabelsOnWholeHoursAndDays(t *testing.T) {
	m := New(offlineCtx(t))
	m.Update(rangePickedMsg{r: Range{Preset: PresetCustom, Custom: Period{From: day("2026-11-19"), To: day("2026-11-20")}}})
	m.SetSize(120, 40)
	var pts []client.DataPoint
	for h := range 48 {
		pts = append(pts, pt(fixedNow.Truncate(24*time.Hour).Add(time.Duration(h-24)*time.Hour+time.Minute).Format("2006-01-02T15:04:05"), nil))
	}
	loadSynthetic(t, m, pts)
	lines := chartLines(t, m)
	axis := strings.Fields(lines[len(lines)-1])
	if len(axis) < 4 {
		t.Fatalf("axis labels %q", axis)
	}
	whole := regexp.MustCompile(`^(\d\d:00|\d\d-\d\d)$`)
	for _, l := range axis {
		if !whole.MatchString(l) {
			t.Errorf("label %q is not a whole hour: %q", l, axis)
		}
	}
	if !slices.Contains(axis, "11-20") {
		t.Errorf("midnight is not labelled by its date: %q", axis)
	}
	// Whole days: every label is a day, the labels at least labelCells columns apart,
	// and each starts where its day starts (the chart puts a label in the column of its
	// time: see package plot).
	first, end := day("2026-10-22"), day("2026-11-21")
	gw := 70
	labels := xLabels(first, end, Daily, gw)
	if len(labels) < 4 {
		t.Fatalf("day labels %v", labels)
	}
	prev := -labelCells
	for _, l := range labels {
		col := int(float64(l.At.Sub(first)) / float64(end.Sub(first)) * float64(gw))
		if !l.At.Equal(dayOf(l.At)) || l.Text != l.At.Format("01-02") || col-prev < labelCells {
			t.Errorf("label %q at %s, column %d, %d after the one before", l.Text, l.At, col, col-prev)
		}
		prev = col
	}
}

// A mean has no value in an hour without data points: its columns stay empty instead of
// joining the hours around the gap; a count is 0 there, the lowest bar.
func TestChartLeavesEmptyBucketsOfMeansOut(t *testing.T) {
	m := New(offlineCtx(t))
	m.Update(metricPickedMsg{metric: client.MetricOperatorSlotUsage})
	m.Update(rangePickedMsg{r: Range{Preset: PresetToday}})
	m.SetSize(120, 40)
	loadSynthetic(t, m, []client.DataPoint{pt("2026-11-20T05:10:00", fp(80)), pt("2026-11-20T11:20:00", fp(20))})
	if m.chart != ChartMean {
		t.Fatalf("slot usage opens with the %s", m.chart)
	}
	c := checkPlotted(t, m)[0]
	n := len(c.group.buckets)
	if n < 12 || !c.group.buckets[0].Start.Equal(day("2026-11-20")) {
		t.Fatalf("%d buckets from %s", n, c.group.buckets[0].Start)
	}
	valued := func(x int) bool { // the column is one of 05:00 or 11:00
		for _, hour := range []int{5, 11} {
			if c0, c1 := bucketColumns(hour, n, c.Width); x >= c0 && x < c1 {
				return true
			}
		}
		return false
	}
	for x, h := range c.Heights {
		if (h != -1) != valued(x) {
			t.Errorf("the mean of two hours far apart: column %d has a bar of %d eighths:\n%s", x, h, strings.Join(chartLines(t, m), "\n"))
		}
	}
	// As counts, the hours between are 0.
	m.chart = ChartCount
	m.derive()
	c = checkPlotted(t, m)[0]
	for x, h := range c.Heights {
		if (h > 1) != valued(x) || h < 1 {
			t.Errorf("the count of two hours far apart: column %d has a bar of %d eighths:\n%s", x, h, strings.Join(chartLines(t, m), "\n"))
		}
	}
}

// Split charts share one value scale: every group's chart has the same value labels on
// the same lines, whatever the pane's height.
func TestSplitChartsShareTheirScale(t *testing.T) {
	m := lastWeek(offlineCtx(t), client.MetricConversationDuration, 120, 40)
	pts := hostilePoints()
	for i := range pts {
		if pts[i].Value != nil {
			v := *pts[i].Value * 17
			pts[i].Value = &v
		}
	}
	loadSynthetic(t, m, pts)
	for _, split := range []SplitMode{SplitOperator, SplitInteraction} {
		m.split = split
		m.derive()
		for _, h := range []int{40, 39, 38, 37, 33} {
			m.SetSize(120, h)
			var panes [][]string
			for _, l := range chartLines(t, m) {
				switch {
				case strings.HasPrefix(l, "■"):
					panes = append(panes, nil)
				case len(panes) > 0:
					label := ""
					if i := strings.IndexAny(l, "│├└┤┼"); i > 0 {
						label = strings.TrimSpace(l[:i])
					}
					panes[len(panes)-1] = append(panes[len(panes)-1], label)
				}
			}
			if len(panes) < 2 {
				t.Fatalf("split %s at height %d: %d charts", split, h, len(panes))
			}
			for i := range panes {
				panes[i] = slices.DeleteFunc(panes[i], func(s string) bool { return s == "" })
				if !slices.Equal(panes[i], panes[0]) {
					t.Errorf("split %s at height %d: chart %d has value labels %q, chart 1 %q", split, h, i+1, panes[i], panes[0])
				}
			}
		}
	}
}

// tableHeader is the table's header line (without the pane's border).
func tableHeader(t *testing.T, m *Model) string {
	t.Helper()
	m.left = viewTable
	return strings.TrimSpace(paneLines(t, m)[0])
}

// The table shows the columns that say something: a column empty for every data point
// goes first (value_str of a duration), then the least useful; headers are never cut, and
// wide screens spread the room over the columns instead of one.
func TestTableColumnsByUsefulness(t *testing.T) {
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{1: "Ada", 2: "Grace Hopper"}
	m := lastWeek(ctx, client.MetricConversationDuration, 80, 22)
	var pts []client.DataPoint
	for i := range 20 {
		op, conv := int64(1+i%2), int64(700100+i)
		pts = append(pts, client.DataPoint{Time: client.Time{Time: fixedNow.Add(-time.Duration(i) * time.Hour)},
			Value: fp(float64(60 * (i + 1))), OperatorID: &op, ConversationID: &conv, HumanInteraction: bp(true)})
	}
	client.SortDataPoints(pts)
	loadSynthetic(t, m, pts)
	head := tableHeader(t, m)
	if strings.Contains(head, "value_str") || !strings.Contains(head, "operator") || !strings.Contains(head, "conv") {
		t.Errorf("at 80 columns a duration's table shows %q; want operator and conversation, not the empty value_str", head)
	}
	m.SetSize(200, 48)
	head = tableHeader(t, m)
	for _, want := range []string{"time (UTC)", "value", "operator", "conversation", "op. kind", "interaction"} {
		if !strings.Contains(head, want) {
			t.Errorf("at 200 columns the header %q does not show %q in full", head, want)
		}
	}
	if strings.Contains(head, "…") || strings.Contains(head, "value_str") {
		t.Errorf("header %q", head)
	}

	// A categorical metric with long value_str: every header in full at 200 columns, and
	// no column much wider than what it holds.
	m.Update(metricPickedMsg{metric: client.MetricOperatorStatus})
	loadSynthetic(t, m, hostilePoints())
	head = tableHeader(t, m)
	for _, want := range []string{"value_str", "operator", "op. kind", "interaction"} {
		if !strings.Contains(head, want) {
			t.Errorf("at 200 columns the header %q does not show %q in full", head, want)
		}
	}
	if i, j := strings.Index(head, "value_str"), strings.Index(head, "operator"); j-i > 30 {
		t.Errorf("value_str takes %d columns for values of at most 20: %q", j-i, head)
	}
}

// enter on a table row opens the whole data point, sanitized, whatever the table cut.
func TestTableRowDetail(t *testing.T) {
	ctx := offlineCtx(t)
	ctx.Operators = map[int64]string{2: "Grace Hopper"}
	m := lastWeek(ctx, client.MetricConversationGoalReached, 80, 22)
	long := "Booked a demo with the sales team\x1b]52;c;Zm9v\x07 after reading the whole pricing page twice"
	op, conv, grp := int64(2), int64(4242), int64(5001)
	loadSynthetic(t, m, []client.DataPoint{{Time: client.Time{Time: fixedNow.Add(-time.Hour)}, OrganizationID: 1001,
		WidgetIDs: client.IDList{3001, 3003}, OperatorID: &op, OperatorGroupID: &grp, ConversationID: &conv,
		Value: fp(17), ValueStr: &long, ChatbotInteraction: bp(false), HumanInteraction: bp(true)}})
	m.Update(keyTab)
	if v := ansi.Strip(m.View()); strings.Contains(v, "pricing page twice") {
		t.Fatalf("the table is wide enough to show the whole value_str; the test needs a cut:\n%s", v)
	}
	m.Update(keyEnter)
	modal := viewtest.Opened(ctx)
	if modal == nil {
		t.Fatal("enter on a row opens nothing")
	}
	modal.SetSize(76, 20)
	raw := modal.View()
	if strings.ContainsAny(raw, "\x07") || strings.Contains(raw, "\x1b]52") {
		t.Fatalf("control characters reach the screen: %q", raw)
	}
	v := strings.Join(strings.Fields(ansi.Strip(raw)), " ")
	for _, want := range []string{"pricing page twice", "Grace Hopper", "#2", "4242", "5001", "3001 3003", "1001", "17", "human only"} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail does not show %q:\n%s", want, ansi.Strip(raw))
		}
	}
	if modal.Update(keyEsc); !viewtest.Closed(ctx) {
		t.Error("esc does not close the detail")
	}
}

// The export toast names the whole path of the file written, not just its name.
func TestExportToastNamesTheWholePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ctx := offlineCtx(t)
	m := New(ctx)
	m.Update(rangePickedMsg{r: Range{Preset: PresetLast7}})
	m.SetSize(120, 40)
	loadSynthetic(t, m, []client.DataPoint{pt("2026-11-19T10:00:00", nil)})
	m.Update(typed("e"))
	form := viewtest.Opened(ctx)
	if form == nil {
		t.Fatal("e opened no form")
	}
	form.SetSize(116, 38)
	viewtest.Run(form.Init(), 100*time.Millisecond)
	_, cmd := form.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	var toast string
	for _, msg := range viewtest.Run(cmd, 5*time.Second) {
		if done, ok := msg.(common.TaskDoneMsg); ok {
			_, c := m.Update(done)
			if c != nil {
				if tm, ok := c().(common.ToastMsg); ok {
					toast = tm.Text
				}
			}
		}
	}
	want := filepath.Join(dir, ExportName(DefaultMetric, m.Period(), export.CSV))
	if !strings.HasSuffix(toast, " to "+want) {
		t.Fatalf("toast %q, want it to name %s", toast, want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatal(err)
	}
}

// A range entirely in the future has no data yet: the screen says so and sends nothing,
// neither by itself nor on enter or r, and the custom range form refuses it. A range
// that only ends in the future runs as typed.
func TestFutureRangeSendsNothing(t *testing.T) {
	ctx, _ := sandboxCtx(t)
	h, tm := startHost(t, ctx, 120, 40)
	future, err := ParseCustom("2026-11-30", "2027-01-20", fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	metric := DefaultMetric
	before := usage(ctx, metric)
	s := settle(t, h, tm, rangePickedMsg{r: Range{Preset: PresetCustom, Custom: future}}, keyEnter, typed("r"))
	if n := usage(ctx, metric) - before; n != 0 || s.running || s.loaded {
		t.Fatalf("a range in the future cost %d requests (state %+v)", n, s)
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := tm.FinalModel(t).(*host).s
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "This range is in the future: no data yet.") || !strings.Contains(controlLine(t, m, "Cost"), "no request") {
		t.Errorf("the screen does not say the range is in the future:\n%s", v)
	}
	// Ending in the future is fine: the range goes out as typed.
	ends, err := ParseCustom("2026-11-10", "2026-12-10", fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(rangePickedMsg{r: Range{Preset: PresetCustom, Custom: ends}})
	drain(t, m, m.start(false))
	if !m.Loaded() || len(m.Points()) == 0 || m.Period().String() != "2026-11-10 → 2026-12-10" {
		t.Fatalf("a range ending in the future: loaded %v, %d points, %s (%s)", m.Loaded(), len(m.Points()), m.Period(), m.err)
	}

	// The custom form refuses it before it closes.
	form := customForm(ctx, future)
	form.SetSize(116, 38)
	viewtest.Run(form.Init(), 100*time.Millisecond)
	_, cmd := form.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	for _, msg := range viewtest.Run(cmd, time.Second) {
		if _, ok := msg.(rangePickedMsg); ok {
			t.Fatal("the form took a range in the future")
		}
	}
	if v := ansi.Strip(form.View()); !strings.Contains(v, "in the future") {
		t.Errorf("the form does not say why:\n%s", v)
	}
}

// menuHolds presses k, which must open a menu of the screen (what), and checks that no query
// runs while it is open.
func menuHolds(t *testing.T, m *Model, k, what string) {
	t.Helper()
	m.Update(typed(k))
	if !m.menuOpen {
		t.Fatalf("%s did not open %s", k, what)
	}
	m.Update(runTickMsg{seq: m.seq})
	if m.run != nil {
		t.Fatalf("a query ran while %s was open", what)
	}
}

// While the filter form is open a pending query does not run; esc on the form lets it run
// after the pause, and so does applying the filters.
func TestFilterFormHoldsTheAutomaticRun(t *testing.T) {
	m := New(offlineCtx(t))
	m.focused = true
	m.SetSize(120, 40)
	m.Update(typed("h"))
	if !m.armed {
		t.Fatal("h did not arm a run")
	}
	menuHolds(t, m, "f", "the filter form")

	// esc closes the form and tells the screen.
	form := filterForm(m.ctx, m.filters, m.mode, m.names)
	form.SetSize(120, 40)
	form.Init()
	_, cmd := form.Update(keyEsc)
	var closed bool
	walk(t, cmd, func(msg tea.Msg) tea.Cmd {
		if msg, ok := msg.(menuClosedMsg); ok {
			closed = true
			m.Update(msg)
		}
		return nil
	})
	if !closed || m.menuOpen {
		t.Fatalf("esc on the filter form: closed %v, still holding %v", closed, m.menuOpen)
	}
	m.Update(runTickMsg{seq: m.seq})
	if !m.running() {
		t.Fatal("the pending query did not run after the form closed")
	}

	// Applying filters ends the hold too.
	m2 := New(offlineCtx(t))
	m2.focused = true
	m2.Update(typed("f"))
	m2.Update(filtersMsg{f: Filters{Widgets: []int64{3001}}, mode: client.OperatorModeAll})
	if m2.menuOpen {
		t.Fatal("applied filters still hold automatic runs")
	}
	m2.Update(runTickMsg{seq: m2.seq})
	if !m2.running() {
		t.Fatal("the filtered query did not run")
	}
}
