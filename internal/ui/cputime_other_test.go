//go:build !unix

package ui_test

import "time"

// cpuTime is not measured here (see cputime_unix_test.go).
func cpuTime() (time.Duration, bool) { return 0, false }
