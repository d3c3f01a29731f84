package conversations_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sandbox"
)

// actionScreen is the conversations screen acting as the sandbox's agent, run by a Loop,
// with the cursor on conversation id, which prep put into a known state first.
type actionScreen struct {
	*viewtest.Screen
	m       *conversations.Model
	c       *client.Client // the customer token, as the owner: reads the server's state
	info    sandbox.Info
	patches *viewtest.Recorder
	id      int64
	names   map[int64]string
	base    int // the PATCHes of the preparation
}

// newActionScreen starts a sandbox with opts, answers through wrap (nil: as it is), puts
// the second conversation of the first page into the state prep makes and opens the screen
// on it as the agent.
func newActionScreen(t *testing.T, opts sandbox.Options, wrap func(http.RoundTripper) http.RoundTripper,
	prep func(c *client.Client, id int64, info sandbox.Info) error) *actionScreen {
	t.Helper()
	rec := &viewtest.Recorder{}
	e := viewtest.NewEnv(t, opts, func(next http.RoundTripper) http.RoundTripper {
		if wrap != nil {
			next = wrap(next)
		}
		rec.Next = next
		return rec
	})
	page, err := e.Client.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 2}})
	if err != nil || len(page.Results) < 2 {
		t.Fatalf("first page: %v", err)
	}
	id := page.Results[1].ID
	if err := prep(e.Client, id, e.Info); err != nil {
		t.Fatalf("prepare conversation %d: %v", id, err)
	}
	ctx := viewtest.Ctx(e.Client.WithContext(0, e.Info.RestrictedOperatorID))
	names := map[int64]string{}
	for op, err := range e.Client.Operators(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		names[op.ID] = op.DisplayName
	}
	ctx.Operators = names
	m := openScreen(ctx, 200, 50)
	if !m.List.SelectID(id) {
		t.Fatalf("conversation %d is not on the first page", id)
	}
	return &actionScreen{Screen: viewtest.RunScreen(t, ctx, m, 200, 50), m: m, c: e.Client, info: e.Info, patches: rec, id: id, names: names,
		base: len(rec.Requests("PATCH", ""))}
}

// server is the conversation as the sandbox has it now.
func (s *actionScreen) server(t *testing.T) *client.Conversation {
	t.Helper()
	conv, err := s.c.GetConversation(client.Fresh(t.Context()), s.id)
	if err != nil {
		t.Fatal(err)
	}
	return conv
}

// row is the conversation's list row.
func (s *actionScreen) row(t *testing.T) listing.Row {
	t.Helper()
	r, ok := s.m.List.Row(s.id)
	if !ok {
		t.Fatalf("conversation %d is no longer a row", s.id)
	}
	return r
}

// sent is the number of PATCHes the screen sent.
func (s *actionScreen) sent() int { return len(s.patches.Requests("PATCH", "")) - s.base }

// question is the open modal's text on one line.
func (s *actionScreen) question(t *testing.T) string {
	t.Helper()
	return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(s.Modal().View()), "│", " ")), " ")
}

func assignTo(op int64) func(c *client.Client, id int64, _ sandbox.Info) error {
	return func(c *client.Client, id int64, _ sandbox.Info) error {
		u := client.ConversationUpdate{OperatorAssignedTo: &op, Unassign: op == 0}
		_, err := c.UpdateConversation(client.Fresh(context.Background()), id, u)
		return err
	}
}

// assignToOwner and assignToAgent assign the conversation to the sandbox's owner operator
// and to its agent, the operator the screen acts as.
func assignToOwner(c *client.Client, id int64, info sandbox.Info) error {
	return assignTo(info.OwnerOperatorID)(c, id, info)
}

func assignToAgent(c *client.Client, id int64, info sandbox.Info) error {
	return assignTo(info.RestrictedOperatorID)(c, id, info)
}

func setStatus(status string, read bool) func(c *client.Client, id int64, _ sandbox.Info) error {
	return func(c *client.Client, id int64, _ sandbox.Info) error {
		_, err := c.UpdateConversation(client.Fresh(context.Background()), id, client.ConversationUpdate{Status: &status, MarkedReadOperator: &read})
		return err
	}
}

func assignee(c *client.Conversation) int64 {
	if c.OperatorAssignedTo == nil {
		return 0
	}
	return *c.OperatorAssignedTo
}

// T on an unassigned conversation assigns it to the acting operator without asking; the
// row and the detail show the server's answer.
func TestTakeAssignsToTheActingOperator(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, assignTo(0))
	agent := s.info.RestrictedOperatorID
	s.Key("enter", "T") // from the thread pane: the open conversation
	if s.H.Top() != nil {
		t.Fatalf("taking an unassigned conversation asked:\n%s", s.H.Top().View())
	}
	s.Until("taken", func() bool { return s.row(t).OperatorID == agent })
	if got := assignee(s.server(t)); got != agent {
		t.Fatalf("the server has operator %d, want the agent %d", got, agent)
	}
	if d, ok := s.m.Detail.Conversation(); !ok || d.ID != s.id || assignee(&d) != agent {
		t.Fatalf("the detail does not show the agent: %+v", d.OperatorAssignedTo)
	}
	if want := fmt.Sprintf("Took conversation #%d.", s.id); s.H.LastToast() != want {
		t.Fatalf("toast %q, want %q", s.H.LastToast(), want)
	}
	s.Key("T") // already the agent's: nothing to send
	if n := s.sent(); n != 1 || !strings.Contains(s.H.LastToast(), "already assigned to you") {
		t.Fatalf("T again: %d PATCHes, toast %q", n, s.H.LastToast())
	}
}

// T on a conversation another operator has asks first, naming both; n sends nothing, y
// takes it.
func TestTakeFromAnotherOperatorAsks(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, assignToOwner)
	owner := s.info.OwnerOperatorID
	s.Key("T")
	q := s.question(t)
	if want := fmt.Sprintf("is assigned to %s. Take it from them?", s.names[owner]); !strings.Contains(q, want) ||
		!strings.Contains(q, fmt.Sprintf("#%d", s.id)) {
		t.Fatalf("question %q, want the conversation and %q", q, want)
	}
	s.Key("n")
	if s.sent() != 0 || assignee(s.server(t)) != owner {
		t.Fatalf("n sent %d PATCHes", s.sent())
	}
	s.Key("T")
	s.Modal()
	s.Key("y")
	s.Until("taken", func() bool { return s.row(t).OperatorID == s.info.RestrictedOperatorID })
	if got := assignee(s.server(t)); got != s.info.RestrictedOperatorID {
		t.Fatalf("the server has operator %d", got)
	}
}

// A opens a picker of the operators by display name with their away/online state; typing
// narrows it, enter assigns the conversation to the one under the cursor.
func TestAssignPicksAnOperator(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, assignTo(0))
	owner := s.info.OwnerOperatorID
	s.Key("A")
	v := ansi.Strip(s.Modal().View())
	if !strings.Contains(v, s.names[owner]) || !strings.Contains(v, s.names[s.info.RestrictedOperatorID]) ||
		!(strings.Contains(v, "online") || strings.Contains(v, "away") || strings.Contains(v, "offline")) {
		t.Fatalf("the picker does not list the operators with their state:\n%s", v)
	}
	s.Key(s.names[owner])
	v = ansi.Strip(s.H.Top().View())
	if strings.Contains(v, s.names[s.info.RestrictedOperatorID]+" ·") {
		t.Fatalf("the filter %q kept another operator:\n%s", s.names[owner], v)
	}
	s.Key("enter")
	s.Until("assigned", func() bool { return s.row(t).OperatorID == owner })
	if got := assignee(s.server(t)); got != owner {
		t.Fatalf("the server has operator %d, want %d", got, owner)
	}
	if want := fmt.Sprintf("Assigned conversation #%d to %s.", s.id, s.names[owner]); s.H.LastToast() != want {
		t.Fatalf("toast %q, want %q", s.H.LastToast(), want)
	}
}

// Assigning a conversation that is someone else's to a third operator asks first.
func TestAssignSomeoneElsesAsks(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, assignToOwner)
	owner := s.info.OwnerOperatorID
	agentName := s.names[s.info.RestrictedOperatorID]
	s.Key("A")
	s.Modal()
	s.Key(agentName, "enter")
	q := s.question(t)
	if want := fmt.Sprintf("is assigned to %s. Assign it to %s instead?", s.names[owner], agentName); !strings.Contains(q, want) {
		t.Fatalf("question %q, want %q", q, want)
	}
	if s.sent() != 0 {
		t.Fatal("sent before the answer")
	}
	s.Key("y")
	s.Until("reassigned", func() bool { return s.row(t).OperatorID == s.info.RestrictedOperatorID })
	if got := assignee(s.server(t)); got != s.info.RestrictedOperatorID {
		t.Fatalf("the server has operator %d", got)
	}
}

// U on the agent's own conversation unassigns it at once (null sent).
func TestUnassignSendsNull(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, assignToAgent)
	s.Key("U")
	s.Until("unassigned", func() bool { return s.row(t).OperatorID == 0 })
	if got := assignee(s.server(t)); got != 0 {
		t.Fatalf("the server has operator %d", got)
	}
	if b := s.patches.Requests("PATCH", "")[s.base].Body; !strings.Contains(b, `"operator_assigned_to":null`) {
		t.Fatalf("body %s", b)
	}
}

// E asks, naming the conversation; n sends nothing, y ends it.
func TestEndAsksNamingTheConversation(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, setStatus(client.StatusPending, true))
	r := s.row(t)
	s.Key("enter", "E") // from the thread pane: the open conversation, shown in the detail
	if q, want := s.question(t), fmt.Sprintf("End conversation #%d with %s?", s.id, r.Name); !strings.Contains(q, want) {
		t.Fatalf("question %q, want %q", q, want)
	}
	s.Key("n")
	if s.sent() != 0 || s.server(t).Status != client.StatusPending {
		t.Fatal("n ended the conversation")
	}
	s.Key("E")
	s.Modal()
	s.Key("y")
	s.Until("ended", func() bool { return s.row(t).Status == client.StatusEnded })
	if st := s.server(t).Status; st != client.StatusEnded {
		t.Fatalf("the server has status %q", st)
	}
	if d, _ := s.m.Detail.Conversation(); d.ID != s.id || d.Status != client.StatusEnded {
		t.Fatalf("the detail shows #%d %q", d.ID, d.Status)
	}
}

// O on an ended conversation sets it back to pending; on an ongoing one it sends nothing.
func TestReopenSetsPending(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, setStatus(client.StatusEnded, true))
	s.Key("O")
	s.Until("reopened", func() bool { return s.row(t).Status == writes.ReopenStatus })
	if st := s.server(t).Status; st != client.StatusPending {
		t.Fatalf("the server has status %q", st)
	}
	s.Key("O")
	if n := s.sent(); n != 1 || !strings.Contains(s.H.LastToast(), "is not ended") {
		t.Fatalf("O on an ongoing conversation: %d PATCHes, toast %q", n, s.H.LastToast())
	}
}

// u toggles marked_read_operator: unread becomes read, and read unread.
func TestToggleRead(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, nil, setStatus(client.StatusPending, false))
	if !s.row(t).Unread {
		t.Fatal("the row is not unread")
	}
	s.Key("u")
	s.Until("read", func() bool { return !s.row(t).Unread })
	if !s.server(t).MarkedReadOperator {
		t.Fatal("the server has it unread")
	}
	s.Key("u")
	s.Until("unread", func() bool { return s.row(t).Unread })
	if s.server(t).MarkedReadOperator {
		t.Fatal("the server has it read")
	}
}

// dropPatchBody forwards conversation PATCHes with an empty body: the server answers 200
// with the conversation unchanged, as a server that ignores the fields would.
type dropPatchBody struct{ next http.RoundTripper }

func (d dropPatchBody) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPatch {
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader([]byte("{}")))
		r.ContentLength = 2
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader([]byte("{}"))), nil }
	}
	return d.next.RoundTrip(r)
}

// A 200 that does not show the change is reported, and the row shows what the server
// answered, not what was sent.
func TestAnAnswerWithoutTheChangeIsReported(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{}, func(next http.RoundTripper) http.RoundTripper { return dropPatchBody{next} },
		assignTo(0))
	s.Key("T")
	s.Until("a toast", func() bool { return s.H.LastToast() != "" })
	toast := s.H.LastToast()
	if !strings.Contains(toast, fmt.Sprintf("Could not take conversation #%d", s.id)) || !strings.Contains(toast, "it is unassigned") {
		t.Fatalf("toast %q", toast)
	}
	if !s.H.Toasts[len(s.H.Toasts)-1].Error {
		t.Error("a failed action toasts as a plain note, not as an error")
	}
	if s.row(t).OperatorID != 0 {
		t.Fatal("the row shows what was sent")
	}
}

// A server that refuses the field (400 "status: this field is read-only.") gets a message
// naming the field; the row keeps its status.
func TestARefusedFieldIsNamed(t *testing.T) {
	t.Parallel()
	s := newActionScreen(t, sandbox.Options{Variants: []sandbox.Variant{sandbox.VariantReadOnlyFields}}, nil,
		func(*client.Client, int64, sandbox.Info) error { return nil })
	before := s.row(t).Status
	if before == client.StatusEnded {
		t.Fatal("the row is ended") // the seed's second conversation is ongoing
	}
	s.Key("E")
	s.Modal()
	s.Key("y")
	s.Until("a toast", func() bool { return s.H.LastToast() != "" })
	toast := s.H.LastToast()
	want := fmt.Sprintf(`Could not end conversation #%d: the API refused status "ended": status: this field is read-only`, s.id)
	if toast != want {
		t.Fatalf("toast %q, want %q", toast, want)
	}
	if !s.H.Toasts[len(s.H.Toasts)-1].Error {
		t.Error("a refused action toasts as a plain note, not as an error")
	}
	if s.row(t).Status != before || s.server(t).Status != before {
		t.Fatal("the status changed")
	}
}
