package serve

import (
	"cmp"
	"fmt"
	"log/slog"
	"maps"
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

// event is what happened to a connection, as the log tells it: one record (its message
// and attributes), and the kind the minute's summary counts it under ("refused (no key of
// the users file)").
type event struct {
	kind  string
	msg   string
	attrs []slog.Attr
}

// tally keeps the connection log short when connections are refused or closed in numbers:
// the first event of an address in a minute is a record at once, in full; the others of
// that minute are counted and written as one record per address when the minute ends. So
// one address writes at most two records a minute, however many connections it opens.
type tally struct {
	after func(time.Duration, func()) Timer
	log   func(level slog.Level, msg string, attrs ...slog.Attr)

	mu     sync.Mutex
	timer  Timer
	hosts  map[string]map[string]int // address → what happened → how often, beyond its first record
	others map[string]int            // the same for the addresses past tallyHosts
	gone   bool                      // stopped: every event is a record at once
}

func newTally(after func(time.Duration, func()) Timer, log func(slog.Level, string, ...slog.Attr)) *tally {
	return &tally{after: after, log: log, hosts: map[string]map[string]int{}, others: map[string]int{}}
}

// note records e, which happened to a connection from host; its record is written when it
// is host's first event of the minute.
func (t *tally) note(host string, e event) {
	t.mu.Lock()
	first := false
	switch counts, seen := t.hosts[host]; {
	case t.gone:
		first = true
	case seen:
		counts[e.kind]++
	case len(t.hosts) < tallyHosts:
		t.hosts[host] = map[string]int{}
		first = true
	default:
		t.others[e.kind]++
	}
	if !t.gone && t.timer == nil {
		t.timer = t.after(time.Minute, t.flush)
	}
	t.mu.Unlock()
	if first {
		t.log(slog.LevelWarn, e.msg, e.attrs...)
	}
}

// flush writes the minute's counts and starts a new minute: per address, a record
// "connections summed up" with the address (from), how many events it had beyond its
// first (count) and what they were (summary).
func (t *tally) flush() {
	t.mu.Lock()
	hosts, others := t.hosts, t.others
	t.hosts, t.others, t.timer = map[string]map[string]int{}, map[string]int{}, nil
	t.mu.Unlock()
	for _, h := range slices.Sorted(maps.Keys(hosts)) {
		if len(hosts[h]) == 0 {
			continue
		}
		n, text := summary(hosts[h])
		t.log(slog.LevelWarn, "connections summed up", slog.String("from", h), slog.String("period", "1m"),
			slog.Int("count", n), slog.String("summary", text))
	}
	if len(others) > 0 {
		n, text := summary(others)
		t.log(slog.LevelWarn, "connections summed up", slog.String("from", fmt.Sprintf("more than %d other addresses", tallyHosts)),
			slog.String("period", "1m"), slog.Int("count", n), slog.String("summary", text))
	}
}

// stop writes what is counted and ends the tally: later events are records one by one.
func (t *tally) stop() {
	t.mu.Lock()
	t.gone = true
	if t.timer != nil {
		t.timer.Stop()
	}
	t.mu.Unlock()
	t.flush()
}

// summary is counts as their total and "25 refused (more than 30 a minute), 2 closed (no
// session within 30s)", the most frequent first.
func summary(counts map[string]int) (total int, text string) {
	type kind struct {
		what string
		n    int
	}
	kinds := make([]kind, 0, len(counts))
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
	return total, strings.Join(parts, ", ")
}
