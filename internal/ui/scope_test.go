package ui

import (
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/sandbox"
)

// TestStatusBarNamesTheAnalyticsScope: the analytics screen without an organization filter
// shows every organization a customer token reads (analytics rule 2), and the status bar
// says so instead of naming the organization the other screens work in; back on another
// screen it names that one again. With an organization token the data is of its one
// organization, and the bar does not claim several.
func TestStatusBarNamesTheAnalyticsScope(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 160, 40)
	if bar := l.statusBar(); !strings.Contains(bar, "org 1001 · as Clara") {
		t.Fatalf("the conversations screen's status bar: %q", bar)
	}
	l.Key("4")
	a := l.app.Screen().(*analytics.Model)
	l.Until("analytics", func() bool { return a.Loaded() })
	if filter, seen := a.Organizations(); len(filter) != 0 || len(seen) < 2 {
		t.Fatalf("filter %v, data of organizations %v: the test needs several organizations without a filter", filter, seen)
	}
	bar := l.statusBar()
	if !strings.Contains(bar, "all organizations · as Clara") || strings.Contains(bar, "org 1001") {
		t.Fatalf("the analytics screen's status bar: %q", bar)
	}
	l.Key("1")
	if bar := l.statusBar(); !strings.Contains(bar, "org 1001 · as Clara") {
		t.Fatalf("back on the conversations screen: %q", bar)
	}

	l, info := startApp(t, func(i sandbox.Info) string { return i.OrgTokens[1001] }, 160, 40)
	if info.OrgTokens[1001] == "" {
		t.Fatal("no organization token of 1001")
	}
	l.Key("4")
	a = l.app.Screen().(*analytics.Model)
	l.Until("analytics", func() bool { return a.Loaded() })
	if _, seen := a.Organizations(); len(seen) != 1 {
		t.Fatalf("an organization token's data covers organizations %v", seen)
	}
	if bar := l.statusBar(); !strings.Contains(bar, "all organizations of the token · as") {
		t.Fatalf("the analytics screen's status bar with an organization token: %q", bar)
	}
}
