package operators_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// With the local clock 17 days off the server's either way, every operator write whose
// answer is lost is settled by what the server shows, never by the local clock: away (the
// operator's is_away, both when the change arrived and when it did not), the edit (the
// operator's values) and the delete (a 404).
func TestLostWritesAreCheckedWithoutTheLocalClock(t *testing.T) {
	t.Parallel()
	viewtest.EachSkew(t, sandbox.Options{}, func(t *testing.T, sk *viewtest.Skewed) {
		info := sk.Sandbox.Server.Info()
		e := &env{Env: &viewtest.Env{Sandbox: sk.Sandbox, Client: viewtest.Client(t, sk.Sandbox), Info: info}}
		p, ctx := sk.Lossy(t)
		m := operators.New(ctx)
		l := viewtest.RunScreen(t, ctx, m, 80, 24)
		l.Until("operators and slots", func() bool { return m.Loaded() && !m.Busy() })
		const confirmed = " (confirmed after the connection dropped)"

		// Away: the PATCH arrives and its answer is lost; then one that never arrives.
		owner := info.OwnerOperatorID
		moveTo(t, l, m, owner)
		row := m.Rows()[rowIndex(t, m, owner)]
		if !row.IsAway.Known {
			t.Fatalf("the sandbox did not say whether %s is away", row.Label())
		}
		was := row.IsAway.V
		_, askedWord := operators.AwaySymbol(!was)
		_, wasWord := operators.AwaySymbol(was)
		p.Lose("PATCH", fmt.Sprintf("/api/um/v3/operators/%d/away/", owner), viewtest.DropAnswer, 1)
		n := len(l.H.Toasts)
		l.Key("w")
		l.Until("the check", func() bool { return settled(l.H.Toasts[n:]) && !m.Busy() })
		if got, want := l.H.LastToast(), row.Label()+" is now "+askedWord+confirmed; got != want || serverOperator(t, e, owner).IsAway != client.Some(!was) {
			t.Fatalf("away: toast %q, want %q; the server has away %v", got, want, serverOperator(t, e, owner).IsAway)
		}
		p.Lose("PATCH", fmt.Sprintf("/api/um/v3/operators/%d/away/", owner), viewtest.DropRequest, 1)
		n = len(l.H.Toasts)
		l.Key("w")
		l.Until("the check", func() bool { return settled(l.H.Toasts[n:]) && !m.Busy() })
		want := "Not saved: the connection was lost before the server answered, and " + row.Label() + " is still " + askedWord + ". w tries again."
		if got := l.H.LastToast(); got != want || serverOperator(t, e, owner).IsAway != client.Some(!was) {
			t.Fatalf("away not sent: toast %q, want %q; the server has away %v (was %s)", got, want, serverOperator(t, e, owner).IsAway, wasWord)
		}

		// The edit: the PATCH arrives and its answer is lost.
		id := owner + 1
		renameLosing(t, p, l, m, id, "Skewed Name", viewtest.DropAnswer)
		l.Until("saved", func() bool { return l.H.Top() == nil })
		if got, want := l.H.LastToast(), fmt.Sprintf("Saved operator Skewed Name (#%d)", id)+confirmed; got != want || serverOperator(t, e, id).Name != "Skewed Name" {
			t.Fatalf("edit: toast %q, want %q; the server has name %q", got, want, serverOperator(t, e, id).Name)
		}

		// The delete: the DELETE arrives and its answer is lost.
		victim := owner + 2
		moveTo(t, l, m, victim)
		label := m.Rows()[rowIndex(t, m, victim)].Label()
		p.Lose("DELETE", fmt.Sprintf("/api/um/v3/operators/%d/", victim), viewtest.DropAnswer, 1)
		l.Key("d")
		l.Modal()
		l.Key("y")
		l.Until("the delete", func() bool { return !m.Busy() && l.H.LastToast() != "" && l.H.Top() == nil })
		if got, want := l.H.LastToast(), "Deleted operator "+label+confirmed; got != want {
			t.Fatalf("delete: toast %q, want %q", got, want)
		}
		if _, err := e.Client.GetOperator(client.Fresh(t.Context()), victim); !client.IsNotFound(err) {
			t.Fatalf("operator %d is still there: %v", victim, err)
		}
		if n := p.Met(); n != 4 {
			t.Fatalf("%d requests lost, want the 4 the test lost", n)
		}
	})
}

// settled says whether the toasts since a write hold its verdict: the "checking…" toast
// and one after it. Other toasts (a refresh's) may come between.
func settled(toasts []common.ToastMsg) bool {
	for i, t := range toasts {
		if strings.HasSuffix(t.Text, "checking…") {
			return i < len(toasts)-1 && !strings.HasSuffix(toasts[len(toasts)-1].Text, "checking…")
		}
	}
	return false
}
