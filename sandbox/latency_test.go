package sandbox_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/waitfor"
	"github.com/parley-tui/parley/sandbox"
)

// latencyGet asks for the operators with the customer token of r; ctx bounds it, and wrote
// (when not nil) is closed once the request is sent.
func latencyGet(ctx context.Context, r *sandbox.Running, wrote chan struct{}) (int, error) {
	if wrote != nil {
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { close(wrote) }})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL+"/api/um/v3/operators/", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", r.Server.Info().CustomerToken)
	res, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, nil
}

// Options.Latency holds every answer back that long; a client that gives up meanwhile
// gets nothing, and closing the server does not wait out the latency of the requests in
// flight: they are answered at once.
func TestLatencyHoldsEveryAnswerBack(t *testing.T) {
	t.Parallel()
	const latency = 300 * time.Millisecond
	r := start(t, sandbox.Options{Latency: latency})
	for i := range 2 {
		began := time.Now()
		status, err := latencyGet(context.Background(), r, nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("request %d: status %d, %v", i+1, status, err)
		}
		if took := time.Since(began); took < latency {
			t.Fatalf("request %d was answered after %v, before the latency of %v", i+1, took, latency)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	wrote := make(chan struct{})
	go func() { <-wrote; cancel() }()
	if _, err := latencyGet(ctx, r, wrote); !errors.Is(err, context.Canceled) {
		t.Fatalf("a request given up on: %v, want the context's cancellation", err)
	}

	slow := start(t, sandbox.Options{Latency: time.Hour})
	wrote = make(chan struct{})
	type answer struct {
		status int
		err    error
	}
	answered := make(chan answer, 1)
	go func() {
		status, err := latencyGet(context.Background(), slow, wrote)
		answered <- answer{status, err}
	}()
	<-wrote
	waitfor.True(t, "the request held back", func() bool { return sandbox.Delayed(slow.Server) == 1 })
	began := time.Now()
	if err := slow.Close(); err != nil {
		t.Fatalf("close with a request held back: %v", err)
	}
	if a := <-answered; a.err != nil || a.status != http.StatusOK {
		t.Fatalf("the request in flight at the shutdown: status %d, %v", a.status, a.err)
	}
	t.Logf("closed in %v with a request held back for an hour", time.Since(began))
}
