// Package keymap is parley's key table: every action declared once (table.go), the
// bindings made from it (bubbles/key) with the user's overrides from the config file, the
// keys help, the footer and the palette list in each place (place.go), and what a session
// may use (Deny, Allows). Views match keys only through these bindings.
package keymap

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMap is every binding: one field per entry of the table (table.go), named by the
// entry's name in Go spelling (next_pane: NextPane, copy_id: CopyID) and bound to it by
// Default, Apply and Deny. Screens match keys with key.Matches(msg, k.Down).
type KeyMap struct {
	Quit, ForceQuit, Help, Back                               key.Binding
	Conversations, Contacts, Operators, Analytics, Navigation key.Binding
	NextPane, PrevPane, ToggleDetail, Refresh, PickOrg, ActAs key.Binding
	Palette, MuteAlerts                                       key.Binding
	Up, Down, Top, Bottom, PageDown, PageUp, Open             key.Binding
	NextConversation, PrevConversation                        key.Binding
	Search, Filter, Status, Order, Mark, Delete, CopyID       key.Binding
	Transcript, JumpID, PrevView, NextView, SaveView          key.Binding
	Topics, Note, Edit, Away, Upsert                          key.Binding
	Take, Assign, Unassign, End, Reopen, ToggleRead           key.Binding
	Yes, No, Submit                                           key.Binding
	Export, Metric, Range, Mode, Split, ChartKind, Breakdown  key.Binding

	// denied are the capabilities this session lacks (Deny).
	denied Caps
}

// fields are the index of every entry's KeyMap field, by the entry's name.
var fields = func() map[string][]int {
	out := map[string][]int{}
	t := reflect.TypeFor[KeyMap]()
	for _, s := range table {
		if f, ok := t.FieldByName(goName(s.Name)); ok && f.Type == reflect.TypeFor[key.Binding]() {
			out[s.Name] = f.Index
		}
	}
	return out
}()

// goName is an action's name in Go spelling: next_pane is NextPane, copy_id CopyID.
func goName(action string) string {
	var b strings.Builder
	for _, w := range strings.Split(action, "_") {
		if w == "id" {
			b.WriteString("ID")
			continue
		}
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// spec is the entry of an action, or nil.
func spec(action string) *Spec {
	for i := range table {
		if table[i].Name == action {
			return &table[i]
		}
	}
	return nil
}

// Default returns the default bindings: every entry's keys and words.
func Default() *KeyMap {
	k := &KeyMap{}
	for _, s := range table {
		if b := k.binding(s.Name); b != nil {
			*b = key.NewBinding(key.WithKeys(s.Keys...), key.WithHelp(HelpKeys(s.Keys), s.Help))
		}
	}
	return k
}

// HelpKeys renders keys for help ("j/↓").
func HelpKeys(keys []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		switch k {
		case "up":
			k = "↑"
		case "down":
			k = "↓"
		}
		out[i] = k
	}
	return strings.Join(out, "/")
}

// binding returns the binding of an action name, or nil.
func (k *KeyMap) binding(action string) *key.Binding {
	idx, ok := fields[action]
	if !ok {
		return nil
	}
	return reflect.ValueOf(k).Elem().FieldByIndex(idx).Addr().Interface().(*key.Binding)
}

// Binding returns the binding of an action name (the config file's: "conversations"); an
// unknown name has none (a zero binding, which matches no key).
func (k *KeyMap) Binding(action string) key.Binding {
	if b := k.binding(action); b != nil {
		return *b
	}
	return key.Binding{}
}

// Actions lists every action name that can be rebound, sorted.
func Actions() []string {
	var out []string
	for _, s := range table {
		if !s.Fixed {
			out = append(out, s.Name)
		}
	}
	slices.Sort(out)
	return out
}

// Problem is one rejected override.
type Problem struct {
	Action string
	Msg    string
}

// ApplyError lists every problem of a set of overrides.
type ApplyError struct{ Problems []Problem }

func (e *ApplyError) Error() string {
	var b strings.Builder
	b.WriteString("key bindings:")
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  %s: %s", p.Action, p.Msg)
	}
	return b.String()
}

// Apply replaces the keys of the named actions, refreshes their help labels and checks that
// no key is bound twice within one scope (clashScopes). ctrl+c always quits and cannot be
// rebound or taken. A binding the session may not use (Deny) stays off. On error k is left
// unchanged.
func (k *KeyMap) Apply(overrides map[string][]string) error {
	next := *k
	var probs []Problem
	names := make([]string, 0, len(overrides))
	for a := range overrides {
		names = append(names, a)
	}
	sort.Strings(names)
	for _, a := range names {
		keys := overrides[a]
		b := next.binding(a)
		if s := spec(a); s == nil || s.Fixed || b == nil {
			probs = append(probs, Problem{a, fmt.Sprintf("unknown action (known: %s)", strings.Join(Actions(), ", "))})
			continue
		}
		if len(keys) == 0 {
			probs = append(probs, Problem{a, "no keys given"})
			continue
		}
		clean := make([]string, 0, len(keys))
		for _, kk := range keys {
			kk = strings.TrimSpace(kk)
			if kk == "" {
				probs = append(probs, Problem{a, "empty key"})
				continue
			}
			if kk == "ctrl+c" {
				probs = append(probs, Problem{a, "ctrl+c always quits and cannot be rebound"})
				continue
			}
			if a == "submit" {
				if why := formKey(kk); why != "" {
					probs = append(probs, Problem{a, fmt.Sprintf("%q %s in forms: bind submit to a key like ctrl+s, alt+enter or f2", HelpKeys([]string{kk}), why)})
					continue
				}
			}
			if strings.ContainsFunc(kk, isControl) {
				// A terminal sends such keys by name (esc, tab, ctrl+…): this one could never
				// be pressed, and its help label would write the control character out.
				probs = append(probs, Problem{a, fmt.Sprintf("%q is not a key: write control keys by name, like esc, tab or ctrl+r", kk)})
				continue
			}
			clean = append(clean, kk)
		}
		*b = key.NewBinding(key.WithKeys(clean...), key.WithHelp(HelpKeys(clean), b.Help().Desc))
		b.SetEnabled(spec(a).Needs&next.denied == 0)
	}
	probs = append(probs, next.conflicts(overrides)...)
	if len(probs) > 0 {
		return &ApplyError{Problems: probs}
	}
	*k = next
	return nil
}

// formKey says what a form does with k already ("" when nothing): a form's text fields
// take every printable key as text, and huh moves between fields with tab, shift+tab and
// enter (enter starts a new line in a note), so submit cannot take those.
func formKey(k string) string {
	switch k {
	case "tab", "shift+tab":
		return "moves between fields"
	case "enter":
		return "moves to the next field (and starts a new line in a note)"
	case "space":
		return "types text"
	}
	if rs := []rune(k); len(rs) == 1 && unicode.IsPrint(rs[0]) {
		return "types text"
	}
	return ""
}

// isControl reports C0 and C1 control characters and DEL.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// conflicts reports keys bound to two actions of one scope, each clash once however many
// scopes it occurs in (naming them all). A clash between a rebound action and a
// default binding is reported against the rebound action, whose config line the caller
// can name; overridden holds the actions the config rebinds (nil for none).
func (k *KeyMap) conflicts(overridden map[string][]string) []Problem {
	type clash struct {
		action, other, key string
		where              []string
	}
	var found []*clash
	byID := map[string]*clash{}
	for _, c := range clashScopes {
		owner := map[string]string{}
		for _, sp := range table {
			if sp.In&c.in == 0 {
				continue
			}
			a := sp.Name
			for _, kk := range k.binding(a).Keys() {
				prev, ok := owner[kk]
				if !ok {
					owner[kk] = a
					continue
				}
				if prev == a {
					continue
				}
				id := min(a, prev) + "\x00" + max(a, prev) + "\x00" + kk
				if cl := byID[id]; cl != nil {
					if !slices.Contains(cl.where, c.where) {
						cl.where = append(cl.where, c.where)
					}
					continue
				}
				cl := &clash{action: a, other: prev, key: kk, where: []string{c.where}}
				if _, ok := overridden[a]; !ok {
					if _, ok := overridden[prev]; ok {
						cl.action, cl.other = prev, a
					}
				}
				byID[id] = cl
				found = append(found, cl)
			}
		}
	}
	probs := make([]Problem, 0, len(found))
	for _, cl := range found {
		msg := fmt.Sprintf("key %q is also bound to %q", HelpKeys([]string{cl.key}), cl.other)
		if _, ok := overridden[cl.other]; !ok {
			msg += " (default)"
		}
		probs = append(probs, Problem{cl.action, msg + " " + strings.Join(cl.where, " and ")})
	}
	return probs
}

// Deny takes away what the session may not do: every binding whose entry needs one of c
// is disabled (it never matches, and neither the footer, help nor the palette shows it),
// and Allows answers no for the actions that need one of c only in some places (editing
// an operator). Read-only is Deny(CanWrite): the edits, deletes, marks, act as and export
// go; moving, searching, filtering, refreshing, copying and the screen keys stay. A hub
// agent is Deny(CanActAs|CanManageOperators|CanPickOrg), a supervisor Deny(CanPickOrg).
func (k *KeyMap) Deny(c Caps) {
	k.denied |= c
	for _, s := range table {
		if s.Needs&c != 0 {
			k.binding(s.Name).SetEnabled(false)
		}
	}
}

// needs is what s needs in the places w.
func (s *Spec) needs(w Where) Caps {
	n := s.Needs
	for _, l := range s.Local {
		if l.In&w != 0 {
			n |= l.Needs
		}
	}
	return n
}

// Allows reports whether this session may use action in the places w: the action applies
// there, and the session has what it needs there (Deny).
func (k *KeyMap) Allows(action string, w Where) bool {
	s := spec(action)
	return s != nil && s.In&w != 0 && s.needs(w)&k.denied == 0 && k.binding(action).Enabled()
}

// Refused is the binding of the action keyName (as tea.KeyPressMsg.String() names it) is
// bound to in the places w when this session may not use it there, and what the session
// lacks for it (Deny); ok is false when the key is no such action's, or when an action
// the session may use there takes it.
func (k *KeyMap) Refused(keyName string, w Where) (b key.Binding, lacks Caps, ok bool) {
	for _, s := range table {
		kb := k.binding(s.Name)
		if s.In&w == 0 || kb == nil || !slices.Contains(kb.Keys(), keyName) {
			continue
		}
		if l := s.needs(w) & k.denied; l != 0 {
			if !ok {
				b, lacks, ok = *kb, l, true
			}
			continue
		}
		return key.Binding{}, 0, false
	}
	return b, lacks, ok
}

// Why says in words why a session that lacks c is not offered an action, by the first
// lack of c in this order: writing, saving files, changing operators, acting as another
// operator, picking an organization ("" for none).
func Why(c Caps) string {
	switch {
	case c&CanWrite != 0:
		return "read-only"
	case c&CanSaveFiles != 0:
		return "the file would land on the hub's machine; parley on your own machine writes it"
	case c&CanManageOperators != 0:
		return "an agent cannot change operators"
	case c&CanActAs != 0:
		return "an agent acts only as their own operator"
	case c&CanPickOrg != 0:
		return "this session stays in its organization"
	}
	return ""
}

// DisabledEdits are the bindings of the actions that change something (their entry needs
// CanWrite) that are off and bound to the key named keyName (as tea.KeyPressMsg.String()
// names it): what a read-only parley names when that key is pressed.
func (k *KeyMap) DisabledEdits(keyName string) []key.Binding {
	var out []key.Binding
	for _, s := range table {
		if b := k.binding(s.Name); s.Needs&CanWrite != 0 && !b.Enabled() && slices.Contains(b.Keys(), keyName) {
			out = append(out, *b)
		}
	}
	return out
}

// As is binding b described as desc, for one place that gives its keys another meaning
// (enter "choose" in a picker, "run" in the palette): the same keys, the same key label,
// on or off as b is.
func As(b key.Binding, desc string) key.Binding {
	c := key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
	c.SetEnabled(b.Enabled())
	return c
}

// Scroll is where a move key takes a pane scrolled to line at: a line or page lines up or
// down, line 0 for the top, end for the bottom; ok is false for any other key. The pane
// keeps the result within its lines.
func (k *KeyMap) Scroll(msg tea.KeyPressMsg, at, page, end int) (to int, ok bool) {
	switch {
	case key.Matches(msg, k.Down):
		return at + 1, true
	case key.Matches(msg, k.Up):
		return at - 1, true
	case key.Matches(msg, k.PageDown):
		return at + page, true
	case key.Matches(msg, k.PageUp):
		return at - page, true
	case key.Matches(msg, k.Top):
		return 0, true
	case key.Matches(msg, k.Bottom):
		return end, true
	}
	return at, false
}

// Do is one of a screen's key actions: the binding of an entry of the table and what the
// screen does when a key of it is pressed. A screen lists the actions that do the same
// wherever its focus is, and runs them with Run.
type Do struct {
	Key key.Binding
	Run func() tea.Cmd
}

// Run runs the first of acts whose binding msg matches; ok is false when none does. A
// binding the session may not use (Deny) is off and matches no key: its action never runs.
func Run(msg tea.KeyPressMsg, acts []Do) (cmd tea.Cmd, ok bool) {
	for _, a := range acts {
		if key.Matches(msg, a.Key) {
			return a.Run(), true
		}
	}
	return nil, false
}
