package ui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// openHelp presses ? and returns the help modal.
func (l *appLoop) openHelp() *helpModal {
	l.t.Helper()
	l.Key("?")
	l.Until("help", func() bool {
		if n := len(l.app.route.Modals); n > 0 {
			_, ok := l.app.route.Modals[n-1].(*helpModal)
			return ok
		}
		return false
	})
	return l.app.route.Modals[len(l.app.route.Modals)-1].(*helpModal)
}

func (l *appLoop) helpOpen() bool {
	for _, m := range l.app.route.Modals {
		if _, ok := m.(*helpModal); ok {
			return true
		}
	}
	return false
}

// helpEntries reads the "key  description" entries of help's box, moving the cursor
// through all of it, and checks that every frame of the box is whole: a top and a bottom border, every
// line as wide as the box, the whole screen exactly w×h.
func helpEntries(t *testing.T, l *appLoop, h *helpModal, w, ht int) []string {
	t.Helper()
	entry := regexp.MustCompile(`(\S+)  +(\S[^│]*?)(?:   |$)`)
	byLine := map[int][]string{} // the entries of every body line, by its index in the body
	l.Key("home")
	for range 300 {
		viewtest.CheckSize(t, l.app.Render(), w, ht, "the screen with help")
		box := ansi.Strip(h.View())
		lines := strings.Split(box, "\n")
		if len(lines) > ht-4 {
			t.Fatalf("help is %d lines high on a %d-line terminal:\n%s", len(lines), ht, box)
		}
		bw := ansi.StringWidth(lines[0])
		if !strings.HasPrefix(lines[0], "╭─ Keys: ") || !strings.HasPrefix(lines[len(lines)-1], "╰") {
			t.Fatalf("help without its top or bottom border:\n%s", box)
		}
		for i, line := range lines {
			if lw := ansi.StringWidth(line); lw != bw || lw > w-4 {
				t.Fatalf("line %d of help is %d wide (box %d, terminal %d):\n%s", i, lw, bw, w, box)
			}
		}
		for i, line := range lines[2 : len(lines)-2] { // below the filter line, above the footer
			line = strings.Trim(line, "│ ")
			var es []string
			for _, m := range entry.FindAllStringSubmatch(line, -1) {
				es = append(es, m[1]+" "+strings.TrimSpace(m[2]))
			}
			byLine[h.pane.Offset()+i] = es
		}
		before := h.pick.Cursor()
		l.Key("down")
		if !l.helpOpen() {
			t.Fatal("down closed help")
		}
		if h.pick.Cursor() == before {
			break
		}
	}
	var out []string
	for i := range len(byLine) {
		out = append(out, byLine[i]...)
	}
	return out
}

func TestHelpFitsAndScrollsAtTheSmallestSizes(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {80, 20}} {
		l, _ := startApp(t, nil, size[0], size[1])
		l.Until("the list", func() bool { return viewtest.ListShown("conversations").MatchString(l.app.Render()) })
		h := l.openHelp()
		got := helpEntries(t, l, h, size[0], size[1])
		for _, want := range []string{"ctrl+o organization", "ctrl+p act as operator", "q quit", "ctrl+c quit now",
			"space mark row", "d delete", "y copy id", "t edit topics", "n new note", "5 navigation"} {
			if !slices.Contains(got, want) {
				t.Errorf("%dx%d: help never shows %q; it shows %q", size[0], size[1], want, got)
			}
		}
		if size[1] == 20 {
			// Too little room for all of it: it says there is more, and scrolls.
			l.Key("home")
			moreBelow, moreAbove := regexp.MustCompile(`↓ \d+ more`), regexp.MustCompile(`↑ \d+ more`)
			if v := ansi.Strip(h.View()); !moreBelow.MatchString(v) {
				t.Errorf("80x20: no sign of more keys below:\n%s", v)
			}
			l.Key("pgdown")
			if h.pane.Offset() == 0 {
				t.Error("pgdown did not scroll help")
			}
			l.Key("end")
			if v := ansi.Strip(h.View()); !moreAbove.MatchString(v) || moreBelow.MatchString(v) {
				t.Errorf("80x20 at the end: want only the sign of more above:\n%s", v)
			}
			l.Key("pgup", "up", "home")
			if h.pane.Offset() != 0 {
				t.Errorf("back at the top, offset %d", h.pane.Offset())
			}
		}
		l.Key("?")
		if l.helpOpen() {
			t.Fatal("? did not close help")
		}
	}
}

// Help closes with the help key, and with back while no filter is typed; every other key
// moves or filters and never closes it: as in every picker, letters are filter text (q and
// j too), and back clears a filter first.
func TestHelpClosesWithHelpAndBackOnly(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 80, 24)
	for _, k := range []string{"?", "esc"} {
		h := l.openHelp()
		for _, other := range []string{"j", "k", "down", "tab", "x", "q"} {
			l.Key(other)
			if !l.helpOpen() {
				t.Fatalf("%q closed help", other)
			}
		}
		if h.pick.Query() != "jkxq" {
			t.Fatalf("the filter is %q after typing j k x q", h.pick.Query())
		}
		l.Key("esc")
		if !l.helpOpen() || h.pick.Query() != "" {
			t.Fatalf("esc with a filter: help open %v, filter %q", l.helpOpen(), h.pick.Query())
		}
		_, cmd := h.Update(viewtest.Key(k))
		if cmd != nil {
			if _, quit := cmd().(tea.QuitMsg); quit {
				t.Fatalf("%q in help quits parley", k)
			}
		}
		l.Key(k)
		if l.helpOpen() {
			t.Fatalf("%q did not close help", k)
		}
	}
}

// At 200×50 every key is listed once, on the conversations list and the contacts list
// (whose screens repeat keys of their panes).
func TestHelpListsEveryKeyOnce(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 200, 50)
	l.Until("the list", func() bool { return viewtest.ListShown("conversations").MatchString(l.app.Render()) })
	check := func(where string) {
		t.Helper()
		h := l.openHelp()
		got := helpEntries(t, l, h, 200, 50)
		if h.pane.Offset() != 0 || len(h.body()) > h.bodyH() {
			t.Errorf("%s: help scrolls at 200x50", where)
		}
		keys := map[string]int{}
		for _, e := range got {
			keys[strings.Fields(e)[0]]++
		}
		for _, want := range []string{"/", "f", "esc", "r", "space", "d", "y", "n", "?", "q", "ctrl+o"} {
			if keys[want] != 1 {
				t.Errorf("%s: %q listed %d times: %q", where, want, keys[want], got)
			}
		}
		l.Key("esc")
	}
	check("conversations")
	l.Key("2")
	check("contacts")
}

// Help lays out in as many columns as it needs and cuts nothing when even one column is
// narrow.
func TestHelpLayoutReflows(t *testing.T) {
	t.Parallel()
	ctx := &common.Ctx{Styles: theme.Plain(false), Keys: keymap.Default()}
	k := ctx.Keys
	groups := [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageDown, k.PageUp},
		{k.Help, k.Palette, k.Back, k.Refresh, k.Conversations, k.Contacts, k.Operators, k.Analytics, k.Navigation, k.PickOrg, k.ActAs, k.Quit},
		{k.Search, k.Filter, k.Status, k.Order},
		{k.Mark, k.Delete, k.CopyID, k.Topics, k.Note, k.Edit, k.Away, k.Upsert}, {k.NextPane, k.PrevPane, k.ToggleDetail}}
	h := newHelp(ctx, "Test", groups)
	h.SetSize(196, 46)
	wide := h.body()
	h.SetSize(76, 18)
	narrow := h.body()
	if len(wide) >= len(narrow) {
		t.Fatalf("%d lines at 196 columns, %d at 76: no reflow", len(wide), len(narrow))
	}
	if len(narrow) <= h.bodyH() {
		t.Fatalf("the test wants help taller than its room: %d lines, room %d", len(narrow), h.bodyH())
	}
	for _, size := range [][2]int{{196, 46}, {76, 18}, {40, 10}} {
		h.SetSize(size[0], size[1])
		box := ansi.Strip(h.View())
		lines := strings.Split(box, "\n")
		if len(lines) > size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%v: a line %d wide:\n%s", size, w, box)
			}
		}
	}
}

// Typing filters help (the filter line at its top), the arrows move from key to key and
// enter runs the key under the cursor through the input layer, help closed first.
func TestHelpFiltersAndRunsTheKey(t *testing.T) {
	t.Parallel()
	l, _ := startApp(t, nil, 80, 24)
	l.Until("conversations", func() bool { return len(l.app.Screen().(*conversations.Model).List.Rows()) > 0 })
	h := l.openHelp()
	l.Key("down", "down", "down", "up")
	if b, _ := h.selected(); h.pick.Cursor() != 2 || b.Help().Desc != h.shown[0][2].Help().Desc {
		t.Fatalf("down down down up: the cursor is on %d (%q), want the third key", h.pick.Cursor(), b.Help().Desc)
	}
	l.Key("cycle")
	if v := ansi.Strip(h.View()); !strings.Contains(v, "filter: cycle") {
		t.Fatalf("no filter line:\n%s", v)
	}
	var descs []string
	for _, g := range h.shown {
		for _, b := range g {
			descs = append(descs, b.Help().Desc)
		}
	}
	if !slices.Equal(descs, []string{"cycle status", "cycle ordering"}) {
		t.Fatalf("\"cycle\" keeps %q", descs)
	}
	before := l.app.Screen().(*conversations.Model).List.Query().Ordering
	l.Key("down", "enter")
	if l.helpOpen() {
		t.Fatal("enter left help open")
	}
	l.Settle()
	if after := l.app.Screen().(*conversations.Model).List.Query().Ordering; after == before {
		t.Fatalf("enter on \"cycle ordering\" left the ordering %q", after)
	}
	h = l.openHelp()
	l.Key("zzz")
	if v := ansi.Strip(h.View()); !strings.Contains(v, `No keys match "zzz"`) {
		t.Fatalf("a filter matching nothing:\n%s", v)
	}
	l.Key("enter")
	if !l.helpOpen() {
		t.Fatal("enter with nothing to run closed help")
	}
}
