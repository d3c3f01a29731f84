package conversations_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestHeaderKeepsEveryPartVisible: in the list pane's widths of the 100–159 column layout
// (52 and 38 cells at 120 columns without and with the detail, 43 and 32 at 100), the header
// shortens its parts, and when that is not enough takes a second line, instead of cutting off
// the filters, the search or the ordering.
func TestHeaderKeepsEveryPartVisible(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := newList(t, c, 100, 52, 38)
	m = viewtest.Settle(m, m.Load(false), wait)
	var topic client.ConversationFilter
	var name string
	var row conversations.Row
	for _, r := range m.Rows() {
		if len(r.Topics) > 0 && len(r.TopicIDs) > 0 && r.Name != "" && r.Status != client.StatusNew {
			topic.TopicID, name, row = r.TopicIDs[0], r.Topics[0], r
			break
		}
	}
	if name == "" {
		t.Fatal("no row with a topic")
	}
	withStatus := topic
	withStatus.Status = row.Status
	search := row.Name + " altenberg"
	for _, tc := range []struct {
		name string
		q    conversations.Query
		want []string // each in one of its forms
	}{
		{"topic", conversations.Query{Filter: topic, Ordering: "-last_message_sent_at"},
			[]string{name, "last msg↓|-last_message_sent_at"}},
		{"search", conversations.Query{Filter: withStatus, Search: search},
			[]string{name, row.Status, fmt.Sprintf("%q|%q", search, common.ShortValue(search, 12))}},
	} {
		for _, w := range []int{52, 43, 38, 32} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, w), func(t *testing.T) {
				m.SetSize(w, 20)
				m := viewtest.Settle(m, m.SetQuery(tc.q), wait)
				v := m.View()
				viewtest.CheckSize(t, v, w, 20, "list")
				lines := strings.Split(v, "\n")
				if m.Total() == 0 {
					t.Fatalf("nothing matches %+v", tc.q)
				}
				header := lines[0]
				if !strings.Contains(lines[1], "●") && !strings.Contains(lines[1], "◐") && !strings.Contains(lines[1], "○") {
					header += "\n" + lines[1] // a second header line
				}
				want := append([]string{fmt.Sprint(m.Total())}, tc.want...)
				for _, part := range want {
					found := false
					for _, form := range strings.Split(part, "|") {
						found = found || strings.Contains(header, form)
					}
					if !found {
						t.Errorf("the header lacks %q:\n%s", part, header)
					}
				}
			})
		}
	}
}
