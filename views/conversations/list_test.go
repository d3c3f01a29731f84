package conversations_test

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

const wait = 5 * time.Second

func newList(t *testing.T, c *client.Client, pageSize, w, h int) conversations.Model {
	t.Helper()
	ctx := viewtest.Ctx(c)
	ctx.PageSize = pageSize
	m := conversations.New(ctx)
	m.SetSize(w, h)
	m.Focus()
	return m
}

func TestStaleResultsAreDropped(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 100, 20)
	// Two queries in a row; the answer to the first arrives last and must be ignored.
	first := m.SetQuery(conversations.Query{Filter: client.ConversationFilter{Status: client.StatusEnded}})
	second := m.SetQuery(conversations.Query{Filter: client.ConversationFilter{Status: client.StatusNew}})
	m, _ = viewtest.Apply(m, viewtest.Run(second, wait))
	m, _ = viewtest.Apply(m, viewtest.Run(first, wait))
	if len(m.Rows()) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range m.Rows() {
		if r.Status != client.StatusNew {
			t.Fatalf("row %d has status %q: a stale page overwrote the newer query", r.ID, r.Status)
		}
	}
}

func TestStatusOrderSearchAndEsc(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	var cmd tea.Cmd
	m, cmd = m.Update(viewtest.Key("s"))
	m = viewtest.Settle(m, cmd, wait)
	if m.Query().Filter.Status != client.StatusNew {
		t.Fatalf("s set status %q, want new", m.Query().Filter.Status)
	}
	for _, r := range m.Rows() {
		if r.Status != client.StatusNew {
			t.Fatalf("status filter new shows a %q row", r.Status)
		}
	}
	m, cmd = m.Update(viewtest.Key("o"))
	m = viewtest.Settle(m, cmd, wait)
	if m.Query().Ordering != "id" {
		t.Fatalf("o after the default -id gave %q, want id", m.Query().Ordering)
	}
	rows := m.Rows()
	for i := 1; i < len(rows); i++ {
		if rows[i].ID < rows[i-1].ID {
			t.Fatalf("ordering id: %d listed after %d", rows[i].ID, rows[i-1].ID)
		}
	}
	m, cmd = m.Update(conversations.SearchMsg{Text: "zzzznotaword"})
	m = viewtest.Settle(m, cmd, wait)
	if m.Total() != 0 || !strings.Contains(m.View(), "No conversations match") {
		t.Fatalf("search for nonsense: total %d, view:\n%s", m.Total(), m.View())
	}
	if !strings.Contains(m.View(), `search:"zzzznotaword"`) {
		t.Fatalf("header does not show the search:\n%s", m.View())
	}
	m, cmd = m.Update(viewtest.Key("esc")) // clears the search
	m = viewtest.Settle(m, cmd, wait)
	if m.Query().Search != "" || m.Query().Filter.Status != client.StatusNew {
		t.Fatalf("first esc: query %+v, want search cleared and filters kept", m.Query())
	}
	m, cmd = m.Update(viewtest.Key("esc")) // then the filters
	m = viewtest.Settle(m, cmd, wait)
	if !m.Query().Filter.IsZero() {
		t.Fatalf("second esc left filters %+v", m.Query().Filter)
	}
}

func TestViewIsExactlyItsSize(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	for _, size := range [][2]int{{40, 10}, {60, 22}, {76, 30}, {120, 40}, {200, 50}} {
		m := newList(t, c, 100, size[0], size[1])
		m = viewtest.Settle(m, m.Load(false), wait)
		for _, k := range []string{"j", "j", " ", "G", "g"} {
			var cmd tea.Cmd
			m, cmd = m.Update(viewtest.Key(k))
			m = viewtest.Settle(m, cmd, wait)
			lines := strings.Split(m.View(), "\n")
			if len(lines) != size[1] {
				t.Fatalf("%dx%d after %q: %d lines", size[0], size[1], k, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != size[0] {
					t.Fatalf("%dx%d after %q: line %d is %d wide: %q", size[0], size[1], k, i, w, l)
				}
			}
		}
	}
}

func TestRowsAreSanitized(t *testing.T) {
	r := conversations.RowFrom(client.Conversation{
		ID:          1,
		Status:      "new",
		Contact:     client.Contact{Name: ptr("\x1b]0;pwned\x07Eve\u202e")},
		LastMessage: &client.Message{Body: "hi\x1b[2J\nthere\u009b", Sender: client.Sender{Type: "contact"}},
		Topics:      []client.Topic{{ID: 3, Text: "bad\x07topic"}},
	})
	for _, s := range append([]string{r.Name, r.Preview}, r.Topics...) {
		if strings.ContainsAny(s, "\x1b\x07\u202e\u009b\n") {
			t.Fatalf("unsanitized text in a row: %q", s)
		}
	}
	if want := "␛]0;pwned␇Eve"; r.Name != want {
		t.Fatalf("name %q, want %q", r.Name, want)
	}
	_ = common.StatusSymbol
}

func ptr(s string) *string { return &s }

// TestPastTheOffsetCapByCursor: with the server's offset cap lowered to 30, id-ordered
// browsing continues through /conversations/all/ by cursor to the last conversation, in
// both directions; other orderings stop at the cap and say so.
func TestPastTheOffsetCapByCursor(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{OffsetCap: 30})
	c := viewtest.Client(t, sb)
	for _, ordering := range []string{"", "id"} {
		m := newList(t, c, 10, 100, 20)
		var cmd tea.Cmd
		m = viewtest.Settle(m, m.SetQuery(conversations.Query{Ordering: ordering}), wait)
		total := m.Total()
		if total <= 30 {
			t.Fatalf("only %d conversations", total)
		}
		for i := 0; i < 100 && len(m.Rows()) < total; i++ {
			m, cmd = m.Update(viewtest.Key("G"))
			m = viewtest.Settle(m, cmd, wait)
		}
		rows := m.Rows()
		if len(rows) != total {
			t.Fatalf("ordering %q: browsed %d of %d conversations past the cap of 30", ordering, len(rows), total)
		}
		for i := 1; i < len(rows); i++ {
			if (ordering == "id") != (rows[i].ID > rows[i-1].ID) {
				t.Fatalf("ordering %q: %d follows %d", ordering, rows[i].ID, rows[i-1].ID)
			}
		}
		if !strings.Contains(m.View(), "via /all/") {
			t.Fatalf("the footer does not say browsing went on through /all/:\n%s", m.View())
		}
	}
	m := newList(t, c, 10, 100, 20)
	m = viewtest.Settle(m, m.SetQuery(conversations.Query{Ordering: "-last_message_sent_at"}), wait)
	for i := 0; i < 20; i++ {
		var cmd tea.Cmd
		m, cmd = m.Update(viewtest.Key("G"))
		m = viewtest.Settle(m, cmd, wait)
	}
	if got := len(m.Rows()); got != 30 {
		t.Fatalf("a time ordering browsed %d rows, want the cap of 30", got)
	}
	if !strings.Contains(m.View(), "order by id") {
		t.Fatalf("the footer does not explain the cap:\n%s", m.View())
	}
}

// TestNewQueryStartsAtTheTopAndRefreshKeepsTheRow: a changed ordering, status, search or
// filter shows its rows from the first (even when they hold the row that was selected);
// r refreshes the same query and keeps the cursor on its row.
func TestNewQueryStartsAtTheTopAndRefreshKeepsTheRow(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	down := func(m conversations.Model, n int) conversations.Model {
		for range n {
			m, _ = m.Update(viewtest.Key("j"))
		}
		return m
	}
	m := newList(t, c, 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	if len(m.Rows()) < 60 || len(m.Rows()) != m.Total() {
		t.Fatalf("the test needs one page of 60 to 100 rows, got %d of %d", len(m.Rows()), m.Total())
	}
	m = down(m, 40)
	sel, _ := m.Selected()
	var cmd tea.Cmd
	m, cmd = m.Update(viewtest.Key("r"))
	m = viewtest.Settle(m, cmd, wait)
	if r, _ := m.Selected(); r.ID != sel.ID {
		t.Fatalf("r moved the cursor from %d to %d", sel.ID, r.ID)
	}
	m, cmd = m.Update(viewtest.Key("o")) // id ascending: the same rows, the selected one elsewhere
	m = viewtest.Settle(m, cmd, wait)
	if r, _ := m.Selected(); r.ID != m.Rows()[0].ID {
		t.Fatalf("after o the cursor is on %d, not on the first row %d", r.ID, m.Rows()[0].ID)
	}
	m = down(m, 30)
	sel, _ = m.Selected()
	m, cmd = m.Update(conversations.SearchMsg{Text: sel.Name})
	m = viewtest.Settle(m, cmd, wait)
	if len(m.Rows()) < 2 {
		t.Fatalf("the search for %q found %d rows", sel.Name, len(m.Rows()))
	}
	if r, _ := m.Selected(); r.ID != m.Rows()[0].ID {
		t.Fatalf("after a search the cursor is on %d, not on the best match %d", r.ID, m.Rows()[0].ID)
	}
}
