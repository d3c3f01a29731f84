//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHubAgentAwayOnAnotherOperatorSaysWhyAtOnce: over a real OpenSSH client into `parley
// serve` at 80×24, an agent finds another operator by name (/ on the operators screen) and
// presses w: a note says at once, in words, that an agent sets only their own away status;
// nothing is asked and nothing is sent.
func TestHubAgentAwayOnAnotherOperatorSaysWhyAtOnce(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	own, err := strconv.ParseInt(sb.RestrictedOperatorID, 10, 64)
	if err != nil {
		t.Fatalf("restricted operator %q: %v", sb.RestrictedOperatorID, err)
	}
	var other string
	for op, err := range c.Operators(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if op.ID != own && other == "" && op.Name != "" && !op.IsBot.V {
			other = op.Name
		}
	}
	if other == "" {
		t.Fatal("no other operator in the sandbox")
	}
	keys := t.TempDir()
	claraKey, claraPub := sshKey(t, keys, "clara")
	users := fmt.Sprintf("- name: Clara\n  key: %s\n  operator: %s\n  role: agent\n", claraPub, sb.RestrictedOperatorID)
	hub := StartHub(t, sb, users, "")

	clara := StartSSH(t, hub, claraKey, 80, 24)
	waitList(t, clara)
	clara.Keys("3")
	clara.WaitUntil(func(s string) bool { return strings.Contains(s, "slots ") }, 20*time.Second, "the operators with their slots")
	clara.Keys("/")
	clara.WaitFor("Find operator:", 10*time.Second)
	first := strings.Fields(other)[0]
	clara.Type(first)
	clara.Keys("Enter")
	clara.WaitUntil(func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("%q", first)) && !strings.Contains(s, "Find operator:")
	},
		10*time.Second, "the list narrowed to "+first)
	patches := func() int {
		return sb.CountRequests(t, func(r Request) bool { return r.Method != "GET" })
	}
	before := patches()
	clara.Keys("w")
	s := clara.WaitUntil(func(s string) bool {
		return strings.Contains(s, "an agent sets only their") || strings.Contains(s, "Set operator away?") || strings.Contains(s, "Set operator available?")
	}, 10*time.Second, "what w on another operator does")
	if strings.Contains(s, "Set operator") || !strings.Contains(s, "(toggle away) is off for") {
		t.Fatalf("w on %s asked to confirm what the hub refuses:\n%s", other, s)
	}
	if strings.Contains(s, "/api/") || strings.Contains(s, "PATCH") {
		t.Errorf("the note names a request:\n%s", s)
	}
	if n := patches(); n != before {
		t.Fatalf("w on %s sent %d writes", other, n-before)
	}
	clara.Keys("q")
	clara.WaitFor("ssh exited with status 0", 10*time.Second)
}

// TestThreadFooterShowsTheAgentPath: at 80×24 the footer of an open thread names the agent
// path first (g top, t topics, n note, J/K next/prev, esc back), then help, the palette
// and quit.
func TestThreadFooterShowsTheAgentPath(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 80, 24, sb.Env)
	waitList(t, tui)
	tui.Keys("Enter")
	const want = "g top  t topics  n note  J/K next/prev  esc back  ? help  : palette  q quit"
	s := tui.WaitUntil(func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return strings.Contains(lines[len(lines)-1], "esc back")
	}, 15*time.Second, "the thread's footer")
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if got := strings.TrimSpace(lines[len(lines)-1]); got != want {
		t.Fatalf("the thread's footer at 80×24:\n got  %q\n want %q\n%s", got, want, s)
	}
}
