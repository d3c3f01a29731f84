// Package keymap holds every key binding of parley (bubbles/key), their help groups and the
// user's overrides from the config file. Views match keys only through these bindings.
package keymap

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Action names: the config file's `keys:` map uses them.
const (
	Quit          = "quit"
	Help          = "help"
	Back          = "back"
	Conversations = "conversations"
	Contacts      = "contacts"
	Operators     = "operators"
	Analytics     = "analytics"
	Navigation    = "navigation"
	NextPane      = "next_pane"
	PrevPane      = "prev_pane"
	ToggleDetail  = "toggle_detail"
	Refresh       = "refresh"
	PickOrg       = "pick_org"
	ActAs         = "act_as"
	Palette       = "palette"

	Up       = "up"
	Down     = "down"
	Top      = "top"
	Bottom   = "bottom"
	PageDown = "page_down"
	PageUp   = "page_up"
	Open     = "open"

	NextConversation = "next_conversation"
	PrevConversation = "prev_conversation"

	Search = "search"
	Filter = "filter"
	Status = "status"
	Order  = "order"
	Mark   = "mark"
	Delete = "delete"
	CopyID = "copy_id"
	JumpID = "jump_id"

	PrevView = "prev_view"
	NextView = "next_view"
	SaveView = "save_view"

	Topics = "topics"
	Note   = "note"
	Edit   = "edit"
	Away   = "away"
	Upsert = "upsert"

	// Conversation actions: each one PATCH of the conversation.
	Take       = "take"
	Assign     = "assign"
	Unassign   = "unassign"
	End        = "end"
	Reopen     = "reopen"
	ToggleRead = "toggle_read"

	Yes = "yes"
	No  = "no"

	Submit = "submit"

	Export    = "export"
	Metric    = "metric"
	Range     = "range"
	Mode      = "mode"
	Split     = "split"
	ChartKind = "chart_kind"
	Breakdown = "breakdown"
)

// KeyMap is every binding, grouped by where it applies.
type KeyMap struct {
	// Global: valid everywhere outside forms.
	Quit, ForceQuit, Help, Back                               key.Binding
	Conversations, Contacts, Operators, Analytics, Navigation key.Binding
	NextPane, PrevPane, ToggleDetail, Refresh, PickOrg, ActAs key.Binding
	// Palette opens the command palette: every action of where the user is, by name.
	Palette key.Binding
	// Moving in lists, threads and detail panes.
	Up, Down, Top, Bottom, PageDown, PageUp, Open key.Binding
	// The conversations screen, from every pane: the next/previous conversation of the list.
	NextConversation, PrevConversation key.Binding
	// Lists.
	Search, Filter, Status, Order, Mark, Delete, CopyID, JumpID key.Binding
	// Saved views (the list screens): previous, next, save the current query as one.
	PrevView, NextView, SaveView key.Binding
	// Edits.
	Topics, Note, Edit, Away, Upsert key.Binding
	// Conversation actions (the conversations screen).
	Take, Assign, Unassign, End, Reopen, ToggleRead key.Binding
	// Confirmations (delete and other irreversible actions).
	Yes, No key.Binding
	// Forms: Submit saves from any field (enter moves to the next field and saves on the
	// last; tab/shift+tab move between fields, as huh binds them).
	Submit key.Binding
	// Analytics.
	Export, Metric, Range, Mode, Split, ChartKind, Breakdown key.Binding
}

// Default returns the default bindings of DESIGN.md.
func Default() *KeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(HelpKeys(keys), help))
	}
	return &KeyMap{
		Quit:          b("quit", "q"),
		ForceQuit:     b("quit now", "ctrl+c"),
		Help:          b("help", "?"),
		Back:          b("back/close", "esc"),
		Conversations: b("conversations", "1"),
		Contacts:      b("contacts", "2"),
		Operators:     b("operators", "3"),
		Analytics:     b("analytics", "4"),
		Navigation:    b("navigation", "5"),
		NextPane:      b("next pane", "tab"),
		PrevPane:      b("previous pane", "shift+tab"),
		ToggleDetail:  b("toggle detail", "p"),
		Refresh:       b("refresh", "r"),
		PickOrg:       b("organization", "ctrl+o"),
		ActAs:         b("act as operator", "ctrl+p"),
		Palette:       b("command palette", ":", "ctrl+k"),

		Up:       b("up", "k", "up"),
		Down:     b("down", "j", "down"),
		Top:      b("top", "g", "home"),
		Bottom:   b("bottom", "G", "end"),
		PageDown: b("page down", "ctrl+d", "pgdown"),
		PageUp:   b("page up", "ctrl+u", "pgup"),
		Open:     b("open", "enter"),

		NextConversation: b("next conversation", "J"),
		PrevConversation: b("previous conversation", "K"),

		Search: b("search", "/"),
		Filter: b("filters", "f"),
		Status: b("cycle status", "s"),
		Order:  b("cycle ordering", "o"),
		Mark:   b("mark row", "space"),
		Delete: b("delete", "d"),
		CopyID: b("copy id", "y"),
		JumpID: b("go to id", "#"),

		PrevView: b("previous view", "["),
		NextView: b("next view", "]"),
		SaveView: b("save query as view", "V"),

		Topics: b("edit topics", "t"),
		Note:   b("new note", "n"),
		Edit:   b("edit", "e"),
		Away:   b("toggle away", "w"),
		Upsert: b("create/update by identifier", "a"),

		Take:       b("take (assign to me)", "T"),
		Assign:     b("assign to…", "A"),
		Unassign:   b("unassign", "U"),
		End:        b("end conversation", "E"),
		Reopen:     b("reopen", "O"),
		ToggleRead: b("mark read/unread", "u"),

		Yes: b("yes, go ahead", "y"),
		No:  b("no, cancel", "n"),

		Submit: b("submit", "ctrl+s"),

		Export:    b("export", "e"),
		Metric:    b("pick metric", "m"),
		Range:     b("date range", "d"),
		Mode:      b("human/bot/all", "h"),
		Split:     b("split: human/bot", "i"),
		ChartKind: b("count/mean/median", "c"),
		Breakdown: b("whole breakdown", "b"),
	}
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

// binding returns the binding of an action name.
func (k *KeyMap) binding(action string) *key.Binding {
	m := map[string]*key.Binding{
		Quit: &k.Quit, Help: &k.Help, Back: &k.Back,
		Conversations: &k.Conversations, Contacts: &k.Contacts, Operators: &k.Operators,
		Analytics: &k.Analytics, Navigation: &k.Navigation,
		NextPane: &k.NextPane, PrevPane: &k.PrevPane, ToggleDetail: &k.ToggleDetail,
		Refresh: &k.Refresh, PickOrg: &k.PickOrg, ActAs: &k.ActAs, Palette: &k.Palette,
		Up: &k.Up, Down: &k.Down, Top: &k.Top, Bottom: &k.Bottom,
		PageDown: &k.PageDown, PageUp: &k.PageUp, Open: &k.Open,
		NextConversation: &k.NextConversation, PrevConversation: &k.PrevConversation,
		Search: &k.Search, Filter: &k.Filter, Status: &k.Status, Order: &k.Order,
		Mark: &k.Mark, Delete: &k.Delete, CopyID: &k.CopyID, JumpID: &k.JumpID,
		PrevView: &k.PrevView, NextView: &k.NextView, SaveView: &k.SaveView,
		Topics: &k.Topics, Note: &k.Note, Edit: &k.Edit, Away: &k.Away, Upsert: &k.Upsert,
		Take: &k.Take, Assign: &k.Assign, Unassign: &k.Unassign, End: &k.End, Reopen: &k.Reopen,
		ToggleRead: &k.ToggleRead,
		Yes:        &k.Yes, No: &k.No, Submit: &k.Submit,
		Export: &k.Export, Metric: &k.Metric, Range: &k.Range, Mode: &k.Mode,
		Split: &k.Split, ChartKind: &k.ChartKind, Breakdown: &k.Breakdown,
	}
	return m[action]
}

// Actions lists every action name that can be rebound, sorted.
func Actions() []string {
	var out []string
	for _, g := range contexts {
		out = append(out, g.actions...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// contexts are the sets of actions that are live at the same time; a key may appear only
// once within one context. where names the context in messages.
var contexts = []struct {
	where   string
	actions []string
}{
	{"on the list screens", []string{Quit, Help, Back, Conversations, Contacts, Operators, Analytics, Navigation,
		NextPane, PrevPane, ToggleDetail, Refresh, PickOrg, ActAs, Palette,
		Up, Down, Top, Bottom, PageDown, PageUp, Open, NextConversation, PrevConversation,
		Search, Filter, Status, Order, Mark, Delete, CopyID, JumpID, PrevView, NextView, SaveView,
		Topics, Note, Edit, Away, Upsert,
		Take, Assign, Unassign, End, Reopen, ToggleRead}},
	{"on the analytics screen", []string{Quit, Help, Back, Conversations, Contacts, Operators, Analytics, Navigation,
		NextPane, PrevPane, Refresh, PickOrg, ActAs, Palette,
		Up, Down, Top, Bottom, PageDown, PageUp, Open,
		Export, Metric, Range, Mode, Split, ChartKind, Breakdown, Filter}},
	{"in confirmations", []string{Back, Yes, No}},
	// A form's selects and multi-selects move, filter and mark with these (views/forms).
	{"in forms", []string{Back, Submit, ActAs, Up, Down, Top, Bottom, PageDown, PageUp, Search, Mark}},
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
// no key is bound twice within one context. ctrl+c always quits and cannot be rebound or
// taken. On error k is left unchanged.
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
		if b == nil {
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
			if a == Submit {
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

// conflicts reports keys bound to two actions of one context, each clash once however
// many contexts it occurs in (naming them all). A clash between a rebound action and a
// default binding is reported against the rebound action, whose config line the caller
// can name; overridden holds the actions the config rebinds (nil for none).
func (k *KeyMap) conflicts(overridden map[string][]string) []Problem {
	type clash struct {
		action, other, key string
		where              []string
	}
	var found []*clash
	byID := map[string]*clash{}
	for _, c := range contexts {
		owner := map[string]string{}
		for _, a := range c.actions {
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

// ReadOnly disables every binding that changes something: the edits (topics, note, edit,
// away, create/update by identifier, the conversation actions), delete and the row marks, which only serve bulk
// deletes, act as operator (it chooses who writes), and export (it saves a file). A disabled
// binding never matches (key.Matches) and neither the footer nor help shows it. Moving,
// searching, filtering (Submit applies a filter form), refreshing, copying an id and the
// screen keys stay. Call it after Apply: Apply makes new, enabled bindings.
func (k *KeyMap) ReadOnly() {
	for _, b := range k.editBindings() {
		b.SetEnabled(false)
	}
}

// editBindings are the bindings ReadOnly disables.
func (k *KeyMap) editBindings() []*key.Binding {
	return []*key.Binding{&k.Topics, &k.Note, &k.Edit, &k.Away, &k.Upsert,
		&k.Take, &k.Assign, &k.Unassign, &k.End, &k.Reopen, &k.ToggleRead,
		&k.Delete, &k.Mark, &k.ActAs, &k.Export}
}

// DisabledEdits are the edit bindings (those ReadOnly disables) that are off and bound to
// the key named keyName (as tea.KeyPressMsg.String() names it): what a read-only parley
// names when that key is pressed.
func (k *KeyMap) DisabledEdits(keyName string) []key.Binding {
	var out []key.Binding
	for _, b := range k.editBindings() {
		if !b.Enabled() && slices.Contains(b.Keys(), keyName) {
			out = append(out, *b)
		}
	}
	return out
}

// FixOperator disables act as operator (ctrl+p): every write goes as the one operator the
// session was given. Call it after Apply.
func (k *KeyMap) FixOperator() { k.ActAs.SetEnabled(false) }

// FixOrganization disables picking an organization (ctrl+o): a session of the team hub
// works in the organization its users-file entry names, and a customer token must not let
// it read the others.
func (k *KeyMap) FixOrganization() { k.PickOrg.SetEnabled(false) }

// Global is the help group valid everywhere.
func (k *KeyMap) Global() []key.Binding {
	return []key.Binding{k.Help, k.Palette, k.Back, k.Refresh, k.Conversations, k.Contacts, k.Operators,
		k.Analytics, k.Navigation, k.PickOrg, k.ActAs, k.Quit}
}

// Move is the help group for moving in a list or pane.
func (k *KeyMap) Move() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageDown, k.PageUp}
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
