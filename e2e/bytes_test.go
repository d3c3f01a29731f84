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

// TestBytesPerKeyInTmux measures what reaches the terminal for j as a user feels it: 50
// presses from the top of the conversation list, in a real tmux with colour
// (TERM=xterm-256color, COLORTERM=truecolor), recorded by tmux itself (pipe-pane). Each
// press is sent once the one before is on the screen (the position under the list shows
// it); the list scrolls on the way. It measures: the figures are logged at 120×40 and
// 200×50, the first 10 presses (inside the window) apart (docs/performance.md). The
// sandbox's rows hold Chinese names and emoji, which Bubble Tea v2.1.1's renderer repaints
// in full every frame whatever changed, so they cost most of each frame; the budgets are
// held in ui's TestKeystrokeBytes, where the rows are chosen.
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
			press := func(from, to int) []byte {
				stop := tui.Record()
				for i := from; i < to; i++ {
					tui.Keys("j")
					waitScreen(t, tui, at(i+1), fmt.Sprintf("the cursor on row %d", i+1))
				}
				return stop()
			}
			const first, presses = 10, 50
			head := press(1, 1+first)
			rest := press(1+first, 1+presses)
			if dir := os.Getenv("PARLEY_E2E_KEEP"); dir != "" {
				_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("bytes-%dx%d", size[0], size[1])), append(head, rest...), 0o600)
			}
			for _, out := range [][]byte{head, rest} {
				if len(out) == 0 || !strings.Contains(string(out), "\x1b[") {
					t.Fatalf("a recording holds no drawing: %q", out)
				}
			}
			avg, headAvg := (len(head)+len(rest))/presses, len(head)/first
			t.Logf("j at %dx%d with colour: %d bytes over %d presses, %d per press (the first %d: %d per press)",
				size[0], size[1], len(head)+len(rest), presses, avg, first, headAvg)
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
