package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for counters, the limiter and Retry-After dates.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock(t time.Time) *fakeClock { return &fakeClock{t: t} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// events collects what OnEvent reports.
type events struct {
	mu sync.Mutex
	ev []Event
}

func (e *events) add(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ev = append(e.ev, ev)
}

func (e *events) all() []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Event(nil), e.ev...)
}

// of returns the events of kind.
func (e *events) of(kind EventKind) []Event {
	var out []Event
	for _, ev := range e.all() {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// hangUp closes the connection without an answer.
func hangUp(t *testing.T, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("response writer cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	conn.Close()
}

func TestRetry429WithRetryAfterSeconds(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			w.Header().Set("Retry-After", "2")
			writeJSON(w, 429, `{"detail": "Request was throttled."}`)
			return
		}
		writeJSON(w, 200, `{"id": 4711}`)
	})
	var ev events
	c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OnEvent = ev.add })
	conv, err := c.GetConversation(bg(), 4711)
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	if conv.ID != 4711 || rec.count() != 2 {
		t.Errorf("conversation %d after %d requests, want 4711 after 2", conv.ID, rec.count())
	}
	if got := w.all(); len(got) != 1 || got[0] != 2*time.Second {
		t.Errorf("waits = %v, want [2s]", got)
	}
	evs := ev.all()
	if len(evs) != 2 || evs[1].Kind != EventAnswered || evs[1].Family != FamilyConversations {
		t.Fatalf("events = %+v, want one retry, then the answer that ends it", evs)
	}
	e := evs[0]
	if e.Kind != EventRetry || e.Family != FamilyConversations || e.Method != "GET" || e.Status != 429 || e.Attempt != 1 ||
		e.Delay != 2*time.Second || e.Problem != ProblemRateLimited {
		t.Errorf("event = %+v", e)
	}
	if e.Err == nil || !IsRateLimited(e.Err) {
		t.Errorf("event error = %v", e.Err)
	}
	checkNoToken(t, e.Err)
	// Both attempts reach the server; it counted the answered one, not the one it refused.
	if got, want := c.Tally(FamilyConversations), (Tally{Answered: 1, Refused: 1}); got != want {
		t.Errorf("tally = %+v, want %+v", got, want)
	}
	for _, r := range rec.requests() {
		assertHeaders(t, r, 0, 0, false)
	}
}

// TestRetryAfterHTTPDate: a Retry-After date is a time of the server's clock, read as a
// wait from the answer's Date header, also when the local clock is 17 days off it.
func TestRetryAfterHTTPDate(t *testing.T) {
	server := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, skew := range []time.Duration{0, 17 * 24 * time.Hour, -17 * 24 * time.Hour} {
		t.Run(fmt.Sprintf("local clock %+dh", skew/time.Hour), func(t *testing.T) {
			var retryAfter string
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Date", server.Format(http.TimeFormat))
				if n%2 == 0 {
					w.Header().Set("Retry-After", retryAfter)
					writeJSON(w, 503, `{"detail": "busy"}`)
					return
				}
				writeJSON(w, 200, `{"id": 1}`)
			})
			clock := newFakeClock(server.Add(skew))
			c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.Now = clock.Now })

			retryAfter = server.Add(7 * time.Second).Format(http.TimeFormat)
			if _, err := c.GetContact(bg(), 1); err != nil {
				t.Fatal(mustFail(t, err))
			}
			if got := w.all(); len(got) != 1 || got[0] != 7*time.Second {
				t.Errorf("waits = %v, want [7s]", got)
			}

			// A date in the past means no server hint: the jittered backoff applies.
			retryAfter = server.Add(-time.Hour).Format(http.TimeFormat)
			if _, err := c.GetContact(bg(), 1); err != nil {
				t.Fatal(mustFail(t, err))
			}
			if got := w.all(); len(got) != 2 || got[1] < 250*time.Millisecond || got[1] > 500*time.Millisecond {
				t.Errorf("waits = %v, want a second one in [250ms, 500ms]", got)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	huge := time.Duration(1<<63 - 1)
	for in, want := range map[string]time.Duration{
		"":                              0,
		"0":                             0,
		"-5":                            0,
		"2":                             2 * time.Second,
		" 120 ":                         2 * time.Minute,
		"1.5":                           1500 * time.Millisecond,
		"soon":                          0,
		"NaN":                           0,
		"Fri, 01 Mar 2024 12:00:30 GMT": 30 * time.Second,
		"Fri, 01 Mar 2024 11:00:00 GMT": 0,
		"1e30":                          huge,
		"99999999999999999999":          huge,
		"+Inf":                          huge,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestRetriedStatuses(t *testing.T) {
	for _, status := range []int{429, 502, 503, 504} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 0 {
					w.WriteHeader(status)
					return
				}
				writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
			})
			var ev events
			c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OnEvent = ev.add })
			if _, err := c.ListOperators(bg(), ListOptions{}); err != nil {
				t.Fatal(mustFail(t, err))
			}
			if rec.count() != 2 {
				t.Errorf("%d requests, want 2", rec.count())
			}
			got := w.all()
			if len(got) != 1 || got[0] < 250*time.Millisecond || got[0] > 500*time.Millisecond {
				t.Errorf("waits = %v, want one in [250ms, 500ms]", got)
			}
			want := ProblemServer
			if status == 429 {
				want = ProblemRateLimited
			}
			if evs := ev.of(EventRetry); len(evs) != 1 || evs[0].Status != status || evs[0].Delay != got[0] ||
				evs[0].Family != FamilyOperators || evs[0].Problem != want {
				t.Errorf("retry events = %+v", evs)
			}
			if evs := ev.of(EventAnswered); len(evs) != 1 || evs[0].Family != FamilyOperators || len(ev.all()) != 2 {
				t.Errorf("events = %+v, want the retry and the answer that ends it", ev.all())
			}
		})
	}
}

func TestNotRetriedStatuses(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 405, 409, 415, 500, 501} {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
			writeJSON(w, status, `{"detail": "no"}`)
		})
		c, w := newTestClient(t, rec.base(), nil)
		_, err := c.GetOperator(bg(), 3)
		mustFail(t, err)
		if statusOf(err) != status || rec.count() != 1 || len(w.all()) != 0 {
			t.Errorf("%d: status %d, %d requests, %d waits", status, statusOf(err), rec.count(), len(w.all()))
		}
	}
}

func TestBackoffGrowsAndCapIsRespected(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 503, `{"detail": "maintenance"}`)
	})
	var ev events
	c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 3; cfg.OnEvent = ev.add })
	_, err := c.GetNote(bg(), 501)
	mustFail(t, err)
	if rec.count() != 4 {
		t.Errorf("%d requests, want 4 (1 + MaxRetries 3)", rec.count())
	}
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("error %T %v is not an *Error", err, err)
	}
	if apiErr.Status != 503 || apiErr.Detail != "maintenance" || apiErr.Method != "GET" || apiErr.Path != "/prefix/api/um/v3/notes/501/" {
		t.Errorf("error = %+v", apiErr)
	}
	if !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "maintenance") {
		t.Errorf("error text %q lacks status or detail", err.Error())
	}
	got := w.all()
	if len(got) != 3 {
		t.Fatalf("waits = %v, want 3", got)
	}
	for i, d := range got {
		full := 500 * time.Millisecond << i
		if d < full/2 || d > full {
			t.Errorf("wait %d = %v, want in [%v, %v]", i+1, d, full/2, full)
		}
	}
	for i, e := range ev.of(EventRetry) {
		if e.Attempt != i+1 || e.Delay != got[i] || e.Problem != ProblemServer {
			t.Errorf("event %d = %+v", i, e)
		}
	}
	if f := ev.of(EventFailed); len(f) != 1 || f[0].Status != 503 || f[0].Problem != ProblemServer || f[0].Attempt != 3 ||
		len(ev.all()) != 4 {
		t.Errorf("events = %+v, want 3 retries and the failure", ev.all())
	}

	for _, mc := range []struct{ cfg, want int }{{-1, 1}, {0, 1 + DefaultMaxRetries}, {1, 2}} {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { w.WriteHeader(502) })
		c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = mc.cfg })
		_, err := c.ListNavigation(bg(), NavigationListOptions{})
		mustFail(t, err)
		if rec.count() != mc.want || statusOf(err) != 502 {
			t.Errorf("MaxRetries %d: %d requests (want %d), status %d", mc.cfg, rec.count(), mc.want, statusOf(err))
		}
		// No body: no server detail; the text falls back to the status text.
		var e *Error
		if !errors.As(err, &e) || e.Detail != "" || Detail(err) != err.Error() || !strings.HasSuffix(err.Error(), ": 502 Bad Gateway") {
			t.Errorf("MaxRetries %d: empty body gives detail %q, text %q", mc.cfg, Detail(err), err.Error())
		}
	}
}

func TestConnectionErrorsRetried(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			hangUp(t, w)
			return
		}
		writeJSON(w, 200, `{"operator_id": 3, "current_slots": 1, "total_slots": 4}`)
	})
	var ev events
	c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OnEvent = ev.add })
	s, err := c.OperatorSlots(bg(), 3)
	if err != nil {
		t.Fatal(mustFail(t, err))
	}
	if s.TotalSlots != Some(4) || rec.count() != 2 || len(w.all()) != 1 {
		t.Errorf("slots %+v after %d requests and %d waits", s, rec.count(), len(w.all()))
	}
	if evs := ev.all(); len(evs) != 2 || evs[0].Status != 0 || evs[0].Err == nil || evs[0].Kind != EventRetry ||
		evs[0].Problem != ProblemUnreachable || evs[1].Kind != EventAnswered {
		t.Errorf("events = %+v, want the retry and the answer that ends it", evs)
	}

	// A server that always hangs up: MaxRetries+1 attempts, then a transport error.
	rec = newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { hangUp(t, w) })
	c, w = newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 2 })
	_, err = c.GetContact(bg(), 88)
	mustFail(t, err)
	if rec.count() != 3 || len(w.all()) != 2 || statusOf(err) != 0 {
		t.Errorf("%d requests, %d waits, status %d; err %v", rec.count(), len(w.all()), statusOf(err), err)
	}

	// Nothing listening at all.
	c, w = newTestClient(t, "http://127.0.0.1:1/prefix", func(cfg *Config) { cfg.MaxRetries = 1 })
	_, err = c.GetContact(bg(), 88)
	mustFail(t, err)
	if len(w.all()) != 1 {
		t.Errorf("refused connection: %d waits, want 1", len(w.all()))
	}
}

// A host the resolver says does not exist is not asked for again: nothing was sent, and
// asking the resolver again a few seconds later gets the same answer. The error says so
// at once, and the status bar hears of it as unreachable.
func TestHostNotFoundIsNotRetried(t *testing.T) {
	const host = "parley-no-such-host.invalid"
	var dns *net.DNSError
	if _, err := net.DefaultResolver.LookupHost(bg(), host); !errors.As(err, &dns) || !dns.IsNotFound {
		t.Skipf("the resolver here does not answer not-found for %s: %v", host, err)
	}
	var ev events
	c, w := newTestClient(t, "http://"+host, func(cfg *Config) { cfg.OnEvent = ev.add })
	_, err := c.GetContact(bg(), 88)
	mustFail(t, err)
	if len(w.all()) != 0 {
		t.Errorf("waited %v to ask again for a host that does not exist", w.all())
	}
	if text, ok := NetworkProblem(err); !ok || !strings.Contains(text, "cannot find the host "+host) {
		t.Errorf("NetworkProblem = %q, %v", text, ok)
	}
	if evs := ev.of(EventFailed); len(evs) != 1 || evs[0].Problem != ProblemUnreachable || evs[0].Attempt != 0 {
		t.Errorf("failure events %+v, want one, unreachable, after no retry", evs)
	}
}

// TestRetriedDeleteFindsItGone: a DELETE whose first answer was lost (504, hang-up) and whose
// retry answers 404 was done by the first attempt: success. A 404 on the first attempt, or
// on a retried GET, stays an error.
func TestRetriedDeleteFindsItGone(t *testing.T) {
	for name, first := range map[string]func(t *testing.T, w http.ResponseWriter){
		"504":    func(t *testing.T, w http.ResponseWriter) { w.WriteHeader(504) },
		"hangup": hangUp,
	} {
		lostThen404 := func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 0 {
				first(t, w)
				return
			}
			writeJSON(w, 404, `{"detail": "Not found."}`)
		}
		rec := newRecorder(t, lostThen404)
		c, _ := newTestClient(t, rec.base(), nil)
		if err := c.DeleteNote(bg(), 501); err != nil {
			t.Errorf("%s, then 404: %v", name, err)
		}
		if rec.count() != 2 {
			t.Errorf("%s: %d requests, want 2", name, rec.count())
		}
		rec = newRecorder(t, lostThen404)
		c, _ = newTestClient(t, rec.base(), nil)
		if _, err := c.GetNote(bg(), 501); !IsNotFound(err) || rec.count() != 2 {
			t.Errorf("%s: GET, then 404: %v after %d requests, want not found after 2", name, err, rec.count())
		}
	}
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 404, `{"detail": "Not found."}`) })
	c, _ := newTestClient(t, rec.base(), nil)
	if err := c.DeleteConversation(bg(), 1); !IsNotFound(err) || rec.count() != 1 {
		t.Errorf("a first-attempt 404: %v after %d requests", err, rec.count())
	}
}

// TestWritesNeverRetried: POST and PATCH go out exactly once, whatever the failure.
func TestWritesNeverRetried(t *testing.T) {
	writes := map[string]func(c *Client) error{
		"CreateNote": func(c *Client) error {
			_, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 1, Body: "x"})
			return err
		},
		"UpdateConversation": func(c *Client) error {
			_, err := c.UpdateConversation(bg(), 1, ConversationUpdate{Status: ptr(StatusEnded)})
			return err
		},
		"SetConversationTopics": func(c *Client) error { _, err := c.SetConversationTopics(bg(), 1, []string{"a"}); return err },
		"UpdateContact":         func(c *Client) error { _, err := c.UpdateContact(bg(), 1, ContactUpdate{Name: ptr("x")}); return err },
		"UpdateOperator":        func(c *Client) error { _, err := c.UpdateOperator(bg(), 1, OperatorUpdate{Name: ptr("x")}); return err },
		"SetOperatorAway":       func(c *Client) error { _, err := c.SetOperatorAway(bg(), 1, true); return err },
	}
	failures := map[string]func(t *testing.T, w http.ResponseWriter){
		"503":    func(t *testing.T, w http.ResponseWriter) { writeJSON(w, 503, `{"detail": "busy"}`) },
		"502":    func(t *testing.T, w http.ResponseWriter) { w.WriteHeader(502) },
		"429":    func(t *testing.T, w http.ResponseWriter) { w.Header().Set("Retry-After", "1"); writeJSON(w, 429, `{}`) },
		"hangup": hangUp,
	}
	for name, write := range writes {
		for fname, fail := range failures {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { fail(t, w) })
			var ev events
			c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OnEvent = ev.add; cfg.MaxRetries = 5 })
			mustFail(t, write(c))
			// No retry; the failure is reported once, for the status bar.
			if rec.count() != 1 || len(w.all()) != 0 || len(ev.of(EventRetry)) != 0 || len(ev.of(EventFailed)) != 1 || len(ev.all()) != 1 {
				t.Errorf("%s on %s: %d requests, %d waits, events %+v; want 1, 0, one failure", name, fname, rec.count(), len(w.all()), ev.all())
			}
			if m := rec.last(t).Method; m != "POST" && m != "PATCH" {
				t.Errorf("%s sent %s", name, m)
			}
		}
	}
	// A list DELETE by filter or search deletes the next batch each time: never sent twice.
	bulk := map[string]func(c *Client) error{
		"BulkDeleteConversations by filter": func(c *Client) error {
			return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{Filter: ConversationFilter{Status: StatusEnded}})
		},
		"BulkDeleteContacts by search": func(c *Client) error {
			return c.BulkDeleteContacts(bg(), BulkDelete[ContactFilter]{Search: "spam", Limit: 100})
		},
	}
	for name, call := range bulk {
		for fname, fail := range failures {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { fail(t, w) })
			c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 5 })
			mustFail(t, call(c))
			if rec.count() != 1 || len(w.all()) != 0 {
				t.Errorf("%s on %s: %d requests, %d waits; want 1, 0", name, fname, rec.count(), len(w.all()))
			}
		}
	}
	// PUT and DELETE are idempotent and retried, a list DELETE by ids too.
	idempotent := map[string]func(c *Client) error{
		"UpsertContact": func(c *Client) error {
			_, _, err := c.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: ptr("a@b.c")})
			return err
		},
		"DeleteNote":     func(c *Client) error { return c.DeleteNote(bg(), 1) },
		"DeleteContacts": func(c *Client) error { return c.DeleteContacts(bg(), []int64{1}) },
		"BulkDeleteConversations by ids and filter": func(c *Client) error {
			return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{DeleteIDs: []int64{1, 2}, Filter: ConversationFilter{Status: StatusEnded}})
		},
	}
	for name, call := range idempotent {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 0 {
				w.WriteHeader(503)
				return
			}
			if r.Method == "DELETE" {
				w.WriteHeader(204)
				return
			}
			writeJSON(w, 200, `{"id": 1}`)
		})
		c, _ := newTestClient(t, rec.base(), nil)
		if err := call(c); err != nil {
			t.Errorf("%s: %v", name, mustFail(t, err))
		}
		if rec.count() != 2 {
			t.Errorf("%s: %d requests, want 2", name, rec.count())
		}
	}
}

func TestMaxRetryWaitCapsRetryAfter(t *testing.T) {
	// A Retry-After within the cap is waited out; one beyond it (a daily limit answers
	// with hours) gives up at once with the 429: asking earlier than the server allows
	// would only waste requests.
	for _, tc := range []struct {
		name       string
		cfgWait    time.Duration
		retryAfter string
		want       time.Duration // 0: no retry
	}{
		{"below the cap", 0, "59", 59 * time.Second},
		{"at the configured cap", 5 * time.Second, "5", 5 * time.Second},
		{"beyond the configured cap", 5 * time.Second, "100000", 0},
		{"beyond the default cap", 0, "3600", 0},
		{"absurd number", 0, "1e30", 0},
		{"absurd integer", 10 * time.Second, "99999999999999999999", 0},
		{"far date", 0, "Fri, 01 Mar 2999 12:00:30 GMT", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 0 {
					w.Header().Set("Retry-After", tc.retryAfter)
					writeJSON(w, 429, `{"detail": "daily limit"}`)
					return
				}
				writeJSON(w, 200, `{"id": 1}`)
			})
			var ev events
			c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetryWait = tc.cfgWait; cfg.OnEvent = ev.add })
			_, err := c.GetOperator(bg(), 1)
			if tc.want == 0 {
				if !IsRateLimited(err) || rec.count() != 1 || len(w.all()) != 0 || len(ev.of(EventRetry)) != 0 {
					t.Fatalf("err %v, %d requests, waits %v, events %v: want the 429 at once", err, rec.count(), w.all(), ev.all())
				}
				// Hours to wait: the daily limit, reported as such.
				if f := ev.of(EventFailed); len(f) != 1 || f[0].Problem != ProblemDailyLimit || f[0].Until.IsZero() {
					t.Errorf("events = %+v, want one daily-limit failure", ev.all())
				}
				return
			}
			if err != nil {
				t.Fatal(mustFail(t, err))
			}
			if got := w.all(); len(got) != 1 || got[0] != tc.want {
				t.Errorf("waits = %v, want [%v]", got, tc.want)
			}
			if evs := ev.of(EventRetry); len(evs) != 1 || evs[0].Delay != tc.want || evs[0].Problem != ProblemRateLimited {
				t.Errorf("events = %+v", evs)
			}
		})
	}
}

func TestCancelStopsWaiting(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, 429, `{"detail": "throttled"}`)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) {
		cfg.OnEvent = func(e Event) {
			if e.Kind == EventRetry {
				go cancel()
			}
		}
	})
	c.sleep = sleepCtx // the real wait, cut short by the cancellation
	start := time.Now()
	_, err := c.ListConversations(ctx, ConversationListOptions{})
	mustFail(t, err)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	if rec.count() != 1 {
		t.Errorf("%d requests after cancellation, want 1", rec.count())
	}

	// Already cancelled: nothing goes out.
	before := rec.count()
	_, err = c.ListConversations(ctx, ConversationListOptions{})
	if !errors.Is(mustFail(t, err), context.Canceled) || rec.count() != before {
		t.Errorf("cancelled context: err %v, %d new requests", err, rec.count()-before)
	}
}

func TestErrorDetails(t *testing.T) {
	html := "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>" + strings.Repeat("<p>upstream unavailable</p>", 20) + "</body></html>"
	cases := []struct {
		name       string
		status     int
		body       string
		wantDetail string
	}{
		{"json detail", 404, `{"detail": "Not found."}`, "Not found."},
		{"json detail object", 400, `{"detail": {"email": "invalid"}}`, `{"email":"invalid"}`},
		{"validation shape", 400, `{"email": ["Enter a valid email address."]}`, `{"email":["Enter a valid email address."]}`},
		{"html", 500, html, "the server answered 500 Internal Server Error with an HTML page (title: 502 Bad Gateway)"},
		{"short text", 500, "  upstream timeout\n", "upstream timeout"},
		{"empty", 500, "", ""},
		{"unicode cut", 500, strings.Repeat("é", 150), strings.Repeat("é", 100) + "…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			c, _ := newTestClient(t, rec.base(), nil)
			_, err := c.GetConversation(bg(), 1)
			mustFail(t, err)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not an *Error", err)
			}
			if got := e.Detail; got != tc.wantDetail {
				t.Errorf("Detail = %q, want %q", got, tc.wantDetail)
			}
			if statusOf(err) != tc.status {
				t.Errorf("status = %d", statusOf(err))
			}
			if tc.wantDetail != "" && !strings.Contains(err.Error(), tc.wantDetail) {
				t.Errorf("error text %q lacks the detail", err.Error())
			}
		})
	}
	if Detail(nil) != "" || Detail(errors.New("plain")) != "plain" {
		t.Error("Detail of nil or a plain error")
	}
}

func TestErrorClassification(t *testing.T) {
	preds := map[string]func(error) bool{
		"IsNotFound": IsNotFound, "IsPermission": IsPermission, "IsAuth": IsAuth,
		"IsRateLimited": IsRateLimited, "IsValidation": IsValidation,
	}
	want := map[int]string{404: "IsNotFound", 403: "IsPermission", 401: "IsAuth", 429: "IsRateLimited", 400: "IsValidation", 500: "", 415: ""}
	for status, which := range want {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
			writeJSON(w, status, `{"detail": "status `+fmt.Sprint(status)+`"}`)
		})
		c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = -1 })
		_, err := c.GetContact(bg(), 1)
		mustFail(t, err)
		for name, pred := range preds {
			if pred(err) != (name == which) {
				t.Errorf("%d: %s = %v", status, name, pred(err))
			}
		}
		if Detail(err) != fmt.Sprintf("status %d", status) {
			t.Errorf("%d: detail %q", status, Detail(err))
		}
		// Wrapping keeps the classification.
		if which != "" && !preds[which](fmt.Errorf("outer: %w", err)) {
			t.Errorf("%d: %s lost through wrapping", status, which)
		}
	}
	for name, pred := range preds {
		if pred(nil) || pred(errors.New("x")) {
			t.Errorf("%s true for a non-API error", name)
		}
	}
}

// TestTokenNeverInErrors: servers that echo the token back in every way it could come back.
func TestTokenNeverInErrors(t *testing.T) {
	bodies := []struct {
		status int
		ctype  string
		body   string
	}{
		{401, "application/json", `{"detail": "Invalid token: ` + testToken + `"}`},
		{403, "application/json", `{"detail": {"token": "` + testToken + `"}}`},
		{400, "application/json", `{"authorization": ["` + testToken + ` is malformed"]}`},
		{500, "text/html", "<html><body>Authorization: " + testToken + "</body></html>"},
		{502, "text/plain", testToken},
	}
	for _, b := range bodies {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("Content-Type", b.ctype)
			w.WriteHeader(b.status)
			_, _ = w.Write([]byte(b.body))
		})
		var ev events
		c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 1; cfg.OnEvent = ev.add })
		_, err := c.GetConversation(bg(), 1)
		mustFail(t, err)
		var apiErr *Error
		if errors.As(err, &apiErr) && strings.Contains(apiErr.Error(), testToken) {
			t.Errorf("%d: the unwrapped *Error carries the token: %q", b.status, apiErr.Error())
		}
		for _, e := range ev.all() {
			checkNoToken(t, e.Err)
		}
		// A write fails the same way.
		_, err = c.CreateNote(bg(), NewNote{ContactIdentityID: 1, Body: testToken})
		mustFail(t, err)
	}
	// Transport errors: nothing listening, a hang-up.
	c, _ := newTestClient(t, "http://127.0.0.1:1/prefix", func(cfg *Config) { cfg.MaxRetries = -1 })
	_, err := c.GetConversation(bg(), 1)
	mustFail(t, err)
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { hangUp(t, w) })
	c, _ = newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = -1 })
	_, err = c.GetConversation(bg(), 1)
	mustFail(t, err)
	// Undecodable success.
	rec = newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"id": "`+testToken+`"}`) })
	c, _ = newTestClient(t, rec.base(), nil)
	_, err = c.GetConversation(bg(), 1)
	mustFail(t, err)
}

func TestOversizedBodyRefused(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"id": 1, "body": "`+strings.Repeat("x", 2000)+`"}`)
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxBodyBytes = 1000 })
	_, err := c.GetNote(bg(), 1)
	mustFail(t, err)
	if !strings.Contains(err.Error(), "larger than 1000 bytes") || rec.count() != 1 {
		t.Errorf("err = %v after %d requests", err, rec.count())
	}
}

func TestRateLimitErrorSaysHowLongToWait(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "13357")
		writeJSON(w, 429, `{"detail": "Daily limit of 5000 requests reached."}`)
	})
	c, _ := newTestClient(t, rec.base(), nil)
	_, err := c.GetOperator(bg(), 1)
	if !IsRateLimited(err) || !strings.HasSuffix(err.Error(), "Daily limit of 5000 requests reached. (the API asks to wait 3h43m)") {
		t.Fatalf("err = %v", err)
	}
	for d, want := range map[time.Duration]string{
		45 * time.Second: "45s", 12*time.Minute + 5*time.Second: "12m05s", 3*time.Hour + 42*time.Minute: "3h42m", 100 * time.Hour: "4 days",
	} {
		if got := WaitText(d); got != want {
			t.Errorf("WaitText(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestSpreadWaitStaysWithinAQuarterOrASecond(t *testing.T) {
	seen := map[time.Duration]bool{}
	for range 200 {
		for _, d := range []time.Duration{time.Second, 40 * time.Second} {
			got := spreadWait(d)
			if got < d || got > d+min(d/4, time.Second) {
				t.Fatalf("spreadWait(%v) = %v", d, got)
			}
			seen[got] = true
		}
	}
	if len(seen) < 20 {
		t.Fatalf("spreadWait barely varies: %d distinct waits", len(seen))
	}
}

// TestPollIsAskedOnce: a poll (Poll) that meets a 503 or no answer is not retried and
// reports its failure as a poll's; the same request without Poll is retried as usual.
func TestPollIsAskedOnce(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 503, `{"detail": "maintenance"}`)
	})
	var ev events
	c, w := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OnEvent = ev.add })
	if _, err := c.ListConversations(Poll(bg()), ConversationListOptions{}); ProblemOf(err) != ProblemServer {
		t.Fatalf("err %v: want a server error", err)
	}
	if rec.count() != 1 || len(w.all()) != 0 || len(ev.of(EventRetry)) != 0 {
		t.Fatalf("a poll: %d requests, waits %v, events %+v; want one request", rec.count(), w.all(), ev.all())
	}
	if f := ev.of(EventFailed); len(f) != 1 || !f[0].Poll || f[0].Problem != ProblemServer {
		t.Fatalf("events %+v, want one failure of a poll", ev.all())
	}
	if _, err := c.ListConversations(bg(), ConversationListOptions{}); err == nil {
		t.Fatal("no error")
	}
	if rec.count() != 2+DefaultMaxRetries {
		t.Fatalf("the same request not polling: %d requests, want %d", rec.count()-1, 1+DefaultMaxRetries)
	}
	if f := ev.of(EventFailed); len(f) != 2 || f[1].Poll {
		t.Fatalf("events %+v, want the second failure not a poll's", ev.all())
	}

	var ev2 events
	down, _ := newTestClient(t, "http://127.0.0.1:1/prefix", func(cfg *Config) { cfg.OnEvent = ev2.add })
	if _, err := down.ListConversations(Poll(bg()), ConversationListOptions{}); ProblemOf(err) != ProblemUnreachable {
		t.Fatalf("err %v: want unreachable", err)
	}
	if len(ev2.of(EventRetry)) != 0 || len(ev2.of(EventFailed)) != 1 || !ev2.of(EventFailed)[0].Poll {
		t.Fatalf("an unreachable poll: events %+v, want one failure and no retry", ev2.all())
	}
}
