package ui

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/analytics"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/forms"
	"github.com/parley-tui/parley/views/navigation"
	"github.com/parley-tui/parley/views/notes"
	"github.com/parley-tui/parley/views/operators"
	"github.com/parley-tui/parley/views/triage"
)

// jj is two presses of j that arrived in one read (a slow SSH link, tmux send-keys): Bubble
// Tea delivers them as one message.
var jj = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")}

// top is the top modal, or nil.
func (l *appLoop) top() common.Modal {
	if n := len(l.app.overlays); n > 0 {
		return l.app.overlays[n-1]
	}
	return nil
}

// modal waits for a modal of type M on top.
func modal[M common.Modal](l *appLoop, what string) M {
	l.t.Helper()
	l.Until(what, func() bool { _, ok := l.top().(M); return ok })
	return l.top().(M)
}

// closeAll closes the modals with esc, answering y when a form asks before discarding.
func (l *appLoop) closeAll() {
	l.t.Helper()
	for i := 0; i < 5 && l.top() != nil; i++ {
		if f, ok := l.top().(*forms.Modal); ok && f.Asking() == "" && strings.Contains(ansi.Strip(f.View()), "Discard") {
			l.Key("y")
			continue
		}
		if nf, ok := l.top().(*notes.Form); ok && strings.Contains(ansi.Strip(nf.View()), "Discard") {
			l.Key("y")
			continue
		}
		l.Key("esc")
	}
	l.Until("no modal", func() bool { return l.top() == nil })
}

// listCase is a list screen: the key that shows it, its rows' ids and the selected row's.
type listCase struct {
	name     string
	key      string
	prepare  func(l *appLoop) // after the switch, before the rows are read
	ids      func(a *App) []int64
	selected func(a *App) int64
}

func TestKeysReadTogetherMoveEveryList(t *testing.T) {
	l, _ := startApp(t, nil, 120, 40)
	cases := []listCase{
		{name: "conversations", key: "1",
			ids: func(a *App) []int64 {
				var out []int64
				for _, r := range a.Screen().(*triage.Model).List.Rows() {
					out = append(out, r.ID)
				}
				return out
			},
			selected: func(a *App) int64 { r, _ := a.Screen().(*triage.Model).List.Selected(); return r.ID }},
		{name: "contacts", key: "2",
			// The first visit opens the search prompt (quick lookup): close it.
			prepare: func(l *appLoop) { l.closeAll() },
			ids: func(a *App) []int64 {
				var out []int64
				for _, r := range a.Screen().(*contacts.Model).List.Rows() {
					out = append(out, r.ID)
				}
				return out
			},
			selected: func(a *App) int64 { r, _ := a.Screen().(*contacts.Model).List.Selected(); return r.ID }},
		{name: "operators", key: "3",
			ids: func(a *App) []int64 {
				var out []int64
				for _, r := range a.Screen().(*operators.Model).Rows() {
					out = append(out, r.ID)
				}
				return out
			},
			selected: func(a *App) int64 { r, _ := a.Screen().(*operators.Model).Selected(); return r.ID }},
		{name: "navigation", key: "5",
			ids: func(a *App) []int64 {
				var out []int64
				for _, r := range a.Screen().(*navigation.Model).Rows() {
					out = append(out, r.ID)
				}
				return out
			},
			selected: func(a *App) int64 { r, _ := a.Screen().(*navigation.Model).Selected(); return r.ID }},
	}
	for _, c := range cases {
		l.Key(c.key)
		if c.prepare != nil {
			c.prepare(l)
		}
		l.Until(c.name+" rows", func() bool { return len(c.ids(l.app)) >= 3 })
		ids := c.ids(l.app)
		if got := c.selected(l.app); got != ids[0] {
			t.Fatalf("%s: the cursor starts on %d, not the first row %d", c.name, got, ids[0])
		}
		l.Deliver(jj)
		if got := c.selected(l.app); got != ids[2] {
			t.Errorf("%s: \"jj\" in one read selected %d, want the third row %d", c.name, got, ids[2])
		}
	}
}

// The analytics screen's overlays: the metric picker and the date-range menu move two rows
// on "jj" read together, exactly as on j and j read apart.
func TestKeysReadTogetherMoveTheMetricPickerAndTheRangeMenu(t *testing.T) {
	l, _ := startApp(t, nil, 120, 40)
	l.Key("4")
	type selector interface{ Selected() client.Metric }
	type rangeSelector interface{ Selected() analytics.Preset }
	for _, c := range []struct {
		name, open string
		selected   func() any
	}{
		{"metric picker", "m", func() any {
			return modal[interface {
				common.Modal
				selector
			}](l, "the metric picker").Selected()
		}},
		{"range menu", "d", func() any {
			return modal[interface {
				common.Modal
				rangeSelector
			}](l, "the range menu").Selected()
		}},
	} {
		l.Key(c.open)
		start := c.selected()
		l.Key("j", "j")
		apart := c.selected()
		if apart == start {
			t.Fatalf("%s: j j did not move from %v", c.name, start)
		}
		l.closeAll()
		l.Key(c.open)
		if got := c.selected(); got != start {
			t.Fatalf("%s: reopened on %v, not %v", c.name, got, start)
		}
		l.Deliver(jj)
		if got := c.selected(); got != apart {
			t.Errorf("%s: \"jj\" in one read selected %v, want %v (two rows down, as j j does)", c.name, got, apart)
		}
		l.closeAll()
	}
}

// The ctrl+p picker moves on "jj" and takes digits read together as an id.
func TestKeysReadTogetherInTheOperatorPicker(t *testing.T) {
	l, _ := startApp(t, nil, 120, 40)
	l.Key("ctrl+p")
	p := l.picker()
	if len(p.items) < 3 {
		t.Fatalf("%d operators to pick from", len(p.items))
	}
	start := p.cursor
	p.cursor = 0
	l.Deliver(jj)
	if p.cursor != 2 {
		t.Errorf("\"jj\" in one read put the cursor on %d (from 0), want 2 (it started on %d)", p.cursor, start)
	}
	l.Deliver(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2006")})
	if got := p.input.Value(); got != "2006" || p.cursor != 2 {
		t.Errorf("digits read together: input %q, cursor %d; want the id typed and the cursor kept", got, p.cursor)
	}
}

// focusedValue is the value of the focused field of the form on top ("" for the note form,
// whose text is read from its view).
func (l *appLoop) focusedValue() any {
	switch f := l.top().(type) {
	case *forms.Modal:
		return f.Form().GetFocusedField().GetValue()
	case *notes.Form:
		return noteText(f.View())
	}
	l.t.Fatalf("no form on top: %T", l.top())
	return nil
}

// noteText is the text typed in a note form's view: the lines of the text area, without
// the frame and the empty lines.
func noteText(view string) string {
	var out []string
	for _, line := range strings.Split(ansi.Strip(view), "\n") {
		line = strings.Trim(line, "│ ┃>")
		if strings.HasPrefix(line, "jj") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// Every form takes "jj" read together as j and j read apart: a select or a multi-select
// moves two rows (space then marks the third option), a text field gets "jj" as text.
func TestKeysReadTogetherInEveryForm(t *testing.T) {
	l, _ := startApp(t, nil, 120, 40)
	type formCase struct {
		name   string
		screen string           // the screen key
		open   func(l *appLoop) // opens the form from the screen
		then   []string         // keys after j j (space marks a multi-select's option)
	}
	key := func(k string) func(l *appLoop) { return func(l *appLoop) { l.Key(k) } }
	cases := []formCase{
		{name: "topics (multi-select)", screen: "1", open: key("t"), then: []string{" "}},
		{name: "conversation filters (select)", screen: "1", open: key("f")},
		{name: "note (text)", screen: "1", open: key("n")},
		{name: "contact filters (text)", screen: "2", open: key("f")},
		{name: "contact edit (text)", screen: "2", open: key("e")},
		{name: "contact create or update (select)", screen: "2", open: key("a")},
		{name: "operator edit (text)", screen: "3", open: key("e")},
		{name: "analytics filters (select)", screen: "4", open: key("f")},
	}
	for _, c := range cases {
		l.Key(c.screen)
		l.closeAll() // the contacts screen opens its search prompt on the first visit
		switch c.screen {
		case "1":
			l.Until("conversations", func() bool { return len(l.app.Screen().(*triage.Model).List.Rows()) > 0 })
		case "2":
			l.Until("contacts", func() bool { return len(l.app.Screen().(*contacts.Model).List.Rows()) > 0 })
		case "3":
			l.Until("operators", func() bool { return len(l.app.Screen().(*operators.Model).Rows()) > 0 })
		case "4":
			l.Until("analytics", func() bool { return l.app.Screen().(*analytics.Model).Loaded() })
		}
		open := func() any {
			c.open(l)
			l.Until(c.name+" form", func() bool {
				switch l.top().(type) {
				case *forms.Modal, *notes.Form:
					return true
				}
				return false
			})
			return l.focusedValue()
		}
		start := open()
		l.Key("j", "j")
		l.Key(c.then...)
		apart := l.focusedValue()
		if reflect.DeepEqual(apart, start) {
			t.Fatalf("%s: j j %v left the focused field at %#v", c.name, c.then, start)
		}
		l.closeAll()
		if again := open(); !reflect.DeepEqual(again, start) {
			t.Fatalf("%s: reopened at %#v, not %#v", c.name, again, start)
		}
		l.Deliver(jj)
		l.Key(c.then...)
		if got := l.focusedValue(); !reflect.DeepEqual(got, apart) {
			t.Errorf("%s: \"jj\" in one read then %v gave %#v, want %#v (as j j does)", c.name, c.then, got, apart)
		}
		l.closeAll()
	}
}
