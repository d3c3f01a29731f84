package sandbox_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
)

// TestDateHeaderIsTheSandboxClock: the Date header of every answer (errors too) is the
// sandbox's clock, the one its updated_at stamps come from, not the machine's.
func TestDateHeaderIsTheSandboxClock(t *testing.T) {
	t.Parallel()
	var now atomic.Int64
	now.Store(fixedNow.Add(-30 * 24 * time.Hour).UnixNano())
	r := start(t, sandbox.Options{Now: func() time.Time { return time.Unix(0, now.Load()).UTC() }})
	a := newAPI(t, r)
	for _, path := range []string{"/api/um/v3/conversations/?limit=1", "/api/um/v3/conversations/0/"} {
		res := a.get(path)
		got, err := http.ParseTime(res.header.Get("Date"))
		if want := time.Unix(0, now.Load()).UTC().Truncate(time.Second); err != nil || !got.Equal(want) {
			t.Errorf("GET %s: Date %q (%v), want %s", path, res.header.Get("Date"), err, want.Format(http.TimeFormat))
		}
		now.Add(int64(time.Hour))
	}
}
