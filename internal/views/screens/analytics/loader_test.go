package analytics

import (
	"testing"

	"github.com/parley-tui/parley/client"
)

// A window of a run replaced by another run of the same query (r while it runs, from a
// test's hand) is dropped: it answers the run left, whose request was cancelled.
func TestWindowOfAReplacedRunOfTheSameQueryIsDropped(t *testing.T) {
	m := New(offlineCtx(t))
	m.focused = true
	m.start(false)
	old, oldCtx := *m.run, m.runs.Context()
	m.start(true)
	if oldCtx.Err() == nil {
		t.Error("the replaced run's requests were not cancelled")
	}
	m.Update(windowMsg{stamp: old.stamp, key: old.key, index: 0, points: []client.DataPoint{pt("2026-11-01T00:00:00", nil)}})
	if m.Loaded() || m.run == nil || m.run.next != 0 || len(m.run.points) != 0 {
		t.Fatal("a window of the replaced run was taken")
	}
	m.Update(windowMsg{stamp: m.run.stamp, key: m.run.key, index: 0, points: []client.DataPoint{pt("2026-11-01T00:00:00", nil)}})
	if !m.Loaded() && (m.run == nil || m.run.next != 1) {
		t.Fatal("the window of the run in flight was dropped")
	}
}
