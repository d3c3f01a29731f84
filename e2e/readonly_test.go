//go:build e2e

package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/keymap"
)

// tmuxKeys are tmux's names of the keys whose key-map names differ.
var tmuxKeys = map[string]string{"space": "Space", "ctrl+p": "C-p", "enter": "Enter"}

// readOnlyEditKeys are the keys of the edit bindings that read-only turns off (the default
// key map), and the edit keys of the conversation actions: each one pressed must do
// nothing but say why.
func readOnlyEditKeys() (keys []string, refused map[string]bool) {
	k := keymap.Default()
	k.Deny(keymap.CanWrite)
	refused = map[string]bool{}
	keys = []string{"t", "n", "e", "w", "d", "a", "space", "ctrl+p", "T", "A", "U", "E", "O", "u", "D"}
	for _, name := range keys {
		refused[name] = len(k.DisabledEdits(name)) > 0
	}
	return keys, refused
}

// pressRefused presses each edit key where the TUI is and, for every key read-only turns off,
// waits for the toast that says why. Keys no binding has (yet) are pressed too: they must
// send nothing either.
func pressRefused(t *testing.T, tui *TUI, where string, keys []string, refused map[string]bool) {
	t.Helper()
	for _, k := range keys {
		name := k
		if n, ok := tmuxKeys[k]; ok {
			name = n
		}
		tui.Keys(name)
		if refused[k] {
			tui.WaitUntil(func(s string) bool {
				return strings.Contains(s, "read-only: "+k+" (") && strings.Contains(s, ") is off")
			},
				10*time.Second, where+": the toast for "+k)
		}
		if s := tui.Screen(); strings.Contains(s, "┃ ") && strings.Contains(s, "Cancel") {
			t.Fatalf("%s: %s opened a form in read-only mode:\n%s", where, k, s)
		}
	}
}

var (
	threadOpen = regexp.MustCompile(`\d+ messages?|Messages`)
	navLoaded2 = regexp.MustCompile(`\d+ navigation events? ·`)
)

// TestReadOnlyWalkSendsOnlyGET walks every screen with --readonly — the conversations list, a
// thread, its detail, contacts and a contact's detail, operators, analytics with another
// metric and range, navigation, help, the pickers — and presses every edit key on the way.
// Each refused key says why (a toast), no form opens, and the sandbox's request log shows
// GET requests only, to every part of the API the walk reached.
func TestReadOnlyWalkSendsOnlyGET(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 120, 40, sb.Env, "--readonly")
	keys, refused := readOnlyEditKeys()
	for _, k := range []string{"t", "n", "d", "ctrl+p", "D"} {
		if !refused[k] {
			t.Fatalf("the key map does not turn %s off in read-only mode", k)
		}
	}

	// 1: the list, a thread, its detail.
	s := waitList(t, tui)
	if !strings.Contains(s, "read-only") {
		t.Fatalf("the status bar does not say read-only:\n%s", s)
	}
	pressRefused(t, tui, "conversations list", keys, refused)
	tui.Keys("j", "Enter")
	tui.WaitUntil(threadOpen.MatchString, 15*time.Second, "the thread")
	pressRefused(t, tui, "thread", []string{"t", "n", "e", "d", "T", "E", "u", "D"}, refused)
	tui.Keys("g", "G", "Tab")
	pressRefused(t, tui, "conversation detail", []string{"t", "n", "e", "d"}, refused)
	tui.Keys("Escape", "Escape")

	// 2: contacts, a search, a contact's detail.
	tui.Keys("2", "/")
	tui.WaitFor("Search contacts:", 10*time.Second)
	tui.Type("anna")
	tui.Keys("Enter")
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, `search:"anna"`) && strings.Contains(s, "Anna") && !strings.Contains(s, "Loading contacts")
	}, 15*time.Second, "the contacts found")
	pressRefused(t, tui, "contacts list", []string{"n", "e", "d", "a", "space"}, refused)
	tui.Keys("Enter")
	tui.WaitFor("Notes (", 15*time.Second)
	pressRefused(t, tui, "contact detail", []string{"n", "e", "d"}, refused)
	tui.Keys("j", "Escape")

	// 3: operators.
	tui.Keys("3")
	waitOperators(t, tui)
	pressRefused(t, tui, "operators", []string{"w", "e", "d"}, refused)
	tui.Keys("j", "Enter") // the operator's conversations: reading them is allowed
	tui.WaitFor("· assigned to ", 15*time.Second)

	// 4: analytics, another metric and another range.
	tui.Keys("4")
	tui.WaitFor("Analytics · um_conversation_first_message", 30*time.Second)
	tui.Keys("m")
	tui.WaitFor("Pick a metric", 10*time.Second)
	tui.Keys("Down", "Down")
	tui.WaitFor("▸ um_conversation_duration", 10*time.Second)
	tui.Keys("Enter")
	tui.WaitFor("Analytics · um_conversation_duration", 15*time.Second)
	tui.Keys("d") // the date range: allowed, d is not delete here
	tui.WaitFor("Date range (UTC)", 10*time.Second)
	tui.Keys("j", "Enter")
	tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "Date range (UTC)") }, 10*time.Second, "the range menu to close")
	tui.WaitFor("Last month", 10*time.Second)
	tui.Keys("Enter") // run it now
	tui.WaitUntil(func(s string) bool {
		return !strings.Contains(s, "Runs when you pause") && !strings.Contains(s, "No results yet")
	},
		30*time.Second, "the analytics query")
	pressRefused(t, tui, "analytics", []string{"e", "n", "t"}, refused)

	// 5: navigation.
	tui.Keys("5")
	tui.WaitUntil(navLoaded2.MatchString, 30*time.Second, "the navigation events")
	tui.Keys("j", "Enter")
	pressRefused(t, tui, "navigation", []string{"d", "e", "space"}, refused)

	// Help, and the organization picker (reading the organizations is allowed).
	tui.Keys("?")
	h := tui.WaitFor("help", 10*time.Second)
	for _, hint := range []string{"edit topics", "new note", "toggle away"} {
		if strings.Contains(h, hint) {
			t.Errorf("help shows %q in read-only mode:\n%s", hint, h)
		}
	}
	tui.Keys("Escape")
	tui.Keys("1")
	waitList(t, tui)
	tui.Keys("C-o")
	tui.Keys("Escape")
	tui.Keys("q")
	tui.WaitUntil(func(string) bool { return tui.Dead() }, 10*time.Second, "parley to quit")

	var paths []string
	for _, r := range sb.Requests(t) {
		if r.Method != "GET" {
			t.Errorf("read-only sent %s %s?%s (%d)", r.Method, r.Path, r.Query, r.Status)
		}
		paths = append(paths, r.Path)
	}
	for _, part := range []string{"/api/um/v3/conversations/", "/messages/", "/api/um/v3/contact_identities/", "/api/um/v3/operators/",
		"/api/um/v1/analytics/um_conversation_duration/", "/api/um/v3/navigation/"} {
		if !slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, part) }) {
			t.Errorf("the walk sent no request to %s: it did not reach that screen", part)
		}
	}
	t.Logf("%d requests, all GET: %q", len(paths), paths)
}
