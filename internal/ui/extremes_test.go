package ui_test

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// extremeRun is one run of TestEveryNumberAtTheEndsOfInt64: the numbers the proxy rewrites
// in every answer of the API (pick chooses them by key) and what each screen must show then.
type extremeRun struct {
	name string
	v    int64
	pick func(path, key string) bool
	// want lists, per step, what the frame must show (regular expressions): the value as
	// sent, or "—" where no such number can be (a count below zero, a duration beyond what
	// a float64 counts exactly).
	want map[string][]string
}

// extremeRuns are int64's ends, in the counts (every number but ids) and in the ids.
func extremeRuns() []extremeRun {
	counts := func(_, key string) bool { return viewtest.CountKey(key) }
	ids := func(_, key string) bool { return viewtest.IDKey(key) }
	const maxS, minS = "9,223,372,036,854,775,807", "-9,223,372,036,854,775,808"
	q := regexp.QuoteMeta
	return []extremeRun{
		{"counts at the largest int64", math.MaxInt64, counts, map[string][]string{
			"conversations": {q(maxS + " conversations")},
			"bottom":        {`\d+/` + q(maxS)},
			"thread":        {`Rating\s+9223372036854775807`},
			"contacts":      {q(maxS + " contacts")},
			"contact":       {q("Conversations (" + maxS + ")")},
			"operators":     {`Slots\s+` + q(maxS+"/"+maxS)},
			"analytics":     {`Median\s+—`, `Mean\s+—`, `Data points\s+\d`},
			"navigation":    {q(maxS + " navigation events")},
		}},
		{"counts at the smallest int64", math.MinInt64, counts, map[string][]string{
			"conversations": {"— conversations"},
			"bottom":        {`\d+/—`},
			"thread":        {`Rating\s+-9223372036854775808`},
			"contacts":      {"— contacts"},
			"contact":       {q("Conversations (—)")},
			"operators":     {"slots —/—"},
			"analytics":     {`Median\s+—`, `Mean\s+—`},
			"navigation":    {"— navigation events"},
		}},
		{"ids at the largest int64", math.MaxInt64, ids, map[string][]string{
			"thread":     {q("#9223372036854775807 · "), "org 9223372036854775807"},
			"operators":  {q("(#9223372036854775807)")},
			"analytics":  {`Data points\s+\d`},
			"navigation": {"Event #9223372036854775807"},
		}},
		{"ids at the smallest int64", math.MinInt64, ids, map[string][]string{
			"thread":     {q("#-9223372036854775808 · "), "org -9223372036854775808"},
			"operators":  {q("(#-9223372036854775808)")},
			"analytics":  {`Data points\s+\d`},
			"navigation": {"Event #-9223372036854775808"},
		}},
	}
}

// extremeSteps are the keys that bring each screen's numbers on screen, from the
// conversations screen at start: the list, its bottom (past the offset cap by the /all/
// endpoint, placed by its count), a thread with its detail, the contacts list and a
// contact, the operators with the detail of one, the analytics of a metric with values
// (durations), and the navigation events.
var extremeSteps = []struct {
	name string
	keys []string
}{
	{"conversations", nil},
	{"bottom", []string{"G"}},
	{"thread", []string{"s", "s", "s", "enter"}}, // an ended conversation: it has a rating
	{"contacts", []string{"2", "esc"}},
	{"contact", []string{"enter"}},
	{"operators", []string{"3", "p"}},
	{"analytics", []string{"4"}},
	{"navigation", []string{"5", "p"}},
}

// Every number the screens show, set to int64's smallest and largest value in every answer
// of the API (the counts, slots, ratings, durations and analytics values in one run, the ids
// in another), leaves the TUI running: no panic (one would be caught and reported), no
// frame of the wrong size, and every screen shows the value or a clear "—". An int64
// minimum reaching the count formatter ended the whole process with a fatal stack
// overflow, which no recover catches.
func TestEveryNumberAtTheEndsOfInt64(t *testing.T) {
	sb := testSandbox(t)
	for _, run := range extremeRuns() {
		t.Run(run.name, func(t *testing.T) {
			p := viewtest.NewProxy(t, sb.URL)
			p.Numbers(run.v, run.pick)
			c := p.ClientWith(t, client.Config{Token: sb.Server.Info().CustomerToken})
			app := newAppWith(t, c, func(o *ui.Options) {
				o.State = &ui.State{Analytics: &analytics.State{Metric: string(client.MetricConversationDuration), Range: "last30"}}
				o.ReportCrash = func(cr *ui.Crash) (string, string, error) {
					t.Errorf("a panic in %s: %v\n%s", cr.Where, cr.Value, cr.Stack)
					return "", "", nil
				}
			})
			const w, h = 200, 50
			d := newDriver(t, app, w, h)
			d.waitFor("conversations ·") // "—" for a count no number can be
			for _, step := range extremeSteps {
				d.key(step.keys...)
				for _, want := range run.want[step.name] {
					re := regexp.MustCompile(want)
					d.Until(fmt.Sprintf("%s: %s", step.name, want), func() bool { return re.MatchString(d.view()) })
				}
				d.Settle()
				view := d.view()
				viewtest.CheckSize(t, view, w, h, step.name)
				if app.Stopped() != nil {
					t.Fatalf("%s: the TUI stopped: %+v", step.name, app.Stopped())
				}
				for _, bad := range []string{"internal error", "NaN", "Inf", "--"} {
					if strings.Contains(view, bad) {
						t.Errorf("%s: the frame shows %q:\n%s", step.name, bad, view)
					}
				}
			}
		})
	}
}
