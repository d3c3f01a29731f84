package contacts_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sanitize"
)

// enterUntilSubmit presses enter (next field, then submit on the last) until the form
// starts its task (returned unrun) or asks ctx to close it (the messages are returned).
func enterUntilSubmit(t *testing.T, ctx *common.Ctx, m common.Modal) (common.Modal, tea.Cmd, []tea.Msg) {
	t.Helper()
	for i := 0; i < 40; i++ {
		var cmd tea.Cmd
		var out []tea.Msg
		m, cmd, out = drive(m, viewtest.Key("enter"))
		if isSubmitting(m) {
			return m, cmd, out
		}
		if viewtest.Closed(ctx) {
			return m, nil, out
		}
	}
	return m, nil, nil
}

// save presses ctrl+s.
func save(m common.Modal) (common.Modal, tea.Cmd, []tea.Msg) { return drive(m, viewtest.Key("ctrl+s")) }

// saveDone presses ctrl+s in form m, which must start the save, and runs the save, which
// must succeed.
func saveDone(t *testing.T, m common.Modal) {
	t.Helper()
	m, cmd, _ := save(m)
	if cmd == nil {
		t.Fatalf("ctrl+s started nothing:\n%s", m.View())
	}
	if d := task(t, cmd); d.Err != nil {
		t.Fatalf("task: %v", d.Err)
	}
}

func task(t *testing.T, cmd tea.Cmd) common.TaskDoneMsg {
	t.Helper()
	d, ok := find[common.TaskDoneMsg](viewtest.Run(cmd, wait))
	if !ok {
		t.Fatal("no task result")
	}
	return d
}

func bodyOf(t *testing.T, s viewtest.Sent) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s.Body), &m); err != nil {
		t.Fatalf("body %q: %v", s.Body, err)
	}
	return m
}

func TestEditFormPrefillsAndSendsOnlyChanges(t *testing.T) {
	t.Parallel()
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool {
		return client.Str(c.Name) != "" && client.Str(c.Company) != "" && client.Str(c.Email) != ""
	})
	m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
	v := m.View()
	if !strings.Contains(v, client.Str(ct.Name)) || !strings.Contains(v, client.Str(ct.Email)) {
		t.Fatalf("not prefilled with %q, %q:\n%s", client.Str(ct.Name), client.Str(ct.Email), v)
	}
	// Untouched: nothing to send, the form closes saying so.
	_, _, msgs := enterUntilSubmit(t, e.ctx, openModal(contacts.NewEditForm(e.ctx, ct), 76, 40))
	if toast, ok := find[common.ToastMsg](msgs); !ok || !strings.Contains(toast.Text, "Nothing changed") {
		t.Fatalf("untouched form: %#v", msgs)
	}
	if n := len(e.rec.Requests("PATCH", "/contact_identities/")); n != 0 {
		t.Fatalf("untouched form sent %d PATCHes", n)
	}

	// Rename (field 1) and clear the company (field 5): exactly those two are sent.
	m = press(m, "ctrl+u")
	m = typeInto(m, "Renamed Person")
	m = press(m, "tab", "tab", "tab", "tab", "ctrl+u")
	m, cmd, _ := save(m)
	if !strings.Contains(m.View(), "Saving") {
		t.Fatalf("no saving state:\n%s", m.View())
	}
	d := task(t, cmd)
	if d.Err != nil || d.Kind != contacts.KindUpdated {
		t.Fatalf("task: %+v", d)
	}
	patches := e.rec.Requests("PATCH", "/contact_identities/")
	if len(patches) != 1 {
		t.Fatalf("%d PATCHes", len(patches))
	}
	body := bodyOf(t, patches[0])
	if len(body) != 2 || body["name"] != "Renamed Person" || body["company"] != nil {
		t.Fatalf("PATCH body %s: want only name and company (null)", patches[0].Body)
	}
	if _, ok := body["company"]; !ok {
		t.Fatalf("PATCH body %s lacks company: null", patches[0].Body)
	}
	got := d.Result.(client.Contact)
	if client.Str(got.Name) != "Renamed Person" || got.Company != nil || client.Str(got.Email) != client.Str(ct.Email) {
		t.Fatalf("contact after PATCH: name %q company %v email %q", client.Str(got.Name), got.Company, client.Str(got.Email))
	}
	drive(m, d)
	if !viewtest.Closed(e.ctx) {
		t.Fatal("the form did not close on success")
	}
}

func TestEditFormValidatesBeforeSending(t *testing.T) {
	t.Parallel()
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Email) != "" })

	// Typed into a field: the field says what is wrong and keeps the focus.
	m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
	m = press(m, "tab", "ctrl+u")
	m = typeInto(m, "not-an-email")
	m = press(m, "enter", "enter", "ctrl+s")
	if isSubmitting(m) {
		t.Fatal("submitted an invalid email")
	}
	if v := m.View(); !strings.Contains(v, "not an email address") || !strings.Contains(v, "not-an-email") {
		t.Fatalf("no visible message, or the text is gone:\n%s", v)
	}

	// Typed into a field and saved right away with ctrl+s: the field is checked before
	// anything is sent, and the message names it.
	for _, tc := range []struct {
		field int // in the form's order (the contact-by flags are field 13)
		typed string
		want  string
	}{
		{10, "Germany", "Country: \"Germany\": the country is a two-letter code"},
		{11, "german", "Locale: \"german\": the locale has the form ll_CC"},
		{16, "ftp://x.example/me", "Twitter URL: \"ftp://x.example/me\" is not a web address"},
		{11, "", "locale: a contact always has one"}, // clearing the locale is refused
	} {
		m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
		for range tc.field {
			m = press(m, "tab")
		}
		m = typeInto(press(m, "ctrl+u"), tc.typed)
		m, cmd, _ := save(m)
		if isSubmitting(m) || cmd != nil {
			t.Fatalf("%q: submitted", tc.want)
		}
		if v := strings.Join(strings.Fields(m.View()), " "); !strings.Contains(strings.ReplaceAll(v, "│ ", ""), tc.want) {
			t.Fatalf("no visible %q:\n%s", tc.want, m.View())
		}
	}
	if n := len(e.rec.Requests("PATCH", "/contact_identities/")); n != 0 {
		t.Fatalf("invalid input sent %d PATCHes", n)
	}
}

func TestEditFormKeepsInputOnFailureAndNeverSubmitsTwice(t *testing.T) {
	t.Parallel()
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	e.ctx.Client = e.as(t, e.operatorWithRole(t, client.RoleBot)) // bots may not edit: 403
	m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
	m = press(m, "ctrl+u")
	m = typeInto(m, "Kept Name")
	m, cmd, _ := save(m)
	if cmd == nil {
		t.Fatal("no task")
	}
	// While the request is in flight, more enters (and esc) send nothing.
	for _, k := range []string{"enter", "enter", "ctrl+s", "esc"} {
		var c2 tea.Cmd
		var out []tea.Msg
		m, c2, out = drive(m, viewtest.Key(k))
		if c2 != nil || len(out) > 0 {
			t.Fatalf("%s while saving did something: %v", k, out)
		}
	}
	d := task(t, cmd)
	if d.Err == nil || !client.IsPermission(d.Err) {
		t.Fatalf("want a 403, got %+v", d)
	}
	m, _, _ = drive(m, d)
	if viewtest.Closed(e.ctx) {
		t.Fatal("a failed save closed the form")
	}
	v := m.View()
	if !strings.Contains(v, "You lack permission") || !strings.Contains(v, "Kept Name") {
		t.Fatalf("after the failure the form must show the detail and keep the input:\n%s", v)
	}
	if n := len(e.rec.Requests("PATCH", "/contact_identities/")); n != 1 {
		t.Fatalf("%d PATCHes, want exactly 1", n)
	}
	// Submitting again (now allowed) sends the same input once more.
	e.ctx.Client = e.c
	_, cmd, _ = save(m)
	d = task(t, cmd)
	if d.Err != nil || client.Str(d.Result.(client.Contact).Name) != "Kept Name" {
		t.Fatalf("retry: %+v", d)
	}
}

func TestUpsertFormCreatesThenUpdatesByIdentifier(t *testing.T) {
	t.Parallel()
	e := writable(t)
	open := func() common.Modal { return openModal(contacts.NewUpsertForm(e.ctx), 76, 40) }

	// The identifier's value is required.
	m, _, _ := save(open())
	if isSubmitting(m) {
		t.Fatal("submitted without an email")
	}
	if !strings.Contains(m.View(), "Email (the identifier) is required") {
		t.Fatalf("no message about the missing identifier:\n%s", m.View())
	}

	for i, name := range []string{"Nova Person", "Nova Renamed"} {
		m = open()
		m = press(m, "enter") // identifier: email (the first option)
		m = typeInto(m, name)
		m = press(m, "tab")
		m = typeInto(m, "nova.person@example.com")
		_, cmd, _ := save(m)
		d := task(t, cmd)
		if d.Err != nil || d.Kind != contacts.KindUpserted {
			t.Fatalf("upsert %d: %+v", i, d)
		}
		u := d.Result.(contacts.Upserted)
		if u.Created != (i == 0) || client.Str(u.Contact.Name) != name {
			t.Fatalf("upsert %d: created %v name %q", i, u.Created, client.Str(u.Contact.Name))
		}
	}
	puts := e.rec.Requests("PUT", "/contact_identities/")
	if len(puts) != 2 || !strings.Contains(puts[0].Query, "identifier=email") {
		t.Fatalf("PUTs: %+v", puts)
	}
	body := bodyOf(t, puts[1])
	if len(body) != 2 || body["email"] != "nova.person@example.com" || body["name"] != "Nova Renamed" {
		t.Fatalf("PUT body %s: want only the filled fields", puts[1].Body)
	}
}

func TestFilterFormSendsTheSevenFilters(t *testing.T) {
	e := readOnly(t)
	l := newList(e, 100, 100, 20)
	m := openModal(l.FilterForm(), 76, 40)
	m = typeInto(m, "Anna Wagner") // name
	m = press(m, "tab")
	m = typeInto(m, "anna@") // email: invalid
	m = press(m, "enter")
	if !strings.Contains(m.View(), "not an email address") {
		t.Fatalf("no email message:\n%s", m.View())
	}
	m = typeInto(m, "example.com") // anna@example.com
	m = press(m, "tab")
	m = typeInto(m, "42") // id
	m = press(m, "tab")
	m = typeInto(m, "de_DE") // locale
	m = press(m, "tab")
	m = typeInto(m, "7d") // active after
	m = press(m, "tab")
	m = typeInto(m, "today") // active before
	m = press(m, "tab", "j") // verified: ✓ verified
	m, _, out := drive(m, viewtest.Key("enter"))
	fm, ok := find[contacts.FilterMsg](out)
	if !ok {
		t.Fatalf("no FilterMsg:\n%s", m.View())
	}
	f := fm.Filter
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	if f.Name != "Anna Wagner" || f.Email != "anna@example.com" || f.ID != 42 || f.Locale != "de_DE" ||
		f.Verified == nil || !*f.Verified || !f.FromDateTime.Equal(viewtest.Now.AddDate(0, 0, -7).UTC()) || !f.ToDateTime.Equal(day) {
		t.Fatalf("filter %+v", f)
	}
	q := f.Values()
	for _, k := range []string{"id", "email", "name", "from_date_time", "to_date_time", "verified", "locale"} {
		if q.Get(k) == "" {
			t.Fatalf("filter does not encode %s: %v", k, q)
		}
	}
}

func TestEditFormRateLimitedKeepsInput(t *testing.T) {
	t.Parallel()
	e := envOn(t, viewtest.Sandbox(t, sandbox.Options{DailyLimit: 2}), 0)
	p, err := e.c.ListContacts(t.Context(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ct := p.Results[0]
	if _, err := e.c.GetContact(t.Context(), ct.ID); err != nil { // the day's last contacts request
		t.Fatal(err)
	}
	m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
	m = press(m, "ctrl+u")
	m = typeInto(m, "Typed Before The Limit")
	m, cmd, _ := save(m)
	d := task(t, cmd)
	if !client.IsRateLimited(d.Err) {
		t.Fatalf("want a 429, got %+v", d)
	}
	m, _, _ = drive(m, d)
	if viewtest.Closed(e.ctx) {
		t.Fatal("a rate-limited save closed the form")
	}
	if v := m.View(); !strings.Contains(v, "Daily limit of contacts requests reached") || !strings.Contains(v, "Typed Before The Limit") {
		t.Fatalf("the form must say the daily limit was reached and keep the input:\n%s", v)
	}
	if n := len(e.rec.Requests("PATCH", "/contact_identities/")); n != 1 {
		t.Fatalf("%d PATCHes: a PATCH is not retried", n)
	}
}

// feed delivers keys the way one read delivers them to a program (no command runs in
// between), then what they started, in order: a sequence's commands one after the other,
// each with what it batches, before the next; a command's message after those already
// waiting. Ticks and blinks never fire. When the form starts its task, the task's command
// is returned unrun; messages for the root are returned.
func feed(m common.Modal, keys ...string) (common.Modal, tea.Cmd, []tea.Msg) {
	var queue []tea.Msg
	for _, k := range keys {
		queue = append(queue, viewtest.KeysOf(k)...)
	}
	return deliver(m, queue, 500, inOrder)
}

// inOrder runs c the way Bubble Tea runs what one message returned, without the commands
// that only wait: a sequence's commands one after the other, each with what it batches,
// and returns their messages in that order.
func inOrder(c tea.Cmd) []tea.Msg {
	if c == nil || sleeps(c) {
		return nil
	}
	msg := c()
	if cmds, ok := viewtest.SubCommands(msg); ok {
		var out []tea.Msg
		for _, sc := range cmds {
			out = append(out, inOrder(sc)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// sleeps reports the commands that only wait: tea.Tick and cursor blinks.
func sleeps(c tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name()
	return strings.Contains(name, "bubbletea/v2.Tick") || strings.Contains(name, "cursor.(*Model).Blink")
}

func TestUpsertFormKeysOfOneReadLandInTheirFields(t *testing.T) {
	t.Parallel()
	e := writable(t)
	m := openModal(contacts.NewUpsertForm(e.ctx), 76, 40)
	// a, enter, then tmux send-keys "Zed" Tab "zed@x.org" in one batch.
	m, _, _ = feed(m, "enter")
	m, _, _ = feed(m, "Zed", "tab", "zed@x.org")
	_, cmd, _ := feed(m, "ctrl+s")
	if cmd == nil {
		t.Fatalf("no task:\n%s", m.View())
	}
	if d := task(t, cmd); d.Err != nil {
		t.Fatalf("upsert: %v", d.Err)
	}
	puts := e.rec.Requests("PUT", "/contact_identities/")
	if len(puts) != 1 {
		t.Fatalf("%d PUTs", len(puts))
	}
	if body := bodyOf(t, puts[0]); body["name"] != "Zed" || body["email"] != "zed@x.org" {
		t.Fatalf("PUT body %s: want name Zed, email zed@x.org", puts[0].Body)
	}
}

func TestEditFormErrorsFollowTheFixAndKeepTheFocus(t *testing.T) {
	t.Parallel()
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Email) != "" })
	m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 20)
	m, _, _ = feed(m, "tab", "ctrl+u")
	m = typeInto(m, "not-an-email")
	m, cmd, _ := feed(m, "ctrl+s")
	if cmd != nil || isSubmitting(m) {
		t.Fatal("submitted an invalid email")
	}
	if v := m.View(); !strings.Contains(v, `"not-an-email" is not an email`) {
		t.Fatalf("no message:\n%s", v)
	}
	// Still on the email field: fixing it there clears the message.
	m, _, _ = feed(m, "ctrl+u")
	m = typeInto(m, "fixed@example.org")
	if v := m.View(); strings.Contains(v, "not an email") || strings.Contains(v, "✗") {
		t.Fatalf("the error stays after the fix:\n%s", v)
	}
	_, cmd, _ = feed(m, "ctrl+s")
	d := task(t, cmd)
	if d.Err != nil || client.Str(d.Result.(client.Contact).Email) != "fixed@example.org" {
		t.Fatalf("save: %+v", d)
	}
}

func TestEditFormFitsEightyByTwentyFour(t *testing.T) {
	e := readOnly(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Email) != "" })
	// The root gives a box at 80×24 76×20.
	const h = 20
	m := openModal(contacts.NewEditForm(e.ctx, ct), 76, h)
	// A wrong locale and country typed in (fields 11 and 10: a field refuses to be left
	// forward while it is wrong).
	for range 11 {
		m = press(m, "tab")
	}
	m = typeInto(press(m, "ctrl+u"), "german")
	m = typeInto(press(m, "shift+tab", "ctrl+u"), "Germany")
	fits := func(what string) {
		t.Helper()
		v := m.View()
		lines := strings.Split(v, "\n")
		if len(lines) > h || !strings.HasPrefix(lines[len(lines)-1], "╰") {
			t.Fatalf("%s: %d lines, want at most %d with the bottom border:\n%s", what, len(lines), h, v)
		}
	}
	fits("opened")
	// ctrl+s names the country and moves there; leaving the wrong fields adds their errors.
	m, _, _ = feed(m, "ctrl+s")
	fits("after ctrl+s")
	if !strings.Contains(m.View(), "Country: \"Germany\"") {
		t.Fatalf("no country message:\n%s", m.View())
	}
	m, _, _ = feed(m, "tab", "tab", "shift+tab", "ctrl+s")
	fits("after more errors")
	// The field's own message and the form's name the field, and show once.
	if v := m.View(); strings.Count(v, "Country:") != 1 {
		t.Fatalf("the country's message is not there once, with the field's name:\n%s", v)
	}
	m, _, _ = feed(m, "x", "esc") // typed something: esc asks
	fits("asking to discard")
	if v := strings.Join(strings.Fields(strings.ReplaceAll(m.View(), "│", "")), " "); !strings.Contains(v, "any other key keeps editing") {
		t.Fatalf("the discard question is cut:\n%s", m.View())
	}
}

// The filter form's messages name their field: they are listed below the form, away
// from the field.
func TestFilterFormMessagesNameTheirField(t *testing.T) {
	e := readOnly(t)
	l := newList(e, 100, 100, 20)
	for _, tc := range []struct {
		tabs  int
		typed string
		want  string
	}{
		{1, "anna@", "Email: "},
		{2, "abc", "Contact id: "},
		{3, "german", "Locale: "},
		// An age or a date outside 2000–2100 is refused; the huge age used to come out as a
		// negative year.
		{4, "99999999999w", `Active after: "99999999999w" is too far back`},
		{5, "2101-01-01", `Active before: "2101-01-01" is too far ahead`},
	} {
		m := openModal(l.FilterForm(), 76, 40)
		for range tc.tabs {
			m = press(m, "tab")
		}
		m = typeInto(m, tc.typed)
		m = press(m, "enter")
		if v := ansi.Strip(m.View()); !strings.Contains(v, "✗ "+tc.want) {
			t.Fatalf("%q: the message does not start with %q:\n%s", tc.typed, tc.want, v)
		}
	}
}

// TestUpsertFormFindsByPhoneNumber: the identifiers offered are the contact fields that
// identify a contact (email, external customer id, mobile and phone number; no id). By
// phone number the value is required; the PUT names phone_number and carries it, creates
// the contact the first time and updates it the second.
func TestUpsertFormFindsByPhoneNumber(t *testing.T) {
	t.Parallel()
	e := writable(t)
	open := func() common.Modal { return openModal(contacts.NewUpsertForm(e.ctx), 76, 40) }
	v := open().View()
	var field []string // the lines of the focused field: the select
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "┃") {
			field = append(field, strings.Trim(l, "│┃> "))
		}
	}
	want := []string{"email", "external customer id", "mobile number", "phone number"}
	if len(field) < len(want) || !slices.Equal(field[len(field)-len(want):], want) {
		t.Fatalf("the identifiers offered are not %q:\n%s", want, v)
	}
	for i, name := range []string{"Phoebe Phone", "Phoebe Renamed"} {
		m := press(open(), "down", "down", "down", "enter") // identifier: phone number
		m = typeInto(m, name)
		m, _, _ = save(m)
		if isSubmitting(m) || !strings.Contains(m.View(), "Phone number (the identifier) is required") {
			t.Fatalf("saved without the phone number, or said nothing:\n%s", m.View())
		}
		m = typeInto(m, "+49 30 1234567") // the error put the cursor into the phone number
		_, cmd, _ := save(m)
		d := task(t, cmd)
		if d.Err != nil || d.Kind != contacts.KindUpserted {
			t.Fatalf("upsert %d: %+v", i, d)
		}
		u := d.Result.(contacts.Upserted)
		if u.Created != (i == 0) || client.Str(u.Contact.Name) != name || client.Str(u.Contact.PhoneNumber) != "+49 30 1234567" {
			t.Fatalf("upsert %d: created %v, name %q, phone %q", i, u.Created, client.Str(u.Contact.Name), client.Str(u.Contact.PhoneNumber))
		}
	}
	puts := e.rec.Requests("PUT", "/contact_identities/")
	if len(puts) != 2 || puts[1].Query != "identifier=phone_number" {
		t.Fatalf("PUTs: %+v", puts)
	}
	if body := bodyOf(t, puts[1]); len(body) != 2 || body["phone_number"] != "+49 30 1234567" || body["name"] != "Phoebe Renamed" {
		t.Fatalf("PUT body %s: want the name and the phone number", puts[1].Body)
	}
}

// The edit form shows the contact's text sanitized, and sends only what the user changed:
// the hostile text the API holds in the fields left alone stays as it was, byte for byte,
// instead of being replaced by what the form showed of it.
func TestEditSendsOnlyTheChangedFieldAndLeavesHostileTextAlone(t *testing.T) {
	t.Parallel()
	e := writable(t)
	bg := context.Background()
	conv, err := e.c.GetConversation(bg, e.info.HostileConversationID)
	if err != nil {
		t.Fatal(err)
	}
	// The seeded name has escape sequences, bidi overrides, a C1 control and a ZWJ; the
	// other fields get more of the same (and a tab, which the form shows as spaces).
	before, err := e.c.UpdateContact(bg, conv.Contact.ID, client.ContactUpdate{
		Email:   ptr("mallory@example.org"),
		Company: ptr("\x1b]0;CO\x07Acme\u202e Ltd\u0085"),
		City:    ptr("Zw\u200dJ\u009b2J\tcity"),
		Street:  ptr("\x1b[2J\u2066Main St\u2069 1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	name := client.Str(before.Name)
	if !strings.ContainsRune(name, '\u009b') || !strings.ContainsRune(name, '\u200d') || !strings.ContainsRune(name, '\u202e') {
		t.Fatalf("the seeded name is not hostile enough: %q", name)
	}

	m := openModal(contacts.NewEditForm(e.ctx, *before), 76, 40)
	// The Name field (focused, so it starts with "> ") shows what the detail shows,
	// the C1 control's U+FFFD included.
	shown := sanitize.Line(name)
	if !strings.Contains(shown, "�") || !strings.Contains(ansi.Strip(m.View()), "> "+shown) {
		t.Fatalf("the Name field does not show %q:\n%s", shown, m.View())
	}

	m = press(m, "tab", "end")
	m = typeInto(m, "2")
	saveDone(t, m)
	patches := e.rec.Requests("PATCH", "/contact_identities/")
	if len(patches) != 2 { // the seeding one, then the form's
		t.Fatalf("%d PATCHes", len(patches))
	}
	body := bodyOf(t, patches[1])
	if keys := slices.Sorted(maps.Keys(body)); len(keys) != 1 || body["email"] != "mallory@example.org2" {
		t.Fatalf("PATCH body %s: want only the email", patches[1].Body)
	}

	after, err := e.c.GetContact(bg, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if client.Str(after.Email) != "mallory@example.org2" {
		t.Fatalf("email %q", client.Str(after.Email))
	}
	for _, f := range []struct {
		label      string
		was, isNow *string
	}{
		{"name", before.Name, after.Name}, {"company", before.Company, after.Company},
		{"city", before.City, after.City}, {"street", before.Street, after.Street},
	} {
		if client.Str(f.isNow) != client.Str(f.was) {
			t.Errorf("%s changed: %q, was %q", f.label, client.Str(f.isNow), client.Str(f.was))
		}
	}
}

// A field the user left alone is not checked either: hostile text the API holds there
// (which would fail the check as shown) does not stop saving another field.
func TestEditIgnoresProblemsOfUntouchedFields(t *testing.T) {
	t.Parallel()
	e := writable(t)
	bg := context.Background()
	ct := e.contactWith(t, func(c client.Contact) bool {
		n := client.Str(c.Name)
		return client.Str(c.Email) != "" && n != "" && sanitize.IsClean(n) && strings.TrimSpace(n) == n
	})
	// The sandbox takes any string with an @ as an email; the form's check would not.
	odd := "\x1b[1mboss\x1b[0m@example.org"
	before, err := e.c.UpdateContact(bg, ct.ID, client.ContactUpdate{Email: &odd})
	if err != nil {
		t.Skipf("the sandbox refuses %q: %v", odd, err)
	}
	m := openModal(contacts.NewEditForm(e.ctx, *before), 76, 40)
	m = press(m, "end")
	m = typeInto(m, " Jr")
	saveDone(t, m)
	after, err := e.c.GetContact(bg, ct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if client.Str(after.Email) != odd || client.Str(after.Name) != client.Str(before.Name)+" Jr" {
		t.Fatalf("after: name %q email %q", client.Str(after.Name), client.Str(after.Email))
	}
}

// lossy is a sandbox of the test's own with the screen's client behind a proxy that can
// lose requests (one attempt per request); e.c still talks to the sandbox directly.
func lossy(t *testing.T) (*env, *viewtest.Proxy) {
	t.Helper()
	e := writable(t)
	p := viewtest.NewProxy(t, e.sb.URL)
	e.ctx = viewtest.Ctx(p.Client(t, e.info.CustomerToken, true))
	return e, p
}

// The contact PATCH is carried out and its answer lost: the form reads the contact again
// and closes as saved, confirmed; lost before the sandbox saw it, the form stays open with
// the text and says not saved.
func TestEditLostAnswerIsCheckedAgainstTheContact(t *testing.T) {
	t.Parallel()
	for _, fault := range []viewtest.Fault{viewtest.DropAnswer, viewtest.DropRequest} {
		saved := fault == viewtest.DropAnswer
		t.Run(map[bool]string{true: "answer", false: "request"}[saved], func(t *testing.T) {
			e, p := lossy(t)
			ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
			m := openModal(contacts.NewEditForm(e.ctx, ct), 76, 40)
			m = press(m, "ctrl+u")
			m = typeInto(m, "Renamed Lost")
			p.Lose("PATCH", "/api/um/v3/contact_identities/", fault, 1)
			m, cmd, _ := save(m)
			d := task(t, cmd)
			if !errors.Is(d.Err, client.ErrOutcomeUnknown) {
				t.Fatalf("PATCH report: %+v", d)
			}
			m, _, out := drive(m, d)
			check, ok := find[common.TaskDoneMsg](out)
			if !ok || check.Lost == nil {
				t.Fatalf("no check after the lost answer: %#v", out)
			}
			m, _, out = drive(m, check)
			closed := viewtest.Closed(e.ctx)
			toast, _ := find[common.ToastMsg](out)
			now, err := e.c.GetContact(client.Fresh(context.Background()), ct.ID)
			if err != nil {
				t.Fatal(err)
			}
			if saved {
				if !closed || toast.Text != "Contact saved (confirmed after the connection dropped)" {
					t.Fatalf("closed %v, toast %q", closed, toast.Text)
				}
				if got := check.Result.(client.Contact); client.Str(got.Name) != "Renamed Lost" {
					t.Fatalf("check read %q", client.Str(got.Name))
				}
				if client.Str(now.Name) != "Renamed Lost" {
					t.Fatalf("name on the server %q", client.Str(now.Name))
				}
				return
			}
			want := "Not saved: the connection was lost before the server answered, and the contact on the server does not have the values sent. ctrl+s sends it again."
			if closed || toast.Text != "" || m.(*forms.Modal).Err() != want {
				t.Fatalf("closed %v, toast %q, error\n got %q\nwant %q", closed, toast.Text, m.(*forms.Modal).Err(), want)
			}
			if !strings.Contains(m.View(), "Renamed Lost") || client.Str(now.Name) == "Renamed Lost" {
				t.Fatalf("typed name lost or saved after all (%q):\n%s", client.Str(now.Name), m.View())
			}
		})
	}
}

// The note form opened over a contact's notes knows which notes were there: a note of the
// same text written earlier is not taken for the one a lost request never made. A note the
// sandbox did make shows in the detail once confirmed.
func TestNoteFromTheContactTellsItsOwnNoteApart(t *testing.T) {
	t.Parallel()
	e, p := lossy(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	const text = "Called back, no answer."
	if _, err := e.c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: text}); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, e.ctx, 100, 30)
	openContact(t, hs, ct)
	before := len(hs.s.Detail.NoteIDs())

	p.Lose("POST", "/api/um/v3/notes/", viewtest.DropRequest, 1)
	hs.key("n")
	hs.typeText(text)
	hs.key("ctrl+s")
	want := "Not saved: the connection was lost before the server answered, and the note is not on the server. ctrl+s sends it again."
	f, ok := hs.Top().(interface{ Err() string })
	if !ok {
		t.Fatalf("the form closed; toast %q", hs.LastToast())
	}
	if f.Err() != want {
		t.Fatalf("error\n got %q\nwant %q", f.Err(), want)
	}
	hs.key("esc", "y")

	p.Lose("POST", "/api/um/v3/notes/", viewtest.DropAnswer, 1)
	hs.key("n")
	hs.typeText(text)
	hs.key("ctrl+s")
	if hs.Top() != nil || hs.LastToast() != "Note saved (confirmed after the connection dropped)" {
		t.Fatalf("toast %q", hs.LastToast())
	}
	if got := len(hs.s.Detail.NoteIDs()); got != before+1 {
		t.Fatalf("%d notes shown, want %d", got, before+1)
	}
}

// Deletes whose answer was lost are settled by reading the item again: a 404 is a delete.
func TestDeletesLostAnswerAreConfirmedByA404(t *testing.T) {
	t.Parallel()
	e, p := lossy(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	n, err := e.c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: "to go"})
	if err != nil {
		t.Fatal(err)
	}
	inServerOrder(e.ctx)
	hs := newHarness(t, e.ctx, 100, 30)
	openContact(t, hs, ct)
	for i := 0; i < 200; i++ {
		if id, _, ok := hs.s.Detail.SelectedNote(); ok && id == n.ID {
			break
		}
		hs.key("j")
	}
	p.Lose("DELETE", "/api/um/v3/notes/", viewtest.DropAnswer, 1)
	hs.key("d", "y")
	if want := fmt.Sprintf("Note #%d deleted (confirmed after the connection dropped)", n.ID); hs.LastToast() != want {
		t.Fatalf("toast %q, want %q", hs.LastToast(), want)
	}

	hs.key("esc") // back to the list
	hs.send(contacts.FilterMsg{})
	hs.key("j")
	r, _ := hs.s.List.Selected()
	p.Lose("DELETE", "/api/um/v3/contact_identities/", viewtest.DropRequest, 1)
	hs.key("d", "y")
	if want := fmt.Sprintf("Not deleted: the connection was lost before the server answered, and contact #%d is still there.", r.ID); hs.LastToast() != want {
		t.Fatalf("toast %q, want %q", hs.LastToast(), want)
	}
	if _, ok := hs.s.List.Row(r.ID); !ok {
		t.Fatal("the row went although the contact is there")
	}
	p.Lose("DELETE", "/api/um/v3/contact_identities/", viewtest.DropAnswer, 1)
	hs.key("d", "y")
	if hs.LastToast() != "1 contact deleted (confirmed after the connection dropped)" {
		t.Fatalf("toast %q", hs.LastToast())
	}
	if _, ok := hs.s.List.Row(r.ID); ok {
		t.Fatal("the row stayed although the contact is gone")
	}
}

// A marked delete whose answer was lost: when every marked contact is still there it was
// not carried out, and the rows and the marks stay.
func TestDeleteMarkedLostRequestDeletesNothing(t *testing.T) {
	t.Parallel()
	e, p := lossy(t)
	hs := newHarness(t, e.ctx, 100, 30)
	marked := deleteTwoLosingTheRequest(t, hs, p)
	for _, r := range marked {
		if _, ok := hs.s.List.Row(r.ID); !ok {
			t.Fatalf("row %d went", r.ID)
		}
	}
	if len(hs.s.List.Marked()) != 2 {
		t.Fatalf("%d marks left", len(hs.s.List.Marked()))
	}
}

// deleteTwoLosingTheRequest marks the first two contacts of the list and deletes them while
// the proxy loses the DELETE before the sandbox sees it: the toast says neither was deleted.
// It returns the marked rows.
func deleteTwoLosingTheRequest(t *testing.T, hs *harness, p *viewtest.Proxy) []contacts.Row {
	t.Helper()
	hs.focus()
	hs.key("esc")
	hs.key(" ", "j", " ")
	marked := hs.s.List.Marked()
	p.Lose("DELETE", "/api/um/v3/contact_identities/", viewtest.DropRequest, 1)
	hs.key("d", "y")
	if want := "Not deleted: the connection was lost before the server answered, and the 2 contacts are still there."; hs.LastToast() != want {
		t.Fatalf("toast %q, want %q", hs.LastToast(), want)
	}
	return marked
}
