package detail_test

import (
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations/detail"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestAgesFollowTheServerClock: with the local clock 10 minutes fast or slow, the ages in
// the detail are told from the server's clock (learnt from its answers): a conversation
// updated 20 seconds ago on the server was updated "just now", not "10m ago" nor "in the
// future".
func TestAgesFollowTheServerClock(t *testing.T) {
	for _, skew := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		s := viewtest.NewSkewed(t, skew, sandbox.Options{})
		p, err := s.Client.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1}})
		if err != nil || len(p.Results) == 0 {
			t.Fatalf("list: %v", err)
		}
		conv := p.Results[0]
		conv.UpdatedAt = client.Time{Time: s.Server.Now().Add(-20 * time.Second)}
		m := detail.New(s.Ctx())
		m.SetSize(80, 60)
		m.Load(conv.ID, false)
		m.Set(conv)
		if line := viewtest.LineWith(m.View(), "Updated"); !strings.Contains(line, "(just now)") {
			t.Errorf("local clock off by %s: the detail shows %q, want the update \"just now\"", skew, strings.TrimSpace(line))
		}
	}
}
