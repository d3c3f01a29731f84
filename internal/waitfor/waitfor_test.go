package waitfor_test

import (
	"sync/atomic"
	"testing"

	"github.com/parley-tui/parley/internal/waitfor"
)

// True returns once the condition, made true on another goroutine, holds; Value returns
// the value that satisfied it.
func TestTrueAndValueReturnOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int64
	go func() {
		for range 5 {
			n.Add(1)
		}
	}()
	waitfor.True(t, "five", func() bool { return n.Load() == 5 })
	var calls int
	got := waitfor.Value(t, "the third look", func() int { calls++; return calls }, func(v int) bool { return v >= 3 })
	if got != 3 {
		t.Errorf("Value returned %d, want 3 (the first value that held)", got)
	}
}
