package ui

import (
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
)

// The terminal's answer about its background restyles everything in place: a light
// background puts the light palette on the rows already drawn (the list's cache of rows is
// drawn again), a dark one after dark changes nothing.
func TestBackgroundAnswerRestylesTheRowsDrawn(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 120, 40)
	*l.app.ctx.Styles = *theme.New(theme.Default(), true, false)
	tri := l.app.Screen().(*conversations.Model)
	l.Until("conversations", func() bool { return len(tri.List.Rows()) >= 3 })
	l.Key("j")
	darkSel, lightSel := "38;2;68;147;248m▌", "38;2;9;105;218m▌" // the cursor's cell on the selected row
	darkMuted := "38;2;145;152;161"                              // the rows' times, dimmed
	if f := l.app.Render(); !strings.Contains(f, darkSel) || strings.Contains(f, lightSel) || !strings.Contains(f, darkMuted) {
		t.Fatalf("before the answer the rows are not in the dark palette:\n%q", f)
	}
	l.Deliver(tea.BackgroundColorMsg{Color: color.White})
	l.Settle()
	if l.app.ctx.Styles.Dark {
		t.Fatal("a white background left the dark styles")
	}
	f := l.app.Render()
	if !strings.Contains(f, lightSel) || strings.Contains(f, darkSel) {
		t.Fatalf("after a light answer the selected row is not in the light palette:\n%q", f)
	}
	// The rows drawn before the answer (not under the cursor: from the list's cache) carry
	// the light palette's colours too: the dark palette's dimmed text is gone.
	if strings.Contains(f, darkMuted) {
		t.Fatalf("a row drawn before the answer keeps the dark palette's colours:\n%q", f)
	}
	l.Deliver(tea.BackgroundColorMsg{Color: color.Black})
	l.Settle()
	if !l.app.ctx.Styles.Dark {
		t.Fatal("a black background did not bring the dark styles back")
	}
}

// The search prompt shows the terminal's own cursor after the text typed, on the bottom
// line above the footer (no drawn cursor that blinks by redrawing); without a prompt the
// cursor is hidden.
func TestSearchPromptShowsTheTerminalsCursor(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 120, 40)
	tri := l.app.Screen().(*conversations.Model)
	l.Until("conversations", func() bool { return len(tri.List.Rows()) >= 1 })
	if c := l.app.View().Cursor; c != nil {
		t.Fatalf("a cursor at %d,%d with no prompt open", c.X, c.Y)
	}
	l.Key("/", "ab")
	v := l.app.View()
	lines := strings.Split(v.Content, "\n")
	if v.Cursor == nil {
		t.Fatal("no cursor in the search prompt")
	}
	line := lines[v.Cursor.Y]
	if v.Cursor.Y != 38 || !strings.HasPrefix(line, "Search conversations: ab") {
		t.Fatalf("cursor on line %d (%q), want 38, the prompt's", v.Cursor.Y, line)
	}
	if want := len("Search conversations: ab"); v.Cursor.X != want {
		t.Fatalf("cursor at column %d, want %d (after the text)", v.Cursor.X, want)
	}
	l.Key("esc")
	if c := l.app.View().Cursor; c != nil {
		t.Fatalf("the cursor stays at %d,%d after the prompt closed", c.X, c.Y)
	}
}
