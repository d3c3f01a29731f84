package layout

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestThousandsAndCount(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 7: "7", 999: "999", 1000: "1,000", -1000: "-1,000", 123456: "123,456", -999: "-999",
		1234567: "1,234,567", math.MaxInt64: "9,223,372,036,854,775,807", math.MinInt64: "-9,223,372,036,854,775,808",
	} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
		wantCount := want
		if n < 0 {
			wantCount = "—"
		}
		if got := Count(n); got != wantCount {
			t.Errorf("Count(%d) = %q, want %q", n, got, wantCount)
		}
	}
	if got := Count(int(math.MinInt64)); got != "—" {
		t.Errorf("Count(int min) = %q", got)
	}
}

// The relative times take any time a server sends: a time past either end of what a
// time.Duration spans saturates (time.Time.Sub), and the words stay whole.
func TestRelTimeAndAgoAtTheEnds(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	// The API's times are ISO 8601: years 0 to 9999.
	far := []time.Time{time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)}
	for _, at := range far {
		if s := RelTime(at, now); s == "" || strings.HasPrefix(s, "-") {
			t.Errorf("RelTime(%v) = %q", at, s)
		}
		if s := Ago(at, now); s == "" || strings.HasPrefix(s, "-") {
			t.Errorf("Ago(%v) = %q", at, s)
		}
	}
	if got := ShortDuration(time.Duration(math.MaxInt64)); got != "2562047h47m" {
		t.Errorf("ShortDuration(max) = %q", got)
	}
}

// numberSeeds are the extremes and the shapes a number from outside may take.
var numberSeeds = []int64{0, 1, -1, 9, 10, 999, 1000, -1000, 999999, 1000000, math.MaxInt32, math.MinInt32,
	math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 53, -(1 << 53)}

// Thousands writes every int64 so that it reads back as the same number: an optional sign,
// then groups of three digits after a first group of one to three, no leading zero.
func FuzzThousands(f *testing.F) {
	for _, n := range numberSeeds {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		s := Thousands(n)
		digits := strings.TrimPrefix(s, "-")
		if (n < 0) != (digits != s) {
			t.Fatalf("Thousands(%d) = %q: the sign is wrong", n, s)
		}
		groups := strings.Split(digits, ",")
		if len(groups[0]) < 1 || len(groups[0]) > 3 || len(groups[0]) > 1 && groups[0][0] == '0' {
			t.Fatalf("Thousands(%d) = %q: first group %q", n, s, groups[0])
		}
		for _, g := range groups {
			if strings.Trim(g, "0123456789") != "" || g != groups[0] && len(g) != 3 {
				t.Fatalf("Thousands(%d) = %q: group %q", n, s, g)
			}
		}
		back, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil || back != n {
			t.Fatalf("Thousands(%d) = %q reads back as %d, %v", n, s, back, err)
		}
		if got := Thousands(int(n)); got != s {
			t.Fatalf("Thousands(int(%d)) = %q, Thousands(int64) %q", n, got, s)
		}
	})
}

// Count shows every count of zero or more as Thousands does, and "—" for every other.
func FuzzCount(f *testing.F) {
	for _, n := range numberSeeds {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		s := Count(n)
		switch {
		case n < 0 && s != "—":
			t.Fatalf("Count(%d) = %q, want —", n, s)
		case n >= 0 && s != Thousands(n):
			t.Fatalf("Count(%d) = %q, Thousands %q", n, s, Thousands(n))
		}
	})
}
