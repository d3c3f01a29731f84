package ui

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// fakeTeam is the hub as a session sees it: the sessions connected by organization and
// the shared poller's period.
type fakeTeam struct {
	sessions map[int64]int
	every    time.Duration
	outlook  common.Outlook
}

func (f *fakeTeam) Sessions(org int64) int   { return f.sessions[org] }
func (f *fakeTeam) PollEvery() time.Duration { return f.every }
func (f *fakeTeam) Outlook() common.Outlook  { return f.outlook }

// teammate edits conversations on the sandbox as another session of the hub would, and
// reads what the hub's poller would hand out.
type teammate struct {
	t *testing.T
	c *client.Client
}

func (m teammate) update(id int64, u client.ConversationUpdate) {
	m.t.Helper()
	if _, err := m.c.UpdateConversation(context.Background(), id, u); err != nil {
		m.t.Fatalf("update conversation %d: %v", id, err)
	}
}

// poll is the hub's poll of organization org: every conversation updated since since.
func (m teammate) poll(org int64, since time.Time, at time.Time) common.PolledMsg {
	m.t.Helper()
	msg := common.PolledMsg{Org: org, Since: since, At: at}
	ctx := context.Background()
	p, err := m.c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: client.MaxLimit},
		Filter: client.ConversationFilter{UpdatedAtFromDate: since}})
	for err == nil {
		msg.Conversations = append(msg.Conversations, p.Results...)
		if p.Next == "" {
			break
		}
		p, err = client.FetchPage[client.Conversation](ctx, m.c, p.Next)
	}
	if err != nil {
		m.t.Fatalf("poll: %v", err)
	}
	msg.Reached = m.c.ServerReached()
	return msg
}

func topicsOf(rows []listing.Row, id int64) []string {
	for _, r := range rows {
		if r.ID == id {
			return r.Topics
		}
	}
	return nil
}

// TestHubPollsMergeIntoTheConversationList: in a hub session (Options.Team) the
// conversations screen arms no auto-refresh of its own (the other screens do) and merges
// the hub's polls, here real answers of the sandbox: a loaded row changes in place, a
// conversation that now matches the list's filter and sorts above every row goes on top and
// counts, one that does not match stays out, and none of it costs a request. A poll of
// another organization changes nothing. A poll whose window starts after the list's own
// makes the list ask once itself, from its own window.
func TestHubPollsMergeIntoTheConversationList(t *testing.T) {
	t.Parallel()
	const org = 1001
	team := &fakeTeam{sessions: map[int64]int{org: 3}, every: 30 * time.Second}
	var mate teammate
	var newest, second int64 // the two highest ids, set to "new" before the list loads
	l, clock := policyApp(t, sandbox.Options{}, Options{Team: team, RequestBudget: 5000, UserName: "ana"},
		func(cc *client.Config, sb *sandbox.Running) {
			cc.OrganizationID = org
			mate = teammate{t, viewtest.ClientVia(t, sb, nil, client.Config{Now: cc.Now, OrganizationID: org})}
			p, err := mate.c.ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 2}})
			if err != nil || len(p.Results) != 2 {
				t.Fatalf("the newest conversations: %v", err)
			}
			newest, second = p.Results[0].ID, p.Results[1].ID
			status := client.StatusNew
			mate.update(newest, client.ConversationUpdate{Status: &status})
			mate.update(second, client.ConversationUpdate{Status: &status})
		})
	tr := l.app.Screen().(*conversations.Model)
	if !l.app.AutoDue().IsZero() {
		t.Fatalf("the conversations screen armed an auto-refresh of its own in a hub session (due %v)", l.app.AutoDue())
	}

	l.Key("s", "s") // status: new, then pending
	l.Until("the pending conversations", func() bool {
		return tr.List.Query().Filter.Status == client.StatusPending && tr.List.Loaded() && !tr.List.Pending() && !tr.List.Loading()
	})
	l.Quiet(30 * time.Millisecond)
	rows, total := tr.List.Rows(), tr.List.Total()
	if len(rows) < 3 || slices.ContainsFunc(rows, func(r listing.Row) bool { return r.ID == newest || r.ID == second }) {
		t.Fatalf("the pending list: %d rows, with the two newest (new) ones?", len(rows))
	}
	edited := rows[1].ID
	listReached := l.app.ctx.Client.ServerReached()
	// opened waits until the thread shows the row under the cursor (side by side it opens
	// once the cursor rests: a timer and two requests), so that the requests counted
	// after it are the merge's alone.
	opened := func() {
		t.Helper()
		l.Until("the row under the cursor open", func() bool {
			r, ok := tr.List.Selected()
			return !ok || tr.Msgs.ConversationID() == r.ID
		})
		l.Settle()
	}

	// A teammate works: the newest conversation becomes pending, the second newest (still
	// new) and a loaded row get topics.
	clock.Add(10 * time.Second)
	pending := client.StatusPending
	mate.update(newest, client.ConversationUpdate{Status: &pending})
	mate.update(second, client.ConversationUpdate{Topics: &[]string{"from a teammate"}})
	mate.update(edited, client.ConversationUpdate{Topics: &[]string{"hub merge"}})
	poll := mate.poll(org, listReached.Add(-listing.RefreshOverlap), clock.Now())
	if len(poll.Conversations) < 3 {
		t.Fatalf("the poll has %d conversations", len(poll.Conversations))
	}
	opened()
	sent := len(l.log.Lines())
	l.Deliver(poll)
	l.Settle()
	rows = tr.List.Rows()
	if rows[0].ID != newest || tr.List.Total() != total+1 {
		t.Errorf("after the poll the first row is %d of %d, want the newest conversation %d on top of %d", rows[0].ID, tr.List.Total(), newest, total+1)
	}
	if slices.ContainsFunc(rows, func(r listing.Row) bool { return r.ID == second }) {
		t.Errorf("conversation %d (status new) went into the pending list", second)
	}
	if got := topicsOf(rows, edited); !slices.Equal(got, []string{"hub merge"}) {
		t.Errorf("the loaded row %d has topics %q after the poll", edited, got)
	}
	if n := len(l.log.Lines()); n != sent {
		t.Errorf("merging the poll sent %d requests", n-sent)
	}

	// A poll of another organization changes nothing; the same answer for this one does.
	clock.Add(10 * time.Second)
	mate.update(edited, client.ConversationUpdate{Topics: &[]string{"second edit"}})
	other := mate.poll(org, poll.Reached.Add(-listing.RefreshOverlap), clock.Now())
	other.Org = org + 1
	opened()
	sent = len(l.log.Lines()) // the teammate's requests go to the same sandbox
	l.Deliver(other)
	l.Settle()
	if got := topicsOf(tr.List.Rows(), edited); !slices.Equal(got, []string{"hub merge"}) {
		t.Errorf("a poll of organization %d changed row %d: topics %q", other.Org, edited, got)
	}
	ours := other
	ours.Org = org
	l.Deliver(ours)
	l.Settle()
	if got := topicsOf(tr.List.Rows(), edited); !slices.Equal(got, []string{"second edit"}) {
		t.Errorf("the same poll for organization %d: topics %q", org, got)
	}
	if n := len(l.log.Lines()); n != sent {
		t.Errorf("the polls sent %d requests", n-sent)
	}

	// A poll whose window starts after the list's: the list asks once, from its own window
	// (the last poll it merged), however many such polls come before the answer.
	clock.Add(10 * time.Minute)
	gapped := mate.poll(org, clock.Now().Add(-time.Minute), clock.Now())
	asked := l.conversationsPolled()
	l.Deliver(gapped)
	l.Deliver(gapped)
	l.Settle()
	if n := l.conversationsPolled() - asked; n != 1 {
		t.Fatalf("a gap before the poll's window: the list asked %d times, want once", n)
	}
	var from string
	for _, line := range l.log.Lines() {
		if q, err := url.ParseQuery(line.Query); err == nil && q.Has("updated_at_from_date") {
			from = q.Get("updated_at_from_date")
		}
	}
	got, err := time.Parse(time.RFC3339Nano, from)
	if want := ours.Reached.Add(-listing.RefreshOverlap); err != nil || !got.Equal(want.Truncate(time.Microsecond)) {
		t.Errorf("the gap was asked from %q, want the list's window %v less the overlap", from, want)
	}
	// The answer closed the gap: the next poll merges without a request.
	clock.Add(30 * time.Second)
	next := mate.poll(org, clock.Now().Add(-listing.RefreshOverlap), clock.Now())
	opened()
	sent = len(l.log.Lines())
	l.Deliver(next)
	l.Settle()
	if lines := l.log.Lines(); len(lines) != sent {
		t.Errorf("the poll after the gap was closed sent %d requests: %+v", len(lines)-sent, lines[sent:])
	}

	// The other screens refresh themselves in a hub session.
	l.Key("3")
	if l.app.AutoDue().IsZero() {
		t.Error("the operators screen armed no auto-refresh in a hub session")
	}
	l.Key("1")
	if !l.app.AutoDue().IsZero() {
		t.Error("back on the conversations screen an auto-refresh is still armed")
	}
	if bar := l.statusBar(); !strings.Contains(bar, "shared 30s") || !strings.Contains(bar, "3 connected") {
		t.Errorf("status bar %q", bar)
	}
}

// TestHubStatusBar: in a hub session the status bar names the user (sanitized) and, when
// it is another, the operator acted as; the request count is the team's; the sessions
// connected to the organization and the shared poller's period follow. At 80 columns the
// host, the operator's name and "today" give way, and the shared period goes first, as
// the live auto-refresh does (not polling stays); read-only stays.
func TestHubStatusBar(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		o     Options
		every time.Duration
		w     int
		want  string
	}{
		{"wide", Options{Label: "api.example.com"}, 30 * time.Second, 200,
			" api.example.com · org 1001 · as Ana (Clara) │ team conv 0/5,000 today │ 3 connected │ shared 30s │ refreshed 15:04:05"},
		{"narrow", Options{Label: "api.example.com"}, 30 * time.Second, 80,
			" org 1001 · as Ana │ team conv 0/5,000 │ 3 connected │ as of 15:04:05"},
		{"narrow, not polling", Options{Label: "api.example.com"}, 0, 80,
			" org 1001 · as Ana │ team conv 0/5,000 │ 3 connected │ not polling"},
		{"wide, not polling", Options{Label: "api.example.com"}, 0, 200,
			" api.example.com · org 1001 · as Ana (Clara) │ team conv 0/5,000 today │ 3 connected │ shared: not polling │ refreshed 15:04:05"},
		{"narrow, demo, read-only", Options{Demo: true, ReadOnly: true}, 30 * time.Second, 80,
			" demo data · org 1001 · as Ana │ read-only │ team conv 0/5,000 │ 3 connected"},
		{"wide, demo, read-only", Options{Demo: true, ReadOnly: true}, 30 * time.Second, 200,
			" demo data (embedded sandbox) · org 1001 · as Ana (Clara) │ read-only │ team conv 0/5,000 today │ 3 connected │ shared 30s │ refreshed 15:04:05"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t", OrganizationID: 1001, OperatorID: 2001})
			if err != nil {
				t.Fatal(err)
			}
			o := tc.o
			o.Client, o.Styles, o.Keys, o.Now = c, theme.Plain(false), keymap.Default(), viewtest.Clock
			o.RefreshInterval, o.RequestBudget = 30*time.Second, 5000
			o.Team = &fakeTeam{sessions: map[int64]int{1001: 3, 1002: 7}, every: tc.every}
			o.UserName = " Ana\u202e\n" // a bidi control and a newline from the users file
			a := New(o)
			a.Update(common.OperatorsLoadedMsg{Operators: []client.Operator{{ID: 2001, OrganizationID: 1001, Name: "Clara Hoffmann", DisplayName: "Clara"}}})
			a.Update(common.RefreshedMsg{At: viewtest.Now})
			a.Update(tea.WindowSizeMsg{Width: tc.w, Height: 24})
			line := statusLine(a.Render())
			if w := ansi.StringWidth(line); w != tc.w {
				t.Errorf("the status bar is %d wide", w)
			}
			if got := strings.TrimRight(line, " "); got != tc.want {
				t.Errorf("status bar\n got %q\nwant %q", got, tc.want)
			}
		})
	}
	// The user's own operator: the name once.
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t", OrganizationID: 1001, OperatorID: 2001})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: viewtest.Clock, Label: "api.example.com",
		Team: &fakeTeam{sessions: map[int64]int{1001: 1}}, UserName: "clara"})
	a.Update(common.OperatorsLoadedMsg{Operators: []client.Operator{{ID: 2001, OrganizationID: 1001, Name: "Clara Hoffmann", DisplayName: "Clara"}}})
	a.Update(tea.WindowSizeMsg{Width: 200, Height: 24})
	if line := statusLine(a.Render()); !strings.Contains(line, "org 1001 · as clara │") || !strings.Contains(line, "1 connected") {
		t.Errorf("the user acting as their own operator: %q", line)
	}
}
