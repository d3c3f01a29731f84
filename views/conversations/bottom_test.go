package conversations_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestBottomLoadsTheLastPageDirectly: G goes to the last conversation of the whole list by
// asking for the last page by its offset, not for every page in between; the rows between
// then load a page at a time from both ends as the cursor reaches them, each page once,
// and end up exactly the server's list.
func TestBottomLoadsTheLastPageDirectly(t *testing.T) {
	c, log := listEnv(t)
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100}})
	if err != nil || p.Next != "" {
		t.Fatalf("the whole list in one page: %v", err)
	}
	var all []int64
	for _, conv := range p.Results {
		all = append(all, conv.ID)
	}
	start := len(listRequests(t, log))
	const page = 10
	if len(all) <= 6*page {
		t.Fatalf("%d conversations: the test needs many pages", len(all))
	}
	m := newList(t, c, page, 120, 20) // 18 one-line rows in view
	m = viewtest.Settle(m, m.Load(false), wait)
	loaded := len(m.Rows())
	before := len(listRequests(t, log))

	var cmd tea.Cmd
	m, cmd = m.Update(viewtest.Key("G"))
	if !strings.Contains(m.View(), fmt.Sprintf(" %d/%d", len(all), len(all))) {
		t.Fatalf("G did not go to the last row at once:\n%s", m.View())
	}
	m = viewtest.Settle(m, cmd, wait)
	sent := listRequests(t, log)[before:]
	last := (len(all) - 1) / page * page
	if len(sent) == 0 || sent[0].Get("offset") != fmt.Sprint(last) {
		t.Fatalf("G sent %v; want the last page (offset %d) first", sent, last)
	}
	// The last page and the ones before it that the screen shows: not the pages between.
	if want := (18+2)/page + 1; len(sent) > want {
		t.Fatalf("G sent %d requests %v, want at most %d", len(sent), sent, want)
	}
	if r, ok := m.Selected(); !ok || r.ID != all[len(all)-1] {
		t.Fatalf("after G the cursor is on %d, want the last conversation %d", r.ID, all[len(all)-1])
	}
	if got := len(m.Rows()); got >= len(all) || got > loaded+len(sent)*page {
		t.Fatalf("G loaded %d rows of %d", got, len(all))
	}
	v := m.View()
	viewtest.CheckSize(t, v, 120, 20, "after G")
	if strings.Contains(v, "⋯") {
		t.Fatalf("rows on screen are not loaded:\n%s", v)
	}

	// Up through the gap to the top: every row once, in the server's order, one request a page.
	for i := 0; i < 100 && m.Rows()[0].ID != all[0] || i == 0; i++ {
		m, cmd = m.Update(viewtest.Key("ctrl+u"))
		m = viewtest.Settle(m, cmd, wait)
		viewtest.CheckSize(t, m.View(), 120, 20, "up")
		if r, ok := m.Selected(); ok && !slices.Contains(all, r.ID) {
			t.Fatalf("cursor on %d, not in the list", r.ID)
		}
	}
	for range 20 {
		m, cmd = m.Update(viewtest.Key("ctrl+u"))
		m = viewtest.Settle(m, cmd, wait)
	}
	got := make([]int64, 0, len(all))
	for _, r := range m.Rows() {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, all) {
		t.Fatalf("rows after walking up from the end:\n%v\nwant\n%v", got, all)
	}
	if r, _ := m.Selected(); r.ID != all[0] || !strings.Contains(m.View(), fmt.Sprintf(" 1/%d", len(all))) {
		t.Fatalf("at the top the cursor is on %d\n%s", r.ID, m.View())
	}
	offsets := map[string]bool{}
	for _, q := range listRequests(t, log)[start:] {
		if offsets[q.Get("offset")] {
			t.Fatalf("offset %q asked for twice: %v", q.Get("offset"), listRequests(t, log))
		}
		offsets[q.Get("offset")] = true
	}
	if pages := (len(all) + page - 1) / page; len(offsets) != pages {
		t.Fatalf("%d requests for %d pages", len(offsets), pages)
	}
}
