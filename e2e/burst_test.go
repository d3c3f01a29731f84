//go:build e2e

package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// pickerOrder is the metric picker's order: the groups in display order, each group's
// metrics as the spec lists them.
func pickerOrder() []string {
	var out []string
	for _, g := range client.MetricGroups {
		for _, info := range client.Metrics {
			if info.Group == g {
				out = append(out, string(info.Metric))
			}
		}
	}
	return out
}

// TestKeysWrittenTogetherMoveTwoRows: "jj" written in one write (tmux send-keys -l, as two
// presses arrive over a slow SSH link) moves two rows in a list, in a form's select and in
// the date-range menu; in the metric picker, where letters are filter text, it is the
// filter "jj", and two down arrows written together move two rows.
func TestKeysWrittenTogetherMoveTwoRows(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 120, 40, sb.Env)
	waitList(t, tui)
	position := regexp.MustCompile(`[│┃] (\d+)/\d+ `) // the list's "n/total" under its rows (┃ when focused in mono)

	// The conversation list: from the first row to the third.
	tui.WaitUntil(func(s string) bool { m := position.FindStringSubmatch(s); return m != nil && m[1] == "1" }, 10*time.Second, "the cursor on the first row")
	tui.Type("jj")
	tui.WaitUntil(func(s string) bool { m := position.FindStringSubmatch(s); return m != nil && m[1] == "3" }, 10*time.Second, "the cursor on the third row")

	// The filter form's status select: from "any" to the third option.
	tui.Keys("f")
	tui.WaitFor("> any", 10*time.Second)
	tui.Type("jj")
	tui.WaitFor("> ◐ pending", 10*time.Second)
	tui.Keys("Escape")
	tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "Filter conversations") }, 10*time.Second, "the form closed")

	// The metric picker: two metrics down from the current one.
	tui.Keys("4")
	tui.WaitFor("Metric", 10*time.Second)
	tui.Keys("m")
	selected := regexp.MustCompile(`▸ (um_\w+)`)
	s := tui.WaitFor("Pick a metric", 10*time.Second)
	m := selected.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no metric selected in the picker:\n%s", s)
	}
	order := pickerOrder()
	i := slices.Index(order, m[1])
	if i < 0 || i+2 >= len(order) {
		t.Fatalf("the picker starts on %q, not two metrics from the end of %q", m[1], order)
	}
	// Letters are filter text in a picker: "jj" in one write is the filter "jj", and two
	// down arrows in one write move two metrics.
	tui.Type("jj")
	tui.WaitFor("Filter: jj", 10*time.Second)
	tui.Keys("Escape")
	tui.WaitUntil(func(s string) bool { return strings.Contains(s, "Pick a metric") && !strings.Contains(s, "Filter: jj") },
		10*time.Second, "the filter cleared")
	tui.Keys("Down", "Down")
	tui.WaitUntil(func(s string) bool {
		m := selected.FindStringSubmatch(s)
		return m != nil && m[1] == order[i+2]
	}, 10*time.Second, "the picker two metrics down, on "+order[i+2])

	tui.Keys("Escape")
	tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "Pick a metric") }, 10*time.Second, "the picker closed")

	// The date-range menu: from the current preset to the one two rows below it.
	tui.Keys("d")
	s = tui.WaitFor("Date range (UTC)", 10*time.Second)
	presets := []string{"Today", "Yesterday", "Last 7 days", "Last 30 days", "Last month", "Last 90 days", "Custom…"}
	preset := regexp.MustCompile(`▸ (\S+(?: \S+)*?)  `)
	m = preset.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no preset selected in the range menu:\n%s", s)
	}
	j := slices.Index(presets, m[1])
	if j < 0 || j+2 >= len(presets) {
		t.Fatalf("the range menu starts on %q, not two rows from the end of %q", m[1], presets)
	}
	tui.Type("jj")
	tui.WaitUntil(func(s string) bool {
		m := preset.FindStringSubmatch(s)
		return m != nil && m[1] == presets[j+2]
	}, 10*time.Second, "the range menu two rows down, on "+presets[j+2])
}
