package ui

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/notes"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// appLoop runs the root model in a viewtest.Loop: on the test's goroutine, with commands on
// their own goroutines sending their messages back.
type appLoop struct {
	*viewtest.Loop
	t   *testing.T
	app *App
	log *viewtest.RequestLog // the sandbox's request log
	raw *rawTap              // what the app wrote raw to the terminal (policyApp; else nil)
}

// startApp runs the root model on a fresh sandbox with the token token picks (nil: the
// customer token).
func startApp(t *testing.T, token func(sandbox.Info) string, w, h int) (*appLoop, sandbox.Info) {
	t.Helper()
	return startAppWithKeys(t, token, keymap.Default(), w, h)
}

// startAppWithKeys is startApp with the key bindings keys.
func startAppWithKeys(t *testing.T, token func(sandbox.Info) string, keys *keymap.KeyMap, w, h int) (*appLoop, sandbox.Info) {
	t.Helper()
	return startAppWith(t, token, w, h, func(o *Options) { o.Keys = keys })
}

// startAppWith is startApp with the options set changes (nil: none).
func startAppWith(t *testing.T, token func(sandbox.Info) string, w, h int, set func(*Options)) (*appLoop, sandbox.Info) {
	t.Helper()
	return startAppFor(t, token, w, h, func(o *Options, _ sandbox.Info) {
		if set != nil {
			set(o)
		}
	})
}

// startAppFor is startAppWith whose changes see the sandbox's facts (its operators).
func startAppFor(t *testing.T, token func(sandbox.Info) string, w, h int, set func(*Options, sandbox.Info)) (*appLoop, sandbox.Info) {
	t.Helper()
	log := &viewtest.RequestLog{}
	sb := viewtest.Sandbox(t, sandbox.Options{RequestLog: log})
	info := sb.Server.Info()
	tok := info.CustomerToken
	if token != nil {
		tok = token(info)
	}
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: tok, Now: viewtest.Clock, HTTPClient: &http.Client{Transport: viewtest.Transport(t)}})
	if err != nil {
		t.Fatal(err)
	}
	viewtest.Ctx(c) // plain colours
	o := Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(),
		Now: viewtest.Clock, Demo: true, RequestBudget: 400, PageSize: 100, DefaultOperatorID: info.OwnerOperatorID}
	set(&o, info)
	app := New(o)
	l := &appLoop{Loop: viewtest.NewLoop(t, app), t: t, app: app, log: log}
	l.Run(app.Init())
	l.Deliver(tea.WindowSizeMsg{Width: w, Height: h})
	l.Until("the operator directory", func() bool { return len(app.opList) > 0 })
	return l, info
}

func (l *appLoop) picker() *contextPicker {
	l.t.Helper()
	l.Until("a picker", func() bool {
		if n := len(l.app.route.Modals); n > 0 {
			_, ok := l.app.route.Modals[n-1].(*contextPicker)
			return ok
		}
		return false
	})
	return l.app.route.Modals[len(l.app.route.Modals)-1].(*contextPicker)
}

// statusBar is the status bar: the line above the footer.
func (l *appLoop) statusBar() string {
	lines := strings.Split(l.app.Render(), "\n")
	return lines[len(lines)-2]
}

func (l *appLoop) toasts() string {
	var out []string
	for _, t := range l.app.toasts {
		out = append(out, t.text)
	}
	return strings.Join(out, "\n")
}

func TestActAsOperatorAndBack(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	if bar := l.statusBar(); !strings.Contains(bar, "org 1001 · as Clara") {
		t.Fatalf("status bar without organization and operator: %q", bar)
	}
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })

	l.Key("ctrl+p")
	p := l.picker()
	if len(p.items) != 1+7 || !strings.HasPrefix(p.items[0].label, "default (the token's own operator)") || !p.items[0].current {
		t.Fatalf("picker items %+v", p.items)
	}
	l.Key(strconv.FormatInt(info.RestrictedOperatorID, 10), "enter")
	l.Until("the switch", func() bool { return l.app.ctx.Client.OperatorID() == info.RestrictedOperatorID })
	if l.app.ctx.ActingOperatorID != info.RestrictedOperatorID {
		t.Fatalf("acting %d", l.app.ctx.ActingOperatorID)
	}
	l.Until("the operators screen reloaded", func() bool { return ops.Loaded() && !ops.Busy() })
	if ops.SelfID() != info.RestrictedOperatorID {
		t.Fatalf("the screen acts as %d", ops.SelfID())
	}
	if bar := l.statusBar(); !strings.Contains(bar, "org 1001 · as Greta") {
		t.Fatalf("status bar %q", bar)
	}

	l.Key("ctrl+p")
	p = l.picker()
	if !p.items[len(p.items)-2].current { // Greta, the agent, is second to last (before the bot)
		t.Fatalf("current not marked: %+v", p.items)
	}
	l.Key("home", "enter")
	l.Until("back to the default", func() bool { return l.app.ctx.Client.OperatorID() == 0 })
	l.Until("the status bar", func() bool { return strings.Contains(l.statusBar(), "as Clara") })
	if l.app.ctx.ActingOperatorID != 0 || ops.SelfID() != info.OwnerOperatorID {
		t.Fatalf("acting %d, screen self %d", l.app.ctx.ActingOperatorID, ops.SelfID())
	}
}

func TestPickOrganization(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	l.Key("ctrl+o")
	p := l.picker()
	l.Until("the probe", func() bool { return !p.loading })
	var ids []int64
	for _, it := range p.items[1:] {
		ids = append(ids, it.org)
	}
	if len(ids) != len(info.OrgIDs) || !strings.Contains(p.note, "Customer token") {
		t.Fatalf("organizations %v (sandbox has %v); note %q", ids, info.OrgIDs, p.note)
	}
	other := info.OrgIDs[1]
	l.Key("end", "enter")
	l.Until("the switch", func() bool { return l.app.ctx.Client.OrganizationID() == other })
	l.Until("the new directory", func() bool { return l.app.opsOrg == other })
	l.Until("the operators of the other organization", func() bool {
		return ops.Loaded() && !ops.Busy() && len(ops.Rows()) > 0 && ops.Rows()[0].ID != info.OwnerOperatorID
	})
	if bar := l.statusBar(); !strings.Contains(bar, "org "+strconv.FormatInt(other, 10)+" · as ") {
		t.Fatalf("status bar %q", bar)
	}
	if l.app.ctx.DefaultOperatorID == info.OwnerOperatorID || l.app.ctx.DefaultOperatorID == 0 {
		t.Fatalf("default operator %d: want the other organization's owner", l.app.ctx.DefaultOperatorID)
	}
	// From there the picker still names the token's default organization.
	l.Key("ctrl+o")
	p = l.picker()
	l.Until("the probe", func() bool { return !p.loading })
	idx := slices.IndexFunc(p.items, func(it pickItem) bool { return it.org == info.DefaultOrgID })
	if idx < 0 || !strings.Contains(p.items[idx].label, "the token's default") {
		t.Fatalf("after the switch: items %+v", p.items)
	}
	l.Key("esc")
}

// An organization token is fixed to its organization: the picker says so, and a switch
// to another one does not happen: parley says so and stays where it was, with the same
// status bar, counters, refresh time and data.
func TestOrganizationTokenCannotSwitch(t *testing.T) {
	t.Parallel()
	l2, info := startApp(t, func(i sandbox.Info) string { return i.OrgTokens[i.DefaultOrgID] }, 80, 24)
	tri := l2.app.Screen().(*conversations.Model)
	l2.Until("the list", func() bool { return len(tri.List.Rows()) > 0 && !l2.app.lastRefresh.IsZero() })
	l2.Settle() // what the list started (at 80 columns nothing loads where the cursor rests)
	barBefore, refreshed := l2.statusBar(), l2.app.lastRefresh
	usedBefore := l2.app.ctx.Client.Usage(client.FamilyConversations)
	firstRow := tri.List.Rows()[0].ID
	clientBefore := l2.app.ctx.Client
	if !strings.Contains(barBefore, "org 1001 · as Clara │ ") {
		t.Fatalf("status bar before %q", barBefore)
	}

	l2.Key("ctrl+o")
	p := l2.picker()
	l2.Until("the probe", func() bool { return !p.loading })
	if !strings.Contains(p.note, "organization token is fixed to its organization") {
		t.Fatalf("note %q", p.note)
	}
	other := info.OrgIDs[1]
	l2.Key(strconv.FormatInt(other, 10), "enter")
	l2.Until("the warning", func() bool { return strings.Contains(l2.toasts(), "not available to this token") })
	l2.Settle()
	if !strings.Contains(l2.toasts(), "Staying in organization 1001") {
		t.Errorf("toasts %q", l2.toasts())
	}
	if l2.app.ctx.Client != clientBefore || l2.app.ctx.Client.OrganizationID() != 0 || l2.app.switching != nil {
		t.Fatalf("the context changed: org %d", l2.app.ctx.Client.OrganizationID())
	}
	if bar := l2.statusBar(); bar != barBefore {
		t.Errorf("status bar changed:\nbefore %q\nafter  %q", barBefore, bar)
	}
	if used := l2.app.ctx.Client.Usage(client.FamilyConversations); used != usedBefore {
		t.Errorf("conversations requests %d, before %d: the screens reloaded", used, usedBefore)
	}
	if !l2.app.lastRefresh.Equal(refreshed) || len(tri.List.Rows()) == 0 || tri.List.Rows()[0].ID != firstRow {
		t.Errorf("data or refresh time changed: refreshed %v (was %v)", l2.app.lastRefresh, refreshed)
	}
	// The check's request counted against the organization that answered it.
	if c := l2.app.base.Counters(); c.Effective(other) != info.DefaultOrgID || c.Effective(0) != info.DefaultOrgID {
		t.Errorf("counters: %d answers for %d, %d for no header", c.Effective(other), other, c.Effective(0))
	}
}

// A check that a later choice superseded is dropped.
func TestStaleSwitchCheckIsDropped(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	stale, _ := l.app.loads.Start(loadSwitch)
	l.app.loads.Start(loadSwitch) // a later choice
	other := info.OrgIDs[1]
	l.Deliver(switchProbedMsg{stamp: stale, to: contextPickedMsg{org: other},
		ops: []client.Operator{{ID: 1, OrganizationID: other}}})
	l.Settle()
	if l.app.ctx.Client.OrganizationID() != 0 || l.app.opsOrg != info.DefaultOrgID {
		t.Fatalf("a stale check switched to %d (directory %d)", l.app.ctx.Client.OrganizationID(), l.app.opsOrg)
	}
}

// With a customer token, the organization that is the token's default counts the same
// requests whether it is chosen by id or as "default organization of the token": the
// status bar and the auto-refresh budget see one count.
func TestDefaultOrganizationByIDCountsOnce(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 120, 30)
	tri := l.app.Screen().(*conversations.Model)
	l.Until("the list", func() bool { return len(tri.List.Rows()) > 0 })
	l.Settle()
	usedDefault := l.app.ctx.Client.Usage(client.FamilyConversations)
	if usedDefault == 0 {
		t.Fatal("no conversations requests counted")
	}
	def := info.DefaultOrgID

	l.Key("ctrl+o")
	p := l.picker()
	l.Until("the probe", func() bool { return !p.loading })
	idx := slices.IndexFunc(p.items, func(it pickItem) bool { return it.org == def })
	if idx < 0 || !strings.Contains(p.items[idx].label, "the token's default") {
		t.Fatalf("items %+v", p.items)
	}
	for p.pick.Cursor() < idx {
		l.Key("down")
	}
	l.Key("enter")
	l.Until("the switch", func() bool { return l.app.ctx.Client.OrganizationID() == def })
	l.Until("the reload", func() bool { return len(tri.List.Rows()) > 0 })
	l.Settle()
	usedByID := l.app.ctx.Client.Usage(client.FamilyConversations)
	noHeader := l.app.base.WithContext(0, 0).Usage(client.FamilyConversations)
	if usedByID <= usedDefault || noHeader != usedByID {
		t.Fatalf("organization %d by id: %d conversations requests, without the header %d (%d before the switch): counted apart",
			def, usedByID, noHeader, usedDefault)
	}
	want := fmt.Sprintf("conv %d/400", usedByID)
	if bar := l.statusBar(); !strings.Contains(bar, want) {
		t.Errorf("status bar %q lacks %q", bar, want)
	}
	if p, _ := l.app.autoPace(); p.Spent || p.Stretch != 1 {
		t.Errorf("auto pace %+v: the budget is not fresh", p)
	}
	budgetByID := l.app.base.WithContext(def, 0).Usage(client.FamilyConversations)

	l.Key("ctrl+o")
	p = l.picker()
	l.Until("the probe", func() bool { return !p.loading })
	l.Key("home", "enter")
	l.Until("back to the default", func() bool { return l.app.ctx.Client.OrganizationID() == 0 })
	l.Until("the reload", func() bool { return len(tri.List.Rows()) > 0 })
	l.Settle()
	back := l.app.ctx.Client.Usage(client.FamilyConversations)
	if back < budgetByID || back != l.app.base.WithContext(def, 0).Usage(client.FamilyConversations) {
		t.Errorf("back on the default organization: %d requests, %d by id", back, l.app.base.WithContext(def, 0).Usage(client.FamilyConversations))
	}
	if bar := l.statusBar(); !strings.Contains(bar, fmt.Sprintf("conv %d/400", back)) {
		t.Errorf("status bar %q", bar)
	}
}

// The ctrl+p picker filters by name as every picker does (letters are text, j too), a
// typed id offers itself first, and esc clears the filter before it closes.
func TestContextPickerFiltersByNameOrID(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	l.Key("ctrl+p")
	p := l.picker()
	var greta int
	for i, it := range p.items {
		if strings.Contains(it.label, "Greta") {
			greta = i
		}
	}
	l.Key("g", "r", "t")
	if mt, ok := p.pick.Selected(); !ok || mt.Item != greta || p.pick.Query() != "grt" {
		t.Fatalf("\"grt\": query %q, %d shown, selected %+v; want Greta (item %d) first", p.pick.Query(), len(p.pick.Shown()), mt, greta)
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "filter: grt") || !strings.Contains(v, "Greta") {
		t.Fatalf("the picker does not show the filter and Greta:\n%s", v)
	}
	l.Key("esc")
	if len(l.app.route.Modals) != 1 || p.pick.Query() != "" || len(p.pick.Shown()) != len(p.items) {
		t.Fatalf("esc with a filter: %d overlays, query %q, %d shown", len(l.app.route.Modals), p.pick.Query(), len(p.pick.Shown()))
	}
	id := strconv.FormatInt(info.RestrictedOperatorID, 10)
	l.Key(id)
	if mt, ok := p.pick.Selected(); !ok || mt.Item != picker.Typed || !strings.Contains(p.pick.Text(mt), "operator "+id) {
		t.Fatalf("%s: selected %+v (%q), want the typed id first", id, mt, p.pick.Text(mt))
	}
	l.Key("esc", "esc")
	l.Until("closed", func() bool { return len(l.app.route.Modals) == 0 })
	if l.app.ctx.Client.OperatorID() != 0 {
		t.Fatal("esc switched")
	}
}

// An edit on the operators screen reaches the directory (names, the ctrl+p picker).
func TestOperatorEditReloadsTheDirectory(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	l.Key("j", "e")
	l.Until("the form", func() bool { return len(l.app.route.Modals) == 1 })
	l.Settle()
	l.Key("tab")
	for range 10 {
		l.Deliver(viewtest.Key("backspace"))
	}
	l.Key("Benno", "enter", "enter", "enter")
	id := info.OwnerOperatorID + 1
	l.Until("the new name in the directory", func() bool { return l.app.ctx.Operators[id] == "Benno" })
}

// Acting as another operator of the same organization keeps the conversations screen in
// place: the cursor's row and the open thread stay, and they load again.
func TestActAsOperatorKeepsTheOpenConversation(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	tri := l.app.Screen().(*conversations.Model)
	l.Until("the list", func() bool { return len(tri.List.Rows()) > 5 && !tri.List.Loading() })
	l.Key("j", "j", "j", "enter")
	sel, _ := tri.List.Selected()
	l.Until("the thread", func() bool { return tri.Msgs.ConversationID() == sel.ID && tri.Msgs.Loaded() > 0 })
	l.Key("ctrl+p")
	l.picker()
	l.Key(strconv.FormatInt(info.RestrictedOperatorID, 10), "enter")
	l.Until("the switch", func() bool { return l.app.ctx.Client.OperatorID() == info.RestrictedOperatorID })
	l.Until("the list again", func() bool { return !tri.List.Loading() && !tri.Msgs.Loading() })
	if r, _ := tri.List.Selected(); r.ID != sel.ID {
		t.Fatalf("after the switch the cursor is on %d, was on %d", r.ID, sel.ID)
	}
	if tri.Msgs.ConversationID() != sel.ID || tri.Msgs.Loaded() == 0 {
		t.Fatalf("after the switch thread %d (%d messages), want %d", tri.Msgs.ConversationID(), tri.Msgs.Loaded(), sel.ID)
	}
	// At 100 columns the detail is hidden until p shows it; then it is the same conversation.
	l.Key("p")
	l.Until("the detail", func() bool { c, ok := tri.Detail.Conversation(); return ok && c.ID == sel.ID })
}

// A form refused for lack of permission keeps its input while ctrl+p switches the acting
// operator over it, and the same form then saves as the new operator.
func TestActAsOperatorOverARefusedForm(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	l.Key("ctrl+p")
	l.picker()
	l.Key(strconv.FormatInt(info.RestrictedOperatorID, 10), "enter")
	l.Until("the switch", func() bool { return l.app.ctx.Client.OperatorID() == info.RestrictedOperatorID })
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	// The owner: the restricted operator may not change others.
	for range ops.Rows() {
		if r, _ := ops.Selected(); r.ID == info.OwnerOperatorID {
			break
		}
		l.Key("j")
	}
	if r, _ := ops.Selected(); r.ID != info.OwnerOperatorID {
		t.Fatalf("the owner %d is not among the operators", info.OwnerOperatorID)
	}
	l.Key("e")
	l.Until("the form", func() bool { return len(l.app.route.Modals) == 1 })
	l.Settle()
	l.Key("tab")
	for range 10 {
		l.Deliver(viewtest.Key("backspace"))
	}
	l.Key("Benno", "ctrl+s")
	form := func() *forms.Modal {
		if len(l.app.route.Modals) == 0 {
			return nil
		}
		f, _ := l.app.route.Modals[0].(*forms.Modal)
		return f
	}
	l.Until("the refusal in the form", func() bool {
		f := form()
		return f != nil && !f.Submitting() && strings.Contains(f.Err(), "You lack permission")
	})

	l.Key("ctrl+p")
	if p := l.picker(); len(l.app.route.Modals) != 2 || p.items[0].current {
		t.Fatalf("picker over the form: %d overlays, items %+v", len(l.app.route.Modals), p.items)
	}
	l.Key("home", "enter")
	l.Until("back to the default", func() bool { return l.app.ctx.Client.OperatorID() == 0 })
	if f := form(); f == nil || len(l.app.route.Modals) != 1 || !strings.Contains(f.View(), "Benno") {
		t.Fatalf("the form and its input did not survive the switch: %d overlays", len(l.app.route.Modals))
	}
	l.Key("ctrl+s")
	l.Until("the new name in the directory", func() bool { return l.app.ctx.Operators[info.OwnerOperatorID] == "Benno" })
	if len(l.app.route.Modals) != 0 {
		t.Fatalf("the form stayed open after saving")
	}
}

// An away toggle updates the root's directory (the ctrl+p picker's "· away") from the
// task's answer, without loading the directory again: the PATCH, and the one read of the
// operator the operators screen makes since the sandbox's away answer does not state the
// online status.
func TestAwayToggleUpdatesTheDirectoryWithoutARequest(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	l.Settle()
	var target client.Operator
	for _, o := range l.app.opList {
		if o.ID != info.OwnerOperatorID && o.IsAway == client.Some(false) && o.IsBot == client.Some(false) {
			target = o
			break
		}
	}
	if target.ID == 0 {
		t.Fatal("the test needs an available operator besides the owner")
	}
	idx := slices.IndexFunc(ops.Rows(), func(r operators.Row) bool { return r.ID == target.ID })
	for range idx { // the cursor starts on the first row
		l.Key("j")
	}
	before := len(l.log.Lines())
	l.Key("w")
	l.Until("the confirmation", func() bool { return len(l.app.route.Modals) == 1 })
	l.Key("y")
	l.Until("the toggle", func() bool { return !ops.Busy() && strings.Contains(l.toasts(), "is now") })
	l.Settle()
	var sent []viewtest.Logged // the conversations screen may still load its first thread
	for _, r := range l.log.Lines()[before:] {
		if strings.Contains(r.Path, "/operators/") {
			sent = append(sent, r)
		}
	}
	if path := fmt.Sprintf("/api/um/v3/operators/%d/", target.ID); len(sent) != 2 || sent[0].Method != http.MethodPatch ||
		sent[0].Path != path+"away/" || sent[1].Method != http.MethodGet || sent[1].Path != path {
		t.Fatalf("the toggle took %d operators requests, want its PATCH and a read of the operator: %+v", len(sent), sent)
	}
	l.Key("ctrl+p")
	p := l.picker()
	found := false
	for _, it := range p.items {
		if it.op == target.ID {
			found = true
			if !strings.HasSuffix(it.label, "· away") {
				t.Fatalf("the picker does not show %s away: %q", target.Name, it.label)
			}
		}
	}
	if !found {
		t.Fatalf("%s is not in the picker: %+v", target.Name, p.items)
	}
}

// The note form is a form like the others: refused for lack of permission, ctrl+p switches
// the acting operator over it, its text stays, and it then saves as the new operator.
func TestActAsOperatorOverARefusedNote(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 100, 30)
	var bot int64
	for _, o := range l.app.opList {
		if o.IsBot.V {
			bot = o.ID
			break
		}
	}
	if bot == 0 {
		t.Fatal("no bot operator in the directory")
	}
	l.Key("ctrl+p")
	l.picker()
	l.Key(strconv.FormatInt(bot, 10), "enter") // bots may not write notes
	l.Until("the switch", func() bool { return l.app.ctx.Client.OperatorID() == bot })
	tri := l.app.Screen().(*conversations.Model)
	l.Until("the list", func() bool { return len(tri.List.Rows()) > 0 && !tri.List.Loading() })
	l.Key("n")
	note := modal[*notes.Form](l, "the note form")
	l.Read("Call back on Monday")
	l.Key("ctrl+s")
	l.Until("the refusal in the form", func() bool {
		return !note.Submitting() && strings.Contains(note.Err(), "You lack permission")
	})

	l.Key("ctrl+p")
	if p := l.picker(); len(l.app.route.Modals) != 2 || p.items[0].current {
		t.Fatalf("picker over the note form: %d overlays, items %+v", len(l.app.route.Modals), p.items)
	}
	l.Key("home", "enter")
	l.Until("back to the default", func() bool { return l.app.ctx.Client.OperatorID() == 0 })
	if l.top() != note || !strings.Contains(note.View(), "Call back on Monday") {
		t.Fatalf("the note and its text did not survive the switch: top %T", l.top())
	}
	l.Key("ctrl+s")
	l.Until("saved", func() bool { return l.top() == nil && strings.Contains(l.toasts(), "Note saved") })
}

// The organization picker's list arrives after it opened (the probe): an answer to an
// earlier opening is dropped, and the current one fills the list without losing what was
// typed or the row under the cursor.
func TestOrgPickerDropsAStaleProbe(t *testing.T) {
	t.Parallel()
	l, info := startApp(t, nil, 100, 30)
	l.Key("ctrl+o")
	p := l.picker()
	l.Until("the probe", func() bool { return !p.loading })
	before := len(p.items)
	l.Key("o", "r", "g")
	sel, _ := p.pick.Selected()
	org := p.items[sel.Item].org
	stale, _ := p.loads.Start(0) // a probe asked again: the first answer is stale
	current, _ := p.loads.Start(0)
	p.Update(orgsFoundMsg{stamp: stale, orgs: []int64{777001, 777002}})
	if len(p.items) != before {
		t.Fatalf("a stale probe answer changed the list: %d items, was %d", len(p.items), before)
	}
	p.Update(orgsFoundMsg{stamp: current, orgs: append([]int64{1}, info.OrgIDs...)})
	if len(p.items) != before+1 || p.pick.Query() != "org" {
		t.Fatalf("the current answer: %d items (want %d), filter %q", len(p.items), before+1, p.pick.Query())
	}
	if sel, ok := p.pick.Selected(); !ok || sel.Item == picker.Typed || p.items[sel.Item].org != org {
		t.Fatalf("the cursor left organization %d: %+v", org, sel)
	}
}
