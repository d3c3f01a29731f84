package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// rawTap is the model a test loop runs: the app, and what the app wrote to the terminal
// raw (tea.Raw: the bell, notifications), which a program would write as it is.
type rawTap struct {
	*App
	mu  sync.Mutex
	out strings.Builder
}

func (r *rawTap) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.RawMsg); ok {
		r.mu.Lock()
		fmt.Fprint(&r.out, m.Msg)
		r.mu.Unlock()
		return r, nil
	}
	_, cmd := r.App.Update(msg)
	return r, cmd
}

// written is everything written raw so far.
func (r *rawTap) written() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// TestAnAssignmentByAnotherClientAlertsOnceWithinOnePoll: a conversation another client
// assigns to the operator parley acts as rings the bell once and puts the count into the
// terminal's title at the next auto-refresh, at no request of its own; a second refresh
// without a change rings nothing; opening it takes the count away. With the mute key,
// the next arrival counts in the title without a ring.
func TestAnAssignmentByAnotherClientAlertsOnceWithinOnePoll(t *testing.T) {
	t.Parallel()
	var sb *sandbox.Running
	var me, mateID int64
	l, clock := policyApp(t, sandbox.Options{}, Options{Alerts: Alerts{Bell: true, Title: true}},
		func(c *client.Config, s *sandbox.Running) {
			sb = s
			me, mateID = viewtest.AgentAndMate(t, s)
			c.OperatorID = me
		})
	mate := viewtest.ClientVia(t, sb, nil, client.Config{OperatorID: mateID})
	if got := l.app.View().WindowTitle; got != "parley" {
		t.Fatalf("the title before any arrival: %q", got)
	}
	conv := l.app.Screen().(*conversations.Model)
	// Conversations another operator may hand over, apart from the one under the cursor (a
	// change of that one loads it into the panes, arrival or not).
	sel, _ := conv.List.Selected()
	l.Until("the row under the cursor in the panes", func() bool { return conv.Msgs.ConversationID() == sel.ID })
	l.Quiet(30 * time.Millisecond)
	var targets []int64
	for _, r := range conv.List.Rows() {
		if r.OperatorID != me && r.Status != client.StatusEnded && r.ID != sel.ID {
			targets = append(targets, r.ID)
		}
	}
	if len(targets) < 2 {
		t.Fatalf("%d conversations another operator may hand over", len(targets))
	}
	assign := func(id int64) {
		t.Helper()
		clock.Add(time.Second)
		if _, err := mate.UpdateConversation(context.Background(), id, client.ConversationUpdate{OperatorAssignedTo: &me}); err != nil {
			t.Fatal(err)
		}
	}
	// poll runs one auto-refresh and returns the requests it made.
	poll := func(what string) []string {
		t.Helper()
		before := len(l.log.Lines())
		if !l.poll(clock) {
			t.Fatalf("%s: no auto-refresh", what)
		}
		l.Quiet(30 * time.Millisecond)
		var reqs []string
		for _, r := range l.log.Lines()[before:] {
			reqs = append(reqs, r.Method+" "+r.Path)
		}
		return reqs
	}

	assign(targets[0])
	first := poll("the poll after the assignment")
	if bells := strings.Count(l.raw.written(), "\a"); bells != 1 {
		t.Fatalf("the poll after the assignment rang %d times, want 1 (raw %q)", bells, l.raw.written())
	}
	if got := l.app.View().WindowTitle; got != "parley — 1 mine" {
		t.Fatalf("the title after the assignment: %q", got)
	}
	if tabs := l.tabs(); !strings.Contains(tabs, "Conversations 1") {
		t.Errorf("the tab does not count the arrival: %q", tabs)
	}
	second := poll("the poll without a change")
	if bells := strings.Count(l.raw.written(), "\a"); bells != 1 {
		t.Fatalf("a poll without a change rang: %d rings in all", bells)
	}
	if got := l.app.View().WindowTitle; got != "parley — 1 mine" {
		t.Fatalf("the title after a poll without a change: %q", got)
	}
	if len(first) != 1 || len(second) != 1 || first[0] != second[0] {
		t.Errorf("the poll that found the arrival asked %q, one without asked %q: want the same one request", first, second)
	}

	// Muted, the next arrival counts without a ring; opened, the first one is not counted.
	l.Key("M")
	if bar := l.statusBar(); !strings.Contains(bar, "muted until") {
		t.Errorf("muted, the status bar says nothing: %q", bar)
	}
	assign(targets[1])
	poll("the poll while muted")
	if bells := strings.Count(l.raw.written(), "\a"); bells != 1 {
		t.Fatalf("muted, the bell rang: %d rings in all", bells)
	}
	if got := l.app.View().WindowTitle; got != "parley — 2 mine" {
		t.Fatalf("the title after a second assignment: %q", got)
	}
	conv.List.SelectID(targets[0])
	l.Key("enter")
	l.Quiet(30 * time.Millisecond)
	if got := l.app.View().WindowTitle; got != "parley — 1 mine" {
		t.Fatalf("the title after opening one: %q", got)
	}
	if u := conv.Unseen(); u != (common.Unseen{All: 1, Mine: 1}) {
		t.Fatalf("unseen after opening one: %+v", u)
	}
}

// tabs is the row of tabs: the first line drawn.
func (l *appLoop) tabs() string { return strings.Split(l.app.Render(), "\n")[0] }

// TestNotificationsAreInert: a contact's name goes into a notification sanitized, cut to
// maxNotifyName cells and without a control character or OSC 777's separator, so that it
// can neither end the sequence nor start another: one ESC, one BEL, the fields parley
// writes.
func TestNotificationsAreInert(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"\x1b]0;pwned\x07Mallory\x1b[2J", "Eve\u009c;\u009d8;;http://x\u009c", strings.Repeat("W", 60), "\u202eevil\u202c;name"} {
		arrival := []common.Arrival{{Name: name, Assigned: true, Conversation: client.Conversation{ID: 7}}}
		for how, fields := range map[Notify]int{NotifyOSC9: 1, NotifyOSC777: 3} {
			seq := notification(how, notifyText(arrival))
			if strings.Count(seq, "\x1b") != 1 || strings.Count(seq, "\a") != 1 || !strings.HasSuffix(seq, "\a") {
				t.Errorf("%q in %d: %q", name, how, seq)
			}
			if n := strings.Count(seq, ";"); n != fields {
				t.Errorf("%q in %d: %d fields in %q", name, how, n, seq)
			}
			for _, r := range seq[1 : len(seq)-1] {
				if r < 0x20 || r >= 0x7f && r <= 0x9f {
					t.Errorf("%q in %d: control %U in %q", name, how, r, seq)
				}
			}
			text := seq[strings.LastIndex(seq, ":")+2 : len(seq)-1]
			if w := ansi.StringWidth(text); w > maxNotifyName {
				t.Errorf("%q: the name takes %d cells: %q", name, w, text)
			}
		}
	}
	if got := notifyText([]common.Arrival{{New: true}, {Assigned: true}, {New: true, Message: true}}); got != "2 new · 2 mine" {
		t.Errorf("three arrivals: %q", got)
	}
}

// TestABurstRingsOnce: arrivals within BellGap of a ring ring no more (nor notify), and
// ring again after it; a notification goes with the ring, as the settings say.
func TestABurstRingsOnce(t *testing.T) {
	t.Parallel()
	l, clock := policyApp(t, sandbox.Options{}, Options{Alerts: Alerts{Bell: true, Notify: NotifyOSC9}})
	one := common.ArrivedMsg{Arrivals: []common.Arrival{{Name: "Ann Lee", New: true, Conversation: client.Conversation{ID: 1}}}}
	for range 10 {
		l.Deliver(one)
		clock.Add(time.Second)
	}
	l.Quiet(10 * time.Millisecond)
	want := "\a\x1b]9;parley: New conversation from Ann Lee\a"
	if got := l.raw.written(); got != want {
		t.Fatalf("ten arrivals in ten seconds wrote %q, want %q", got, want)
	}
	clock.Add(BellGap)
	l.Deliver(one)
	l.Quiet(10 * time.Millisecond)
	if got := l.raw.written(); got != want+want {
		t.Fatalf("after the gap: %q", got)
	}
}
