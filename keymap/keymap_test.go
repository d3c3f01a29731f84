package keymap

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func press(s string) tea.KeyPressMsg {
	r, _ := utf8.DecodeRuneInString(s)
	return tea.KeyPressMsg{Code: r, Text: s}
}

func TestDefaultsHaveNoConflicts(t *testing.T) {
	if p := Default().conflicts(nil); len(p) > 0 {
		t.Fatalf("default bindings conflict: %+v", p)
	}
}

func TestApplyRebindsAndUpdatesHelp(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{Down: {"n", "down"}, Note: {"N"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(press("n"), k.Down) || key.Matches(press("j"), k.Down) {
		t.Fatalf("down is bound to %v", k.Down.Keys())
	}
	if got := k.Down.Help().Key; got != "n/↓" {
		t.Fatalf("help label %q, want n/↓", got)
	}
	if got := k.Down.Help().Desc; got != "down" {
		t.Fatalf("help description %q lost", got)
	}
}

func TestApplyRejectsConflictsUnknownActionsAndCtrlC(t *testing.T) {
	k := Default()
	err := k.Apply(map[string][]string{Search: {"j"}, "fly": {"x"}, Quit: {"ctrl+c"}})
	var ae *ApplyError
	if !errors.As(err, &ae) {
		t.Fatalf("want *ApplyError, got %v", err)
	}
	text := err.Error()
	for _, want := range []string{`"j" is also bound to "down"`, "fly: unknown action", "ctrl+c always quits"} {
		if !strings.Contains(text, want) {
			t.Errorf("error %q does not mention %q", text, want)
		}
	}
	if !key.Matches(press("/"), k.Search) {
		t.Fatal("a rejected Apply changed the key map")
	}
}

// A key with a control character in it (a YAML "\e[A" in the config) can never be pressed:
// it is refused, naming it escaped, and the key map stays as it was.
func TestApplyRefusesControlCharacters(t *testing.T) {
	for _, bad := range []string{"\x1b[A", "\x1b", "q\x00", "\u009b"} {
		k := Default()
		err := k.Apply(map[string][]string{Quit: {bad}})
		var ae *ApplyError
		if !errors.As(err, &ae) || len(ae.Problems) != 1 || ae.Problems[0].Action != Quit ||
			!strings.Contains(ae.Problems[0].Msg, "is not a key") || strings.ContainsAny(err.Error(), "\x1b\x00\u009b") {
			t.Errorf("%q: %v", bad, err)
		}
		if !slices.Equal(k.Quit.Keys(), []string{"q"}) {
			t.Errorf("%q: quit is bound to %q", bad, k.Quit.Keys())
		}
	}
}

func TestConflictsOnlyWithinAContext(t *testing.T) {
	k := Default()
	// Export lives on the analytics screen, edit on the lists: one key may serve both.
	if err := k.Apply(map[string][]string{Export: {"x"}, Edit: {"x"}}); err != nil {
		t.Fatalf("export and edit never live together, yet: %v", err)
	}
	// Filter lives on both: binding export to f clashes there.
	if err := k.Apply(map[string][]string{Export: {"f"}}); err == nil || !strings.Contains(err.Error(), "analytics") {
		t.Fatalf("export on f clashes with filter on the analytics screen; got %v", err)
	}
}

// A clash with a default binding is reported against the rebound action (the one with a
// config line), once, naming every context where it happens.
func TestConflictReportedOnceAgainstTheRebinding(t *testing.T) {
	cases := []struct {
		overrides map[string][]string
		want      Problem
	}{
		// j is down's default on the list screens and on the analytics screen.
		{map[string][]string{Refresh: {"j"}}, Problem{Refresh, `key "j" is also bound to "down" (default) on the list screens and on the analytics screen`}},
		// range comes after metric in the analytics context; the clash is still metric's.
		{map[string][]string{Metric: {"d"}}, Problem{Metric, `key "d" is also bound to "range" (default) on the analytics screen`}},
		{map[string][]string{Down: {"j", "n"}}, Problem{Down, `key "n" is also bound to "note" (default) on the list screens`}},
		// Both rebound: one report, without "(default)".
		{map[string][]string{Metric: {"x"}, Range: {"x"}}, Problem{Range, `key "x" is also bound to "metric" on the analytics screen`}},
	}
	for _, c := range cases {
		err := Default().Apply(c.overrides)
		var ae *ApplyError
		if !errors.As(err, &ae) {
			t.Fatalf("%v: want *ApplyError, got %v", c.overrides, err)
		}
		if len(ae.Problems) != 1 || ae.Problems[0] != c.want {
			t.Errorf("%v:\ngot  %+v\nwant [%+v]", c.overrides, ae.Problems, c.want)
		}
	}
	// Moving the default out of the way resolves it.
	if err := Default().Apply(map[string][]string{Down: {"j", "n"}, Note: {"N"}}); err != nil {
		t.Fatal(err)
	}
}

// Submit (ctrl+s in every form) is an action like the others: it can be rebound, but not to
// a key a form already uses (a printable key is text in a field; tab, shift+tab and enter
// move between fields), and not to one of another action live in forms.
func TestSubmitCanBeReboundOutsideTheFormsKeys(t *testing.T) {
	k := Default()
	if !slices.Equal(k.Submit.Keys(), []string{"ctrl+s"}) {
		t.Fatalf("submit is bound to %q by default", k.Submit.Keys())
	}
	if err := k.Apply(map[string][]string{Submit: {"f2", "alt+enter"}}); err != nil {
		t.Fatal(err)
	}
	if got := k.Submit.Help(); got.Key != "f2/alt+enter" || got.Desc != "submit" {
		t.Fatalf("help after the rebinding: %+v", got)
	}
	for _, bad := range []string{"s", "space", "é", "tab", "shift+tab", "enter"} {
		k := Default()
		err := k.Apply(map[string][]string{Submit: {bad}})
		var ae *ApplyError
		if !errors.As(err, &ae) || len(ae.Problems) != 1 || ae.Problems[0].Action != Submit ||
			!strings.Contains(ae.Problems[0].Msg, "in forms") {
			t.Errorf("submit on %q: %v", bad, err)
		}
		if !slices.Equal(k.Submit.Keys(), []string{"ctrl+s"}) {
			t.Errorf("%q: a refused rebinding changed submit to %q", bad, k.Submit.Keys())
		}
	}
	err := Default().Apply(map[string][]string{Submit: {"ctrl+p"}})
	if err == nil || !strings.Contains(err.Error(), `"ctrl+p" is also bound to "act_as" (default) in forms`) {
		t.Fatalf("submit on ctrl+p (act as operator, live over forms): %v", err)
	}
	// A form's selects page with the page keys: submit cannot take ctrl+d either.
	err = Default().Apply(map[string][]string{Submit: {"ctrl+d"}})
	if err == nil || !strings.Contains(err.Error(), `"ctrl+d" is also bound to "page_down" (default) in forms`) {
		t.Fatalf("submit on ctrl+d (page down in a form's select): %v", err)
	}
}

// TestReadOnlyDisablesEveryEditAndNothingElse: after ReadOnly the edit, delete, mark, act
// as and export bindings are disabled (no key matches them, rebound ones included) and
// every other action still matches its keys. A copy taken before keeps its bindings.
func TestReadOnlyDisablesEveryEditAndNothingElse(t *testing.T) {
	edits := []string{Topics, Note, Edit, Away, Upsert, Take, Assign, Unassign, End, Reopen, ToggleRead, Delete, Mark, ActAs, Export}
	k := Default()
	if err := k.Apply(map[string][]string{Note: {"N"}}); err != nil {
		t.Fatal(err)
	}
	before := *k
	k.ReadOnly()
	for _, a := range Actions() {
		b := k.binding(a)
		off := slices.Contains(edits, a)
		if b.Enabled() == off {
			t.Errorf("%s: enabled %v after ReadOnly, want %v", a, b.Enabled(), !off)
		}
		for _, kk := range b.Keys() {
			if len([]rune(kk)) != 1 {
				continue // named keys (ctrl+p, space) are pressed differently
			}
			if got := key.Matches(press(kk), *b); got == off {
				t.Errorf("%s: key %q matches %v after ReadOnly, want %v", a, kk, got, !off)
			}
		}
	}
	ctrlP, space := tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}, tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	if !key.Matches(ctrlP, before.ActAs) || !key.Matches(space, before.Mark) {
		t.Fatal("the presses of this test do not match the enabled bindings")
	}
	if key.Matches(ctrlP, k.ActAs) {
		t.Error("ctrl+p still matches act as")
	}
	if key.Matches(space, k.Mark) {
		t.Error("space still matches mark")
	}
	for _, a := range edits {
		if !before.binding(a).Enabled() {
			t.Errorf("%s: the copy taken before ReadOnly was disabled too", a)
		}
	}
}

// TestFixOrganizationDisablesOnlyPickOrg: ctrl+o no longer matches; the rest stays.
func TestFixOrganizationDisablesOnlyPickOrg(t *testing.T) {
	k := Default()
	k.FixOrganization()
	if k.PickOrg.Enabled() || key.Matches(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}, k.PickOrg) {
		t.Fatal("pick organization is still enabled")
	}
	for _, a := range Actions() {
		if a != PickOrg && !k.binding(a).Enabled() {
			t.Errorf("%s disabled by FixOrganization", a)
		}
	}
}

// TestFixOperatorDisablesOnlyActAs: ctrl+p no longer matches; the edits stay.
func TestFixOperatorDisablesOnlyActAs(t *testing.T) {
	k := Default()
	k.FixOperator()
	if k.ActAs.Enabled() || key.Matches(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}, k.ActAs) {
		t.Fatal("act as is still enabled")
	}
	for _, a := range Actions() {
		if a != ActAs && !k.binding(a).Enabled() {
			t.Errorf("%s disabled by FixOperator", a)
		}
	}
}

// Scroll moves by the bindings as they are, rebound ones included, and leaves other keys
// to the pane.
func TestScrollFollowsTheMoveKeys(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{Down: {"z"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key string
		to  int
		ok  bool
	}{{"z", 11, true}, {"k", 9, true}, {"ctrl+d", 15, true}, {"ctrl+u", 5, true}, {"g", 0, true}, {"G", 40, true},
		{"j", 10, false}, {"x", 10, false}} {
		p, ok := Press(c.key)
		if !ok {
			t.Fatalf("no press for %q", c.key)
		}
		if to, ok := k.Scroll(p, 10, 5, 40); to != c.to || ok != c.ok {
			t.Errorf("%s from line 10: %d, %v; want %d, %v", c.key, to, ok, c.to, c.ok)
		}
	}
}
