package contacts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
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

// focus shows the screen (as pressing 2 does), opens the modals it asks for at once, as the
// root does, and settles.
func (hs *harness) focus() { hs.settle(hs.Init()) }

// key sends one key and settles what follows.
func (hs *harness) key(keys ...string) {
	for _, k := range keys {
		for _, msg := range viewtest.KeysOf(k) {
			hs.send(msg)
		}
	}
}

func (hs *harness) typeText(s string) {
	for _, r := range s {
		hs.send(viewtest.Key(string(r)))
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

// revisit leaves the screen and shows it again (2 pressed after another screen's key): no
// prompt opens by itself; / opens the search prompt, which shows want; esc closes it.
func (hs *harness) revisit(want string) {
	hs.t.Helper()
	hs.s.Blur()
	hs.focus()
	if hs.Top() != nil {
		hs.t.Fatalf("showing the screen again opened %q", hs.Top().View())
	}
	hs.key("/")
	if hs.Top() == nil || !strings.Contains(hs.Top().View(), want) {
		hs.t.Fatalf("/ did not open the search prompt showing %q", want)
	}
	hs.key("esc")
}

func TestQuickLookupIsTwoKeystrokesPlusTheQuery(t *testing.T) {
	e := readOnly(t)
	hs := newHarness(t, e.ctx, 80, 22)
	hs.focus() // what pressing 2 does
	hs.key("/")
	if hs.Top() == nil || !hs.Top().Inline() || !strings.Contains(hs.Top().View(), "Search contacts:") {
		t.Fatalf("/ did not focus the search prompt: %v", hs.Modals())
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
	hs.revisit("berlin") // with a query: / opens the prompt with the current search
}

// TestSearchPromptOpensOnlyOnTheSearchKey: no visit opens a prompt by itself (a 3 or q
// pressed after 2 is never typed into one); / opens it, with its keys on its line.
func TestSearchPromptOpensOnlyOnTheSearchKey(t *testing.T) {
	e := readOnly(t)
	hs := newHarness(t, e.ctx, 80, 22)
	hs.focus()
	if top := hs.Top(); top != nil {
		t.Fatalf("the first visit opened %q", top.View())
	}
	hs.key("/")
	top := hs.Top()
	if top == nil || !strings.Contains(top.View(), "Search contacts:") {
		t.Fatalf("/ did not open the search prompt: %v", hs.Modals())
	}
	top.SetSize(80, 1)
	if v := ansi.Strip(top.View()); !strings.Contains(v, "enter search · esc cancel") {
		t.Fatalf("the prompt line has no hints: %q", v)
	}
	hs.key("esc")
	if hs.Top() != nil {
		t.Fatal("esc did not close the prompt")
	}
	hs.revisit("Search contacts:") // nothing searched, the list untouched
}

// TestWideLayoutPreviewsTheContactWhereTheCursorRests: side by side, moving the cursor in
// the list shows the contact it rests on in the detail, after the rest delay only (held
// keys cost nothing), with the focus staying in the list; enter then opens it at once.
func TestWideLayoutPreviewsTheContactWhereTheCursorRests(t *testing.T) {
	e := readOnly(t)
	hs := newHarness(t, e.ctx, 160, 46)
	hs.focus()
	used := func() int {
		return e.c.Usage(client.FamilyContacts) + e.c.Usage(client.FamilyConversations) + e.c.Usage(client.FamilyNotes)
	}
	before := used()
	var cmds []tea.Cmd
	for range 5 { // key repeat: every press before the previous rest is over
		_, cmd := hs.Update(viewtest.Key("j"))
		cmds = append(cmds, cmd)
	}
	if hs.s.Detail.ID() != 0 || used() != before {
		t.Fatalf("moving loaded contact %d (%d requests) before the cursor rested", hs.s.Detail.ID(), used()-before)
	}
	for _, cmd := range cmds {
		for _, msg := range viewtest.Run(cmd, time.Second) {
			hs.send(msg)
		}
	}
	r, _ := hs.s.List.Selected()
	if hs.s.Detail.ID() != r.ID || hs.s.Detail.Loading() {
		t.Fatalf("the detail shows %d (loading %v), the cursor rests on %d", hs.s.Detail.ID(), hs.s.Detail.Loading(), r.ID)
	}
	if hs.s.Focused() != contacts.PaneList {
		t.Fatal("the preview took the focus from the list")
	}
	if n := used() - before; n != 3 {
		t.Fatalf("resting on one contact cost %d requests, want 3 (contact, conversations, notes)", n)
	}
	if v := hs.s.View(); !strings.Contains(v, r.Title()) {
		t.Fatalf("the preview does not show %q:\n%s", r.Title(), v)
	}
	hs.key("enter")
	if hs.s.Focused() != contacts.PaneDetail || used()-before != 3 {
		t.Fatalf("enter on the previewed contact: focus %v, %d requests", hs.s.Focused(), used()-before)
	}
}

func TestDeleteOneNamesItAndSendsTheSingleDelete(t *testing.T) {
	t.Parallel()
	e := writable(t)
	inServerOrder(e.ctx)
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
	if len(e.rec.Requests("DELETE", "/contact_identities/")) != 0 {
		t.Fatal("deleted before the answer")
	}
	hs.key("y")
	dels := e.rec.Requests("DELETE", "/contact_identities/")
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
	if len(e.rec.Requests("DELETE", "/contact_identities/")) != 1 || hs.Top() != nil {
		t.Fatal("n did not cancel")
	}
}

func TestDeleteMarkedSendsExactlyTheirIds(t *testing.T) {
	t.Parallel()
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
	dels := e.rec.Requests("DELETE", "/contact_identities/")
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
	t.Parallel()
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
	// The detail starts on its first entry, the newest conversation: enter opens it.
	if c, ok := hs.s.Detail.SelectedConversation(); !ok || c.ID != convs[0].ID {
		t.Fatalf("the opened detail selects %+v (%v), want its first conversation %d", c.ID, ok, convs[0].ID)
	}
	hs.key("j") // the second conversation
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
	t.Parallel()
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
	gets := len(e.rec.Requests("GET", "/notes/"))
	hs.save()
	ids := hs.s.Detail.NoteIDs()
	if len(ids) != before+1 || len(e.rec.Requests("GET", "/notes/")) != gets {
		t.Fatalf("notes %v (before %d); the new one must show without reloading", ids, before)
	}
	if !strings.Contains(hs.s.View(), "Prefers email.") || !strings.Contains(hs.LastToast(), "Note saved") {
		t.Fatalf("note not shown:\n%s", hs.s.View())
	}
	// Select it (first note, after the conversations) and delete it.
	hs.selectNote(ids[0])
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
	t.Parallel()
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool { return client.Str(c.Name) != "" })
	hs := newHarness(t, e.ctx, 160, 46)
	openContact(t, hs, ct)
	gets := len(e.rec.Requests("GET", "/contact_identities/"))
	hs.key("e")
	if hs.Top() == nil {
		t.Fatal("e did not open the form")
	}
	hs.key("ctrl+u")
	hs.typeText("Edited Name")
	hs.save()
	if r, ok := hs.s.List.Row(ct.ID); !ok || r.Name != "Edited Name" {
		t.Fatalf("row not updated: %+v", r)
	}
	if c, _ := hs.s.Detail.Contact(); client.Str(c.Name) != "Edited Name" || !strings.Contains(hs.s.View(), "Edited Name") {
		t.Fatal("detail not updated")
	}
	if got := len(e.rec.Requests("GET", "/contact_identities/")); got != gets {
		t.Fatalf("%d reloads after the edit; rows update in place", got-gets)
	}
	// From the list (no detail of that row loaded), e fetches the contact first.
	hs.key("esc", "j", "e")
	if hs.Top() == nil || !strings.Contains(hs.Top().View(), "Edit ") {
		t.Fatal("e on a list row did not open the form")
	}
}

// fillUpsert opens the upsert form (a) and fills it in to create a contact by email, with
// name and email.
func (hs *harness) fillUpsert(name, email string) {
	hs.t.Helper()
	hs.key("a")
	if hs.Top() == nil {
		hs.t.Fatal("a did not open the form")
	}
	hs.key("enter") // identifier: email
	hs.typeText(name)
	hs.key("tab")
	hs.typeText(email)
}

// save presses ctrl+s in the open form, which must close.
func (hs *harness) save() {
	hs.t.Helper()
	hs.key("ctrl+s")
	if hs.Top() != nil {
		hs.t.Fatalf("form still open:\n%s", hs.Top().View())
	}
}

// A contact created from the screen opens in the detail, with the list's cursor on it. In
// the default order it goes on top of the loaded rows at no cost (the PUT's answer is the
// contact, and a new contact has no conversations or notes); with a search or an ordering
// on, the list asks for its first page again (one request).
func TestUpsertFromTheScreenOpensTheContactInTheList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(hs *harness)
		gets  string // the GET requests counted from the save on, by path prefix
		want  int
	}{
		{"default order", func(hs *harness) { hs.key("esc") }, "/", 0},
		{"search", func(hs *harness) { hs.key("/"); hs.typeText("Aaron"); hs.key("enter") }, "/contact_identities/", 1},
		{"name A→Z", func(hs *harness) { hs.key("esc", "o", "o", "o"); hs.settle(hs.s.List.Reload(0)) }, "/contact_identities/", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := writable(t)
			hs := newHarness(t, e.ctx, 160, 46)
			hs.focus()
			tc.setup(hs)
			hs.fillUpsert("Aaron Aardvark", "aaron.aardvark@example.com")
			before := len(e.rec.Requests("GET", tc.gets))
			hs.save()
			if n := len(e.rec.Requests("GET", tc.gets)) - before; n != tc.want {
				t.Fatalf("showing the new contact cost %d GET requests of %s, want %d", n, tc.gets, tc.want)
			}
			c, ok := hs.s.Detail.Contact()
			if !ok || client.Str(c.Email) != "aaron.aardvark@example.com" {
				t.Fatalf("detail shows %+v", c)
			}
			if r, ok := hs.s.List.Selected(); !ok || r.ID != c.ID || r.Name != "Aaron Aardvark" {
				t.Fatalf("the list's cursor is on %+v, not on the new contact %d", r, c.ID)
			}
			if !strings.Contains(hs.s.View(), "Aaron Aardvark") {
				t.Fatalf("the list does not show the new contact:\n%s", hs.s.View())
			}
			if !strings.Contains(hs.LastToast(), "Created contact Aaron Aardvark") {
				t.Fatalf("toast %q", hs.LastToast())
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
	t.Parallel()
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
	if v := hs.Render(); strings.Contains(v, "No contact open") {
		t.Fatalf("an empty detail is shown:\n%s", v)
	}
}

// Switching only the acting operator keeps the open contact (reloaded) and the focus on
// it: the user retries what the other operator was refused, in the same place.
func TestOperatorSwitchKeepsTheOpenContact(t *testing.T) {
	t.Parallel()
	e := writable(t)
	hs := newHarness(t, e.ctx, 80, 24)
	hs.focus()
	hs.key("esc", "enter")
	id := hs.s.Detail.ID()
	if hs.s.Focused() != contacts.PaneDetail || id == 0 {
		t.Fatalf("enter did not open the contact (focus %v)", hs.s.Focused())
	}
	gets := len(e.rec.Requests("GET", fmt.Sprintf("/contact_identities/%d/", id)))
	hs.send(common.ContextChangedMsg{OperatorOnly: true})
	if hs.s.Focused() != contacts.PaneDetail || hs.s.Detail.ID() != id || hs.s.Detail.Loading() {
		t.Fatalf("after an operator switch: focus %v, contact %d (want %d)", hs.s.Focused(), hs.s.Detail.ID(), id)
	}
	if n := len(e.rec.Requests("GET", fmt.Sprintf("/contact_identities/%d/", id))); n != gets+1 {
		t.Fatalf("the contact was fetched %d times after the switch, want once", n-gets)
	}
}

// tallNote gives a contact without notes a note of n numbered lines and returns the
// contact and the note's id.
func tallNote(t *testing.T, e *env, n int) (client.Contact, int64) {
	t.Helper()
	ct := e.contactWith(t, func(c client.Contact) bool {
		if client.Str(c.Name) == "" || c.ConversationCount == nil || *c.ConversationCount == 0 {
			return false
		}
		p, err := e.c.ListNotes(context.Background(), client.NoteListOptions{ContactIdentityID: c.ID})
		return err == nil && len(p.Results) == 0
	})
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("tall line %d", i+1)
	}
	note, err := e.c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: strings.Join(lines, "\n")})
	if err != nil {
		t.Fatal(err)
	}
	return ct, note.ID
}

// openTallNote opens, at 80×22 in a sandbox of the test's own, a contact with
// conversations and one note of n lines (tall).
func openTallNote(t *testing.T, n int) (hs *harness, ct client.Contact, tall int64) {
	t.Helper()
	e := writable(t)
	ct, tall = tallNote(t, e, n)
	hs = newHarness(t, e.ctx, 80, 22)
	openContact(t, hs, ct)
	return hs, ct, tall
}

// selectNote presses j in the detail until note id is selected.
func (hs *harness) selectNote(id int64) {
	hs.t.Helper()
	for i := 0; i < 200; i++ {
		if sel, _, ok := hs.s.Detail.SelectedNote(); ok && sel == id {
			return
		}
		hs.key("j")
	}
	hs.t.Fatalf("j never reached note %d", id)
}

// j reads a note taller than the pane line by line before it moves on, and the selection
// stays visible all the way (a bar marks the body of the selected note).
func TestDetailJReadsThroughATallNote(t *testing.T) {
	t.Parallel()
	hs, _, tall := openTallNote(t, 60)
	hs.selectNote(tall)
	for i := 0; i < 200 && !strings.Contains(hs.s.View(), "tall line 60"); i++ {
		hs.key("j")
		if id, _, ok := hs.s.Detail.SelectedNote(); !ok || id != tall {
			t.Fatalf("j left the note before its end was shown:\n%s", hs.s.View())
		}
		if !strings.Contains(hs.s.View(), "▌") && !strings.Contains(hs.s.View(), fmt.Sprintf("#%d ·", tall)) {
			t.Fatalf("the selected note is not marked:\n%s", hs.s.View())
		}
	}
	if !strings.Contains(hs.s.View(), "tall line 60") {
		t.Fatal("the end of the note never showed")
	}
	// k reads back up to its first line while it stays selected.
	for i := 0; i < 200 && !strings.Contains(hs.s.View(), "tall line 1\n") && !strings.Contains(hs.s.View(), "tall line 1 "); i++ {
		hs.key("k")
		if id, _, ok := hs.s.Detail.SelectedNote(); !ok || id != tall {
			t.Fatalf("k left the note before its start was shown:\n%s", hs.s.View())
		}
	}
}

// A page down into the middle of a tall note, then j, goes on from there: it never jumps
// back to the first entry of the pane.
func TestDetailPageIntoATallNoteThenJGoesOn(t *testing.T) {
	t.Parallel()
	hs, _, tall := openTallNote(t, 60)
	hs.selectNote(tall)
	hs.key("ctrl+d", "ctrl+d")
	before := hs.s.View()
	if id, _, ok := hs.s.Detail.SelectedNote(); !ok || id != tall {
		t.Fatalf("paging inside the note let it go:\n%s", before)
	}
	hs.key("j")
	if _, ok := hs.s.Detail.SelectedConversation(); ok {
		t.Fatalf("j jumped back to a conversation:\n%s", hs.s.View())
	}
	after := hs.s.View()
	if !strings.Contains(after, "tall line") || strings.Contains(after, "Conversations (") {
		t.Fatalf("j after a page down scrolled back up:\n%s", after)
	}
}

// G shows the end of the pane, and the entry it selects (if any) is in view: d never
// asks about a note the user cannot see.
func TestDetailBottomSelectsOnlyWhatIsInView(t *testing.T) {
	t.Parallel()
	hs, ct, tall := openTallNote(t, 60)
	hs.key("G")
	v := hs.s.View()
	if !strings.Contains(v, fmt.Sprintf("%d · ", ct.ID)) {
		t.Fatalf("G did not show the end of the pane:\n%s", v)
	}
	if id, _, ok := hs.s.Detail.SelectedNote(); ok {
		if !strings.Contains(v, "▌") && !strings.Contains(v, fmt.Sprintf("#%d ·", id)) {
			t.Fatalf("G selected note %d, which is out of view:\n%s", id, v)
		}
	}
	// Back up with k: the last note is selected again once it shows.
	for i := 0; i < 30; i++ {
		hs.key("k")
		if id, _, ok := hs.s.Detail.SelectedNote(); ok {
			if id != tall {
				t.Fatalf("k selected note %d, want the last one %d", id, tall)
			}
			return
		}
	}
	t.Fatal("k from the bottom never selected the last note")
}

// upsert creates (or updates) the contact that u names by its email, in the sandbox.
func (e *env) upsert(t *testing.T, u client.ContactUpdate) client.Contact {
	t.Helper()
	ct, _, err := e.c.UpsertContact(context.Background(), client.IdentifierEmail, u)
	if err != nil {
		t.Fatal(err)
	}
	return *ct
}

// A contact with a very long name: the delete question shows the start of the name and
// the id, and the box with its keys fits the screen.
func TestDeleteQuestionAboutALongNameFits(t *testing.T) {
	t.Parallel()
	e := writable(t)
	name := strings.Repeat("Bartholomew ", 150)
	ct := e.upsert(t, client.ContactUpdate{Email: ptr("long.name@example.com"), Name: ptr(name)})
	for _, marked := range []bool{false, true} {
		hs := newHarness(t, e.ctx, 80, 24)
		hs.focus()
		hs.key("esc")
		hs.send(contacts.FilterMsg{Filter: client.ContactFilter{ID: ct.ID}})
		if marked {
			hs.key(" ")
		}
		hs.key("d")
		if hs.Top() == nil {
			t.Fatal("d did not ask")
		}
		v := ansi.Strip(hs.Top().View())
		if n := strings.Count(v, "\n") + 1; n > 24 {
			t.Fatalf("marked=%v: the question has %d lines at 80×24:\n%s", marked, n, v)
		}
		if !strings.Contains(v, "Bartholomew") || !strings.Contains(v, "n/esc cancel") {
			t.Fatalf("marked=%v: the question lacks the name or its keys:\n%s", marked, v)
		}
		if !marked && !strings.Contains(v, fmt.Sprintf("(#%d)", ct.ID)) {
			t.Fatalf("the question does not give the id:\n%s", v)
		}
		hs.key("n")
	}
}

// A field of a thousand characters takes a few lines, ending in "…": the conversations
// and notes still show on the first screen.
func TestDetailLongFieldIsCut(t *testing.T) {
	t.Parallel()
	e := writable(t)
	street := strings.Repeat("Long Street ", 100)
	ct := e.upsert(t, client.ContactUpdate{Email: ptr("long.street@example.com"), Name: ptr("Street Person"), Street: ptr(street)})
	hs := newHarness(t, e.ctx, 80, 24)
	openContact(t, hs, ct)
	v := hs.s.View()
	if n := strings.Count(v, "Long Street"); n > 4*6 {
		t.Fatalf("the street fills %d mentions:\n%s", n, v)
	}
	if !strings.Contains(v, "…") || !strings.Contains(v, "Conversations (") || !strings.Contains(v, "Notes (") {
		t.Fatalf("the long street hides the rest:\n%s", v)
	}
}

// A contact longer than the pane says how much is below on its last line, like the
// conversation detail; at the end there is nothing more to say.
func TestDetailSaysWhatIsBelow(t *testing.T) {
	t.Parallel()
	hs, _, _ := openTallNote(t, 30)
	lines := strings.Split(hs.s.Detail.View(), "\n")
	if last := ansi.Strip(lines[len(lines)-1]); !strings.Contains(last, "↓ ") || !strings.Contains(last, " more lines") {
		t.Fatalf("the last line of a tall contact is %q", last)
	}
	hs.key("G")
	if v := hs.s.Detail.View(); strings.Contains(v, "more lines") {
		t.Fatalf("at the end the pane still says there is more:\n%s", v)
	}
}

// Deleting a contact takes its conversations with it, and one with an ongoing conversation
// is not deleted at all: the question says how many conversations go and that rule.
func TestDeleteQuestionCountsTheContactsConversations(t *testing.T) {
	t.Parallel()
	e := writable(t)
	ct := e.contactWith(t, func(c client.Contact) bool {
		return c.ConversationCount != nil && *c.ConversationCount >= 2
	})
	hs := newHarness(t, e.ctx, 120, 40)
	hs.focus()
	hs.key("esc")
	hs.send(contacts.FilterMsg{Filter: client.ContactFilter{ID: ct.ID}})
	hs.key("d")
	if hs.Top() == nil {
		t.Fatal("d did not ask")
	}
	v := strings.Join(strings.Fields(ansi.Strip(hs.Top().View())), " ")
	want := fmt.Sprintf("Its %d conversations, notes and visited pages go with it; if one is ongoing, nothing is deleted", *ct.ConversationCount)
	if !strings.Contains(strings.ReplaceAll(v, "│ ", ""), want) {
		t.Fatalf("the question does not say %q:\n%s", want, hs.Top().View())
	}
	hs.key("n")
}

// In the detail of a contact whose conversations show an ongoing one, d says it cannot be
// deleted and sends nothing, instead of asking for a delete the server refuses.
func TestDeleteOfAContactWithAnOngoingConversationIsNotAsked(t *testing.T) {
	t.Parallel()
	e := writable(t)
	var busy client.Contact
	for _, st := range []string{client.StatusNew, client.StatusPending} {
		p, err := e.c.ListConversations(context.Background(), client.ConversationListOptions{Filter: client.ConversationFilter{Status: st}})
		if err != nil {
			t.Fatal(err)
		}
		for _, cv := range p.Results {
			if cv.Contact.ID != 0 {
				c, err := e.c.GetContact(context.Background(), cv.Contact.ID)
				if err == nil {
					busy = *c
					break
				}
			}
		}
		if busy.ID != 0 {
			break
		}
	}
	if busy.ID == 0 {
		t.Fatal("no contact with an ongoing conversation")
	}
	hs := newHarness(t, e.ctx, 120, 40)
	openContact(t, hs, busy)
	before := len(e.rec.Requests("DELETE", "/contact_identities/"))
	hs.key("g", "d") // the contact's fields, not its first conversation
	if hs.s.Detail.Loading() {
		t.Fatal("g reloaded the detail")
	}
	if hs.Top() != nil || !strings.Contains(hs.LastToast(), "has an ongoing conversation") {
		t.Fatalf("modal %v, toast %q", hs.Top() != nil, hs.LastToast())
	}
	if n := len(e.rec.Requests("DELETE", "/contact_identities/")); n != before {
		t.Fatalf("%d DELETEs sent", n-before)
	}
}

// A note without text shows as "(empty note)", as an empty message does in the thread,
// not as a blank line.
func TestEmptyNoteSaysSo(t *testing.T) {
	e := readOnly(t)
	// The sandbox's hostile contact has a note with an empty body among its notes.
	ct := e.contactWith(t, func(c client.Contact) bool { return strings.Contains(client.Str(c.Name), "Mallory") })
	hs := newHarness(t, e.ctx, 160, 46)
	openContact(t, hs, ct)
	// Its notes include a 10,000-character one: page down until the empty one shows.
	v := hs.s.View()
	for i := 0; i < 40 && !strings.Contains(v, "(empty note)"); i++ {
		hs.key("ctrl+d")
		v = hs.s.View()
	}
	if !strings.Contains(v, "(empty note)") {
		t.Fatalf("the empty note is not marked:\n%s", v)
	}
	if strings.Count(v, "(empty note)") != 1 {
		t.Fatalf("more than one empty note marked:\n%s", v)
	}
}

// notesAsSent is another server, made from the sandbox (an edit of its notes lists, see
// viewtest.EditBodies): the note stripped has no operator_id and no created_at and carries
// fields parley does not read, and the note byOrg has operator_id null.
type notesAsSent struct{ stripped, byOrg int64 }

func (n notesAsSent) edit(_ string, body []byte) ([]byte, error) {
	var page map[string]json.RawMessage
	var notes []map[string]any
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(page["results"], &notes); err != nil {
		return nil, err
	}
	for _, note := range notes {
		switch id, _ := note["id"].(float64); int64(id) {
		case n.stripped:
			delete(note, "operator_id")
			delete(note, "created_at")
			note["pinned"] = true
			note["color"] = "\u202ered"
		case n.byOrg:
			note["operator_id"] = nil
		}
	}
	page["results"], _ = json.Marshal(notes)
	return json.Marshal(page)
}

// A note's author and time show as the server sent them: a note without operator_id and
// created_at shows "—" for both, never "organization" and the year 1; null is the
// organization. The fields parley does not read show under the note, sanitized. Before, the
// note without them read "0001-01-01 00:00 · organization".
func TestNoteFieldsShowAsSent(t *testing.T) {
	e := readOnly(t)
	p, err := e.c.ListNotes(context.Background(), client.NoteListOptions{ListOptions: client.ListOptions{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	// A contact with two notes written by an operator.
	byContact := map[int64][]client.Note{}
	var ct int64
	for _, n := range p.Results {
		if n.OperatorID.Known && !n.CreatedAt.IsZero() {
			byContact[n.ContactIdentityID] = append(byContact[n.ContactIdentityID], n)
			if len(byContact[n.ContactIdentityID]) == 2 {
				ct = n.ContactIdentityID
				break
			}
		}
	}
	if ct == 0 {
		t.Fatal("no contact with two notes by an operator among the first 100 notes")
	}
	stripped, byOrg := byContact[ct][0], byContact[ct][1]
	e.rec.Next = viewtest.EditBodies{Next: e.rec.Next, Suffix: "/notes/", Edit: notesAsSent{stripped: stripped.ID, byOrg: byOrg.ID}.edit}
	contact, err := e.c.GetContact(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, e.ctx, 160, 60)
	openContact(t, hs, *contact)
	v := hs.s.View()
	for _, want := range []string{
		fmt.Sprintf(" #%d · — · —", stripped.ID),
		`also sent: color="red" · pinned=true`,
		fmt.Sprintf(" #%d · %s · organization", byOrg.ID, byOrg.CreatedAt.In(viewtest.Now.Location()).Format("2006-01-02 15:04")),
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "0001-01-01") || strings.ContainsRune(v, '\u202e') {
		t.Fatalf("the detail shows a time the server did not send, or a bidi control:\n%s", v)
	}
}

// TestListAgesFollowTheServerClock: with the local clock 10 minutes fast, a contact row's
// age is told from the server's clock (learnt from its answers), not 10 minutes more.
func TestListAgesFollowTheServerClock(t *testing.T) {
	t.Parallel()
	s := viewtest.NewSkewed(t, 10*time.Minute, sandbox.Options{})
	ctx := s.Ctx()
	ctx.PageSize = 100
	m := contacts.NewList(ctx)
	m.SetSize(120, 60)
	m.Focus()
	// The server's order: its rows show the last message's age.
	m = viewtest.Settle(m, m.SetQuery(contacts.Query{Ordering: client.Contacts.Default}), wait)
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	checked := 0
	for _, r := range m.Rows() {
		want, wrong := layout.RelTime(r.LastAt, s.Server.Now()), layout.RelTime(r.LastAt, s.Local())
		var found []string
		for _, l := range lines {
			if r.Name != "" && strings.Contains(l, r.Name) {
				found = append(found, l)
			}
		}
		if want == wrong || len(found) != 1 {
			continue // the same age either way, not shown, or the name does not tell its line
		}
		if f := strings.Fields(found[0]); f[len(f)-1] != want {
			t.Errorf("contact %d (last message %s before the server's now) shows %q, want %q", r.ID,
				s.Server.Now().Sub(r.LastAt), f[len(f)-1], want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no visible row whose age differs by the skew: the seed has no recent contact")
	}
}

// TestDetailAgesFollowTheServerClock: with the local clock 10 minutes fast or slow, the
// contact detail tells ages from the server's clock: a contact created 20 seconds ago on the
// server was created "just now", not "10m ago", and the age is not left out as if to come.
func TestDetailAgesFollowTheServerClock(t *testing.T) {
	t.Parallel()
	for _, skew := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		s := viewtest.NewSkewed(t, skew, sandbox.Options{})
		p, err := s.Client.ListContacts(t.Context(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 1}})
		if err != nil || len(p.Results) == 0 {
			t.Fatalf("list: %v", err)
		}
		c := p.Results[0]
		c.CreatedAt = client.Time{Time: s.Server.Now().Add(-20 * time.Second)}
		d := contacts.NewDetail(s.Ctx())
		d.SetSize(80, 60)
		_ = d.Open(c.ID, false) // the pane shows contact c.ID (its loads are not run)
		d.SetContact(c)
		if line := viewtest.LineWith(d.View(), "Created"); !strings.Contains(line, "(just now)") {
			t.Errorf("local clock off by %s: the detail shows %q, want the contact created \"just now\"", skew, strings.TrimSpace(line))
		}
	}
}

// TestGoldenContacts renders the contacts screen against the in-process sandbox (seed 1,
// fixed clock, no colour) at 80, 120, 160 and 200 columns: the first page of every contact,
// the ranked results of a search typed after / , and the first result
// opened. Regenerate with:
// go test ./internal/views/screens/contacts -run Golden -update
func TestGoldenContacts(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}, {200, 50}} {
		for _, step := range []string{"list", "search", "detail"} {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], step), func(t *testing.T) {
				e := readOnly(t)
				h := viewtest.NewHost(e.ctx, contacts.New(e.ctx))
				tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(size[0], size[1]))
				if step == "list" {
					// Every contact, newest first (hostile and wide names among them): the
					// prompt closed without a search.
					h.WaitSeen(t, map[string]int{"list.PageMsg": 1})
					tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
					tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
					golden.RequireEqual(t, []byte(viewtest.Plain(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)))
					return
				}
				// / opens the search prompt: the keys typed go to it.
				tm.Type("/paris")
				tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
				h.WaitSeen(t, map[string]int{"list.SearchMsg": 1, "list.PageMsg": 2})
				if step == "detail" {
					tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
					h.WaitSeen(t, map[string]int{"contacts.contactMsg": 1, "contacts.pageMsg": 2}) // its conversations and its notes
				}
				tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
				golden.RequireEqual(t, []byte(viewtest.Plain(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)))
			})
		}
	}
}

// A contact with a position and no company: the detail labels each as what it is and
// shows no company the server did not send.
func TestDetailPositionIsNotTheCompany(t *testing.T) {
	t.Parallel()
	e := writable(t)
	ct := e.upsert(t, client.ContactUpdate{Email: ptr("office.manager@example.com"), Name: ptr("Office Person"), Position: ptr("Office Manager")})
	if ct.Company != nil && *ct.Company != "" {
		t.Fatalf("the contact has a company: %q", *ct.Company)
	}
	hs := newHarness(t, e.ctx, 80, 24)
	openContact(t, hs, ct)
	v := ansi.Strip(hs.s.Detail.View())
	var company, position string
	for _, l := range strings.Split(v, "\n") {
		f := strings.Fields(strings.Trim(l, "│ "))
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "Company":
			company = strings.Join(f[1:], " ")
		case "Position":
			position = strings.Join(f[1:], " ")
		}
	}
	if company != "—" || position != "Office Manager" {
		t.Fatalf("Company %q, Position %q; want — and Office Manager:\n%s", company, position, v)
	}
}
