package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// requestTimeoutRange says MinRequestTimeout and MaxRequestTimeout as a user writes them.
const requestTimeoutRange = "1s to 5m"

// ParseRequestTimeout reads the time one request attempt may take before parley gives up
// on it: a Go duration such as "10s" or "2m", or a number of seconds. It must be between
// MinRequestTimeout and MaxRequestTimeout.
func ParseRequestTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > int64(MaxRequestTimeout/time.Second) {
			return 0, fmt.Errorf("%q is out of range (%s)", s, requestTimeoutRange)
		}
		d = time.Duration(n) * time.Second
	} else {
		d, err = time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration like 10s or 2m", s)
		}
	}
	if d < MinRequestTimeout || d > MaxRequestTimeout {
		return 0, fmt.Errorf("%q is out of range (%s)", s, requestTimeoutRange)
	}
	return d, nil
}
