package serve

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tally writes an address's first event of a minute at once and the others as one
// record when the minute ends; past tallyHosts addresses, the others are summed up
// together; after stop every event is a record.
func TestTallySumsUpAMinute(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	var mu sync.Mutex
	var lines []string
	tl := newTally(clock.afterFunc, func(_ slog.Level, msg string, attrs ...slog.Attr) {
		mu.Lock()
		defer mu.Unlock()
		line := msg
		for _, a := range attrs {
			line += " " + a.String()
		}
		lines = append(lines, line)
	})
	written := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
	ev := func(kind, msg string) event { return event{kind: kind, msg: msg} }
	for i := range tallyHosts + 2 {
		host := fmt.Sprintf("10.0.%d.%d", i/256, i%256)
		for j := range 3 {
			tl.note(host, ev("refused (rate)", "first from "+host))
			if j == 2 {
				tl.note(host, ev("closed (idle)", "closed "+host))
			}
		}
	}
	if got := written(); len(got) != tallyHosts || got[0] != "first from 10.0.0.0" {
		t.Fatalf("%d records before the minute ended (first %q), want %d first records", len(got), got[0], tallyHosts)
	}
	clock.advance(time.Minute - time.Second)
	if n := len(written()); n != tallyHosts {
		t.Fatalf("%d records before the minute ended", n)
	}
	clock.advance(time.Second)
	got := written()[tallyHosts:]
	if len(got) != tallyHosts+1 {
		t.Fatalf("%d records at the end of the minute, want %d", len(got), tallyHosts+1)
	}
	if want := "connections summed up from=10.0.0.0 period=1m count=3 summary=2 refused (rate), 1 closed (idle)"; got[0] != want {
		t.Errorf("the first summary is %q, want %q", got[0], want)
	}
	if want := fmt.Sprintf("connections summed up from=more than %d other addresses period=1m count=8 summary=6 refused (rate), 2 closed (idle)",
		tallyHosts); got[len(got)-1] != want {
		t.Errorf("the last summary is %q, want %q", got[len(got)-1], want)
	}
	// A new minute: the first event is written again.
	tl.note("10.0.0.0", ev("refused (rate)", "again"))
	tl.note("10.0.0.0", ev("refused (rate)", "again"))
	tl.stop()
	tl.note("10.0.0.0", ev("refused (rate)", "after stop"))
	got = written()[2*tallyHosts+1:]
	if strings.Join(got, "|") != "again|connections summed up from=10.0.0.0 period=1m count=1 summary=1 refused (rate)|after stop" {
		t.Errorf("a new minute, then stop: %q", got)
	}
}
