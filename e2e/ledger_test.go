//go:build e2e

package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var convCount = regexp.MustCompile(`conv (\d+)/\d+`)

// waitCounted waits until the status bar's conversations count is what the sandbox counted
// (its request log: conversations requests answered other than 429) and more than past, and
// returns it.
func waitCounted(t *testing.T, tui *TUI, sb *Sandbox, past int) int {
	t.Helper()
	counted := 0
	tui.WaitUntil(func(s string) bool {
		m := convCount.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		shown, _ := strconv.Atoi(m[1])
		counted = sb.CountRequests(t, func(r Request) bool {
			return strings.Contains(r.Path, "/api/um/v3/conversations/") && r.Status != 429
		})
		return shown == counted && counted > past
	}, 30*time.Second, fmt.Sprintf("the status bar's count to match the sandbox's, above %d", past))
	return counted
}

// TestRequestCountSurvivesARestart: parley started again on the same day continues the
// day's request count from the ledger in the state directory, and the count is the one the
// sandbox keeps.
func TestRequestCountSurvivesARestart(t *testing.T) {
	sb := StartSandbox(t, "small")
	env := append(append([]string{}, sb.Env...), "XDG_STATE_HOME="+t.TempDir())
	first := StartTUI(t, 160, 40, env)
	waitList(t, first)
	before := waitCounted(t, first, sb, 0)
	for range 3 { // r refreshes: one more conversations request each
		first.Keys("r")
		before = waitCounted(t, first, sb, before)
	}
	first.Keys("q")
	first.WaitUntil(func(string) bool { return first.Dead() }, 10*time.Second, "parley to quit on q")

	second := StartTUI(t, 160, 40, env)
	waitList(t, second)
	// On the old code the second run showed only its own requests: the sandbox's count was
	// never reached.
	waitCounted(t, second, sb, before)
}
