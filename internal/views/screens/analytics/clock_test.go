package analytics_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// With this machine's clock 17 days off the server's either way, the screen's relative
// ranges end on the server's today once the client has seen the server's clock, and a
// custom range of the server's today is asked for, not taken for one in the future.
func TestRangesAreTheServersDaysWhateverTheLocalClock(t *testing.T) {
	viewtest.EachSkew(t, sandbox.Options{}, func(t *testing.T, sk *viewtest.Skewed) {
		ctx := sk.Ctx()
		if _, err := sk.Client.AllOperators(t.Context()); err != nil { // an answer: its Date header
			t.Fatal(err)
		}
		y, mo, d := sk.Server.Now().UTC().Date()
		today := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
		m := analytics.New(ctx)
		l := viewtest.RunScreen(t, ctx, m, 120, 40)
		if got := m.Period().To; !got.Equal(today) {
			t.Fatalf("the last 30 days end on %s, want the server's today %s (local today %s)",
				got.Format(time.DateOnly), today.Format(time.DateOnly), sk.Local().UTC().Format(time.DateOnly))
		}
		l.Until("the chart", m.Loaded)
		if got := ansi.Strip(l.H.Render()); strings.Contains(got, "in the future") {
			t.Fatalf("the server's days are said to be in the future:\n%s", got)
		}
	})
}
