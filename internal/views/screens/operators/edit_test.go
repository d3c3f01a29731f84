package operators_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sanitize"
)

// A 403 says its reason once, and the form keeps the focus on the field the user was on
// (the last one: enter there submitted), so typing goes on there.
func TestEditRefusedKeepsTheFocusAndSaysWhyOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	restricted := e.Client.WithContext(0, e.Info.RestrictedOperatorID)
	l, m, _ := open(t, e, restricted, 80, 24)
	f := edit(t, l, m, e.Info.OwnerOperatorID+1)
	l.Key("tab")
	typeInto(l, "Benedict")
	l.Key("enter", "enter", "enter")
	l.Until("the refusal", func() bool { return !f.Submitting() && f.Err() != "" })
	if strings.Count(f.Err(), "permission") != 1 || strings.Contains(f.Err(), "You do not have permission") {
		t.Fatalf("the refusal repeats itself: %q", f.Err())
	}
	v := ansi.Strip(f.View())
	if !strings.Contains(v, "┃ Locale") {
		t.Fatalf("the focus left the locale field:\n%s", v)
	}
}

// ctrl+s saves the operator form from its first field, like every other form.
func TestEditSavesWithCtrlSFromAnyField(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l, m, _ := open(t, e, e.Client, 80, 24)
	id := e.Info.OwnerOperatorID + 1
	f := edit(t, l, m, id)
	if v := ansi.Strip(f.View()); !strings.Contains(v, "ctrl+s") {
		t.Fatalf("the form does not say how to save:\n%s", v)
	}
	typeInto(l, "Ben Okafor Jr")
	l.Key("ctrl+s")
	l.Until("saved", func() bool { return l.H.Top() == nil })
	op := serverOperator(t, e, id)
	if op.Name != "Ben Okafor Jr" {
		t.Fatalf("name %q", op.Name)
	}
	if want := fmt.Sprintf("Saved operator Ben Okafor Jr (#%d)", id); l.H.LastToast() != want {
		t.Fatalf("toast %q, want %q (the name as saved)", l.H.LastToast(), want)
	}
}

// After a refusal, switching back to the default operator (same organization) keeps the
// list and the cursor, so the same key works at once on the same operator.
func TestOperatorSwitchKeepsTheCursor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	restricted := e.Client.WithContext(0, e.Info.RestrictedOperatorID)
	l, m, ctx := open(t, e, restricted, 80, 24)
	other := e.Info.OwnerOperatorID + 3
	moveTo(t, l, m, other)
	ctx.Client, ctx.ActingOperatorID = e.Client, 0
	l.Deliver(common.ContextChangedMsg{OperatorOnly: true})
	if len(m.Rows()) == 0 {
		t.Fatal("the operators went while they load again")
	}
	l.Until("reload", func() bool { return m.Loaded() && !m.Busy() })
	if r, ok := m.Selected(); !ok || r.ID != other {
		t.Fatalf("cursor on %+v after the switch, want operator %d", r, other)
	}
	if _, _, ok := m.Slots(other); !ok {
		t.Fatal("no slots after the switch")
	}
	if m.SelfID() == e.Info.RestrictedOperatorID {
		t.Fatal("the screen still acts as the restricted operator")
	}
}

// Shown again after longer than the refresh interval, the screen refreshes at once; shown
// again sooner, it does not.
func TestFocusAfterAWhileRefreshesAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := viewtest.Now
	ctx := viewtest.Ctx(e.Client)
	ctx.Now = func() time.Time { return now }
	ctx.Budget = common.Budget{Interval: time.Minute, PerDay: 1 << 30}
	m := operators.New(ctx)
	l := viewtest.RunScreen(t, ctx, m, 80, 24)
	l.Until("loaded", func() bool { return m.Loaded() && !m.Busy() })
	lists := e.Log.Count("GET", "/v3/operators/")

	m.Blur()
	now = now.Add(30 * time.Second)
	l.Run(m.Focus())
	l.Drain(50 * time.Millisecond)
	if n := e.Log.Count("GET", "/v3/operators/"); n != lists {
		t.Fatalf("shown again after 30s of a 1m interval: %d list requests, want none", n-lists)
	}

	m.Blur()
	now = now.Add(10 * time.Minute)
	l.Run(m.Focus())
	l.Until("the refresh", func() bool { return e.Log.Count("GET", "/v3/operators/") == lists+1 && !m.Busy() })
	if v := m.View(); !strings.Contains(v, "refreshed "+now.In(now.Location()).Format("15:04:05")) {
		t.Fatalf("the footer does not show the new refresh:\n%s", v)
	}
}

// The form shows an operator's hostile name sanitized and sends only what the user changed:
// the name and display name the API holds stay as they were, byte for byte.
func TestEditLeavesHostileTextOfUntouchedFieldsAlone(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.Info.OwnerOperatorID + 1
	const name = "\x1b]0;OPPWN\x07Ben\u202e \x1b[0m\u009b2J 👩\u200d💻"
	const display = "\x1b[2JBenji\u2066\u200b"
	if _, err := e.Client.UpdateOperator(context.Background(), id, client.OperatorUpdate{Name: ptr(name), DisplayName: ptr(display)}); err != nil {
		t.Fatal(err)
	}
	l, m, _ := open(t, e, e.Client, 100, 30)
	f := edit(t, l, m, id)
	if v, shown := ansi.Strip(f.View()), sanitize.Line(name); !strings.Contains(v, "> "+shown) {
		t.Fatalf("the name field does not show %q:\n%s", shown, v)
	}
	before := serverOperator(t, e, id)
	l.Key("tab", "tab", "end") // email
	l.Key("x")
	l.Key("ctrl+s")
	l.Until("saved", func() bool { return l.H.Top() == nil })
	got := e.bodies.Requests("PATCH", "")
	want := fmt.Sprintf(`/api/um/v3/operators/%d/ {"email":"%sx"}`, id, before.Email)
	if len(got) != 2 || got[1].String() != want {
		t.Fatalf("PATCH bodies %q, want the seeding one, then %q", got, want)
	}
	after := serverOperator(t, e, id)
	if after.Name != name || after.DisplayName != display || after.Email != before.Email+"x" {
		t.Fatalf("after the edit: name %q display name %q email %q", after.Name, after.DisplayName, after.Email)
	}
}

func ptr(s string) *string { return &s }

// lossy is the operators screen through a proxy that can lose requests (one attempt per
// request), on a sandbox of the test's own.
func lossy(t *testing.T) (*env, *viewtest.Proxy, *viewtest.Screen, *operators.Model) {
	t.Helper()
	e := newEnv(t)
	p := viewtest.NewProxy(t, e.Sandbox.URL)
	l, m, _ := open(t, e, p.Client(t, e.Info.CustomerToken, true), 80, 24)
	return e, p, l, m
}

func toastTexts(h *viewtest.Host) []string {
	return list.Map(h.Toasts, func(t common.ToastMsg) string { return t.Text })
}

// The away PATCH of oneself is carried out and its answer lost: the screen says it may have
// been saved, reads the operator again and reports the status as confirmed; when the PATCH
// never arrived, it says not saved and the row keeps the status the API has.
func TestAwayLostAnswerIsCheckedByReadingTheOperator(t *testing.T) {
	t.Parallel()
	for _, fault := range []viewtest.Fault{viewtest.DropAnswer, viewtest.DropRequest} {
		saved := fault == viewtest.DropAnswer
		t.Run(map[bool]string{true: "answer", false: "request"}[saved], func(t *testing.T) {
			e, p, l, m := lossy(t)
			owner := e.Info.OwnerOperatorID
			moveTo(t, l, m, owner)
			row := m.Rows()[rowIndex(t, m, owner)]
			if !row.IsAway.Known {
				t.Fatalf("the sandbox did not say whether %s is away", row.Label())
			}
			asked := !row.IsAway.V
			_, askedWord := operators.AwaySymbol(asked)
			_, wasWord := operators.AwaySymbol(row.IsAway.V)
			p.Lose("PATCH", fmt.Sprintf("/api/um/v3/operators/%d/away/", owner), fault, 1)
			reads := e.Log.Count("GET", fmt.Sprintf("/operators/%d/", owner))
			l.Key("w")
			l.Until("the check", func() bool { return !m.Busy() && len(l.H.Toasts) >= 2 })
			want := []string{row.Label() + ": may have been set " + askedWord + "; checking…",
				row.Label() + " is now " + askedWord + " (confirmed after the connection dropped)"}
			if !saved {
				want[1] = "Not saved: the connection was lost before the server answered, and " + row.Label() + " is still " + wasWord + ". w tries again."
			}
			if got := toastTexts(l.H); !slices.Equal(got, want) {
				t.Fatalf("toasts\n got %q\nwant %q", got, want)
			}
			if isErr := l.H.Toasts[1].Error; isErr == saved {
				t.Fatalf("the report is an error: %v", isErr)
			}
			if n := e.Log.Count("GET", fmt.Sprintf("/operators/%d/", owner)) - reads; n != 1 {
				t.Fatalf("%d reads of the operator, want 1", n)
			}
			op := serverOperator(t, e, owner)
			wantAway := client.Some(row.IsAway.V != saved)
			if op.IsAway != wantAway || m.Rows()[rowIndex(t, m, owner)].IsAway != wantAway {
				t.Fatalf("API away %v, row away %v; want %v", op.IsAway, m.Rows()[rowIndex(t, m, owner)].IsAway, wantAway)
			}
		})
	}
}

// The away PATCH's answer is lost and so is the read that checks it: the screen says it
// could not confirm, and the row no longer states the status it had before as a fact (the
// server may hold either): it shows the status as unknown until a refresh reads it.
func TestAwayLostAnswerUncheckedShowsTheStatusUnknown(t *testing.T) {
	t.Parallel()
	e, p, l, m := lossy(t)
	owner := e.Info.OwnerOperatorID
	moveTo(t, l, m, owner)
	row := m.Rows()[rowIndex(t, m, owner)]
	_, askedWord := operators.AwaySymbol(!row.IsAway.V)
	p.Lose("PATCH", fmt.Sprintf("/api/um/v3/operators/%d/away/", owner), viewtest.DropAnswer, 1)
	l.Deliver(viewtest.Key("w"))                                                           // the PATCH is on its way; its result not yet delivered
	p.Lose("GET", fmt.Sprintf("/api/um/v3/operators/%d/", owner), viewtest.EmptyAnswer, 1) // a 200 with no body
	l.Until("the check", func() bool { return !m.Busy() && len(l.H.Toasts) >= 2 })
	got := toastTexts(l.H)
	if want := "could not confirm whether " + row.Label() + " was set " + askedWord; !strings.Contains(strings.ToLower(got[1]), strings.ToLower(want)) || !l.H.Toasts[1].Error {
		t.Fatalf("toasts %q, want an error saying %q", got, want)
	}
	if away := m.Rows()[rowIndex(t, m, owner)].IsAway; away.Known {
		t.Fatalf("the row states away=%v after an unconfirmed change; want unknown", away.V)
	}
	if line := rowLine(t, l.H.Render(), row.Name); !strings.Contains(line, "—") || strings.Contains(line, operators.AwayText(row.IsAway)) {
		t.Fatalf("the row does not show the status as unknown (—):\n%s", line)
	}
	l.Key("r")
	l.Until("the refresh", func() bool { return m.Rows()[rowIndex(t, m, owner)].IsAway.Known })
	if api, shown := serverOperator(t, e, owner).IsAway, m.Rows()[rowIndex(t, m, owner)].IsAway; shown != api {
		t.Fatalf("after r the row shows %v, the API has %v", shown, api)
	}
}

// An edit whose answer was lost is confirmed by reading the operator back.
func TestEditLostAnswerIsConfirmed(t *testing.T) {
	t.Parallel()
	e, p, l, m := lossy(t)
	id := e.Info.OwnerOperatorID + 1
	f := renameLosing(t, p, l, m, id, "Ben Okafor Sr", viewtest.DropAnswer)
	l.Until("saved", func() bool { return l.H.Top() == nil })
	if want := fmt.Sprintf("Saved operator Ben Okafor Sr (#%d) (confirmed after the connection dropped)", id); l.H.LastToast() != want {
		t.Fatalf("toast %q, want %q; form error %q", l.H.LastToast(), want, f.Err())
	}
	if got := m.Rows()[rowIndex(t, m, id)].Name; got != "Ben Okafor Sr" {
		t.Fatalf("row name %q", got)
	}
}

// An edit lost before the sandbox saw it is not saved: the form stays open with the text.
func TestEditLostRequestIsNotSaved(t *testing.T) {
	t.Parallel()
	e, p, l, m := lossy(t)
	id := e.Info.OwnerOperatorID + 1
	f := renameLosing(t, p, l, m, id, "Ben Okafor Sr", viewtest.DropRequest)
	l.Until("the check", func() bool { return !f.Submitting() })
	want := "Not saved: the connection was lost before the server answered, and the operator on the server does not have the values sent. ctrl+s sends it again."
	if l.H.Top() != f || f.Err() != want {
		t.Fatalf("form open %v, error\n got %q\nwant %q", l.H.Top() == f, f.Err(), want)
	}
	if op := serverOperator(t, e, id); op.Name == "Ben Okafor Sr" {
		t.Fatalf("operator %+v", op)
	}
}

// A delete whose answer was lost is confirmed by the 404 of reading the operator again.
func TestDeleteLostAnswerIsConfirmedByA404(t *testing.T) {
	t.Parallel()
	e, p, l, m := lossy(t)
	victim := e.Info.OwnerOperatorID + 2
	moveTo(t, l, m, victim)
	row := m.Rows()[rowIndex(t, m, victim)]
	p.Lose("DELETE", fmt.Sprintf("/api/um/v3/operators/%d/", victim), viewtest.DropAnswer, 1)
	l.Key("d")
	l.Modal()
	l.Key("y")
	l.Until("the delete", func() bool { return !m.Busy() && l.H.LastToast() != "" })
	if want := "Deleted operator " + row.Label() + " (confirmed after the connection dropped)"; l.H.LastToast() != want {
		t.Fatalf("toast %q, want %q", l.H.LastToast(), want)
	}
	if len(m.Rows()) != 6 {
		t.Fatalf("%d rows", len(m.Rows()))
	}
}
