package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/confirm"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// openPalette presses k (":" or ctrl+k) and returns the palette.
func (l *appLoop) openPalette(k string) *palette {
	l.t.Helper()
	l.Key(k)
	return modal[*palette](l, "the palette")
}

// titles are the rows the palette shows, "kind: title [keys]".
func (p *palette) titles() []string {
	var out []string
	for _, mt := range p.pick.Shown() {
		it := p.item(mt)
		s := it.kind + ": " + it.title
		if it.keys != "" {
			s += " [" + it.keys + "]"
		}
		out = append(out, s)
	}
	return out
}

func startConversations(t *testing.T, w, h int, set func(*Options)) *appLoop {
	t.Helper()
	l, _ := startAppWith(t, nil, w, h, set)
	l.Until("conversations", func() bool { return len(l.app.Screen().(*conversations.Model).List.Rows()) > 0 })
	return l
}

// The palette lists the keys of where the user is and of the whole app, each with its key,
// and the screens; typing filters them fuzzily, best first; esc closes it.
func TestPaletteListsAndFilters(t *testing.T) {
	t.Parallel()
	l := startConversations(t, 80, 24, nil)
	for _, open := range []string{":", "ctrl+k"} {
		p := l.openPalette(open)
		got := p.titles()
		for _, want := range []string{"conversations: filters [f]", "conversations: cycle status [s]", "key: help [?]",
			"conversations: refresh [r]", "key: quit [q]", "screen: Analytics [4]", "screen: Navigation [5]", "operator: act as the default operator [ctrl+p]",
			"analytics: pick metric [m]", "operators: toggle away [w]"} {
			if !slices.Contains(got, want) {
				t.Errorf("%s: the palette lacks %q: %q", open, want, got)
			}
		}
		for _, r := range got {
			if strings.Contains(r, "command palette") || strings.HasPrefix(r, "analytics: down") {
				t.Errorf("%s: the palette offers %q (itself, or another screen's move)", open, r)
			}
		}
		l.Key("esc")
		if l.top() != nil {
			t.Fatalf("%s: esc left the palette open", open)
		}
	}
	p := l.openPalette(":")
	all := len(p.pick.Shown())
	l.Key("ana")
	if n := len(p.pick.Shown()); n == 0 || n >= all {
		t.Fatalf("\"ana\" filtered %d rows to %d", all, n)
	}
	if got := p.titles()[0]; got != "screen: Analytics [4]" {
		t.Errorf("\"ana\" puts %q first, want the analytics screen: %q", got, p.titles())
	}
	l.Key("zzzq")
	if len(p.pick.Shown()) != 0 || !strings.Contains(ansi.Strip(p.View()), `Nothing matches "anazzzq"`) {
		t.Errorf("a query matching nothing shows %q:\n%s", p.titles(), ansi.Strip(p.View()))
	}
	l.Key("backspace", "backspace", "backspace", "backspace")
	l.Key("down", "up", "enter")
	if l.top() != nil {
		t.Fatal("enter left the palette open")
	}
	if _, ok := l.app.Screen().(*analytics.Model); !ok {
		t.Fatalf("enter on the analytics screen's row shows %s", l.app.ScreenName())
	}
}

// A key's row runs that key through the root's input layer after the palette closed: the
// filters row opens the filters form, as f does.
func TestPaletteRunsABindingAsItsKey(t *testing.T) {
	t.Parallel()
	keys := keymap.Default()
	if err := keys.Apply(map[string][]string{"filter": {"F"}}); err != nil {
		t.Fatal(err)
	}
	l := startConversations(t, 80, 24, func(o *Options) { o.Keys = keys })
	p := l.openPalette(":")
	l.Key("filters")
	if got := p.titles(); len(got) == 0 || got[0] != "conversations: filters [F]" {
		t.Fatalf("\"filters\" shows %q first, want the rebound filters key", got)
	}
	l.Key("enter")
	modal[*forms.Modal](l, "the filters form")
	if len(l.app.route.Modals) != 1 {
		t.Fatalf("%d modals open, want the form alone (the palette closed first)", len(l.app.route.Modals))
	}
}

// The palette's "write transcript" row is D: on the open conversation it opens the
// transcript's form for that conversation.
func TestPaletteWritesTranscript(t *testing.T) {
	l := startConversations(t, 80, 24, nil)
	tri := l.app.Screen().(*conversations.Model)
	l.Key("enter")
	l.Until("the thread", func() bool { return tri.Focused() == conversations.PaneMessages })
	id := tri.Msgs.ConversationID()
	p := l.openPalette(":")
	l.Key("transcript")
	if got := p.titles(); len(got) == 0 || got[0] != "conversations: write transcript [D]" {
		t.Fatalf("\"transcript\" shows %q first, want D", got)
	}
	l.Key("enter")
	f := modal[*forms.Modal](l, "the transcript form")
	if v := ansi.Strip(f.View()); !strings.Contains(v, fmt.Sprintf("Transcript of conversation #%d", id)) {
		t.Fatalf("the palette's transcript is not the open conversation's (#%d):\n%s", id, v)
	}
}

// Every key of the default bindings can be pressed by the palette: the press reads back as
// the key (key.Matches compares them).
func TestKeyPressOfEveryDefaultKey(t *testing.T) {
	t.Parallel()
	k := keymap.Default()
	for _, b := range bindings(k) {
		for _, kk := range b.Keys() {
			press, ok := keymap.Press(kk)
			if !ok || !key.Matches(press, b) {
				t.Errorf("%q: pressed as %q (ok %v)", kk, press.String(), ok)
			}
		}
	}
	for _, bad := range []string{"", "hyper+x", "ab", "ctrl+"} {
		if p, ok := keymap.Press(bad); ok {
			t.Errorf("%q is pressed as %q", bad, p.String())
		}
	}
}

// A number (typed after ":", so ":123" on the keyboard) offers to open that conversation
// first, and enter opens it on the conversations screen, from any screen.
func TestPaletteNumberOpensConversation(t *testing.T) {
	t.Parallel()
	l := startConversations(t, 120, 40, nil)
	rows := l.app.Screen().(*conversations.Model).List.Rows()
	id := rows[len(rows)/2].ID
	l.Key("4")
	p := l.openPalette(":")
	l.Key(fmt.Sprint(id))
	if got := p.titles(); len(got) == 0 || got[0] != fmt.Sprintf("go to: open conversation %d", id) {
		t.Fatalf("%d shows %q first", id, got)
	}
	l.Key("enter")
	tri, ok := l.app.Screen().(*conversations.Model)
	if !ok {
		t.Fatalf("enter shows %s", l.app.ScreenName())
	}
	l.Until("the conversation", func() bool { return tri.Msgs.ConversationID() == id })
	for _, q := range []string{"123", ":123", "#123", " 123 "} {
		if jumpID(q) != 123 {
			t.Errorf("%q names conversation %d", q, jumpID(q))
		}
	}
	for _, q := range []string{"", "12a", "0", "-3", "99999999999999999999"} {
		if jumpID(q) != 0 {
			t.Errorf("%q names conversation %d", q, jumpID(q))
		}
	}
}

// Read-only: the edit keys are gone from the palette, and so is act as; searching and
// moving stay.
func TestPaletteReadOnlyHidesEdits(t *testing.T) {
	t.Parallel()
	edits := []string{"edit topics", "new note", "delete", "mark row", "act as", "edit", "toggle away", "away ", "available "}
	for _, ro := range []bool{false, true} {
		l := startConversations(t, 80, 24, func(o *Options) { o.ReadOnly = ro })
		p := l.openPalette(":")
		var offered []string
		for _, mt := range p.pick.Shown() {
			it := p.item(mt)
			for _, e := range edits {
				if strings.HasPrefix(it.title, e) {
					offered = append(offered, it.title)
				}
			}
		}
		if ro && len(offered) > 0 {
			t.Errorf("read-only: the palette offers %q", offered)
		}
		if !ro && len(offered) < 4 {
			t.Errorf("the palette offers only %q of the edits", offered)
		}
		if !slices.Contains(p.titles(), "conversations: search [/]") {
			t.Errorf("read-only %v: no search in %q", ro, p.titles())
		}
	}
}

// choosy is a screen with choices for the palette (saved views, for example).
type choosy struct {
	common.Screen
	choices []common.Choice
	got     *[]tea.Msg
}

type viewChosenMsg struct{ name string }

func (c choosy) Choices() []common.Choice { return c.choices }

func (c choosy) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	if m, ok := msg.(viewChosenMsg); ok {
		*c.got = append(*c.got, m)
	}
	s, cmd := c.Screen.Update(msg)
	c.Screen = s
	return c, cmd
}

// A screen's choices appear in the palette (sanitized), and choosing one shows that
// screen and hands it the choice's message.
func TestPaletteOffersChoosersChoices(t *testing.T) {
	t.Parallel()
	l := startConversations(t, 80, 24, nil)
	var got []tea.Msg
	i := slices.IndexFunc(l.app.specs, func(sp screenSpec) bool { return sp.id == common.ScreenContacts })
	l.app.route.Screens[i] = choosy{Screen: l.app.route.Screens[i], got: &got, choices: []common.Choice{
		{Group: "view", Title: "Mine \x1b[31mred", Hint: "12", Msg: viewChosenMsg{"mine"}},
		{Group: "view", Title: "Verified", Msg: viewChosenMsg{"verified"}},
	}}
	p := l.openPalette(":")
	titles := p.titles()
	if !slices.Contains(titles, "view: Mine ␛[31mred") || !slices.Contains(titles, "view: Verified") {
		t.Fatalf("the choices are missing or not sanitized: %q", titles)
	}
	l.Key("verified", "enter")
	if l.app.ScreenName() != "Contacts" {
		t.Fatalf("the choice shows %s, want the screen that offered it", l.app.ScreenName())
	}
	l.closeAll() // the contacts screen opens its search prompt when first shown
	if !slices.Contains(got, tea.Msg(viewChosenMsg{"verified"})) {
		t.Fatalf("the screen got %v", got)
	}
}

// The organizations and operators the pickers know are offered; choosing an operator
// acts as them.
func TestPaletteSwitchesOperator(t *testing.T) {
	t.Parallel()
	l := startConversations(t, 80, 24, nil)
	op := l.app.opList[len(l.app.opList)-1]
	p := l.openPalette(":")
	if !slices.ContainsFunc(p.titles(), func(s string) bool { return strings.HasPrefix(s, "organization: organization ") }) {
		t.Errorf("no organization offered: %q", p.titles())
	}
	l.Key(fmt.Sprintf("act as #%d)", op.ID))
	if got := p.titles(); len(got) == 0 || !strings.HasPrefix(got[0], "operator: act as ") || !strings.Contains(got[0], fmt.Sprintf("(#%d)", op.ID)) {
		t.Fatalf("#%d) shows %q first", op.ID, got)
	}
	l.Key("enter")
	l.Until("acting as the operator", func() bool { return l.app.ctx.Client.OperatorID() == op.ID })
}

// The palette fits the smallest terminal and uses more of a large one.
func TestPaletteFits(t *testing.T) {
	t.Parallel()
	widths := map[int]int{}
	for _, size := range [][2]int{{80, 24}, {80, 20}, {200, 50}} {
		l := startConversations(t, size[0], size[1], nil)
		p := l.openPalette(":")
		viewtest.CheckSize(t, l.app.Render(), size[0], size[1], "the screen with the palette")
		box := strings.Split(ansi.Strip(p.View()), "\n")
		if len(box) > size[1]-4 {
			t.Errorf("%v: the palette is %d lines high", size, len(box))
		}
		for _, line := range box {
			if w := ansi.StringWidth(line); w != ansi.StringWidth(box[0]) || w > size[0]-4 {
				t.Fatalf("%v: a line %d wide:\n%s", size, w, strings.Join(box, "\n"))
			}
		}
		widths[size[0]] = ansi.StringWidth(box[0])
		l.Key("pgdown", "end", "home")
		if p.pick.Cursor() != 0 {
			t.Errorf("%v: home left the cursor on %d", size, p.pick.Cursor())
		}
	}
	if widths[200] <= widths[80] {
		t.Errorf("the palette is %d wide at 200 columns, %d at 80", widths[200], widths[80])
	}
}

// The palette finds what every screen offers, from any screen: "away" on the conversations
// screen lists the operators screen's away key and "away <name>" of each operator, which
// shows that operator on the operators screen and asks first, as w does; an operator's
// name shows it under the cursor; a contact the contacts list holds opens by name.
func TestPaletteFindsEveryScreensActionsAndObjects(t *testing.T) {
	l := startConversations(t, 120, 40, nil)
	l.Until("the operator directory", func() bool { return len(l.app.opList) > 0 })
	p := l.openPalette(":")
	l.Key("away Ben")
	got := p.titles()
	if len(got) == 0 || !strings.HasPrefix(got[0], "operator: away Ben Okafor “Ben” (#") {
		t.Fatalf("\"away Ben\" shows %q first, want away Ben Okafor", got)
	}
	l.Key("enter")
	ops, ok := l.app.Screen().(*operators.Model)
	if !ok {
		t.Fatalf("away Ben shows %s", l.app.ScreenName())
	}
	c := modal[*confirm.Model](l, "the away confirmation")
	if v := ansi.Strip(c.View()); !strings.Contains(v, "Ben Okafor") || !strings.Contains(v, "away") {
		t.Fatalf("the confirmation does not name Ben going away:\n%s", v)
	}
	if r, _ := ops.Selected(); r.Name != "Ben Okafor" {
		t.Fatalf("the cursor is on %q, want Ben Okafor", r.Name)
	}
	l.Key("n")
	l.Key("1")
	p = l.openPalette(":")
	l.Key("Mira")
	if got := p.titles(); len(got) == 0 || !strings.HasPrefix(got[0], "operator: Mira Jensen “Mira” (#") {
		t.Fatalf("\"Mira\" shows %q first", got)
	}
	l.Key("enter")
	l.Until("Mira under the cursor", func() bool { r, _ := ops.Selected(); return r.Name == "Mira Jensen" })

	l.Key("2")
	ct := l.app.Screen().(*contacts.Model)
	l.Until("contacts", func() bool { return len(ct.List.Rows()) > 2 })
	// A contact down the list whose name is plain words to type (not the first row, not
	// one with control pictures).
	var want contacts.Row
	for _, r := range ct.List.Rows()[2:] {
		if r.Name != "" && !strings.ContainsFunc(r.Name, func(c rune) bool { return !unicode.IsLetter(c) && c != ' ' }) {
			want = r
			break
		}
	}
	if want.ID == 0 {
		t.Fatal("no contact with a plain name")
	}
	l.Key("3")
	p = l.openPalette(":")
	l.Key(want.Title())
	if got := p.titles(); len(got) == 0 || got[0] != "contact: "+want.Title() {
		t.Fatalf("%q shows %q first", want.Title(), got)
	}
	l.Key("enter")
	l.Until("the contact open", func() bool {
		return l.app.Screen() == common.Screen(ct) && ct.Focused() == contacts.PaneDetail && ct.Detail.ID() == want.ID
	})
}
