package sandbox_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// sleepOn is a wait that moves clock on by the time waited.
func sleepOn(clock *viewtest.MovingClock) func(ctx context.Context, d time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		clock.Add(d)
		return nil
	}
}

// slowLink is a transport on which request i (from 0) takes toServer(i) to reach the server
// and a few milliseconds to come back, by the moving clock.
type slowLink struct {
	clock    *viewtest.MovingClock
	toServer func(i int) time.Duration
	mu       sync.Mutex
	n        int
}

func (l *slowLink) RoundTrip(r *http.Request) (*http.Response, error) {
	l.mu.Lock()
	i := l.n
	l.n++
	l.mu.Unlock()
	l.clock.Add(l.toServer(i))
	res, err := http.DefaultTransport.RoundTrip(r)
	l.clock.Add(5 * time.Millisecond)
	return res, err
}

// The analytics export of 2024-01-01…2026-11-20 (12 windows of at most 93 days for one
// metric) against a server that allows 10 requests per metric in any 60 s, counted from
// when it handled each one: the client's limiter counts from the answers, so the 11th
// request never reaches the server inside the 1st one's minute, however much faster its
// link is than the 1st one's.
func TestAnalyticsExportOverYearsGetsNo429(t *testing.T) {
	t.Parallel()
	clock := viewtest.NewMovingClock(fixedNow)
	r := start(t, sandbox.Options{Clock: clock.Now})
	link := &slowLink{clock: clock, toServer: func(i int) time.Duration {
		// The first request crawls, the others hurry.
		if i == 0 {
			return 800 * time.Millisecond
		}
		return 10 * time.Millisecond
	}}
	var mu sync.Mutex
	statuses := map[int]int{}
	c, err := client.New(client.Config{
		BaseURL:    r.URL,
		Token:      r.Server.Info().CustomerToken,
		HTTPClient: &http.Client{Transport: link},
		Now:        clock.Now,
		Sleep:      sleepOn(clock),
		OnRequest: func(ri client.RequestInfo) {
			mu.Lock()
			defer mu.Unlock()
			statuses[ri.Status]++
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	q := client.AnalyticsQuery{
		Metric: client.MetricConversationRating,
		From:   time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		To:     time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC),
	}
	if q.Requests() != 12 {
		t.Fatalf("the range takes %d requests, want 12", q.Requests())
	}
	began := clock.Now()
	if _, err := c.Analytics(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if statuses[http.StatusTooManyRequests] != 0 || statuses[http.StatusOK] != 12 {
		t.Fatalf("answers by status %v, want 12 × 200 and no 429", statuses)
	}
	// It waited for the server's minute and its margin, not much more.
	if took := clock.Now().Sub(began); took < time.Minute || took > time.Minute+client.AnalyticsMargin+3*time.Second {
		t.Errorf("the export took %v of the moving clock", took)
	}
}
