package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseShiftEnd reads when the working day ends, a time of day "HH:MM" on the clock of the
// machine parley runs on ("17:00", "17:30"; "24:00" is midnight), as the time since
// midnight. The day's forecast stretches polling so that the request budget lasts until
// then. "00:00" is refused: a shift that ends at midnight is "24:00".
func ParseShiftEnd(s string) (time.Duration, error) {
	text := strings.TrimSpace(s)
	hh, mm, ok := strings.Cut(text, ":")
	h, herr := strconv.Atoi(hh)
	m, merr := strconv.Atoi(mm)
	if !ok || herr != nil || merr != nil || len(hh) < 1 || len(hh) > 2 || len(mm) != 2 || h < 0 || m < 0 || m > 59 {
		return 0, fmt.Errorf("%q is not a time of day like 17:00", s)
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute
	if d <= 0 || d > 24*time.Hour {
		return 0, fmt.Errorf("%q is out of range (00:01 to 24:00)", s)
	}
	return d, nil
}

// Limits of the hub's memory (cache_size).
const (
	MinCacheSize = 1 << 20
	MaxCacheSize = 4 << 30
)

// ParseCacheSize reads a size of memory: a whole number with KiB, MiB or GiB ("64MiB",
// "512KiB", "1GiB"), MinCacheSize to MaxCacheSize.
func ParseCacheSize(s string) (int64, error) {
	text := strings.TrimSpace(s)
	units := []struct {
		suffix string
		shift  uint
	}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}}
	for _, u := range units {
		num, ok := strings.CutSuffix(text, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
		if err != nil || n < 0 {
			break
		}
		if n > MaxCacheSize>>u.shift || n<<u.shift < MinCacheSize {
			return 0, fmt.Errorf("%q is out of range (1MiB to 4GiB)", s)
		}
		return n << u.shift, nil
	}
	return 0, fmt.Errorf("%q is not a size like 64MiB (KiB, MiB or GiB)", s)
}
