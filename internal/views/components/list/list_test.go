package list_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

const wait = 5 * time.Second

// row is a conversation as the test source shows it.
type row struct {
	ID   int64
	Name string
}

// source lists the sandbox's conversations in id order (descending unless asc), two lines a
// row below 60 columns. renders counts the rows it lays out.
type source struct {
	asc     bool
	renders *int
}

func (s source) Pages() list.Fetcher[row] {
	ordering := ""
	if s.asc {
		ordering = "id"
	}
	return list.Endpoints[client.Conversation, row]{
		What: "conversations", One: "conversation",
		Row: func(c client.Conversation) row { return row{ID: c.ID, Name: fmt.Sprint("conv ", c.ID)} },
		ID:  func(r row) int64 { return r.ID },
		Offset: func(ctx context.Context, c *client.Client, limit, offset int) (*client.Page[client.Conversation], error) {
			return c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: limit, Offset: offset, Ordering: ordering}})
		},
	}
}

func (s source) RowHeight(w int) int {
	if w >= 60 {
		return 1
	}
	return 2
}

func (s source) Stamp(*row, time.Time) string { return "" }

func (s source) Render(r *row, c list.Cell) string {
	*s.renders++
	text := layout.Fit(c.Mark+r.Name, c.Width)
	if s.RowHeight(c.Width) == 2 {
		text += "\n" + layout.Fit("   second line", c.Width)
	}
	return text
}

func (s source) Header(st list.Status) []string {
	return []string{" " + st.Count + " conversations"}
}

func (s source) Empty(list.Status) string { return "No conversations." }

// pane adapts a list to viewtest.Settle.
type pane struct{ l list.Model[row] }

func (p pane) Update(msg tea.Msg) (pane, tea.Cmd) {
	var cmd tea.Cmd
	p.l, cmd = p.l.Update(msg)
	return p, cmd
}

func (p pane) key(k string) (pane, tea.Cmd) { return p.Update(viewtest.Key(k)) }

func newPane(t *testing.T, c *client.Client, ctx *common.Ctx, pageSize, w, h int, opts list.Options) (pane, *int) {
	t.Helper()
	if ctx == nil {
		ctx = viewtest.Ctx(c)
	}
	ctx.PageSize = pageSize
	renders := new(int)
	l := list.New[row](ctx, source{renders: renders}, opts)
	l.SetSize(w, h)
	l.Focus()
	return pane{l: l}, renders
}

// oldest is the id of the sandbox's oldest conversation.
func oldest(t *testing.T, c *client.Client) int64 {
	t.Helper()
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Ordering: "id"}})
	if err != nil || len(p.Results) == 0 {
		t.Fatalf("oldest conversation: %v", err)
	}
	return p.Results[0].ID
}

// pinnedPane is a list at 80×12 with its first page of 10 rows and the oldest
// conversation, which is not on it, pinned; it returns that conversation's id too.
func pinnedPane(t *testing.T) (pane, int64) {
	t.Helper()
	c := env(t)
	p, _ := newPane(t, c, nil, 10, 80, 12, list.Options{})
	p = viewtest.Settle(p, p.l.Load(false), wait)
	last := oldest(t, c)
	p.l.Pin(row{ID: last, Name: "pinned"}, "not in this list (from a test)")
	return p, last
}

func env(t *testing.T) *client.Client {
	t.Helper()
	return viewtest.Client(t, viewtest.Sandbox(t, sandbox.Options{}))
}

// Two lists of the same rows on one context: a page is stamped with its list's owner id
// and never lands in the other, even when both lists' pagers are at the same request.
func TestAPageReachesOnlyItsOwnList(t *testing.T) {
	t.Parallel()
	c := env(t)
	ctx := viewtest.Ctx(c)
	a, _ := newPane(t, c, ctx, 10, 80, 12, list.Options{})
	b, _ := newPane(t, c, ctx, 10, 80, 12, list.Options{})
	if a.l.Owner() == b.l.Owner() {
		t.Fatalf("two lists share the owner id %d", a.l.Owner())
	}
	msgs := viewtest.Run(a.l.Load(false), wait)
	_ = b.l.Load(false) // b awaits its own first page, request for request like a's
	b, _ = viewtest.Apply(b, msgs)
	if len(b.l.Rows()) != 0 || b.l.Loaded() {
		t.Fatalf("list b took list a's page: %d rows", len(b.l.Rows()))
	}
	a, _ = viewtest.Apply(a, msgs)
	if len(a.l.Rows()) != 10 {
		t.Fatalf("list a has %d rows, want its page of 10", len(a.l.Rows()))
	}
}

// A query's answer that arrives after a newer query's is dropped.
func TestAnOlderQuerysPageIsDropped(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, renders := newPane(t, c, nil, 10, 80, 12, list.Options{})
	first := p.l.Show(source{renders: renders})
	second := p.l.Show(source{asc: true, renders: renders})
	p, _ = viewtest.Apply(p, viewtest.Run(second, wait))
	p, _ = viewtest.Apply(p, viewtest.Run(first, wait))
	rows := p.l.Rows()
	if len(rows) < 2 || rows[0].ID > rows[1].ID {
		t.Fatalf("rows %v: the older query's page (id descending) replaced the newer one's", rows)
	}
}

// View is exactly the size given at every size, lays out only the rows in view, and takes
// them from its cache on the next frame, the rows the cursor left and reached too.
func TestViewDrawsOnlyTheWindowAndCachesRows(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, renders := newPane(t, c, nil, 100, 80, 12, list.Options{})
	p = viewtest.Settle(p, p.l.Load(false), wait)
	for _, sz := range [][2]int{{80, 12}, {40, 9}, {120, 30}, {20, 3}, {30, 1}, {1, 1}} {
		p.l.SetSize(sz[0], sz[1])
		viewtest.CheckSize(t, p.l.View(), sz[0], sz[1], fmt.Sprintf("%dx%d", sz[0], sz[1]))
	}
	p.l.SetSize(80, 12) // a header, ten rows, a footer
	*renders = 0
	p.l.View()
	if *renders != 10 {
		t.Fatalf("a frame laid out %d rows, want the 10 in view", *renders)
	}
	*renders = 0
	p, _ = p.key("j")
	p.l.View()
	if *renders != 0 {
		t.Fatalf("a frame after j laid out %d rows, want none: the cursor moves over rows drawn before", *renders)
	}
}

// The render cache keeps about the rows of the window: paging through a hundred rows keeps
// at most two windows' worth drawn, and a step back over the edge of the window finds the
// rows it scrolled away from still drawn.
func TestRenderCacheKeepsTheWindow(t *testing.T) {
	c := env(t)
	p, renders := newPane(t, c, nil, 100, 80, 12, list.Options{}) // ten rows in view
	p = viewtest.Settle(p, p.l.Load(false), wait)
	for range 20 {
		p, _ = p.key("ctrl+d")
		p.l.View()
		if n := p.l.CachedRows(); n > 20 {
			t.Fatalf("the cache holds %d drawn rows at row %d, want at most 20 (two windows)", n, p.l.Cursor())
		}
	}
	p, _ = p.key("g")
	p.l.View()
	for range 10 {
		p, _ = p.key("j") // the tenth scrolls half a window down
	}
	p.l.View()
	*renders = 0
	for range 6 { // the sixth scrolls half a window up again
		p, _ = p.key("k")
		p.l.View()
	}
	if p.l.Cursor() != 4 || *renders != 0 {
		t.Fatalf("back to row %d over the window's edge: %d rows laid out, want none (drawn a moment ago)", p.l.Cursor()+1, *renders)
	}
}

// The row under the cursor is drawn as the others are, with the cursor's cell at its left
// edge: a bar on every line of the row, or on the first line of a marked row its mark. A
// move of the cursor changes those cells and nothing else above the footer.
func TestCursorIsACellAtTheRowsLeftEdge(t *testing.T) {
	c := env(t)
	for _, w := range []int{80, 40} { // one line a row, two
		p, _ := newPane(t, c, nil, 100, w, 12, list.Options{Marks: true})
		p = viewtest.Settle(p, p.l.Load(false), wait)
		before := strings.Split(p.l.View(), "\n")
		p, _ = p.key("j")
		after := strings.Split(p.l.View(), "\n")
		h := 1 + (80-w)/40               // the lines of a row
		for i := range len(before) - 1 { // the footer's position changes too
			first, second := i >= 1 && i < 1+h, i >= 1+h && i < 1+2*h // the first row's lines, the second's
			want := before[i]
			switch {
			case first:
				want = " " + strings.TrimPrefix(before[i], "▌")
			case second:
				want = "▌" + strings.TrimPrefix(before[i], " ")
			}
			if first && !strings.HasPrefix(before[i], "▌") || after[i] != want {
				t.Fatalf("%d columns, line %d: %q before j and %q after, want %q: only the cursor's cells change\n%s",
					w, i, before[i], after[i], want, strings.Join(after, "\n"))
			}
		}
		p, _ = p.key(" ") // marks the second row, the cursor goes on to the third
		p, _ = p.key("k")
		if line := strings.Split(p.l.View(), "\n")[1+h]; !strings.HasPrefix(line, "*conv") {
			t.Fatalf("%d columns: the marked row under the cursor shows %q, want its mark in the cursor's cell", w, line)
		}
	}
}

// Marks survive paging, RemoveRows drops rows and marks with the cursor kept near, and the
// count goes down with them.
func TestMarksAndRemoveRows(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, _ := newPane(t, c, nil, 100, 80, 12, list.Options{Marks: true})
	p = viewtest.Settle(p, p.l.Load(false), wait)
	total := p.l.Total()
	rows := slices.Clone(p.l.Rows())
	p, _ = p.key(" ")
	p, _ = p.key(" ")
	if m := p.l.Marked(); len(m) != 2 || m[0].ID != rows[0].ID || m[1].ID != rows[1].ID {
		t.Fatalf("marked %v, want the first two rows", m)
	}
	if !strings.Contains(p.l.View(), "2 marked") || !strings.Contains(p.l.View(), "*conv") {
		t.Fatalf("the marks do not show:\n%s", p.l.View())
	}
	if n := p.l.RemoveRows([]int64{rows[0].ID, rows[1].ID}); n != 2 {
		t.Fatalf("removed %d rows, want 2", n)
	}
	if r, _ := p.l.Selected(); r.ID != rows[2].ID || p.l.Total() != total-2 || len(p.l.Marked()) != 0 {
		t.Fatalf("after removing two: cursor on %d (want %d), total %d (want %d), %d marked",
			r.ID, rows[2].ID, p.l.Total(), total-2, len(p.l.Marked()))
	}
}

// Without marks the mark key is not the list's.
func TestMarkKeyIsFreeWithoutMarks(t *testing.T) {
	t.Parallel()
	c := env(t)
	p, _ := newPane(t, c, nil, 100, 80, 12, list.Options{})
	p = viewtest.Settle(p, p.l.Load(false), wait)
	if _, _, ok := p.l.HandleKey(viewtest.Key(" ")); ok || len(p.l.Marked()) != 0 {
		t.Fatal("space marked a row of a list without marks")
	}
}

// A pinned row shows above the rows with the cursor on it, says what it is in the footer,
// and goes when its row loads, the cursor then on that row.
func TestPinnedRowGoesWhenItsRowLoads(t *testing.T) {
	t.Parallel()
	p, last := pinnedPane(t)
	if r, ok := p.l.Selected(); !ok || r.ID != last || !p.l.OnPinned() {
		t.Fatalf("selected %v, want the pinned row", r)
	}
	v := p.l.View()
	viewtest.CheckSize(t, v, 80, 12, "pinned")
	if lines := strings.Split(v, "\n"); !strings.HasPrefix(lines[1], "»pinned") ||
		!strings.Contains(lines[11], fmt.Sprintf("» #%d not in this list (from a test)", last)) {
		t.Fatalf("the pinned row or its footer is missing:\n%s", v)
	}
	p, _ = p.key("j")
	if r, _ := p.l.Selected(); r.ID != p.l.Rows()[0].ID {
		t.Fatalf("j from the pinned row went to %d, want the first row", r.ID)
	}
	p, _ = p.key("k")
	p, cmd := p.key("G")
	p = viewtest.Settle(p, cmd, wait)
	if _, ok := p.l.Pinned(); ok {
		t.Fatal("the pinned row stayed after its row loaded")
	}
	if r, _ := p.l.Selected(); r.ID != last {
		t.Fatalf("G from the pinned row: the cursor stayed on %d", r.ID)
	}
}

// A searchable list takes the search and filter messages of its own filter type only: a
// contact search never changes the conversation list's query.
func TestSearchableTakesOnlyItsOwnFiltersMessages(t *testing.T) {
	t.Parallel()
	ctx := viewtest.Ctx(env(t))
	src := func(list.Query[client.ConversationFilter]) list.Source[row] { return source{renders: new(int)} }
	m := list.NewSearchable(list.New(ctx, src(list.Query[client.ConversationFilter]{}), list.Options{}), src)
	m, cmd := m.Update(list.SearchMsg[client.ContactFilter]{Text: "anna"})
	m, _ = m.Update(list.FilterMsg[client.ContactFilter]{Filter: client.ContactFilter{Locale: "de_DE"}})
	if q := m.Query(); cmd != nil || q.Search != "" || !q.Filter.IsZero() {
		t.Fatalf("the contact messages changed the conversation query to %+v", q)
	}
	m, _ = m.Update(list.SearchMsg[client.ConversationFilter]{Text: "  anna "})
	m, _ = m.Update(list.FilterMsg[client.ConversationFilter]{Filter: client.ConversationFilter{Status: "open"}})
	if q := m.Query(); q.Search != "anna" || q.Filter.Status != "open" {
		t.Fatalf("query %+v, want the search anna of open conversations", q)
	}
}
