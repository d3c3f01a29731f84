package keymap

import (
	"errors"
	"reflect"
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
	if err := k.Apply(map[string][]string{"down": {"n", "down"}, "note": {"N"}}); err != nil {
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
	err := k.Apply(map[string][]string{"search": {"j"}, "fly": {"x"}, "quit": {"ctrl+c"}})
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
		err := k.Apply(map[string][]string{"quit": {bad}})
		var ae *ApplyError
		if !errors.As(err, &ae) || len(ae.Problems) != 1 || ae.Problems[0].Action != "quit" ||
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
	if err := k.Apply(map[string][]string{"export": {"x"}, "edit": {"x"}}); err != nil {
		t.Fatalf("export and edit never live together, yet: %v", err)
	}
	// Filter lives on both: binding export to f clashes there.
	if err := k.Apply(map[string][]string{"export": {"f"}}); err == nil || !strings.Contains(err.Error(), "analytics") {
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
		{map[string][]string{"refresh": {"j"}}, Problem{"refresh", `key "j" is also bound to "down" (default) on the list screens and on the analytics screen`}},
		// range comes after metric in the analytics context; the clash is still metric's.
		{map[string][]string{"metric": {"d"}}, Problem{"metric", `key "d" is also bound to "range" (default) on the analytics screen`}},
		{map[string][]string{"down": {"j", "n"}}, Problem{"down", `key "n" is also bound to "note" (default) on the list screens`}},
		// Both rebound: one report, without "(default)".
		{map[string][]string{"metric": {"x"}, "range": {"x"}}, Problem{"range", `key "x" is also bound to "metric" on the analytics screen`}},
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
	if err := Default().Apply(map[string][]string{"down": {"j", "n"}, "note": {"N"}}); err != nil {
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
	if err := k.Apply(map[string][]string{"submit": {"f2", "alt+enter"}}); err != nil {
		t.Fatal(err)
	}
	if got := k.Submit.Help(); got.Key != "f2/alt+enter" || got.Desc != "submit" {
		t.Fatalf("help after the rebinding: %+v", got)
	}
	for _, bad := range []string{"s", "space", "é", "tab", "shift+tab", "enter"} {
		k := Default()
		err := k.Apply(map[string][]string{"submit": {bad}})
		var ae *ApplyError
		if !errors.As(err, &ae) || len(ae.Problems) != 1 || ae.Problems[0].Action != "submit" ||
			!strings.Contains(ae.Problems[0].Msg, "in forms") {
			t.Errorf("submit on %q: %v", bad, err)
		}
		if !slices.Equal(k.Submit.Keys(), []string{"ctrl+s"}) {
			t.Errorf("%q: a refused rebinding changed submit to %q", bad, k.Submit.Keys())
		}
	}
	err := Default().Apply(map[string][]string{"submit": {"ctrl+p"}})
	if err == nil || !strings.Contains(err.Error(), `"ctrl+p" is also bound to "act_as" (default) in forms`) {
		t.Fatalf("submit on ctrl+p (act as operator, live over forms): %v", err)
	}
	// A form's selects page with the page keys: submit cannot take ctrl+d either.
	err = Default().Apply(map[string][]string{"submit": {"ctrl+d"}})
	if err == nil || !strings.Contains(err.Error(), `"ctrl+d" is also bound to "page_down" (default) in forms`) {
		t.Fatalf("submit on ctrl+d (page down in a form's select): %v", err)
	}
}

// TestNoFilesDisablesTheFileWritersOnly: a session that may not save files on parley's
// machine (the hub's) is offered neither the analytics export nor the transcript.
func TestNoFilesDisablesTheFileWritersOnly(t *testing.T) {
	k := Default()
	k.Deny(CanSaveFiles)
	for _, a := range Actions() {
		off := a == "export" || a == "transcript"
		if k.binding(a).Enabled() == off {
			t.Errorf("%s: enabled %v after Deny(CanSaveFiles), want %v", a, k.binding(a).Enabled(), !off)
		}
	}
	for _, c := range []struct {
		key string
		w   Where
	}{{"D", InThread}, {"D", InConvList}, {"e", InAnalytics}} {
		if _, lacks, ok := k.Refused(c.key, c.w); !ok || !strings.Contains(Why(lacks), "the hub's machine") {
			t.Errorf("%s: refused %v, why %q", c.key, ok, Why(lacks))
		}
	}
}

// TestReadOnlyDisablesEveryEditAndNothingElse: after Deny(CanWrite) (read-only) the edit,
// delete, mark, act as and export bindings are disabled (no key matches them, rebound ones
// included) and every other action still matches its keys. A copy taken before keeps its
// bindings, and a rebinding made after stays off.
func TestReadOnlyDisablesEveryEditAndNothingElse(t *testing.T) {
	edits := []string{"topics", "note", "edit", "away", "upsert", "take", "assign", "unassign", "end", "reopen", "toggle_read", "delete", "mark", "act_as", "export", "transcript"}
	k := Default()
	if err := k.Apply(map[string][]string{"note": {"N"}}); err != nil {
		t.Fatal(err)
	}
	before := *k
	k.Deny(CanWrite)
	for _, a := range Actions() {
		b := k.binding(a)
		off := slices.Contains(edits, a)
		if b.Enabled() == off {
			t.Errorf("%s: enabled %v after Deny(CanWrite), want %v", a, b.Enabled(), !off)
		}
		for _, kk := range b.Keys() {
			if len([]rune(kk)) != 1 {
				continue // named keys (ctrl+p, space) are pressed differently
			}
			if got := key.Matches(press(kk), *b); got == off {
				t.Errorf("%s: key %q matches %v after Deny(CanWrite), want %v", a, kk, got, !off)
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
			t.Errorf("%s: the copy taken before Deny was disabled too", a)
		}
	}
	if err := k.Apply(map[string][]string{"note": {"x"}, "down": {"z"}}); err != nil {
		t.Fatal(err)
	}
	if k.Note.Enabled() || !k.Down.Enabled() {
		t.Errorf("after a rebinding: note enabled %v (want off), down %v (want on)", k.Note.Enabled(), k.Down.Enabled())
	}
}

// Denying act as or the organization picker turns off that binding alone.
func TestDenyActAsOrPickOrgDisablesOnlyThatKey(t *testing.T) {
	for _, c := range []struct {
		deny   Caps
		action string
		press  tea.KeyPressMsg
	}{{CanPickOrg, "pick_org", tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}}, {CanActAs, "act_as", tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}}} {
		k := Default()
		k.Deny(c.deny)
		if b := k.binding(c.action); b.Enabled() || key.Matches(c.press, *b) {
			t.Fatalf("%s is still enabled", c.action)
		}
		for _, a := range Actions() {
			if a != c.action && !k.binding(a).Enabled() {
				t.Errorf("%s disabled by denying %s", a, c.action)
			}
		}
	}
}

// Allows answers, per place, whether a session may use an action: a supervisor edits
// contacts and operators, an agent contacts only, a viewer neither; an action never
// applies where the table does not put it.
func TestAllowsByRoleAndPlace(t *testing.T) {
	roles := map[string]Caps{
		"viewer":     CanWrite | CanActAs | CanPickOrg | CanManageOperators,
		"agent":      CanActAs | CanPickOrg | CanManageOperators,
		"supervisor": CanPickOrg,
	}
	cases := []struct {
		action string
		in     Where
		allow  []string
	}{
		{"edit", InContactDetail, []string{"agent", "supervisor"}},
		{"edit", InOperators, []string{"supervisor"}},
		{"delete", InOperators, []string{"supervisor"}},
		{"delete", InConvList, []string{"agent", "supervisor"}},
		{"away", InOperators, []string{"agent", "supervisor"}},
		{"act_as", InThread, []string{"supervisor"}},
		{"pick_org", InThread, nil},
		{"down", InOperators, []string{"viewer", "agent", "supervisor"}},
		{"topics", InOperators, nil}, // topics are a conversation's
		{"export", InAnalytics, []string{"agent", "supervisor"}},
	}
	for _, c := range cases {
		for role, deny := range roles {
			k := Default()
			k.Deny(deny)
			if got, want := k.Allows(c.action, c.in), slices.Contains(c.allow, role); got != want {
				t.Errorf("%s may %s: %v, want %v", role, c.action, got, want)
			}
		}
	}
}

// What a session may not use in a place, its footer and help there leave out: an agent's
// operators screen offers away but not edit or delete; the contacts screen offers edit.
func TestAgentIsOfferedNoOperatorEdits(t *testing.T) {
	k := Default()
	k.Deny(CanActAs | CanPickOrg | CanManageOperators)
	descs := func(w Where) []string {
		hints, _ := k.Footer(w)
		var out []string
		for _, sec := range k.Sections(w) {
			hints = append(hints, sec.Keys...)
		}
		for _, b := range hints {
			out = append(out, b.Help().Desc)
		}
		return out
	}
	ops := descs(InOperators)
	if slices.Contains(ops, "edit") || slices.Contains(ops, "delete") || !slices.Contains(ops, "toggle away") {
		t.Errorf("an agent on the operators screen is offered %q", ops)
	}
	if !slices.Contains(descs(InContactDetail), "edit") {
		t.Errorf("an agent is not offered a contact's edit: %q", descs(InContactDetail))
	}
}

// The table binds every field of KeyMap once: no field without an entry, no entry
// without a field; names are unique; a footer place is one where the action applies, and
// a pair's leader ranks before its partner.
func TestTableIsWellFormed(t *testing.T) {
	v := reflect.TypeFor[KeyMap]()
	bound := map[string]bool{}
	for _, s := range table {
		if bound[s.Name] {
			t.Errorf("%s declared twice", s.Name)
		}
		bound[s.Name] = true
		if _, ok := fields[s.Name]; !ok {
			t.Errorf("%s has no KeyMap field %s", s.Name, goName(s.Name))
		}
		if s.Foot&^s.In != 0 {
			t.Errorf("%s: the footer names it where it does not apply", s.Name)
		}
		for _, l := range s.Local {
			if l.In&^s.In != 0 {
				t.Errorf("%s: worded where it does not apply", s.Name)
			}
		}
		if p := spec(s.Pair); s.Pair != "" && (p == nil || p.Prio <= s.Prio) {
			t.Errorf("%s pairs with %q, which is no action ranked after it", s.Name, s.Pair)
		}
	}
	for i := range v.NumField() {
		if f := v.Field(i); f.IsExported() && !slices.ContainsFunc(table, func(s Spec) bool { return goName(s.Name) == f.Name }) {
			t.Errorf("KeyMap.%s has no entry in the table", f.Name)
		}
	}
}

// The thread's footer carries the agent's path first (top, topics, note, next/previous
// conversation, back), then the moves; help puts the groups of those keys first.
func TestThreadFooterAndHelpByRank(t *testing.T) {
	k := Default()
	hints, pinned := k.Footer(InThread)
	var got []string
	for _, b := range hints {
		got = append(got, b.Help().Key+" "+b.Help().Desc)
	}
	want := []string{"g top", "t topics", "n note", "J/K next/prev", "esc back", "j/↓ down", "k/↑ up",
		"ctrl+d/pgdown page down", "ctrl+u/pgup page up", "G bottom", "tab next pane", "p toggle detail"}
	if !slices.Equal(got, want) {
		t.Errorf("thread footer\ngot  %q\nwant %q", got, want)
	}
	got = got[:0]
	for _, b := range pinned {
		got = append(got, b.Help().Key+" "+b.Help().Desc)
	}
	if want := []string{"? help", ": palette", "q quit"}; !slices.Equal(got, want) {
		t.Errorf("pinned %q, want %q", got, want)
	}
	var groups []Group
	for _, s := range k.Sections(InThread) {
		groups = append(groups, s.Group)
	}
	if want := []Group{GroupMove, GroupEdit, GroupPane, GroupAct, GroupConversation, GroupView, GroupGlobal}; !slices.Equal(groups, want) {
		t.Errorf("thread help groups %v, want %v", groups, want)
	}
	// Read-only, the edits leave the footer and the pair comes first; a place's words
	// (navigation's "copy URL") win over the action's.
	k.Deny(CanWrite)
	hints, _ = k.Footer(InConvDetail)
	if len(hints) == 0 || hints[0].Help().Desc != "next/prev" {
		t.Errorf("conversation detail, read-only: %v", hints)
	}
	hints, _ = k.Footer(InNavigation)
	if !slices.ContainsFunc(hints, func(b key.Binding) bool { return b.Help().Desc == "copy URL" }) {
		t.Errorf("navigation footer without copy URL: %v", hints)
	}
}

// Scroll moves by the bindings as they are, rebound ones included, and leaves other keys
// to the pane.
func TestScrollFollowsTheMoveKeys(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{"down": {"z"}}); err != nil {
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

// Help lists every key of a place once: no two actions of one place share a key, rebound
// ones included (Apply refuses that), so help and the palette need no second filter.
func TestEveryPlaceListsEachKeyOnce(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{"edit": {"x"}, "export": {"x"}}); err != nil {
		t.Fatal(err)
	}
	for w := Where(1); w <= InForm; w <<= 1 {
		seen := map[string]string{}
		for _, sec := range k.Sections(w) {
			for _, b := range sec.Keys {
				for _, kk := range b.Keys() {
					if prev, dup := seen[kk]; dup {
						t.Errorf("place %b: %q is %s and %s", w, kk, prev, b.Help().Desc)
					}
					seen[kk] = b.Help().Desc
				}
			}
		}
	}
}

// Binding finds an action's binding by its config name, overrides included; an unknown
// name has a binding that matches no key.
func TestBindingByName(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{"contacts": {"f2"}}); err != nil {
		t.Fatal(err)
	}
	if got := k.Binding("contacts").Keys(); len(got) != 1 || got[0] != "f2" {
		t.Fatalf("contacts is bound to %q, want the override", got)
	}
	if got := k.Binding("conversations").Keys(); len(got) != 1 || got[0] != "1" {
		t.Fatalf("conversations is bound to %q", got)
	}
	press, _ := Press("1")
	if b := k.Binding("no_such_action"); b.Enabled() || key.Matches(press, b) {
		t.Fatalf("an unknown action has a live binding: %v", b.Keys())
	}
}

// The one yes/no rule: yes is a Yes key in either case, never an Open key while Yes has
// another; no is a No key in either case, or Back.
func TestYesNo(t *testing.T) {
	k := Default()
	press := func(s string) tea.KeyPressMsg { p, _ := Press(s); return p }
	for s, want := range map[string][2]bool{"y": {true, false}, "Y": {true, false}, "n": {false, true}, "N": {false, true},
		"esc": {false, true}, "enter": {false, false}, "ctrl+y": {false, false}, "x": {false, false}} {
		if yes, no := k.IsYes(press(s)), k.IsNo(press(s)); yes != want[0] || no != want[1] {
			t.Errorf("%s: yes %v no %v, want %v", s, yes, no, want)
		}
	}
	if got := k.YesNo(); got != "y/N" {
		t.Errorf("YesNo %q", got)
	}
	if err := k.Apply(map[string][]string{"yes": {"enter", "o"}}); err != nil {
		t.Fatal(err)
	}
	if k.IsYes(press("enter")) || !k.IsYes(press("O")) || k.YesNo() != "o/N" {
		t.Errorf("yes on enter and o: enter %v, O %v, %q", k.IsYes(press("enter")), k.IsYes(press("O")), k.YesNo())
	}
	if err := k.Apply(map[string][]string{"yes": {"enter"}}); err != nil {
		t.Fatal(err)
	}
	if !k.IsYes(press("enter")) {
		t.Error("yes on enter alone: enter is no answer")
	}
}

// TestRefusedNamesWhatTheSessionLacksWhereTheKeyActs: a hub agent's e on the operators
// screen is refused for want of CanManageOperators, while e on a contact stays its own; a
// read-only session's d on the analytics screen picks the date range (no refusal); ctrl+o
// in a hub session lacks CanPickOrg in every place.
func TestRefusedNamesWhatTheSessionLacksWhereTheKeyActs(t *testing.T) {
	agent := Default()
	agent.Deny(CanActAs | CanManageOperators | CanPickOrg)
	if b, lacks, ok := agent.Refused("e", InOperators); !ok || lacks != CanManageOperators || b.Help().Desc != "edit" {
		t.Fatalf("agent e on operators: %v %v %v", b.Help(), lacks, ok)
	}
	if _, _, ok := agent.Refused("e", InContactDetail); ok {
		t.Fatal("agent e on a contact is refused")
	}
	if _, lacks, ok := agent.Refused("ctrl+o", InAnalytics); !ok || Why(lacks) != "this session stays in its organization" {
		t.Fatalf("agent ctrl+o: %v %v", lacks, ok)
	}
	ro := Default()
	ro.Deny(CanWrite)
	if _, _, ok := ro.Refused("d", InAnalytics); ok {
		t.Fatal("read-only d on analytics (the date range) is refused")
	}
	if _, lacks, ok := ro.Refused("d", InOperators); !ok || Why(lacks) != "read-only" {
		t.Fatalf("read-only d on operators: %v %v", lacks, ok)
	}
}

// Run runs the action of the binding pressed, as rebound, and never one the session may
// not use: its key is then left to the caller.
func TestRunRunsTheActionOfTheKeyTheSessionMayUse(t *testing.T) {
	k := Default()
	if err := k.Apply(map[string][]string{"take": {"z"}}); err != nil {
		t.Fatal(err)
	}
	k.Deny(CanWrite)
	var ran []string
	do := func(name string) func() tea.Cmd {
		return func() tea.Cmd { ran = append(ran, name); return nil }
	}
	acts := []Do{{Key: k.Take, Run: do("take")}, {Key: k.Search, Run: do("search")}, {Key: k.CopyID, Run: do("copy_id")}}
	for _, c := range []struct {
		key string
		ok  bool
	}{{"/", true}, {"y", true}, {"z", false}, {"T", false}, {"x", false}} {
		p, _ := Press(c.key)
		if _, ok := Run(p, acts); ok != c.ok {
			t.Errorf("%s: ran %v, want %v", c.key, ok, c.ok)
		}
	}
	if want := []string{"search", "copy_id"}; !slices.Equal(ran, want) {
		t.Errorf("ran %v, want %v", ran, want)
	}
}
