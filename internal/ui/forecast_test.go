package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
)

// A single parley with a shift end: while the day's pace (here 12 conversation requests a
// minute against a budget of 2,000) runs the budget out before the shift ends at 22:00,
// the status bar says when, auto-refresh is stretched ("auto 4m (forecast)") and a toast
// says why; when the pace falls so that the budget lasts, auto-refresh is back to its
// interval and a toast says so. Without a shift end the forecast shows all the same, and
// nothing is stretched.
func TestForecastStretchesAutoRefreshForTheShift(t *testing.T) {
	t.Parallel()
	for _, shift := range []time.Duration{22 * time.Hour, 0} {
		l, clock := policyApp(t, sandbox.Options{}, Options{RequestBudget: 2000, ShiftEnd: shift})
		c := l.app.ctx.Client
		if bar := l.statusBar(); strings.Contains(bar, "budget lasts until") {
			t.Fatalf("a forecast before any pace: %q", bar)
		}
		for range 15 {
			clock.Add(time.Minute)
			for range 12 {
				if _, err := c.ListConversations(client.Fresh(t.Context()), client.ConversationListOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			l.Key("r") // someone works
			l.Settle()
		}
		l.Deliver(l.app.AutoTick()) // due since the refresh 15 minutes ago
		bar := l.statusBar()
		if !strings.Contains(bar, "budget lasts until 17:") {
			t.Errorf("shift %s: the status bar does not say when the budget runs out: %q", shift, bar)
		}
		if shift == 0 {
			if strings.Contains(bar, "(forecast)") || strings.Contains(l.toasts(), "slows down") {
				t.Errorf("without a shift end auto-refresh was stretched: %q %q", bar, l.toasts())
			}
			continue
		}
		if !strings.Contains(bar, "auto 4m (forecast)") {
			t.Errorf("auto-refresh is not stretched for the shift: %q", bar)
		}
		if want := "before the shift ends at 22:00: auto-refresh slows down to every 4m"; !strings.Contains(l.toasts(), want) {
			t.Errorf("toasts %q, want one saying %q", l.toasts(), want)
		}
		// An hour and more of a few requests: the pace of the last hour lasts the shift.
		for range 7 {
			clock.Add(10 * time.Minute)
			l.Key("j")
			l.Settle()
		}
		l.Deliver(l.app.AutoTick())
		if bar := l.statusBar(); strings.Contains(bar, "(forecast)") || strings.Contains(bar, "budget lasts until") {
			t.Errorf("after the pace fell: %q", bar)
		}
		if want := "auto-refresh is no longer slowed, back to every 30s"; !strings.Contains(l.toasts(), want) {
			t.Errorf("toasts %q, want one saying %q", l.toasts(), want)
		}
	}
}
