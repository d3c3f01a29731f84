package serve

import (
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/waitfor"
)

// countingTerminal is a session whose output is counted, not kept (and searched only in its
// last bytes): many of them at once cost the test little memory.
type countingTerminal struct {
	s     *gossh.Session
	in    io.WriteCloser
	n     atomic.Int64
	mu    sync.Mutex
	tail  []byte
	ready chan struct{}
	once  sync.Once
}

func (c *countingTerminal) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	c.mu.Lock()
	c.tail = append(c.tail, p...)
	if len(c.tail) > 8192 {
		c.tail = c.tail[len(c.tail)-8192:]
	}
	if strings.Contains(string(c.tail), "conversations") {
		c.once.Do(func() { close(c.ready) })
	}
	c.mu.Unlock()
	return len(p), nil
}

// openCounting opens a session of 120×40 on c whose output is counted.
func openCounting(tb testing.TB, c *gossh.Client) *countingTerminal {
	tb.Helper()
	s, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		tb.Fatal(err)
	}
	term := &countingTerminal{s: s, ready: make(chan struct{})}
	s.Stdout, s.Stderr = term, term
	if term.in, err = s.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		tb.Fatal(err)
	}
	select {
	case <-term.ready:
	case <-time.After(60 * time.Second):
		tb.Fatal("a session did not show its list")
	}
	return term
}

// heap is the live heap after a collection.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkHubSessions measures, with 2 and 20 sessions connected to one hub, the memory one
// idle session costs (the hub's side and this test's SSH client side together, at
// 120×40 on the conversations screen) and the time from a key sent on one session's
// connection to the first byte of its answer.
//
//	go test -run '^$' -bench HubSessions -benchtime 100x ./internal/serve/
func BenchmarkHubSessions(b *testing.B) {
	for _, n := range []int{2, 20} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchSessions(b, n) })
	}
}

func benchSessions(b *testing.B, sessions int) {
	th := startHub(b, nil, []*member{{name: "Vic", role: "viewer"}}, func(o *Options) { o.MaxSessions = sessions + 1 })
	c := th.dial(b, "Vic")
	warm := openCounting(b, c) // the first session loads the shared data
	settle(b, th)
	before := heap()
	terms := []*countingTerminal{warm}
	for len(terms) < sessions {
		terms = append(terms, openCounting(b, c))
	}
	settle(b, th)
	perSession := float64(heap()-before) / float64(sessions-1)

	term := terms[sessions/2]
	keys := []string{"j", "k"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := term.n.Load()
		start := time.Now()
		if _, err := io.WriteString(term.in, keys[i%2]); err != nil {
			b.Fatal(err)
		}
		for term.n.Load() == n {
			if time.Since(start) > 10*time.Second {
				b.Fatal("no answer to a key within 10 s")
			}
			runtime.Gosched()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/key")
	b.ReportMetric(perSession/1024, "KiB/idle-session")
	b.ReportMetric(0, "ns/op")
}

// settle waits until the sessions have made their start-up requests: the sandbox's log
// has not grown for half a second (a measurement's precondition, not a test outcome).
func settle(tb testing.TB, th *testHub) {
	tb.Helper()
	last, since := -1, time.Now()
	waitfor.True(tb, "the sandbox's log to stop growing", func() bool {
		if n := len(th.api.log.lines(tb)); n != last {
			last, since = n, time.Now()
		}
		return time.Since(since) >= 500*time.Millisecond
	})
}
