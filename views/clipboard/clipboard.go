// Package clipboard copies parley's own text (ids, links) to the terminal's clipboard.
package clipboard

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/views/common"
)

// Copy returns a command that copies text to the clipboard with OSC 52, then
// toasts what it did. The sequence goes to the controlling terminal, so it works when stderr
// is redirected; the text is parley's own (an id), never API text. Inside tmux, tmux ignores
// an application's OSC 52 unless `set-clipboard on` (the default is `external`), so the text
// also goes to `tmux load-buffer -w -`, which fills tmux's paste buffer and hands it to the
// outer terminal's clipboard by tmux's own OSC 52.
func Copy(text, what string) tea.Cmd {
	return func() tea.Msg {
		seq := osc52.New(text)
		var w io.Writer = os.Stderr
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
		if _, err := fmt.Fprint(w, seq.String()); err != nil {
			return common.ToastMsg{Text: "Could not copy: " + err.Error(), Error: true}
		}
		if os.Getenv("TMUX") != "" {
			if err := tmuxLoadBuffer(text); err == nil {
				return common.ToastMsg{Text: "Copied " + what + " (tmux buffer and clipboard)"}
			}
		}
		return common.ToastMsg{Text: "Copied " + what + " to the clipboard (OSC 52)"}
	}
}

// tmuxLoadBuffer puts text into tmux's paste buffer and, with -w, the outer clipboard.
func tmuxLoadBuffer(text string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", "load-buffer", "-w", "-")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("tmux load-buffer: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
