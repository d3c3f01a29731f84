package cli

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
)

// runRoot runs parley's root command in this process with args and returns its stdout.
func runRoot(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd("test")
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// analytics metrics --json is an array of every metric, in the table's order, each object
// with exactly the documented, stable field names.
func TestAnalyticsMetricsJSON(t *testing.T) {
	out, err := runRoot(t, "analytics", "metrics", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("not a JSON array of objects: %v\n%s", err, out)
	}
	if len(raw) != len(client.Metrics) {
		t.Fatalf("%d metrics, want %d", len(raw), len(client.Metrics))
	}
	fields := []string{"categorical", "description", "group", "metric", "unit", "value", "value_str"}
	for i, o := range raw {
		var keys []string
		for k := range o {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, fields) {
			t.Fatalf("metric %d has fields %v, want %v", i, keys, fields)
		}
	}
	var got []metricJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	table, err := runRoot(t, "analytics", "metrics")
	if err != nil {
		t.Fatal(err)
	}
	var tableOrder []string
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "um_") {
			tableOrder = append(tableOrder, f[0])
		}
	}
	var jsonOrder []string
	for _, m := range got {
		jsonOrder = append(jsonOrder, m.Metric)
		info, ok := client.LookupMetric(m.Metric)
		if !ok {
			t.Fatalf("unknown metric %q", m.Metric)
		}
		want := metricJSON{string(info.Metric), info.Group, info.Description, info.Value, info.ValueStr, string(info.Unit), info.Categorical}
		if m != want {
			t.Errorf("%s: %+v, want %+v", m.Metric, m, want)
		}
	}
	if !slices.Equal(jsonOrder, tableOrder) {
		t.Errorf("the JSON order differs from the table's:\n%v\n%v", jsonOrder, tableOrder)
	}
	dur, _ := client.LookupMetric("um_conversation_duration")
	if i := slices.Index(jsonOrder, "um_conversation_duration"); i < 0 || got[i].Unit != "seconds" || got[i].Value != dur.Value || got[i].Group != "Conversations" {
		t.Errorf("um_conversation_duration: %+v", got[max(i, 0)])
	}
}
