package forms_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

type sentContacts struct{ f client.ContactFilter }

func contactFilterForm(f client.ContactFilter) *viewtest.ModalRun {
	m := forms.Filter(ctx(), client.Contacts, f, forms.FilterOptions[client.ContactFilter]{
		Title: "Filter contacts", Width: 64,
		Send: func(f client.ContactFilter) tea.Msg { return sentContacts{f} },
	})
	return viewtest.RunModal(m, 76, 40, func(msg tea.Msg) bool { _, ok := msg.(sentContacts); return ok })
}

// The form of a list's filters is its declaration: a field a parameter under the group's
// title in the declared order, each holding the filter's value as a person reads it.
func TestFilterFormFollowsTheDeclaration(t *testing.T) {
	yes := true
	r := contactFilterForm(client.ContactFilter{ID: 42, Locale: "de_DE", Verified: &yes})
	v := r.M.View()
	last := -1
	for _, label := range []string{"Who", "Name", "Email", "Contact id", "42", "Locale", "de_DE"} {
		i := strings.Index(v, label)
		if i <= last {
			t.Fatalf("%q is not after what comes before it:\n%s", label, v)
		}
		last = i
	}
	// To the second group and submit: the values go out as they came.
	r.Batch("enter", "enter", "enter", "enter", "ctrl+s")
	if len(r.Out) != 1 {
		t.Fatalf("sent %v:\n%s", r.Out, r.M.View())
	}
	got := r.Out[0].(sentContacts).f
	if got.ID != 42 || got.Locale != "de_DE" || got.Verified == nil || !*got.Verified || got.Name != "" {
		t.Errorf("sent %+v", got)
	}
}

// A check across parameters is shown, and nothing is sent while it fails.
func TestFilterFormChecksTheParametersTogether(t *testing.T) {
	r := contactFilterForm(client.ContactFilter{})
	r.Batch("enter", "enter", "enter", "enter") // to the second group
	r.Batch("2026-03-02", "enter", "2026-03-01", "ctrl+s")
	if v := strings.Join(strings.Fields(r.M.View()), " "); len(r.Out) != 0 ||
		!strings.Contains(v, "active after (2026-03-02) must be before active before │ │ (2026-03-01)") {
		t.Fatalf("sent %v:\n%s", r.Out, v)
	}
}
