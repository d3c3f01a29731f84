package conversations_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

// skewedList is a sandbox whose clock the test moves, a list on a client whose local clock
// (the client's and the view's) runs skew ahead of it, and a second client (another agent)
// to change data on the server.
func skewedList(t *testing.T, skew time.Duration, pageSize, height int) (*viewtest.MovingClock, conversations.Model, *client.Client) {
	t.Helper()
	s := viewtest.NewSkewed(t, skew, sandbox.Options{})
	ctx := s.Ctx()
	ctx.PageSize = pageSize
	m := conversations.New(ctx)
	m.SetSize(120, height)
	m.Focus()
	return s.Server, m, viewtest.Client(t, s.Sandbox)
}

// TestRefreshMissesNothingWithASkewedClock: a change made on the server between two
// auto-refreshes is merged into the list whether the local clock runs 10 minutes fast or
// slow: the "updated since" window is told by the server's clock.
func TestRefreshMissesNothingWithASkewedClock(t *testing.T) {
	for _, skew := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		t.Run("local clock off by "+skew.String(), func(t *testing.T) {
			server, m, other := skewedList(t, skew, 100, 40)
			m = viewtest.Settle(m, m.Load(false), wait)
			if len(m.Rows()) < 5 {
				t.Fatalf("loaded %d rows", len(m.Rows()))
			}
			id := m.Rows()[4].ID
			server.Add(30 * time.Second)
			if _, err := other.SetConversationTopics(t.Context(), id, []string{"Clock skew"}); err != nil {
				t.Fatal(err)
			}
			server.Add(30 * time.Second) // the next auto-refresh
			m = viewtest.Settle(m, m.RefreshChanged(), wait)
			r, ok := m.Row(id)
			if !ok || !slices.Contains(r.Topics, "Clock skew") {
				t.Fatalf("conversation %d changed on the server between two refreshes; the list shows topics %q", id, r.Topics)
			}
			// The next window starts from the server's time of this refresh.
			server.Add(time.Minute)
			if _, err := other.SetConversationTopics(t.Context(), id, []string{"Clock skew again"}); err != nil {
				t.Fatal(err)
			}
			m = viewtest.Settle(m, m.RefreshChanged(), wait)
			if r, _ := m.Row(id); !slices.Contains(r.Topics, "Clock skew again") {
				t.Fatalf("the second change was missed; topics %q", r.Topics)
			}
		})
	}
}

// TestRefreshWindowIsNotMovedByALaterPage: a page loaded later (scrolling down) does not
// move the "updated since" window past changes to the rows loaded before it.
func TestRefreshWindowIsNotMovedByALaterPage(t *testing.T) {
	server, m, other := skewedList(t, 0, 10, 12)
	m = viewtest.Settle(m, m.Load(false), wait)
	loaded := len(m.Rows())
	if loaded < 10 {
		t.Fatalf("first pages have %d rows, want 10 or more", loaded)
	}
	id := m.Rows()[2].ID
	server.Add(time.Minute)
	if _, err := other.SetConversationTopics(t.Context(), id, []string{"Changed early"}); err != nil {
		t.Fatal(err)
	}
	server.Add(10 * time.Minute) // auto-refresh had stopped (idle), then the user scrolls
	for i := 0; i < 10 && len(m.Rows()) <= loaded; i++ {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key("ctrl+d"))
		m = viewtest.Settle(m, cmd, wait)
	}
	if len(m.Rows()) <= loaded {
		t.Fatal("the next page did not load")
	}
	m = viewtest.Settle(m, m.RefreshChanged(), wait)
	if r, _ := m.Row(id); !slices.Contains(r.Topics, "Changed early") {
		t.Fatalf("conversation %d changed before the second page loaded; the refresh after it missed that (topics %q)", id, r.Topics)
	}
}

// TestRowAgesFollowTheServerClock: with the local clock 10 minutes fast, a row's age is
// told from the server's clock (learnt from its Date header), not "10m" more.
func TestRowAgesFollowTheServerClock(t *testing.T) {
	server, m, _ := skewedList(t, 10*time.Minute, 100, 40)
	m = viewtest.Settle(m, m.Load(false), wait)
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	checked := 0
	for _, r := range m.Rows()[:20] {
		want, wrong := common.RelTime(r.LastAt, server.Now()), common.RelTime(r.LastAt, server.Now().Add(10*time.Minute))
		var found []string
		for _, l := range lines {
			if r.Name != "" && strings.Contains(l, r.Name) {
				found = append(found, l)
			}
		}
		if want == wrong || len(found) != 1 {
			continue // the same age either way, or the name does not tell its line
		}
		if f := strings.Fields(found[0]); f[len(f)-1] != want {
			t.Errorf("row %d (last message %s before the server's now) shows %q, want %q", r.ID,
				server.Now().Sub(r.LastAt), f[len(f)-1], want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no visible row whose age differs by the skew: the seed has no recent conversation")
	}
}
