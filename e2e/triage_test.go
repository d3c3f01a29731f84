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

// findConversation returns the first conversation among the server's ranked results for
// query that satisfies ok, and its rank (0 = first).
func findConversation(t *testing.T, sb *Sandbox, query string, ok func(client.Conversation) bool) (client.Conversation, int) {
	t.Helper()
	p, err := sb.Client(t).ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Search: query, Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range p.Results {
		if ok(c) {
			return c, i
		}
	}
	t.Fatalf("no conversation ranked for %q qualifies", query)
	return client.Conversation{}, 0
}

// A narrow list pane drops the noun: "93 · search:…".
var listLoaded = regexp.MustCompile(`[│┃] \d[\d,]*( conversations?)? ·`)

// listOrder is the conversation list's default order (by last message, newest first): the
// API asked in it lists the conversations as the list shows them.
const listOrder = "-last_message_sent_at"

// waitList waits until the conversation list has loaded (its header shows the count).
func waitList(t *testing.T, tui *TUI) string {
	t.Helper()
	return tui.WaitUntil(listLoaded.MatchString, 30*time.Second, "the conversation list")
}

// search runs a search in the TUI's conversation list.
func search(t *testing.T, tui *TUI, query string) {
	t.Helper()
	tui.Keys("/")
	tui.WaitFor("Search conversations:", 10*time.Second)
	tui.Type(query)
	tui.Keys("Enter")
	// The header names the search as search:"…" or, narrow, as "…" alone, and cuts its end.
	quoted := fmt.Sprintf("%q", query)
	quoted = quoted[:min(len(quoted), 9)]
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, quoted) && !strings.Contains(s, "loading…") && listLoaded.MatchString(s)
	}, 15*time.Second, "search results")
}

func TestRowsAppearAndEnterOpensAThread(t *testing.T) {
	sb := StartSandbox(t, "small")
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		tui := StartTUI(t, size[0], size[1], sb.Env)
		s := waitList(t, tui)
		if !regexp.MustCompile(`[●◐○] (new|pending|ended)`).MatchString(s) {
			t.Fatalf("%dx%d: no conversation rows:\n%s", size[0], size[1], s)
		}
		if strings.Contains(s, "demo data") {
			t.Fatalf("%dx%d: status bar says demo data against a configured API:\n%s", size[0], size[1], s)
		}
		tui.Keys("Enter")
		s = tui.WaitFor(" loaded ·", 15*time.Second)
		if !strings.Contains(s, "Messages") {
			t.Fatalf("enter did not show the thread:\n%s", s)
		}
		checkFits(t, s, size[0], size[1])
		tui.Keys("q")
		tui.WaitUntil(func(string) bool { return tui.Dead() }, 5*time.Second, "parley to quit on q")
	}
}

func TestScrollBackThroughTheLongThread(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	long, rank := findConversation(t, sb, "Start of the long thread", func(conv client.Conversation) bool {
		p, err := c.MessagesPage(t.Context(), conv.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}})
		return err == nil && p.Next != ""
	})
	n := 0
	for _, err := range sb.Client(t).Messages(t.Context(), long.ID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100}}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n < 1500 {
		t.Fatalf("the long conversation %d has %d messages, want at least 1,500", long.ID, n)
	}
	path := fmt.Sprintf("/conversations/%d/messages/", long.ID)
	isMessages := func(r Request) bool { return strings.HasSuffix(r.Path, path) && r.Method == "GET" }
	before := sb.CountRequests(t, isMessages) // the test's own look-ups above
	tui := StartTUI(t, 120, 40, sb.Env)
	waitList(t, tui)
	search(t, tui, "Start of the long thread")
	tui.Keys("g")
	for range rank {
		tui.Keys("j")
	}
	tui.Keys("Enter")
	tui.WaitFor(fmt.Sprintf("#%d", long.ID), 15*time.Second)
	// Scroll up steadily, like a user holding ctrl+u: three pages a step, the next step once
	// the thread moved (its place or the messages loaded, in its header).
	for i := 0; ; i++ {
		s := tui.Screen()
		// The oldest message's body (the list header shows the query without the colon).
		if strings.Contains(s, "Start of the long thread:") && !strings.Contains(s, "loading") {
			break
		}
		if i == 1000 {
			t.Fatalf("never reached the first message:\n%s", s)
		}
		before := threadHeader.FindString(s)
		tui.Keys("C-u", "C-u", "C-u")
		tui.WaitUntil(func(s string) bool { return threadHeader.FindString(s) != before }, 15*time.Second, "the thread to move up from "+before)
	}
	s := tui.WaitFor(fmt.Sprintf("%d loaded · all", n), 15*time.Second)
	want := (n + 99) / 100
	got := sb.CountRequests(t, isMessages) - before
	if got != want {
		t.Fatalf("scrolling back through %d messages took %d message requests, want exactly %d", n, got, want)
	}
	checkFits(t, s, 120, 40)
}

func TestHostileTextIsInert(t *testing.T) {
	sb := StartSandbox(t, "small")
	narrow := StartTUI(t, 80, 40, sb.Env)
	waitList(t, narrow)
	search(t, narrow, "Mallory")
	narrow.Keys("Enter")
	narrow.WaitUntil(showsHostileThread, 15*time.Second, "the hostile thread")
	// Walk the whole thread, top to bottom, a screen at a time: every frame checked is the
	// one the key led to (the thread's place in its header moved).
	narrow.Keys("g")
	s := narrow.WaitUntil(func(s string) bool { return threadPlace(s) == "top" }, 15*time.Second, "the top of the thread")
	for i := 0; threadPlace(s) != "bottom"; i++ {
		checkFrames(t, s)
		if i == 60 {
			t.Fatalf("60 pages down and not at the bottom of the thread:\n%s", s)
		}
		before := threadPlace(s)
		narrow.Keys("C-d")
		s = narrow.WaitUntil(func(s string) bool { return threadPlace(s) != before }, 15*time.Second, "the page after "+before)
	}
	checkFrames(t, s)
	tui := StartTUI(t, 100, 30, sb.Env)
	waitList(t, tui)
	title := tui.Title()
	search(t, tui, "Mallory")
	tui.Keys("Enter")
	s = tui.WaitUntil(showsHostileThread, 15*time.Second, "the hostile thread")
	// Up through the thread from its bottom, three lines a step.
	for i := 0; i < 40 && threadPlace(s) != "top"; i++ {
		if got := tui.Title(); got != title {
			t.Fatalf("hostile text changed the pane title from %q to %q", title, got)
		}
		if !strings.Contains(s, "parley") || !strings.Contains(s, "help") {
			t.Fatalf("the screen was cleared or scrolled away (tab bar or status bar missing):\n%s", s)
		}
		checkFits(t, s, 100, 30)
		before := threadPlace(s)
		tui.Keys("k", "k", "k")
		s = tui.WaitUntil(func(s string) bool { return threadPlace(s) != before }, 15*time.Second, "the thread above "+before)
	}
	if !strings.Contains(s, "␛") {
		t.Fatalf("escape sequences are not shown as inert text:\n%s", s)
	}
	// No OSC 52 write reached tmux's clipboard (the harness turns set-clipboard on).
	if clip := tui.Clipboard(); clip != "" {
		t.Fatalf("hostile text wrote to the clipboard: %q", clip)
	}
	// parley's own copy does reach it.
	tui.Keys("y")
	tui.WaitFor("Copied", 5*time.Second)
	tui.WaitUntil(func(string) bool { return tui.Clipboard() != "" }, 5*time.Second, "the id in the clipboard")
	id := strings.Split(tui.Clipboard(), "\n")[0]
	if !regexp.MustCompile(`^\d+$`).MatchString(id) {
		t.Fatalf("y copied %q, want the conversation id", tui.Clipboard())
	}
	// With tmux's default set-clipboard (external), tmux drops an application's OSC 52;
	// parley then goes through tmux's own buffer.
	tui.tmux("set", "-g", "set-clipboard", "external")
	for tui.Clipboard() != "" {
		tui.tmux("delete-buffer")
	}
	tui.Keys("y")
	tui.WaitFor("(tmux buffer and clipboard)", 5*time.Second)
	tui.WaitUntil(func(string) bool { return tui.Clipboard() != "" }, 5*time.Second, "the id in tmux's buffer")
	if got := strings.Split(tui.Clipboard(), "\n")[0]; got != id {
		t.Fatalf("with set-clipboard external y copied %q, want %s", got, id)
	}
}

func TestNoColorWritesNoColour(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 120, 30, append(sb.Env, "NO_COLOR=1"))
	waitList(t, tui)
	tui.Keys("j", "Enter")
	tui.WaitFor(" loaded ·", 15*time.Second)
	out := tui.tmux("capture-pane", "-p", "-e", "-t", tui.session)
	// tmux re-encodes the cells it holds and writes 39/49 (default foreground/background:
	// no colour) after an attribute reset of its own, so those two are not colours.
	if m := regexp.MustCompile(`\x1b\[(?:[0-9]+;)*(3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]+)*m`).FindString(out); m != "" {
		t.Fatalf("NO_COLOR set but a colour code was written: %q", m)
	}
}

func TestTooSmallAndResize(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 70, 18, sb.Env)
	tui.WaitFor("Terminal too small", 30*time.Second)
	for _, s := range [][2]int{{80, 24}, {200, 50}, {120, 40}, {100, 30}, {99, 30}, {60, 10}, {160, 45}} {
		tui.tmux("resize-window", "-t", tui.session, "-x", fmt.Sprint(s[0]), "-y", fmt.Sprint(s[1]))
		var scr string
		if s[0] < 80 || s[1] < 20 {
			scr = tui.WaitFor("Terminal too small", 10*time.Second)
		} else {
			scr = tui.WaitUntil(listLoaded.MatchString, 10*time.Second, "the list")
		}
		checkFits(t, scr, s[0], s[1])
		if tui.Dead() {
			t.Fatalf("parley exited after a resize to %dx%d", s[0], s[1])
		}
	}
}

// checkFrames asserts, in tmux's own cell grid, that a single-pane screen keeps its frame:
// every row between the pane's top and bottom border starts and ends with exactly one │.
// A line the terminal draws wider than parley measured pushes or wraps the right border.
func checkFrames(t *testing.T, screen string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	inside := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "╭") || strings.HasPrefix(l, "┏"):
			inside = true
		case strings.HasPrefix(l, "╰") || strings.HasPrefix(l, "┗"):
			inside = false
		case inside:
			trimmed := strings.TrimRight(l, " ")
			if !strings.HasPrefix(l, "│") && !strings.HasPrefix(l, "┃") ||
				!(strings.HasSuffix(trimmed, "│") || strings.HasSuffix(trimmed, "┃")) ||
				strings.HasSuffix(trimmed, "││") || strings.HasSuffix(trimmed, "┃┃") {
				t.Fatalf("row %d lost its frame in the terminal's own layout: %q\n%s", i, l, screen)
			}
		}
	}
}

// placeInThread is the thread header's (threadHeader) word for where the pane is in the
// thread: "#700149 · 27 loaded · all · 17% · …" (top, bottom, or how far down).
var placeInThread = regexp.MustCompile(` · (top|bottom|\d+%)(?: · |\s*$)`)

// threadPlace is where the thread pane on screen is in its thread ("" when no thread is
// shown).
func threadPlace(screen string) string {
	if m := placeInThread.FindStringSubmatch(threadHeader.FindString(screen)); m != nil {
		return m[1]
	}
	return ""
}

// showsHostileThread reports whether the thread pane shows Mallory's conversation (the
// start of its contact's name, "␛]0;pwned␇Mallory…", in the header), loaded: its first page
// arrived (the header shows the place in the thread, which it does not before) and no page
// is on its way.
func showsHostileThread(screen string) bool {
	h := threadHeader.FindString(screen)
	return strings.Contains(h, " loaded · ") && strings.Contains(h, "␛]0;pwned") && threadPlace(screen) != "" &&
		!strings.Contains(strings.ToLower(screen), "loading")
}

// checkFits asserts the screen has at most h lines, none wider than w cells.
func checkFits(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) > h {
		t.Fatalf("%d lines on a %d-line screen", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("line %d is %d cells on a %d-column screen: %q", i, lw, w, l)
		}
	}
}
