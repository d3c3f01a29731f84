package listing_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// apiConv is c as the API sends it.
func apiConv(t *testing.T, c fakeConv) client.Conversation {
	t.Helper()
	b, err := json.Marshal(c.json())
	if err != nil {
		t.Fatal(err)
	}
	var out client.Conversation
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPollsNeverPutOlderDataOverNewer: a shared poll answered before the list's own rows
// (a reload answered after it) changes nothing, and within a poll a row older than the one
// shown does not replace it; a newer one does. No poll here leaves a gap, so none asks.
func TestPollsNeverPutOlderDataOverNewer(t *testing.T) {
	t.Parallel()
	f := &fakeMergeAPI{total: 10, list: tenRows()}
	m := loadedFake(t, f, listing.Query{})
	queries := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.queries)
	}
	asked := queries()
	past, future := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	newer := fakeConv{id: 99, lastAt: viewtest.Now, topic: "newer"}
	older := fakeConv{id: 99, lastAt: viewtest.Now.Add(-48 * time.Hour), topic: "older"}

	poll := func(m listing.Model, reached time.Time, cs ...fakeConv) listing.Model {
		msg := common.PolledMsg{Org: 1, Since: past, Reached: reached, At: viewtest.Now}
		for _, c := range cs {
			msg.Conversations = append(msg.Conversations, apiConv(t, c))
		}
		m, cmd := m.Update(msg)
		return viewtest.Settle(m, cmd, wait)
	}
	topics := func(m listing.Model) []string {
		r, _ := m.Row(99)
		return r.Topics
	}

	m = poll(m, past, newer)
	if got := topics(m); len(got) != 0 {
		t.Fatalf("a poll answered before the rows changed row 99: topics %q", got)
	}
	m = poll(m, future, newer)
	if got := topics(m); !slices.Equal(got, []string{"newer"}) {
		t.Fatalf("a current poll: row 99 has topics %q", got)
	}
	m = poll(m, future, older)
	if got := topics(m); !slices.Equal(got, []string{"newer"}) {
		t.Fatalf("an older version of row 99 replaced the newer one: topics %q", got)
	}
	if n := queries(); n != asked {
		t.Fatalf("the polls asked %d times", n-asked)
	}
}
