// Package clipboard copies parley's own text (ids, links) to the terminal's clipboard.
package clipboard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// Copy returns a command that copies text to the clipboard, then toasts what it did: in
// that order (a sequence, not a batch), so the program has queued the OSC 52 sequence for
// its terminal before the toast reaches the model, and no frame says "Copied" before the
// copy went out. The text is parley's own (an id), never API text. Bubble Tea writes the
// OSC 52 sequence to the program's own terminal (tea.SetClipboard), so it reaches the
// terminal of the session that asked, over SSH too. Inside tmux, tmux ignores an
// application's OSC 52 unless `set-clipboard on` (the default is `external`), and Bubble
// Tea does not go around that: the text also goes to `tmux load-buffer -w -`, which fills
// tmux's paste buffer and hands it to the outer terminal's clipboard by tmux's own OSC 52.
// That is for parley's own terminal only: a session of the team hub (ctx.Remote) copies
// by OSC 52 alone, or the hub's machine's tmux would get what an agent copied.
func Copy(ctx *common.Ctx, text, what string) tea.Cmd {
	remote := ctx.Remote
	return tea.Sequence(tea.SetClipboard(text), func() tea.Msg {
		if !remote && os.Getenv("TMUX") != "" {
			if err := tmuxLoadBuffer(text); err == nil {
				return common.ToastMsg{Text: "Copied " + what + " (tmux buffer and clipboard)"}
			}
		}
		return common.ToastMsg{Text: "Copied " + what + " to the clipboard (OSC 52)"}
	})
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
