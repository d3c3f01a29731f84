package operators_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/confirm"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// open shows the operators screen at w×h and waits until the list and the visible slots
// are in.
func open(t *testing.T, e *env, c *client.Client, w, h int) (*viewtest.Screen, *operators.Model, *common.Ctx) {
	t.Helper()
	ctx := viewtest.Ctx(c)
	ctx.ActingOperatorID = c.OperatorID()
	m := operators.New(ctx)
	l := viewtest.RunScreen(t, ctx, m, w, h)
	l.Until("operators and slots", func() bool { return m.Loaded() && !m.Busy() })
	return l, m, ctx
}

// openPaced shows the operators screen at 80×24 with the auto-refresh budget b, on a
// clock the test moves, and waits for the first load.
func openPaced(t *testing.T, e *env, b common.Budget) (*viewtest.Screen, *operators.Model, *common.Ctx, *viewtest.MovingClock) {
	t.Helper()
	ctx := viewtest.Ctx(e.Client)
	clock := viewtest.NewMovingClock(viewtest.Now)
	ctx.Now = clock.Now
	ctx.Budget = b
	m := operators.New(ctx)
	l := viewtest.RunScreen(t, ctx, m, 80, 24)
	l.Until("loaded", func() bool { return m.Loaded() && !m.Busy() })
	return l, m, ctx, clock
}

func rowIndex(t *testing.T, m *operators.Model, id int64) int {
	t.Helper()
	for i, r := range m.Rows() {
		if r.ID == id {
			return i
		}
	}
	t.Fatalf("operator %d not listed", id)
	return -1
}

// moveTo puts the cursor on operator id.
func moveTo(t *testing.T, l *viewtest.Screen, m *operators.Model, id int64) {
	t.Helper()
	l.Key("g")
	for i := rowIndex(t, m, id); i > 0; i-- {
		l.Key("j")
	}
	if r, _ := m.Selected(); r.ID != id {
		t.Fatalf("cursor on %d, want %d", r.ID, id)
	}
}

func TestListShowsEveryOperatorWithStatusAndSlots(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	rows := m.Rows()
	if len(rows) != 7 {
		t.Fatalf("%d operators, want the 7 of the default organization", len(rows))
	}
	if n := e.Log.Count("GET", "/slots/"); n != 7 {
		t.Errorf("%d slot requests, want one per visible operator (7)", n)
	}
	view := l.H.Render()
	viewtest.CheckSize(t, view, 80, 24, "the screen")
	for _, r := range rows {
		cur, total, ok := m.Slots(r.ID)
		if !ok || !cur.Known || !total.Known {
			t.Fatalf("slots of %d: %+v/%+v (%v)", r.ID, cur, total, ok)
		}
		s, err := e.Client.OperatorSlots(context.Background(), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur != s.CurrentSlots || total != s.TotalSlots {
			t.Errorf("operator %d: slots %v/%v, API says %v/%v", r.ID, cur, total, s.CurrentSlots, s.TotalSlots)
		}
		if !strings.Contains(view, fmt.Sprintf("slots %d/%d", cur.V, total.V)) {
			t.Errorf("view lacks slots %d/%d of %d", cur.V, total.V, r.ID)
		}
		if !r.IsAway.Known || !strings.Contains(view, operators.AwayText(r.IsAway)) {
			t.Errorf("view lacks %q for %d", operators.AwayText(r.IsAway), r.ID)
		}
	}
	for _, want := range []string{"Clara Hoffma", "(you)", "[bot]", "owner", "agent", "operators requests today"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
}

// Slots are fetched only for visible operators, and for those scrolled into view.
func TestSlotsOnlyForVisibleOperators(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 9) // 3 operators visible (a frame, three header lines, a footer)
	l.Until("three slot requests", func() bool { return e.Log.Count("GET", "/slots/") >= 3 })
	l.Drain(100 * time.Millisecond)
	if n := e.Log.Count("GET", "/slots/"); n != 3 {
		t.Fatalf("%d slot requests for 3 visible operators", n)
	}
	viewtest.CheckSize(t, l.H.Render(), 80, 9, "the screen")
	l.Key("j", "j", "j", "j") // cursor on the 5th: rows 3-5 visible
	l.Until("slots of the rows scrolled in", func() bool { return !m.Busy() && e.Log.Count("GET", "/slots/") == 5 })
	l.Drain(100 * time.Millisecond)
	if n := e.Log.Count("GET", "/slots/"); n != 5 {
		t.Fatalf("%d slot requests after scrolling two rows into view, want 5", n)
	}
}

func TestAwayOfOneselfNeedsNoConfirmation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	owner := e.Info.OwnerOperatorID
	if m.SelfID() != owner {
		t.Fatalf("self is %d, want the owner %d (the default operator)", m.SelfID(), owner)
	}
	moveTo(t, l, m, owner)
	before := m.Rows()[rowIndex(t, m, owner)].IsAway
	l.Key("w")
	l.Until("the away task", func() bool {
		return e.Log.Count("PATCH", "/away/") == 1 && !m.Busy() && l.H.LastToast() != ""
	})
	if l.H.Top() != nil || l.H.Opens != 0 {
		t.Fatalf("a modal opened for one's own away status")
	}
	op := serverOperator(t, e, owner)
	if !op.IsAway.Known || op.IsAway == before || m.Rows()[rowIndex(t, m, owner)].IsAway != op.IsAway {
		t.Fatalf("away was %v; API now %v, row %v", before, op.IsAway, m.Rows()[rowIndex(t, m, owner)].IsAway)
	}
	if n := e.Log.Count("PATCH", fmt.Sprintf("/operators/%d/away/", owner)); n != 1 {
		t.Fatalf("%d away PATCHes", n)
	}
	if !strings.Contains(l.H.LastToast(), "is now") {
		t.Fatalf("toast %q", l.H.LastToast())
	}
}

// ask puts the cursor on operator id and presses k, which must open a confirmation: it
// returns the operator's row and the question's words (one line, no styles).
func ask(t *testing.T, l *viewtest.Screen, m *operators.Model, id int64, k string) (operators.Row, string) {
	t.Helper()
	moveTo(t, l, m, id)
	row := m.Rows()[rowIndex(t, m, id)]
	l.Key(k)
	cm, ok := l.Modal().(*confirm.Model)
	if !ok {
		t.Fatalf("%s on operator %d opened %T, want a confirmation", k, id, l.H.Top())
	}
	return row, strings.Join(strings.Fields(ansi.Strip(cm.View())), " ")
}

func TestAwayOfAnotherOperatorAsksFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	other := e.Info.OwnerOperatorID + 1
	row, question := ask(t, l, m, other, "w")
	if !strings.Contains(question, row.Label()) {
		t.Fatalf("the question does not name %s:\n%s", row.Label(), question)
	}
	l.Key("n")
	l.Until("closed", func() bool { return l.H.Top() == nil })
	l.Drain(50 * time.Millisecond)
	if n := e.Log.Count("PATCH", "/away/"); n != 0 {
		t.Fatalf("after n: %d PATCHes", n)
	}
	l.Key("w")
	l.Modal()
	l.Key("y")
	l.Until("the away task", func() bool { return l.H.Top() == nil && !m.Busy() && e.Log.Count("PATCH", "/away/") == 1 })
	op := serverOperator(t, e, other)
	if !op.IsAway.Known || op.IsAway == row.IsAway || m.Rows()[rowIndex(t, m, other)].IsAway != op.IsAway {
		t.Fatalf("away was %v, API %v, row %v", row.IsAway, op.IsAway, m.Rows()[rowIndex(t, m, other)].IsAway)
	}
}

// A second w while the first toggle is on its way sends nothing.
func TestAwayTwiceSendsOneRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	moveTo(t, l, m, e.Info.OwnerOperatorID)
	_, first := l.H.Update(viewtest.Key("w"))
	_, second := l.H.Update(viewtest.Key("w"))
	l.Run(first)
	l.Run(second)
	l.Until("the away task", func() bool { return !m.Busy() && e.Log.Count("PATCH", "/away/") >= 1 })
	l.Drain(100 * time.Millisecond)
	if n := e.Log.Count("PATCH", "/away/"); n != 1 {
		t.Fatalf("%d away PATCHes for w w", n)
	}
}

func TestAwayForbiddenThenAllowedAsDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	restricted := e.Client.WithContext(0, e.Info.RestrictedOperatorID)
	l, m, ctx := open(t, e, restricted, 80, 24)
	if m.SelfID() != e.Info.RestrictedOperatorID {
		t.Fatalf("self %d", m.SelfID())
	}
	other := e.Info.OwnerOperatorID + 1
	moveTo(t, l, m, other)
	before := m.Rows()[rowIndex(t, m, other)].IsAway
	l.Key("w")
	l.Modal()
	l.Key("y")
	l.Until("the refusal", func() bool { return !m.Busy() && strings.Contains(l.H.LastToast(), "You lack permission") })
	// Back to the default operator: the same keys work.
	ctx.Client, ctx.ActingOperatorID = e.Client, 0
	l.Deliver(common.ContextChangedMsg{})
	l.Until("reload", func() bool { return m.Loaded() && !m.Busy() })
	moveTo(t, l, m, other)
	l.Key("w")
	l.Modal()
	l.Key("y")
	l.Until("the toggle", func() bool { return !m.Busy() && strings.Contains(l.H.LastToast(), "is now") })
	op := serverOperator(t, e, other)
	if !op.IsAway.Known || op.IsAway == before {
		t.Fatalf("away still %v", op.IsAway)
	}
}

func TestDeleteConfirmsNamingTheOperator(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	victim := e.Info.OwnerOperatorID + 2
	row, question := ask(t, l, m, victim, "d")
	if !strings.Contains(question, "Delete operator "+row.Label()) {
		t.Fatalf("question: %s", question)
	}
	l.Key("y")
	l.Until("the delete", func() bool { return !m.Busy() && len(m.Rows()) == 6 })
	if _, err := e.Client.GetOperator(context.Background(), victim); !client.IsNotFound(err) {
		t.Fatalf("operator still there: %v", err)
	}
	if n := e.Log.Count("DELETE", fmt.Sprintf("/operators/%d/", victim)); n != 1 {
		t.Fatalf("%d DELETEs", n)
	}
}

func TestDeleteForbiddenShowsPermission(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client.WithContext(0, e.Info.RestrictedOperatorID), 80, 24)
	moveTo(t, l, m, e.Info.OwnerOperatorID+1)
	l.Key("d")
	l.Modal()
	l.Key("y")
	l.Until("the refusal", func() bool { return !m.Busy() && l.H.LastToast() != "" })
	if got := l.H.LastToast(); !strings.HasPrefix(got, "You lack permission: ") {
		t.Fatalf("toast %q", got)
	}
	if len(m.Rows()) != 7 {
		t.Fatalf("%d rows after a refused delete", len(m.Rows()))
	}
}

// Results of an older context are dropped.
func TestStaleListDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := viewtest.Ctx(e.Client)
	m := operators.New(ctx)
	m.SetSize(80, 24)
	old := m.Focus()
	ctx.Client = e.Client.WithContext(e.Info.OrgIDs[1], 0)
	_, fresh := m.Update(common.ContextChangedMsg{})
	l := viewtest.RunScreen(t, ctx, m, 80, 24)
	l.Run(fresh)
	l.Until("the new organization", func() bool { return m.Loaded() && !m.Busy() })
	want := m.Rows()[0].ID
	l.Run(old) // the default organization's answer arrives late
	l.Drain(300 * time.Millisecond)
	if got := m.Rows()[0].ID; got != want {
		t.Fatalf("first row %d after a stale answer, want %d", got, want)
	}
}

// The root's auto-refresh tick refreshes the shown screen in place (the cursor stays on
// its operator); a hidden screen ignores it, and so does one refreshed less than half its
// pace ago (a tick armed at another screen's faster pace).
func TestAutoRefreshUpdatesInPlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _, clock := openPaced(t, e, common.Budget{Interval: 20 * time.Second, PerDay: 1 << 30})
	target := e.Info.OwnerOperatorID + 3
	moveTo(t, l, m, target)
	before := m.Rows()[rowIndex(t, m, target)].IsAway
	if _, err := e.Client.SetOperatorAway(context.Background(), target, !before.V); err != nil {
		t.Fatal(err)
	}
	lists := e.Log.Count("GET", "/operators/")
	l.Deliver(common.RefreshMsg{Auto: true})
	l.Drain(50 * time.Millisecond)
	if n := e.Log.Count("GET", "/operators/"); n != lists {
		t.Fatalf("a tick right after the first load refreshed: %d list requests", n-lists)
	}
	clock.Add(20 * time.Second)
	l.Deliver(common.RefreshMsg{Auto: true})
	l.Until("the change to show", func() bool { return m.Rows()[rowIndex(t, m, target)].IsAway != before })
	if r, _ := m.Selected(); r.ID != target {
		t.Fatalf("cursor moved to %d", r.ID)
	}
	m.Blur()
	lists = e.Log.Count("GET", "/operators/")
	clock.Add(time.Hour)
	l.Deliver(common.RefreshMsg{Auto: true})
	l.Drain(50 * time.Millisecond)
	if n := e.Log.Count("GET", "/operators/"); n != lists {
		t.Fatalf("auto-refresh went on while hidden: %d → %d list requests", lists, n)
	}
}

// TestAutoRefreshPacesTheListAndTheSlotsApart: an auto-refresh costs one request, the
// list (away and online for everyone), at the policy's pace; the slots of the operators
// in view (one request each) come along only every common.SlotsFactor refreshes; `r`
// refreshes both at once. The header says the pace of both.
func TestAutoRefreshPacesTheListAndTheSlotsApart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, ctx, clock := openPaced(t, e, common.Budget{Interval: 30 * time.Second, PerDay: 500, Reserve: 100})
	if used := e.Client.Usage(client.FamilyOperators); used != 8 {
		t.Fatalf("used %d operators requests, want 8: the list and 7 slots", used)
	}
	if p := m.AutoPace(); p.Every != 30*time.Second || m.SlotsPace() != 5*time.Minute {
		t.Fatalf("pace %v, slots every %v; want 30s and 5m", p.Every, m.SlotsPace())
	}
	if v := l.H.Render(); !strings.Contains(v, "auto 30s, slots every 5m00s") || !strings.Contains(v, "operators requests today 8/500") {
		t.Fatalf("the header does not show the pace and the budget:\n%s", v)
	}
	lists, slots := e.Log.Count("GET", "/operators/"), e.Log.Count("GET", "/slots/")
	for i := 1; i <= common.SlotsFactor; i++ {
		clock.Add(30 * time.Second)
		l.Deliver(common.RefreshMsg{Auto: true})
		l.Until("the refresh", func() bool { return e.Log.Count("GET", "/operators/") == lists+i && !m.Busy() })
		want := slots
		if i == common.SlotsFactor {
			want += 7 // five minutes after the last round
		}
		if n := e.Log.Count("GET", "/slots/"); n != want {
			t.Fatalf("refresh %d: %d slots requests, want %d", i, n-slots, want-slots)
		}
	}
	lists, slots = e.Log.Count("GET", "/operators/"), e.Log.Count("GET", "/slots/")
	l.Key("r")
	l.Until("r", func() bool {
		return e.Log.Count("GET", "/operators/") == lists+1 && e.Log.Count("GET", "/slots/") == slots+7 && !m.Busy()
	})

	// Nobody working (the root says so): both paces slow down, and the header says so.
	ctx.Activity = func() common.Activity { return common.Idle }
	if p := m.AutoPace(); p.Every != 2*time.Minute || m.SlotsPace() != 20*time.Minute {
		t.Fatalf("idle: pace %v, slots every %v; want 2m and 20m", p.Every, m.SlotsPace())
	}
	l.Deliver(struct{}{})
	if v := l.H.Render(); !strings.Contains(v, "auto 2m (idle), slots every 20m") {
		t.Fatalf("the header does not show the idle pace:\n%s", v)
	}
}

// TestAutoRefreshLeavesTheReserve: as the allowance runs down the pace stretches, the
// slots stay out when what is left cannot pay for them, and once only the reserve is
// left auto-refresh stops (and says so) while r still works.
func TestAutoRefreshLeavesTheReserve(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// 8 used by the first load: 2 of 10 left for polling (under a quarter: ×4), 5 kept.
	l, m, _, clock := openPaced(t, e, common.Budget{Interval: 30 * time.Second, PerDay: 15, Reserve: 5})
	if p := m.AutoPace(); p.Every != 2*time.Minute || !p.Slowed() {
		t.Fatalf("pace %+v, want 2m set by the budget", p)
	}
	if v := l.H.Render(); !strings.Contains(v, "auto 2m (budget)") {
		t.Fatalf("the header does not say the budget slows it:\n%s", v)
	}
	lists, slots := e.Log.Count("GET", "/operators/"), e.Log.Count("GET", "/slots/")
	clock.Add(time.Hour) // slots are due, but 8 requests do not fit in 2
	l.Deliver(common.RefreshMsg{Auto: true})
	l.Until("the list", func() bool { return e.Log.Count("GET", "/operators/") == lists+1 && !m.Busy() })
	clock.Add(time.Hour)
	l.Deliver(common.RefreshMsg{Auto: true})
	l.Until("the list", func() bool { return e.Log.Count("GET", "/operators/") == lists+2 && !m.Busy() })
	if n := e.Log.Count("GET", "/slots/"); n != slots {
		t.Fatalf("%d slots requests beyond the allowance", n-slots)
	}
	if p := m.AutoPace(); !p.Spent || p.Every != 0 {
		t.Fatalf("pace %+v with the allowance spent", p)
	}
	clock.Add(time.Hour)
	l.Deliver(common.RefreshMsg{Auto: true})
	l.Drain(50 * time.Millisecond)
	if n := e.Log.Count("GET", "/operators/"); n != lists+2 {
		t.Fatalf("auto-refresh ate the reserve: %d list requests", n-lists)
	}
	if v := l.H.Render(); !strings.Contains(v, "auto off (budget)") {
		t.Fatalf("the header does not say auto-refresh stopped:\n%s", v)
	}
	l.Key("r")
	l.Until("r", func() bool { return e.Log.Count("GET", "/operators/") == lists+3 && !m.Busy() })
}

func TestViewIsExactlyTheSizeGiven(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	for _, sz := range [][2]int{{80, 24}, {80, 20}, {100, 30}, {120, 40}, {160, 48}, {200, 50}, {81, 7}} {
		l.Deliver(struct{}{})
		m.SetSize(sz[0], sz[1])
		l.Until("slots", func() bool { return !m.Busy() })
		viewtest.CheckSize(t, m.View(), sz[0], sz[1], "the screen")
	}
}

func TestRowsAreSanitized(t *testing.T) {
	t.Parallel()
	r := operators.RowFrom(client.Operator{ID: 1, Name: "Eve\x1b]52;c;aGk=\x07\u202e" + viewtest.Invisible, DisplayName: "a\nb" + viewtest.Invisible, Role: "agent\r" + viewtest.Invisible})
	for _, s := range []string{r.Name, r.DisplayName, r.Role} {
		viewtest.CheckInertLine(t, s, "a row")
	}
}

// edit opens the edit form of operator id.
func edit(t *testing.T, l *viewtest.Screen, m *operators.Model, id int64) *forms.Modal {
	t.Helper()
	moveTo(t, l, m, id)
	l.Key("e")
	f, ok := l.Modal().(*forms.Modal)
	if !ok {
		t.Fatalf("e opened %T", l.H.Top())
	}
	return f
}

// renameLosing renames operator id to name in its edit form and saves it while the proxy
// meets the PATCH with fault; it returns the form.
func renameLosing(t *testing.T, p *viewtest.Proxy, l *viewtest.Screen, m *operators.Model, id int64, name string, fault viewtest.Fault) *forms.Modal {
	t.Helper()
	f := edit(t, l, m, id)
	typeInto(l, name)
	p.Lose("PATCH", fmt.Sprintf("/api/um/v3/operators/%d/", id), fault, 1)
	l.Key("ctrl+s")
	return f
}

// typeInto clears the focused field and types s.
func typeInto(l *viewtest.Screen, s string) {
	for range 60 {
		l.Deliver(viewtest.Key("backspace"))
	}
	l.Key(s)
}

func TestEditValidatesLocally(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fn   func(string) error
		in   string
		okay bool
	}{
		{operators.ValidateEmail, "ben@example.com", true},
		{operators.ValidateEmail, "ben", false},
		{operators.ValidateEmail, "@example.com", false},
		{operators.ValidateEmail, "ben@", false},
		{operators.ValidateEmail, "b en@example.com", false},
		{operators.ValidateLocale, "de_DE", true},
		{operators.ValidateLocale, "de", false},
		{operators.ValidateLocale, "DE_de", false},
		{operators.ValidateName, "Ben", true},
		{operators.ValidateName, "   ", false},
		{operators.ValidateName, strings.Repeat("x", 201), false},
	} {
		if err := tc.fn(tc.in); (err == nil) != tc.okay {
			t.Errorf("%q: err %v, want ok=%v", tc.in, err, tc.okay)
		}
	}

	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	f := edit(t, l, m, e.Info.OwnerOperatorID+1)
	l.Key("tab", "tab") // email
	typeInto(l, "not-an-email")
	l.Key("enter")
	if v := ansi.Strip(f.View()); !strings.Contains(v, "is not an email address") {
		t.Fatalf("no validation message:\n%s", v)
	}
	l.Drain(50 * time.Millisecond)
	if n := len(e.bodies.Requests("PATCH", "")); n != 0 {
		t.Fatalf("%d PATCHes with an invalid email", n)
	}
	if l.H.Top() != f {
		t.Fatal("the form closed")
	}
}

func TestEditSendsOnlyChangedFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	id := e.Info.OwnerOperatorID + 1
	edit(t, l, m, id)
	l.Key("tab") // display name
	typeInto(l, "Benji")
	l.Key("enter", "enter", "enter") // display name → email → locale → submit
	l.Until("saved", func() bool { return l.H.Top() == nil })
	got := e.bodies.Requests("PATCH", "")
	if len(got) != 1 || got[0].String() != fmt.Sprintf(`/api/um/v3/operators/%d/ {"display_name":"Benji"}`, id) {
		t.Fatalf("PATCH bodies %q, want only display_name", got)
	}
	if r := m.Rows()[rowIndex(t, m, id)]; r.DisplayName != "Benji" {
		t.Fatalf("row not updated in place: %+v", r)
	}
	if !strings.Contains(l.H.LastToast(), "Saved operator") {
		t.Fatalf("toast %q", l.H.LastToast())
	}
	// No change: nothing is sent.
	edit(t, l, m, id)
	l.Key("enter", "enter", "enter", "enter")
	l.Until("closed", func() bool { return l.H.Top() == nil })
	if n := len(e.bodies.Requests("PATCH", "")); n != 1 {
		t.Fatalf("%d PATCHes after an unchanged submit", n)
	}
}

func TestEditKeepsInputOnPermissionErrorAndWorksAsDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	restricted := e.Client.WithContext(0, e.Info.RestrictedOperatorID)
	l, m, ctx := open(t, e, restricted, 80, 24)
	id := e.Info.OwnerOperatorID + 1
	f := edit(t, l, m, id)
	l.Key("tab")
	typeInto(l, "Benedict")
	l.Key("enter", "enter", "enter")
	l.Until("the refusal", func() bool { return !f.Submitting() && f.Err() != "" })
	if !strings.HasPrefix(f.Err(), "You lack permission: ") {
		t.Fatalf("form error %q", f.Err())
	}
	if l.H.Top() != f {
		t.Fatal("the form closed on failure")
	}
	if v := ansi.Strip(f.View()); !strings.Contains(v, "Benedict") || !strings.Contains(v, "You lack permission") {
		t.Fatalf("the form lost the input or the error:\n%s", v)
	}
	// Switch back to the default operator and submit the same form again.
	ctx.Client, ctx.ActingOperatorID = e.Client, 0
	l.Key("enter", "enter", "enter", "enter")
	l.Until("saved", func() bool { return l.H.Top() == nil })
	op := serverOperator(t, e, id)
	if op.DisplayName != "Benedict" {
		t.Fatalf("display name %q", op.DisplayName)
	}
}

func TestEditNeverSubmitsTwice(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	edit(t, l, m, e.Info.OwnerOperatorID+1)
	l.Key("tab")
	typeInto(l, "Twice")
	l.Key("enter", "enter")
	// The last enter submits; more presses arrive before the answer.
	for range 3 {
		_, c := l.H.Update(viewtest.Key("enter"))
		l.Run(c)
	}
	l.Until("saved", func() bool { return l.H.Top() == nil })
	l.Drain(100 * time.Millisecond)
	if n := e.Log.Count("PATCH", "/"); n != 1 {
		t.Fatalf("%d PATCHes for one form", n)
	}
}

// A 429 of the daily limit on the PATCH (never retried) shows in the form, which keeps
// what was typed.
func TestEditRateLimitedKeepsInput(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, sandbox.Options{DailyLimit: 8}) // the list and 7 slots use it up
	l, m, _ := open(t, e, e.Client, 80, 24)
	f := edit(t, l, m, e.Info.OwnerOperatorID+1)
	l.Key("tab")
	typeInto(l, "Later")
	l.Key("enter", "enter", "enter")
	l.Until("the refusal", func() bool { return !f.Submitting() && f.Err() != "" })
	if !strings.HasPrefix(f.Err(), "Daily limit of operators requests reached: the API takes them again at ") || l.H.Top() != f {
		t.Fatalf("form error %q, top %T", f.Err(), l.H.Top())
	}
	if v := ansi.Strip(f.View()); !strings.Contains(v, "Later") {
		t.Fatalf("the input is gone:\n%s", v)
	}
	if n := e.Log.Count("PATCH", "/"); n != 1 {
		t.Fatalf("%d PATCHes: a PATCH is never retried", n)
	}
}

// TestAwayTogglesShowTheServersAnswer: after each toggle the row shows the away and the
// online status as the server has them, nothing inferred. A server whose away answer is
// the whole operator (away-independent: away leaves the operator online) costs the PATCH
// alone; the sandbox's answer ({"operator_id", "is_away", "changed_at"}) does not state the
// online status, so the operator is read once (the sandbox marks it offline once away).
// Neither the list nor the slots are asked for (away does not change them). Before, the row
// showed an operator set away as offline, also when the server kept it online.
func TestAwayTogglesShowTheServersAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		variant sandbox.Variant
		reads   int // GETs of the operator per toggle
	}{{"", 1}, {sandbox.VariantAwayIndependent, 0}} {
		t.Run(cmp.Or(string(tc.variant), "default"), func(t *testing.T) {
			opts := sandbox.Options{}
			if tc.variant != "" {
				opts.Variants = []sandbox.Variant{tc.variant}
			}
			e := newEnvWith(t, opts)
			l, m, _ := open(t, e, e.Client, 80, 24)
			target := int64(0)
			for _, r := range m.Rows() {
				if r.IsAway == client.Some(false) && r.IsOnline == client.Some(true) && !r.IsBot {
					target = r.ID
					break
				}
			}
			if target == 0 {
				t.Fatal("the test needs an available, online operator")
			}
			moveTo(t, l, m, target)
			cur, total, _ := m.Slots(target)
			for _, away := range []bool{true, false} {
				before := len(e.Log.Lines())
				l.Key("w")
				if target != m.SelfID() {
					l.Modal()
					l.Key("y")
				}
				l.Until("the away task", func() bool { return !m.Busy() && strings.Contains(l.H.LastToast(), "is now") })
				l.Drain(50 * time.Millisecond)
				sent := e.Log.Lines()[before:]
				path := fmt.Sprintf("/api/um/v3/operators/%d/", target)
				if len(sent) != 1+tc.reads || sent[0].Method != "PATCH" || sent[0].Path != path+"away/" {
					t.Fatalf("away=%v took %+v, want the PATCH and %d reads", away, sent, tc.reads)
				}
				for _, r := range sent[1:] {
					if r.Method != "GET" || r.Path != path {
						t.Fatalf("away=%v: %s %s after the PATCH, want only a read of the operator", away, r.Method, r.Path)
					}
				}
				op := serverOperator(t, e, target)
				row := m.Rows()[rowIndex(t, m, target)]
				if op.IsAway != client.Some(away) || row.IsAway != op.IsAway || row.IsOnline != op.IsOnline {
					t.Fatalf("away=%v: row away %v online %v; API away %v online %v", away, row.IsAway, row.IsOnline, op.IsAway, op.IsOnline)
				}
				// The two servers differ: the sandbox marks the operator offline once away
				// (and available again does not bring it online), the other keeps it online.
				if wantOnline := tc.variant == sandbox.VariantAwayIndependent; op.IsOnline != client.Some(wantOnline) {
					t.Fatalf("away=%v: the server has online %v, the test expects %v", away, op.IsOnline, wantOnline)
				}
				if c, tt, ok := m.Slots(target); !ok || c != cur || tt != total {
					t.Fatalf("away=%v: slots %v/%v (%v), were %v/%v", away, c, tt, ok, cur, total)
				}
				line := rowLine(t, l.H.Render(), row.Name)
				if want := operators.AwayText(op.IsAway) + " " + operators.OnlineText(op.IsOnline); !strings.Contains(strings.Join(strings.Fields(line), " "), want) {
					t.Fatalf("away=%v: the row does not say %q:\n%s", away, want, line)
				}
			}
		})
	}
}

// rowLine is the line of the view that names name.
func rowLine(t *testing.T, view, name string) string {
	t.Helper()
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, name) {
			return l
		}
	}
	t.Fatalf("no row names %q:\n%s", name, view)
	return ""
}

// emptyAway answers every away PATCH, after the server took it, with an empty object.
type emptyAway struct{ next http.RoundTripper }

func (e emptyAway) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := e.next.RoundTrip(r)
	if err != nil || r.Method != http.MethodPatch || !strings.HasSuffix(r.URL.Path, "/away/") || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(strings.NewReader("{}"))
	resp.ContentLength = 2
	resp.Header.Del("Content-Length")
	return resp, nil
}

// An away answer that says nothing (the spec does not show its fields) is checked by
// reading the operator back, both ways, so the row shows the operator's status. Before, {}
// read as "not away" and was believed when available was asked for.
func TestAwayAnswerWithoutFieldsIsReadBack(t *testing.T) {
	t.Parallel()
	e := &env{Env: viewtest.NewEnv(t, sandbox.Options{}, func(next http.RoundTripper) http.RoundTripper { return emptyAway{next} })}
	l, m, _ := open(t, e, e.Client, 80, 24)
	owner := e.Info.OwnerOperatorID
	moveTo(t, l, m, owner)
	for i := range 2 { // both ways
		before := m.Rows()[rowIndex(t, m, owner)].IsAway
		toggles := l.H.Count("common.TaskDoneMsg")
		reads := e.Log.Count("GET", fmt.Sprintf("/operators/%d/", owner))
		l.Key("w")
		l.Until("the away task", func() bool { return !m.Busy() && l.H.Count("common.TaskDoneMsg") > toggles })
		if got := m.Rows()[rowIndex(t, m, owner)].IsAway; !got.Known || got == before {
			t.Fatalf("toggle %d: row away %v, was %v; toast %q", i, got, before, l.H.LastToast())
		}
		if n := e.Log.Count("GET", fmt.Sprintf("/operators/%d/", owner)) - reads; n != 1 {
			t.Fatalf("toggle %d (away %v): %d reads of the operator, want 1", i, !before.V, n)
		}
	}
}

// # goes to a loaded operator (its slots then fetched); an id no operator has is said so.
func TestJumpToID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 9) // four operators in view
	target := m.Rows()[len(m.Rows())-1]
	if _, _, ok := m.Slots(target.ID); ok {
		t.Fatalf("the slots of operator %d, not in view, were fetched", target.ID)
	}
	l.Jump(fmt.Sprint(target.ID), func() bool { r, _ := m.Selected(); return r.ID == target.ID && !m.Busy() })
	if _, _, ok := m.Slots(target.ID); !ok {
		t.Fatalf("the slots of operator %d, now in view, were not fetched", target.ID)
	}
	l.Jump("999999", func() bool { return len(l.H.Toasts) > 0 })
	if got, want := l.H.LastToast(), "No operator #999999 among the operators loaded."; got != want {
		t.Fatalf("toast %q, want %q", got, want)
	}
}

// env is a fresh sandbox (tests here write) with a request log, a client on it and the
// PATCH bodies that client sent.
type env struct {
	*viewtest.Env
	bodies *viewtest.Recorder
}

func newEnv(t *testing.T) *env { return newEnvWith(t, sandbox.Options{}) }

func newEnvWith(t *testing.T, opts sandbox.Options) *env {
	t.Helper()
	b := &viewtest.Recorder{}
	e := viewtest.NewEnv(t, opts, func(next http.RoundTripper) http.RoundTripper {
		b.Next = next
		return b
	})
	return &env{Env: e, bodies: b}
}

// TestGoldenOperators renders the screen against the in-process sandbox (small, seed 1,
// fixed clock, no colour) once the list and every visible operator's slots are in.
// Regenerate with: go test ./internal/views/screens/operators -run Golden -update
func TestGoldenOperators(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ctx := viewtest.Ctx(newEnv(t).Client)
			ctx.Budget.Interval = 20 * time.Second
			h := viewtest.NewHost(ctx, operators.New(ctx))
			viewtest.GoldenView(t, h, size[0], size[1], map[string]int{"list.PageMsg": 1, "operators.slotsMsg": 7})
		})
	}
}

// serverOperator is operator id as the sandbox has it.
func serverOperator(t *testing.T, e *env, id int64) *client.Operator {
	t.Helper()
	op, err := e.Client.GetOperator(client.Fresh(context.Background()), id)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// rawGet decodes the sandbox's answer to path, as the server sent it, into out.
func rawGet(t *testing.T, e *env, path string, out any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.Sandbox.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Token "+e.Info.CustomerToken)
	resp, err := viewtest.Transport(t).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, body)
	}
}

// serverSlots is the slot use of operator id as the server states it in shape v, read
// without the client: the numbers the screen must show.
func serverSlots(t *testing.T, e *env, v sandbox.Variant, id int64) (used, total int) {
	t.Helper()
	path := fmt.Sprintf("/api/um/v3/operators/%d/", id)
	switch v {
	case sandbox.VariantSlotsUsedMax:
		var s struct{ Used, Max *int }
		rawGet(t, e, path+"slots/", &s)
		if s.Used == nil || s.Max == nil {
			t.Fatalf("operator %d: the slots answer is not {used, max}", id)
		}
		return *s.Used, *s.Max
	case sandbox.VariantSlotsList:
		var held []json.RawMessage
		rawGet(t, e, path+"slots/", &held)
		var op struct {
			MaxSlots *int `json:"max_slots"`
		}
		rawGet(t, e, path, &op)
		if op.MaxSlots == nil {
			t.Fatalf("operator %d has no max_slots", id)
		}
		return len(held), *op.MaxSlots
	}
	var s struct {
		CurrentSlots *int `json:"current_slots"`
		TotalSlots   *int `json:"total_slots"`
	}
	rawGet(t, e, path+"slots/", &s)
	if s.CurrentSlots == nil || s.TotalSlots == nil {
		t.Fatalf("operator %d: the slots answer is not {current_slots, total_slots}", id)
	}
	return *s.CurrentSlots, *s.TotalSlots
}

// TestSlotsShowWhatEveryServerSays: under each shape of the slots answer the rows show the
// slot use the server states ({"used", "max"}; a list of the occupied slots with the total
// on the operator as max_slots), and some operator uses a slot, so 0/0 cannot pass. Before,
// {"used", "max"} showed "slots 0/0" for everyone and a list "slots ?".
func TestSlotsShowWhatEveryServerSays(t *testing.T) {
	t.Parallel()
	for _, v := range []sandbox.Variant{"", sandbox.VariantSlotsUsedMax, sandbox.VariantSlotsList} {
		t.Run(cmp.Or(string(v), "default"), func(t *testing.T) {
			opts := sandbox.Options{}
			if v != "" {
				opts.Variants = []sandbox.Variant{v}
			}
			e := newEnvWith(t, opts)
			l, m, _ := open(t, e, e.Client, 100, 24)
			view := l.H.Render()
			busy := 0
			for _, r := range m.Rows() {
				used, total := serverSlots(t, e, v, r.ID)
				if used > 0 {
					busy++
				}
				want := fmt.Sprintf("slots %d/%d", used, total)
				if line := rowLine(t, view, r.Name); !strings.Contains(line, want) {
					t.Errorf("operator %d: the row does not say %q:\n%s", r.ID, want, line)
				}
			}
			if busy == 0 {
				t.Fatal("no operator uses a slot: the test cannot tell 0 from a reading")
			}
		})
	}
}

// partial is another server, made from the sandbox by leaving fields out of its answers:
// the operators list loses is_away and is_online of operator noStatus and gains fields
// parley does not read; the slots answers lose their total (usedOnly), their use (maxOnly)
// or both (neither), renamed {"used", "max"} as another server names them.
type partial struct {
	noStatus, usedOnly, maxOnly, none int64
}

// edit makes the answers to GETs partial (see viewtest.EditBodies).
func (p *partial) edit(path string, body []byte) ([]byte, error) {
	switch {
	case strings.HasSuffix(path, "/operators/"):
		var page struct {
			Count    int              `json:"count"`
			Next     *string          `json:"next"`
			Previous *string          `json:"previous"`
			Results  []map[string]any `json:"results"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, err
		}
		for _, op := range page.Results {
			if id, _ := op["id"].(float64); int64(id) == p.noStatus {
				delete(op, "is_away")
				delete(op, "is_online")
				op["team"] = map[string]any{"name": "night\x1b[2J \u202eshift"}
				op["presence"] = "busy"
			}
		}
		body, _ = json.Marshal(page)
	case strings.HasSuffix(path, "/slots/"):
		var s struct {
			CurrentSlots int `json:"current_slots"`
			TotalSlots   int `json:"total_slots"`
		}
		if err := json.Unmarshal(body, &s); err != nil {
			return nil, err
		}
		out := map[string]any{"used": s.CurrentSlots, "max": s.TotalSlots}
		id, _ := strconv.ParseInt(strings.Split(strings.TrimPrefix(path, "/api/um/v3/operators/"), "/")[0], 10, 64)
		switch id {
		case p.usedOnly:
			delete(out, "max")
		case p.maxOnly:
			delete(out, "used")
		case p.none:
			out = map[string]any{"pool": "default"}
		}
		body, _ = json.Marshal(out)
	}
	return body, nil
}

// TestAbsentValuesShowADash: what a server does not send shows as "—", never as a zero or
// false it did not say: an operator without is_away and is_online has neither status, a
// slots answer without a total shows "3/—", one without the use "—/5", one with neither
// "—". The fields parley does not read show in the detail (p), sanitized. Before, the
// operator showed "available" and "offline" and the slots "n/0", "0/n" and "0/0".
func TestAbsentValuesShowADash(t *testing.T) {
	t.Parallel()
	p := &partial{}
	e := &env{Env: viewtest.NewEnv(t, sandbox.Options{}, func(next http.RoundTripper) http.RoundTripper {
		return viewtest.EditBodies{Next: next, Edit: p.edit}
	})}
	owner := e.Info.OwnerOperatorID // the client has sent nothing yet
	p.noStatus, p.usedOnly, p.maxOnly, p.none = owner+1, owner, owner+2, owner+3
	l, m, _ := open(t, e, e.Client, 100, 24)
	view := l.H.Render()
	byID := map[int64]operators.Row{}
	for _, r := range m.Rows() {
		byID[r.ID] = r
	}
	used, total := serverSlots(t, e, "", owner)
	_, total2 := serverSlots(t, e, "", owner+2)
	for _, tc := range []struct {
		id   int64
		want string
	}{
		{owner, fmt.Sprintf("slots %d/—", used)},
		{owner + 2, fmt.Sprintf("slots —/%d", total2)},
		{owner + 3, "slots —"},
	} {
		if line := rowLine(t, view, byID[tc.id].Name); !strings.Contains(line, tc.want) {
			t.Errorf("operator %d: the row does not say %q:\n%s", tc.id, tc.want, line)
		}
	}
	if total == 0 {
		t.Fatal("the owner has no slots: the test cannot tell")
	}
	r := byID[owner+1]
	if r.IsAway.Known || r.IsOnline.Known {
		t.Fatalf("operator %d: away %+v online %+v, the server sent neither", r.ID, r.IsAway, r.IsOnline)
	}
	line := strings.Join(strings.Fields(rowLine(t, view, r.Name)), " ")
	if !strings.HasPrefix(line, "│ — — "+r.Name) || strings.Contains(line, "available") || strings.Contains(line, "offline") {
		t.Fatalf("operator %d: the row claims a status the server did not send:\n%s", r.ID, line)
	}

	// The detail of that operator: what the row leaves out, and what parley does not read.
	moveTo(t, l, m, r.ID)
	l.Key("p")
	l.Until("the detail", func() bool { return m.DetailShown() && !m.Busy() })
	v := l.H.Render()
	viewtest.CheckSize(t, v, 100, 24, "the screen with the detail")
	for _, want := range []string{"Operator " + r.Label(), "Email         " + r.Email, "Also sent",
		`presence="busy"`, `team={"name":"night\u001b[2J shift"}`} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail lacks %q:\n%s", want, v)
		}
	}
	if strings.ContainsAny(v, "\x1b\u202e") {
		t.Fatal("a control character from the server reached the screen")
	}
	moveTo(t, l, m, owner+3)
	l.Until("the slots answer's fields", func() bool { return strings.Contains(l.H.Render(), `slots: pool="default"`) })
	if !m.DetailShown() || rowIndex(t, m, owner+3) < 0 {
		t.Fatal("the detail closed")
	}
}

// TestSlashFindsOperatorsByNameAsYouType: / opens the prompt the contacts search uses;
// each letter typed narrows the list (and so j and k) to the operators whose name holds
// it; enter keeps the filter, named in the header; esc in the prompt puts back what it
// opened with; esc on the screen clears it; a name no operator has says what hides them.
func TestSlashFindsOperatorsByNameAsYouType(t *testing.T) {
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	all := len(m.Rows())
	names := func() []string {
		var out []string
		for _, r := range m.Rows() {
			out = append(out, r.Name)
		}
		return out
	}
	l.Key("/")
	if top := l.H.Top(); top == nil || !strings.Contains(ansi.Strip(top.View()), "Find operator:") {
		t.Fatalf("/ opened no name prompt: %v", l.H.Modals())
	}
	l.Key("i")
	l.Settle()
	for _, r := range m.Rows() {
		if !operators.NameHas(r, "i") {
			t.Errorf("typing i kept %q", r.Name)
		}
	}
	if n := len(m.Rows()); n == 0 || n == all {
		t.Fatalf("typing i kept %d of %d operators: %v", n, all, names())
	}
	l.Key("v", "e")
	l.Settle()
	if got := names(); len(got) != 1 || got[0] != "Tomás Rivera" {
		t.Fatalf("typing ive kept %v, want Tomás Rivera only", got)
	}
	l.Key("enter")
	l.Settle()
	if l.H.Top() != nil {
		t.Fatal("enter left the prompt open")
	}
	l.Key("j", "j")
	if r, ok := m.Selected(); !ok || r.Name != "Tomás Rivera" {
		t.Fatalf("j left the match: on %q", r.Name)
	}
	if v := ansi.Strip(l.H.Render()); !strings.Contains(v, `1 of 7`) || !strings.Contains(v, `"ive"`) {
		t.Fatalf("the header does not name the filter:\n%s", v)
	}
	// esc in a reopened prompt puts the filter back as it was.
	l.Key("/", "x")
	l.Settle()
	if n := len(m.Rows()); n != 0 {
		t.Fatalf("typing x over the selected ive kept %v", names())
	}
	if v := ansi.Strip(l.H.Render()); !strings.Contains(v, `No operators match the search "x". esc clears it.`) {
		t.Fatalf("the empty list does not say why:\n%s", v)
	}
	l.Key("esc")
	l.Settle()
	if got := names(); len(got) != 1 || m.Name() != "ive" {
		t.Fatalf("esc in the prompt left %q: %v", m.Name(), got)
	}
	l.Key("esc")
	l.Settle()
	if n := len(m.Rows()); n != all || m.Name() != "" {
		t.Fatalf("esc on the screen kept %q: %d of %d operators", m.Name(), n, all)
	}
}

// TestJumpWithANameFindsByName: # followed by a name instead of an id finds operators by
// that name, as / does ("not a positive whole number" before).
func TestJumpWithANameFindsByName(t *testing.T) {
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	l.Key("#")
	l.Settle()
	l.Key("M", "i", "r", "a", "enter")
	l.Settle()
	if r, ok := m.Selected(); !ok || r.Name != "Mira Jensen" || len(m.Rows()) != 1 || m.Name() != "Mira" {
		t.Fatalf("#Mira: name %q, %d rows, cursor on %q; toast %q", m.Name(), len(m.Rows()), r.Name, l.H.LastToast())
	}
}
