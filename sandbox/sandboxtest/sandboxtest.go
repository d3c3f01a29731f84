// Package sandboxtest starts sandboxes for tests: a test process seeds each data set it needs
// once, and starts every later sandbox of the same data set from a copy of it in memory
// (sandbox.Image), as fresh as a newly seeded one at the cost of a copy. Only tests import it.
package sandboxtest

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
)

// Start serves a sandbox with opts on a free port of 127.0.0.1 until the test ends. One in
// memory (opts.DBPath empty, no opts.Image) starts from the data set this process seeded
// earlier with the same seed, size, long thread and clock time (seeding it the first time):
// its tokens are then the first one's.
func Start(t testing.TB, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	if opts.DBPath == "" && opts.Image == nil {
		img, err := images.get(opts)
		if err != nil {
			t.Fatalf("seed a sandbox: %v", err)
		}
		opts.Image = img
	}
	return StartSeeded(t, opts)
}

// StartSeeded is Start with a database opened as opts say, seeded for the test alone when
// it is new: its own tokens (a test of seeding, or of what a new database gets).
func StartSeeded(t testing.TB, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	r, err := sandbox.Start(context.Background(), opts, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start a sandbox: %v", err)
	}
	t.Cleanup(func() {
		// A connection a client on the default transport dialled and never used would hold
		// the server's shutdown for 5 s; idle ones are closed at once anyway.
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		if err := r.Close(); err != nil {
			t.Errorf("close the sandbox: %v", err)
		}
	})
	return r
}

// images are the data sets seeded in this process. An image never changes once made, so
// sharing them between tests shares nothing a test can change.
var images = cache{m: map[dataSet]*seeded{}}

// most is how many data sets the process keeps: a clock that moves on between sandboxes
// (time.Now shifted) makes a new data set every time; past this many they are seeded for
// each sandbox and not kept.
const most = 8

type cache struct {
	mu sync.Mutex
	m  map[dataSet]*seeded
}

// dataSet is what decides the seeded data: the seed, the size, the long thread and the
// moment seeded (zero for the real clock, whose data set is seeded when first asked for:
// reusing it is reusing a database seeded moments ago, as demo mode reuses its file).
type dataSet struct {
	seed int64
	size sandbox.Size
	long int
	now  time.Time
}

type seeded struct {
	once sync.Once
	img  *sandbox.Image
	err  error
}

func (c *cache) get(opts sandbox.Options) (*sandbox.Image, error) {
	size, err := sandbox.ParseSize(string(opts.Size))
	if err != nil {
		return nil, err
	}
	k := dataSet{seed: opts.Seed, size: size, long: opts.LongThread}
	if k.seed == 0 {
		k.seed = 1
	}
	if opts.Now != nil {
		k.now = opts.Now()
	}
	c.mu.Lock()
	s, ok := c.m[k]
	if !ok {
		s = &seeded{}
		if len(c.m) < most {
			c.m[k] = s
		}
	}
	c.mu.Unlock()
	s.once.Do(func() { s.img, s.err = seed(k, opts.Now) })
	return s.img, s.err
}

// seed seeds the data set k in memory and takes its image.
func seed(k dataSet, now func() time.Time) (*sandbox.Image, error) {
	ctx := context.Background()
	if !k.now.IsZero() {
		now = func() time.Time { return k.now }
	}
	srv, err := sandbox.Open(ctx, sandbox.Options{Seed: k.seed, Size: k.size, LongThread: k.long, Now: now})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	return srv.Image(ctx)
}
