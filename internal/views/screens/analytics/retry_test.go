package analytics

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
)

// A refresh (r) of shown results that fails says "enter tries again": enter then runs the
// query again, as fresh as the refresh was, instead of doing nothing.
func TestEnterRetriesAFailedRefresh(t *testing.T) {
	m := New(offlineCtx(t))
	m.focused = true
	m.SetSize(100, 30)
	m.start(false)
	m.Update(windowMsg{stamp: m.run.stamp, key: m.run.key, index: 0, points: []client.DataPoint{pt("2026-11-01T00:00:00", nil)}})
	if !m.Loaded() || m.running() {
		t.Fatal("the first run did not complete")
	}
	m.Update(typed("r"))
	if !m.running() || !m.run.fresh {
		t.Fatal("r did not start a fresh run")
	}
	m.Update(windowMsg{stamp: m.run.stamp, key: m.run.key, index: 0, err: context.DeadlineExceeded})
	if m.running() || m.err == "" {
		t.Fatalf("the failed refresh is not shown: running %v, err %q", m.running(), m.err)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "enter tries again") {
		t.Fatalf("the screen does not say which key tries again:\n%s", v)
	}
	m.Update(keyEnter)
	if !m.running() || !m.run.fresh {
		t.Fatalf("enter did not run the failed refresh again (running %v)", m.running())
	}
}
