package serve

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/waitfor"
)

// oscSeq matches an OSC sequence (a title, a notification): its BEL ends it and is no ring.
var oscSeq = regexp.MustCompile("\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)")

// rings counts the bells a terminal received (BEL outside OSC sequences).
func (term *terminal) rings() int {
	return strings.Count(oscSeq.ReplaceAllString(term.out.String(), ""), "\a")
}

// titled waits until the session set its terminal's title to want (OSC 2).
func (term *terminal) titled(want string) {
	term.t.Helper()
	waitfor.True(term.t, term.name+"'s title "+want, func() bool {
		return strings.Contains(term.out.String(), "\x1b]2;"+want+"\a")
	})
}

// TestOneSharedPollAlertsOnlyTheSessionItConcerns: another client assigns one conversation
// to the agent's operator and one to the supervisor's. After one shared poll each session
// rings once and titles its terminal with its own one, never the other's; the poll is the
// only request the alerts cost. The terminal gets its title back when the session ends.
func TestOneSharedPollAlertsOnlyTheSessionItConcerns(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	timer := newManualTimer()
	users := threeUsers(t, api)
	th := startHub(t, api, users, withTimer(timer), func(o *Options) { o.Alerts = ui.Alerts{Bell: true, Title: true} })
	clara := open(t, th.dial(t, "Clara"), "Clara", 160, 40)
	sam := open(t, th.dial(t, "Sam"), "Sam", 160, 40)
	p, err := api.client(t, 0).ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 20}})
	if err != nil {
		t.Fatal(err)
	}
	clara.waitText(fmt.Sprintf("#%d", p.Results[0].ID))
	sam.waitText(fmt.Sprintf("#%d", p.Results[0].ID))
	sam.waitText("2 connected")
	clara.titled("parley")
	sam.titled("parley")

	// Two conversations below the cursor (a change of the one under it loads it into the
	// panes), each of neither operator's.
	claraOp, samOp := users[0].operator, users[1].operator
	var targets []int64
	for _, c := range p.Results[1:] {
		if c.Status != client.StatusEnded && (c.OperatorAssignedTo == nil || *c.OperatorAssignedTo != claraOp && *c.OperatorAssignedTo != samOp) {
			targets = append(targets, c.ID)
		}
	}
	if len(targets) < 2 {
		t.Fatalf("%d conversations to hand over among the first page", len(targets))
	}
	mate := api.client(t, 0)
	for i, op := range []int64{claraOp, samOp} {
		if _, err := mate.UpdateConversation(context.Background(), targets[i], client.ConversationUpdate{OperatorAssignedTo: &op}); err != nil {
			t.Fatal(err)
		}
	}
	if clara.rings()+sam.rings() != 0 {
		t.Fatal("a bell rang before any poll")
	}
	before := len(api.log.lines(t))
	timer.fire()
	clara.titled("parley — 1 mine")
	sam.titled("parley — 1 mine")
	for _, term := range []*terminal{clara, sam} {
		// The bell goes out as a command of its own, after the frame with the title.
		waitfor.True(t, term.name+"'s bell", func() bool { return term.rings() > 0 })
		if n := term.rings(); n != 1 {
			t.Errorf("%s's terminal rang %d times, want once", term.name, n)
		}
		if strings.Contains(term.out.String(), "2 mine") {
			t.Errorf("%s's title counted the other's conversation", term.name)
		}
	}
	// The terminal's own title is kept before the first title parley writes and put back
	// after the last, when the session ends.
	clara.press("q")
	if code := clara.ended(); code != 0 {
		t.Fatalf("Clara's session ended with %d", code)
	}
	out := clara.out.String()
	if save, restore := strings.Index(out, ui.TitleSave), strings.LastIndex(out, ui.TitleRestore); save < 0 || save > strings.Index(out, "\x1b]2;") ||
		restore < strings.LastIndex(out, "\x1b]2;") {
		t.Errorf("the title is saved at %d, restored at %d; titles written from %d to %d",
			save, restore, strings.Index(out, "\x1b]2;"), strings.LastIndex(out, "\x1b]2;"))
	}
	var reqs []string
	for _, r := range api.log.lines(t)[before:] {
		reqs = append(reqs, r.Method+" "+r.Path+"?"+r.Query)
	}
	if len(reqs) != 1 || !strings.Contains(reqs[0], "updated_at_from_date") {
		t.Errorf("after the poll: %q, want the poll alone", reqs)
	}
}
