package operators

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// The check of a lost away answer says "checking…" before it starts: its command is a
// sequence whose first message is that toast, so a check that answers at once cannot
// have its verdict shown first and then covered by "checking…" (in a batch it could).
func TestTheCheckingToastGoesBeforeTheCheck(t *testing.T) {
	t.Parallel()
	m := New(viewtest.Ctx(nil))
	msg := m.checkAway(7, true, errors.New("connection reset"), "Clara (#7)")()
	cmds, ok := viewtest.SubCommands(msg)
	if _, batch := msg.(tea.BatchMsg); batch || !ok || len(cmds) != 2 {
		t.Fatalf("the check is %T of %d commands, want a sequence of the toast and the check", msg, len(cmds))
	}
	if toast, ok := cmds[0]().(common.ToastMsg); !ok || !strings.HasSuffix(toast.Text, "checking…") {
		t.Fatalf("the sequence starts with %#v, want the checking toast", toast)
	}
}
