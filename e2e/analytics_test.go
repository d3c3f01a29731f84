//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAnalyticsSummaryCountMatchesExport opens the analytics screen, picks
// um_conversation_duration for the last 120 days (two requests of at most 93 days) and
// checks that the summary's count is the number of data points `parley analytics export`
// returns for the same range.
func TestAnalyticsSummaryCountMatchesExport(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 120, 40, sb.Env)
	tui.WaitFor("Conversations", 30*time.Second)

	tui.Keys("4")
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "Analytics · um_conversation_first_message") && strings.Contains(s, "cached, 0 requests")
	}, 30*time.Second, "the first query")

	// The picker starts on the current metric; um_conversation_duration is two below.
	tui.Keys("m")
	tui.WaitFor("Pick a metric", 10*time.Second)
	tui.Keys("Down")
	tui.Keys("Down")
	tui.WaitFor("▸ um_conversation_duration", 10*time.Second)
	tui.Keys("Enter")
	tui.WaitFor("Analytics · um_conversation_duration", 10*time.Second)

	// The last 120 days, today included (UTC): a custom range.
	today := time.Now().UTC()
	from := today.AddDate(0, 0, -119).Format(time.DateOnly)
	to := today.Format(time.DateOnly)
	tui.Keys("d")
	tui.WaitFor("Date range (UTC)", 10*time.Second)
	tui.Keys("G")
	tui.WaitFor("▸ Custom…", 10*time.Second)
	tui.Keys("Enter")
	tui.WaitFor("┃ From (UTC)", 10*time.Second)
	tui.Keys("C-u")
	tui.Type(from)
	tui.WaitFor("> "+from+" ", 10*time.Second)
	tui.Keys("Enter")
	tui.WaitFor("┃ To (UTC", 10*time.Second) // the form moves to the next field in a command
	tui.Keys("C-u")
	tui.Type(to)
	tui.WaitFor("> "+to+" ", 10*time.Second)
	tui.Keys("Enter")
	screen := tui.WaitFor("Custom: "+from+" → "+to+" UTC · 120 days", 10*time.Second)
	if !strings.Contains(screen, "2 requests (≤93 days each)") || !strings.Contains(screen, "Press enter to run it.") {
		t.Fatalf("the screen does not show the cost before running:\n%s", screen)
	}
	isDuration := func(r Request) bool { return strings.HasSuffix(r.Path, "/analytics/um_conversation_duration/") }
	// The last 30 days ran only if the range menu opened more than a moment after the pick.
	before := sb.CountRequests(t, isDuration)
	if before > 1 {
		var seen []string
		for _, r := range sb.Requests(t) {
			if isDuration(r) {
				seen = append(seen, fmt.Sprintf("%d %s", r.Status, r.Query))
			}
		}
		t.Fatalf("%d requests before enter, want at most 1 (the last 30 days): %q", before, seen)
	}

	tui.Keys("Enter")
	screen = tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "120 days") && strings.Contains(s, "cached, 0 requests")
	}, 60*time.Second, "the 120-day results")
	if n := sb.CountRequests(t, isDuration) - before; n != 2 {
		t.Fatalf("the 120 days took %d requests, want 2 (windows of at most 93 days)", n)
	}
	m := regexp.MustCompile(`Data points\s+([\d,]+)`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no summary count on screen:\n%s", screen)
	}
	shown, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	if err != nil {
		t.Fatal(err)
	}

	// The same range through the CLI against the same sandbox.
	cmd := exec.Command(binary, "analytics", "export", "um_conversation_duration", "--from", from, "--to", to, "--format", "json")
	dir := t.TempDir()
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"))
	cmd.Env = append(cmd.Env, sb.Env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("parley analytics export: %v\n%s", err, stderr)
	}
	var pts []map[string]any
	if err := json.Unmarshal(out, &pts); err != nil {
		t.Fatalf("export output: %v", err)
	}
	if len(pts) == 0 {
		t.Fatal("the export returned no data points")
	}
	if shown != len(pts) {
		t.Fatalf("the screen counts %d data points, the export %d", shown, len(pts))
	}
}
