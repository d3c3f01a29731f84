package contacts_test

import (
	"context"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

const wait = 5 * time.Second

type env struct {
	sb   *sandbox.Running
	rec  *viewtest.Recorder
	c    *client.Client
	ctx  *common.Ctx
	info sandbox.Info
}

// shared is one small sandbox for the tests that only read; writers get their own.
var shared struct {
	once sync.Once
	sb   *sandbox.Running
	err  error
}

func readOnly(t *testing.T) *env {
	t.Helper()
	shared.once.Do(func() {
		shared.sb, shared.err = sandbox.Start(context.Background(), sandbox.Options{Size: sandbox.SizeSmall, Seed: 1,
			Now: viewtest.Clock, BurstRate: -1, DailyLimit: 1 << 30}, "127.0.0.1:0")
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return envOn(t, shared.sb, 0)
}

func writable(t *testing.T) *env {
	t.Helper()
	return envOn(t, viewtest.Sandbox(t, sandbox.Options{DailyLimit: 1 << 30}), 0)
}

func envOn(t *testing.T, sb *sandbox.Running, operatorID int64) *env {
	t.Helper()
	rec := &viewtest.Recorder{Next: viewtest.Transport(t)}
	info := sb.Server.Info()
	c := viewtest.ClientVia(t, sb, rec, client.Config{OperatorID: operatorID})
	return &env{sb: sb, rec: rec, c: c, ctx: viewtest.Ctx(c), info: info}
}

// as returns a client of the same sandbox acting as operatorID, recording into e.rec.
func (e *env) as(t *testing.T, operatorID int64) *client.Client {
	t.Helper()
	return viewtest.ClientVia(t, e.sb, e.rec, client.Config{OperatorID: operatorID})
}

func (e *env) operatorWithRole(t *testing.T, role string) int64 {
	t.Helper()
	for op, err := range e.c.Operators(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if op.Role == role {
			return op.ID
		}
	}
	t.Fatalf("no %s operator in the sandbox", role)
	return 0
}

// contactWith returns a contact for which ok holds.
func (e *env) contactWith(t *testing.T, ok func(client.Contact) bool) client.Contact {
	t.Helper()
	for ct, err := range e.c.ContactsAll(context.Background(), client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		if ok(ct) {
			return ct
		}
	}
	t.Fatal("no such contact in the sandbox")
	return client.Contact{}
}

// run runs cmd and what it batches or sequences, skipping ticks and cursor blinks, and
// returns the messages.
func run(cmd tea.Cmd) []tea.Msg { return viewtest.RunSkippingTicks(cmd, wait) }

func find[T any](msgs []tea.Msg) (T, bool) {
	for _, m := range msgs {
		if v, ok := m.(T); ok {
			return v, true
		}
	}
	var zero T
	return zero, false
}

type submitter interface{ Submitting() bool }

func isSubmitting(m common.Modal) bool {
	s, ok := m.(submitter)
	return ok && s.Submitting()
}

// drive delivers msg to a modal the way Bubble Tea would: it runs the commands that need no
// I/O and feeds their messages (huh's field moves) back, until nothing is left or the form
// starts its task, whose command is returned unrun. Messages for the root or a screen
// (close, toast, filter, …) are returned.
func drive(m common.Modal, msg tea.Msg) (common.Modal, tea.Cmd, []tea.Msg) {
	return deliver(m, []tea.Msg{msg}, 200, run)
}

// deliver hands the messages of queue to modal m one after the other, up to limit of them,
// and after them the messages of the commands each one returns, as exec runs them. It stops
// when the form starts its task, and returns the task's command unrun. Messages for the
// root or a screen (toasts, task reports, filters, searches) are returned, not delivered.
func deliver(m common.Modal, queue []tea.Msg, limit int, exec func(tea.Cmd) []tea.Msg) (common.Modal, tea.Cmd, []tea.Msg) {
	var out []tea.Msg
	for n := 0; len(queue) > 0 && n < limit; n++ {
		next := queue[0]
		queue = queue[1:]
		was := isSubmitting(m)
		var cmd tea.Cmd
		m, cmd = m.Update(next)
		if !was && isSubmitting(m) {
			return m, cmd, out
		}
		for _, r := range exec(cmd) {
			switch r.(type) {
			case common.ToastMsg, common.TaskDoneMsg,
				contacts.FilterMsg, contacts.SearchMsg:
				out = append(out, r)
			default:
				queue = append(queue, r)
			}
		}
	}
	return m, nil, out
}

// typeInto sends text to a modal one key at a time (typing needs none of the commands it
// returns: they only blink the cursor).
func typeInto(m common.Modal, s string) common.Modal {
	for _, r := range s {
		m, _ = m.Update(viewtest.Key(string(r)))
	}
	return m
}

// press sends keys to a modal.
func press(m common.Modal, keys ...string) common.Modal {
	for _, k := range keys {
		for _, msg := range viewtest.KeysOf(k) {
			m, _, _ = drive(m, msg)
		}
	}
	return m
}

// openModal sizes and starts a modal like the root does.
func openModal(m common.Modal, w, h int) common.Modal {
	m.SetSize(w, h)
	for _, r := range run(m.Init()) {
		m, _, _ = drive(m, r)
	}
	return m
}

func ptr(s string) *string { return &s }

// inServerOrder makes ctx's contact list open in the server's order (newest id first)
// rather than the default by creation: the tests that delete the top rows rely on the
// sandbox's newest contacts having no ongoing conversation.
func inServerOrder(ctx *common.Ctx) {
	ctx.Orderings = map[string]string{common.ViewsContacts: client.Contacts.Default}
}
