package common_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// TestRestTakesOnlyItsLatestMove: staying on the row, on no row or on the row shown starts
// no timer; of two moves only the later one's timer counts, and one rest timer never takes
// another's (two screens see each other's timers).
func TestRestTakesOnlyItsLatestMove(t *testing.T) {
	var armed []time.Duration
	ctx := &common.Ctx{Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
		armed = append(armed, d)
		return func() tea.Msg { return msg }
	}}
	a, b := common.NewSettle(ctx), common.NewSettle(ctx)
	for _, c := range []struct {
		name               string
		before, now, shown int64
	}{{"stayed", 4, 4, 0}, {"no row", 4, 0, 0}, {"the row shown", 4, 5, 5}} {
		if cmd := a.Moved(c.before, c.now, c.shown); cmd != nil {
			t.Errorf("%s: a timer started", c.name)
		}
	}
	first, second := a.Moved(1, 2, 0), a.Moved(2, 3, 0)
	if first == nil || second == nil {
		t.Fatal("a move to another row started no timer")
	}
	if len(armed) != 2 || armed[0] != common.SettleDelay || armed[1] != common.SettleDelay {
		t.Fatalf("armed %v on the context's clock, want two timers of %v", armed, common.SettleDelay)
	}
	older, latest := first().(common.SettledMsg), second().(common.SettledMsg)
	if a.Settled(older) {
		t.Error("the timer of an earlier move counted")
	}
	if !a.Settled(latest) {
		t.Error("the timer of the latest move did not count")
	}
	b.Moved(1, 2, 0)
	b.Moved(2, 3, 0) // b is at the same move as a
	if b.Settled(latest) {
		t.Error("a rest timer took another's")
	}
}
