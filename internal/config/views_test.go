package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseViews(t *testing.T) {
	data := `theme: dark
views:
  - name: New
    screen: conversations
    status: new
    ordering: -last_message_sent_at
  - name: Unverified
    screen: contacts
    search: acme
    filters:
      verified: false
      email: a@b.example
`
	c, err := Parse([]byte(data), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []View{
		{Name: "New", Screen: ViewConversations, Status: "new", Ordering: "-last_message_sent_at", Line: 3},
		{Name: "Unverified", Screen: ViewContacts, Search: "acme", Filters: map[string]string{"verified": "false", "email": "a@b.example"}, Line: 7},
	}
	if len(c.Views) != len(want) {
		t.Fatalf("views %+v", c.Views)
	}
	for i := range want {
		if !c.Views[i].Same(want[i]) || c.Views[i].Line != want[i].Line {
			t.Errorf("view %d = %+v, want %+v", i, c.Views[i], want[i])
		}
	}
}

func TestParseBadViewsHaveLines(t *testing.T) {
	data := `theme: dark
views:
  - name: New
    screen: conversations
    status: fresh
  - name: all
    screen: contacts
  - screen: operators
    name: Ops
  - name: Topic
    screen: conversations
    filters: {topics: four, colour: red}
  - name: Sorted
    screen: contacts
    ordering: -last_message_sent_at
    colour: red
  - name: new
    screen: conversations
  - name: New
    screen: conversations
`
	_, err := Parse([]byte(data), "c.yaml")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *Error", err)
	}
	got := err.Error()
	for _, want := range []string{
		`c.yaml:3: views: view "New": status "fresh" is not new, pending or ended`,
		`c.yaml:6: views: "all" is the built-in view`,
		`c.yaml:8: views: view "Ops": screen must be conversations or contacts`,
		`c.yaml:10: views: view "Topic": unknown conversations filter "colour"`,
		`c.yaml:10: views: view "Topic": topics: "four" is not a positive integer id`,
		`c.yaml:16: views: unknown key "colour"`,
		`c.yaml:19: views: conversations view "New" is there twice (first on line 17)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if _, err := Parse([]byte("views: {name: x}\n"), "c.yaml"); err == nil || !strings.Contains(err.Error(), "c.yaml:1: views must be a list") {
		t.Errorf("a mapping for views: %v", err)
	}
}

const commented = `# my parley settings
theme: dark   # dark terminal

# saved views, most used first
views:
  # triage
  - name: New
    screen: conversations
    status: new   # fresh ones
  # lookups
  - name: Acme
    screen: contacts
    search: acme

# the hub
serve:
  addr: 127.0.0.1:2222 # local only
# trailing words
`

func TestAddViewKeepsCommentsAndOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(commented), 0o600); err != nil {
		t.Fatal(err)
	}
	v := View{Name: "Topic 4", Screen: ViewConversations, Status: "pending", Ordering: "-id",
		Filters: map[string]string{"topics": "4", "um_widget_id": "2"}}
	if err := AddView(path, v); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	added := `  - name: Topic 4
    screen: conversations
    status: pending
    ordering: -id
    filters:
      topics: "4"
      um_widget_id: "2"
`
	want := strings.Replace(commented, "    search: acme\n", "    search: acme\n"+added, 1)
	if string(got) != want {
		t.Fatalf("file after AddView:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's 0600", fi.Mode().Perm())
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Views) != 3 || !c.Views[2].Same(v) || c.Views[0].Name != "New" || c.Views[1].Name != "Acme" {
		t.Fatalf("views read back: %+v", c.Views)
	}

	// The same name on the same screen replaces that view, in its place.
	again := View{Name: "new", Screen: ViewConversations, Status: "ended"}
	if err := AddView(path, again); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	want = strings.Replace(want, "  - name: New\n    screen: conversations\n    status: new   # fresh ones\n",
		"  - name: new\n    screen: conversations\n    status: ended\n", 1)
	if string(got) != want {
		t.Fatalf("file after replacing a view:\n%s\nwant:\n%s", got, want)
	}
}

func TestAddViewToFileWithout(t *testing.T) {
	dir := t.TempDir()
	v := View{Name: "Pending", Screen: ViewConversations, Status: "pending"}

	// A file with no views: section gets one at its end.
	path := filepath.Join(dir, "a.yaml")
	body := "# keep me\ntheme: mono # and me\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AddView(path, v); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := body + "\nviews:\n  - name: Pending\n    screen: conversations\n    status: pending\n"; string(got) != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}

	// An empty views: key takes the view below it.
	path = filepath.Join(dir, "b.yaml")
	body = "views:\ntheme: mono\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AddView(path, v); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if want := "views:\n  - name: Pending\n    screen: conversations\n    status: pending\ntheme: mono\n"; string(got) != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}

	// A missing file is made from the commented example, which then reads as that one view.
	path = filepath.Join(dir, "new", "c.yaml")
	if err := AddView(path, v); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if !strings.HasPrefix(string(got), string(Example())) {
		t.Errorf("the example is not kept:\n%s", got)
	}
	c, err := Load(path)
	if err != nil || len(c.Views) != 1 || !c.Views[0].Same(v) {
		t.Fatalf("read back %+v, %v", c.Views, err)
	}
}

func TestAddViewRefusesAndKeepsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	broken := "theme: [\n"
	if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AddView(path, View{Name: "x", Screen: ViewContacts}); err == nil {
		t.Fatal("a broken file was edited")
	}
	if got, _ := os.ReadFile(path); string(got) != broken {
		t.Fatalf("broken file changed: %q", got)
	}
	for _, bad := range []View{{Name: "", Screen: ViewContacts}, {Name: "All", Screen: ViewContacts},
		{Name: "x", Screen: ViewContacts, Status: "new"}} {
		if err := AddView(filepath.Join(dir, "none.yaml"), bad); err == nil {
			t.Errorf("view %+v accepted", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none.yaml")); err == nil {
		t.Error("a refused view wrote a file")
	}
}

// A view holds what its list's declaration takes: the contacts list has no id ordering
// to send (the API answers 400) but its own order, id descending, which it names -id, a date is a date or ISO 8601 and never empty, a yes/no is true or
// false, a text what its check accepts.
func TestViewValuesFollowTheListDeclaration(t *testing.T) {
	for _, tc := range []struct {
		v    View
		want string // "" = accepted
	}{
		{View{Name: "a", Screen: ViewConversations, Ordering: "contact_last_update_at"}, ""},
		{View{Name: "a", Screen: ViewConversations, Filters: map[string]string{"updated_at_from_date": "2026-03-01T09:00:00Z"}}, ""},
		{View{Name: "a", Screen: ViewContacts, Ordering: "id"}, `"id" is not a contacts ordering (known: -id, -created_at, created_at, name, -name, email, -email)`},
		{View{Name: "a", Screen: ViewContacts, Ordering: "-id"}, ""}, // the server's own order, sent as none
		{View{Name: "a", Screen: ViewContacts, Ordering: "-name"}, ""},
		{View{Name: "a", Screen: ViewConversations, Filters: map[string]string{"updated_at_from_date": ""}}, `updated_at_from_date: "" is not a date or a time`},
		{View{Name: "a", Screen: ViewConversations, Filters: map[string]string{"last_activity_to_date": "7d"}}, `last_activity_to_date: "7d" is not a date or a time`},
		{View{Name: "a", Screen: ViewContacts, Filters: map[string]string{"verified": "yes"}}, `verified: "yes" is not true or false`},
		{View{Name: "a", Screen: ViewContacts, Filters: map[string]string{"email": "anna@"}}, `email: "anna@" is not an email address`},
		{View{Name: "a", Screen: ViewContacts, Filters: map[string]string{"status": "new"}}, `status has a key of its own`},
		{View{Name: "a", Screen: ViewContacts, Filters: map[string]string{"topics": "4"}}, `unknown contacts filter "topics" (known: email, from_date_time, id, locale, name, to_date_time, verified)`},
	} {
		err := CheckView(tc.v)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.v, err, tc.want)
		}
	}
}

// The built-in views come first unless the file names them: an entry of a built-in's
// name without a query puts it there, hidden: true leaves it out, and one with a query of
// its own replaces it.
func TestShownViews(t *testing.T) {
	names := func(vs []View) string {
		var out []string
		for _, v := range vs {
			out = append(out, v.Name)
		}
		return strings.Join(out, ",")
	}
	shown := ShownViews(nil)
	if names(shown) != "Mine,New" || shown[0].Filters["operator_id"] != OperatorMe || shown[1].Status != "new" {
		t.Fatalf("without a file: %+v", shown)
	}
	c, err := Parse([]byte(`views:
  - name: Billing
    screen: conversations
    filters: {topics: 4}
  - name: mine
    screen: conversations
  - name: New
    screen: conversations
    hidden: true
  - name: Leads
    screen: contacts
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	shown = ShownViews(c.Views)
	if names(shown) != "Billing,Mine,Leads" || shown[1].Filters["operator_id"] != OperatorMe || shown[1].Line != 5 {
		t.Fatalf("placed and hidden: %+v", shown)
	}
	c, err = Parse([]byte("views:\n  - name: New\n    screen: conversations\n    status: pending\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if shown = ShownViews(c.Views); names(shown) != "Mine,New" || shown[1].Status != "pending" {
		t.Fatalf("replaced: %+v", shown)
	}
}

// operator_id takes an id or me; hidden is true or false, and is written back.
func TestOperatorMeAndHidden(t *testing.T) {
	if err := CheckViewValue(ViewConversations, "operator_id", "me"); err != nil {
		t.Error(err)
	}
	if err := CheckViewValue(ViewConversations, "operator_id", "you"); err == nil || !strings.Contains(err.Error(), "nor me") {
		t.Errorf("operator_id you: %v", err)
	}
	_, err := Parse([]byte("views:\n  - name: Mine\n    screen: conversations\n    hidden: perhaps\n"), "c.yaml")
	if err == nil || !strings.Contains(err.Error(), `c.yaml:4: views: hidden: "perhaps" is not true or false`) {
		t.Errorf("a bad hidden: %v", err)
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := AddView(path, View{Name: "New", Screen: ViewConversations, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || len(c.Views) != 1 || !c.Views[0].Hidden {
		t.Fatalf("written and read back: %+v, %v", c.Views, err)
	}
}

// An "all" entry holds only a screen and an ordering: the default order of that screen's
// list. It is no view of its own in the row.
func TestAllEntryGivesTheDefaultOrder(t *testing.T) {
	data := `views:
  - name: all
    screen: conversations
    ordering: -id
  - name: All
    screen: contacts
    ordering: name
  - name: New
    screen: conversations
    status: new
`
	c, err := Parse([]byte(data), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := DefaultOrderings(c.Views)
	if len(got) != 2 || got[ViewConversations] != "-id" || got[ViewContacts] != "name" {
		t.Errorf("default orderings %v", got)
	}
	for _, v := range ShownViews(c.Views) {
		if strings.EqualFold(v.Name, AllView) {
			t.Errorf("the all entry is shown as a view: %+v", v)
		}
	}
	for _, bad := range []string{
		"views:\n  - {name: all, screen: conversations}\n",
		"views:\n  - {name: all, screen: conversations, ordering: -id, status: new}\n",
		"views:\n  - {name: all, screen: contacts, ordering: -id, search: acme}\n",
		"views:\n  - {name: all, screen: contacts, ordering: -last_message_sent_at}\n",
	} {
		if _, err := Parse([]byte(bad), "c.yaml"); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
