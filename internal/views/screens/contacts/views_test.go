package contacts_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

func TestContactViewsSwitchAndRestore(t *testing.T) {
	e := readOnly(t)
	e.ctx.Views = []common.SavedView{
		{Name: "Conversations'", Screen: common.ViewsConversations, Status: "new"},
		{Name: "Unverified", Screen: common.ViewsContacts, Ordering: "name", Filters: map[string]string{"verified": "false"}},
	}
	m := contacts.New(e.ctx)
	m.RestoreView("unverified")
	s := viewtest.RunScreen(t, e.ctx, m, 120, 40)
	s.Until("the first page", func() bool { return m.List.Loaded() })
	s.Settle()
	if s.H.Top() != nil {
		t.Fatalf("a restored view opened %T: the search prompt is for the untouched list", s.H.Top())
	}
	q := m.List.Query()
	if m.ActiveView() != "Unverified" || q.Filter.Verified == nil || *q.Filter.Verified || q.Ordering != "name" {
		t.Fatalf("restored %q with %+v", m.ActiveView(), q)
	}
	p, err := e.c.ListContacts(client.Fresh(t.Context()), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 1},
		Filter: q.Filter})
	if err != nil {
		t.Fatal(err)
	}
	row := strings.Split(viewtest.Plain(m.View()), "\n")[1]
	if !strings.Contains(row, "Unverified "+layout.Thousands(p.Count)) || strings.Contains(row, "Conversations'") {
		t.Fatalf("row %q (count %d)", row, p.Count)
	}
	s.Key("]") // wraps to all
	s.Settle()
	if m.ActiveView() != "all" || !m.List.Query().Filter.IsZero() || m.List.Query().Ordering != "" {
		t.Fatalf("] showed %q %+v", m.ActiveView(), m.List.Query())
	}
	ch := slices.DeleteFunc(m.Choices(), func(c common.Choice) bool { _, row := c.Msg.(contacts.OpenContactMsg); return row }) // the views
	if len(ch) != 2 || ch[1].Title != "Unverified" || ch[1].Msg != (common.ShowViewMsg{Name: "Unverified"}) {
		t.Fatalf("choices %+v", ch)
	}
}
