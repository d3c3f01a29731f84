package ui_test

import (
	"strings"

	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// states records what SaveState is given.
type states struct {
	mu  sync.Mutex
	got []ui.State
}

func (s *states) save(st ui.State) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, st)
}

func (s *states) last() (ui.State, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.got) == 0 {
		return ui.State{}, 0
	}
	return s.got[len(s.got)-1], len(s.got)
}

func stateApp(t *testing.T, restore *ui.State, rec *states) *ui.App {
	t.Helper()
	return ui.New(ui.Options{
		Client: newClient(t, testSandbox(t), client.Config{}), Styles: theme.Plain(false), Keys: keymap.Default(),
		Now: clock, Timer: viewtest.After, Demo: true, RequestBudget: 400, PageSize: 100,
		Views: []common.SavedView{
			{Name: "New", Screen: common.ViewsConversations, Status: "new"},
			{Name: "Named", Screen: common.ViewsContacts, Ordering: "name"},
		},
		State: restore, SaveState: rec.save,
	})
}

func TestStateRestoresScreenViewsAndAnalytics(t *testing.T) {
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	restore := &ui.State{
		Screen: "analytics",
		Views:  map[string]string{"conversations": "New", "contacts": "nope"},
		Analytics: &analytics.State{Metric: "um_chat_messages_total", Range: "custom", From: from, To: from.AddDate(0, 0, 10),
			Mode: "bot", Chart: "count", View: "table", Widgets: []int64{4, -1}},
	}
	rec := &states{}
	a := stateApp(t, restore, rec)
	d := newDriver(t, a, 120, 40)
	d.waitFor("um_chat_messages_total")

	st := a.State()
	if st.Screen != "analytics" || st.Views["conversations"] != "New" || st.Views["contacts"] != "all" {
		t.Fatalf("state after restore: %+v", st)
	}
	an := st.Analytics
	if an == nil || an.Metric != "um_chat_messages_total" || an.Range != "custom" || !an.From.Equal(from) ||
		an.Mode != "bot" || an.View != "table" || len(an.Widgets) != 1 || an.Widgets[0] != 4 {
		t.Fatalf("analytics state after restore: %+v", an)
	}
	if _, n := rec.last(); n != 0 {
		t.Fatalf("restoring wrote the state %d times", n)
	}

	// Keys that change it write it: another screen, another view.
	d.key("1")
	if got, _ := rec.last(); got.Screen != "conversations" {
		t.Fatalf("after 1 the state written is %+v", got)
	}
	d.key("]")
	got, n := rec.last()
	if got.Views["conversations"] != "all" {
		t.Fatalf("after ] the state written is %+v", got)
	}
	d.key("j") // changes nothing kept: nothing written
	if _, again := rec.last(); again != n {
		t.Fatalf("a key that changes nothing wrote the state (%d writes, was %d)", again, n)
	}
}

func TestStateWithoutRestoreStartsOnConversations(t *testing.T) {
	rec := &states{}
	a := stateApp(t, nil, rec)
	d := newDriver(t, a, 120, 40)
	d.Settle()
	if st := a.State(); st.Screen != "conversations" || st.Views["conversations"] != "all" || st.Analytics == nil ||
		st.Analytics.Range != "last30" {
		t.Fatalf("fresh state: %+v %+v", st, st.Analytics)
	}
}

// TestRestoredContactsTakeTheScreenKeys: parley restored on the contacts screen opens no
// prompt; 2 then 3 switch screens (nothing is typed into a search), and q quits.
func TestRestoredContactsTakeTheScreenKeys(t *testing.T) {
	a := stateApp(t, &ui.State{Screen: "contacts"}, &states{})
	d := newDriver(t, a, 80, 24)
	d.waitList("contacts")
	if strings.Contains(d.view(), "Search contacts:") {
		t.Fatalf("the restored contacts screen opened the search prompt:\n%s", d.view())
	}
	d.key("2")
	d.key("3")
	if a.ScreenName() != "Operators" {
		t.Fatalf("2 then 3 on the restored contacts show %q:\n%s", a.ScreenName(), d.view())
	}
	d.key("2")
	if _, cmd := a.Update(viewtest.Key("q")); !quits(cmd) {
		t.Fatalf("q on the contacts screen did not quit:\n%s", d.view())
	}
}
