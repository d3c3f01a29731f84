package confirm

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

type yesMsg struct{}

func testCtx() *common.Ctx {
	return &common.Ctx{
		Styles: theme.Plain(true),
		Keys:   keymap.Default(),
		Now:    func() time.Time { return time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC) },
	}
}

// closed reports whether the last update asked to close m, as the root sees it (it takes
// the asked changes).
func closed(ctx *common.Ctx, m common.Modal) bool {
	closing, _ := ctx.TakeModalChanges()
	return len(closing) == 1 && closing[0] == m
}

// runes is the press of the one key s.
func runes(s string) tea.KeyPressMsg { return viewtest.Key(s) }

// collect runs cmd and every command it sequences or batches, returning the messages.
func collect(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	var out []tea.Msg
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, collect(t, c)...)
		}
	default:
		if s := sequenceCmds(msg); s != nil {
			for _, c := range s {
				out = append(out, collect(t, c)...)
			}
			return out
		}
		out = append(out, msg)
	}
	return out
}

// sequenceCmds unpacks tea.Sequence's message (an unexported []tea.Cmd type).
func sequenceCmds(msg tea.Msg) []tea.Cmd {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return out
}

func TestYesRunsOnceAndCloses(t *testing.T) {
	for _, k := range []tea.KeyPressMsg{runes("y")} {
		ran := 0
		onYes := func() tea.Msg { ran++; return yesMsg{} }
		ctx := testCtx()
		m := New(ctx, "Delete contact?", "Delete contact “Anna” (#12)? This cannot be undone.", onYes)
		m, cmd := m.Update(k)
		if !closed(ctx, m) {
			t.Fatalf("%s: the modal did not close", k)
		}
		msgs := collect(t, cmd)
		if ran != 1 {
			t.Fatalf("%s: onYes ran %d times, want 1", k, ran)
		}
		if len(msgs) != 1 {
			t.Fatalf("%s: got %#v, want the action's message", k, msgs)
		}
		if _, ok := msgs[0].(yesMsg); !ok {
			t.Fatalf("%s: message %#v, want the action's", k, msgs[0])
		}
		// A second y before the modal is gone does nothing.
		_, cmd = m.Update(runes("y"))
		if cmd != nil {
			t.Fatalf("%s: a second yes returned a command", k)
		}
	}
}

func TestNoAndEscCancel(t *testing.T) {
	for _, k := range []tea.KeyPressMsg{runes("n"), {Code: tea.KeyEscape}} {
		ran := false
		ctx := testCtx()
		m := New(ctx, "Delete note?", "Delete the note?", func() tea.Msg { ran = true; return nil })
		_, cmd := m.Update(k)
		msgs := collect(t, cmd)
		if ran {
			t.Fatalf("%s: the action ran on cancel", k)
		}
		if len(msgs) != 0 || !closed(ctx, m) {
			t.Fatalf("%s: got %#v and no close", k, msgs)
		}
	}
}

// TestEnterDoesNotConfirm: with the default keys only y answers yes; enter, pressed by
// habit (it opens rows and moves through forms), neither runs the action nor closes the
// question, and the keys shown say "y delete · n/esc cancel".
func TestEnterDoesNotConfirm(t *testing.T) {
	ctx := testCtx()
	ran := false
	m := New(ctx, "Delete contact?", "Delete contact “Anna” (#12)? This cannot be undone.", func() tea.Msg { ran = true; return yesMsg{} })
	m.SetSize(60, 12)
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(collect(t, cmd)) != 0 || ran || m.(*Model).Answered() || closed(ctx, m) {
		t.Fatal("enter answered a delete")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "y delete · n/esc cancel") || strings.Contains(v, "enter") {
		t.Fatalf("the keys shown are not \"y delete · n/esc cancel\":\n%s", v)
	}
}

func TestOtherKeysDoNothing(t *testing.T) {
	ctx := testCtx()
	m := New(ctx, "Delete contact?", "body", func() tea.Msg { t.Fatal("ran"); return nil })
	for _, s := range []string{"d", "j", "x", " "} {
		if _, cmd := m.Update(runes(s)); cmd != nil {
			t.Fatalf("%q returned a command", s)
		}
		if closing, _ := ctx.TakeModalChanges(); len(closing) > 0 {
			t.Fatalf("%q closed the modal", s)
		}
	}
}

func TestViewNamesTheActionAndFits(t *testing.T) {
	m := New(testCtx(), "Delete 3 contacts?", "Delete the 3 marked contacts? This cannot be undone.", nil)
	m.SetSize(40, 10)
	v := m.View()
	for _, want := range []string{"Delete 3 contacts?", "3 marked contacts", "y delete", "n/esc cancel"} {
		if !strings.Contains(strings.ReplaceAll(v, "\n", " "), want) && !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	for _, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %q is %d wide, area is 40", l, w)
		}
	}
}

// A question with a very long name in it is cut so the box, with its keys, fits the area.
func TestLongQuestionFitsTheHeight(t *testing.T) {
	body := "Delete contact “" + strings.Repeat("Zed ", 2000) + "” (#7)? This cannot be undone."
	m := New(testCtx(), "Delete contact?", body, nil)
	for _, h := range []int{24, 12, 8} {
		m.SetSize(80, h)
		v := m.View()
		if n := strings.Count(v, "\n") + 1; n > h {
			t.Fatalf("height %d: the box has %d lines", h, n)
		}
		if !strings.Contains(ansi.Strip(v), "n/esc cancel") || !strings.Contains(ansi.Strip(v), "…") {
			t.Fatalf("height %d: the keys or the cut are missing:\n%s", h, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if ansi.StringWidth(l) > 80 {
				t.Fatalf("line wider than 80: %q", l)
			}
		}
	}
}

// TestOneYesNoRule: a confirmation answers by the key map's one rule, as forms' questions
// do: Y as well as y says yes, N as well as n no; enter is no answer, unless a keymap binds
// yes to enter alone.
func TestOneYesNoRule(t *testing.T) {
	ran := 0
	onYes := func() tea.Msg { ran++; return yesMsg{} }
	yctx := testCtx()
	m := New(yctx, "Delete ongoing conversation?", "Conversation #12 with Ann is ongoing (pending).", onYes)
	if _, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil || m.(*Model).Answered() || closed(yctx, m) {
		t.Fatal("enter answered the question")
	}
	_, cmd := m.Update(runes("Y"))
	if msgs := collect(t, cmd); ran != 1 || len(msgs) != 1 || !closed(yctx, m) {
		t.Fatalf("Y: onYes ran %d times, messages %#v", ran, msgs)
	}
	nctx := testCtx()
	c := New(nctx, "Delete contact?", "body", onYes)
	if _, cmd := c.Update(runes("N")); len(collect(t, cmd)) != 0 || ran != 1 || !closed(nctx, c) {
		t.Fatal("N did not cancel")
	}
	// A keymap that binds yes to enter alone keeps enter as the answer.
	ctx := testCtx()
	ctx.Keys.Yes.SetKeys("enter")
	e := New(ctx, "Delete ongoing conversation?", "body", onYes)
	if _, cmd := e.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); len(collect(t, cmd)) != 1 || ran != 2 || !closed(ctx, e) {
		t.Fatal("with yes bound to enter alone, enter did not answer")
	}
	// Bound to enter and a letter, only the letter answers.
	ctx = testCtx()
	ctx.Keys.Yes.SetKeys("enter", "o")
	o := New(ctx, "Delete contact?", "body", onYes)
	o.SetSize(60, 12)
	if _, cmd := o.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil {
		t.Fatal("enter answered while yes has another key")
	}
	if v := ansi.Strip(o.View()); !strings.Contains(v, "o delete") || strings.Contains(v, "enter") {
		t.Fatalf("the keys shown:\n%s", v)
	}
}
