package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
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

// startAPI serves a small sandbox (an in-memory database, seeded once per test binary) for
// one test.
func startAPI(t testing.TB) *testAPI { return startAPIOn(t, nil) }

// startAPIOn is startAPI on clock now (nil: the machine's): its data, its Date header and
// its daily counts follow it.
func startAPIOn(t testing.TB, now func() time.Time) *testAPI {
	t.Helper()
	log := &requestLog{}
	r := sandboxtest.Start(t, sandbox.Options{Size: sandbox.SizeSmall, BurstRate: -1, RequestLog: log, Now: now})
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

// record is one record of the hub's log (its JSON form).
type record map[string]any

// records reads the hub's log: one JSON record a line.
func (th *testHub) records(t testing.TB) []record {
	t.Helper()
	var out []record
	for _, line := range strings.Split(strings.TrimSpace(th.log.String()), "\n") {
		if line == "" {
			continue
		}
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("a line of the log is not a JSON record: %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// has reports whether r has every attribute of kv (key, value, …), its value as text.
func (r record) has(kv ...string) bool {
	for i := 0; i+1 < len(kv); i += 2 {
		v, ok := r[kv[i]]
		if !ok || fmt.Sprint(v) != kv[i+1] {
			return false
		}
	}
	return true
}

// logged counts the records msg of the hub's log that have kv (key, value, …).
func (th *testHub) logged(t testing.TB, msg string, kv ...string) int {
	t.Helper()
	n := 0
	for _, r := range th.records(t) {
		if r["msg"] == msg && r.has(kv...) {
			n++
		}
	}
	return n
}
