package ui_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// newMouseApp is newApp with the mouse on (or off).
func newMouseApp(t testing.TB, c *client.Client, mouse bool) *ui.App {
	t.Helper()
	return ui.New(ui.Options{Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: clock,
		Timer: viewtest.After, Demo: true, RefreshInterval: 30 * time.Second, RequestBudget: 400, PageSize: 100, Mouse: mouse})
}

// sgrClick is a left press and release at column x, line y (0-based) as a terminal in SGR
// mouse mode writes them (1-based).
func sgrClick(x, y int) string {
	return fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+1, y+1, x+1, y+1)
}

// sgrWheel is one wheel step up (or down) at column x, line y.
func sgrWheel(up bool, x, y int) string {
	b := 65
	if up {
		b = 64
	}
	return fmt.Sprintf("\x1b[<%d;%d;%dM", b, x+1, y+1)
}

// cellOf finds text in the plain frame: its column and line (false when absent).
func cellOf(view, text string) (x, y int, ok bool) {
	for y, line := range strings.Split(ansi.Strip(view), "\n") {
		if i := strings.Index(line, text); i >= 0 {
			return ansi.StringWidth(line[:i]), y, true
		}
	}
	return 0, 0, false
}

func (d *driver) click(text string) {
	d.t.Helper()
	x, y, ok := cellOf(d.view(), text)
	if !ok {
		d.t.Fatalf("%q is not on the screen:\n%s", text, d.view())
	}
	d.read(sgrClick(x, y))
}

// With the mouse off (the default) the view asks for no mouse reports, and a mouse
// sequence that arrives anyway changes nothing: no screen switch, no cursor move.
func TestMouseOffAsksNothingAndDoesNothing(t *testing.T) {
	sb := testSandbox(t)
	app := newMouseApp(t, newClient(t, sb, client.Config{}), false)
	d := newDriver(t, app, 80, 24)
	d.waitList("conversations")
	if m := app.View().MouseMode; m != tea.MouseModeNone {
		t.Fatalf("mouse off: the view's mouse mode is %v", m)
	}
	tri := app.Screen().(*conversations.Model)
	before := d.view()
	d.click("2 Contacts")
	d.read(sgrClick(4, 5))
	d.read(sgrWheel(false, 4, 5))
	if _, ok := app.Screen().(*conversations.Model); !ok || tri.List.Cursor() != 0 || d.view() != before {
		t.Fatalf("mouse off: a click or the wheel acted (screen %T, cursor %d):\n%s", app.Screen(), tri.List.Cursor(), d.view())
	}
}

// With the mouse on the view asks for cell-motion reports; a click on a tab shows its
// screen; a click on a row selects it, a second click opens it as enter does.
func TestMouseClickTabAndRows(t *testing.T) {
	sb := testSandbox(t)
	app := newMouseApp(t, newClient(t, sb, client.Config{}), true)
	d := newDriver(t, app, 80, 24)
	d.waitList("conversations")
	if m := app.View().MouseMode; m != tea.MouseModeCellMotion {
		t.Fatalf("mouse on: the view's mouse mode is %v", m)
	}
	tri := app.Screen().(*conversations.Model)
	third := tri.List.Rows()[2]
	_, header, _ := cellOf(d.view(), "conversations ·") // the list's header; the rows follow
	d.read(sgrClick(10, header+3))
	if r, _ := tri.List.Selected(); r.ID != third.ID || tri.Focused() != conversations.PaneList {
		t.Fatalf("a click on the third row selected %d (want %d), focus %v", r.ID, third.ID, tri.Focused())
	}
	if tri.Msgs.ConversationID() == third.ID {
		t.Fatal("the first click opened the row")
	}
	d.read(sgrClick(30, header+3))
	if tri.Msgs.ConversationID() != third.ID || tri.Focused() != conversations.PaneMessages {
		t.Fatalf("a second click opened %d (want %d), focus %v", tri.Msgs.ConversationID(), third.ID, tri.Focused())
	}

	d.click("2 Contacts")
	con, ok := app.Screen().(*contacts.Model)
	if !ok {
		t.Fatalf("a click on the contacts tab shows %T", app.Screen())
	}
	d.key("/")
	d.waitFor("Search contacts:") // the search prompt open: a click on a row closes it
	d.Until("the contacts", func() bool { return len(con.List.Rows()) >= 3 })
	row := con.List.Rows()[2]
	_, header, _ = cellOf(d.view(), "contacts ·")
	d.read(sgrClick(10, header+3))
	if r, _ := con.List.Selected(); r.ID != row.ID {
		t.Fatalf("a click on the third contact selected %d, want %d", r.ID, row.ID)
	}
	if strings.Contains(d.view(), "Search contacts:") {
		t.Fatal("the click left the search prompt open")
	}
	d.click("1 Conversations")
	if app.Screen() != common.Screen(tri) {
		t.Fatalf("a click on the conversations tab shows %T", app.Screen())
	}
}

// With saved views their row sits above each list: a click still selects the row under the
// pointer (the list starts a line lower), and a click on the views row selects no row.
func TestMouseClickRowsBelowTheViewsRow(t *testing.T) {
	sb := testSandbox(t)
	app := ui.New(ui.Options{Client: newClient(t, sb, client.Config{}), Styles: theme.Plain(false), Keys: keymap.Default(),
		Now: clock, Timer: viewtest.After, Demo: true, RefreshInterval: 30 * time.Second, RequestBudget: 400, PageSize: 100, Mouse: true,
		Views: []common.SavedView{
			{Name: "Waiting", Screen: common.ViewsConversations, Status: "pending"},
			{Name: "Berlin", Screen: common.ViewsContacts, Search: "Berlin"},
		}})
	d := newDriver(t, app, 80, 24)
	d.waitList("conversations")
	d.waitFor("Waiting")
	tri := app.Screen().(*conversations.Model)
	// A click on a view shows it, as [ and ] do; one on the row's blank end does nothing.
	d.click("Waiting")
	d.waitFor("only pending")
	d.Until("the pending conversations", func() bool { return len(tri.List.Rows()) > 2 })
	_, viewsLine, _ := cellOf(d.view(), "Waiting")
	d.read(sgrClick(70, viewsLine))
	if tri.List.Cursor() != 0 || !strings.Contains(d.view(), "only pending") {
		t.Fatalf("a click on the views row's blank end acted (cursor %d):\n%s", tri.List.Cursor(), d.view())
	}
	third := tri.List.Rows()[2]
	_, header, _ := cellOf(d.view(), "conversations ·")
	d.read(sgrClick(10, header+3))
	if r, _ := tri.List.Selected(); r.ID != third.ID {
		t.Fatalf("a click on the third row selected %d, want %d:\n%s", r.ID, third.ID, d.view())
	}

	d.click("2 Contacts")
	con := app.Screen().(*contacts.Model)
	d.key("/")
	d.waitFor("Search contacts:")
	d.Until("the contacts", func() bool { return len(con.List.Rows()) >= 3 })
	row := con.List.Rows()[2]
	_, header, _ = cellOf(d.view(), "contacts ·")
	d.read(sgrClick(10, header+3))
	if r, _ := con.List.Selected(); r.ID != row.ID {
		t.Fatalf("a click on the third contact selected %d, want %d:\n%s", r.ID, row.ID, d.view())
	}
	d.click("Berlin")
	d.waitFor(`search:"Berlin"`)
}

// Side by side (120 columns: list | messages), a click in a pane focuses it; the wheel
// over the list moves its cursor, over the thread it scrolls back and older messages come
// in by the same cursor requests the keys make; the status bar and the footer take no click.
func TestMousePanesAndWheel(t *testing.T) {
	sb := testSandbox(t)
	app := newMouseApp(t, newClient(t, sb, client.Config{}), true)
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	tri := app.Screen().(*conversations.Model)
	for range 3 {
		d.read(sgrWheel(false, 10, 10))
	}
	if tri.List.Cursor() != 3 {
		t.Fatalf("three wheel steps down over the list: cursor %d", tri.List.Cursor())
	}
	d.read(sgrWheel(true, 10, 10))
	if tri.List.Cursor() != 2 {
		t.Fatalf("a wheel step up: cursor %d", tri.List.Cursor())
	}
	d.read(sgrClick(100, 20))
	if tri.Focused() != conversations.PaneMessages {
		t.Fatalf("a click in the messages pane: focus %v", tri.Focused())
	}
	d.read(sgrClick(10, 20))
	if tri.Focused() != conversations.PaneList {
		t.Fatalf("a click in the list pane: focus %v", tri.Focused())
	}

	long := sb.Server.Info().LongConversationID
	d.send(common.OpenConversationMsg{ConversationID: long, From: "a test"})
	d.Until("the thread", func() bool { return tri.Msgs.Loaded() > 0 && !tri.Msgs.Loading() })
	if tri.Msgs.Requests() != 1 {
		t.Fatalf("the thread opened with %d requests", tri.Msgs.Requests())
	}
	first := tri.Msgs.Loaded()
	for i := 0; i < 1000 && tri.Msgs.Requests() < 2; i++ {
		d.read(sgrWheel(true, 100, 20))
	}
	d.Until("the older page", func() bool { return !tri.Msgs.Loading() })
	if tri.Msgs.Requests() != 2 || tri.Msgs.Loaded() <= first {
		t.Fatalf("scrolling back with the wheel: %d requests, %d messages (first %d)", tri.Msgs.Requests(), tri.Msgs.Loaded(), first)
	}

	before := d.view()
	d.read(sgrClick(10, 38)) // the status bar
	d.read(sgrClick(10, 39)) // the footer
	if d.view() != before {
		t.Fatal("a click on the status bar or the footer changed the screen")
	}
}

// With a form open, a click inside its box reaches the form in the box's coordinates (it
// focuses the field clicked); a click outside the box, or on a tab, does nothing.
func TestMouseClickInAForm(t *testing.T) {
	sb := testSandbox(t)
	app := newMouseApp(t, newClient(t, sb, client.Config{}), true)
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	tri := app.Screen().(*conversations.Model)
	d.key("f")
	v := d.waitFor("Widget")
	x, y, ok := cellOf(v, "Widget")
	if !ok {
		t.Fatalf("no widget field in the filters form:\n%s", v)
	}
	d.read(sgrClick(x, y))
	d.key("j") // the select clicked moves: the first widget
	d.key("ctrl+s")
	d.Until("the widget filter", func() bool { return tri.List.Query().Filter.WidgetID != 0 })
	if f := tri.List.Query().Filter; f.TopicID != 0 || f.OperatorID != 0 || f.Status != "" {
		t.Fatalf("the key after the click reached another field: %+v", f)
	}

	// The filtered list's first row opens once the cursor rests: the frame compared below
	// is taken after that, so that only a click could change it.
	d.Until("the filtered list's first thread", func() bool {
		rows := tri.List.Rows()
		return len(rows) > 0 && tri.Msgs.ConversationID() == rows[0].ID && !tri.Msgs.Loading()
	})
	d.key("f")
	d.waitFor("Widget")
	before := d.view()
	d.read(sgrClick(1, 20)) // left of the box
	d.read(sgrClick(30, 0)) // a tab
	if _, ok := app.Screen().(*conversations.Model); !ok || d.view() != before {
		t.Fatalf("a click outside the form acted:\n%s", d.view())
	}
}

// TestGoldenMouseContacts: at 80×24 with the mouse on, a click on the contacts tab and one
// on the third contact: the search prompt the fresh screen opened is gone and the third row
// is highlighted. Regenerate with: go test ./internal/ui -run GoldenMouse -update
func TestGoldenMouseContacts(t *testing.T) {
	sb := testSandbox(t)
	app := newMouseApp(t, newClient(t, sb, client.Config{}), true)
	d := newDriver(t, app, 80, 24)
	d.waitList("conversations")
	d.click("2 Contacts")
	con := app.Screen().(*contacts.Model)
	d.Until("the contacts", func() bool { return len(con.List.Rows()) >= 3 })
	_, header, _ := cellOf(d.view(), "contacts ·")
	d.read(sgrClick(10, header+3))
	golden.RequireEqual(t, []byte(viewtest.Plain(d.view())))
}

// On a wide terminal the contacts screen previews the contact the cursor is on once it
// rests there, also when a list arrives with the cursor on its first row (no key pressed):
// the detail beside a fresh list is never left empty.
func TestContactsPreviewTheFirstContactOfANewList(t *testing.T) {
	sb := testSandbox(t)
	app := newApp(t, newClient(t, sb, client.Config{}))
	d := newDriver(t, app, 160, 46)
	d.waitList("conversations")
	d.key("2")
	con := app.Screen().(*contacts.Model)
	d.Until("the contacts", func() bool { return len(con.List.Rows()) > 0 })
	first := con.List.Rows()[0]
	d.Until("the first contact previewed", func() bool { return con.Detail.ID() == first.ID && !con.Detail.Loading() })
	if con.Focused() != contacts.PaneList {
		t.Fatalf("the preview took the focus: %v", con.Focused())
	}
	d.key("/")
	d.read("Berlin")
	d.key("enter")
	d.Until("the search's contacts", func() bool { return len(con.List.Rows()) > 0 && con.List.Rows()[0].ID != first.ID })
	top := con.List.Rows()[0]
	d.Until("the search's first contact previewed", func() bool { return con.Detail.ID() == top.ID && !con.Detail.Loading() })
}

// With the palette open, a click on a row selects it and a click on the selected row runs
// it, as enter does; the wheel moves the cursor.
func TestMouseInThePalette(t *testing.T) {
	sb := testSandbox(t)
	app := newMouseApp(t, newClient(t, sb, client.Config{}), true)
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	d.key(":")
	d.waitFor("Command palette")
	d.read("screen")
	v := d.waitFor("5 of ")
	x, y, ok := cellOf(v, "› ")
	if !ok {
		t.Fatalf("no selected row:\n%s", v)
	}
	d.read(sgrWheel(false, x, y))
	if _, y2, _ := cellOf(d.view(), "› "); y2 != y+1 {
		t.Fatalf("a wheel step down: the selected row is on line %d, want %d:\n%s", y2, y+1, d.view())
	}
	d.read(sgrClick(x+4, y+2))
	if _, y3, _ := cellOf(d.view(), "› "); y3 != y+2 {
		t.Fatalf("a click on a row: the selected row is on line %d, want %d:\n%s", y3, y+2, d.view())
	}
	row := strings.Fields(strings.Split(ansi.Strip(d.view()), "\n")[y+2])
	d.read(sgrClick(x+4, y+2))
	d.Until("the palette closed", func() bool { return !strings.Contains(d.view(), "Command palette") })
	if got := app.ScreenName(); !slices.Contains(row, "›") || !slices.Contains(row, got) {
		t.Fatalf("the second click on %q shows %s", row, got)
	}
}
