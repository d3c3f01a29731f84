//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris)

package cli

import (
	"os"
	"time"
)

func queryDarkBackground(_, _ *os.File, _ time.Duration) (dark, ok bool) { return false, false }
