package conversations_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

func jump(t *testing.T, m conversations.Model, text string) (conversations.Model, []string) {
	t.Helper()
	return viewtest.KeyAnswer(t, m, "#", text, wait)
}

// # goes to a loaded conversation at once; one that is not loaded yet is asked for by id
// (id__gt and id__lt around it, with the list's filters) and shows pinned with the cursor on
// it; one the list's filters leave out, and text that is no id, are said so.
func TestJumpToID(t *testing.T) {
	c, log := listEnv(t)
	m := newList(t, c, 10, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	target := m.Rows()[7]
	before := len(listRequests(t, log))
	m, _ = jump(t, m, fmt.Sprint(target.ID))
	for _, q := range listRequests(t, log)[before:] {
		if q.Has("id__gt") {
			t.Fatalf("# %d asked the server %v for a loaded row", target.ID, q)
		}
	}
	if r, _ := m.Selected(); r.ID != target.ID {
		t.Fatalf("# %d: cursor on %d, want the loaded row", target.ID, r.ID)
	}

	all, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100, Ordering: "id"}})
	if err != nil {
		t.Fatal(err)
	}
	far := all.Results[0] // the oldest: the last page of the list
	if _, loaded := m.Row(far.ID); loaded {
		t.Fatalf("conversation %d is loaded already", far.ID)
	}
	before = len(listRequests(t, log))
	m, _ = jump(t, m, fmt.Sprintf("#%d", far.ID))
	sent := listRequests(t, log)[before:]
	if len(sent) != 1 || sent[0].Get("id__gt") != fmt.Sprint(far.ID-1) || sent[0].Get("id__lt") != fmt.Sprint(far.ID+1) {
		t.Fatalf("# %d sent %v, want one request by id", far.ID, sent)
	}
	if r, _ := m.Selected(); r.ID != far.ID || m.Pinned() != far.ID || r.Name == "" {
		t.Fatalf("# %d: cursor on %+v, pinned %d", far.ID, r, m.Pinned())
	}
	if !strings.Contains(m.View(), fmt.Sprintf("» #%d in this list, not loaded yet", far.ID)) {
		t.Fatalf("the footer does not say what the pinned row is:\n%s", m.View())
	}

	m = viewtest.Settle(m, m.SetQuery(conversations.Query{Filter: client.ConversationFilter{Status: client.StatusNew}}), wait)
	var ended client.Conversation
	for _, conv := range all.Results {
		if conv.Status == client.StatusEnded {
			ended = conv
			break
		}
	}
	m, toasts := jump(t, m, fmt.Sprint(ended.ID))
	if want := fmt.Sprintf("This list has no conversation #%d.", ended.ID); len(toasts) != 1 || toasts[0] != want {
		t.Fatalf("# of an ended conversation in the new ones: toasts %q, want %q", toasts, want)
	}
	if _, toasts = jump(t, m, "abc"); len(toasts) != 1 || !strings.Contains(toasts[0], "not a positive whole number") {
		t.Fatalf("# abc: toasts %q", toasts)
	}
}
