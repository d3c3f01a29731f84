package common

import (
	"fmt"
	"io"
	"os"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"
)

// CopyToClipboard returns a command that copies text to the clipboard with OSC 52, then
// toasts "Copied <what> to the clipboard (OSC 52)". The sequence goes to the controlling
// terminal, so it works when stderr is redirected; the text is parley's own (an id), never
// API text. Inside tmux it is sent plain, which tmux takes with `set-clipboard on` (a DCS
// passthrough would need `allow-passthrough`, which is off by default).
func CopyToClipboard(text, what string) tea.Cmd {
	return tea.Sequence(func() tea.Msg {
		seq := osc52.New(text)
		var w io.Writer = os.Stderr
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
		if _, err := fmt.Fprint(w, seq.String()); err != nil {
			return ToastMsg{Text: "Could not copy: " + err.Error(), Error: true}
		}
		return nil
	}, Toast("Copied "+what+" to the clipboard (OSC 52)"))
}
