package viewtest

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// GoldenView runs h in a teatest program at w×ht, waits until it saw the messages want
// names (Seen.WaitSeen), quits, and compares the final view with the test's golden file
// (`go test -update` rewrites it).
func GoldenView(t *testing.T, h *Host, w, ht int, want map[string]int) {
	t.Helper()
	tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(w, ht))
	h.WaitSeen(t, want)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	golden.RequireEqual(t, []byte(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()))
}
