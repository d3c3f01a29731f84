package common_test

import (
	"context"
	"testing"

	"github.com/parley-tui/parley/internal/views/common"
)

// A later request for the same key supersedes the earlier one: the earlier answer is
// dropped, the later one taken once; another key's request is not superseded.
func TestLoaderDropsASupersededAnswer(t *testing.T) {
	ctx := &common.Ctx{}
	l := common.NewLoader(ctx)
	first, _ := l.Start(1)
	other, _ := l.Start(2)
	second, _ := l.Start(1)
	if l.Current(first) || l.Take(first) {
		t.Fatal("the superseded request's answer was taken")
	}
	if !l.Pending(1) || !l.Take(second) {
		t.Fatal("the awaited answer was not taken")
	}
	if l.Pending(1) || l.Take(second) {
		t.Fatal("the answer was taken twice")
	}
	if !l.Waiting() || !l.Take(other) || l.Waiting() {
		t.Fatal("another key's request was superseded")
	}
}

// Next cancels every request of the generation left and drops their answers; the new
// generation's requests run.
func TestLoaderNextCancelsTheGenerationLeft(t *testing.T) {
	l := common.NewLoader(&common.Ctx{})
	l.Next()
	old, parent := l.Start(0)
	l.Next()
	if parent.Err() != context.Canceled {
		t.Fatalf("the request of the generation left runs on: %v", parent.Err())
	}
	if l.Current(old) || l.Pending(0) {
		t.Fatal("an answer of the generation left is awaited")
	}
	now, parent := l.Start(0)
	if parent.Err() != nil || !l.Take(now) {
		t.Fatalf("the new generation's request: %v", parent.Err())
	}
	// Requests started before the first Next run under the background context.
	var zero common.Loader
	if _, parent := zero.Start(0); parent != context.Background() {
		t.Fatal("a loader without generation gave another context")
	}
}

// An answer carries its loader's owner: another loader (another pane of the same type, or
// the same pane after Reset) drops it, even with the same generation, key and request.
func TestLoaderDropsAnotherOwnersAnswer(t *testing.T) {
	ctx := &common.Ctx{}
	a, b := common.NewLoader(ctx), common.NewLoader(ctx)
	if a.Owner() == b.Owner() || a.Owner() == 0 {
		t.Fatalf("owners %d and %d", a.Owner(), b.Owner())
	}
	sa, _ := a.Start(7)
	sb, _ := b.Start(7)
	if sa.Gen != sb.Gen || sa.Key != sb.Key || sa.Req != sb.Req {
		t.Fatalf("stamps differ beyond their owner: %+v %+v", sa, sb)
	}
	if b.Current(sa) || a.Current(sb) {
		t.Fatal("an answer of another owner was taken")
	}
	owner := a.Owner()
	a.Reset(ctx)
	if a.Owner() == owner || a.Current(sa) {
		t.Fatal("Reset kept the owner or the requests")
	}
	if id := ctx.NewID(); id <= a.Owner() {
		t.Fatalf("NewID gave %d after owner %d: one counter for owners and tasks", id, a.Owner())
	}
}
