package serve

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tally writes an address's first event of a minute at once and the others as one line
// when the minute ends; past tallyHosts addresses, the others are summed up together; after
// stop every event is a line.
func TestTallySumsUpAMinute(t *testing.T) {
	clock := newManualClock()
	var mu sync.Mutex
	var lines []string
	tl := newTally(clock.afterFunc, func(l string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, l)
	})
	written := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
	for i := range tallyHosts + 2 {
		host := fmt.Sprintf("10.0.%d.%d", i/256, i%256)
		for j := range 3 {
			tl.note(host, "refused (rate)", "first from "+host)
			if j == 2 {
				tl.note(host, "closed (idle)", "closed "+host)
			}
		}
	}
	if got := written(); len(got) != tallyHosts || got[0] != "first from 10.0.0.0" {
		t.Fatalf("%d lines before the minute ended (first %q), want %d first lines", len(got), got[0], tallyHosts)
	}
	clock.advance(time.Minute - time.Second)
	if n := len(written()); n != tallyHosts {
		t.Fatalf("%d lines before the minute ended", n)
	}
	clock.advance(time.Second)
	got := written()[tallyHosts:]
	if len(got) != tallyHosts+1 {
		t.Fatalf("%d lines at the end of the minute, want %d", len(got), tallyHosts+1)
	}
	if want := "from 10.0.0.0 in the last minute, 3 more: 2 refused (rate), 1 closed (idle)"; got[0] != want {
		t.Errorf("the first summary is %q, want %q", got[0], want)
	}
	if want := fmt.Sprintf("from more than %d other addresses in the last minute, 8 connections: 6 refused (rate), 2 closed (idle)", tallyHosts); got[len(got)-1] != want {
		t.Errorf("the last summary is %q, want %q", got[len(got)-1], want)
	}
	// A new minute: the first event is written again.
	tl.note("10.0.0.0", "refused (rate)", "again")
	tl.note("10.0.0.0", "refused (rate)", "again")
	tl.stop()
	tl.note("10.0.0.0", "refused (rate)", "after stop")
	got = written()[2*tallyHosts+1:]
	if strings.Join(got, "|") != "again|from 10.0.0.0 in the last minute, 1 more: 1 refused (rate)|after stop" {
		t.Errorf("a new minute, then stop: %q", got)
	}
}
