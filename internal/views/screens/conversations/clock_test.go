package conversations_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// With the local clock 17 days off the server's either way, every write of the screen whose
// answer is lost is settled by what the server shows (the topics, the conversation's
// fields, a 404), never by the local clock: a change that reached the server is reported
// saved, one that did not is reported not saved, and nothing is sent twice. The writes:
// topics (the form), mark read (the same check as take, assign, unassign and reopen), end
// (asked first) and delete.
func TestLostWritesAreCheckedWithoutTheLocalClock(t *testing.T) {
	t.Parallel()
	viewtest.EachSkew(t, sandbox.Options{}, func(t *testing.T, sk *viewtest.Skewed) {
		p, ctx := sk.Lossy(t)
		info := sk.Sandbox.Server.Info()
		direct := viewtest.Client(t, sk.Sandbox)
		page, err := direct.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 2}})
		if err != nil || len(page.Results) < 2 {
			t.Fatalf("first page: %v", err)
		}
		id := page.Results[1].ID
		if err := setStatus(client.StatusPending, false)(direct, id, info); err != nil {
			t.Fatal(err)
		}
		m := openScreen(ctx, 200, 50)
		if !m.List.SelectID(id) {
			t.Fatalf("conversation %d is not on the first page", id)
		}
		s := viewtest.RunScreen(t, ctx, m, 200, 50)
		server := func() *client.Conversation {
			t.Helper()
			conv, err := direct.GetConversation(client.Fresh(t.Context()), id)
			if err != nil {
				t.Fatal(err)
			}
			return conv
		}
		topics := func() []string { return list.Map(server().Topics, func(tp client.Topic) string { return tp.Text }) }
		// report presses keys and returns the toast that reports the write they start.
		report := func(what string, keys ...string) string {
			t.Helper()
			n := len(s.H.Toasts)
			s.Key(keys...)
			s.Until(what, func() bool { return len(s.H.Toasts) > n })
			return s.H.LastToast()
		}
		const confirmed = " (confirmed after the connection dropped)"

		// Topics: the PATCH arrives, its answer is lost; then one that never arrives.
		p.Lose("PATCH", "/api/um/v3/conversations/", viewtest.DropAnswer, 1)
		s.Key("t")
		if len(m.List.SeenTopics()) > 0 {
			s.Key("tab")
		}
		s.Key("skewone", "ctrl+s")
		s.Until("the topics form closed", func() bool { return s.H.Top() == nil })
		if got := s.H.LastToast(); got != "Topics saved"+confirmed || !slices.Contains(topics(), "skewone") {
			t.Fatalf("topics: toast %q, server %q", got, topics())
		}
		p.Lose("PATCH", "/api/um/v3/conversations/", viewtest.DropRequest, 1)
		s.Key("t")
		f, ok := s.Modal().(*forms.Modal)
		if !ok {
			t.Fatalf("t opened %T", s.H.Top())
		}
		if len(m.List.SeenTopics()) > 0 {
			s.Key("tab")
		}
		s.Key("skewtwo", "ctrl+s")
		s.Until("the check", func() bool { return !f.Submitting() })
		if want := "Not saved: the connection was lost before the server answered, and the conversation's topics on the server are not the ones sent. ctrl+s sends it again."; s.H.Top() != f || f.Err() != want {
			t.Fatalf("topics not sent: form open %v, error %q", s.H.Top() == f, f.Err())
		}
		s.Key("ctrl+s")
		s.Until("the topics form closed", func() bool { return s.H.Top() == nil })
		if got := topics(); !slices.Contains(got, "skewtwo") {
			t.Fatalf("topics on the server %q", got)
		}

		// Mark read: lost answer, then lost request.
		p.Lose("PATCH", "/api/um/v3/conversations/", viewtest.DropAnswer, 1)
		if got, want := report("mark read", "u"), fmt.Sprintf("Marked conversation #%d read", id)+confirmed+"."; got != want || !server().MarkedReadOperator {
			t.Fatalf("mark read: toast %q, want %q; read on the server %v", got, want, server().MarkedReadOperator)
		}
		p.Lose("PATCH", "/api/um/v3/conversations/", viewtest.DropRequest, 1)
		got := report("mark unread", "u")
		if !strings.HasPrefix(got, fmt.Sprintf("Could not mark conversation #%d unread: Not saved: ", id)) || !strings.Contains(got, "it is still read") || !server().MarkedReadOperator {
			t.Fatalf("mark unread not sent: toast %q, read on the server %v", got, server().MarkedReadOperator)
		}

		// End (asked first): the answer is lost.
		p.Lose("PATCH", "/api/um/v3/conversations/", viewtest.DropAnswer, 1)
		s.Key("E")
		s.Modal()
		if got, want := report("end", "y"), fmt.Sprintf("Ended conversation #%d", id)+confirmed+"."; got != want || server().Status != client.StatusEnded {
			t.Fatalf("end: toast %q, want %q; status on the server %q", got, want, server().Status)
		}

		// Delete the ended conversation: the answer is lost, the 404 confirms it.
		s.Until("the row ended", func() bool { r, _ := m.List.Row(id); return r.Status == client.StatusEnded })
		p.Lose("DELETE", "/api/um/v3/conversations/", viewtest.DropAnswer, 1)
		s.Key("d")
		s.Modal()
		if got, want := report("delete", "y"), "Deleted 1 conversation"+confirmed+"."; got != want {
			t.Fatalf("delete: toast %q, want %q", got, want)
		}
		if _, err := direct.GetConversation(client.Fresh(t.Context()), id); !client.IsNotFound(err) {
			t.Fatalf("conversation %d is still there: %v", id, err)
		}
		if n := p.Met(); n != 6 {
			t.Fatalf("%d requests lost, want the 6 the test lost", n)
		}
	})
}
