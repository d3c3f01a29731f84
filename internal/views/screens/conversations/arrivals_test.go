package conversations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// builtinViews are the views every parley has without configuration (config.ShownViews of
// an empty file), and one whose query a conversation's fields cannot judge.
var builtinViews = []common.SavedView{
	{Name: "Mine", Screen: common.ViewsConversations, Filters: map[string]string{"operator_id": client.OperatorMe}},
	{Name: "New", Screen: common.ViewsConversations, Status: client.StatusNew},
	{Name: "Found", Screen: common.ViewsConversations, Search: "order"},
}

// queueEnv is the conversations screen acting as an agent, with the built-in views, and a
// teammate's client.
type queueEnv struct {
	t        *testing.T
	m        *conversations.Model
	ctx      *common.Ctx
	sb       *sandbox.Running
	me, boss int64
	mate     *client.Client
}

func newQueueEnv(t *testing.T) *queueEnv {
	t.Helper()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	e := &queueEnv{t: t, sb: sb}
	e.me, e.boss = viewtest.AgentAndMate(t, sb)
	e.mate = viewtest.ClientVia(t, sb, nil, client.Config{OperatorID: e.boss})
	e.ctx = viewtest.Ctx(viewtest.ClientVia(t, sb, nil, client.Config{OperatorID: e.me}))
	e.ctx.Views = builtinViews
	e.m = openScreen(e.ctx, 200, 50)
	return e
}

// row is the row of views as drawn.
func (e *queueEnv) row() string {
	return strings.Split(viewtest.Plain(e.m.View()), "\n")[1]
}

func (e *queueEnv) key(k string) {
	_, cmd := e.m.Update(viewtest.Key(k))
	settle(e.m, cmd)
}

// poll hands the screen what the hub's poller would now, and returns the arrivals it
// reported.
func (e *queueEnv) poll() []common.Arrival {
	e.t.Helper()
	since := viewtest.Now.Add(-time.Hour)
	p, err := e.mate.ListConversations(context.Background(), client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: client.MaxLimit}, Filter: client.ConversationFilter{UpdatedAtFromDate: since}})
	if err != nil {
		e.t.Fatal(err)
	}
	_, cmd := e.m.Update(common.PolledMsg{Org: 1, Since: since, Reached: e.mate.ServerReached(), At: viewtest.Now, Conversations: p.Results})
	var out []common.Arrival
	var rest []tea.Cmd
	for _, msg := range viewtest.Run(cmd, wait) {
		if a, ok := msg.(common.ArrivedMsg); ok {
			out = append(out, a.Arrivals...)
			continue
		}
		_, next := e.m.Update(msg)
		rest = append(rest, next)
	}
	settle(e.m, tea.Batch(rest...))
	return out
}

// TestMineIsTheActingOperatorsQueue: the built-in view Mine lists the conversations
// assigned to the operator parley acts as, and follows when that operator changes.
func TestMineIsTheActingOperatorsQueue(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	if row := e.row(); !strings.Contains(row, "all") || !strings.Contains(row, "Mine") || !strings.Contains(row, "New") {
		t.Fatalf("the row of views: %q", row)
	}
	e.key("]")
	if e.m.ActiveView() != "Mine" || e.m.List.Query().Filter.OperatorID != e.me {
		t.Fatalf("view %q, query %+v; want Mine, operator %d", e.m.ActiveView(), e.m.List.Query().Filter, e.me)
	}
	for _, r := range e.m.List.Rows() {
		if r.OperatorID != e.me {
			t.Fatalf("Mine lists conversation %d of operator %d", r.ID, r.OperatorID)
		}
	}
	e.ctx.Client = e.ctx.Client.WithContext(0, e.boss)
	_, cmd := e.m.Update(common.ContextChangedMsg{OperatorOnly: true})
	settle(e.m, cmd)
	if q := e.m.List.Query(); q.Filter.OperatorID != e.boss || e.m.ActiveView() != "Mine" {
		t.Fatalf("after acting as %d: view %q, query %+v", e.boss, e.m.ActiveView(), q.Filter)
	}
	for _, r := range e.m.List.Rows() {
		if r.OperatorID != e.boss {
			t.Fatalf("Mine lists conversation %d of operator %d after the switch", r.ID, r.OperatorID)
		}
	}
}

// TestArrivalsMarkTheViewsThatListThem: a conversation assigned to the acting operator by
// a teammate marks the views that list it (all, Mine; New when it is new) with •1, the
// view whose query its fields cannot judge with •?, and the screen counts it, until it is
// opened.
func TestArrivalsMarkTheViewsThatListThem(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	var target int64
	var status string
	for _, r := range e.m.List.Rows() {
		if r.OperatorID != e.me && r.Status != client.StatusEnded {
			target, status = r.ID, r.Status
			break
		}
	}
	me := e.me
	if _, err := e.mate.UpdateConversation(context.Background(), target, client.ConversationUpdate{OperatorAssignedTo: &me}); err != nil {
		t.Fatal(err)
	}
	if got := e.poll(); len(got) != 1 || got[0].Conversation.ID != target {
		t.Fatalf("the poll brought %+v", got)
	}
	if u := e.m.Unseen(); u != (common.Unseen{All: 1, Mine: 1}) {
		t.Fatalf("unseen %+v", u)
	}
	row := e.row()
	t.Logf("the row of views: %q", row)
	all := e.m.List.Total()
	for _, want := range []string{fmt.Sprintf("all %d •1 ", all), "Mine •1", "Found •?"} {
		if !strings.Contains(row, want) {
			t.Errorf("the row of views lacks %q: %q", want, row)
		}
	}
	if newMarked := strings.Contains(row, "New •1"); newMarked != (status == client.StatusNew) {
		t.Errorf("conversation %d is %s; New marked: %t: %q", target, status, newMarked, row)
	}
	if got := e.poll(); len(got) != 0 {
		t.Fatalf("a second poll without a change brought %+v", got)
	}
	e.m.List.SelectID(target)
	e.key("enter")
	if u := e.m.Unseen(); u != (common.Unseen{}) {
		t.Fatalf("opened, still unseen: %+v", u)
	}
	if row := e.row(); strings.Contains(row, "•") {
		t.Fatalf("opened, the row still marks it: %q", row)
	}
}
