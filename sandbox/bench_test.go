package sandbox_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
)

// largeDB is the large data set, seeded once per test binary into a temporary file.
var largeDB struct {
	once sync.Once
	dir  string
	path string
	err  error
	took time.Duration
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedServer.r != nil {
		_ = sharedServer.r.Close()
	}
	for _, dir := range []string{largeDB.dir, smallDB.dir} {
		if dir != "" {
			_ = os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// largePath is the file of the large data set, seeded on the first call (once per test
// binary; the file is removed by TestMain).
func largePath(tb testing.TB) string {
	tb.Helper()
	largeDB.once.Do(func() {
		largeDB.dir, largeDB.err = os.MkdirTemp("", "parley-sandbox-large-")
		if largeDB.err != nil {
			return
		}
		largeDB.path = filepath.Join(largeDB.dir, "large.db")
		start := time.Now()
		s, err := sandbox.Open(context.Background(), sandbox.Options{DBPath: largeDB.path, Size: sandbox.SizeLarge, Now: clock})
		largeDB.took = time.Since(start)
		if err != nil {
			largeDB.err = err
			return
		}
		largeDB.err = s.Close()
	})
	if largeDB.err != nil {
		tb.Fatalf("seed the large data set: %v", largeDB.err)
	}
	return largeDB.path
}

// largeOptions are the options of a server of the large data set, without limits.
func largeOptions(tb testing.TB) sandbox.Options {
	return sandbox.Options{DBPath: largePath(tb), Size: sandbox.SizeLarge, Now: clock, BurstRate: -1, DailyLimit: 1 << 40}
}

func largeServer(b *testing.B) *sandbox.Server {
	b.Helper()
	s, err := sandbox.Open(context.Background(), largeOptions(b))
	if err != nil {
		b.Fatal(err)
	}
	if !s.Reused() {
		b.Fatal("the large data set was seeded again")
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// searchQueries are typical keyword searches: names, cities, words of messages and notes,
// several keywords, prefixes.
var searchQueries = []string{
	"berlin", "müller", "order", "refund", "thanks delivery", "wat", "schmidt hamburg", "return label",
	"subscription", "tanaka", "anna", "paris lyon", "jacket", "vip", "checkout error", "gmail",
}

func BenchmarkSearchLarge(b *testing.B) {
	if testing.Short() {
		b.Skip("seeds the large data set")
	}
	s := largeServer(b)
	b.Logf("large data set seeded in %v", largeDB.took.Round(time.Millisecond))
	token := s.Info().CustomerToken
	for _, res := range []string{"contact_identities", "conversations"} {
		b.Run(res, func(b *testing.B) {
			reqs := make([]*http.Request, len(searchQueries))
			for i, sq := range searchQueries {
				reqs[i] = httptest.NewRequest(http.MethodGet, "/api/um/v3/"+res+"/?limit=100&search_query="+url.QueryEscape(sq), nil)
				reqs[i].Header.Set("Authorization", token)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, reqs[i%len(reqs)])
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body.String())
				}
			}
		})
	}
}
