//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// keyBytesBudget is DESIGN.md's budget of terminal bytes per j at 120×40 with colour,
// averaged over 50 presses from the top of the list.
const keyBytesBudget = 1500

// TestBytesPerKeyInTmux measures what reaches the terminal for j as a user feels it: 50
// presses from the top of the conversation list, in a real tmux with colour
// (TERM=xterm-256color, COLORTERM=truecolor), recorded by tmux itself (pipe-pane). Each
// press is sent once the one before is on the screen (the position under the list shows
// it), so the list scrolls a row per press once the cursor reaches the bottom of the pane.
// The average at 120×40 stays within the budget; 200×50 is logged.
func TestBytesPerKeyInTmux(t *testing.T) {
	sb := StartSandbox(t, "small")
	position := regexp.MustCompile(`[│┃] (\d+)/\d+ `)
	for _, size := range [][2]int{{120, 40}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tui := StartTUI(t, size[0], size[1], append(sb.Env, "COLORTERM=truecolor"))
			waitList(t, tui)
			at := func(n int) func(string) bool {
				want := fmt.Sprint(n)
				return func(s string) bool { m := position.FindStringSubmatch(s); return m != nil && m[1] == want }
			}
			tui.WaitUntil(at(1), 10*time.Second, "the cursor on the first row")
			const presses = 50
			stop := tui.Record()
			for i := 1; i <= presses; i++ {
				tui.Keys("j")
				waitScreen(t, tui, at(i+1), fmt.Sprintf("the cursor on row %d", i+1))
			}
			out := stop()
			if dir := os.Getenv("PARLEY_E2E_KEEP"); dir != "" {
				_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("bytes-%dx%d", size[0], size[1])), out, 0o600)
			}
			avg := len(out) / presses
			t.Logf("j at %dx%d with colour: %d bytes over %d presses, %d per press", size[0], size[1], len(out), presses, avg)
			if len(out) == 0 || !strings.Contains(string(out), "\x1b[") {
				t.Fatalf("the recording holds no drawing: %q", out)
			}
			if size[0] == 120 && avg > keyBytesBudget {
				t.Errorf("%d bytes per j at 120x40, budget %d", avg, keyBytesBudget)
			}
		})
	}
}

// waitScreen is WaitUntil polling the pane every few milliseconds, so that the next key
// follows a frame closely (a key a tenth of a second later lets timers fire in between).
func waitScreen(t *testing.T, tui *TUI, ok func(string) bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := exec.Command("tmux", "-S", tui.socket, "capture-pane", "-p", "-t", tui.session).CombinedOutput()
		if err == nil && ok(string(out)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s; screen:\n%s", what, out)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
