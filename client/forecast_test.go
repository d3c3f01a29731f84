package client

import (
	"net/http"
	"testing"
	"time"
)

// The forecast runs against the pace of the last hour of looks at the counters; before
// ten minutes of looks it takes the day's average, by the server's day. Its times are on
// the local clock, the day's end (the count's reset) placed there from the server's clock:
// here 3 hours ahead of the local one, so the API's midnight is 21:00 local.
func TestForecastAtThePaceOfTheLastHour(t *testing.T) {
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Date", now.Add(3*time.Hour).Format(http.TimeFormat))
		writeJSON(w, http.StatusOK, twoRows)
	})
	c, _ := newTestClient(t, rec.base(), func(c *Config) { c.Now = func() time.Time { return now } })
	if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	c.counters.add(0, FamilyConversations, Tally{Answered: 999}) // 1,000 with the list
	f := c.Forecast(FamilyConversations, 5000)
	reset := time.Date(2026, 11, 20, 21, 0, 0, 0, time.UTC)
	if !f.Reset.Equal(reset) {
		t.Errorf("the day ends at %s local, want %s (the server's midnight)", f.Reset, reset)
	}
	// 1,000 in the server's 12 hours of the day: 83 an hour, which lasts the day.
	if f.Used != 1000 || f.PerHour < 83 || f.PerHour > 84 || f.Over != 12*time.Hour || !f.Out.IsZero() || !f.Lasts(reset) {
		t.Errorf("at the start: %+v; want the day's average, lasting the day", f)
	}
	for range 15 {
		now = now.Add(time.Minute)
		c.counters.add(0, FamilyConversations, Tally{Answered: 10})
		f = c.Forecast(FamilyConversations, 5000)
	}
	// 150 in 15 minutes: 600 an hour; 3,850 left last 6 h 25 min.
	want := time.Date(2026, 11, 20, 15, 40, 0, 0, time.UTC)
	if f.PerHour != 600 || f.Over != 15*time.Minute || !f.Out.Equal(want) {
		t.Errorf("after 15 minutes of 10 a minute: %.1f an hour over %s, out at %s; want 600 over 15m0s, out at %s",
			f.PerHour, f.Over, f.Out, want)
	}
	if f.Lasts(want.Add(time.Minute)) || !f.Lasts(want) {
		t.Errorf("Lasts around %s is wrong: %+v", want, f)
	}
	// Two hours on at 5 a minute: only the last hour counts.
	for range 120 {
		now = now.Add(time.Minute)
		c.counters.add(0, FamilyConversations, Tally{Answered: 5})
		f = c.Forecast(FamilyConversations, 5000)
	}
	if f.PerHour != 300 || f.Over != time.Hour {
		t.Errorf("two hours of 5 a minute: %.1f an hour over %s, want 300 over the last hour", f.PerHour, f.Over)
	}
	// Past the limit: out now.
	c.counters.add(0, FamilyConversations, Tally{Answered: 5000})
	if f = c.Forecast(FamilyConversations, 5000); !f.Out.Equal(now) {
		t.Errorf("past the limit the budget is out at %s, want now (%s)", f.Out, now)
	}
	// Another family of the same organization has its own pace (none looked at yet: the
	// day's average of nothing).
	if f := c.Forecast(FamilyContacts, 5000); f.PerHour != 0 || !f.Out.IsZero() {
		t.Errorf("an unused family: %+v", f)
	}
}

// A count lower than the last one looked at (the ledger's new day) starts the pace over;
// a count the ledger's file says is negative counts as none.
func TestForecastStartsOverWithTheDay(t *testing.T) {
	var l paceLog
	at := time.Date(2026, 11, 20, 23, 0, 0, 0, time.UTC)
	for i := range 30 {
		l.look(at.Add(time.Duration(i)*time.Minute), 3000+i*10)
	}
	if p, over := l.look(at.Add(30*time.Minute), 5); p != 0 || over != 0 {
		t.Errorf("after the count fell: %.1f an hour over %s, want none", p, over)
	}
	if len(l.samples) != 1 {
		t.Errorf("%d samples kept after the count fell, want 1", len(l.samples))
	}
	c, _ := newTestClient(t, "http://127.0.0.1:1", nil)
	c.counters.add(0, FamilyConversations, Tally{Answered: -1 << 62})
	if f := c.Forecast(FamilyConversations, 5000); f.Used != 0 || !f.Out.IsZero() {
		t.Errorf("a negative count: %+v", f)
	}
}
