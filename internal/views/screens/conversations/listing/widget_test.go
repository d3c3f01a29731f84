package listing_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestWidgetColumn: from a list 118 cells wide (where the preview keeps the 29 cells it
// has at 98) every one-line row names the widget its conversation came through, in the
// column before the age; narrower, the column gives way and the row is as before. The
// widget filter (um_widget_id) narrows the list and the header names the widget.
func TestWidgetColumn(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	rowLines := func(m listing.Model) []string {
		lines := strings.Split(m.View(), "\n")
		return lines[1 : 1+min(len(m.Rows()), 6)]
	}
	m := newList(t, c, 100, 118, 8)
	m = viewtest.Settle(m, m.Load(false), wait)
	rows := m.Rows()
	seen := map[string]bool{}
	for i, l := range rowLines(m) {
		// Lead 1, status 9, unread 1, name 23, preview 29, topics 16, operator 14, each and a
		// space: the widget's 11 cells start at 99.
		want := layout.Pad(rows[i].WidgetName, 11)
		if rows[i].WidgetName == "" || ansi.Cut(l, 99, 110) != want {
			t.Fatalf("row %d does not name its widget %q at 99:\n%s", i, rows[i].WidgetName, l)
		}
		seen[rows[i].WidgetName] = true
	}
	if len(seen) < 2 {
		t.Fatalf("the first rows came through one widget only (%v): the test needs more", seen)
	}
	narrow := newList(t, c, 100, 117, 8)
	narrow = viewtest.Settle(narrow, narrow.Load(false), wait)
	for i, l := range rowLines(narrow) {
		if strings.Contains(l, layout.Pad(rows[i].WidgetName, 11)) {
			t.Fatalf("at 117 row %d still shows its widget:\n%s", i, l)
		}
	}

	id, name := rows[0].WidgetID, rows[0].WidgetName
	all := m.Total()
	m, cmd := m.Update(listing.FilterMsg{Filter: client.ConversationFilter{WidgetID: id}})
	m = viewtest.Settle(m, cmd, wait)
	if header := strings.Split(m.View(), "\n")[0]; !strings.Contains(header, "widget:"+name) {
		t.Errorf("the header does not name the widget %q: %q", name, header)
	}
	if m.Total() == 0 || m.Total() >= all {
		t.Errorf("the widget filter lists %d of %d conversations", m.Total(), all)
	}
}
