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
// a row names the assigned operator and the topics; every line keeps the pane width.
func TestOneLineRowsShowOperatorAndTopics(t *testing.T) {
	for _, w := range []int{76, 78, 95, 96, 109, 140} {
		m, _ := preloaded(t, w, []client.Conversation{conv(2, viewtest.Now), conv(1, viewtest.Now)}, 2)
		v := m.View()
		viewtest.CheckSize(t, v, w, 12, "list")
		row := line(v, 1) // not selected
		for _, want := range []string{"Zora", "billing", "a preview"} {
			if !strings.Contains(row, want) {
				t.Errorf("%d columns: %q missing: %q", w, want, row)
			}
		}
		if ansi.StringWidth(row) != w {
			t.Errorf("%d columns: row is %d wide", w, ansi.StringWidth(row))
		}
	}
}

// TestNarrowRowsShowTopicsAndTheWholeOperator: at 78 columns several topics shrink to the
// first and a count; on two-line rows (a narrow pane) the topics never cut the operator.
func TestNarrowRowsShowTopicsAndTheWholeOperator(t *testing.T) {
	c := conv(1, viewtest.Now)
	c.Topics = []client.Topic{{ID: 1, Text: "Product question"}, {ID: 2, Text: "Sales lead"}, {ID: 3, Text: "Billing"}}
	m, _ := preloaded(t, 78, []client.Conversation{conv(2, viewtest.Now), c}, 2)
	row := line(m.View(), 1)
	if !strings.Contains(row, " +2 ") || !strings.Contains(row, "Zora") {
		t.Errorf("78 columns: want the first topic and +2, and the operator: %q", row)
	}
	for _, w := range []int{38, 50, 60} {
		m, _ := preloaded(t, w, []client.Conversation{conv(2, viewtest.Now), c}, 2)
		v := m.View()
		viewtest.CheckSize(t, v, w, 12, "list")
		second := strings.Split(v, "\n")[4] // row 1 takes lines 3 and 4
		if !strings.HasSuffix(strings.TrimRight(second, " "), "Zora Quint") {
			t.Errorf("%d columns: the operator is cut: %q", w, second)
		}
		if !strings.Contains(second, "+") {
			t.Errorf("%d columns: no sign of the topics: %q", w, second)
		}
	}
}

func TestTopicsCell(t *testing.T) {
	topics := []string{"Product question", "Sales lead", "Billing"}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{40, "Product question, Sales lead, Billing"},
		{37, "Product question, Sales lead, Billing"},
		{36, "Product question, Sales lead +1"},
		{19, "Product question +2"},
		{18, "Product questi… +2"},
		{7, "Pro… +2"},
		{6, "+3"},
		{2, "+3"},
		{1, ""},
	} {
		got := conversations.TopicsCell(topics, tc.w)
		if got != tc.want {
			t.Errorf("width %d: %q, want %q", tc.w, got, tc.want)
		}
		if ansi.StringWidth(got) > tc.w {
			t.Errorf("width %d: %q is too wide", tc.w, got)
		}
	}
	if got := conversations.TopicsCell([]string{"🇺🇦 Україна"}, 6); got != "🇺🇦 Ук…" {
		t.Errorf("a wide first topic: %q", got)
	}
	if got := conversations.TopicsCell([]string{"Technical issue"}, 11); got != "Technical…" {
		t.Errorf("a cut at a space: %q", got)
	}
	if got := conversations.TopicsCell(nil, 20); got != "" {
		t.Errorf("no topics: %q", got)
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
