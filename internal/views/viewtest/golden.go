package viewtest

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Plain is view as a terminal without colour shows it: the text, without escape codes
// (styles always write them; the renderer drops them for such a terminal).
func Plain(view string) string { return ansi.Strip(view) }

// GoldenView runs h in a teatest program at w×ht, waits until it saw the messages want
// names (Seen.WaitSeen), quits, and compares the final view with the test's golden file
// (`go test -update` rewrites it).
func GoldenView(t *testing.T, h *Host, w, ht int, want map[string]int) {
	t.Helper()
	tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(w, ht))
	h.WaitSeen(t, want)
	tm.Send(Key("ctrl+c"))
	golden.RequireEqual(t, []byte(Plain(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)))
}
