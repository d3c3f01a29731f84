package ui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
)

// bindings are every binding of k.
func bindings(k *keymap.KeyMap) []key.Binding {
	v := reflect.ValueOf(k).Elem()
	var out []key.Binding
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out = append(out, b)
		}
	}
	return out
}

// offKeys is what denying capabilities turns off: the "key description" hints of the
// bindings it disables (in help's words and in the footer's), and their keys.
type offKeys struct {
	hints []string
	keys  []string
}

func offIn(deny keymap.Caps) offKeys {
	all, k := keymap.Default(), keymap.Default()
	k.Deny(deny)
	var off offKeys
	for _, b := range bindings(k) {
		if b.Enabled() {
			continue
		}
		off.hints = append(off.hints, b.Help().Key+" "+b.Help().Desc)
		for _, kk := range b.Keys() {
			if !slices.Contains(off.keys, kk) {
				off.keys = append(off.keys, kk)
			}
		}
	}
	// The footer's words ("t topics") of the hints the denial takes out of a footer.
	for w := keymap.Where(1); w <= keymap.InForm; w <<= 1 {
		hints, _ := all.Footer(w)
		kept, _ := k.Footer(w)
		for _, b := range hints {
			text := b.Help().Key + " " + b.Help().Desc
			if !slices.ContainsFunc(kept, func(c key.Binding) bool { return c.Help() == b.Help() }) && !slices.Contains(off.hints, text) {
				off.hints = append(off.hints, text)
			}
		}
	}
	return off
}

// screenHints are texts of the screens that name an edit key as the default key map binds
// it (the operators list's footnote, a contact's notes when there are none).
var screenHints = []string{"w away", "e edit", "d delete", "n writes one"}

// walkReport is what a walk through every screen found: the edit hints shown (in a
// footer, in help, in a screen's own text) and the edit keys that did something (opened a
// modal, changed the frame, sent a request), each as "place: what".
type walkReport struct {
	shown, reacted []string
	places         []string
	// said are the toasts the keys raised, "place: key toast"; silent the keys that did
	// nothing and raised none.
	said, silent []string
}

// renderWithoutToasts is the app's frame with no toast over it.
func renderWithoutToasts(a *App) string {
	kept := a.toasts
	a.toasts = nil
	defer func() { a.toasts = kept }()
	return a.Render()
}

// walkEditKeys shows every screen and pane of the app in l, and at each one reads the
// footer, help and the frame for off's hints and presses off's keys, one at a time (those
// that an enabled key of the place shares are left out: d picks the date range on the
// analytics screen).
func walkEditKeys(l *appLoop, off offKeys, w, h int) walkReport {
	l.t.Helper()
	var rep walkReport
	check := func(place string) {
		l.t.Helper()
		rep.places = append(rep.places, place)
		frame := ansi.Strip(l.app.Screen().View()) // without toasts over it
		foot := l.footer()
		for _, hint := range off.hints {
			if strings.Contains(foot, " "+hint+"  ") || strings.HasSuffix(foot, " "+hint) {
				rep.shown = append(rep.shown, place+": footer "+hint)
			}
		}
		for _, hint := range screenHints {
			if strings.Contains(frame, hint) {
				rep.shown = append(rep.shown, place+": screen "+hint)
			}
		}
		help := helpEntries(l.t, l, l.openHelp(), w, h)
		l.closeAll()
		taken := map[string]bool{} // keys of enabled bindings here
		for _, e := range help {
			if slices.Contains(off.hints, e) {
				rep.shown = append(rep.shown, place+": help "+e)
				continue
			}
			label, _, _ := strings.Cut(e, " ")
			for _, k := range strings.Split(label, "/") {
				taken[k] = true
			}
		}
		l.Quiet(200 * time.Millisecond) // timers of the walk so far (rest, reload) are done
		for _, k := range off.keys {
			if taken[k] {
				continue
			}
			toast, what, sent := pressKey(l, k)
			if toast != "" {
				rep.said = append(rep.said, place+": "+k+" "+toast)
			} else if len(what) == 0 {
				rep.silent = append(rep.silent, place+": "+k)
			}
			if len(sent) > 0 {
				what = append(what, fmt.Sprintf("sent %d requests", len(sent)))
			}
			if len(what) > 0 {
				rep.reacted = append(rep.reacted, place+": "+k+" "+strings.Join(what, ", "))
				l.closeAll()
			}
		}
		sent := len(l.log.Lines())
		l.Quiet(200 * time.Millisecond) // what a key armed a timer for
		if n := len(l.log.Lines()); n != sent {
			rep.reacted = append(rep.reacted, fmt.Sprintf("%s: %d requests after the keys", place, n-sent))
		}
	}

	walkPlaces(l, func(place string, _ keymap.Where) { check(place) })
	return rep
}

// TestReadOnlyOffersNoEditAnywhere: with Options.ReadOnly no footer, no help and no
// screen of any screen or pane names an edit key, and pressing every edit key there opens
// nothing, changes nothing and sends no request to the sandbox. The same walk without
// ReadOnly finds the hints and keys at every place, so the walk sees them where they are.
func TestReadOnlyOffersNoEditAnywhere(t *testing.T) {
	t.Parallel()
	const w, h = 160, 40
	off := offIn(keymap.CanWrite)
	if len(off.hints) == 0 || !slices.Contains(off.keys, "t") || !slices.Contains(off.keys, "ctrl+p") {
		t.Fatalf("read-only turns off %+v", off)
	}

	l, _ := startAppWith(t, nil, w, h, func(o *Options) { o.ReadOnly = true })
	rep := walkEditKeys(l, off, w, h)
	for _, s := range rep.shown {
		t.Errorf("read-only shows an edit: %s", s)
	}
	for _, s := range rep.reacted {
		t.Errorf("read-only took an edit key: %s", s)
	}
	for _, line := range l.log.Lines() {
		if line.Method != "GET" {
			t.Errorf("read-only sent %s %s", line.Method, line.Path)
		}
	}
	// Every edit key pressed says why it does nothing.
	for _, s := range rep.silent {
		t.Errorf("read-only: an edit key does nothing and says nothing: %s", s)
	}
	for _, s := range rep.said {
		_, rest, _ := strings.Cut(s, ": ")
		k, toast, _ := strings.Cut(rest, " ")
		if !strings.HasPrefix(toast, "read-only: "+k+" (") || !strings.HasSuffix(toast, ") is off") {
			t.Errorf("read-only: the toast of %s", s)
		}
	}
	for _, want := range []string{"conversations list: d read-only: d (delete) is off", "conversations thread: t read-only: t (edit topics) is off",
		"operators: w read-only: w (toggle away) is off", "analytics: e read-only: e (export) is off", "navigation: ctrl+p read-only: ctrl+p (act as operator) is off"} {
		if !slices.Contains(rep.said, want) {
			t.Errorf("read-only: no %q among %q", want, rep.said)
		}
	}
	if bar := l.statusBar(); !strings.Contains(bar, "read-only") {
		t.Errorf("the status bar does not say read-only: %q", bar)
	}

	l, _ = startApp(t, nil, w, h)
	rep = walkEditKeys(l, off, w, h)
	for _, place := range rep.places {
		in := func(list []string) bool {
			return slices.ContainsFunc(list, func(s string) bool { return strings.HasPrefix(s, place+": ") })
		}
		if !in(rep.shown) || !in(rep.reacted) {
			t.Errorf("without read-only, %s shows no edit hint or takes no edit key: the walk sees nothing there\nshown %q\nreacted %q",
				place, rep.shown, rep.reacted)
		}
	}
	for _, want := range []string{"contact detail: screen n writes one", "operators: screen w away", "conversations list: help t edit topics"} {
		if !slices.Contains(rep.shown, want) {
			t.Errorf("without read-only the walk does not find %q in %q", want, rep.shown)
		}
	}
}

// TestFixedOperatorOffersNoActAs: an agent of the hub (Options.FixedOperator) is not
// offered ctrl+p: neither the footer nor help names it, and it opens no picker, not over an
// edit form either; the edits stay. Without FixedOperator the same steps open the picker.
func TestFixedOperatorOffersNoActAs(t *testing.T) {
	t.Parallel()
	const w, h = 120, 40
	for _, fixed := range []bool{true, false} {
		l, _ := startAppWith(t, nil, w, h, func(o *Options) { o.FixedOperator = fixed })
		tri := l.app.Screen().(*conversations.Model)
		l.Until("conversations", func() bool { return len(tri.List.Rows()) > 0 && !tri.List.Loading() })
		help := helpEntries(t, l, l.openHelp(), w, h)
		l.closeAll()
		if offered := slices.Contains(help, "ctrl+p act as operator"); offered == fixed {
			t.Errorf("fixed=%v: help offers act as: %v (%q)", fixed, offered, help)
		}
		if strings.Contains(l.footer(), "ctrl+p") {
			t.Errorf("fixed=%v: the footer names ctrl+p: %q", fixed, l.footer())
		}
		if !slices.Contains(help, "t edit topics") {
			t.Errorf("fixed=%v: help lacks the edits: %q", fixed, help)
		}
		l.Key("ctrl+p")
		if _, picked := l.top().(*contextPicker); picked == fixed {
			t.Errorf("fixed=%v: ctrl+p opened the operator picker: %v", fixed, picked)
		}
		l.closeAll()
		l.Key("t")
		modal[*forms.Modal](l, "the topics form")
		l.Key("ctrl+p")
		if _, picked := l.top().(*contextPicker); picked == fixed {
			t.Errorf("fixed=%v: ctrl+p over the topics form opened the picker: %v", fixed, picked)
		}
		l.closeAll()
	}
}

// TestFixedOrganizationOffersNoOrganizationPicker: a session of the hub
// (Options.FixedOrganization) is not offered ctrl+o: neither the footer nor help names it,
// and it opens no picker, so the session cannot read another organization with the hub's
// customer token. Without FixedOrganization the same key opens the picker.
func TestFixedOrganizationOffersNoOrganizationPicker(t *testing.T) {
	t.Parallel()
	const w, h = 120, 40
	for _, fixed := range []bool{true, false} {
		l, _ := startAppWith(t, nil, w, h, func(o *Options) { o.FixedOrganization = fixed })
		tri := l.app.Screen().(*conversations.Model)
		l.Until("conversations", func() bool { return len(tri.List.Rows()) > 0 && !tri.List.Loading() })
		help := helpEntries(t, l, l.openHelp(), w, h)
		l.closeAll()
		if offered := slices.Contains(help, "ctrl+o organization"); offered == fixed {
			t.Errorf("fixed=%v: help offers the organization picker: %v (%q)", fixed, offered, help)
		}
		if strings.Contains(l.footer(), "ctrl+o") {
			t.Errorf("fixed=%v: the footer names ctrl+o: %q", fixed, l.footer())
		}
		l.Key("ctrl+o")
		if _, picked := l.top().(*contextPicker); picked == fixed {
			t.Errorf("fixed=%v: ctrl+o opened the organization picker: %v", fixed, picked)
		}
		l.closeAll()
	}
}
