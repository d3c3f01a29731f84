package writes

import (
	"encoding/json"
	"testing"

	"github.com/parley-tui/parley/client"
)

// Every writable text field and flag goes into the update's field the API calls by its
// name, every field of an update is offered, and each flag reads the contact's own.
func TestContactFieldsGoWhereTheirNameSays(t *testing.T) {
	var u client.ContactUpdate
	for _, f := range ContactTexts {
		if err := f.Set(&u, "v-"+f.Name); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
	for i, f := range ContactFlags {
		v := i%2 == 0
		*f.Dst(&u) = &v
	}
	got := u.Fields()
	for _, f := range ContactTexts {
		if v := got[f.Name]; v != f.Normalize("v-"+f.Name) {
			t.Errorf("text %s: sent %v", f.Name, v)
		}
	}
	for i, f := range ContactFlags {
		if v := got[f.Name]; v != (i%2 == 0) {
			t.Errorf("flag %s: sent %v", f.Name, v)
		}
	}
	if want := len(ContactTexts) + len(ContactFlags); len(got) != want {
		t.Errorf("an update of every offered field sends %d fields, want %d: %v", len(got), want, got)
	}
	if n := len(u.Texts()) + len(u.ContactBy()); n != len(got) {
		t.Errorf("the update has %d fields, the forms offer %d", n, len(got))
	}
	for i, f := range ContactFlags {
		raw, err := json.Marshal(map[string]bool{f.Name: true})
		if err != nil {
			t.Fatal(err)
		}
		var c client.Contact
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		for j, g := range ContactFlags {
			if g.Of(c) != (i == j) {
				t.Errorf("contact with only %s: %s reads %v", f.Name, g.Name, g.Of(c))
			}
		}
	}
}
