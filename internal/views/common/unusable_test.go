package common_test

import (
	"testing"

	"github.com/parley-tui/parley/internal/views/common"
)

// An action without a row stops quietly; one on a row that lacks what it needs stops with
// a toast of why; one on a row that has it goes on.
func TestUnusableStopsWithoutARowAndSaysWhyForARowThatLacks(t *testing.T) {
	if cmd, stop := common.Unusable(false, true, "Event #%d has no URL", 0); !stop || cmd != nil {
		t.Fatalf("no row: stop %v, cmd %v; want a quiet stop", stop, cmd != nil)
	}
	cmd, stop := common.Unusable(true, true, "Event #%d has no URL", 7)
	if !stop || cmd == nil {
		t.Fatalf("a row that lacks: stop %v, cmd %v; want a toast", stop, cmd != nil)
	}
	if msg, _ := cmd().(common.ToastMsg); msg.Text != "Event #7 has no URL" || msg.Error {
		t.Fatalf("toast %+v", msg)
	}
	if cmd, stop := common.Unusable(true, false, "Event #%d has no URL", 7); stop || cmd != nil {
		t.Fatalf("a usable row: stop %v, cmd %v; want to go on", stop, cmd != nil)
	}
}
