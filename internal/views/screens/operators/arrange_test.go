package operators_test

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// withoutAway is the sandbox with the away and online statuses of one operator left out of
// the operators list (a server that did not send them).
func withoutAway(t *testing.T) (*env, *partial) {
	t.Helper()
	p := &partial{}
	e := &env{Env: viewtest.NewEnv(t, sandbox.Options{}, func(next http.RoundTripper) http.RoundTripper {
		return viewtest.EditBodies{Next: next, Edit: p.edit}
	})}
	p.noStatus = e.Info.OwnerOperatorID + 1
	return e, p
}

// serverStatuses reads the operators list as the sandbox sends it (without the client):
// the counts the header must show, by id.
func serverStatuses(t *testing.T, e *env) map[int64]struct{ away, online *bool } {
	t.Helper()
	var page struct {
		Results []struct {
			ID       int64 `json:"id"`
			IsAway   *bool `json:"is_away"`
			IsOnline *bool `json:"is_online"`
		} `json:"results"`
	}
	rawGet(t, e, "/api/um/v3/operators/?limit=100", &page)
	out := map[int64]struct{ away, online *bool }{}
	for _, r := range page.Results {
		out[r.ID] = struct{ away, online *bool }{r.IsAway, r.IsOnline}
	}
	return out
}

// TestHeaderCountsOnlyWhatTheServerSent: the header counts the operators available, away
// and online as the server states them; an operator whose away status it did not send is
// counted apart as unknown, never as available, and the unknown filter finds it. The
// numbers come from the sandbox's own answer, and some operator is away and some online,
// so zeros cannot pass.
func TestHeaderCountsOnlyWhatTheServerSent(t *testing.T) {
	t.Parallel()
	e, p := withoutAway(t)
	l, m, _ := open(t, e, e.Client, 120, 24)
	var avail, away, online int
	for id, s := range serverStatuses(t, e) {
		if id == p.noStatus {
			continue // the edited answer leaves it out
		}
		switch {
		case *s.away:
			away++
		default:
			avail++
		}
		if *s.online {
			online++
		}
	}
	if away == 0 || online == 0 {
		t.Fatalf("the sandbox has %d away and %d online operators: the test cannot tell", away, online)
	}
	c := operators.CountOf(m.All())
	want := operators.Counts{All: avail + away + 1, Available: avail, Away: away, Unknown: 1, Online: online}
	if c != want {
		t.Fatalf("counts %+v, want %+v", c, want)
	}
	header := strings.Join(strings.Split(l.H.Render(), "\n")[1:3], "\n")
	for _, s := range []string{fmt.Sprintf("%d operators", want.All), fmt.Sprintf("%d available", avail),
		fmt.Sprintf("%d away", away), "1 status unknown", fmt.Sprintf("%d online", online), "all statuses", "by name"} {
		if !strings.Contains(header, s) {
			t.Errorf("the header lacks %q:\n%s", s, header)
		}
	}

	// s: available, away, online, unknown, all again; each shows exactly those.
	for _, f := range []operators.Show{operators.ShowAvailable, operators.ShowAway, operators.ShowOnline, operators.ShowUnknown, operators.ShowAll} {
		l.Key("s")
		if m.Show() != f {
			t.Fatalf("filter %v, want %v", m.Show(), f)
		}
		var ids []int64
		for _, r := range m.All() {
			if f.Keeps(r) {
				ids = append(ids, r.ID)
			}
		}
		var shown []int64
		for _, r := range m.Rows() {
			shown = append(shown, r.ID)
		}
		slices.Sort(ids)
		slices.Sort(shown)
		if !slices.Equal(ids, shown) || len(shown) == 0 {
			t.Fatalf("filter %v shows %v, want %v", f, shown, ids)
		}
		v := l.H.Render()
		if !strings.Contains(v, f.Says()) {
			t.Fatalf("the header does not name the filter %q:\n%s", f, v)
		}
		if f == operators.ShowAvailable && slices.Contains(shown, p.noStatus) {
			t.Fatal("an operator whose away status the server did not send is shown as available")
		}
		if f == operators.ShowUnknown && !slices.Equal(shown, []int64{p.noStatus}) {
			t.Fatalf("unknown shows %v, want only %d", shown, p.noStatus)
		}
		if f != operators.ShowAll && !strings.Contains(v, fmt.Sprintf("%d of %d", len(shown), want.All)) {
			t.Fatalf("the header does not say %d of %d:\n%s", len(shown), want.All, v)
		}
	}
}

// TestSortCycles: o sorts by name, then availability (available, away, unknown), then
// slots used (most first), then by name again, each named in the header; the cursor stays
// on its operator.
func TestSortCycles(t *testing.T) {
	t.Parallel()
	e, p := withoutAway(t)
	l, m, _ := open(t, e, e.Client, 100, 24)
	name := func(r operators.Row) string { return strings.ToLower(cmp.Or(r.Name, r.DisplayName)) }
	sortedBy := func(key func(r operators.Row) int) bool {
		rows := m.Rows()
		return slices.IsSortedFunc(rows, func(a, b operators.Row) int {
			return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(name(a), name(b)), cmp.Compare(a.ID, b.ID))
		})
	}
	if !sortedBy(func(operators.Row) int { return 0 }) || len(m.Rows()) != 7 {
		t.Fatalf("not sorted by name: %v", names(m.Rows()))
	}
	moveTo(t, l, m, p.noStatus)
	rank := map[bool]int{false: 0, true: 1}
	steps := []struct {
		sort operators.Sort
		key  func(operators.Row) int
	}{
		{operators.SortAvailability, func(r operators.Row) int {
			if !r.IsAway.Known {
				return 2
			}
			return rank[r.IsAway.V]
		}},
		{operators.SortSlots, func(r operators.Row) int {
			used, _, ok := m.Slots(r.ID)
			if !ok || !used.Known {
				t.Fatalf("operator %d: slots not known", r.ID)
			}
			return -used.V
		}},
		{operators.SortName, func(operators.Row) int { return 0 }},
	}
	busy := 0
	for _, r := range m.Rows() {
		if used, _, _ := m.Slots(r.ID); used.V > 0 {
			busy++
		}
	}
	if busy == 0 || busy == len(m.Rows()) {
		t.Fatalf("%d of %d operators use slots: the slots order cannot be told from another", busy, len(m.Rows()))
	}
	for _, s := range steps {
		l.Key("o")
		if m.Sort() != s.sort || !sortedBy(s.key) {
			t.Fatalf("sort %v (want %v): %v", m.Sort(), s.sort, names(m.Rows()))
		}
		if v := l.H.Render(); !strings.Contains(v, "by "+s.sort.String()) {
			t.Fatalf("the header does not name the sort %q:\n%s", s.sort, v)
		}
		if r, _ := m.Selected(); r.ID != p.noStatus {
			t.Fatalf("sort %v: the cursor moved to %d from %d", s.sort, r.ID, p.noStatus)
		}
	}
	// Unknown statuses sort last by availability.
	l.Key("o")
	if rows := m.Rows(); rows[len(rows)-1].ID != p.noStatus {
		t.Fatalf("by availability the operator without a status is not last: %v", names(rows))
	}
}

func names(rows []operators.Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%s(%d)", r.Name, r.ID)
	}
	return out
}

// TestEnterShowsTheOperatorsConversations: enter asks the root to show the conversations
// screen with the selected operator's assigned conversations (and nothing else: no
// request of the operators screen's own).
func TestEnterShowsTheOperatorsConversations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 100, 24)
	owner := e.Info.OwnerOperatorID
	moveTo(t, l, m, owner+1)
	r, _ := m.Selected()
	before := e.Log.Count("GET", "")
	l.Key("enter")
	l.Until("the switch", func() bool { return len(l.H.Switched) == 1 })
	sw := l.H.Switched[0]
	want := common.ShowOperatorConversationsMsg{OperatorID: owner + 1, Name: r.Name}
	if sw.Screen != common.ScreenConversations || sw.Then != want || r.Name == "" {
		t.Fatalf("enter sent %+v, want the conversations screen then %+v", sw, want)
	}
	if n := e.Log.Count("GET", ""); n != before {
		t.Fatalf("%d requests for enter", n-before)
	}
}
