//go:build unix

package ui_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system, all its threads): on a
// busy machine a benchmark's time a key, which is wall time, counts the time other
// processes had the CPU too; this does not.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
