//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
)

// sgrPress is a left press and release at column x, line y (0-based) as a terminal in SGR
// mouse mode writes them.
func sgrPress(x, y int) string {
	return fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+1, y+1, x+1, y+1)
}

// sgrWheelUp is n wheel steps up at column x, line y.
func sgrWheelUp(n, x, y int) string {
	return strings.Repeat(fmt.Sprintf("\x1b[<64;%d;%dM", x+1, y+1), n)
}

// cellOn finds text on the screen: its column and line.
func cellOn(t *testing.T, screen, text string) (x, y int) {
	t.Helper()
	for y, line := range strings.Split(screen, "\n") {
		if i := strings.Index(line, text); i >= 0 {
			return ansi.StringWidth(line[:i]), y
		}
	}
	t.Fatalf("%q is not on the screen:\n%s", text, screen)
	return 0, 0
}

// listPosition is the list footer's "n/total".
var listPosition = regexp.MustCompile(`│ (\d+)/\d+`)

func position(s string) string {
	if m := listPosition.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// With --mouse at 80×24: the pane is in SGR button-event mouse mode; a click on the
// contacts tab shows contacts, a click on the third row selects it; back on conversations,
// two clicks on a row open its thread and the wheel scrolls it back, older messages coming
// in by the thread's cursor requests (the sandbox's request log).
func TestMouseClicksAndWheel(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	long, rank := findConversation(t, sb, "Start of the long thread", func(conv client.Conversation) bool {
		p, err := c.MessagesPage(t.Context(), conv.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}})
		return err == nil && p.Next != ""
	})
	path := fmt.Sprintf("/conversations/%d/messages/", long.ID)
	isMessages := func(r Request) bool { return strings.HasSuffix(r.Path, path) && r.Method == "GET" }
	before := sb.CountRequests(t, isMessages)

	tui := StartTUI(t, 80, 24, sb.Env, "--mouse")
	s := waitList(t, tui)
	for _, flag := range []string{"#{mouse_button_flag}", "#{mouse_sgr_flag}"} {
		if v := tui.PaneFlag(flag); v != "1" {
			t.Fatalf("--mouse: tmux's %s is %q, want 1", flag, v)
		}
	}
	if v := tui.PaneFlag("#{mouse_all_flag}"); v != "0" {
		t.Fatalf("--mouse asks for every motion (mouse_all_flag %q): cell motion is enough", v)
	}

	x, y := cellOn(t, s, "2 Contacts")
	tui.Type(sgrPress(x+2, y))
	s = tui.WaitUntil(func(s string) bool { return strings.Contains(s, "contacts ·") && position(s) == "1" },
		15*time.Second, "the contacts screen")
	_, header := cellOn(t, s, "contacts ·")
	tui.Type(sgrPress(10, header+3))
	s = tui.WaitUntil(func(s string) bool { return position(s) == "3" }, 10*time.Second, "the third contact selected")
	if strings.Contains(s, "Search contacts:") {
		t.Fatalf("the click left the search prompt open:\n%s", s)
	}

	x, y = cellOn(t, s, "1 Conversations")
	tui.Type(sgrPress(x+2, y))
	waitList(t, tui)
	search(t, tui, "Start of the long thread")
	s = tui.Screen()
	_, header = cellOn(t, s, "search:")
	row := header + 1 + rank // one line a conversation at this width
	tui.Type(sgrPress(20, row))
	tui.WaitUntil(func(s string) bool { return position(s) == fmt.Sprint(rank+1) }, 10*time.Second, "the long thread's row selected")
	tui.Type(sgrPress(20, row))
	tui.WaitFor(fmt.Sprintf("#%d", long.ID), 15*time.Second)
	tui.WaitUntil(func(string) bool { return sb.CountRequests(t, isMessages)-before == 1 }, 15*time.Second, "the thread's first page")

	deadline := time.Now().Add(2 * time.Minute)
	for sb.CountRequests(t, isMessages)-before < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the wheel never brought older messages:\n%s", tui.Screen())
		}
		tui.Type(sgrWheelUp(10, 40, 12))
		tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "loading") }, 15*time.Second, "the thread to settle")
	}
	s = tui.WaitFor("200 loaded", 15*time.Second)
	checkFits(t, s, 80, 24)
}

// Without --mouse (the default) the terminal is asked for no mouse reports: tmux's mouse
// flags stay off and no mouse mode is switched on while parley runs; a mouse sequence that
// arrives anyway does nothing (the key sent after it lands on the conversations list, where
// the cursor moved only by that key).
func TestMouseOffLeavesTheTerminalAlone(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 80, 24, sb.Env)
	s := waitList(t, tui)
	for _, flag := range []string{"#{mouse_standard_flag}", "#{mouse_button_flag}", "#{mouse_all_flag}", "#{mouse_any_flag}", "#{mouse_sgr_flag}"} {
		if v := tui.PaneFlag(flag); v != "0" {
			t.Fatalf("without --mouse tmux's %s is %q", flag, v)
		}
	}
	stop := tui.Record()
	x, y := cellOn(t, s, "2 Contacts")
	tui.Type(sgrPress(x+2, y))
	_, header := cellOn(t, s, "conversations ·")
	tui.Type(sgrPress(10, header+5))
	tui.Keys("j")
	s = tui.WaitUntil(func(s string) bool { return position(s) == "2" }, 10*time.Second, "j to move the cursor")
	out := stop()
	if strings.Contains(s, "contacts ·") || strings.Contains(s, "Search contacts:") {
		t.Fatalf("a click acted without --mouse:\n%s", s)
	}
	for _, mode := range []string{"\x1b[?1000h", "\x1b[?1002h", "\x1b[?1003h", "\x1b[?1006h"} {
		if strings.Contains(string(out), mode) {
			t.Fatalf("without --mouse parley wrote %q", mode)
		}
	}
}
