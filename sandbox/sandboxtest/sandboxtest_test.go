package sandboxtest_test

import (
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

// Sandboxes of one data set (seed, size, clock) start from the one image the process
// seeded: the same tokens, none seeded again; another seed is another data set.
func TestStartSeedsEachDataSetOnce(t *testing.T) {
	at := time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)
	clock := func() time.Time { return at }
	opts := sandbox.Options{Size: sandbox.SizeSmall, Now: clock, BurstRate: -1}
	a, b := sandboxtest.Start(t, opts), sandboxtest.Start(t, opts)
	if !a.Server.Reused() || !b.Server.Reused() {
		t.Error("a sandbox was seeded, not started from the data set's image")
	}
	if a.Server.Info().CustomerToken != b.Server.Info().CustomerToken {
		t.Error("two sandboxes of one data set have different tokens: two seedings")
	}
	opts.Seed = 2
	if c := sandboxtest.Start(t, opts); c.Server.Info().CustomerToken == a.Server.Info().CustomerToken {
		t.Error("the data set of another seed is the first one's")
	}
}
