package sandbox_test

import (
	"context"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

// A sandbox started from an image serves the image's data set as it is (no seeding, the
// same tokens), and what is written to one sandbox is in neither the image nor another
// sandbox started from it.
func TestSandboxFromAnImage(t *testing.T) {
	ctx := context.Background()
	seeded := start(t, sandbox.Options{})
	img, err := seeded.Server.Image(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, b := start(t, sandbox.Options{Image: img}), start(t, sandbox.Options{Image: img})
	for _, r := range []*sandbox.Running{a, b} {
		if !r.Server.Reused() {
			t.Error("a sandbox from an image of its data set was seeded again")
		}
		if r.Server.Info().CustomerToken != seeded.Server.Info().CustomerToken {
			t.Error("a sandbox from an image has other tokens than the image's")
		}
	}
	const first = "/api/um/v3/conversations/?limit=1&ordering=id"
	list := func(r *sandbox.Running) string { // the answer, with the sandbox's own address out of its links
		return strings.ReplaceAll(string(newAPI(t, r).get(first).body), r.URL, "")
	}
	before := list(a)
	if got := list(b); got != before {
		t.Fatalf("two sandboxes from one image answer differently:\n%s\n%s", got, before)
	}
	var page struct{ Results []struct{ ID int64 } }
	newAPI(t, a).get(first).json(t, &page)
	if len(page.Results) != 1 {
		t.Fatalf("no conversation: %s", before)
	}
	if res := newAPI(t, a).del("/api/um/v3/conversations/" + itoa(page.Results[0].ID) + "/"); res.status/100 != 2 {
		t.Fatalf("delete: %d %s", res.status, res.body)
	}
	if list(a) == before {
		t.Fatal("the delete changed nothing")
	}
	if list(b) != before {
		t.Error("a write to one sandbox showed in another from the same image")
	}
	if list(start(t, sandbox.Options{Image: img})) != before {
		t.Error("a write to a sandbox changed the image")
	}
	if _, err := sandbox.Open(ctx, sandbox.Options{Image: img, DBPath: t.TempDir() + "/x.db"}); err == nil ||
		!strings.Contains(err.Error(), "in memory") {
		t.Errorf("an image with a database path: %v", err)
	}
}
