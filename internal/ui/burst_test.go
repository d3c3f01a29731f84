package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/notes"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/navigation"
	"github.com/parley-tui/parley/internal/views/screens/operators"
)

// jj is two presses of j that arrived in one read (a slow SSH link, tmux send-keys): Bubble
// Tea's input reader makes two messages of them (appLoop.Read delivers what it makes).
const jj = "jj"

// top is the top modal, or nil.
func (l *appLoop) top() common.Modal {
	if n := len(l.app.route.Modals); n > 0 {
		return l.app.route.Modals[n-1]
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
	t.Parallel()
	l, _ := startApp(t, nil, 120, 40)
	cases := []listCase{
		{name: "conversations", key: "1",
			ids: func(a *App) []int64 {
				var out []int64
				for _, r := range a.Screen().(*conversations.Model).List.Rows() {
					out = append(out, r.ID)
				}
				return out
			},
			selected: func(a *App) int64 { r, _ := a.Screen().(*conversations.Model).List.Selected(); return r.ID }},
		{name: "contacts", key: "2",
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
		l.Read(jj)
		if got := c.selected(l.app); got != ids[2] {
			t.Errorf("%s: \"jj\" in one read selected %d, want the third row %d", c.name, got, ids[2])
		}
	}
}

// downDown is two presses of the down arrow that arrived in one read.
const downDown = "\x1b[B\x1b[B"

// The analytics screen's overlays: the date-range menu moves two rows on "jj" read
// together, the metric picker (where letters are filter text, as in every picker) on two
// down arrows read together, exactly as on the keys read apart (and not one row, as one
// key does); in the picker "jj" read together is the filter "jj", as j j typed apart.
func TestKeysReadTogetherMoveTheMetricPickerAndTheRangeMenu(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 120, 40)
	l.Key("4")
	type selector interface{ Selected() client.Metric }
	type rangeSelector interface{ Selected() analytics.Preset }
	for _, c := range []struct {
		name, open string
		key, keys  string // the key pressed apart, and twice in one read
		selected   func() any
	}{
		{"metric picker", "m", "down", downDown, func() any {
			return modal[interface {
				common.Modal
				selector
			}](l, "the metric picker").Selected()
		}},
		{"range menu", "d", "j", jj, func() any {
			return modal[interface {
				common.Modal
				rangeSelector
			}](l, "the range menu").Selected()
		}},
	} {
		l.Key(c.open)
		start := c.selected()
		l.Key(c.key)
		one := c.selected()
		l.Key(c.key)
		apart := c.selected()
		if one == start || apart == one {
			t.Fatalf("%s: %s %s went %v → %v → %v: want two different rows", c.name, c.key, c.key, start, one, apart)
		}
		l.closeAll()
		l.Key(c.open)
		if got := c.selected(); got != start {
			t.Fatalf("%s: reopened on %v, not %v", c.name, got, start)
		}
		l.Read(c.keys)
		if got := c.selected(); got != apart {
			t.Errorf("%s: %q in one read selected %v, want %v (two rows down, as %s %s does)", c.name, c.keys, got, apart, c.key, c.key)
		}
		l.closeAll()
	}
	l.Key("m")
	l.Key("j", "j")
	apart := ansi.Strip(l.top().View())
	l.closeAll()
	l.Key("m")
	l.Read(jj)
	if got := ansi.Strip(l.top().View()); got != apart || !strings.Contains(got, "Filter: jj") {
		t.Errorf("the metric picker after \"jj\" in one read:\n%s\nafter j j apart:\n%s", got, apart)
	}
	l.closeAll()
}

// The ctrl+p picker takes "jj" read together as the filter "jj" (letters are text in every
// picker), moves on two down arrows read together, and takes digits read together as an
// id.
func TestKeysReadTogetherInTheOperatorPicker(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 120, 40)
	l.Key("ctrl+p")
	p := l.picker()
	if len(p.items) < 3 {
		t.Fatalf("%d operators to pick from", len(p.items))
	}
	l.Read(jj)
	if p.pick.Query() != "jj" {
		t.Errorf("\"jj\" in one read: filter %q, want \"jj\"", p.pick.Query())
	}
	l.Key("esc")
	p.pick.MoveTo(0)
	l.Read(downDown)
	if p.pick.Cursor() != 2 {
		t.Errorf("two downs in one read put the cursor on %d (from 0), want 2", p.pick.Cursor())
	}
	l.Read("2006")
	if mt, ok := p.pick.Selected(); p.pick.Query() != "2006" || !ok || mt.Item != picker.Typed {
		t.Errorf("digits read together: filter %q, selected %+v; want the id typed, offered first", p.pick.Query(), mt)
	}
}

// focusedValue is what the focused field of the form on top shows: the option under the
// cursor of a select or a multi-select, the text of a text field (the note form's is read
// from its view).
func (l *appLoop) focusedValue() any {
	l.t.Helper()
	switch f := l.top().(type) {
	case *forms.Modal:
		field := f.Form().GetFocusedField()
		if v, ok := hovered(field); ok {
			return v
		}
		return field.GetValue()
	case *notes.Form:
		return noteText(f.View())
	}
	l.t.Fatalf("no form on top: %T", l.top())
	return nil
}

// hovered is the option under the cursor of a select or multi-select field (huh's
// Hovered, whatever the options' type); ok is false for other fields.
func hovered(f huh.Field) (v any, ok bool) {
	m := reflect.ValueOf(f).MethodByName("Hovered")
	if !m.IsValid() {
		return nil, false
	}
	out := m.Call(nil)
	return fmt.Sprintf("option %v", out[0].Interface()), out[1].Bool()
}

// isList reports a select or a multi-select.
func isList(f huh.Field) bool {
	_, ok := hovered(f)
	return ok
}

// tabTo presses tab until the focused field of the form on top is what want says (a select
// or multi-select for "list", a text field for "text"), at most 20 times.
func (l *appLoop) tabTo(want string) {
	l.t.Helper()
	for range 20 {
		f, ok := l.top().(*forms.Modal)
		if !ok {
			l.t.Fatalf("no form on top: %T", l.top())
		}
		if field := f.Form().GetFocusedField(); field != nil {
			switch field.(type) {
			case *huh.Input, *huh.Text:
				if want == "text" {
					return
				}
			default:
				if want == "list" && isList(field) {
					return
				}
			}
		}
		l.Key("tab")
	}
	l.t.Fatalf("no %s field in the form", want)
}

// noteText is the text typed in a note form's view (the tests type only j): the lines of
// the text area that start with j, without the frame.
func noteText(view string) string {
	var out []string
	for _, line := range strings.Split(ansi.Strip(view), "\n") {
		line = strings.Trim(line, "│ ┃>")
		if strings.HasPrefix(line, "j") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// Every form takes "jj" read together as j and j read apart: a select or a multi-select
// moves its cursor two options (not one, as one j does), a text field gets "jj" as text.
// Each form is tried on its first field and on its first select or multi-select.
func TestKeysReadTogetherInEveryForm(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 120, 40)
	type formCase struct {
		name   string
		screen string           // the screen key
		open   func(l *appLoop) // opens the form from the screen
		to     string           // the field to try: "" the first, "list" the first (multi-)select, "text" the first text field
	}
	keys := func(k ...string) func(l *appLoop) { return func(l *appLoop) { l.Key(k...) } }
	cases := []formCase{
		{name: "topics (multi-select)", screen: "1", open: keys("t"), to: "list"},
		{name: "conversation filters (select)", screen: "1", open: keys("f"), to: "list"},
		{name: "note (text)", screen: "1", open: keys("n")},
		{name: "contact filters (text)", screen: "2", open: keys("f"), to: "text"},
		{name: "contact filters (select)", screen: "2", open: keys("f"), to: "list"},
		{name: "contact edit (text)", screen: "2", open: keys("e"), to: "text"},
		{name: "contact edit (multi-select)", screen: "2", open: keys("e"), to: "list"},
		{name: "contact create or update (select)", screen: "2", open: keys("a"), to: "list"},
		{name: "operator edit (text)", screen: "3", open: keys("e"), to: "text"},
		{name: "analytics filters (select)", screen: "4", open: keys("f"), to: "list"},
		{name: "analytics filters (multi-select)", screen: "4", open: keys("f", "tab"), to: "list"},
		{name: "analytics custom range (text)", screen: "4", open: keys("d", "G", "enter"), to: "text"},
		// The format select has two options: the file name is where two presses show.
		{name: "analytics export (text)", screen: "4", open: keys("e"), to: "text"},
	}
	for _, c := range cases {
		l.Key(c.screen)
		switch c.screen {
		case "1":
			l.Until("conversations", func() bool { return len(l.app.Screen().(*conversations.Model).List.Rows()) > 0 })
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
			if c.to != "" {
				l.tabTo(c.to)
			}
			return l.focusedValue()
		}
		start := open()
		l.Key("j")
		one := l.focusedValue()
		l.Key("j")
		apart := l.focusedValue()
		if reflect.DeepEqual(one, start) || reflect.DeepEqual(apart, one) {
			t.Fatalf("%s: j j went %#v → %#v → %#v: want two different steps", c.name, start, one, apart)
		}
		l.closeAll()
		if again := open(); !reflect.DeepEqual(again, start) {
			t.Fatalf("%s: reopened at %#v, not %#v", c.name, again, start)
		}
		l.Read(jj)
		if got := l.focusedValue(); !reflect.DeepEqual(got, apart) {
			t.Errorf("%s: \"jj\" in one read gave %#v, want %#v (as j j does)", c.name, got, apart)
		}
		l.closeAll()
	}
}

// A rebound down key (config keys: {down: [v, down]}) is the down key everywhere: "vv" read
// together moves two rows in the list and in a form's select, whose footer names v; j,
// no longer bound, moves neither.
func TestReboundKeysReadTogether(t *testing.T) {
	t.Parallel()
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"down": {"v", "down"}}); err != nil {
		t.Fatal(err)
	}
	l, _ := startAppWithKeys(t, nil, keys, 120, 40)
	tri := l.app.Screen().(*conversations.Model)
	l.Until("conversations", func() bool { return len(tri.List.Rows()) >= 3 })
	selected := func() int64 { r, _ := tri.List.Selected(); return r.ID }
	ids := []int64{tri.List.Rows()[0].ID, tri.List.Rows()[1].ID, tri.List.Rows()[2].ID}
	l.Read(jj)
	if got := selected(); got != ids[0] {
		t.Fatalf("\"jj\" with down on v moved the list to %d", got)
	}
	l.Read("vv")
	if got := selected(); got != ids[2] {
		t.Fatalf("\"vv\" in one read selected %d, want the third row %d", got, ids[2])
	}

	l.Key("f")
	modal[*forms.Modal](l, "the filter form")
	start := l.focusedValue()
	l.Read(jj)
	if got := l.focusedValue(); got != start {
		t.Fatalf("\"jj\" with down on v moved the status select from %v to %v", start, got)
	}
	l.Read("vv")
	if got := l.focusedValue(); got != "option "+client.StatusPending {
		t.Fatalf("\"vv\" in one read left the status select on %v, want the third option (pending)", got)
	}
	l.checkFooter("the filter form's status select", 120, "v/↓ down")
}
