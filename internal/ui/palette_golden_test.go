package ui_test

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/detail"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// goldenAfterKeys renders the app against the sandbox (seed 1, fixed clock) at w×h after
// the first list (and, on a wide terminal, the first thread) loaded and keys were typed. Regenerate with: go test ./internal/ui -run Golden -update
func goldenAfterKeys(t *testing.T, w, h int, keys string) {
	t.Helper()
	goldenAfterKeysWith(t, w, h, keys, nil)
}

// goldenAfterKeysWith is goldenAfterKeys with the options set changes.
func goldenAfterKeysWith(t *testing.T, w, h int, keys string, set func(*ui.Options)) {
	t.Helper()
	sb := testSandbox(t)
	o := newObserved(t, newClient(t, sb, client.Config{}), set)
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(w, h))
	o.WaitSeen(t, map[string]int{fmt.Sprintf("%T", common.OperatorsLoadedMsg{}): 1, fmt.Sprintf("%T", common.RefreshedMsg{}): 1})
	if w >= conversations.WideWidth {
		// The wide layout opens the first row once the cursor rested on it: let it rest and
		// wait for what it loads.
		o.advance(tm, common.SettleDelay)
		o.WaitSeen(t, map[string]int{"thread.pageMsg": 1, fmt.Sprintf("%T", detail.LoadedMsg{}): 1})
	}
	for _, m := range viewtest.Keys(keys) {
		tm.Send(m)
	}
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	golden.RequireEqual(t, []byte(viewtest.Plain(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)))
}

// TestGoldenPalette: the command palette as it opens on the conversations screen, at the
// smallest size and a large one, and filtered.
func TestGoldenPalette(t *testing.T) {
	t.Run("80x24", func(t *testing.T) { goldenAfterKeys(t, 80, 24, ":") })
	t.Run("200x50", func(t *testing.T) { goldenAfterKeys(t, 200, 50, ":") })
	t.Run("80x24/filtered", func(t *testing.T) { goldenAfterKeys(t, 80, 24, ":ana") })
}

// TestGoldenHelpFiltered: help filtered by what was typed.
func TestGoldenHelpFiltered(t *testing.T) {
	t.Run("80x24", func(t *testing.T) { goldenAfterKeys(t, 80, 24, "?or") })
	t.Run("200x50", func(t *testing.T) { goldenAfterKeys(t, 200, 50, "?or") })
}

// TestGoldenReadOnly: read-only mode as it looks after an edit key was pressed: the status
// bar says read-only, the footer and help offer no edit key, and the toast says why d did
// nothing.
func TestGoldenReadOnly(t *testing.T) {
	ro := func(o *ui.Options) { o.ReadOnly = true }
	t.Run("80x24", func(t *testing.T) { goldenAfterKeysWith(t, 80, 24, "d", ro) })
	t.Run("200x50", func(t *testing.T) { goldenAfterKeysWith(t, 200, 50, "d", ro) })
	t.Run("80x24/help", func(t *testing.T) { goldenAfterKeysWith(t, 80, 24, "?", ro) })
}
