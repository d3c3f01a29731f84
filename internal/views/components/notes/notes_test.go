package notes

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

var fixedNow = time.Date(2026, 11, 20, 10, 15, 0, 0, time.UTC)

type env struct {
	ctx  *common.Ctx
	log  *viewtest.RequestLog
	info sandbox.Info
	url  string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.r != nil {
		_ = shared.r.Close()
	}
	os.Exit(code)
}

// shared is one small sandbox for the package's tests (seeding takes about a second);
// request counts are taken as differences.
var shared struct {
	once sync.Once
	r    *sandbox.Running
	log  *viewtest.RequestLog
	err  error
}

func start(t *testing.T) *env {
	t.Helper()
	shared.once.Do(func() {
		shared.log = &viewtest.RequestLog{}
		shared.r, shared.err = sandbox.Start(context.Background(), sandbox.Options{Size: sandbox.SizeSmall, Seed: 1,
			Now: func() time.Time { return fixedNow }, BurstRate: -1, DailyLimit: 1 << 30, RequestLog: shared.log}, "127.0.0.1:0")
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	info := shared.r.Server.Info()
	c, err := client.New(client.Config{BaseURL: shared.r.URL, Token: info.CustomerToken})
	if err != nil {
		t.Fatal(err)
	}
	ctx := &common.Ctx{Styles: theme.Plain(true), Keys: keymap.Default(),
		Now: func() time.Time { return fixedNow }, Client: c, Operators: map[int64]string{}}
	return &env{ctx: ctx, log: shared.log, info: info, url: shared.r.URL}
}

// as returns a client acting as the given operator.
func (e *env) as(t *testing.T, operatorID int64) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: e.url, Token: e.info.CustomerToken, OperatorID: operatorID})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (e *env) firstContact(t *testing.T) client.Contact {
	t.Helper()
	p, err := e.ctx.Client.ListContacts(context.Background(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil || len(p.Results) == 0 {
		t.Fatalf("list contacts: %v %v", p, err)
	}
	return p.Results[0]
}

func (e *env) botID(t *testing.T) int64 {
	t.Helper()
	for op, err := range e.ctx.Client.Operators(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if op.Role == client.RoleBot {
			return op.ID
		}
	}
	t.Fatal("no bot operator in the sandbox")
	return 0
}

// runes is the press of the one key s.
func runes(s string) tea.KeyPressMsg { return viewtest.Key(s) }

var (
	enter = tea.KeyPressMsg{Code: tea.KeyEnter}
	ctrlS = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	esc   = tea.KeyPressMsg{Code: tea.KeyEscape}
)

// typeText sends text one key at a time.
func typeText(m common.Modal, s string) common.Modal {
	for _, r := range s {
		m, _ = m.Update(runes(string(r)))
	}
	return m
}

// run runs cmd and what it batches or sequences, skipping ticks and cursor blinks, and
// returns the messages (requests are awaited).
func run(cmd tea.Cmd) []tea.Msg { return viewtest.RunSkippingTicks(cmd, 30*time.Second) }

// runTask is run for a command that makes a request.
func runTask(cmd tea.Cmd) []tea.Msg { return run(cmd) }

// closed reports whether the form asked to be closed since the last look, as the root sees
// it: it takes the changes asked for during an update right after it.
func closed(ctx *common.Ctx) bool {
	closing, _ := ctx.TakeModalChanges()
	return len(closing) > 0
}

func taskDone(msgs []tea.Msg) (common.TaskDoneMsg, bool) {
	for _, m := range msgs {
		if d, ok := m.(common.TaskDoneMsg); ok {
			return d, true
		}
	}
	return common.TaskDoneMsg{}, false
}

func has[T any](msgs []tea.Msg) bool {
	for _, m := range msgs {
		if _, ok := m.(T); ok {
			return true
		}
	}
	return false
}

func open(e *env, id int64, name string) common.Modal {
	m := NewNoteForm(e.ctx, id, name)
	m.SetSize(76, 20)
	run(m.Init())
	return m
}

func TestNoteEnterIsNewLineCtrlSSavesOnce(t *testing.T) {
	e := start(t)
	ct := e.firstContact(t)
	posts := e.log.Count("POST", "/api/um/v3/notes/")
	m := open(e, ct.ID, "Anna")
	m = typeText(m, "first line")
	m, cmd := m.Update(enter)
	if d, ok := taskDone(run(cmd)); ok {
		t.Fatalf("enter submitted: %+v", d)
	}
	m = typeText(m, "second line")
	if v := m.View(); !strings.Contains(v, "first line") || !strings.Contains(v, "second line") {
		t.Fatalf("view lacks the typed lines:\n%s", v)
	}
	m, cmd = m.Update(ctrlS)
	if cmd == nil {
		t.Fatal("ctrl+s returned no command")
	}
	if !m.(*Form).Submitting() || !strings.Contains(m.View(), "Saving") {
		t.Fatalf("not shown as saving:\n%s", m.View())
	}
	// A second ctrl+s (and an enter) while saving sends nothing.
	if _, c2 := m.Update(ctrlS); c2 != nil {
		if _, ok := taskDone(run(c2)); ok {
			t.Fatal("a second ctrl+s sent a second request")
		}
	}
	m.Update(enter)
	d, ok := taskDone(runTask(cmd))
	if !ok || d.Err != nil || d.Kind != KindCreated {
		t.Fatalf("task: %+v", d)
	}
	n := d.Result.(client.Note)
	if n.Body != "first line\nsecond line" || n.ContactIdentityID != ct.ID {
		t.Fatalf("note: %+v", n)
	}
	if got := e.log.Count("POST", "/api/um/v3/notes/") - posts; got != 1 {
		t.Fatalf("%d note POSTs, want 1", got)
	}
	_, cmd = m.Update(d)
	msgs := run(cmd)
	if !closed(e.ctx) || !has[common.ToastMsg](msgs) {
		t.Fatalf("success did not close with a toast: %#v", msgs)
	}
}

func TestNoteEmptyIsRefusedWithoutRequest(t *testing.T) {
	e := start(t)
	posts := e.log.Count("POST", "/api/um/v3/notes/")
	m := open(e, e.firstContact(t).ID, "Anna")
	m = typeText(m, "   ")
	m, cmd := m.Update(ctrlS)
	if _, ok := taskDone(run(cmd)); ok {
		t.Fatal("an empty note was sent")
	}
	if !strings.Contains(m.View(), "the note is empty") {
		t.Fatalf("no validation message:\n%s", m.View())
	}
	if got := e.log.Count("POST", "/api/um/v3/notes/") - posts; got != 0 {
		t.Fatalf("%d POSTs", got)
	}
}

func TestNoteEscAsksBeforeDiscarding(t *testing.T) {
	e := start(t)
	m := open(e, 1, "Anna")
	// Nothing typed: esc closes at once.
	m.Update(esc)
	if !closed(e.ctx) {
		t.Fatal("esc on an empty note did not close")
	}
	m = open(e, 1, "Anna")
	m = typeText(m, "keep me")
	m, _ = m.Update(esc)
	if closed(e.ctx) {
		t.Fatal("esc discarded typed text without asking")
	}
	if !strings.Contains(m.View(), "Discard") {
		t.Fatalf("no discard question:\n%s", m.View())
	}
	m, _ = m.Update(runes("n")) // keep editing
	if !strings.Contains(m.View(), "keep me") || strings.Contains(m.View(), "Discard") {
		t.Fatalf("text lost or still asking:\n%s", m.View())
	}
	m, _ = m.Update(esc)
	m.Update(runes("y"))
	if !closed(e.ctx) {
		t.Fatal("y did not discard")
	}
}

func TestNoteFailureKeepsTextAndShowsDetail(t *testing.T) {
	e := start(t)
	ct := e.firstContact(t)
	e.ctx.Client = e.as(t, e.botID(t)) // bots are read-only: 403
	posts := e.log.Count("POST", "/api/um/v3/notes/")
	m := open(e, ct.ID, "Anna")
	m = typeText(m, "line one")
	m, _ = m.Update(enter)
	m = typeText(m, "line two")
	m, cmd := m.Update(ctrlS)
	d, ok := taskDone(runTask(cmd))
	if !ok || d.Err == nil {
		t.Fatalf("want a failed task, got %+v", d)
	}
	m, _ = m.Update(d)
	if closed(e.ctx) {
		t.Fatal("a failed save closed the form")
	}
	v := m.View()
	if !strings.Contains(v, "You lack permission") {
		t.Fatalf("no permission message:\n%s", v)
	}
	if !strings.Contains(v, "line one") || !strings.Contains(v, "line two") {
		t.Fatalf("typed text lost:\n%s", v)
	}
	// Enter is still a new line on the rebuilt form, and ctrl+s retries (once).
	m, cmd = m.Update(enter)
	if _, ok := taskDone(run(cmd)); ok {
		t.Fatal("enter submitted after a failure")
	}
	m = typeText(m, "line three")
	e.ctx.Client = e.as(t, 0)
	_, cmd = m.Update(ctrlS)
	d, ok = taskDone(runTask(cmd))
	if !ok || d.Err != nil {
		t.Fatalf("retry as the owner: %+v", d)
	}
	if got := d.Result.(client.Note).Body; got != "line one\nline two\nline three" {
		t.Fatalf("saved body %q", got)
	}
	if got := e.log.Count("POST", "/api/um/v3/notes/") - posts; got != 2 {
		t.Fatalf("%d POSTs, want 2", got)
	}
}

func TestConfirmDeleteNamesTheNoteAndDeletes(t *testing.T) {
	e := start(t)
	ct := e.firstContact(t)
	n, err := e.ctx.Client.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: "to delete"})
	if err != nil {
		t.Fatal(err)
	}
	m := ConfirmDelete(e.ctx, 7, n.ID, "to delete")
	m.SetSize(76, 20)
	if v := m.View(); !strings.Contains(v, "to delete") || !strings.Contains(v, "cannot be undone") {
		t.Fatalf("confirmation does not name the note:\n%s", v)
	}
	_, cmd := m.Update(runes("y"))
	d, ok := taskDone(runTask(cmd))
	if !ok || d.Err != nil || d.Kind != KindDeleted || !d.Mine(7) || d.Subject != n.ID || d.Result.(int64) != n.ID {
		t.Fatalf("delete task: %+v", d)
	}
	if _, err := e.ctx.Client.GetNote(client.Fresh(context.Background()), n.ID); !client.IsNotFound(err) {
		t.Fatalf("note still there: %v", err)
	}
}
