//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Resizing the terminal, then quitting, leaves the shell as it was: parley's frame was on the
// alternate screen and goes with it, whatever sizes it was drawn at, and not one line of it
// is left on the normal screen.
func TestResizeThenQuitLeavesTheShellClean(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUIInShell(t, 80, 24, sb.Env)
	resizeThenQuit(t, tui, "parley exited with status")
}

// The same over SSH into the team hub: the session's terminal is the ssh client's.
func TestResizeThenQuitOverSSHLeavesTheShellClean(t *testing.T) {
	sb := StartSandbox(t, "small")
	keys := t.TempDir()
	key, pub := sshKey(t, keys, "ana")
	hub := StartHub(t, sb, fmt.Sprintf("- name: Ana\n  key: %s\n  role: viewer\n", pub), "")
	tui := StartSSH(t, hub, key, 80, 24)
	resizeThenQuit(t, tui, "ssh exited with status")
}

// resizeThenQuit resizes tui's pane through several sizes, each drawn in full, ending taller
// than it started (tmux then moves the rows above the cursor of the alternate screen into
// the history as it leaves it, and back onto the normal screen), quits with q and checks
// that the pane then holds nothing but the line the shell printed after the exit (exited:
// its start).
func resizeThenQuit(t *testing.T, tui *TUI, exited string) {
	t.Helper()
	waitList(t, tui)
	for _, s := range [][2]int{{100, 30}, {140, 45}, {200, 50}} {
		tui.tmux("resize-window", "-t", tui.session, "-x", fmt.Sprint(s[0]), "-y", fmt.Sprint(s[1]))
		scr := tui.WaitUntil(listLoaded.MatchString, 10*time.Second, "the list")
		checkFits(t, scr, s[0], s[1])
	}
	tui.Keys("q")
	scr := tui.WaitFor(exited, 15*time.Second)
	if !strings.Contains(scr, exited+" 0") {
		t.Fatalf("parley did not exit cleanly:\n%s", scr)
	}
	var left []string
	for _, l := range strings.Split(scr, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, exited) {
			left = append(left, l)
		}
	}
	if len(left) > 0 {
		t.Fatalf("%d lines of parley's frame are left on the shell:\n%s", len(left), strings.Join(left, "\n"))
	}
}
