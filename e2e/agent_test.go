//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/config"
)

// agentScale is how many times faster than life the agent session runs: PARLEY_AGENT_SCALE
// (default 6: the 10 minutes take 100 s; 1 plays them in real time).
func agentScale(t *testing.T) int {
	t.Helper()
	s := os.Getenv("PARLEY_AGENT_SCALE")
	if s == "" {
		return 6
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 1 || k > 24 {
		t.Fatalf("PARLEY_AGENT_SCALE=%q: want a whole number from 1 to 24", s)
	}
	return k
}

// agentRefresh is the auto-refresh interval of the agent session, in the session's time:
// PARLEY_AGENT_REFRESH (default 2m, the interval the session's budget of 20 requests is
// for; 30s is parley's default).
func agentRefresh(t *testing.T) time.Duration {
	t.Helper()
	s := os.Getenv("PARLEY_AGENT_REFRESH")
	if s == "" {
		return 2 * time.Minute
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 10*time.Second || d > 10*time.Minute {
		t.Fatalf("PARLEY_AGENT_REFRESH=%q: want a duration from 10s to 10m", s)
	}
	return d
}

// TestAgentSession plays a 10-minute agent session at 120×40 and counts what it costs in
// conversation-family requests in the sandbox's request log. The agent works through a
// queue of six conversations (the first rows of the list), moving to another one every
// 20 s (j down the queue, k back up, so each is read again every few minutes), and reads
// each: sometimes scrolling back in it, for a while with the detail pane shown (p). Once it
// searches for the long thread, scrolls back two pages in it and clears the search. Midway
// another agent changes a conversation of the queue (its topics, through the API).
//
// The session runs PARLEY_AGENT_SCALE times faster than life (default 6), with parley's
// auto-refresh scaled the same: every 2 minutes of the session, unless
// PARLEY_AGENT_REFRESH says another interval. The budget of 20 requests is for the
// 2-minute interval, not for parley's default of 30 s, at which each of the 20 ticks of
// the 10 minutes costs one request more. The agent keys on all along, so the auto-refresh
// policy stays live (its idle steps are real minutes); request_budget is raised to 5,000
// so that nothing else spent that day slows polling down. Revisiting an unchanged
// conversation must cost nothing however long ago it was read; the changed one costs its
// newest page.
//
// Before the client held threads and details by version (a two-minute response cache of
// raw JSON), the session cost 37 requests played in real time, 14 of them repeating an
// identical GET for a conversation that had not changed; now 19 (18 at 6×).
//
// At the 2-minute interval it fails when the session costs more than 20
// conversation-family requests. At every interval it fails when an auto-refresh costs
// more than one request a tick, when the requests other than auto-refreshes are more than
// the budget leaves beside the 2-minute interval's four ticks (16), when an identical GET for
// a conversation that did not change in between is sent again, or when the changed
// conversation's thread is fetched other than by its newest page.
func TestAgentSession(t *testing.T) {
	const (
		budget = 20
		steps  = 30
		queue  = 6
	)
	k := agentScale(t)
	step := 20 * time.Second / time.Duration(k)
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	// The queue is in id order, newest first (the config file below makes it the list's
	// default): the order its figures were measured in, with threads long enough to scroll.
	first, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: queue}})
	if err != nil || len(first.Results) < queue {
		t.Fatalf("the first %d conversations: %v (%v)", queue, first, err)
	}
	var ids []int64
	for _, cv := range first.Results {
		ids = append(ids, cv.ID)
	}
	changed := ids[2]
	long, rank := findConversation(t, sb, "Start of the long thread", func(conv client.Conversation) bool {
		p, err := c.MessagesPage(t.Context(), conv.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}})
		return err == nil && p.Next != ""
	})

	dir := t.TempDir()
	conf := filepath.Join(dir, "config.yaml")
	session := agentRefresh(t)
	refresh := session / time.Duration(k)
	if refresh < config.MinRefreshInterval {
		t.Fatalf("auto-refresh every %s of the session at %d× is every %s, shorter than parley takes (%s)", session, k, refresh, config.MinRefreshInterval)
	}
	if err := os.WriteFile(conf, []byte(fmt.Sprintf("refresh_interval: %s\nrequest_budget: 5000\n"+
		"views:\n  - name: all\n    screen: conversations\n    ordering: -id\n", refresh)), 0o600); err != nil {
		t.Fatal(err)
	}
	before := len(sb.Requests(t))
	began := time.Now()
	tui := StartTUI(t, 120, 40, append(sb.Env, "PARLEY_CONFIG="+conf))
	waitList(t, tui)

	header := regexp.MustCompile(`#(\d+) · (\d+) loaded`)
	// showing waits until the thread pane shows conversation id.
	showing := func(id int64) string {
		t.Helper()
		return tui.WaitUntil(func(s string) bool {
			m := header.FindStringSubmatch(s)
			return m != nil && m[1] == strconv.FormatInt(id, 10) && !strings.Contains(s, "Loading messages")
		}, 30*time.Second, fmt.Sprintf("the thread of %d", id))
	}
	loaded := func(s string) int {
		m := header.FindStringSubmatch(s)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[2])
		return n
	}
	showing(ids[0])
	// scrollBack scrolls the open thread up from the messages pane until want messages are
	// loaded (or, with want 0, a few screens), then returns to the list.
	scrollBack := func(want int) {
		t.Helper()
		tui.Keys("Tab")
		for i := 0; ; i++ {
			s := tui.Screen()
			if (want == 0 && i == 3) || (want > 0 && loaded(s) >= want && !strings.Contains(s, "loading older")) {
				break
			}
			if i > 200 {
				t.Fatalf("scrolling back never loaded %d messages:\n%s", want, s)
			}
			before := threadHeader.FindString(s)
			if !threadPosition.MatchString(before) {
				break // the whole thread fits in the pane, or shows its top: nothing above it
			}
			tui.Keys("C-u")
			tui.WaitUntil(func(s string) bool { return threadHeader.FindString(s) != before }, 15*time.Second, "the thread to move up from "+before)
		}
		tui.Keys("BTab")
	}

	pos := 0 // the cursor's row in the queue
	down := true
	var changedAt int // request log length when the other agent changed a conversation
	for i := 1; i < steps; i++ {
		// The session's rhythm: one step every 20 s of the session.
		pace(began.Add(time.Duration(i) * step))
		switch {
		case i == 18:
			// Search for the long thread, read back two pages of it, then clear the search.
			search(t, tui, "Start of the long thread")
			tui.Keys("g")
			for range rank {
				tui.Keys("j")
			}
			showing(long.ID)
			scrollBack(300)
			tui.Keys("Escape")
			waitList(t, tui)
			pos, down = 0, true
			showing(ids[0])
			continue
		case i == 12:
			topics := []string{"Follow-up"}
			if _, err := c.SetConversationTopics(t.Context(), changed, topics); err != nil {
				t.Fatalf("another agent's edit: %v", err)
			}
			changedAt = len(sb.Requests(t))
		}
		if down && pos == queue-1 || !down && pos == 0 {
			down = !down
		}
		if down {
			pos++
			tui.Keys("j")
		} else {
			pos--
			tui.Keys("k")
		}
		showing(ids[pos])
		switch i {
		case 5, 14:
			tui.Keys("p") // the detail pane on, later off again
		case 4, 10, 22:
			scrollBack(0)
		}
	}
	// The session ends half a step after the last move: an auto-refresh due at the 10-minute
	// mark would race the reading of the log.
	pace(began.Add(steps*step - step/2))
	took := time.Since(began)

	log := sb.Requests(t)[before:]
	conversationsFamily := func(r Request) bool {
		return r.Method == "GET" && strings.Contains(r.Path, "/api/um/v3/conversations/")
	}
	var spent []Request
	for _, r := range log {
		if conversationsFamily(r) {
			spent = append(spent, r)
		}
	}
	var lines []string
	for _, r := range spent {
		lines = append(lines, "  "+r.Path+"?"+r.Query)
	}
	polls := 0 // auto-refreshes: what changed since the last refresh
	for _, r := range spent {
		if strings.Contains(r.Query, "updated_at_from_date=") {
			polls++
		}
	}
	t.Logf("%d conversation-family requests in %s (a 10-minute session at %d×, auto-refresh every %s of it), %d of them auto-refreshes:\n%s",
		len(spent), took.Round(time.Second), k, session, polls, strings.Join(lines, "\n"))
	played := steps*20*time.Second - 10*time.Second // the session's time, as it ends half a step early
	if ticks := int(played / session); polls > ticks {
		t.Errorf("%d auto-refresh requests, more than one each of the %d ticks", polls, ticks)
	}
	if others, most := len(spent)-polls, budget-int(played/(2*time.Minute)); others > most {
		t.Errorf("%d conversation-family requests besides auto-refresh, budget %d", others, most)
	}

	// No identical GET for a conversation that did not change in between.
	conv := regexp.MustCompile(`/conversations/(\d+)/`)
	seen := map[string]int{} // GET → its index in log
	for i, r := range log {
		if !conversationsFamily(r) {
			continue
		}
		key := r.Path + "?" + r.Query
		if j, ok := seen[key]; ok {
			if m := conv.FindStringSubmatch(r.Path); m != nil {
				id, _ := strconv.ParseInt(m[1], 10, 64)
				changedBetween := id == changed && changedAt-before > j && changedAt-before <= i
				if !changedBetween {
					t.Errorf("GET %s was sent again for conversation %d, which had not changed", key, id)
				}
			}
		}
		seen[key] = i
	}
	// The changed conversation: its newest page, once before the change and once after.
	var pages []string
	for _, r := range spent {
		if r.Path == fmt.Sprintf("/api/um/v3/conversations/%d/messages/", changed) {
			pages = append(pages, r.Query)
		}
	}
	if len(pages) != 2 || strings.Contains(pages[0], "cursor") || strings.Contains(pages[1], "cursor") {
		t.Errorf("the changed conversation's messages were asked for as %q, want its newest page before and after the change", pages)
	}
	if session == 2*time.Minute && len(spent) > budget {
		t.Errorf("the session cost %d conversation-family requests, budget %d", len(spent), budget)
	}
}
