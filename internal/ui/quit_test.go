package ui_test

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// quits reports whether cmd, run as Bubble Tea runs it, ends the program.
func quits(cmd tea.Cmd) bool {
	for _, m := range viewtest.RunSkippingTicks(cmd, time.Second) {
		if _, ok := m.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// TestQuitWithAHalfWrittenNoteAsks: ctrl+c over a note with text asks "Discard the note?"
// instead of quitting; n keeps the note as typed; ctrl+c twice quits (ctrl+c can always
// quit); y quits; an empty note, or none, quits at once.
func TestQuitWithAHalfWrittenNoteAsks(t *testing.T) {
	sb := testSandbox(t)
	app := newApp(t, newClient(t, sb, client.Config{}))
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	d.key("n")
	d.waitFor("New note about")
	ctrlC := viewtest.Key("ctrl+c")
	// q in the note is text, not a quit.
	d.key("half a thought q")
	d.waitFor("half a thought q")

	_, cmd := app.Update(ctrlC)
	if quits(cmd) {
		t.Fatal("ctrl+c over a half-written note quit without asking")
	}
	v := d.waitFor("Discard the note?")
	if !strings.Contains(v, "y discard · n/esc cancel") {
		t.Fatalf("the question does not give its keys:\n%s", v)
	}
	d.key("n")
	v = d.view()
	if strings.Contains(v, "Discard the note?") || !strings.Contains(v, "half a thought q") {
		t.Fatalf("n did not return to the note as typed:\n%s", v)
	}

	if _, cmd = app.Update(ctrlC); quits(cmd) {
		t.Fatal("the first ctrl+c quit")
	}
	d.waitFor("Discard the note?")
	if _, cmd = app.Update(ctrlC); !quits(cmd) {
		t.Fatal("ctrl+c while asking did not quit")
	}

	d.key("esc") // the question closes; the note is still there
	d.waitFor("half a thought q")
	if _, cmd = app.Update(ctrlC); quits(cmd) {
		t.Fatal("ctrl+c quit without asking")
	}
	if _, cmd = app.Update(viewtest.Key("y")); !quits(cmd) {
		t.Fatal("y did not quit")
	}
}

// TestQuitWithoutUnsavedTextIsImmediate: q and ctrl+c quit at once when no form holds
// typed text (an empty note form included).
func TestQuitWithoutUnsavedTextIsImmediate(t *testing.T) {
	sb := testSandbox(t)
	app := newApp(t, newClient(t, sb, client.Config{}))
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	if _, cmd := app.Update(viewtest.Key("q")); !quits(cmd) {
		t.Fatal("q did not quit")
	}
	d.key("n")
	d.waitFor("New note about")
	if _, cmd := app.Update(viewtest.Key("ctrl+c")); !quits(cmd) {
		t.Fatal("ctrl+c over an empty note did not quit")
	}
}

// The program's last frame after a quit (ui.Leaving on its tea.QuitMsg) is empty, still on
// the alternate screen: the renderer then leaves it with the cursor on the top row, and a
// terminal grown since parley started has no row of the frame to bring onto the shell.
func TestQuitLeavesAnEmptyLastFrame(t *testing.T) {
	sb := testSandbox(t)
	app := newApp(t, newClient(t, sb, client.Config{}))
	d := newDriver(t, app, 120, 40)
	d.waitList("conversations")
	if v := app.View(); v.Content == "" || !v.AltScreen {
		t.Fatalf("before the quit: content %d bytes, alternate screen %v", len(v.Content), v.AltScreen)
	}
	if msg := ui.Leaving(app, viewtest.Key("q")); msg != viewtest.Key("q") {
		t.Fatalf("Leaving changed a key into %v", msg)
	}
	if app.View().Content == "" {
		t.Fatal("a key emptied the frame")
	}
	if _, ok := ui.Leaving(app, tea.QuitMsg{}).(tea.QuitMsg); !ok {
		t.Fatal("Leaving did not pass the quit on")
	}
	if v := app.View(); v.Content != "" || !v.AltScreen || v.Cursor != nil {
		t.Fatalf("the last frame: %q, alternate screen %v, cursor %v; want empty, on the alternate screen, no cursor", v.Content, v.AltScreen, v.Cursor)
	}
}
