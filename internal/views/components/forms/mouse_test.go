package forms_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// lineOf is the line of the box where text is drawn (-1: nowhere).
func lineOf(view, text string) int {
	for i, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, text) {
			return i
		}
	}
	return -1
}

// clickOn sends a left press on the line of the box that shows text.
func clickOn(t *testing.T, p *viewtest.ModalRun, text string) {
	t.Helper()
	y := lineOf(p.M.View(), text)
	if y < 0 {
		t.Fatalf("%q is not in the form:\n%s", text, p.M.View())
	}
	p.Deliver(tea.MouseClickMsg{X: 6, Y: y, Button: tea.MouseLeft})
}

type contact struct{ name, email, phone, notes string }

// A click on a field focuses it, before or after the focused one, its title or its input
// line, a multi-line field included; a click between two fields, on the group's title, on
// the help below the form or outside the box moves nothing. What was typed stays.
func TestClickFocusesTheFieldClicked(t *testing.T) {
	var v contact
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewInput().Title("Name").Value(&v.name),
			huh.NewInput().Title("Email").Value(&v.email),
			huh.NewText().Title("Notes").Lines(3).Value(&v.notes),
			huh.NewInput().Title("Phone").Value(&v.phone),
		).Title("Contact"))
	}
	m := forms.New(ctx(), forms.Options{Title: "Edit contact", Build: build,
		Submit: func() (int, tea.Cmd, error) { return 0, nil, nil }})
	p := newProgram(m, 76, 40)
	typeAt := func(field, text string) {
		t.Helper()
		clickOn(t, p, field)
		p.Batch(text)
	}
	typeAt("Phone", "1")
	typeAt("Email", "e")
	typeAt("Notes", "n")
	typeAt("Name", "a")
	want := contact{name: "a", email: "e", phone: "1", notes: "n"}
	if v != want {
		t.Fatalf("typed after clicks on the fields: %+v, want %+v", v, want)
	}

	// The input line under a title, and the third line of the notes.
	y := lineOf(p.M.View(), "Phone")
	p.Deliver(tea.MouseClickMsg{X: 6, Y: y + 1, Button: tea.MouseLeft})
	p.Batch("2")
	y = lineOf(p.M.View(), "Notes")
	p.Deliver(tea.MouseClickMsg{X: 6, Y: y + 3, Button: tea.MouseLeft})
	p.Batch("m")
	if v.phone != "12" || v.notes != "nm" {
		t.Fatalf("clicks on the lines below the titles: %+v", v)
	}

	clickOn(t, p, "Phone")
	before := v
	for _, y := range []int{lineOf(p.M.View(), "Email") - 1, lineOf(p.M.View(), "Contact"),
		len(strings.Split(p.M.View(), "\n")) - 2, 0, 200} {
		p.Deliver(tea.MouseClickMsg{X: 6, Y: y, Button: tea.MouseLeft})
		p.Batch("z")
		if v.phone != before.phone+"z" {
			t.Fatalf("a click on line %d moved the focus: %+v\n%s", y, v, p.M.View())
		}
		before = v
	}
	p.Deliver(tea.MouseWheelMsg{X: 6, Y: lineOf(p.M.View(), "Name"), Button: tea.MouseWheelUp})
	p.Batch("w")
	if v.phone != before.phone+"w" {
		t.Fatalf("the wheel moved the focus: %+v", v)
	}
}
