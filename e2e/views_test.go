//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/config"
)

// A query saved as a view with V survives a restart: parley starts again on that view, and
// the config file keeps its comments.
func TestSavedViewSurvivesRestart(t *testing.T) {
	sb := StartSandbox(t, "small")
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.yaml")
	head := "# my parley\ntheme: mono # no colours over ssh\n\n# views I use\nviews:\n  # the queue\n  - name: Pending\n    screen: conversations\n    status: pending\n"
	tail := "\n# never mind\n"
	if err := os.WriteFile(conf, []byte(head+tail), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(sb.Env, "PARLEY_CONFIG="+conf, "XDG_STATE_HOME="+filepath.Join(dir, "state"))

	tui := StartTUI(t, 80, 24, env)
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "all ") && strings.Contains(s, "Pending") && strings.Contains(s, "conversations ·")
	}, 15*time.Second, "the row of views")
	tui.Keys("s") // status new
	tui.WaitFor("only new", 10*time.Second)
	tui.Keys("V")
	tui.WaitFor("Save the query as a view", 10*time.Second)
	tui.Type("Fresh")
	tui.Keys("C-s")
	tui.WaitFor("View saved", 10*time.Second)
	screen := tui.WaitFor("Fresh", 10*time.Second)
	if !strings.Contains(screen, "all ") || !strings.Contains(screen, "Pending") {
		t.Fatalf("the row after saving:\n%s", screen)
	}
	tui.Keys("q")
	tui.WaitUntil(func(string) bool { return tui.Dead() }, 10*time.Second, "parley to quit on q")

	got, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), head) || !strings.HasSuffix(string(got), tail) {
		t.Fatalf("the config file lost lines:\n%s", got)
	}
	c, err := config.Load(conf)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Views) != 2 || c.Views[1].Name != "Fresh" || c.Views[1].Status != "new" {
		t.Fatalf("views in the file: %+v", c.Views)
	}

	// Started again: the saved view is there, active, and its query is what the list asks.
	again := StartTUI(t, 80, 24, env)
	screen = again.WaitUntil(func(s string) bool {
		return strings.Contains(s, "Fresh") && strings.Contains(s, "only new") && strings.Contains(s, "conversations ·")
	}, 15*time.Second, "the restored view")
	if !strings.Contains(screen, "Pending") {
		t.Fatalf("the row after the restart:\n%s", screen)
	}
	again.Keys("[") // Pending, before Fresh
	again.WaitFor("only pending", 10*time.Second)
}
