package operators_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A 403 says its reason once, and the form keeps the focus on the field the user was on
// (the last one: enter there submitted), so typing goes on there.
func TestEditRefusedKeepsTheFocusAndSaysWhyOnce(t *testing.T) {
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
	op, err := e.Client.GetOperator(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if op.Name != "Ben Okafor Jr" {
		t.Fatalf("name %q", op.Name)
	}
	if want := fmt.Sprintf("Saved operator Ben Okafor Jr (#%d)", id); l.H.LastToast() != want {
		t.Fatalf("toast %q, want %q (the name as saved)", l.H.LastToast(), want)
	}
}
