// Package waitfor is how a test waits for something that happens on another goroutine, in
// another process or behind a socket: it polls a condition until it holds and fails the
// test when it does not hold within Deadline. It holds the tests' only poll loop; nothing
// but tests (and the packages that help tests) imports it.
package waitfor

import (
	"fmt"
	"testing"
	"time"
)

// Deadline is how long True and Value poll before they fail the test: far more than
// anything takes on a quiet machine, so that a machine busy with other work (two CPU hogs
// beside the tests) does not fail a test that only ran slowly.
const Deadline = 30 * time.Second

// True polls cond until it holds, and fails the test (saying it waited for what) when it
// does not within Deadline.
func True(t testing.TB, what string, cond func() bool) {
	t.Helper()
	poll(t, what, func() (bool, string) { return cond(), "" })
}

// Value polls get until ok holds for what it returns, and returns that. When ok does not
// hold within Deadline it fails the test, showing the last value got.
func Value[S any](t testing.TB, what string, get func() S, ok func(S) bool) S {
	t.Helper()
	var s S
	poll(t, what, func() (bool, string) {
		s = get()
		if ok(s) {
			return true, ""
		}
		if text, isText := any(s).(string); isText {
			return false, "\n" + text // a screen, a log: as it is
		}
		return false, fmt.Sprintf(" %+v", s)
	})
	return s
}

// poll calls try until it reports true, pausing between calls (from a millisecond up to
// 20), and fails the test with the last thing try saw after Deadline.
func poll(t testing.TB, what string, try func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(Deadline)
	pause := time.Millisecond
	for {
		ok, seen := try()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			if seen != "" {
				seen = "; last seen:" + seen
			}
			t.Fatalf("waited %s for %s%s", Deadline, what, seen)
		}
		time.Sleep(pause)
		pause = min(2*pause, 20*time.Millisecond)
	}
}
