package ui_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

func TestMoveAndOpenThread(t *testing.T) {
	sb := testSandbox(t)
	app, _, d := startOn(t, sb, 80, 24)
	tri := app.Screen().(*conversations.Model)
	rows := tri.List.Rows()
	if len(rows) < 3 {
		t.Fatalf("loaded %d rows", len(rows))
	}
	d.key("j", "j")
	if r, _ := tri.List.Selected(); r.ID != rows[2].ID {
		t.Fatalf("after j j the cursor is on %d, want the third row %d", r.ID, rows[2].ID)
	}
	d.key("enter")
	if got := tri.Msgs.ConversationID(); got != rows[2].ID {
		t.Fatalf("enter opened %d, want %d", got, rows[2].ID)
	}
	v := d.view()
	for i, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w != 80 {
			t.Fatalf("line %d is %d wide: %q", i, w, l)
		}
	}
}

func TestCoalescedKeysAreReplayed(t *testing.T) {
	sb := testSandbox(t)
	app := newApp(t, newClient(t, sb, client.Config{}))
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	tri := app.Screen().(*conversations.Model)
	rows := tri.List.Rows()
	// Two presses read together: Bubble Tea's input reader makes two messages of them.
	d.read("jj")
	if r, _ := tri.List.Selected(); r.ID != rows[2].ID {
		t.Fatalf("\"jj\" in one read moved the cursor to %d, want the third row %d", r.ID, rows[2].ID)
	}
}

func TestHelpShowsTheKeysOfWhereYouAre(t *testing.T) {
	sb := testSandbox(t)
	c := newClient(t, sb, client.Config{})
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"status": {"S"}}); err != nil {
		t.Fatal(err)
	}
	app := ui.New(ui.Options{Client: c, Styles: theme.Plain(false), Keys: keys, Now: clock, Timer: viewtest.After, PageSize: 100})
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	d.key("?")
	v := d.view()
	for _, want := range []string{"cycle status", "filters", "search", "next pane", "quit"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q:\n%s", want, v)
		}
	}
	if !strings.Contains(v, "S ") || strings.Contains(v, "pick metric") {
		t.Errorf("help does not show the rebound S for status, or shows another screen's keys:\n%s", v)
	}
	d.key("esc") // ?, esc and q close help
	if strings.Contains(d.view(), "Keys:") {
		t.Fatal("help stayed open")
	}
}

// TestKeysRightAfterSlashGoToTheSearch: a fast typist (or several keys in one read over
// SSH) sends "/dos" before the prompt could open through a command; none of d (delete),
// o (ordering) or s (status) may reach the list.
func TestKeysRightAfterSlashGoToTheSearch(t *testing.T) {
	sb := testSandbox(t)
	for _, oneRead := range []bool{false, true} {
		app := newApp(t, newClient(t, sb, client.Config{}))
		d := newDriver(t, app, 120, 40)
		d.waitList("conversations")
		tri := app.Screen().(*conversations.Model)
		if oneRead {
			d.read("/dos")
		} else {
			// Each key is handled before the previous one's commands ran.
			for _, k := range []string{"/", "d", "o", "s"} {
				app.Update(viewtest.Key(k))
			}
		}
		q := tri.List.Query()
		if q.Ordering != "" || q.Filter.Status != "" {
			t.Fatalf("oneRead=%v: keys typed after / reached the list: %+v", oneRead, q)
		}
		v := app.Render()
		if !strings.Contains(v, "Search conversations: dos") || strings.Contains(v, "Delete") {
			t.Fatalf("oneRead=%v: the prompt did not get the keys:\n%s", oneRead, v)
		}
		d.key("enter")
		if tri.List.Query().Search != "dos" {
			t.Fatalf("oneRead=%v: search is %q", oneRead, tri.List.Query().Search)
		}
	}
}
