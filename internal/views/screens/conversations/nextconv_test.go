package conversations_test

import (
	"fmt"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// press presses key on the screen and runs what it asks for to the end.
func press(m *conversations.Model, key string) {
	_, cmd := m.Update(viewtest.Key(key))
	settle(m, cmd)
}

// J and K go to the next and previous conversation of the list from every pane: the
// list's cursor moves, the thread and the detail shown follow, and nothing is asked for
// beyond what opening the conversation costs (its newest page and its detail, the shown
// panes' only).
func TestNextAndPreviousConversationFromEveryPane(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h   int
		detail bool // shown beside the thread
	}{{200, 50, true}, {80, 24, false}} {
		for _, pane := range []conversations.Pane{conversations.PaneList, conversations.PaneMessages, conversations.PaneDetail} {
			t.Run(fmt.Sprintf("%dx%d/pane %d", c.w, c.h, pane), func(t *testing.T) {
				m, cl, _, _ := newScreen(t, c.w, c.h)
				press(m, "enter")
				for m.Focused() != pane {
					press(m, "tab")
				}
				rows := m.List.Rows()
				for i, want := range []struct {
					key string
					row int
				}{{"J", 1}, {"J", 2}, {"K", 1}} {
					before := cl.Usage(client.FamilyConversations)
					press(m, want.key)
					id := rows[want.row].ID
					if r, _ := m.List.Selected(); r.ID != id {
						t.Fatalf("press %d (%s): the list's cursor is on %d, want %d", i+1, want.key, r.ID, id)
					}
					if m.Focused() != pane {
						t.Fatalf("press %d (%s) moved the focus to pane %d", i+1, want.key, m.Focused())
					}
					thread := pane == conversations.PaneMessages || c.w >= conversations.MediumWidth
					detail := pane == conversations.PaneDetail || c.detail
					if thread && m.Msgs.ConversationID() != id {
						t.Fatalf("press %d (%s): the thread shows %d, want %d", i+1, want.key, m.Msgs.ConversationID(), id)
					}
					if detail && m.Detail.ID() != id {
						t.Fatalf("press %d (%s): the detail shows %d, want %d", i+1, want.key, m.Detail.ID(), id)
					}
					// What opening costs: the newest page for a shown thread, the conversation
					// for a shown detail.
					cost := 0
					if thread {
						cost++
					}
					if detail {
						cost++
					}
					if n := cl.Usage(client.FamilyConversations) - before; n > cost || want.key == "J" && n != cost {
						t.Fatalf("press %d (%s) cost %d requests, want %d", i+1, want.key, n, cost)
					}
				}
			})
		}
	}
}

// J on the last row loaded asks for the next page, and the cursor, the thread and the
// detail go on to the first conversation of that page when it arrives.
func TestNextConversationLoadsTheNextPage(t *testing.T) {
	t.Parallel()
	m, cl, _, _ := newPagedScreen(t, 80, 24, 10)
	rows := m.List.Rows()
	n := len(rows)
	if n%10 != 0 || m.List.Total() <= n+10 {
		t.Fatalf("%d rows loaded of %d, want pages of 10 and more to come", n, m.List.Total())
	}
	last := rows[n-1].ID
	if !m.List.SelectID(last) {
		t.Fatal("the last row loaded cannot be selected")
	}
	press(m, "enter")
	if m.Msgs.ConversationID() != last {
		t.Fatalf("enter opened %d, want %d", m.Msgs.ConversationID(), last)
	}
	page, err := cl.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	next := page.Results[n].ID
	press(m, "J")
	if len(m.List.Rows()) <= n {
		t.Fatalf("J on the last row loaded: %d rows loaded, want the next page", len(m.List.Rows()))
	}
	if r, _ := m.List.Selected(); r.ID != next || m.Msgs.ConversationID() != next {
		t.Fatalf("J on the last row loaded: cursor on %d, thread %d, want %d", r.ID, m.Msgs.ConversationID(), next)
	}
	press(m, "K")
	if r, _ := m.List.Selected(); r.ID != last || m.Msgs.ConversationID() != last {
		t.Fatalf("K: cursor on %d, thread %d, want %d", r.ID, m.Msgs.ConversationID(), last)
	}
}
