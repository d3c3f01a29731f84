package ui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/theme"
	"github.com/parley-tui/parley/ui"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/conversations"
)

// newMouseApp is newApp with the mouse on (or off).
func newMouseApp(t testing.TB, c *client.Client, mouse bool) *ui.App {
	t.Helper()
	return ui.New(ui.Options{Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: clock,
		Demo: true, RefreshInterval: 30 * time.Second, RequestBudget: 400, PageSize: 100, Mouse: mouse})
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
	d.waitFor("conversations ·")
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
	d.waitFor("conversations ·")
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
	d.waitFor("Search contacts:") // a fresh contacts screen asks what to look up
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
