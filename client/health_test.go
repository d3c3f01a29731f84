package client

import (
	"net/http"
	"testing"
	"time"
)

// TestDailyLimitToldFromBurstThrottling: a 429 is the daily limit when it asks to wait
// longer than a few minutes, or says "daily" without a Retry-After; then it is not sent
// again, and the error says until when, by the local clock: the server's next 00:00 UTC is
// read from the answer's Date header, also when the local clock is days off it. Burst
// throttling and the analytics limit stay rate limits, retried.
func TestDailyLimitToldFromBurstThrottling(t *testing.T) {
	now := time.Date(2026, 11, 20, 21, 17, 0, 0, time.UTC) // the server's clock
	toMidnight := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC).Sub(now)
	ahead, behind := 17*24*time.Hour+3*time.Hour, -17*24*time.Hour
	for _, tc := range []struct {
		name       string
		local      time.Duration // the local clock minus the server's
		retryAfter string
		detail     string
		daily      bool
		until      time.Duration // from the local clock's now (0: none)
		requests   int
	}{
		{"the sandbox's daily limit", 0, "10380", "Daily request limit of 60 reached for conversations; it resets at 00:00 UTC.", true, 10380 * time.Second, 1},
		{"hours without a word about the day", 0, "3600", "Too many requests.", true, time.Hour, 1},
		{"daily, no Retry-After", 0, "", "Daily limit of 5000 requests reached.", true, toMidnight, 1},
		{"per day, no Retry-After", 0, "", "limit of 5000 requests per day exceeded", true, toMidnight, 1},
		{"daily, no Retry-After, local clock 17 days 3 hours ahead", ahead, "", "Daily limit of 5000 requests reached.", true, toMidnight, 1},
		{"daily, no Retry-After, local clock 17 days behind", behind, "", "Daily limit of 5000 requests reached.", true, toMidnight, 1},
		{"daily until a date, local clock 17 days behind", behind, now.Add(time.Hour).Format(http.TimeFormat), "Daily limit of 5000 requests reached.", true, time.Hour, 1},
		{"burst throttling", 0, "2", "Request was throttled. Expected available in a few seconds.", false, 0, 2},
		{"burst without Retry-After", 0, "", "Request was throttled.", false, 0, 2},
		{"the analytics limit", 0, "41", "Analytics request limit of 10 per minute reached for this metric.", false, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			local := now.Add(tc.local)
			var until time.Time
			if tc.daily {
				until = local.Add(tc.until)
			}
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Date", now.Format(http.TimeFormat))
				if n == 0 {
					if tc.retryAfter != "" {
						w.Header().Set("Retry-After", tc.retryAfter)
					}
					writeJSON(w, 429, `{"detail": "`+tc.detail+`"}`)
					return
				}
				writeJSON(w, 200, `{"id": 7}`)
			})
			var ev events
			c, _ := newTestClient(t, rec.base(), func(cfg *Config) {
				cfg.Now = func() time.Time { return local }
				cfg.OnEvent = ev.add
			})
			_, err := c.GetConversation(bg(), 7)
			if rec.count() != tc.requests {
				t.Errorf("%d requests, want %d", rec.count(), tc.requests)
			}
			got, daily := DailyLimit(err)
			if daily != tc.daily || !got.Equal(until) {
				t.Errorf("DailyLimit = %v, %v; want %v, %v (err %v)", got, daily, until, tc.daily, err)
			}
			if !tc.daily {
				if err != nil {
					t.Fatalf("a rate limit retried: %v", err)
				}
				if r := ev.of(EventRetry); len(r) != 1 || r[0].Problem != ProblemRateLimited {
					t.Errorf("events %+v, want one rate-limit retry", ev.all())
				}
				return
			}
			if ProblemOf(err) != ProblemDailyLimit {
				t.Errorf("ProblemOf = %v", ProblemOf(err))
			}
			f := ev.of(EventFailed)
			if len(f) != 1 || f[0].Problem != ProblemDailyLimit || f[0].Family != FamilyConversations || !f[0].Until.Equal(until) {
				t.Errorf("events %+v, want one daily-limit failure of conversations until %v", ev.all(), until)
			}
		})
	}
}

// TestTroubleReportedUntilTheNextAnswer: a request that fails for good with a server error
// or without an answer is reported (EventFailed, with its problem); the next answer of
// the API is reported once (EventAnswered) and the ones after it are not. Answers of the
// API that are errors (404) are answers, not troubles.
func TestTroubleReportedUntilTheNextAnswer(t *testing.T) {
	fail := true
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch {
		case fail:
			writeJSON(w, 503, `{"detail": "maintenance"}`)
		case r.URL.Path == "/prefix/api/um/v3/notes/404/":
			writeJSON(w, 404, `{"detail": "Not found."}`)
		default:
			writeJSON(w, 200, `{"id": 1}`)
		}
	})
	var ev events
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 1; cfg.OnEvent = ev.add })
	if _, err := c.GetNote(bg(), 1); ProblemOf(err) != ProblemServer {
		t.Fatalf("err %v: problem %v, want a server error", err, ProblemOf(err))
	}
	if f := ev.of(EventFailed); len(f) != 1 || f[0].Problem != ProblemServer || f[0].Status != 503 || f[0].Family != FamilyNotes {
		t.Fatalf("events %+v, want one server-error failure", ev.all())
	}
	fail = false
	if _, err := c.GetNote(bg(), 404); !IsNotFound(err) {
		t.Fatal(err)
	}
	if _, err := c.GetNote(bg(), 1); err != nil {
		t.Fatal(err)
	}
	a := ev.of(EventAnswered)
	if len(a) != 1 || a[0].Status != 404 || a[0].Family != FamilyNotes {
		t.Fatalf("events %+v, want one answer (the 404) ending the trouble", ev.all())
	}
	if len(ev.of(EventFailed)) != 1 {
		t.Errorf("a 404 was reported as a trouble: %+v", ev.all())
	}

	// Nothing listening: unreachable, on another client sharing nothing.
	var ev2 events
	down, _ := newTestClient(t, "http://127.0.0.1:1/prefix", func(cfg *Config) { cfg.MaxRetries = -1; cfg.OnEvent = ev2.add })
	_, err := down.ListConversations(bg(), ConversationListOptions{})
	if ProblemOf(err) != ProblemUnreachable {
		t.Fatalf("err %v: problem %v, want unreachable", err, ProblemOf(err))
	}
	if f := ev2.of(EventFailed); len(f) != 1 || f[0].Problem != ProblemUnreachable || f[0].Status != 0 {
		t.Fatalf("events %+v, want one unreachable failure", ev2.all())
	}
}

// TestWithContextSharesTroubles: a sibling client made by WithContext ends the trouble
// its parent reported.
func TestWithContextSharesTroubles(t *testing.T) {
	fail := true
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if fail {
			w.WriteHeader(502)
			return
		}
		writeJSON(w, 200, `{"id": 1}`)
	})
	var ev events
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = -1; cfg.OnEvent = ev.add })
	_, _ = c.GetOperator(bg(), 1)
	fail = false
	if _, err := c.WithContext(5, 6).GetOperator(bg(), 1); err != nil {
		t.Fatal(err)
	}
	if len(ev.of(EventFailed)) != 1 || len(ev.of(EventAnswered)) != 1 {
		t.Fatalf("events %+v", ev.all())
	}
}
