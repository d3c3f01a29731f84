package common

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/sat"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// The auto-refresh policy: auto-refresh spends where work happens. It runs at the
// configured interval while someone works (a key in the last IdleAfter, the terminal
// focused), slows down step by step while nobody does, and stops after StopAfter without a
// key, until the next key, which refreshes at once. Losing the terminal's focus counts as
// one step of idleness more. On top of that the request budget slows polling down as the
// day's allowance runs low and stops it before it eats the reserve kept for what the user
// does (opening threads, searches, edits).
const (
	// IdleAfter without a key: Idle, auto-refresh every IdleFactor intervals.
	IdleAfter = 2 * time.Minute
	// LongIdleAfter without a key: LongIdle, every LongIdleFactor intervals.
	LongIdleAfter = 10 * time.Minute
	// StopAfter without a key: Asleep, no auto-refresh until the next key.
	StopAfter = 30 * time.Minute

	IdleFactor     = 4
	LongIdleFactor = 20

	// SlotsFactor: the operators screen asks for slots (one request per operator in view)
	// once every SlotsFactor refreshes of its list (one request for everyone).
	SlotsFactor = 10
)

// Activity is how recently someone worked in parley.
type Activity int

// The steps of Activity, from working to gone.
const (
	Live Activity = iota
	Idle
	LongIdle
	Asleep
)

// String names the step as the table of docs/budget.md does.
func (a Activity) String() string {
	switch a {
	case Live:
		return "live"
	case Idle:
		return "idle"
	case LongIdle:
		return "long idle"
	}
	return "stopped"
}

// ActivityAt is the step after quiet without a key; a terminal that lost the focus is one
// step further.
func ActivityAt(quiet time.Duration, focused bool) Activity {
	a := Live
	switch {
	case quiet >= StopAfter:
		a = Asleep
	case quiet >= LongIdleAfter:
		a = LongIdle
	case quiet >= IdleAfter:
		a = Idle
	}
	if !focused && a < Asleep {
		a++
	}
	return a
}

// factor is the multiple of the configured interval an activity step refreshes at (0:
// not at all).
func (a Activity) factor() int {
	switch a {
	case Live:
		return 1
	case Idle:
		return IdleFactor
	case LongIdle:
		return LongIdleFactor
	}
	return 0
}

// APIDailyLimit is the API's daily limit per resource family and organization (spec,
// Limits): shared by every parley of the organization.
const APIDailyLimit = 5000

// ReserveFor is the part of a daily budget of perDay requests that polling never spends:
// a fifth, kept for what the user does.
func ReserveFor(perDay int) int { return perDay / 5 }

// Budget is one parley's share of the day's requests and the configured auto-refresh
// interval: with the activity, they make the auto-refresh pace (Pace).
type Budget struct {
	// Interval is the configured auto-refresh period (0 or less: auto-refresh is off).
	Interval time.Duration
	// PerDay is this user's share of the organization's daily requests per family
	// (request_budget).
	PerDay int
	// Reserve is the part of PerDay auto-refresh never spends (ReserveFor(PerDay) by
	// default): polling stops first.
	Reserve int
	// ShiftEnd is when the working day ends, as a time of day on the local clock (17h is
	// 17:00; 24h midnight; 0: none). While the day's forecast says the budget runs out
	// before it, polling is stretched (ShiftStretch) and the people working are told.
	ShiftEnd time.Duration
}

// On reports whether auto-refresh is on.
func (b Budget) On() bool { return b.Interval > 0 }

// Allowance is what auto-refresh may spend of a family per UTC day: the share without
// the reserve.
func (b Budget) Allowance() int { return max(0, b.PerDay-b.Reserve) }

// Stretch is how much the budget slows polling that costs cost requests a refresh (at
// least one) of a family of which used were spent today: 1 while more than half of the
// allowance is left, 2 under a half, 4 under a quarter, 8 under a tenth, and 0 when what
// is left of it cannot pay for a refresh: polling stops and the reserve stays for the
// user's own requests.
func (b Budget) Stretch(used, cost int) int {
	allowance := b.Allowance()
	// used comes from the request ledger's file and may be any int: checked arithmetic.
	left := sat.Sub(allowance, used)
	switch {
	case left < max(1, cost):
		return 0
	case sat.Mul(left, 2) > allowance:
		return 1
	case sat.Mul(left, 4) > allowance:
		return 2
	case sat.Mul(left, 10) > allowance:
		return 4
	}
	return 8
}

// Pace is the auto-refresh period of a screen and why it is what it is.
type Pace struct {
	// Every is the period; 0 means no auto-refresh now (Asleep, or Spent).
	Every    time.Duration
	Activity Activity
	// Stretch is the budget's factor (1: the budget does not slow it; 0: Spent).
	Stretch int
	// Spent: the allowance cannot pay for another refresh today; the reserve is kept.
	Spent bool
	// BackedOff: auto-refreshes met a server error or no answer, and the period is longer
	// for it (BackOff).
	BackedOff bool
	// Manual: the screen shown never auto-refreshes (so says its row of the root's screen registry); Every
	// is 0.
	Manual bool
	// Shift is the factor the day's forecast stretches the period by, so that the budget
	// lasts the shift (ForShift; 0 or 1: it does not).
	Shift int
}

// Pace is the auto-refresh period for activity a of refreshes that cost cost requests of
// a family of which used were spent today: the configured interval times the activity's
// factor, or times the budget's stretch when that is larger.
func (b Budget) Pace(a Activity, used, cost int) Pace {
	p := Pace{Activity: a, Stretch: b.Stretch(used, cost)}
	p.Spent = p.Stretch == 0
	if !b.On() || p.Spent || a.factor() == 0 {
		return p
	}
	p.Every = b.Interval * time.Duration(max(a.factor(), p.Stretch))
	return p
}

// BackOff is the pace p after failed auto-refreshes in a row, each of which met a server
// error or no answer: every one doubles the period, up to the long-idle pace
// (LongIdleFactor intervals); a pace slower already, or off, stays as it is. The first
// answer of the API ends the back-off (failed is then 0 again).
func (b Budget) BackOff(p Pace, failed int) Pace {
	if failed <= 0 || p.Every == 0 {
		return p
	}
	ceiling := b.Interval * LongIdleFactor
	every := p.Every
	for i := 0; i < failed && every < ceiling; i++ {
		every *= 2
	}
	if every = min(every, ceiling); every > p.Every {
		p.Every, p.BackedOff = every, true
	}
	return p
}

// Slowed reports whether the budget, not the activity, sets the pace.
func (p Pace) Slowed() bool { return p.Stretch > p.Activity.factor() && p.Activity.factor() > 0 }

// Text says the pace in the words of the status bar: "auto 30s", "auto 2m (idle)",
// "auto 1m (budget)", "auto 4m (backing off)", "auto 2m (forecast)" (stretched for the
// shift: ForShift), "auto off (idle; a key resumes)", "auto
// off: the rest of the budget is kept for your requests (r still works)", naming the
// refresh key as bound (refreshKey), "no auto-refresh here" (Manual); unfocused says
// "unfocused" for the activity's word (the terminal lost the focus). short is the form
// for a narrow terminal ("" when text is short already). Both are "" when auto-refresh
// is off by configuration.
func (p Pace) Text(b Budget, unfocused bool, refreshKey string) (text, short string) {
	why := p.Activity.String()
	if unfocused {
		why = "unfocused"
	}
	switch {
	case !b.On():
		return "", ""
	case p.Manual:
		return "no auto-refresh here", ""
	case p.Spent:
		return "auto off: the rest of the budget is kept for your requests (" + refreshKey + " still works)", "auto off (budget)"
	case p.Every == 0:
		if !unfocused {
			why = "idle" // asleep: idle for long
		}
		return "auto off (" + why + "; a key resumes)", "auto off (" + why + ")"
	case p.BackedOff:
		return "auto " + CompactDuration(p.Every) + " (backing off)", ""
	case p.Shift > 1:
		return "auto " + CompactDuration(p.Every) + " (forecast)", ""
	case p.Slowed():
		return "auto " + CompactDuration(p.Every) + " (budget)", ""
	case p.Activity == LongIdle && !unfocused:
		return "auto " + CompactDuration(p.Every) + " (long idle)", "auto " + CompactDuration(p.Every) + " (idle)"
	case p.Activity != Live:
		return "auto " + CompactDuration(p.Every) + " (" + why + ")", ""
	}
	return "auto " + CompactDuration(p.Every), ""
}

// CompactDuration is a period in as few characters as it takes: "30s", "2m", "1m30s",
// "2h".
func CompactDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < time.Minute:
		return strconv.Itoa(int(d.Round(time.Second)/time.Second)) + "s"
	}
	return layout.ShortDuration(d)
}

// MaxShiftStretch is the most the day's forecast stretches polling by (ShiftStretch):
// eight times the pace, and never slower than the long-idle pace (LongIdleFactor
// intervals). A budget that polling that slow does not save is what the people working
// are told about.
const MaxShiftStretch = 8

// ShiftEndAt is the end of today's shift on now's clock, or zero when no shift end is set
// or it has passed.
func (b Budget) ShiftEndAt(now time.Time) time.Time {
	if b.ShiftEnd <= 0 {
		return time.Time{}
	}
	y, m, d := now.Date()
	end := time.Date(y, m, d, 0, 0, 0, 0, now.Location()).Add(b.ShiftEnd)
	if !now.Before(end) {
		return time.Time{}
	}
	return end
}

// ShiftStretch is how much polling at pace p, cost requests a poll, must slow down for
// the day's budget to last the shift at the forecast's pace f: 1 when it lasts (or no
// shift is set, or the API's day ends first), else the factor that leaves the polls what
// the rest of the requests do not spend of the budget per hour until the shift ends (or
// the day, when that comes first), up to MaxShiftStretch and the long-idle pace.
// spentPerHour is what the polls themselves spent of f.PerHour (over f.Over).
func (b Budget) ShiftStretch(f client.Forecast, spentPerHour float64, p Pace, cost int) int {
	end := b.ShiftEndAt(f.Now)
	if end.IsZero() || f.Lasts(end) || p.Every <= 0 || !b.On() {
		return 1
	}
	most := max(1, min(MaxShiftStretch, int(b.Interval*LongIdleFactor/p.Every)))
	if f.Reset.Before(end) {
		end = f.Reset
	}
	hours := end.Sub(f.Now).Hours()
	left := f.Limit - f.Used
	if left <= 0 || hours <= 0 {
		return most
	}
	others := max(0, f.PerHour-spentPerHour)
	room := float64(left)/hours - others // what the polls may spend an hour
	polls := float64(max(1, cost)) * float64(time.Hour) / float64(p.Every)
	if room <= 0 {
		return most
	}
	return max(1, min(most, int(math.Ceil(polls/room))))
}

// Spent is what polling spent of the day's budget over the last hour: the forecast's pace
// counts the polls too, and ShiftStretch takes them out of it (its spentPerHour) so that a
// stretch does not feed on itself. The hub's poller keeps one, and so does a TUI's
// auto-refresh.
type Spent struct{ polls []spend }

type spend struct {
	at   time.Time
	cost int
}

// spentWindow is how long Spent remembers: the forecast's pace spans the last hour at
// most.
const spentWindow = time.Hour

// Add records a poll at at that cost cost requests (at least 1), and forgets those more
// than an hour older.
func (s *Spent) Add(at time.Time, cost int) {
	keep := slices.IndexFunc(s.polls, func(p spend) bool { return p.at.After(at.Add(-spentWindow)) })
	if keep < 0 {
		keep = len(s.polls)
	}
	s.polls = append(s.polls[keep:], spend{at: at, cost: max(1, cost)})
}

// PerHour is what the polls spent an hour over the forecast f's span (0 when it has none).
func (s *Spent) PerHour(f client.Forecast) float64 {
	if f.Over <= 0 {
		return 0
	}
	n := 0
	for _, p := range s.polls {
		if p.at.After(f.Now.Add(-f.Over)) {
			n = sat.Add(n, p.cost)
		}
	}
	return float64(n) / f.Over.Hours()
}

// ForShift is pace p stretched by s (ShiftStretch).
func (b Budget) ForShift(p Pace, s int) Pace {
	if s > 1 && p.Every > 0 {
		p.Every *= time.Duration(s)
		p.Shift = s
	}
	return p
}

// Outlook is the day's budget as its forecast sees it, in a session's status bar and the
// hub's metrics: the family whose budget runs out first at the pace of the last hour, the
// end of the shift (zero: none set, or it has passed) and the stretch of polling for it.
type Outlook struct {
	Forecast client.Forecast
	ShiftEnd time.Time
	// Stretch is the factor polling is stretched by for the shift (0 or 1: none).
	Stretch int
}

// Short reports whether the budget runs out before the shift ends at this pace.
func (o Outlook) Short() bool { return !o.ShiftEnd.IsZero() && !o.Forecast.Lasts(o.ShiftEnd) }

// DayOutlook is the outlook of c's organization: each family of client.DailyFamilies()
// against a day's limit of perDay, the one that runs out first (conversations when none
// does), with b's shift end and polling stretched by stretch.
func (b Budget) DayOutlook(c *client.Client, perDay, stretch int) Outlook {
	var first client.Forecast
	for i, f := range client.DailyFamilies() {
		fc := c.Forecast(f, perDay)
		if i == 0 || !fc.Out.IsZero() && (first.Out.IsZero() || fc.Out.Before(first.Out)) {
			first = fc
		}
	}
	return Outlook{Forecast: first, ShiftEnd: b.ShiftEndAt(first.Now), Stretch: stretch}
}
