package client

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"
)

// testClock is a local clock the test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// clockServer answers every conversations list with one conversation updated at stamp (none
// when stamp is zero) and the Date header date: "" leaves the header out.
func clockServer(t *testing.T, date string, stamp time.Time) *recorder {
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if date == "" {
			w.Header()["Date"] = nil // net/http adds one otherwise
		} else {
			w.Header().Set("Date", date)
		}
		res := []map[string]any{}
		if !stamp.IsZero() {
			res = append(res, map[string]any{"id": 7, "updated_at": stamp.Format(time.RFC3339Nano)})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"count": len(res), "next": nil, "previous": nil, "results": res})
	})
}

func TestServerClock(t *testing.T) {
	server := time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC) // the server's clock when it answers
	date := server.Format(http.TimeFormat)
	cases := []struct {
		name   string
		local  time.Duration // the local clock minus the server's
		date   string
		stamp  time.Time
		now    time.Time // ServerNow right after the answer
		reach  time.Time // ServerReached right after the answer
		source ClockSource
	}{
		{"Date, local 10m fast", 10 * time.Minute, date, server.Add(-time.Hour), server, server, ClockDate},
		{"Date, local 10m slow", -10 * time.Minute, date, time.Time{}, server, server, ClockDate},
		{"Date in the RFC 850 form", 10 * time.Minute, server.Format("Monday, 02-Jan-06 15:04:05 GMT"), time.Time{}, server, server, ClockDate},
		// The Date lags the clock that stamps the data: the stamp is what the filter compares.
		{"Date 5m behind the stamps", 0, server.Add(-5 * time.Minute).Format(http.TimeFormat), server.Add(-time.Second), server.Add(-time.Second), server.Add(-time.Second), ClockDate},
		// A stamp hours past the Date is bad data, not a clock: it must not move windows.
		{"a stamp 3h past the Date", 0, date, server.Add(3 * time.Hour), server, server, ClockDate},
		{"no Date, local 10m fast", 10 * time.Minute, "", server.Add(-30 * time.Second), server.Add(10 * time.Minute), server.Add(-30 * time.Second), ClockStamps},
		{"no Date, local 10m slow", -10 * time.Minute, "", server.Add(-30 * time.Second), server.Add(-30 * time.Second), server.Add(-30 * time.Second), ClockStamps},
		{"an unparsable Date", 10 * time.Minute, "yesterday-ish", server.Add(-30 * time.Second), server.Add(10 * time.Minute), server.Add(-30 * time.Second), ClockStamps},
		{"no Date, a stamp 3h ahead of the local clock", 0, "", server.Add(3 * time.Hour), server, server, ClockLocal},
		{"neither", 10 * time.Minute, "", time.Time{}, server.Add(10 * time.Minute), server.Add(10 * time.Minute), ClockLocal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := clockServer(t, tc.date, tc.stamp)
			local := &testClock{t: server.Add(tc.local)}
			c, _ := newTestClient(t, rec.srv.URL, func(cfg *Config) { cfg.Now = local.Now })
			if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := c.ServerNow(); !got.Equal(tc.now) {
				t.Errorf("ServerNow = %s, want %s", got, tc.now)
			}
			if got := c.ServerReached(); !got.Equal(tc.reach) {
				t.Errorf("ServerReached = %s, want %s", got, tc.reach)
			}
			off, src := c.ServerClock()
			if src != tc.source || !local.Now().Add(off).Equal(tc.now) {
				t.Errorf("ServerClock = %s from %s, want %s from %s", off, src, tc.now.Sub(local.Now()), tc.source)
			}
			// A moment of the local clock is on the server's clock only by a Date header.
			at, ok := c.ServerTimeOf(local.Now().Add(-time.Minute))
			if ok != (tc.source == ClockDate) || ok && !at.Equal(tc.now.Add(-time.Minute)) || !ok && !at.IsZero() {
				t.Errorf("ServerTimeOf a minute ago = %s, %t; want %s, %t", at, ok, tc.now.Add(-time.Minute), tc.source == ClockDate)
			}
			// Both move on with the local clock, and a sibling client shares what was learnt.
			local.Add(90 * time.Second)
			sib := c.WithContext(5, 6)
			if got := sib.ServerNow(); !got.Equal(tc.now.Add(90 * time.Second)) {
				t.Errorf("90s later, ServerNow = %s, want %s", got, tc.now.Add(90*time.Second))
			}
			if got := sib.ServerReached(); !got.Equal(tc.reach.Add(90 * time.Second)) {
				t.Errorf("90s later, ServerReached = %s, want %s", got, tc.reach.Add(90*time.Second))
			}
		})
	}
}

// TestServerClockIgnoresErrorsAndCache: only a successful answer teaches the clock (an error
// page may come from a proxy with a clock of its own), and an answer from the response cache
// does not repeat the Date of the answer it keeps.
func TestServerClockIgnoresErrorsAndCache(t *testing.T) {
	server := time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)
	local := &testClock{t: server.Add(10 * time.Minute)}
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Date", server.Format(http.TimeFormat))
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("status") == "bad" {
			w.Header().Set("Date", server.Add(-time.Hour).Format(http.TimeFormat))
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"detail":"no"}`))
			return
		}
		_, _ = w.Write([]byte(`{"count":0,"next":null,"previous":null,"results":[]}`))
	})
	c, _ := newTestClient(t, rec.srv.URL, func(cfg *Config) { cfg.Now = local.Now; cfg.CacheTTL = time.Hour })
	if _, err := c.ListConversations(bg(), ConversationListOptions{Filter: ConversationFilter{Status: "bad"}}); err == nil {
		t.Fatal("the 400 was not an error")
	}
	if off, src := c.ServerClock(); src != ClockLocal || off != 0 {
		t.Fatalf("an error answer taught the clock: %s from %s", off, src)
	}
	if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := c.ServerNow(); !got.Equal(server) {
		t.Fatalf("ServerNow = %s, want %s", got, server)
	}
	local.Add(time.Minute)
	if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil { // cached
		t.Fatal(err)
	}
	if n := rec.count(); n != 2 {
		t.Fatalf("%d requests, want 2 (the third answer from the cache)", n)
	}
	if got := c.ServerNow(); !got.Equal(server.Add(time.Minute)) {
		t.Fatalf("after a cached answer ServerNow = %s, want %s", got, server.Add(time.Minute))
	}
}
