package client

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

// restartingStore is a Store whose counts came from a file at the largest int, and which
// restarted the day.
type restartingStore struct {
	memoryStore
	restart Restart
}

func (s *restartingStore) Restarted(day string) (Restart, bool) {
	return s.restart, day == "2024-03-01"
}

// Counts that came from a file at the largest int stay there when more are added or when
// organizations are added up: a wrapped sum would show a negative count.
func TestCountsSaturate(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	store := &restartingStore{restart: Restart{At: clock.Now(), Kept: "2024-03-01.json.damaged-20240301T120000Z", Why: "not JSON"}}
	c := newCounters(clock.Now, store)
	conv := CounterKey{1001, FamilyConversations}
	store.Add("2024-03-01", conv, Tally{Answered: math.MaxInt, Refused: math.MaxInt, Unreached: 1})
	store.Add("2024-03-01", conv, Tally{Answered: 1, Refused: 1})
	store.Add("2024-03-01", CounterKey{0, FamilyConversations}, Tally{Answered: math.MaxInt})
	c.Resolve(0, 1001)
	got := c.Tally(1001, FamilyConversations)
	if got != (Tally{Answered: math.MaxInt, Refused: math.MaxInt, Unreached: 1}) {
		t.Errorf("tally %+v", got)
	}
	if n := got.NotCounted(); n != math.MaxInt {
		t.Errorf("not counted %d", n)
	}
	if s := c.Snapshot(); len(s) != 1 || s[0].Answered != math.MaxInt {
		t.Errorf("snapshot %+v", s)
	}
	if r, ok := c.Restarted(); !ok || r != store.restart {
		t.Errorf("restart %+v, %v", r, ok)
	}
	if _, ok := newCounters(clock.Now, nil).Restarted(); ok {
		t.Error("a memory store restarted")
	}
}

// A list's count below zero is no count (no list has fewer than no items), and said so
// (BadCount); any other int is read as sent.
func TestCountsOfListsAtTheEnds(t *testing.T) {
	for body, want := range map[string]struct {
		count   int
		counted bool
	}{
		`{"count": -9223372036854775808, "results": []}`: {0, false},
		`{"count": -1, "results": []}`:                   {0, false},
		`{"count": 9223372036854775807, "results": []}`:  {math.MaxInt64, true},
		`{"count": 0, "results": []}`:                    {0, true},
	} {
		var p Page[Contact]
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if p.Count != want.count || p.Counted != want.counted || p.BadCount != !want.counted {
			t.Errorf("%s: count %d, counted %v, bad %v", body, p.Count, p.Counted, p.BadCount)
		}
		var cp CursorPage[Contact]
		if err := json.Unmarshal([]byte(body), &cp); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if (cp.Count != nil) != want.counted || cp.Count != nil && *cp.Count != want.count {
			t.Errorf("cursor %s: count %v", body, cp.Count)
		}
	}
}
