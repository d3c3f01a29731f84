package clipboard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// run runs cmd and the commands of its batch or sequence, and returns the toast it ended
// with.
func run(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	var toast string
	var walk func(tea.Cmd)
	walk = func(c tea.Cmd) {
		if c == nil {
			return
		}
		msg := c()
		if cmds, ok := viewtest.SubCommands(msg); ok {
			for _, c := range cmds {
				walk(c)
			}
		}
		if m, ok := msg.(common.ToastMsg); ok {
			toast = m.Text
		}
	}
	walk(cmd)
	return toast
}

// The toast comes after the clipboard write, never beside it: the copy is a sequence whose
// first command writes the clipboard and whose last toasts, so the program queues the
// OSC 52 sequence before a frame can say "Copied" (in a batch the toast could win).
func TestCopyToastsAfterTheClipboardWrite(t *testing.T) {
	t.Setenv("TMUX", "")
	msg := Copy(&common.Ctx{}, "700123", "conversation id")()
	cmds, ok := viewtest.SubCommands(msg)
	if _, batch := msg.(tea.BatchMsg); batch || !ok {
		t.Fatalf("the copy is %T, want a sequence", msg)
	}
	var got []tea.Msg
	for _, c := range cmds {
		got = append(got, c())
	}
	if len(got) != 2 || fmt.Sprint(got[0]) != "700123" {
		t.Fatalf("the copy sends %v, want the clipboard write first", got)
	}
	if toast, ok := got[1].(common.ToastMsg); !ok || !strings.Contains(toast.Text, "Copied conversation id") {
		t.Fatalf("the copy's second message is %#v, want its toast", got[1])
	}
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
