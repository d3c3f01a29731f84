package contacts_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/viewtest"
)

// harness drives the contacts screen in a viewtest.Host (the stand-in root) on the test's
// goroutine: every message is handled, and the commands it returns run, before the next.
type harness struct {
	*viewtest.Host
	t *testing.T
	s *contacts.Model
}

func newHarness(t *testing.T, ctx *common.Ctx, w, h int) *harness {
	s := contacts.New(ctx)
	hs := &harness{Host: viewtest.NewHost(ctx, s), t: t, s: s}
	hs.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

// focus shows the screen (as pressing 2 does) and settles.
func (hs *harness) focus() { hs.settle(hs.s.Focus()) }

// key sends one key and settles what follows.
func (hs *harness) key(keys ...string) {
	for _, k := range keys {
		hs.send(viewtest.Key(k))
	}
}

func (hs *harness) typeText(s string) {
	for _, r := range s {
		hs.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func (hs *harness) send(msg tea.Msg) {
	hs.t.Helper()
	queue := []tea.Msg{msg}
	for n := 0; len(queue) > 0 && n < 500; n++ {
		_, cmd := hs.Update(queue[0])
		queue = append(queue[1:], run(cmd)...)
	}
}

func (hs *harness) settle(cmd tea.Cmd) {
	for _, m := range run(cmd) {
		hs.send(m)
	}
}

func TestQuickLookupIsOneKeystrokePlusTheQuery(t *testing.T) {
	e := readOnly(t)
	hs := newHarness(t, e.ctx, 80, 22)
	hs.focus() // what pressing 2 does
	if hs.Top() == nil || !hs.Top().Inline() || !strings.Contains(hs.Top().View(), "Search contacts:") {
		t.Fatalf("showing the screen did not focus the search prompt: %v", hs.Modals)
	}
	hs.typeText("berlin")
	hs.key("enter")
	if hs.Top() != nil {
		t.Fatal("the prompt stayed open")
	}
	p, err := e.c.SearchContacts(t.Context(), "berlin", 100)
	if err != nil || len(p.Results) == 0 {
		t.Fatalf("search: %v", err)
	}
	rows := hs.s.List.Rows()
	if len(rows) != len(p.Results) {
		t.Fatalf("%d rows, the search ranked %d", len(rows), len(p.Results))
	}
	for i := range rows {
		if rows[i].ID != p.Results[i].ID {
			t.Fatalf("row %d: %d, ranked %d", i, rows[i].ID, p.Results[i].ID)
		}
	}
	v := hs.s.View()
	if !strings.Contains(v, `search:"berlin" (ranked)`) || !strings.Contains(v, fmt.Sprintf("1/%d", len(rows))) {
		t.Fatalf("screen:\n%s", v)
	}
	// With a query, showing the screen again does not open the prompt; / does.
	hs.focus()
	if hs.Top() != nil {
		t.Fatal("prompt opened over an existing search")
	}
	hs.key("/")
	if hs.Top() == nil || !strings.Contains(hs.Top().View(), "berlin") {
		t.Fatal("/ did not open the prompt with the current search")
	}
	hs.key("esc")
}

func TestDeleteOneNamesItAndSendsTheSingleDelete(t *testing.T) {
	e := writable(t)
	hs := newHarness(t, e.ctx, 100, 30)
	hs.focus()
	hs.key("esc") // close the prompt: browse
	hs.key("j")
	r, _ := hs.s.List.Selected()
	before := hs.s.List.Total()
	hs.key("d")
	top := hs.Top()
	if top == nil {
		t.Fatal("d did not ask")
	}
	want := fmt.Sprintf("Delete contact “%s” (#%d)?", r.Title(), r.ID)
	if v := strings.Join(strings.Fields(top.View()), " "); !strings.Contains(strings.ReplaceAll(v, " │ │", ""), want) && !strings.Contains(top.View(), strconv.FormatInt(r.ID, 10)) {
		t.Fatalf("confirmation does not name %q:\n%s", want, top.View())
	}
	if len(e.rec.requests("DELETE", "/contact_identities/")) != 0 {
		t.Fatal("deleted before the answer")
	}
	hs.key("y")
	dels := e.rec.requests("DELETE", "/contact_identities/")
	if len(dels) != 1 || dels[0].Path != fmt.Sprintf("/api/um/v3/contact_identities/%d/", r.ID) || dels[0].Query != "" {
		t.Fatalf("DELETEs: %+v", dels)
	}
	if _, ok := hs.s.List.Row(r.ID); ok || hs.s.List.Total() != before-1 {
		t.Fatalf("row %d still listed (total %d → %d)", r.ID, before, hs.s.List.Total())
	}
	if !strings.Contains(hs.LastToast(), "1 contact deleted") {
		t.Fatalf("toast %q", hs.LastToast())
	}
	if _, err := e.c.GetContact(client.Fresh(context.Background()), r.ID); !client.IsNotFound(err) {
		t.Fatalf("contact still there: %v", err)
	}
	// n cancels.
	hs.key("d", "n")
	if len(e.rec.requests("DELETE", "/contact_identities/")) != 1 || hs.Top() != nil {
		t.Fatal("n did not cancel")
	}
}

func TestDeleteMarkedSendsExactlyTheirIds(t *testing.T) {
	e := writable(t)
	hs := newHarness(t, e.ctx, 100, 30)
	hs.focus()
	hs.key("esc")
	// A filter is active: the bulk delete must still carry only the ids.
	hs.send(contacts.FilterMsg{Filter: client.ContactFilter{Locale: "de_DE"}})
	rows := hs.s.List.Rows()
	if len(rows) < 4 {
		t.Fatalf("need 4 rows, have %d", len(rows))
	}
	hs.key(" ", "j", " ", " ") // marks rows 0, 2, 3
	marked := hs.s.List.Marked()
	if len(marked) != 3 {
		t.Fatalf("%d marked", len(marked))
	}
	hs.key("d")
	v := hs.Top().View()
	if !strings.Contains(v, "Delete 3 contacts?") || !strings.Contains(v, "3") {
		t.Fatalf("confirmation does not state the count:\n%s", v)
	}
	hs.key("y")
	dels := e.rec.requests("DELETE", "/contact_identities/")
	if len(dels) != 1 {
		t.Fatalf("DELETEs: %+v", dels)
	}
	q, _ := url.ParseQuery(dels[0].Query)
	want := fmt.Sprintf("%d,%d,%d", marked[0].ID, marked[1].ID, marked[2].ID)
	if dels[0].Path != "/api/um/v3/contact_identities/" || len(q) != 1 || q.Get("delete_ids") != want {
		t.Fatalf("bulk DELETE %s?%s, want only delete_ids=%s", dels[0].Path, dels[0].Query, want)
	}
	// A contact with an ongoing conversation is kept by the server; the list keeps it and
	// the toast says so. Every other marked contact is gone, from the API and the list.
	ongoing := func(id int64) bool {
		for _, st := range []string{client.StatusNew, client.StatusPending} {
			p, err := e.c.ListConversations(context.Background(), client.ConversationListOptions{
				Filter: client.ConversationFilter{ContactIdentityID: id, Status: st}})
			if err != nil {
				t.Fatal(err)
			}
			if p.Count > 0 {
				return true
			}
		}
		return false
	}
	kept := 0
	for _, r := range marked {
		_, err := e.c.GetContact(client.Fresh(context.Background()), r.ID)
		deleted := client.IsNotFound(err)
		if deleted == ongoing(r.ID) {
			t.Fatalf("contact %d: deleted %v (%v), though it has ongoing conversations: %v", r.ID, deleted, err, !deleted)
		}
		if _, listed := hs.s.List.Row(r.ID); listed == deleted {
			t.Fatalf("contact %d: deleted %v, still listed %v", r.ID, deleted, listed)
		}
		if !deleted {
			kept++
		}
	}
	wantToast := fmt.Sprintf("%d contacts deleted", 3-kept)
	if 3-kept == 1 {
		wantToast = "1 contact deleted"
	}
	if kept > 0 {
		wantToast += fmt.Sprintf("; %d contact", kept)
	}
	if len(hs.s.List.Marked()) != 0 || !strings.Contains(hs.LastToast(), wantToast) {
		t.Fatalf("marks %v, toast %q, want %q", hs.s.List.Marked(), hs.LastToast(), wantToast)
	}
	for _, r := range rows[4:] {
		if _, err := e.c.GetContact(client.Fresh(context.Background()), r.ID); err != nil {
			t.Fatalf("unmarked contact %d is gone: %v", r.ID, err)
		}
	}
}

func TestDeleteWithoutPermissionSaysSo(t *testing.T) {
	e := writable(t)
	e.ctx.Client = e.as(t, e.operatorWithRole(t, client.RoleAgent)) // agents may not delete
	hs := newHarness(t, e.ctx, 100, 30)
	hs.focus()
	hs.key("esc")
	r, _ := hs.s.List.Selected()
	hs.key("d", "y")
	if !strings.Contains(hs.LastToast(), "You lack permission") {
		t.Fatalf("toast %q", hs.LastToast())
	}
	if _, ok := hs.s.List.Row(r.ID); !ok {
		t.Fatal("the row went although the delete failed")
	}
}

// openContact searches for a contact by its email and opens it.
func openContact(t *testing.T, hs *harness, ct client.Contact) {
	t.Helper()
	hs.focus()
	if hs.Top() != nil {
		hs.key("esc")
	}
	hs.send(contacts.FilterMsg{Filter: client.ContactFilter{ID: ct.ID}})
	hs.key("enter")
	if hs.s.Detail.ID() != ct.ID || hs.s.Detail.Loading() {
		t.Fatalf("detail shows %d (loading %v), want %d", hs.s.Detail.ID(), hs.s.Detail.Loading(), ct.ID)
	}
}

func TestDetailShowsFieldsConversationsAndNotesAndOpensAConversation(t *testing.T) {
	e := readOnly(t)
	ct := e.contactWith(t, func(c client.Contact) bool {
		return c.ConversationCount != nil && *c.ConversationCount >= 2 && client.Str(c.City) != ""
	})
	hs := newHarness(t, e.ctx, 160, 46)
	openContact(t, hs, ct)
	if hs.s.Focused() != contacts.PaneDetail {
		t.Fatal("enter did not focus the detail")
	}
	v := hs.s.View()
	viewtest.CheckSize(t, v, 160, 46, "wide with detail")
	r := contacts.RowFrom(ct)
	for _, want := range []string{r.Name, r.City, r.Locale,
		fmt.Sprintf("Conversations (%d)", *ct.ConversationCount), "Notes (", "Created", fmt.Sprintf("%d · ", ct.ID)} {
		if !strings.Contains(v, want) {
			t.Fatalf("detail lacks %q:\n%s", want, v)
		}
	}
	convs := hs.s.Detail.Conversations()
	if len(convs) != *ct.ConversationCount {
		t.Fatalf("%d conversations loaded, conversation_count %d", len(convs), *ct.ConversationCount)
	}
	for _, c := range convs {
		if !strings.Contains(v, fmt.Sprintf("#%d", c.ID)) {
			t.Fatalf("conversation %d not shown:\n%s", c.ID, v)
		}
	}
	hs.key("j", "j") // the second conversation
	c, ok := hs.s.Detail.SelectedConversation()
	if !ok || c.ID != convs[1].ID {
		t.Fatalf("selected %+v, want conversation %d", c, convs[1].ID)
	}
	hs.key("enter")
	if len(hs.Switched) != 1 {
		t.Fatal("enter on a conversation did not switch screens")
	}
	sw := hs.Switched[0]
	oc, ok := sw.Then.(common.OpenConversationMsg)
	if sw.Screen != common.ScreenConversations || !ok || oc.ConversationID != convs[1].ID || oc.ContactID != ct.ID {
		t.Fatalf("switch %+v", sw)
	}
	hs.key("esc")
	if hs.s.Focused() != contacts.PaneList {
		t.Fatal("esc did not go back to the list")
	}
}

func TestNoteCreateAndDeleteUpdateTheDetailInPlace(t *testing.T) {
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	hs := newHarness(t, e.ctx, 80, 22)
	openContact(t, hs, ct)
	before := len(hs.s.Detail.NoteIDs())
	hs.key("n")
	if hs.Top() == nil || !strings.Contains(hs.Top().View(), "New note about "+contacts.RowFrom(ct).Title()) {
		t.Fatal("n did not open the note form for the contact")
	}
	hs.typeText("Prefers email.")
	hs.key("enter")
	hs.typeText("Second line.")
	gets := len(e.rec.requests("GET", "/notes/"))
	hs.key("ctrl+s")
	if hs.Top() != nil {
		t.Fatalf("the form stayed open:\n%s", hs.Top().View())
	}
	ids := hs.s.Detail.NoteIDs()
	if len(ids) != before+1 || len(e.rec.requests("GET", "/notes/")) != gets {
		t.Fatalf("notes %v (before %d); the new one must show without reloading", ids, before)
	}
	if !strings.Contains(hs.s.View(), "Prefers email.") || !strings.Contains(hs.LastToast(), "Note saved") {
		t.Fatalf("note not shown:\n%s", hs.s.View())
	}
	// Select it (first note, after the conversations) and delete it.
	for i := 0; i < 200; i++ {
		if id, _, ok := hs.s.Detail.SelectedNote(); ok && id == ids[0] {
			break
		}
		hs.key("j")
	}
	hs.key("d")
	if v := hs.Top().View(); !strings.Contains(v, fmt.Sprintf("Delete note #%d", ids[0])) || !strings.Contains(v, "Prefers email.") {
		t.Fatalf("confirmation does not name the note:\n%s", v)
	}
	hs.key("y")
	if got := hs.s.Detail.NoteIDs(); len(got) != before {
		t.Fatalf("notes after delete: %v", got)
	}
	if _, err := e.c.GetNote(client.Fresh(context.Background()), ids[0]); !client.IsNotFound(err) {
		t.Fatalf("note still there: %v", err)
	}
	if !strings.Contains(hs.LastToast(), fmt.Sprintf("Note #%d deleted", ids[0])) {
		t.Fatalf("toast %q", hs.LastToast())
	}
}

func TestEditFromTheScreenUpdatesRowAndDetailInPlace(t *testing.T) {
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	hs := newHarness(t, e.ctx, 160, 46)
	openContact(t, hs, ct)
	gets := len(e.rec.requests("GET", "/contact_identities/"))
	hs.key("e")
	if hs.Top() == nil {
		t.Fatal("e did not open the form")
	}
	hs.key("ctrl+u")
	hs.typeText("Edited Name")
	hs.key("ctrl+s")
	if hs.Top() != nil {
		t.Fatalf("form still open:\n%s", hs.Top().View())
	}
	if r, ok := hs.s.List.Row(ct.ID); !ok || r.Name != "Edited Name" {
		t.Fatalf("row not updated: %+v", r)
	}
	if c, _ := hs.s.Detail.Contact(); client.Str(c.Name) != "Edited Name" || !strings.Contains(hs.s.View(), "Edited Name") {
		t.Fatal("detail not updated")
	}
	if got := len(e.rec.requests("GET", "/contact_identities/")); got != gets {
		t.Fatalf("%d reloads after the edit; rows update in place", got-gets)
	}
	// From the list (no detail of that row loaded), e fetches the contact first.
	hs.key("esc", "j", "e")
	if hs.Top() == nil || !strings.Contains(hs.Top().View(), "Edit ") {
		t.Fatal("e on a list row did not open the form")
	}
}

func TestUpsertFromTheScreenOpensTheContact(t *testing.T) {
	e := writable(t)
	hs := newHarness(t, e.ctx, 160, 46)
	hs.focus()
	hs.key("esc", "a")
	if hs.Top() == nil {
		t.Fatal("a did not open the form")
	}
	hs.key("enter") // identifier: email
	hs.typeText("Una Upsert")
	hs.key("tab")
	hs.typeText("una.upsert@example.com")
	gets := len(e.rec.requests("GET", "/"))
	hs.key("ctrl+s")
	if hs.Top() != nil {
		t.Fatalf("form still open:\n%s", hs.Top().View())
	}
	// The PUT's answer is the contact, and a new contact has no conversations or notes:
	// showing it costs no further request.
	if n := len(e.rec.requests("GET", "/")) - gets; n != 0 {
		t.Fatalf("showing the created contact cost %d GET requests", n)
	}
	c, ok := hs.s.Detail.Contact()
	if !ok || client.Str(c.Email) != "una.upsert@example.com" {
		t.Fatalf("detail shows %+v", c)
	}
	if r, ok := hs.s.List.Selected(); !ok || r.ID != c.ID {
		t.Fatal("the new contact is not selected in the list")
	}
	if !strings.Contains(hs.LastToast(), "Created contact Una Upsert") {
		t.Fatalf("toast %q", hs.LastToast())
	}
}

// A contact created with a search or an ordering on shows in the list at once: the list
// asks for its first page again (one request) and puts the cursor on the new contact.
func TestUpsertedContactShowsInASearchedOrOrderedList(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(hs *harness)
	}{
		{"search", func(hs *harness) { hs.typeText("Aaron"); hs.key("enter") }},
		{"name A→Z", func(hs *harness) { hs.key("esc", "o", "o", "o"); hs.settle(hs.s.List.Reload(0)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := writable(t)
			hs := newHarness(t, e.ctx, 160, 46)
			hs.focus()
			tc.setup(hs)
			q := hs.s.List.Query()
			if q.Search == "" && q.Ordering != "name" {
				t.Fatalf("query %+v", q)
			}
			hs.key("a")
			hs.key("enter") // identifier: email
			hs.typeText("Aaron Aardvark")
			hs.key("tab")
			hs.typeText("aaron.aardvark@example.com")
			lists := len(e.rec.requests("GET", "/contact_identities/"))
			hs.key("ctrl+s")
			if hs.Top() != nil {
				t.Fatalf("form still open:\n%s", hs.Top().View())
			}
			if n := len(e.rec.requests("GET", "/contact_identities/")) - lists; n != 1 {
				t.Fatalf("showing the new contact in the list cost %d requests, want 1", n)
			}
			c, _ := hs.s.Detail.Contact()
			if r, ok := hs.s.List.Selected(); !ok || r.ID != c.ID || r.Name != "Aaron Aardvark" {
				t.Fatalf("the list's cursor is on %+v, not on the new contact %d", r, c.ID)
			}
			if !strings.Contains(hs.s.View(), "Aaron Aardvark") {
				t.Fatalf("the list does not show the new contact:\n%s", hs.s.View())
			}
		})
	}
}

func TestScreenViewIsExactlyItsSizeInEveryLayout(t *testing.T) {
	e := readOnly(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return c.ConversationCount != nil && *c.ConversationCount > 0 })
	for _, size := range [][2]int{{80, 22}, {99, 30}, {100, 30}, {160, 46}, {200, 48}} {
		hs := newHarness(t, e.ctx, size[0], size[1])
		viewtest.CheckSize(t, hs.s.View(), size[0], size[1], "before loading")
		openContact(t, hs, ct)
		for _, k := range []string{"j", "j", "G", "g", "tab", "j", "p", "tab", "p", "esc"} {
			hs.key(k)
			viewtest.CheckSize(t, hs.s.View(), size[0], size[1], fmt.Sprintf("%dx%d after %q", size[0], size[1], k))
		}
	}
}

func TestNarrowShowsOnePaneAndTabSwitches(t *testing.T) {
	e := readOnly(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	hs := newHarness(t, e.ctx, 80, 22)
	openContact(t, hs, ct)
	v := hs.s.View()
	if !strings.Contains(v, contacts.RowFrom(ct).Title()+"  (tab: next pane)") || strings.Contains(v, "contacts · ") {
		t.Fatalf("narrow detail:\n%s", v)
	}
	hs.key("tab")
	if v := hs.s.View(); !strings.Contains(v, "Contacts  (tab: next pane)") {
		t.Fatalf("tab did not show the list:\n%s", v)
	}
}

func TestCopyIDToastsTheID(t *testing.T) {
	// The OSC 52 sequence goes to stderr; keep it out of the test output.
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = devnull
	t.Cleanup(func() { os.Stderr = stderr; _ = devnull.Close() })
	e := readOnly(t)
	hs := newHarness(t, e.ctx, 80, 22)
	hs.focus()
	hs.key("esc")
	r, _ := hs.s.List.Selected()
	hs.key("y")
	if want := fmt.Sprintf("Copied contact id %d", r.ID); !strings.Contains(hs.LastToast(), want) {
		t.Fatalf("toast %q, want %q", hs.LastToast(), want)
	}
}

// Switching the organization or operator while a contact is open in the narrow layout goes
// back to the list: the open contact belonged to the previous context.
func TestContextChangeReturnsToTheList(t *testing.T) {
	e := writable(t)
	hs := newHarness(t, e.ctx, 80, 24)
	hs.focus()
	hs.key("esc", "enter")
	if hs.s.Focused() != contacts.PaneDetail {
		t.Fatalf("enter did not open the contact (focus %v)", hs.s.Focused())
	}
	hs.send(common.ContextChangedMsg{})
	if hs.s.Focused() != contacts.PaneList {
		t.Fatalf("after a context change the focus stays on %v", hs.s.Focused())
	}
	if v := hs.View(); strings.Contains(v, "No contact open") {
		t.Fatalf("an empty detail is shown:\n%s", v)
	}
}

// Switching only the acting operator keeps the open contact (reloaded) and the focus on
// it: the user retries what the other operator was refused, in the same place.
func TestOperatorSwitchKeepsTheOpenContact(t *testing.T) {
	e := writable(t)
	hs := newHarness(t, e.ctx, 80, 24)
	hs.focus()
	hs.key("esc", "enter")
	id := hs.s.Detail.ID()
	if hs.s.Focused() != contacts.PaneDetail || id == 0 {
		t.Fatalf("enter did not open the contact (focus %v)", hs.s.Focused())
	}
	gets := len(e.rec.requests("GET", fmt.Sprintf("/contact_identities/%d/", id)))
	hs.send(common.ContextChangedMsg{OperatorOnly: true})
	if hs.s.Focused() != contacts.PaneDetail || hs.s.Detail.ID() != id || hs.s.Detail.Loading() {
		t.Fatalf("after an operator switch: focus %v, contact %d (want %d)", hs.s.Focused(), hs.s.Detail.ID(), id)
	}
	if n := len(e.rec.requests("GET", fmt.Sprintf("/contact_identities/%d/", id))); n != gets+1 {
		t.Fatalf("the contact was fetched %d times after the switch, want once", n-gets)
	}
}
