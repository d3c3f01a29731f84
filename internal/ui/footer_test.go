package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
)

// footer is the bottom line of the frame, without styles.
func (l *appLoop) footer() string {
	lines := strings.Split(ansi.Strip(l.app.Render()), "\n")
	return lines[len(lines)-1]
}

// checkFooter fails unless the footer is one line exactly w wide that names want, in order,
// and holds whole hints only (none cut mid-key).
func (l *appLoop) checkFooter(where string, w int, want ...string) {
	l.t.Helper()
	f := l.footer()
	if got := ansi.StringWidth(f); got != w {
		l.t.Errorf("%s: the footer is %d wide, want %d: %q", where, got, w, f)
	}
	hints, always := l.app.footerBindings()
	whole := map[string]bool{}
	for _, b := range append(hints, always...) {
		whole[b.Help().Key+" "+b.Help().Desc] = true
	}
	for _, part := range strings.Split(strings.TrimSpace(f), footerSep) {
		if !whole[part] {
			l.t.Errorf("%s: the footer holds %q, which is no whole hint: %q", where, part, f)
		}
	}
	rest := f
	for _, s := range want {
		i := strings.Index(rest, s)
		if i < 0 {
			l.t.Errorf("%s: the footer lacks %q (in this order): %q", where, s, f)
			return
		}
		rest = rest[i+len(s):]
	}
}

// The footer shows the keys of what has them: the focused pane's on every screen, then help
// and quit; an open overlay's own keys instead. At 80 columns it stays one line: hints that
// do not fit go, help and quit stay.
func TestFooterShowsTheKeysOfWhatHasThem(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 120} {
		l, _ := startApp(t, nil, w, 24)
		l.Until("conversations", func() bool { return len(l.app.Screen().(*conversations.Model).List.Rows()) > 0 })
		l.checkFooter("conversations list", w, "j/↓ down", "k/↑ up", "enter open", "/ search", "? help", ": palette", "q quit")
		l.Key("enter")
		l.Until("the thread", func() bool { return l.app.Screen().(*conversations.Model).Focused() != conversations.PaneList })
		l.checkFooter("the thread", w, "g top", "t topics", "n note", "J/K next/prev", "esc back", "? help", ": palette", "q quit")
		l.Key("esc")

		l.Key("2", "/")
		l.checkFooter("contacts search prompt", w, "enter run", "esc cancel")
		l.closeAll()
		l.Until("contacts", func() bool { return len(l.app.Screen().(*contacts.Model).List.Rows()) > 0 })
		l.checkFooter("contacts list", w, "j/↓ down", "k/↑ up", "enter open", "? help", ": palette", "q quit")
		l.Key("f")
		modal[*forms.Modal](l, "the contact filters")
		l.checkFooter("contact filters", w, "ctrl+s submit", "esc cancel")
		l.closeAll()

		l.Key("3")
		l.checkFooter("operators", w, "j/↓ down", "k/↑ up", "w toggle away", "? help", ": palette", "q quit")
		l.Key("4")
		l.Until("analytics", func() bool { return l.app.Screen().(*analytics.Model).Loaded() })
		l.checkFooter("analytics", w, "m pick metric", "d date range", "? help", ": palette", "q quit")
		l.Key("m")
		l.Until("the metric picker", func() bool { return l.top() != nil })
		l.checkFooter("metric picker", w, "↑/↓ move", "enter pick", "esc cancel")
		l.Key("r")
		l.checkFooter("metric picker, filtering", w, "enter pick", "esc clear")
		l.closeAll()
		l.Key("5")
		l.checkFooter("navigation", w, "j/↓ down", "k/↑ up", "? help", ": palette", "q quit")
		l.Key("?")
		l.checkFooter("help", w, "↑/↓ move", "enter run", "?/esc close")
		l.closeAll()
	}
}

// At 80 columns the thread's footer carries the agent's path, most used first: the first
// message, topics, a note, the next or previous conversation and back to the list, before
// any key that only moves; wider, the moves follow.
func TestThreadFooterCarriesTheAgentPath(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w    int
		want string
	}{
		{80, "g top  t topics  n note  J/K next/prev  esc back  ? help  : palette  q quit"},
		{200, "g top  t topics  n note  J/K next/prev  esc back  j/↓ down  k/↑ up  ctrl+d/pgdown page down  ctrl+u/pgup page up  G bottom  tab next pane  p toggle detail  ? help  : palette  q quit"},
	} {
		l, _ := startApp(t, nil, c.w, 24)
		l.Until("conversations", func() bool { return len(l.app.Screen().(*conversations.Model).List.Rows()) > 0 })
		l.Key("j", "enter")
		l.Until("the thread", func() bool { return l.app.Screen().(*conversations.Model).Focused() == conversations.PaneMessages })
		if got := strings.TrimSpace(l.footer()); got != c.want {
			t.Errorf("%d columns, the thread's footer\ngot  %q\nwant %q", c.w, got, c.want)
		}
	}
}

// A rebound key shows in the footer as bound: the footer is built from the bindings.
func TestFooterFollowsRebinding(t *testing.T) {
	t.Parallel()
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"down": {"n", "down"}, "note": {"N"},
		"submit": {"f2"}, "help": {"f1"}}); err != nil {
		t.Fatal(err)
	}
	l, _ := startAppWithKeys(t, nil, keys, 80, 24)
	l.Until("conversations", func() bool { return len(l.app.Screen().(*conversations.Model).List.Rows()) > 0 })
	l.checkFooter("conversations list", 80, "n/↓ down", "f1 help", ": palette", "q quit")
	l.Key("f")
	modal[*forms.Modal](l, "the conversation filters")
	l.checkFooter("conversation filters", 80, "f2 submit", "esc cancel")
	if strings.Contains(l.footer(), "ctrl+s") {
		t.Errorf("the footer names ctrl+s, which no longer submits: %q", l.footer())
	}
}
