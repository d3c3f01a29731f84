package listing_test

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// arrivalsEnv is a list acting as an agent of the sandbox's default organization, and a
// client of another operator that changes conversations as a teammate would.
type arrivalsEnv struct {
	t     *testing.T
	sb    *sandbox.Running
	me    int64
	other int64
	mate  *client.Client
	c     *client.Client // the list's
	m     listing.Model
	clock *viewtest.MovingClock // the sandbox's
}

func newArrivalsEnv(t *testing.T, q listing.Query) *arrivalsEnv {
	t.Helper()
	return newArrivalsEnvBefore(t, q, nil)
}

// newArrivalsEnvBefore is newArrivalsEnv, with before run on the sandbox before the list
// loads.
func newArrivalsEnvBefore(t *testing.T, q listing.Query, before func(*arrivalsEnv)) *arrivalsEnv {
	t.Helper()
	clock := viewtest.NewMovingClock(viewtest.Now)
	sb := viewtest.Sandbox(t, sandbox.Options{Now: clock.Now})
	me, other := viewtest.AgentAndMate(t, sb)
	e := &arrivalsEnv{t: t, sb: sb, me: me, other: other, clock: clock,
		mate: viewtest.ClientVia(t, sb, nil, client.Config{OperatorID: other})}
	if before != nil {
		before(e)
	}
	e.c = viewtest.ClientVia(t, sb, nil, client.Config{OperatorID: me})
	e.m = newList(t, e.c, 100, 120, 30)
	e.m = viewtest.Settle(e.m, e.m.SetQuery(q), wait)
	if !e.m.Loaded() || len(e.m.Rows()) == 0 {
		t.Fatal("the list did not load")
	}
	return e
}

// later moves the sandbox's clock on: what changes next happens after what the list saw.
func (e *arrivalsEnv) later() { e.clock.Add(time.Minute) }

// poll is what the hub's poller would hand out now: every conversation updated in the
// last hour, as the sandbox answers.
func (e *arrivalsEnv) poll() common.PolledMsg {
	e.t.Helper()
	since := e.clock.Now().Add(-time.Hour)
	p, err := e.mate.ListConversations(context.Background(), client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: client.MaxLimit}, Filter: client.ConversationFilter{UpdatedAtFromDate: since}})
	if err != nil {
		e.t.Fatal(err)
	}
	return common.PolledMsg{Org: 1, Since: since, Reached: e.mate.ServerReached(), At: viewtest.Now, Conversations: p.Results}
}

// deliver hands msg to the list and returns the arrivals it reported.
func (e *arrivalsEnv) deliver(msg tea.Msg) []common.Arrival {
	e.t.Helper()
	var cmd tea.Cmd
	e.m, cmd = e.m.Update(msg)
	var out []common.Arrival
	for _, got := range viewtest.Run(cmd, wait) {
		if a, ok := got.(common.ArrivedMsg); ok {
			out = append(out, a.Arrivals...)
		} else {
			e.m = viewtest.Handle(e.m, got, wait)
		}
	}
	return out
}

func (e *arrivalsEnv) assign(id, to int64) {
	e.t.Helper()
	if _, err := e.mate.UpdateConversation(context.Background(), id, client.ConversationUpdate{OperatorAssignedTo: &to}); err != nil {
		e.t.Fatal(err)
	}
}

// notMine is a loaded conversation assigned to neither operator of the test.
func (e *arrivalsEnv) notMine() listing.Row {
	e.t.Helper()
	for _, r := range e.m.Rows() {
		if r.OperatorID != e.me && r.OperatorID != e.other && r.Status != client.StatusEnded {
			return r
		}
	}
	e.t.Fatal("every loaded conversation is assigned to the test's operators")
	return listing.Row{}
}

// TestAnAssignmentByAnotherClientArrivesOnce: a loaded conversation that a teammate assigns
// to the list's acting operator arrives once, in the poll that shows it, as assigned to
// them and counted as theirs; the same poll again, and a later one without a change,
// bring nothing. Opening it takes it off the count.
func TestAnAssignmentByAnotherClientArrivesOnce(t *testing.T) {
	t.Parallel()
	e := newArrivalsEnv(t, listing.Query{})
	if got := e.deliver(e.poll()); len(got) != 0 {
		t.Fatalf("a poll without a change brought arrivals: %+v", got)
	}
	r := e.notMine()
	e.assign(r.ID, e.me)
	poll := e.poll()
	got := e.deliver(poll)
	if len(got) != 1 || got[0].Conversation.ID != r.ID || !got[0].Assigned || got[0].New || got[0].Message || got[0].Name != r.Name {
		t.Fatalf("the assignment brought %+v, want conversation %d assigned (named %q)", got, r.ID, r.Name)
	}
	if u := e.m.UnseenCount(); u != (common.Unseen{All: 1, Mine: 1}) {
		t.Fatalf("unseen %+v", u)
	}
	if again := e.deliver(poll); len(again) != 0 {
		t.Fatalf("the same poll again brought %+v", again)
	}
	if later := e.deliver(e.poll()); len(later) != 0 {
		t.Fatalf("a later poll without a change brought %+v", later)
	}
	e.m.Opened(r.ID)
	if u := e.m.UnseenCount(); u != (common.Unseen{}) {
		t.Fatalf("after opening it, unseen %+v", u)
	}
}

// TestAConversationAssignedAwayIsNoLongerCounted: an arrival that another operator takes
// before it is opened leaves the count; the list's own edit (taking one, its row updated)
// is no arrival at the next poll.
func TestAConversationAssignedAwayIsNoLongerCounted(t *testing.T) {
	t.Parallel()
	e := newArrivalsEnv(t, listing.Query{})
	r := e.notMine()
	e.assign(r.ID, e.me)
	if got := e.deliver(e.poll()); len(got) != 1 {
		t.Fatalf("the assignment brought %d arrivals", len(got))
	}
	e.assign(r.ID, e.other)
	if got := e.deliver(e.poll()); len(got) != 0 {
		t.Fatalf("assigned away: %+v", got)
	}
	if u := e.m.UnseenCount(); u.All != 0 {
		t.Fatalf("taken by another operator, still counted: %+v", u)
	}

	own := e.notMine()
	me := e.me
	conv, err := e.c.UpdateConversation(context.Background(), own.ID, client.ConversationUpdate{OperatorAssignedTo: &me})
	if err != nil {
		t.Fatal(err)
	}
	e.m.UpdateRow(listing.RowFrom(*conv)) // as the screen does with the answer of its take
	if got := e.deliver(e.poll()); len(got) != 0 {
		t.Fatalf("the list's own take arrived: %+v", got)
	}
}

// TestNewConversationsAndMessagesArrive: a conversation created after the list loaded
// arrives as new when the list's query lists it (and not when it does not), and a
// message of the contact in one assigned to the acting operator arrives; one of an
// operator's does not.
func TestNewConversationsAndMessagesArrive(t *testing.T) {
	t.Parallel()
	e := newArrivalsEnv(t, listing.Query{Filter: client.ConversationFilter{Status: client.StatusNew}})
	tpl := e.poll().Conversations[0]
	fresh := tpl
	fresh.ID, fresh.Status = 1<<40, client.StatusNew
	fresh.CreatedAt = client.Time{Time: viewtest.Now.Add(time.Minute)}
	fresh.UpdatedAt = fresh.CreatedAt
	fresh.OperatorAssignedTo = nil
	ended := fresh
	ended.ID, ended.Status = 1<<40+1, client.StatusEnded
	poll := common.PolledMsg{Org: 1, Since: viewtest.Now.Add(-time.Hour), Reached: viewtest.Now.Add(2 * time.Minute), At: viewtest.Now,
		Conversations: []client.Conversation{fresh, ended}}
	got := e.deliver(poll)
	if len(got) != 1 || got[0].Conversation.ID != fresh.ID || !got[0].New || got[0].Mine() {
		t.Fatalf("the new conversations brought %+v, want %d new (the ended one is not listed)", got, fresh.ID)
	}

	mine := fresh
	mine.ID = 1<<40 + 2
	mine.CreatedAt = client.Time{Time: viewtest.Now.Add(-48 * time.Hour)}
	mine.OperatorAssignedTo = &e.me
	mine.LastMessageSentAt = client.Time{Time: viewtest.Now.Add(-time.Hour)}
	mine.UpdatedAt = mine.LastMessageSentAt
	mine.LastMessage = &client.Message{Body: "hello", Sender: client.Sender{Type: client.SenderContact}}
	e.m.UpdateRow(listing.RowFrom(mine)) // seen already (its detail was read)
	later := mine
	later.LastMessageSentAt = client.Time{Time: viewtest.Now.Add(3 * time.Minute)}
	later.UpdatedAt = later.LastMessageSentAt
	poll.Reached, poll.Conversations = viewtest.Now.Add(4*time.Minute), []client.Conversation{later}
	got = e.deliver(poll)
	if len(got) != 1 || !got[0].Message || got[0].Assigned || got[0].New {
		t.Fatalf("the contact's message brought %+v, want one message", got)
	}
	reply := later
	reply.LastMessageSentAt = client.Time{Time: viewtest.Now.Add(5 * time.Minute)}
	reply.UpdatedAt = reply.LastMessageSentAt
	reply.LastMessage = &client.Message{Body: "answer", Sender: client.Sender{Type: client.SenderOperator, ID: e.me}}
	poll.Reached, poll.Conversations = viewtest.Now.Add(6*time.Minute), []client.Conversation{reply}
	if got := e.deliver(poll); len(got) != 0 {
		t.Fatalf("an operator's reply arrived: %+v", got)
	}
	if u := e.m.UnseenCount(); u != (common.Unseen{All: 2, New: 1, Mine: 1}) {
		t.Fatalf("unseen %+v", u)
	}
}

// TestARefreshMergeFindsArrivalsWithoutARequestOfItsOwn: outside the hub the list's own
// auto-refresh brings the same arrivals, and finding them costs nothing beyond the one
// request of the merge.
func TestARefreshMergeFindsArrivalsWithoutARequestOfItsOwn(t *testing.T) {
	t.Parallel()
	log := &viewtest.RequestLog{}
	sb := viewtest.Sandbox(t, sandbox.Options{RequestLog: log})
	base := viewtest.Client(t, sb)
	ops, err := base.AllOperators(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var me int64
	for _, o := range ops {
		if o.Role == client.RoleAgent {
			me = o.ID
			break
		}
	}
	m := newList(t, viewtest.ClientVia(t, sb, nil, client.Config{OperatorID: me}), 100, 120, 30)
	m = viewtest.Settle(m, m.SetQuery(listing.Query{}), wait)
	var target listing.Row
	for _, r := range m.Rows() {
		if r.OperatorID != me && r.Status != client.StatusEnded {
			target = r
			break
		}
	}
	if _, err := base.UpdateConversation(context.Background(), target.ID, client.ConversationUpdate{OperatorAssignedTo: &me}); err != nil {
		t.Fatal(err)
	}
	before := len(log.Lines())
	var got []common.Arrival
	for _, msg := range viewtest.Run(m.RefreshChanged(), wait) {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		for _, out := range viewtest.Run(cmd, wait) {
			if a, ok := out.(common.ArrivedMsg); ok {
				got = append(got, a.Arrivals...)
			}
		}
	}
	if len(got) != 1 || got[0].Conversation.ID != target.ID || !got[0].Assigned {
		t.Fatalf("the merge brought %+v, want %d assigned", got, target.ID)
	}
	if n := len(log.Lines()) - before; n != 1 {
		t.Fatalf("the refresh and its arrivals took %d requests, want the merge's one", n)
	}
}

// TestAConversationNotSeenBeforeArrivesWhenAssignedAfterTheListLoaded: a conversation the
// list never showed (its query does not list it) that a poll shows assigned to the acting
// operator arrives when it changed after the list loaded, and not when the change came
// before.
func TestAConversationNotSeenBeforeArrivesWhenAssignedAfterTheListLoaded(t *testing.T) {
	t.Parallel()
	var early, late int64
	e := newArrivalsEnvBefore(t, listing.Query{Filter: client.ConversationFilter{Status: client.StatusEnded}}, func(e *arrivalsEnv) {
		p, err := e.mate.ListConversations(context.Background(), client.ConversationListOptions{
			ListOptions: client.ListOptions{Limit: 20}, Filter: client.ConversationFilter{Status: client.StatusPending}})
		if err != nil || len(p.Results) < 2 {
			t.Fatalf("pending conversations: %v", err)
		}
		early, late = p.Results[0].ID, p.Results[1].ID
		e.assign(early, e.me) // before the list loads: a list loading now shows it as it is
	})
	e.later()
	e.assign(late, e.me)
	got := e.deliver(e.poll())
	if len(got) != 1 || got[0].Conversation.ID != late || !got[0].Assigned {
		t.Fatalf("the poll brought %+v, want only %d assigned (%d was assigned before the list loaded)", got, late, early)
	}
}
