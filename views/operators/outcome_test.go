package operators_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/operators"
	"github.com/parley-tui/parley/views/viewtest"
)

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
	return common.Map(h.Toasts, func(t common.ToastMsg) string { return t.Text })
}

// The away PATCH of oneself is carried out and its answer lost: the screen says it may have
// been saved, reads the operator again and reports the status as confirmed; when the PATCH
// never arrived, it says not saved and the row keeps the status the API has.
func TestAwayLostAnswerIsCheckedByReadingTheOperator(t *testing.T) {
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
			op, err := e.Client.GetOperator(client.Fresh(context.Background()), owner)
			if err != nil {
				t.Fatal(err)
			}
			wantAway := client.Some(row.IsAway.V != saved)
			if op.IsAway != wantAway || m.Rows()[rowIndex(t, m, owner)].IsAway != wantAway {
				t.Fatalf("API away %v, row away %v; want %v", op.IsAway, m.Rows()[rowIndex(t, m, owner)].IsAway, wantAway)
			}
		})
	}
}

// An edit whose answer was lost is confirmed by reading the operator back.
func TestEditLostAnswerIsConfirmed(t *testing.T) {
	e, p, l, m := lossy(t)
	id := e.Info.OwnerOperatorID + 1
	f := edit(t, l, m, id)
	typeInto(l, "Ben Okafor Sr")
	p.Lose("PATCH", fmt.Sprintf("/api/um/v3/operators/%d/", id), viewtest.DropAnswer, 1)
	l.Key("ctrl+s")
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
	e, p, l, m := lossy(t)
	id := e.Info.OwnerOperatorID + 1
	f := edit(t, l, m, id)
	typeInto(l, "Ben Okafor Sr")
	p.Lose("PATCH", fmt.Sprintf("/api/um/v3/operators/%d/", id), viewtest.DropRequest, 1)
	l.Key("ctrl+s")
	l.Until("the check", func() bool { return !f.Submitting() })
	want := "Not saved: the connection was lost before the server answered, and the operator on the server does not have the values sent. ctrl+s sends it again."
	if l.H.Top() != f || f.Err() != want {
		t.Fatalf("form open %v, error\n got %q\nwant %q", l.H.Top() == f, f.Err(), want)
	}
	op, err := e.Client.GetOperator(client.Fresh(context.Background()), id)
	if err != nil || op.Name == "Ben Okafor Sr" {
		t.Fatalf("operator %+v, %v", op, err)
	}
}

// A delete whose answer was lost is confirmed by the 404 of reading the operator again.
func TestDeleteLostAnswerIsConfirmedByA404(t *testing.T) {
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
