package conversations_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sanitize"
)

const wait = 5 * time.Second

func settle(m *conversations.Model, cmd tea.Cmd) {
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		for _, msg := range viewtest.Run(c, wait) {
			var next tea.Cmd
			_, next = m.Update(msg)
			pending = append(pending, next)
		}
	}
}

// newScreen is the conversations screen at w×h on a sandbox of its own, with its client and
// its context (through which it asks the root to open and close modals).
func newScreen(t *testing.T, w, h int) (*conversations.Model, *client.Client, *sandbox.Running, *common.Ctx) {
	t.Helper()
	return newPagedScreen(t, w, h, 0)
}

// newPagedScreen is newScreen with list pages of size rows (0: the context's own size).
func newPagedScreen(t *testing.T, w, h, size int) (*conversations.Model, *client.Client, *sandbox.Running, *common.Ctx) {
	t.Helper()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	ctx := viewtest.Ctx(c)
	if size > 0 {
		ctx.PageSize = size
	}
	return openScreen(ctx, w, h), c, sb, ctx
}

// openScreen is the conversations screen on ctx at w×h, its first page loaded.
func openScreen(ctx *common.Ctx, w, h int) *conversations.Model {
	m := conversations.New(ctx)
	m.SetSize(w, h)
	settle(m, m.Init())
	return m
}

func TestHoldingJLoadsOnlyWhereTheCursorRests(t *testing.T) {
	t.Parallel()
	// What resting costs depends on the panes shown: the thread and the detail side by side,
	// the thread alone (the medium layout hides the detail until p), or nothing at all when
	// the list is the one pane shown.
	for _, c := range []struct {
		w, h           int
		thread, detail bool
	}{
		{200, 50, true, true},
		{120, 40, true, false},
		{80, 24, false, false},
	} {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) {
			m, cl, _, _ := newScreen(t, c.w, c.h)
			before := cl.Usage(client.FamilyConversations)
			// Key repeat: every press arrives before the previous rest timer fires.
			var ticks []tea.Cmd
			for range 30 {
				_, cmd := m.Update(viewtest.Key("j"))
				ticks = append(ticks, cmd)
			}
			for _, cmd := range ticks {
				settle(m, cmd)
			}
			used := cl.Usage(client.FamilyConversations) - before
			want := 0
			if c.thread {
				want++
			}
			if c.detail {
				want++
			}
			// Plus at most one list page prefetched near the end of the loaded rows.
			if used < want || used > want+1 {
				t.Fatalf("30 presses of j cost %d requests, want %d (the shown panes of the last row)", used, want)
			}
			r, _ := m.List.Selected()
			if got := m.Msgs.ConversationID() == r.ID; got != c.thread {
				t.Fatalf("thread %d loaded, the cursor rests on %d (want it loaded: %v)", m.Msgs.ConversationID(), r.ID, c.thread)
			}
			if got := m.Detail.ID() == r.ID; got != c.detail {
				t.Fatalf("detail %d loaded, the cursor rests on %d (want it loaded: %v)", m.Detail.ID(), r.ID, c.detail)
			}
			// Showing a hidden pane loads it then, once: tab (one pane at a time) opens
			// the thread, p the detail.
			if !c.thread {
				_, cmd := m.Update(viewtest.Key("tab"))
				settle(m, cmd)
				if m.Focused() != conversations.PaneMessages || m.Msgs.ConversationID() != r.ID {
					t.Fatalf("tab from the list: focus %v, thread %d, want %d", m.Focused(), m.Msgs.ConversationID(), r.ID)
				}
			}
			if !c.detail {
				mid := cl.Usage(client.FamilyConversations)
				_, cmd := m.Update(viewtest.Key("p"))
				settle(m, cmd)
				if m.Detail.ID() != r.ID {
					t.Fatalf("p showed detail %d, want %d", m.Detail.ID(), r.ID)
				}
				_, cmd = m.Update(viewtest.Key("p"))
				settle(m, cmd)
				_, cmd = m.Update(viewtest.Key("p"))
				settle(m, cmd)
				if n := cl.Usage(client.FamilyConversations) - mid; n != 1 {
					t.Fatalf("showing the detail three times cost %d requests, want 1", n)
				}
			}
		})
	}
}

// One pane at a time, tab pressed before the cursor rests opens the row under the cursor,
// not the one opened before.
func TestTabFromTheListOpensTheRowUnderTheCursor(t *testing.T) {
	t.Parallel()
	m, _, _, _ := newScreen(t, 80, 24)
	_, cmd := m.Update(viewtest.Key("enter"))
	settle(m, cmd)
	m.Update(viewtest.Key("esc"))
	m.Update(viewtest.Key("j")) // no time to rest
	_, cmd = m.Update(viewtest.Key("tab"))
	settle(m, cmd)
	r, _ := m.List.Selected()
	if m.Msgs.ConversationID() != r.ID {
		t.Fatalf("tab showed thread %d, the cursor is on %d", m.Msgs.ConversationID(), r.ID)
	}
}

// Growing the terminal past the one-pane layout loads the thread the new layout shows.
func TestResizeShowsTheThreadOfTheCursorRow(t *testing.T) {
	t.Parallel()
	m, _, _, _ := newScreen(t, 80, 24)
	_, cmd := m.Update(viewtest.Key("j"))
	settle(m, cmd)
	r, _ := m.List.Selected()
	if m.Msgs.ConversationID() != 0 {
		t.Fatalf("one pane at a time, resting on the list loaded thread %d", m.Msgs.ConversationID())
	}
	m.SetSize(200, 50)
	settle(m, m.Resized())
	if m.Msgs.ConversationID() != r.ID || m.Detail.ID() != r.ID {
		t.Fatalf("after growing to 200x50: thread %d, detail %d, want %d", m.Msgs.ConversationID(), m.Detail.ID(), r.ID)
	}
}

func TestRevisitIsAnsweredWithoutRequests(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.ClientVia(t, sb, nil, client.Config{CacheTTL: time.Minute})
	m := openScreen(viewtest.Ctx(c), 120, 40)
	for _, k := range []string{"j", "k", "j"} {
		_, cmd := m.Update(viewtest.Key(k))
		settle(m, cmd)
	}
	before := c.Usage(client.FamilyConversations)
	for _, k := range []string{"k", "j", "k", "j"} {
		_, cmd := m.Update(viewtest.Key(k))
		settle(m, cmd)
	}
	if used := c.Usage(client.FamilyConversations) - before; used != 0 {
		t.Fatalf("revisiting two rows already seen cost %d requests; the cache should answer", used)
	}
}

// A thread or detail read before is shown from the client's memory, however long ago, while
// the list shows the conversation's version unchanged; a conversation a refresh shows
// changed costs its newest page when it is read again, and nothing else does.
func TestRevisitCostsNothingWhileTheVersionStands(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	clock := viewtest.NewMovingClock(viewtest.Now)
	log := &requestLog{}
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken, Now: clock.Now,
		CacheTTL: 2 * time.Minute, OnRequest: log.add})
	if err != nil {
		t.Fatal(err)
	}
	m := openScreen(viewtest.Ctx(c), 120, 40)
	press := func(keys ...string) {
		for _, k := range keys {
			_, cmd := m.Update(viewtest.Key(k))
			settle(m, cmd)
		}
	}
	press("j", "p", "k", "j") // rows 0 and 1, thread and detail (p shows it)
	first, _ := m.List.Selected()
	log.take()
	// An hour later, far past the time-to-live.
	clock.Add(time.Hour)
	press("k", "j", "k", "j")
	if got := log.take(); len(got) != 0 {
		t.Fatalf("revisiting two unchanged conversations an hour later sent %q", got)
	}
	if m.Msgs.ConversationID() != first.ID || m.Detail.ID() != first.ID || m.Msgs.Loaded() == 0 {
		t.Fatalf("showing thread %d (%d messages) and detail %d, want %d", m.Msgs.ConversationID(), m.Msgs.Loaded(), m.Detail.ID(), first.ID)
	}
	// Another agent changes row 0; an auto-refresh shows it.
	press("k")
	zero, _ := m.List.Selected()
	press("j")
	if _, err := viewtest.Client(t, sb).SetConversationTopics(t.Context(), zero.ID, []string{"Changed elsewhere"}); err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(common.RefreshMsg{Auto: true})
	settle(m, cmd)
	if got := log.take(); len(got) != 1 || !strings.Contains(got[0], "updated_at_from_date") {
		t.Fatalf("the refresh sent %q, want the list's changes only", got)
	}
	press("k")
	want := fmt.Sprintf("GET /api/um/v3/conversations/%d/messages/?limit=100", zero.ID)
	if got := log.take(); len(got) != 1 || got[0] != want {
		t.Fatalf("reading the changed conversation again sent %q, want only %q", got, want)
	}
	if conv, ok := m.Detail.Conversation(); !ok || conv.ID != zero.ID || len(conv.Topics) != 1 || conv.Topics[0].Text != "Changed elsewhere" {
		t.Fatalf("the detail does not show the change: %+v", conv)
	}
	press("j", "k")
	if got := log.take(); len(got) != 0 {
		t.Fatalf("reading both again sent %q", got)
	}
}

// requestLog keeps the requests a client sent (not those answered from its memory).
type requestLog struct {
	mu   sync.Mutex
	sent []string
}

func (l *requestLog) add(r client.RequestInfo) {
	if r.Cached {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	q := r.Query
	if q != "" {
		q = "?" + q
	}
	l.sent = append(l.sent, r.Method+" "+r.Path+q)
}

// take returns the requests sent since the last call.
func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.sent
	l.sent = nil
	return out
}

func TestLayouts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		w, h   int
		panes  []string
		absent []string
	}{
		{200, 50, []string{"Conversations", "Messages", "Detail"}, nil},
		{120, 40, []string{"Conversations", "Messages"}, []string{"─ Detail"}},
		{80, 24, []string{"Conversations"}, []string{"─ Messages", "─ Detail"}},
	}
	for _, tc := range cases {
		m, _, _, _ := newScreen(t, tc.w, tc.h)
		v := m.View()
		viewtest.CheckSize(t, v, tc.w, tc.h, fmt.Sprintf("%dx%d", tc.w, tc.h))
		for _, p := range tc.panes {
			if !strings.Contains(v, "─ "+p) {
				t.Errorf("%dx%d: pane %s missing", tc.w, tc.h, p)
			}
		}
		for _, p := range tc.absent {
			if strings.Contains(v, p) {
				t.Errorf("%dx%d: pane %q shown", tc.w, tc.h, p)
			}
		}
	}
	// Medium: p shows the detail as a third pane, p again hides it.
	m, _, _, _ := newScreen(t, 120, 40)
	m.Update(viewtest.Key("p"))
	if v := m.View(); !strings.Contains(v, "─ Detail") {
		t.Fatal("p did not show the detail pane at 120 columns")
	}
	viewtest.CheckSize(t, m.View(), 120, 40, "120x40")
	m.Update(viewtest.Key("p"))
	if strings.Contains(m.View(), "─ Detail") {
		t.Fatal("p did not hide the detail pane again")
	}
	// Narrow: tab walks list → messages → detail → list.
	m, _, _, _ = newScreen(t, 80, 24)
	for _, want := range []string{"─ Messages", "─ Detail", "─ Conversations"} {
		m.Update(viewtest.Key("tab"))
		if v := m.View(); !strings.Contains(v, want) {
			t.Fatalf("tab at 80 columns: want %s shown:\n%s", want, v)
		}
	}
	// Narrow: p from the messages shows the detail, and p again returns to the messages.
	m.Update(viewtest.Key("tab"))
	for _, want := range []conversations.Pane{conversations.PaneDetail, conversations.PaneMessages} {
		m.Update(viewtest.Key("p"))
		if m.Focused() != want {
			t.Fatalf("p at 80 columns: focus %v, want %v", m.Focused(), want)
		}
	}
	// Every resize re-lays out to exactly the new size.
	for _, s := range [][2]int{{200, 50}, {80, 24}, {159, 30}, {160, 30}, {99, 25}, {100, 25}, {81, 21}} {
		m.SetSize(s[0], s[1])
		viewtest.CheckSize(t, m.View(), s[0], s[1], fmt.Sprintf("%dx%d", s[0], s[1]))
	}
}

func TestEnterOpensAndEscReturns(t *testing.T) {
	t.Parallel()
	m, _, _, _ := newScreen(t, 120, 40)
	_, cmd := m.Update(viewtest.Key("enter"))
	settle(m, cmd)
	if m.Focused() != conversations.PaneMessages {
		t.Fatalf("focus after enter: %v", m.Focused())
	}
	r, _ := m.List.Selected()
	if m.Msgs.ConversationID() != r.ID {
		t.Fatalf("enter opened %d, selected %d", m.Msgs.ConversationID(), r.ID)
	}
	m.Update(viewtest.Key("esc"))
	if m.Focused() != conversations.PaneList {
		t.Fatalf("esc did not return to the list")
	}
}

func TestOpenConversationMessage(t *testing.T) {
	t.Parallel()
	m, _, sb, _ := newScreen(t, 200, 50)
	id := sb.Server.Info().LongConversationID
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: id})
	settle(m, cmd)
	if m.Msgs.ConversationID() != id || m.Detail.ID() != id {
		t.Fatalf("OpenConversationMsg opened %d / %d, want %d", m.Msgs.ConversationID(), m.Detail.ID(), id)
	}
	if !strings.Contains(m.View(), "Part 1 of") {
		t.Fatalf("detail does not show the conversation parts:\n%s", m.View())
	}
	// The message pane's header names the contact once the detail has arrived.
	conv, ok := m.Detail.Conversation()
	if !ok || conv.Contact.Name == nil || *conv.Contact.Name == "" {
		t.Fatal("the long conversation has no named contact")
	}
	if !strings.Contains(m.Msgs.View(), sanitize.Line(*conv.Contact.Name)) {
		t.Fatalf("the thread header does not name %q:\n%s", *conv.Contact.Name, m.Msgs.View())
	}
}

// markRows moves the cursor to each row index (ascending) and marks it with space.
func markRows(t *testing.T, m *conversations.Model, idx ...int) {
	t.Helper()
	at := 0
	for _, i := range idx {
		for ; at < i; at++ {
			m.Update(viewtest.Key("j"))
		}
		m.Update(viewtest.Key(" "))
		at++
	}
	if got := len(m.List.Marked()); got != len(idx) {
		t.Fatalf("%d rows marked, want %d", got, len(idx))
	}
}

// The marked-delete confirmation counts what the server will really delete, and marks that
// are all ongoing send nothing at all.
func TestDeleteMarkedCountsOnlyEnded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		ended, active int
		want          string // in the toast or the confirmation
		modal         bool
	}{
		{"all ongoing", 0, 2, "All 2 marked conversations are ongoing: only ended conversations can be deleted. Nothing was sent.", false},
		{"one ongoing", 0, 1, "The marked conversation is ongoing", false},
		{"mixed", 1, 1, "Delete 1 of 2 marked conversations?", true},
		{"one ended", 1, 0, "Delete 1 conversation?", true},
		{"two ended", 2, 0, "Delete 2 conversations?", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, c, _, ctx := newScreen(t, 120, 40)
			var idx []int
			ended, active := tc.ended, tc.active
			for i, r := range m.List.Rows() {
				switch {
				case r.Status == client.StatusEnded && ended > 0:
					ended--
				case r.Status != client.StatusEnded && active > 0:
					active--
				default:
					continue
				}
				idx = append(idx, i)
			}
			if ended+active > 0 {
				t.Fatal("the first page lacks the rows this case needs")
			}
			markRows(t, m, idx...)
			before := c.Usage(client.FamilyConversations)
			_, cmd := m.Update(viewtest.Key("d"))
			var text string
			q := viewtest.Opened(ctx)
			opened := q != nil
			if opened {
				text = q.View()
			}
			for _, msg := range viewtest.RunSkippingTicks(cmd, wait) {
				if msg, ok := msg.(common.ToastMsg); ok {
					text = msg.Text
				}
			}
			if opened != tc.modal || !strings.Contains(text, tc.want) {
				t.Fatalf("d: modal %v, text %q; want modal %v with %q", opened, text, tc.modal, tc.want)
			}
			if used := c.Usage(client.FamilyConversations) - before; used != 0 {
				t.Fatalf("asking cost %d requests", used)
			}
		})
	}
}

// The topics form offers every topic seen in this context, not only those of the rows the
// current search left, and forgets them when the organization changes.
func TestTopicsFormOffersTopicsSeenBefore(t *testing.T) {
	t.Parallel()
	m, _, _, ctx := newScreen(t, 120, 40)
	all := map[string]bool{}
	for _, r := range m.List.Rows() {
		for _, tp := range r.Topics {
			all[tp] = true
		}
	}
	_, cmd := m.Update(listing.SearchMsg{Text: "Mallory"})
	settle(m, cmd)
	rows := m.List.Rows()
	if len(rows) == 0 || len(rows) > 5 {
		t.Fatalf("the search left %d rows", len(rows))
	}
	var missing string
	for tp := range all {
		if !slices.Contains(rows[0].Topics, tp) {
			missing = tp
			break
		}
	}
	if missing == "" {
		t.Fatal("no topic outside the searched row to look for")
	}
	openForm := func() string { return topicsForm(t, ctx, m) }
	if v := openForm(); !strings.Contains(v, missing) {
		t.Fatalf("the topics form lacks %q, seen before the search:\n%s", missing, v)
	}
	m.Update(common.ContextChangedMsg{})
	if v := openForm(); strings.Contains(v, missing) && !slices.Contains(rows[0].Topics, missing) {
		t.Fatalf("the topics form still offers %q after a context change:\n%s", missing, v)
	}
}

// topicsForm presses t and returns the view of the form it opens.
func topicsForm(t *testing.T, ctx *common.Ctx, m *conversations.Model) string {
	t.Helper()
	m.Update(viewtest.Key("t"))
	if md := viewtest.Opened(ctx); md != nil {
		md.SetSize(120, 40)
		for _, msg := range viewtest.RunSkippingTicks(md.Init(), wait) {
			md, _ = md.Update(msg)
		}
		return md.View()
	}
	t.Fatal("t opened no form")
	return ""
}

// A topic that first shows on a loaded row through an auto-refresh merge (the row changed
// in place: no new page, no new row) is offered by the topics form of any row.
func TestTopicsFormOffersATopicFromARefreshMerge(t *testing.T) {
	t.Parallel()
	m, c, _, ctx := newScreen(t, 120, 40)
	rows := m.List.Rows()
	if len(rows) < 4 {
		t.Fatalf("%d rows loaded", len(rows))
	}
	const topic = "A topic set elsewhere" // sorts first: the form shows it without scrolling
	for _, r := range rows {
		if slices.Contains(r.Topics, topic) {
			t.Fatalf("row %d already has %q", r.ID, topic)
		}
	}
	changed := rows[3].ID // not the row under the cursor, whose own topics the form offers
	if _, err := c.SetConversationTopics(t.Context(), changed, []string{topic}); err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(common.RefreshMsg{Auto: true})
	settle(m, cmd)
	r, ok := m.List.Row(changed)
	if !ok || !slices.Contains(r.Topics, topic) || len(m.List.Rows()) != len(rows) {
		t.Fatalf("the refresh did not merge the change in place: row %+v, %d rows (were %d)", r, len(m.List.Rows()), len(rows))
	}
	if sel, _ := m.List.Selected(); sel.ID == changed {
		t.Fatal("the cursor is on the changed row")
	}
	if v := topicsForm(t, ctx, m); !strings.Contains(v, topic) {
		t.Fatalf("the topics form lacks %q, which arrived with a refresh:\n%s", topic, v)
	}
}

// A resize never leaves the focus on a hidden pane: the detail, shown with p one pane at a
// time, stays shown (and focused) when the terminal grows to the medium or wide layout.
func TestResizeKeepsTheFocusedDetailShown(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {200, 50}} {
		m, _, _, _ := newScreen(t, 200, 50)
		m.Update(viewtest.Key("p")) // wide: hide the detail
		if strings.Contains(m.View(), "─ Detail") {
			t.Fatal("p did not hide the detail at 200 columns")
		}
		m.SetSize(80, 24)
		m.Update(viewtest.Key("p")) // narrow: show the detail
		if m.Focused() != conversations.PaneDetail {
			t.Fatalf("p at 80 columns: focus %v", m.Focused())
		}
		m.SetSize(size[0], size[1])
		v := m.View()
		viewtest.CheckSize(t, v, size[0], size[1], fmt.Sprintf("%dx%d", size[0], size[1]))
		if m.Focused() != conversations.PaneDetail || !strings.Contains(v, "─ Detail") {
			t.Fatalf("%dx%d: focus %v and the detail shown %v; the focused pane must stay visible",
				size[0], size[1], m.Focused(), strings.Contains(v, "─ Detail"))
		}
	}
}

// Help outside the list does not offer marking or deleting rows, which only the list does.
func TestHelpOutsideTheListHasNoRowKeys(t *testing.T) {
	t.Parallel()
	m, _, _, _ := newScreen(t, 120, 40)
	k := keymap.Default()
	has := func(w keymap.Where, b key.Binding) bool {
		for _, g := range k.Sections(w) {
			for _, x := range g.Keys {
				if slices.Equal(x.Keys(), b.Keys()) {
					return true
				}
			}
		}
		return false
	}
	if !has(m.Where(), k.Mark) || !has(m.Where(), k.Delete) {
		t.Fatal("the list's help lacks mark or delete")
	}
	m.Update(viewtest.Key("tab"))
	if m.Focused() != conversations.PaneMessages {
		t.Fatalf("focus %v", m.Focused())
	}
	if has(m.Where(), k.Mark) || has(m.Where(), k.Delete) {
		t.Fatal("the messages pane's help offers mark or delete, which do nothing there")
	}
}

// Deleting the open conversation opens the row the cursor lands on (once it rests), instead
// of leaving the thread and detail panes empty.
func TestDeletingTheOpenConversationOpensTheNextRow(t *testing.T) {
	t.Parallel()
	m, _, _, ctx := newScreen(t, 200, 50)
	var cmd tea.Cmd
	for range 3 {
		_, cmd = m.Update(viewtest.Key("s")) // all → new → pending → ended
	}
	settle(m, cmd)
	r, ok := m.List.Selected()
	if !ok || r.Status != client.StatusEnded || len(m.List.Rows()) < 2 {
		t.Fatalf("no ended rows to delete (selected %+v)", r)
	}
	if m.Msgs.ConversationID() != r.ID {
		t.Fatalf("thread %d open, the cursor is on %d", m.Msgs.ConversationID(), r.ID)
	}
	m.Update(viewtest.Key("d"))
	modal := viewtest.Opened(ctx)
	if modal == nil {
		t.Fatal("d asked nothing")
	}
	_, cmd = modal.Update(viewtest.Key("y"))
	settle(m, cmd) // the answer starts the delete task, whose end the screen takes
	next, ok := m.List.Selected()
	if !ok || next.ID == r.ID {
		t.Fatalf("after the delete the cursor is on %+v", next)
	}
	if m.Msgs.ConversationID() != next.ID || m.Detail.ID() != next.ID {
		t.Fatalf("after deleting %d: thread %d and detail %d open, the cursor is on %d",
			r.ID, m.Msgs.ConversationID(), m.Detail.ID(), next.ID)
	}
}

// When a list refresh shows that the open conversation changed, its thread and detail are
// refreshed (the detail in place); while it stays the same, a refresh costs only the list
// request.
func TestRefreshFollowsTheOpenConversation(t *testing.T) {
	t.Parallel()
	m, c, _, _ := newScreen(t, 200, 50)
	_, cmd := m.Update(viewtest.Key("enter"))
	settle(m, cmd)
	r, _ := m.List.Selected()
	if m.Msgs.ConversationID() != r.ID || m.Detail.ID() != r.ID {
		t.Fatal("enter opened nothing")
	}
	before := c.Usage(client.FamilyConversations)
	_, cmd = m.Update(common.RefreshMsg{Auto: true})
	settle(m, cmd)
	if used := c.Usage(client.FamilyConversations) - before; used != 1 {
		t.Fatalf("a refresh with nothing changed cost %d requests, want 1", used)
	}
	if _, err := c.SetConversationTopics(t.Context(), r.ID, []string{"Followed elsewhere"}); err != nil {
		t.Fatal(err)
	}
	before = c.Usage(client.FamilyConversations)
	_, cmd = m.Update(common.RefreshMsg{Auto: true})
	settle(m, cmd)
	if used := c.Usage(client.FamilyConversations) - before; used != 3 {
		t.Fatalf("a refresh after the open conversation changed cost %d requests, want 3 (list, thread, detail)", used)
	}
	conv, ok := m.Detail.Conversation()
	if !ok || len(conv.Topics) != 1 || conv.Topics[0].Text != "Followed elsewhere" {
		t.Fatalf("the detail was not refreshed: %+v", conv.Topics)
	}
	if !strings.Contains(m.View(), "Followed elsewhere") {
		t.Fatalf("the change is not shown:\n%s", m.View())
	}
}

// A conversation opened from elsewhere (a contact's detail) stays open while tab goes round
// the panes one at a time, and the list's cursor goes to it when it is loaded.
func TestOpenedConversationSurvivesTabbingThroughThePanes(t *testing.T) {
	t.Parallel()
	m, _, sb, _ := newScreen(t, 80, 24)
	rows := m.List.Rows()
	if len(rows) < 5 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, id := range []int64{rows[4].ID, sb.Server.Info().LongConversationID} {
		if i == 1 {
			// Only new conversations listed: the long one (pending) is not among the rows.
			m.Update(viewtest.Key("esc")) // to the list
			_, cmd := m.Update(viewtest.Key("s"))
			settle(m, cmd)
			if _, loaded := m.List.Row(id); loaded || len(m.List.Rows()) == 0 {
				t.Fatalf("status new: %d rows, the long conversation among them: %v", len(m.List.Rows()), loaded)
			}
		}
		_, cmd := m.Update(common.OpenConversationMsg{ConversationID: id})
		settle(m, cmd)
		if _, loaded := m.List.Row(id); loaded {
			if r, _ := m.List.Selected(); r.ID != id {
				t.Fatalf("opened %d, the list's cursor is on %d", id, r.ID)
			}
		}
		for range 3 { // messages → detail → list → messages
			_, cmd = m.Update(viewtest.Key("tab"))
			settle(m, cmd)
		}
		if m.Focused() != conversations.PaneMessages || m.Msgs.ConversationID() != id {
			t.Fatalf("after going round the panes: focus %v, thread %d, want %d", m.Focused(), m.Msgs.ConversationID(), id)
		}
	}
}

// A conversation opened from elsewhere that is not among the loaded rows is pinned above
// them with the cursor on it: the list's highlight agrees with the thread and detail, the
// footer says it is not in the list, and moving is predictable (down goes to the first
// row, up from there back onto it). When its row loads, the pin goes; a new query drops it.
func TestOpenedConversationNotInTheListIsPinned(t *testing.T) {
	t.Parallel()
	m, c, _, _ := newPagedScreen(t, 120, 40, 20)
	rows := m.List.Rows()
	if len(rows) >= m.List.Total() {
		t.Fatalf("%d of %d rows loaded: the test needs a conversation past them", len(rows), m.List.Total())
	}
	for range 12 { // the cursor somewhere down the list, as before a jump from a contact
		_, cmd := m.Update(viewtest.Key("j"))
		settle(m, cmd)
	}
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Offset: len(rows) + 20}})
	if err != nil || len(p.Results) != 1 {
		t.Fatalf("a conversation past the loaded rows: %v", err)
	}
	id := p.Results[0].ID
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: id, From: "a contact"})
	settle(m, cmd)
	if m.Msgs.ConversationID() != id || m.Detail.ID() != id {
		t.Fatalf("opened %d / %d, want %d", m.Msgs.ConversationID(), m.Detail.ID(), id)
	}
	if r, ok := m.List.Selected(); !ok || r.ID != id || m.List.Pinned() != id {
		t.Fatalf("the list's cursor is on %d (pinned %d), want the opened %d", r.ID, m.List.Pinned(), id)
	}
	v := m.List.View()
	lines := strings.Split(v, "\n")
	name := sanitize.Line(client.Str(p.Results[0].Contact.Name))
	if !strings.HasPrefix(lines[1], "»") || !strings.Contains(lines[1], name) {
		t.Fatalf("the opened conversation is not pinned above the rows (its name %q from the detail):\n%s", name, v)
	}
	if !strings.Contains(lines[len(lines)-1], fmt.Sprintf("#%d not in this list (from a contact)", id)) {
		t.Fatalf("the footer does not say the conversation is not in the list:\n%s", v)
	}
	viewtest.CheckSize(t, v, 118-66, 38, "list")

	m.Update(viewtest.Key("esc")) // to the list
	_, cmd = m.Update(viewtest.Key("j"))
	settle(m, cmd)
	if r, _ := m.List.Selected(); r.ID != rows[0].ID || m.Msgs.ConversationID() != rows[0].ID {
		t.Fatalf("j from the pinned row: cursor %d, thread %d; want the first row %d", r.ID, m.Msgs.ConversationID(), rows[0].ID)
	}
	_, cmd = m.Update(viewtest.Key("k"))
	settle(m, cmd)
	if r, _ := m.List.Selected(); r.ID != id || m.Msgs.ConversationID() != id {
		t.Fatalf("k from the first row: cursor %d, thread %d; want the pinned %d", r.ID, m.Msgs.ConversationID(), id)
	}

	// Its row loads as the list pages on: the pin goes and the cursor is on the row.
	for i := 0; i < 20 && m.List.Pinned() != 0; i++ {
		_, cmd = m.Update(viewtest.Key("ctrl+d"))
		settle(m, cmd)
	}
	if m.List.Pinned() != 0 {
		_, loaded := m.List.Row(id)
		t.Fatalf("the pin stayed after its row loaded (%d rows, loaded %v)", len(m.List.Rows()), loaded)
	}
	if _, ok := m.List.Row(id); !ok {
		t.Fatal("the row did not load")
	}

	// A new query drops the pin.
	_, cmd = m.Update(common.OpenConversationMsg{ConversationID: id, From: "navigation"})
	settle(m, cmd)
	if r, _ := m.List.Selected(); r.ID != id || m.List.Pinned() != 0 {
		t.Fatalf("opening a loaded row: cursor %d, pinned %d", r.ID, m.List.Pinned())
	}
	m.Update(viewtest.Key("esc"))
	_, cmd = m.Update(viewtest.Key("r"))
	settle(m, cmd) // the first page again: the conversation is past it
	if _, loaded := m.List.Row(id); loaded {
		t.Fatal("r kept the later pages")
	}
	m.Update(viewtest.Key("esc"))
	_, cmd = m.Update(common.OpenConversationMsg{ConversationID: id, From: "navigation"})
	settle(m, cmd)
	if m.List.Pinned() != id {
		t.Fatalf("pinned %d, want %d", m.List.Pinned(), id)
	}
	m.Update(viewtest.Key("esc"))
	_, cmd = m.Update(viewtest.Key("s"))
	settle(m, cmd)
	if m.List.Pinned() != 0 {
		t.Fatal("a new status filter kept the pin")
	}
}

// A conversation opened from a contact that the client already holds (the contact's
// conversations brought it) is shown from memory, with no answer to wait for: its pinned
// row shows its contact and status at once, never "? unknown #id".
func TestPinnedConversationHeldByTheClientShowsItsData(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.ClientVia(t, sb, nil, client.Config{CacheTTL: 2 * time.Minute})
	ctx := viewtest.Ctx(c)
	ctx.PageSize = 20
	m := openScreen(ctx, 120, 40)
	rows := m.List.Rows()
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Offset: len(rows) + 20}})
	if err != nil || len(p.Results) != 1 {
		t.Fatalf("a conversation past the loaded rows: %v", err)
	}
	conv := p.Results[0]
	if _, ok := c.HeldConversation(conv.ID, client.Version{}); !ok {
		t.Fatal("the client does not hold the conversation it listed")
	}
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: conv.ID, From: "a contact"})
	settle(m, cmd)
	if m.List.Pinned() != conv.ID {
		t.Fatalf("pinned %d, want %d", m.List.Pinned(), conv.ID)
	}
	lines := strings.Split(m.List.View(), "\n")
	name := sanitize.Line(client.Str(conv.Contact.Name))
	if !strings.HasPrefix(lines[1], "»") || !strings.Contains(lines[1], name) || !strings.Contains(lines[1], conv.Status) || strings.Contains(lines[1], "unknown") {
		t.Fatalf("the pinned row does not show %q (%s):\n%s", name, conv.Status, lines[1])
	}
}

// Opening a conversation the server does not have (a number typed in the palette) pins a
// row that says nothing it does not know (no "unassigned": the assignment is unknown) and
// says which conversation was not found, in words ("Not found: Not found." before).
func TestOpeningAConversationThatDoesNotExistSaysSo(t *testing.T) {
	t.Parallel()
	m, _, _, _ := newScreen(t, 200, 50) // the list wide enough for its operator column
	const id = 1
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: id, From: "the palette"})
	var toasts []string
	pending := []tea.Cmd{cmd}
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		for _, msg := range viewtest.Run(c, wait) {
			if tm, ok := msg.(common.ToastMsg); ok {
				toasts = append(toasts, tm.Text)
			}
			_, next := m.Update(msg)
			pending = append(pending, next)
		}
	}
	if m.List.Pinned() != id {
		t.Fatalf("pinned %d, want %d", m.List.Pinned(), id)
	}
	row := strings.Split(m.List.View(), "\n")[1]
	if !strings.Contains(row, "#1") || strings.Contains(row, "unassigned") || !strings.Contains(row, "—") {
		t.Fatalf("the pinned row of a conversation not found: %q; want its number and — for the operator", row)
	}
	want := "Conversation #1: Not found: the server has nothing by that id."
	if !slices.Contains(toasts, want) {
		t.Fatalf("toasts %q; want %q", toasts, want)
	}
}
