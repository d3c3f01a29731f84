package wait_test

import (
	"sync/atomic"
	"testing"

	"github.com/parley-tui/parley/internal/wait"
)

// For returns once the condition, made true on another goroutine, holds; Value returns
// the value that satisfied it.
func TestForAndValueReturnOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int64
	go func() {
		for range 5 {
			n.Add(1)
		}
	}()
	wait.For(t, "five", func() bool { return n.Load() == 5 })
	var calls int
	got := wait.Value(t, "the third look", func() int { calls++; return calls }, func(v int) bool { return v >= 3 })
	if got != 3 {
		t.Errorf("Value returned %d, want 3 (the first value that held)", got)
	}
}
