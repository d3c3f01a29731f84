package serve

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Timer is a timer the hub can stop before it fires; *time.Timer is one.
type Timer interface{ Stop() bool }

// afterFunc is time.AfterFunc as Options.AfterFunc has it.
func afterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// tallyHosts is how many addresses a minute's tally names; the events of more addresses
// are summed up together.
const tallyHosts = 1000

// tally keeps the connection log short when connections are refused or closed in numbers:
// the first event of an address in a minute is written at once, in full; the others of
// that minute are counted and written as one line per address when the minute ends. So
// one address writes at most two lines a minute, however many connections it opens.
type tally struct {
	after func(time.Duration, func()) Timer
	write func(line string)

	mu     sync.Mutex
	timer  Timer
	hosts  map[string]map[string]int // address → what happened → how often, beyond its first line
	others map[string]int            // the same for the addresses past tallyHosts
	gone   bool                      // stopped: everything is written at once
}

func newTally(after func(time.Duration, func()) Timer, write func(string)) *tally {
	return &tally{after: after, write: write, hosts: map[string]map[string]int{}, others: map[string]int{}}
}

// note records that what happened to a connection from host; line is its log line, written
// when it is host's first event of the minute.
func (t *tally) note(host, what, line string) {
	t.mu.Lock()
	first := false
	switch counts, seen := t.hosts[host]; {
	case t.gone:
		first = true
	case seen:
		counts[what]++
	case len(t.hosts) < tallyHosts:
		t.hosts[host] = map[string]int{}
		first = true
	default:
		t.others[what]++
	}
	if !t.gone && t.timer == nil {
		t.timer = t.after(time.Minute, t.flush)
	}
	t.mu.Unlock()
	if first {
		t.write(line)
	}
}

// flush writes the minute's counts and starts a new minute.
func (t *tally) flush() {
	t.mu.Lock()
	hosts, others := t.hosts, t.others
	t.hosts, t.others, t.timer = map[string]map[string]int{}, map[string]int{}, nil
	t.mu.Unlock()
	names := make([]string, 0, len(hosts))
	for h, counts := range hosts {
		if len(counts) > 0 {
			names = append(names, h)
		}
	}
	slices.Sort(names)
	for _, h := range names {
		t.write(fmt.Sprintf("from %s in the last minute, %s", h, summary(hosts[h], "more")))
	}
	if len(others) > 0 {
		t.write(fmt.Sprintf("from more than %d other addresses in the last minute, %s", tallyHosts, summary(others, "connections")))
	}
}

// stop writes what is counted and ends the tally: later events are written one by one.
func (t *tally) stop() {
	t.mu.Lock()
	t.gone = true
	if t.timer != nil {
		t.timer.Stop()
	}
	t.mu.Unlock()
	t.flush()
}

// summary is counts as "27 more: 25 refused (more than 30 a minute), 2 closed (no session
// within 30s)", the most frequent first.
func summary(counts map[string]int, noun string) string {
	type kind struct {
		what string
		n    int
	}
	kinds := make([]kind, 0, len(counts))
	total := 0
	for what, n := range counts {
		kinds = append(kinds, kind{what, n})
		total += n
	}
	slices.SortFunc(kinds, func(a, b kind) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return strings.Compare(a.what, b.what)
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", k.n, k.what)
	}
	return fmt.Sprintf("%d %s: %s", total, noun, strings.Join(parts, ", "))
}
