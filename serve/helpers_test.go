package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/viewtest"
)

// requestLog is the sandbox's request log (viewtest.RequestLog), read the way these
// tests count it.
type requestLog struct{ viewtest.RequestLog }

// logged is one line of the request log.
type logged = viewtest.Logged

// lines reads the log.
func (l *requestLog) lines(testing.TB) []logged { return l.Lines() }

// count counts the logged requests that match.
func (l *requestLog) count(t testing.TB, match func(logged) bool) int {
	n := 0
	for _, r := range l.lines(t) {
		if match(r) {
			n++
		}
	}
	return n
}

// conversationsFamily matches the requests of the conversations family.
func conversationsFamily(r logged) bool { return strings.Contains(r.Path, "/api/um/v3/conversations/") }

// testAPI is an in-process sandbox over real HTTP with its request log.
type testAPI struct {
	run  *sandbox.Running
	info sandbox.Info
	log  *requestLog
	// proxy, when set, is what the clients talk to instead of the sandbox itself.
	proxy *viewtest.Proxy
}

// startAPI serves a small sandbox (an in-memory database) for one test.
func startAPI(t testing.TB) *testAPI {
	t.Helper()
	log := &requestLog{}
	r, err := sandbox.Start(context.Background(), sandbox.Options{Size: sandbox.SizeSmall, BurstRate: -1, RequestLog: log}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start the sandbox: %v", err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("close the sandbox: %v", err)
		}
	})
	return &testAPI{run: r, info: r.Server.Info(), log: log}
}

// client is an API client of the sandbox with the customer token; ttl > 0 turns the
// response memory on.
func (a *testAPI) client(t testing.TB, ttl time.Duration) *client.Client {
	t.Helper()
	base := a.run.URL
	if a.proxy != nil {
		base = a.proxy.URL
	}
	c, err := client.New(client.Config{BaseURL: base, Token: a.info.CustomerToken, CacheTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// operators lists the ids of the default organization's operators with their roles.
func (a *testAPI) operators(t testing.TB) map[string][]int64 {
	t.Helper()
	out := map[string][]int64{}
	for op, err := range a.client(t, 0).Operators(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		out[op.Role] = append(out[op.Role], op.ID)
	}
	return out
}

// waitFor polls cond until it holds, failing after d.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
