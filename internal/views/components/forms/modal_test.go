package forms_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// newProgram runs m at w×h as a program does (viewtest.ModalRun).
func newProgram(m common.Modal, w, h int) *viewtest.ModalRun { return viewtest.RunModal(m, w, h, nil) }

func ctx() *common.Ctx { return viewtest.Ctx(nil) }

type person struct{ name, email, city, country string }

func personForm(v *person) func() *huh.Form {
	return func() *huh.Form {
		return huh.NewForm(
			huh.NewGroup(
				huh.NewInput().Title("Name").Value(&v.name),
				huh.NewInput().Title("Email").Value(&v.email),
			).Title("Person"),
			huh.NewGroup(
				huh.NewInput().Title("City").Value(&v.city),
				huh.NewInput().Title("Country").Value(&v.country),
			).Title("Address"),
		)
	}
}

func TestKeysInOneReadLandInTheFieldsTheyWereTypedFor(t *testing.T) {
	var v person
	p := newProgram(forms.New(ctx(), forms.Options{Title: "Person", Build: personForm(&v),
		Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }}), 76, 40)

	// tmux send-keys "Zed" Tab "zed@x.org" Tab "Berlin" Tab "DE" BTab BTab "!": one read.
	p.Batch("Zed", "tab", "zed@x.org", "tab", "Berlin", "tab", "DE", "shift+tab", "shift+tab", "!")
	want := person{name: "Zed", email: "zed@x.org!", city: "Berlin", country: "DE"}
	if v != want {
		t.Fatalf("typed into the wrong fields: got %+v, want %+v", v, want)
	}
}

// typed sends text as one key message, as Bubble Tea delivers a run of printable keys.
func typed(p *viewtest.ModalRun, s string) { p.Batch(s) }

func submitter(err *error, calls *int) forms.Submit {
	return func() (int, tea.Cmd, error) {
		*calls++
		if *err != nil {
			return 0, nil, *err
		}
		return 0, nil, nil
	}
}

func TestFailedSubmitKeepsTheFocus(t *testing.T) {
	fail := errors.New("the server said no")
	for _, tc := range []struct {
		name string
		keys []string // reach the field and submit
		err  error
		want person // after typing "!" once the submit failed
	}{
		// enter on the last field completes the huh form, which is built again: the focus
		// goes back to that last field, not to the first one.
		{"enter on the last field", []string{"tab", "tab", "tab", "enter"}, fail, person{country: "!"}},
		// ctrl+s from a field: the focus stays there.
		{"ctrl+s", []string{"tab", "ctrl+s"}, fail, person{email: "!"}},
		{"ctrl+s in the second group", []string{"tab", "tab", "ctrl+s"}, fail, person{city: "!"}},
		// an error about a field moves the focus to it.
		{"error naming a field", []string{"tab", "tab", "tab", "enter"}, forms.AtField(1, 0, fail), person{city: "!"}},
		{"error naming a field, ctrl+s", []string{"ctrl+s"}, forms.AtField(0, 1, fail), person{email: "!"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v person
			err, calls := tc.err, 0
			p := newProgram(forms.New(ctx(), forms.Options{Title: "Person", Build: personForm(&v),
				Submit: submitter(&err, &calls)}), 76, 40)
			for _, k := range tc.keys {
				p.Batch(k)
			}
			if calls != 1 {
				t.Fatalf("%d submits", calls)
			}
			if v := p.M.View(); !strings.Contains(v, "the server said no") {
				t.Fatalf("no error shown:\n%s", v)
			}
			typed(p, "!")
			if v != tc.want {
				t.Fatalf("after the failed submit, typing went to the wrong field: %+v, want %+v\n%s", v, tc.want, p.M.View())
			}
		})
	}
}

func TestServerErrorKeepsTheFocusAndTheText(t *testing.T) {
	v := person{name: "Ann"}
	task := 0
	c := ctx()
	p := newProgram(forms.New(c, forms.Options{Title: "Person", Build: personForm(&v),
		Submit: func() (int, tea.Cmd, error) {
			task = c.NewID()
			return task, nil, nil
		}}), 76, 40)
	p.Batch("tab", "tab")
	typed(p, "Oslo")
	p.Batch("tab", "enter")
	if !p.M.(*forms.Modal).Submitting() {
		t.Fatalf("not submitting:\n%s", p.M.View())
	}
	p.Deliver(common.TaskDoneMsg{TaskID: task, Err: errors.New("boom")})
	if vw := p.M.View(); !strings.Contains(vw, "boom") || !strings.Contains(vw, "Oslo") || v.name != "Ann" {
		t.Fatalf("the error or the text is gone (%+v):\n%s", v, vw)
	}
	typed(p, "NO")
	if v.country != "NO" || v.city != "Oslo" {
		t.Fatalf("typing after the failure went elsewhere: %+v", v)
	}
}

func TestErrorsFollowTheValues(t *testing.T) {
	valid := func(s string) error {
		if strings.Contains(s, "@") {
			return nil
		}
		return fmt.Errorf("%q is not an email address", s)
	}
	t.Run("with Check", func(t *testing.T) {
		v := person{email: "nope"}
		check := func() error {
			if err := valid(v.email); err != nil {
				return forms.AtField(0, 1, fmt.Errorf("Email: %w", err))
			}
			return nil
		}
		calls := 0
		p := newProgram(forms.New(ctx(), forms.Options{Title: "Person", Build: personForm(&v), Check: check,
			Submit: func() (int, tea.Cmd, error) { calls++; return 0, nil, check() }}), 76, 40)
		p.Batch("ctrl+s")
		if calls != 0 || !strings.Contains(p.M.View(), `Email: "nope" is not an email address`) {
			t.Fatalf("submitted (%d) or no error:\n%s", calls, p.M.View())
		}
		typed(p, "x") // still wrong: the error follows the value
		if !strings.Contains(p.M.View(), `Email: "nopex" is not an email address`) {
			t.Fatalf("the error does not describe the value typed:\n%s", p.M.View())
		}
		typed(p, "@y.org")
		if vw := p.M.View(); strings.Contains(vw, "✗") || strings.Contains(vw, "not an email") {
			t.Fatalf("a stale error stays after the fix:\n%s", vw)
		}
	})
	t.Run("without Check", func(t *testing.T) {
		v := person{email: "nope"}
		p := newProgram(forms.New(ctx(), forms.Options{Title: "Person", Build: personForm(&v),
			Submit: func() (int, tea.Cmd, error) { return 0, nil, valid(v.email) }}), 76, 40)
		p.Batch("tab", "ctrl+s")
		if !strings.Contains(p.M.View(), "not an email") {
			t.Fatalf("no error:\n%s", p.M.View())
		}
		typed(p, "@y.org")
		if vw := p.M.View(); strings.Contains(vw, "not an email") {
			t.Fatalf("a stale error stays after an edit:\n%s", vw)
		}
	})
}

// checkFits fails unless the view is at most h lines and ends with the box's bottom border.
func checkFits(t *testing.T, view string, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Fatalf("%d lines, more than %d:\n%s", len(lines), h, view)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "╰") {
		t.Fatalf("no bottom border:\n%s", view)
	}
}

// badInputs is an input for each of vals ("Field 1", "Field 2", …) that refuses a value
// containing "bad" with the message why (a format of the value).
func badInputs(vals []string, why string) []huh.Field {
	fields := make([]huh.Field, len(vals))
	for i := range vals {
		fields[i] = huh.NewInput().Title(fmt.Sprintf("Field %d", i+1)).Value(&vals[i]).Validate(func(s string) error {
			if strings.Contains(s, "bad") {
				return fmt.Errorf(why, s)
			}
			return nil
		})
	}
	return fields
}

func TestBoxFitsWithManyErrors(t *testing.T) {
	vals := make([]string, 8)
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(badInputs(vals, "%q is not acceptable here, for a reason that takes a long sentence to explain")...).
			Title("Many").Description("a description that wraps on a narrow box, so that the header takes two lines"))
	}
	// The room the root gives a box at 80×24 (screen less tab and status bar, less a margin).
	const w, h = 76, 20
	p := newProgram(forms.New(ctx(), forms.Options{Title: "A form with many fields", Build: build,
		Dirty: func() bool { return true },
		Submit: func() (int, tea.Cmd, error) {
			return 0, nil, errors.New("the whole form is wrong, and this message is long enough to wrap onto a second line")
		}}), w, h)
	checkFits(t, p.M.View(), h)
	// Make every field wrong: tab to the last one, then type and go back (leaving a field
	// checks it).
	for range len(vals) - 1 {
		p.Batch("tab")
	}
	for range len(vals) - 1 {
		p.Batch("bad", "shift+tab")
		checkFits(t, p.M.View(), h)
	}
	p.Batch("ctrl+s")
	checkFits(t, p.M.View(), h)
	if v := p.M.View(); !strings.Contains(v, "more problems") {
		t.Fatalf("the errors are not summarised:\n%s", v)
	}
	p.Batch("esc") // the discard question fits too, in full
	v := p.M.View()
	checkFits(t, v, h)
	if flat := strings.Join(strings.Fields(strings.ReplaceAll(v, "│", "")), " "); !strings.Contains(flat, "any other key keeps editing") {
		t.Fatalf("the discard question is cut:\n%s", v)
	}
	p.Batch("n")
	if !strings.Contains(p.M.View(), "Field") {
		t.Fatalf("the form is gone after keeping it:\n%s", p.M.View())
	}
}

func TestShortFormIsNotStretched(t *testing.T) {
	var v person
	p := newProgram(forms.New(ctx(), forms.Options{Title: "Person", Build: personForm(&v),
		Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }}), 196, 46)
	if n := strings.Count(p.M.View(), "\n") + 1; n > 16 {
		t.Fatalf("a two-field form takes %d lines:\n%s", n, p.M.View())
	}
}

func TestMultiSelectHelpNamesSpace(t *testing.T) {
	var picked []string
	p := newProgram(forms.New(ctx(), forms.Options{Title: "Topics", Build: func() *huh.Form {
		return huh.NewForm(huh.NewGroup(huh.NewMultiSelect[string]().Title("Topics (space toggles)").
			Options(huh.NewOptions("billing", "shipping")...).Value(&picked)))
	}, Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }}), 76, 40)
	v := p.M.View()
	if !strings.Contains(v, "space toggle") || strings.Contains(v, "x toggle") {
		t.Fatalf("the help does not name the space key:\n%s", v)
	}
	p.Batch(" ")
	if len(picked) != 1 || picked[0] != "billing" {
		t.Fatalf("space did not toggle: %v", picked)
	}
}

func TestFieldMessagesNameTheirField(t *testing.T) {
	var name, email string
	valid := func(s string) error {
		if s != "" && !strings.Contains(s, "@") {
			return fmt.Errorf("%q is not an email address", s)
		}
		return nil
	}
	p := newProgram(forms.New(ctx(), forms.Options{Title: "Person", Build: func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewInput().Title("Name").Value(&name),
			huh.NewInput().Title("Email").Value(&email).Validate(forms.Labelled("Email", valid))))
	}, Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }}), 76, 40)
	p.Batch("tab", "x", "shift+tab") // leaving the field checks it
	if v := p.M.View(); !strings.Contains(v, `✗ Email: "x" is not an email address`) {
		t.Fatalf("the field's message does not name it:\n%s", v)
	}
	p.Batch("tab", "@y.org", "shift+tab")
	if v := p.M.View(); strings.Contains(v, "✗") {
		t.Fatalf("the message stays after the fix:\n%s", v)
	}
}

// huh refuses to leave a group with an error, after it has blurred the field the user left:
// the modal focuses that field again, so typing goes on.
func TestRefusedGroupChangeKeepsAFieldFocused(t *testing.T) {
	vals := make([]string, 3)
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(huh.NewInput().Title("First").Value(new(string))), huh.NewGroup(badInputs(vals, "%q is bad")...))
	}
	p := newProgram(forms.New(ctx(), forms.Options{Title: "x", Build: build,
		Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }}), 76, 30)
	// Into the second group; a bad value, which tab refuses; back, refused too; more text.
	p.Batch("tab", "bad", "tab", "shift+tab", "shift+tab", "Z")
	if vals[0] != "badZ" {
		t.Fatalf("after a refused move the typing was lost: %q\n%s", vals, p.M.View())
	}
	// ctrl+s with the focus on the wrong field itself: it stays focused.
	p.Batch("ctrl+s", "Y")
	if vals[0] != "badZY" {
		t.Fatalf("after ctrl+s the typing was lost: %q\n%s", vals, p.M.View())
	}
}

// Every form takes the submit key (ctrl+s) from any field, and its help line says so.
func TestCtrlSSubmitsEveryFormFromAnyField(t *testing.T) {
	var v person
	submits := 0
	m := forms.New(ctx(), forms.Options{Title: "Person", Build: personForm(&v),
		Submit: func() (int, tea.Cmd, error) { submits++; return 0, nil, nil }})
	p := newProgram(m, 76, 40)
	if view := ansi.Strip(m.View()); !strings.Contains(view, "ctrl+s submit") {
		t.Fatalf("the help line does not name ctrl+s:\n%s", view)
	}
	p.Batch("Zed", "ctrl+s")
	if submits != 1 || v.name != "Zed" {
		t.Fatalf("ctrl+s on the first field: %d submits, values %+v", submits, v)
	}

	// The submit key is the keymap's Submit binding: rebound (config keys: {submit: f2}),
	// f2 submits, ctrl+s no longer does, and the help line and the messages name f2.
	c := ctx()
	if err := c.Keys.Apply(map[string][]string{"submit": {"f2"}}); err != nil {
		t.Fatal(err)
	}
	own := 0
	m2 := forms.New(c, forms.Options{Title: "Person", Build: personForm(new(person)),
		Submit: func() (int, tea.Cmd, error) { own++; return 0, nil, nil }})
	p2 := newProgram(m2, 76, 40)
	if view := ansi.Strip(m2.View()); !strings.Contains(view, "f2 submit") || strings.Contains(view, "ctrl+s") {
		t.Fatalf("the help line does not name the rebound key:\n%s", view)
	}
	p2.Batch("ctrl+s")
	if own != 0 {
		t.Fatalf("ctrl+s submitted a form whose submit key is f2 (%d submits)", own)
	}
	p2.Deliver(tea.KeyPressMsg{Code: tea.KeyF2})
	if own != 1 {
		t.Fatalf("f2, the rebound submit key, did not submit (%d submits)", own)
	}
}

// A text field filled through Prefill shows U+FFFD (the stand-in of C1 controls and invalid
// UTF-8 in sanitized text) as the rest of the screen does, keeps its value while untouched,
// and FromField gives back the text with the typed additions.
func TestPrefilledFieldShowsReplacementCharacters(t *testing.T) {
	const shown = "␛[0m�2J"
	v := forms.Prefill(shown)
	initial := v
	p := newProgram(forms.New(ctx(), forms.Options{Title: "Name", Build: func() *huh.Form {
		return huh.NewForm(huh.NewGroup(huh.NewInput().Title("Name").Value(&v)))
	}, Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }}), 76, 20)
	if view := ansi.Strip(p.M.View()); !strings.Contains(view, "> "+shown) {
		t.Fatalf("the field does not show %q:\n%s", shown, view)
	}
	p.Batch("end")
	p.Deliver(tea.KeyPressMsg{Code: tea.KeyLeft}) // moves only: the value is what the field was filled with
	if v != initial {
		t.Fatalf("the untouched field holds %q, was filled with %q", v, initial)
	}
	p.Batch("end", "x")
	if got := forms.FromField(v); got != shown+"x" {
		t.Fatalf("FromField = %q, want %q", got, shown+"x")
	}
}

// Several printable keys read together ("jjj") arrive from the input reader one message a
// key, before what the first started has run: a list moves three rows and the space after
// them toggles the fourth option. A bracketed paste stays whole: it moves no list, and goes
// into a text field as it is.
func TestKeysReadTogetherMoveLists(t *testing.T) {
	var picked []string
	var status, note string
	p := newProgram(forms.New(ctx(), forms.Options{Title: "Lists", Build: func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewMultiSelect[string]().Title("Topics").Value(&picked).Options(huh.NewOptions("a", "b", "c", "d", "e")...),
			huh.NewSelect[string]().Title("Status").Value(&status).Options(huh.NewOptions("new", "pending", "ended")...),
			huh.NewInput().Title("Note").Value(&note),
		))
	}, Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }}), 76, 40)

	p.Read(t, "jjj")
	p.Deliver(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	if !reflect.DeepEqual(picked, []string{"d"}) {
		t.Fatalf("jjj then space picked %q, want the fourth option", picked)
	}
	p.Batch("tab")
	p.Read(t, "jj\x1b[200~kk\x1b[201~") // the pasted kk: not key presses
	p.Batch("tab")
	if status != "ended" {
		t.Fatalf("jj (and a pasted kk) on the status select chose %q, want the third option", status)
	}
	p.Read(t, "\x1b[200~a  b\x1b[201~cd")
	if note != "a  bcd" {
		t.Fatalf("the note holds %q, want the paste and the keys after it", note)
	}
}

// A multi-select option wider than the form stays on its line, cut with "…" at the width
// the box has (also after a resize), instead of wrapping under the field's border.
func TestLongOptionsAreCutToTheBox(t *testing.T) {
	long := "␛[2J" + strings.Repeat("W", 120)
	picked := []string{long}
	m := forms.New(ctx(), forms.Options{Title: "Topics", Width: 64, Build: func() *huh.Form {
		return huh.NewForm(huh.NewGroup(huh.NewMultiSelect[string]().Title("Topics").Value(&picked).
			Options(huh.NewOptions("Billing", long, "Shipping")...)))
	}, Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }})
	p := newProgram(m, 76, 20)
	for _, w := range []int{76, 48} {
		p.M.SetSize(w, 20)
		v := ansi.Strip(p.M.View())
		lines := strings.Split(v, "\n")
		box := ansi.StringWidth(lines[0])
		var found bool
		for _, l := range lines {
			if lw := ansi.StringWidth(l); lw != box {
				t.Fatalf("width %d: a line is %d wide, the box %d:\n%s", w, lw, box, v)
			}
			if strings.Contains(l, "WWW") && !strings.Contains(l, "␛[2JW") {
				t.Fatalf("width %d: the long option wrapped:\n%s", w, v)
			}
			if strings.Contains(l, "␛[2JW") {
				found = true
				if !strings.Contains(l, "W… ") && !strings.HasSuffix(strings.TrimRight(l, "│ "), "W…") {
					t.Fatalf("width %d: the long option is not cut with …:\n%s", w, v)
				}
			}
		}
		if !found {
			t.Fatalf("width %d: the long option is not shown:\n%s", w, v)
		}
	}
	if !reflect.DeepEqual(picked, []string{long}) {
		t.Fatalf("the value changed: %q", picked)
	}
}

// The discard question takes the keymap's yes key (y; never enter, which moves between
// fields), and a rebound yes key, named in the question, in place of y.
func TestDiscardQuestionTakesTheYesKey(t *testing.T) {
	for _, tc := range []struct {
		yes       []string // nil: the default binding (y, enter)
		named     string   // the key the question names
		no, discs string   // a key that keeps editing, one that discards
	}{
		{nil, "y discards", "enter", "Y"},
		{[]string{"o"}, "o discards", "y", "o"},
	} {
		c := ctx()
		if tc.yes != nil {
			if err := c.Keys.Apply(map[string][]string{"yes": tc.yes}); err != nil {
				t.Fatal(err)
			}
		}
		var v person
		m := forms.New(c, forms.Options{Title: "Person", Build: personForm(&v), Dirty: func() bool { return v.name != "" },
			Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }})
		p := newProgram(m, 76, 40)
		typed(p, "Zed")
		p.Batch("esc")
		if view := ansi.Strip(m.View()); !strings.Contains(view, "Discard your changes? "+tc.named) {
			t.Fatalf("yes %v: the question does not name %q:\n%s", tc.yes, tc.named, view)
		}
		p.Batch(tc.no)
		if v.name != "Zed" || viewtest.Closed(c) {
			t.Fatalf("yes %v: %q discarded", tc.yes, tc.no)
		}
		p.Batch("esc", tc.discs)
		if !viewtest.Closed(c) {
			t.Fatalf("yes %v: %q did not discard:\n%s", tc.yes, tc.discs, ansi.Strip(m.View()))
		}
	}
}

// hoveredOption is the option under the cursor of the focused select or multi-select.
func hoveredOption(t *testing.T, m *forms.Modal) string {
	t.Helper()
	switch f := m.Form().GetFocusedField().(type) {
	case *huh.Select[string]:
		v, _ := f.Hovered()
		return v
	case *huh.MultiSelect[string]:
		v, _ := f.Hovered()
		return v
	}
	t.Fatalf("the focused field is a %T", m.Form().GetFocusedField())
	return ""
}

// A form's selects and multi-selects move, filter and mark with the keymap's keys: rebound
// (config keys: {down: [v, down], up: [u, up], mark: [x], search: [?]}; toggle_read leaves u), v and u move and
// j and k no longer do, "vv" read together moves two options, x marks and space no longer
// does, and the help line names the rebound keys. While a select's filter takes text, a
// rebound printable key is text and moves nothing.
func TestSelectsTakeTheKeymapsKeys(t *testing.T) {
	c := ctx()
	if err := c.Keys.Apply(map[string][]string{"down": {"v", "down"}, "up": {"u", "up"}, "mark": {"x"}, "search": {"?"}, "help": {"f1"},
		"toggle_read": {"ctrl+r"}}); err != nil { // u is read/unread by default
		t.Fatal(err)
	}
	var pick string
	var marks []string
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewSelect[string]().Title("Pick").Options(huh.NewOptions("a", "b", "c", "d", "va", "vb", "xa")...).Value(&pick),
			huh.NewMultiSelect[string]().Title("Marks").Options(huh.NewOptions("m1", "m2", "m3")...).Value(&marks),
		))
	}
	m := forms.New(c, forms.Options{Title: "Keys", Build: build, Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }})
	p := newProgram(m, 76, 40)
	step := func(keys []string, want string) {
		t.Helper()
		p.Batch(keys...)
		if got := hoveredOption(t, m); got != want {
			t.Fatalf("after %q the cursor is on %q, want %q\n%s", keys, got, want, ansi.Strip(m.View()))
		}
	}
	step([]string{"j"}, "a") // j is no longer down
	step([]string{"v"}, "b")
	step([]string{"vv"}, "d") // read together: two options
	step([]string{"u"}, "c")
	step([]string{"k"}, "c")
	if view := ansi.Strip(m.View()); !strings.Contains(view, "u/↑") || !strings.Contains(view, "v/↓") || strings.Contains(view, "j/↓") {
		t.Fatalf("the help line does not name the rebound keys:\n%s", view)
	}

	// The filter opens with the search key; v typed into it is text: two options are left
	// and the cursor stays on the first; the help line names down by its other key.
	step([]string{"g"}, "a")
	step([]string{"?", "v"}, "va")
	if sel := m.Form().GetFocusedField().(*huh.Select[string]); !sel.GetFiltering() {
		t.Fatal("? did not open the select's filter")
	}
	if view := ansi.Strip(m.View()); !strings.Contains(view, "↓ down") || strings.Contains(view, "v/↓") {
		t.Fatalf("while filtering, the help line names v as down:\n%s", view)
	}
	step([]string{"down"}, "vb")

	// The multi-select marks with the mark key.
	p.Batch("enter")
	step([]string{" "}, "m1")
	if len(marks) != 0 {
		t.Fatalf("space marked %q: the mark key is x", marks)
	}
	step([]string{"v", "x"}, "m2")
	p.Batch("ctrl+s")
	if pick != "vb" || !slices.Equal(marks, []string{"m2"}) {
		t.Fatalf("submitted pick %q, marks %q; want vb and [m2]", pick, marks)
	}
}
