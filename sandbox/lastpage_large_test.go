//go:build large

package sandbox_test

import (
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

// TestLastPageNextNullEverySizeAndVariant on the large data set: past the offset cap, the
// last page an offset list returns holds its 10,000th result and has next null. The data
// set is seeded once per test binary (largePath).
func TestLastPageNextNullLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds the large data set")
	}
	t.Parallel()
	lastPageNextNull(t, sandbox.SizeLarge, largePath(t))
}
