package conversations_test

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// cursorOnOngoing moves the cursor to the first ongoing row and returns it.
func cursorOnOngoing(t *testing.T, m *conversations.Model) listing.Row {
	t.Helper()
	for i, r := range m.List.Rows() {
		if r.Status == client.StatusEnded || r.Name == "" {
			continue
		}
		for range i {
			m.Update(viewtest.Key("j"))
		}
		if sel, ok := m.List.Selected(); !ok || sel.ID != r.ID {
			t.Fatalf("the cursor is on %+v, want row %d", sel, r.ID)
		}
		return r
	}
	t.Fatal("no ongoing row on the first page")
	return listing.Row{}
}

// askDelete presses d and returns the question it opens.
func askDelete(t *testing.T, ctx *common.Ctx, m *conversations.Model) common.Modal {
	t.Helper()
	m.Update(viewtest.Key("d"))
	if q := viewtest.Opened(ctx); q != nil {
		return q
	}
	t.Fatal("d on an ongoing conversation asked nothing")
	return nil
}

// questionText is the question's text on one line, without the box.
func questionText(q common.Modal) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(q.View(), "│", " ")), " ")
}

// answer sends key to the question and delivers what it leads to; it returns the toasts.
func answer(m *conversations.Model, q common.Modal, k tea.KeyMsg) []common.ToastMsg {
	_, cmd := q.Update(k)
	var toasts []common.ToastMsg
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		for _, msg := range viewtest.RunSkippingTicks(c, wait) {
			if tm, ok := msg.(common.ToastMsg); ok {
				toasts = append(toasts, tm)
				continue
			}
			_, next := m.Update(msg)
			pending = append(pending, next)
		}
	}
	return toasts
}

// TestDeleteOngoingWarnsAndShowsTheRefusal: d on an ongoing conversation asks with a warning
// that enter does not answer; y sends the single DELETE (the spec keeps ongoing
// conversations from list DELETEs only), and the sandbox's refusal shows with its detail
// while the row stays.
func TestDeleteOngoingWarnsAndShowsTheRefusal(t *testing.T) {
	t.Parallel()
	m, c, _, ctx := newScreen(t, 120, 40)
	r := cursorOnOngoing(t, m)
	q := askDelete(t, ctx, m)
	want := fmt.Sprintf("Conversation #%d with %s is ongoing (%s). The API may refuse or end it; delete anyway? This cannot be undone.", r.ID, r.Name, r.Status)
	if v := questionText(q); !strings.Contains(v, want) {
		t.Fatalf("the question does not warn:\n%s\nwant %q", q.View(), want)
	}
	before := c.Usage(client.FamilyConversations)
	if toasts := answer(m, q, tea.KeyPressMsg{Code: tea.KeyEnter}); len(toasts) > 0 || c.Usage(client.FamilyConversations) != before {
		t.Fatalf("enter answered the warning: toasts %v, %d requests", toasts, c.Usage(client.FamilyConversations)-before)
	}
	toasts := answer(m, q, viewtest.Key("y"))
	if len(toasts) != 1 || !toasts[0].Error || !strings.Contains(toasts[0].Text, "Refused by the API: Conversation") ||
		!strings.Contains(toasts[0].Text, "only ended conversations can be deleted") {
		t.Fatalf("toasts %+v, want the server's refusal", toasts)
	}
	if _, ok := m.List.Row(r.ID); !ok {
		t.Fatal("the refused conversation left the list")
	}
	if _, err := c.GetConversation(t.Context(), r.ID); err != nil {
		t.Fatalf("the conversation is gone on the server: %v", err)
	}
}

// TestDeleteOngoingThatTheServerDeletes: when the server deletes the conversation the list
// shows as ongoing (here: ended meanwhile by another agent), the row goes and a toast says so.
func TestDeleteOngoingThatTheServerDeletes(t *testing.T) {
	t.Parallel()
	m, c, sb, ctx := newScreen(t, 120, 40)
	r := cursorOnOngoing(t, m)
	ended := client.StatusEnded
	if _, err := viewtest.Client(t, sb).UpdateConversation(t.Context(), r.ID, client.ConversationUpdate{Status: &ended}); err != nil {
		t.Fatal(err)
	}
	q := askDelete(t, ctx, m)
	if !strings.Contains(questionText(q), "is ongoing") {
		t.Fatalf("the question does not warn:\n%s", q.View())
	}
	toasts := answer(m, q, viewtest.Key("y"))
	if len(toasts) != 1 || toasts[0].Error || toasts[0].Text != "Deleted 1 conversation." {
		t.Fatalf("toasts %+v, want \"Deleted 1 conversation.\"", toasts)
	}
	if _, ok := m.List.Row(r.ID); ok {
		t.Fatal("the deleted conversation is still listed")
	}
	if _, err := c.GetConversation(t.Context(), r.ID); !client.IsNotFound(err) {
		t.Fatalf("GET after the delete: %v, want 404", err)
	}
}

// TestDeleteMarkedSendsOnlyTheEnded: with 2 ended and 2 ongoing conversations marked, the
// list DELETE carries only the 2 ended ids in delete_ids, the question says the ongoing ones
// are not sent, and the toast says what was deleted and what was left.
func TestDeleteMarkedSendsOnlyTheEnded(t *testing.T) {
	t.Parallel()
	e := viewtest.NewEnv(t, sandbox.Options{}, nil)
	ctx := viewtest.Ctx(e.Client)
	m := openScreen(ctx, 120, 40)
	var idx []int
	var ended []string
	nEnded, nOngoing := 0, 0
	for i, r := range m.List.Rows() {
		switch {
		case r.Status == client.StatusEnded && nEnded < 2:
			nEnded++
			ended = append(ended, strconv.FormatInt(r.ID, 10))
		case r.Status != client.StatusEnded && nOngoing < 2:
			nOngoing++
		default:
			continue
		}
		idx = append(idx, i)
	}
	if nEnded < 2 || nOngoing < 2 {
		t.Fatal("the first page lacks 2 ended and 2 ongoing rows")
	}
	markRows(t, m, idx...)
	q := askDelete(t, ctx, m)
	if text := questionText(q); !strings.Contains(text, "2 ongoing ones are not sent and stay") {
		t.Fatalf("the question does not say the ongoing ones stay unsent: %s", text)
	}
	toasts := answer(m, q, viewtest.Key("y"))
	want := "Deleted 2 conversations. 2 ongoing conversations not sent (only ended ones can be deleted)."
	if len(toasts) != 1 || toasts[0].Error || toasts[0].Text != want {
		t.Fatalf("toasts %+v, want %q", toasts, want)
	}
	var sent []string
	for _, l := range e.Log.Lines() {
		if l.Method == "DELETE" && strings.HasSuffix(l.Path, "/conversations/") {
			v, err := url.ParseQuery(l.Query)
			if err != nil {
				t.Fatal(err)
			}
			sent = append(sent, v.Get("delete_ids"))
		}
	}
	slices.Sort(ended)
	if len(sent) != 1 {
		t.Fatalf("list DELETEs %q, want one", sent)
	}
	got := strings.Split(sent[0], ",")
	slices.Sort(got)
	if !slices.Equal(got, ended) {
		t.Fatalf("delete_ids %q, want only the ended %q", sent[0], ended)
	}
}
