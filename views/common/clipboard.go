package common

import (
	"fmt"
	"os"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"
)

// CopyToClipboard returns a command that copies text to the clipboard with OSC 52 (through
// tmux when inside it), then toasts "Copied <what> to the clipboard (OSC 52)".
func CopyToClipboard(text, what string) tea.Cmd {
	inTmux := os.Getenv("TMUX") != ""
	return tea.Sequence(func() tea.Msg {
		seq := osc52.New(text)
		if inTmux {
			seq = seq.Tmux()
		}
		_, _ = fmt.Fprint(os.Stderr, seq.String())
		return nil
	}, Toast("Copied "+what+" to the clipboard (OSC 52)"))
}
