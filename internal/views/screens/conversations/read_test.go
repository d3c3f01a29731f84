package conversations_test

import (
	"fmt"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// readEnv is the conversations screen at 200×50 on a sandbox whose requests are logged.
type readEnv struct {
	t   *testing.T
	m   *conversations.Model
	log *viewtest.RequestLog
}

func newReadEnv(t *testing.T, setup func(*common.Ctx)) *readEnv {
	t.Helper()
	log := &viewtest.RequestLog{}
	sb := viewtest.Sandbox(t, sandbox.Options{RequestLog: log})
	ctx := viewtest.Ctx(viewtest.Client(t, sb))
	ctx.MarkReadOnOpen = true
	if setup != nil {
		setup(ctx)
	}
	return &readEnv{t: t, m: openScreen(ctx, 200, 50), log: log}
}

// rowWith is a loaded row that is unread (or read).
func (e *readEnv) rowWith(unread bool) listing.Row {
	e.t.Helper()
	for _, r := range e.m.List.Rows() {
		if r.Unread == unread && r.Status != "" {
			return r
		}
	}
	e.t.Fatalf("no loaded row with unread %t", unread)
	return listing.Row{}
}

// patches counts the PATCHes of conversation id so far.
func (e *readEnv) patches(id int64) int {
	return e.log.Count("PATCH", fmt.Sprintf("/conversations/%d/", id))
}

// open puts the list's cursor on id and presses enter, then comes back to the list.
func (e *readEnv) open(id int64) {
	e.t.Helper()
	if !e.m.List.SelectID(id) {
		e.t.Fatalf("conversation %d is not loaded", id)
	}
	for _, k := range []string{"enter", "esc"} {
		_, cmd := e.m.Update(viewtest.Key(k))
		settle(e.m, cmd)
	}
}

// TestOpeningAnUnreadConversationMarksItRead: enter on an unread conversation sends one
// PATCH (marked_read_operator true) and the dot goes; enter on a read one, or on the same
// one again, sends none; u still toggles.
func TestOpeningAnUnreadConversationMarksItRead(t *testing.T) {
	t.Parallel()
	e := newReadEnv(t, nil)
	unread, read := e.rowWith(true), e.rowWith(false)
	e.open(unread.ID)
	if n := e.patches(unread.ID); n != 1 {
		t.Fatalf("opening unread conversation %d sent %d PATCHes, want 1", unread.ID, n)
	}
	if r, _ := e.m.List.Row(unread.ID); r.Unread {
		t.Fatal("the dot stayed after the PATCH")
	}
	e.open(unread.ID)
	e.open(read.ID)
	if n, m := e.patches(unread.ID), e.patches(read.ID); n != 1 || m != 0 {
		t.Fatalf("opening read conversations sent PATCHes: %d of %d, %d of %d", n-1, unread.ID, m, read.ID)
	}
	e.m.List.SelectID(unread.ID)
	_, cmd := e.m.Update(viewtest.Key("u"))
	settle(e.m, cmd)
	if r, _ := e.m.List.Row(unread.ID); !r.Unread || e.patches(unread.ID) != 2 {
		t.Fatalf("u after the open: unread %t, %d PATCHes", r.Unread, e.patches(unread.ID))
	}
}

// TestRestingOnAnUnreadRowDoesNotMarkIt: the cursor resting on an unread row shows it in
// the thread without marking it read: only opening it does.
func TestRestingOnAnUnreadRowDoesNotMarkIt(t *testing.T) {
	t.Parallel()
	e := newReadEnv(t, nil)
	rows := e.m.List.Rows()
	var unread listing.Row
	for i := 1; i < len(rows) && unread.ID == 0; i++ {
		if rows[i].Unread {
			unread = rows[i]
			e.m.List.SelectID(rows[i-1].ID)
		}
	}
	_, cmd := e.m.Update(viewtest.Key("j"))
	settle(e.m, cmd)
	if e.m.Msgs.ConversationID() != unread.ID {
		t.Fatalf("the thread shows %d, want %d where the cursor rests", e.m.Msgs.ConversationID(), unread.ID)
	}
	if n := e.patches(unread.ID); n != 0 {
		t.Fatalf("resting on conversation %d sent %d PATCHes", unread.ID, n)
	}
}

// TestNoMarkReadWhereTheSessionMayNotWrite: read-only (a viewer of the hub too) and the
// setting off send nothing when an unread conversation is opened; the dot stays.
func TestNoMarkReadWhereTheSessionMayNotWrite(t *testing.T) {
	t.Parallel()
	for name, setup := range map[string]func(*common.Ctx){
		"read-only": func(ctx *common.Ctx) {
			keys := *ctx.Keys
			keys.Deny(keymap.CanWrite)
			ctx.Keys = &keys
		},
		"setting off": func(ctx *common.Ctx) { ctx.MarkReadOnOpen = false },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newReadEnv(t, setup)
			unread := e.rowWith(true)
			e.open(unread.ID)
			if n := e.log.Count("PATCH", ""); n != 0 {
				t.Fatalf("%d PATCHes", n)
			}
			if r, _ := e.m.List.Row(unread.ID); !r.Unread {
				t.Fatal("the dot went")
			}
		})
	}
}

// TestAConversationOpenedFromElsewhereIsMarkedReadWhenItsDetailTells: opened from a
// contact while not among the rows (pinned), whether it is unread comes with its detail;
// then one PATCH goes.
func TestAConversationOpenedFromElsewhereIsMarkedReadWhenItsDetailTells(t *testing.T) {
	t.Parallel()
	e := newReadEnv(t, nil)
	unread := e.rowWith(true)
	other := client.StatusNew
	if unread.Status == client.StatusNew {
		other = client.StatusEnded
	}
	_, cmd := e.m.Update(listing.FilterMsg{Filter: client.ConversationFilter{Status: other}})
	settle(e.m, cmd)
	if _, loaded := e.m.List.Row(unread.ID); loaded {
		t.Fatal("the ended conversation is among the new ones")
	}
	_, cmd = e.m.Update(common.OpenConversationMsg{ConversationID: unread.ID, From: "a contact"})
	settle(e.m, cmd)
	if n := e.patches(unread.ID); n != 1 {
		t.Fatalf("opening pinned unread conversation %d sent %d PATCHes, want 1", unread.ID, n)
	}
}
