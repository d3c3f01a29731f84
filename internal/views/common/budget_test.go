package common

import (
	"math"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// TestActivitySteps: live while a key came in the last 2 minutes, idle after that, long
// idle after 10 minutes, stopped after 30; a terminal without the focus is one step
// further.
func TestActivitySteps(t *testing.T) {
	for _, c := range []struct {
		quiet   time.Duration
		focused bool
		want    Activity
	}{
		{0, true, Live},
		{IdleAfter - time.Second, true, Live},
		{IdleAfter, true, Idle},
		{LongIdleAfter - time.Second, true, Idle},
		{LongIdleAfter, true, LongIdle},
		{StopAfter - time.Second, true, LongIdle},
		{StopAfter, true, Asleep},
		{12 * time.Hour, true, Asleep},
		{0, false, Idle},
		{IdleAfter, false, LongIdle},
		{LongIdleAfter, false, Asleep},
		{StopAfter, false, Asleep},
	} {
		if got := ActivityAt(c.quiet, c.focused); got != c.want {
			t.Errorf("quiet %v, focused %v: %v, want %v", c.quiet, c.focused, got, c.want)
		}
	}
}

// TestPaceOfEachActivity: with a fresh budget the pace is the configured interval while
// live, 4 times it idle, 20 times it long idle, and none asleep.
func TestPaceOfEachActivity(t *testing.T) {
	b := Budget{Interval: 30 * time.Second, PerDay: 500, Reserve: 100}
	for a, want := range map[Activity]time.Duration{Live: 30 * time.Second, Idle: 2 * time.Minute, LongIdle: 10 * time.Minute, Asleep: 0} {
		p := b.Pace(a, 0, 1)
		if p.Every != want || p.Spent || p.Slowed() || p.Activity != a {
			t.Errorf("%v: %+v, want every %v", a, p, want)
		}
	}
	if p := (Budget{PerDay: 500, Reserve: 100}).Pace(Live, 0, 1); p.Every != 0 {
		t.Errorf("auto-refresh off by configuration refreshes every %v", p.Every)
	}
}

// TestBudgetStretchSteps: the budget slows polling as the allowance (the share without
// the reserve) runs down, ×2 under a half, ×4 under a quarter, ×8 under a tenth, and stops
// it before it eats the reserve.
func TestBudgetStretchSteps(t *testing.T) {
	b := Budget{Interval: 30 * time.Second, PerDay: 500, Reserve: ReserveFor(500)}
	if b.Reserve != 100 || b.Allowance() != 400 {
		t.Fatalf("reserve %d, allowance %d; want 100 and 400", b.Reserve, b.Allowance())
	}
	for _, c := range []struct {
		used, cost, want int
	}{
		{0, 1, 1}, {199, 1, 1}, {200, 1, 2}, {299, 1, 2}, {300, 1, 4}, {359, 1, 4}, {360, 1, 8}, {399, 1, 8},
		{400, 1, 0}, {450, 1, 0}, {520, 1, 0},
		{397, 3, 8}, {398, 3, 0}, // what is left must pay for the whole refresh
		// A count read from the ledger's file may be any int: the sums do not wrap round.
		{math.MaxInt, 1, 0}, {math.MinInt, 1, 1}, {-1, 1, 1},
	} {
		if got := b.Stretch(c.used, c.cost); got != c.want {
			t.Errorf("used %d, cost %d: stretch %d, want %d", c.used, c.cost, got, c.want)
		}
	}
}

// TestPaceTakesTheSlowerOfActivityAndBudget: the budget's stretch and the activity's step
// do not add up: the slower one sets the pace, and a spent allowance stops polling.
func TestPaceTakesTheSlowerOfActivityAndBudget(t *testing.T) {
	b := Budget{Interval: 30 * time.Second, PerDay: 500, Reserve: 100}
	for _, c := range []struct {
		a      Activity
		used   int
		want   time.Duration
		slowed bool
		spent  bool
	}{
		{Live, 250, time.Minute, true, false},
		{Live, 380, 4 * time.Minute, true, false},
		{Idle, 250, 2 * time.Minute, false, false},
		{Idle, 380, 4 * time.Minute, true, false},
		{LongIdle, 380, 10 * time.Minute, false, false},
		{Live, 400, 0, false, true},
		{Asleep, 0, 0, false, false},
	} {
		p := b.Pace(c.a, c.used, 1)
		if p.Every != c.want || p.Slowed() != c.slowed || p.Spent != c.spent {
			t.Errorf("%v, %d used: %+v (slowed %v), want every %v slowed %v spent %v", c.a, c.used, p, p.Slowed(), c.want, c.slowed, c.spent)
		}
	}
}

// TestPaceText: each state reads differently in the status bar.
func TestPaceText(t *testing.T) {
	b := Budget{Interval: 30 * time.Second, PerDay: 500, Reserve: 100}
	for _, c := range []struct {
		p         Pace
		unfocused bool
		want      string
	}{
		{b.Pace(Live, 0, 1), false, "auto 30s"},
		{b.Pace(Idle, 0, 1), false, "auto 2m (idle)"},
		{b.Pace(Idle, 0, 1), true, "auto 2m (unfocused)"},
		{b.Pace(LongIdle, 0, 1), false, "auto 10m (long idle)"},
		{b.Pace(Asleep, 0, 1), false, "auto off (idle; a key resumes)"},
		{b.Pace(Asleep, 0, 1), true, "auto off (unfocused; a key resumes)"},
		{b.Pace(Live, 250, 1), false, "auto 1m (budget)"},
		{b.BackOff(b.Pace(Live, 0, 1), 3), false, "auto 4m (backing off)"},
		{Pace{Manual: true}, false, "no auto-refresh here"},
		{b.Pace(Live, 400, 1), false, "auto off: the rest of the budget is kept for your requests (R still works)"},
		{(Budget{Interval: 45 * time.Second, PerDay: 500}).Pace(Live, 0, 1), false, "auto 45s"},
		{(Budget{Interval: 90 * time.Second, PerDay: 500}).Pace(Live, 0, 1), false, "auto 1m30s"},
		{b.ForShift(b.Pace(Live, 0, 1), 4), false, "auto 2m (forecast)"},
	} {
		if got, _ := c.p.Text(b, c.unfocused, "R"); got != c.want {
			t.Errorf("%+v unfocused=%v: %q, want %q", c.p, c.unfocused, got, c.want)
		}
	}
	if got, _ := b.Pace(Live, 0, 1).Text(Budget{PerDay: 500}, false, "r"); got != "" {
		t.Errorf("auto-refresh off by configuration reads %q", got)
	}
}

// TestBackOffDoublesUpToTheLongIdlePace: each failed auto-refresh doubles the period, up
// to LongIdleFactor intervals; a pace slower already (long idle, the budget) or off stays.
func TestBackOffDoublesUpToTheLongIdlePace(t *testing.T) {
	b := Budget{Interval: 30 * time.Second, PerDay: 500, Reserve: 100}
	live := b.Pace(Live, 0, 1)
	for failed, want := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute,
		8 * time.Minute, 10 * time.Minute, 10 * time.Minute, 10 * time.Minute} {
		p := b.BackOff(live, failed)
		if p.Every != want || p.BackedOff != (failed > 0) {
			t.Errorf("after %d failed: %v (backed off %v), want %v", failed, p.Every, p.BackedOff, want)
		}
	}
	if p := b.BackOff(b.Pace(Idle, 0, 1), 1); p.Every != 4*time.Minute {
		t.Errorf("idle, one failed: %v, want 4m", p.Every)
	}
	for _, p := range []Pace{b.Pace(LongIdle, 0, 1), b.Pace(Asleep, 0, 1), b.Pace(Live, 400, 1)} {
		if got := b.BackOff(p, 5); got != p {
			t.Errorf("%+v backed off to %+v", p, got)
		}
	}
	slowed := b.Pace(Live, 390, 1) // the budget: 8 intervals, 4m
	if got := b.BackOff(slowed, 1); got.Every != 8*time.Minute || !got.BackedOff {
		t.Errorf("slowed by the budget, one failed: %+v, want 8m", got)
	}
	if got := b.BackOff(slowed, 2); got.Every != 10*time.Minute {
		t.Errorf("slowed by the budget, two failed: %+v, want 10m", got)
	}
}

// TestShiftStretch: polling keeps its pace while the forecast lasts the shift (or no shift
// end is set, or it has passed); else it slows by what the other requests leave of the
// budget per hour until the shift ends (or the API's day, when that comes first): the
// polls' rate over that room, rounded up, at most MaxShiftStretch and the long-idle pace.
func TestShiftStretch(t *testing.T) {
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	b := Budget{Interval: 30 * time.Second, PerDay: 5000, Reserve: 1000, ShiftEnd: 17 * time.Hour}
	live := b.Pace(Live, 0, 1) // 120 polls an hour
	f := client.Forecast{Used: 1000, Limit: 5000, PerHour: 700, Over: time.Hour, Now: now, Reset: now.Add(15 * time.Hour)}
	f.Out = now.Add(5*time.Hour + 42*time.Minute) // 4,000 at 700 an hour
	for _, c := range []struct {
		what  string
		b     Budget
		f     client.Forecast
		spent float64
		p     Pace
		want  int
	}{
		// 4,000 left over 8 hours: 500 an hour; the rest spends 700-120 = 580: no room.
		{"the rest alone runs it out", b, f, 120, live, 8},
		// The rest spends 400 (700 - 300 of polls): 100 an hour left for 120 polls: 2.
		{"room for half the polls", b, f, 300, live, 2},
		{"the forecast lasts the shift", b, client.Forecast{Used: 1000, Limit: 5000, PerHour: 400, Over: time.Hour, Now: now,
			Reset: now.Add(15 * time.Hour)}, 0, live, 1},
		{"no shift end", Budget{Interval: 30 * time.Second, PerDay: 5000}, f, 120, live, 1},
		{"the shift is over", Budget{Interval: 30 * time.Second, PerDay: 5000, ShiftEnd: 8 * time.Hour}, f, 120, live, 1},
		{"idle: up to the long-idle pace", b, f, 120, b.Pace(Idle, 0, 1), 5},
		{"long idle: slow enough already", b, f, 120, b.Pace(LongIdle, 0, 1), 1},
		{"not polling", b, f, 120, b.Pace(Asleep, 0, 1), 1},
		{"nothing left", b, client.Forecast{Used: 5000, Limit: 5000, PerHour: 700, Over: time.Hour, Now: now, Out: now,
			Reset: now.Add(15 * time.Hour)}, 0, live, 8},
	} {
		if got := c.b.ShiftStretch(c.f, c.spent, c.p, 1); got != c.want {
			t.Errorf("%s: stretch %d, want %d", c.what, got, c.want)
		}
	}
	// The API's day ends before the shift (a shift to 24:00 on a server 3 hours ahead):
	// the budget need only last until the count starts again.
	late := Budget{Interval: 30 * time.Second, PerDay: 5000, ShiftEnd: 24 * time.Hour}
	g := f
	g.Reset = now.Add(6 * time.Hour) // 15:00; 4,000 left over 6 hours: 667, the rest 580
	if got := late.ShiftStretch(g, 120, live, 1); got != 2 {
		t.Errorf("until the day's end: stretch %d, want 2", got)
	}
	if p := b.ForShift(live, 4); p.Every != 2*time.Minute || p.Shift != 4 {
		t.Errorf("ForShift by 4: %+v", p)
	}
	if end := b.ShiftEndAt(now); !end.Equal(time.Date(2026, 11, 20, 17, 0, 0, 0, time.UTC)) {
		t.Errorf("ShiftEndAt = %s", end)
	}
	o := Outlook{Forecast: f, ShiftEnd: b.ShiftEndAt(now)}
	if !o.Short() || (Outlook{Forecast: f}).Short() {
		t.Errorf("Short: with a shift %v, without %v", o.Short(), (Outlook{Forecast: f}).Short())
	}
}

// TestSpent: what polls spent an hour over the forecast's span, polls older than the span
// left out, and nothing remembered past an hour.
func TestSpent(t *testing.T) {
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var s Spent
	for i := range 60 {
		s.Add(start.Add(time.Duration(i)*time.Minute), 2) // 2 requests a minute for an hour
	}
	now := start.Add(60 * time.Minute)
	if got := s.PerHour(client.Forecast{Now: now, Over: time.Hour}); got != 118 {
		t.Errorf("over the last hour: %v an hour, want 118 (the poll of 09:00 is an hour old)", got)
	}
	if got := s.PerHour(client.Forecast{Now: now, Over: 10 * time.Minute}); got != 108 {
		t.Errorf("over the last 10 minutes: %v an hour, want 108 (9 polls of 2)", got)
	}
	if got := s.PerHour(client.Forecast{Now: now}); got != 0 {
		t.Errorf("over no span: %v", got)
	}
	s.Add(now.Add(2*time.Hour), 0)
	if len(s.polls) != 1 || s.polls[0].cost != 1 {
		t.Errorf("after two hours: %+v, want only the last poll, costing at least 1", s.polls)
	}
}
