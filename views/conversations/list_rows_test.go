package conversations_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

// preloaded is a list of width w on convs (count total) with a clock the test moves.
func preloaded(t *testing.T, w int, convs []client.Conversation, total int) (*conversations.Model, *time.Time) {
	t.Helper()
	ctx := viewtest.Ctx(nil)
	now := viewtest.Now
	ctx.Now = func() time.Time { return now }
	ctx.Operators = map[int64]string{7: "Zora Quint"}
	m := conversations.New(ctx)
	m.SetSize(w, 12)
	m.Focus()
	m.Preload(convs, total)
	return &m, &now
}

func conv(id int64, lastAt time.Time) client.Conversation {
	name := "Contact"
	op := int64(7)
	return client.Conversation{ID: id, Status: client.StatusPending, Contact: client.Contact{Name: &name},
		LastMessageSentAt: client.Time{Time: lastAt}, OperatorAssignedTo: &op,
		Topics:      []client.Topic{{ID: 1, Text: "billing"}},
		LastMessage: &client.Message{Body: "a preview long enough to be cut wherever the row needs the room"}}
}

// line is the view's line of row i (0 = the first row, below the header) at one line a row.
func line(v string, i int) string { return strings.Split(v, "\n")[1+i] }

// TestAgesStayCurrent: a row's age follows the clock between two frames although rows are
// rendered once and cached.
func TestAgesStayCurrent(t *testing.T) {
	m, now := preloaded(t, 100, []client.Conversation{
		conv(3, viewtest.Now.Add(-30*time.Second)),
		conv(2, viewtest.Now.Add(-150*time.Second)),
		conv(1, viewtest.Now.Add(-50*time.Minute)),
	}, 3)
	v := m.View()
	for i, want := range []string{"now", "2m", "50m"} {
		if !strings.HasSuffix(strings.TrimRight(line(v, i), " "), " "+want) {
			t.Fatalf("row %d: %q, want the age %s", i, line(v, i), want)
		}
	}
	*now = now.Add(20 * time.Second) // 2m30s becomes 2m50s: still 2m
	if m.View() != v {
		t.Fatal("the view changed although no age did")
	}
	*now = now.Add(20 * time.Minute)
	v = m.View()
	for i, want := range []string{"20m", "22m", "1h"} {
		if !strings.HasSuffix(strings.TrimRight(line(v, i), " "), " "+want) {
			t.Fatalf("20 minutes later, row %d: %q, want the age %s", i, line(v, i), want)
		}
	}
}

// TestOneLineRowsShowOperatorAndTopics: from 76 columns (a pane at 80 or at 200 columns)
// a row names the assigned operator; from 96 columns the topics too; every line keeps the
// pane width.
func TestOneLineRowsShowOperatorAndTopics(t *testing.T) {
	for _, tc := range []struct {
		w              int
		op, topics, pv bool
	}{
		{76, true, false, true},
		{78, true, false, true},
		{95, true, false, true},
		{96, true, true, true},
		{109, true, true, true},
		{140, true, true, true},
	} {
		m, _ := preloaded(t, tc.w, []client.Conversation{conv(2, viewtest.Now), conv(1, viewtest.Now)}, 2)
		v := m.View()
		viewtest.CheckSize(t, v, tc.w, 12, "list")
		row := line(v, 1) // not selected
		if got := strings.Contains(row, "Zora"); got != tc.op {
			t.Errorf("%d columns: operator shown %v, want %v: %q", tc.w, got, tc.op, row)
		}
		if got := strings.Contains(row, "billing"); got != tc.topics {
			t.Errorf("%d columns: topics shown %v, want %v: %q", tc.w, got, tc.topics, row)
		}
		if !strings.Contains(row, "a preview long") {
			t.Errorf("%d columns: the preview is gone: %q", tc.w, row)
		}
		if ansi.StringWidth(row) != tc.w {
			t.Errorf("%d columns: row is %d wide", tc.w, ansi.StringWidth(row))
		}
	}
}

// TestCountsAreSingularForOne: one conversation reads "1 conversation".
func TestCountsAreSingularForOne(t *testing.T) {
	m, _ := preloaded(t, 100, []client.Conversation{conv(1, viewtest.Now)}, 1)
	header := line(m.View(), -1)
	if !strings.HasPrefix(header, " 1 conversation ·") {
		t.Fatalf("header %q", header)
	}
	m2, _ := preloaded(t, 100, []client.Conversation{conv(2, viewtest.Now), conv(1, viewtest.Now)}, 2)
	if header := line(m2.View(), -1); !strings.HasPrefix(header, " 2 conversations ·") {
		t.Fatalf("header %q", header)
	}
}
