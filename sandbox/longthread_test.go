package sandbox_test

import (
	"context"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
)

// TestLongThreadLength: Options.LongThread gives the long conversation exactly that many
// messages, its first still the thread's start; a length the size cannot hold is refused
// before anything is opened.
func TestLongThreadLength(t *testing.T) {
	r := start(t, sandbox.Options{LongThread: 1234})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	msgs := collect[client.Message](t, c.Messages(context.Background(), info.LongConversationID, client.MessageOptions{}))
	if len(msgs) != 1234 || !strings.HasPrefix(msgs[len(msgs)-1].Body, "Start of the long thread") {
		t.Fatalf("the long thread has %d messages (want 1,234), the oldest %q", len(msgs), msgs[len(msgs)-1].Body)
	}
	for _, n := range []int{-1, 1501} {
		if _, err := sandbox.Start(context.Background(), sandbox.Options{Size: sandbox.SizeSmall, LongThread: n}, "127.0.0.1:0"); err == nil ||
			!strings.Contains(err.Error(), "long thread") {
			t.Errorf("LongThread %d at size small: %v, want refused", n, err)
		}
	}
}
