package conversations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sanitize"
)

// assignedCounts walks every conversation of the sandbox (the /all/ endpoint, no filter)
// and counts them by the operator they are assigned to, and by operator and status.
func assignedCounts(t *testing.T, c *client.Client) (byOp map[int64]int, byOpStatus map[string]int) {
	t.Helper()
	byOp, byOpStatus = map[int64]int{}, map[string]int{}
	for conv, err := range c.ConversationsAll(context.Background(), client.AllConversationsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if conv.OperatorAssignedTo != nil {
			byOp[*conv.OperatorAssignedTo]++
			byOpStatus[fmt.Sprintf("%d/%s", *conv.OperatorAssignedTo, conv.Status)]++
		}
	}
	return byOp, byOpStatus
}

// TestShowOperatorConversations: the operators screen's enter shows the conversations
// assigned to the operator (operator_id): exactly those the sandbox has, the header says
// "assigned to <name>" (the name sanitized), s cycles the status within them, the filter
// form shows the operator, and esc clears the filter.
func TestShowOperatorConversations(t *testing.T) {
	t.Parallel()
	m, c, _, _ := newScreen(t, 200, 50)
	byOp, byOpStatus := assignedCounts(t, c)
	var op int64
	for id, n := range byOp {
		if n > byOp[op] || n == byOp[op] && id < op {
			op = id
		}
	}
	total := m.List.Total()
	if byOp[op] < 2 || byOp[op] >= total {
		t.Fatalf("operator %d has %d of %d conversations: the test cannot tell a filter from none", op, byOp[op], total)
	}
	name := "Ben \x1b[31mOkafor"
	m.Update(viewtest.Key("tab")) // the focus elsewhere: the jump brings it back to the list
	_, cmd := m.Update(common.ShowOperatorConversationsMsg{OperatorID: op, Name: name})
	settle(m, cmd)
	if m.Focused() != conversations.PaneList {
		t.Fatalf("focus on %v, want the list", m.Focused())
	}
	check := func(status string, want int) {
		t.Helper()
		rows := m.List.Rows()
		if q := m.List.Query(); q.Filter.OperatorID != op || q.Filter.Status != status {
			t.Fatalf("query %+v, want operator %d status %q", q.Filter, op, status)
		}
		if len(rows) != want || m.List.Total() != want {
			t.Fatalf("status %q: %d rows (count %d), the sandbox has %d conversations assigned to %d", status, len(rows), m.List.Total(), want, op)
		}
		for _, r := range rows {
			if r.OperatorID != op || status != "" && r.Status != status {
				t.Fatalf("conversation %d (operator %d, %s) listed for operator %d, status %q", r.ID, r.OperatorID, r.Status, op, status)
			}
		}
		v := m.View()
		if header := strings.Split(v, "\n")[1]; !strings.Contains(header, "assigned to "+sanitize.Line(name)) {
			t.Fatalf("the header does not name the operator: %q", header)
		}
		if strings.Contains(v, "\x1b") {
			t.Fatal("the name's escape reached the screen")
		}
	}
	check("", byOp[op])

	// s cycles the status within the operator's conversations.
	_, cmd = m.Update(viewtest.Key("s"))
	settle(m, cmd)
	check(client.StatusNew, byOpStatus[fmt.Sprintf("%d/%s", op, client.StatusNew)])

	// The filter form shows the operator in its Operator field.
	form := m.List.FilterForm()
	form.SetSize(76, 30)
	form.Init()
	if v := form.View(); !strings.Contains(v, fmt.Sprintf("%s (#%d)", sanitize.Line(name), op)) {
		t.Fatalf("the filter form does not show the operator:\n%s", v)
	}

	// esc clears the filters, the operator's included.
	_, cmd = m.Update(viewtest.Key("esc"))
	settle(m, cmd)
	if q := m.List.Query(); !q.Filter.IsZero() || m.List.Total() != total {
		t.Fatalf("after esc: query %+v, %d conversations (want every one of %d)", q.Filter, m.List.Total(), total)
	}
	if strings.Contains(m.View(), "assigned to") {
		t.Fatal("the header still names the operator")
	}
}
