package clipboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/views/common"
)

// run runs cmd and the commands of its batch, and returns the toast it ended with.
func run(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	var toast string
	var walk func(tea.Cmd)
	walk = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				walk(c)
			}
		case common.ToastMsg:
			toast = msg.Text
		}
	}
	walk(cmd)
	return toast
}

// TestCopyUsesTheOwnTmuxOnlyForItsOwnTerminal: inside tmux, parley's own terminal also
// fills tmux's buffer (a tmux on PATH records the call); a remote session of the team hub
// copies by OSC 52 only, and the hub machine's tmux is never called.
func TestCopyUsesTheOwnTmuxOnlyForItsOwnTerminal(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >>" + calls + "\ncat >/dev/null\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("TMUX", "/tmp/tmux-0/default,1,0")
	called := func() string { b, _ := os.ReadFile(calls); return string(b) }

	if toast := run(t, Copy(&common.Ctx{Remote: true}, "700123", "conversation id")); !strings.Contains(toast, "OSC 52") {
		t.Errorf("a remote session's copy says %q, want OSC 52", toast)
	}
	if c := called(); c != "" {
		t.Fatalf("a remote session's copy called tmux: %q", c)
	}
	if toast := run(t, Copy(&common.Ctx{}, "700123", "conversation id")); !strings.Contains(toast, "tmux buffer") {
		t.Errorf("parley's own terminal in tmux: the copy says %q, want the tmux buffer", toast)
	}
	if c := called(); !strings.Contains(c, "load-buffer") {
		t.Errorf("parley's own terminal in tmux did not load tmux's buffer: %q", c)
	}
}
