package serve

import (
	"fmt"
	"os"
	"testing"

	"github.com/parley-tui/parley/internal/testrun"
)

// TestMain runs four of the hub's tests at once: each waits on SSH sessions, the sandbox
// and the clock it moves, hardly on the CPU.
func TestMain(m *testing.M) {
	if err := testrun.WaitBound(4); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
