package ui_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestGoldenArrivals renders the conversations screen with the built-in views (Mine, New)
// at 80×24 and 200×50 after a teammate assigned a conversation to the operator parley acts
// as and an auto-refresh brought it: the tab counts it, and the row of views marks all and
// Mine (and New when it is new) with what they list of it. Regenerate with:
// go test ./internal/ui -run Golden -update
func TestGoldenArrivals(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			sb := viewtest.Sandbox(t, sandbox.Options{}) // changed below: not the shared one
			me, mateID := viewtest.AgentAndMate(t, sb)
			app := newAppWith(t, newClient(t, sb, client.Config{OperatorID: me}), func(o *ui.Options) {
				o.Views = []common.SavedView{
					{Name: "Mine", Screen: common.ViewsConversations, Filters: map[string]string{"operator_id": client.OperatorMe}},
					{Name: "New", Screen: common.ViewsConversations, Status: client.StatusNew},
				}
				o.Alerts = ui.Alerts{Bell: true, Title: true}
			})
			o := &observed{App: app}
			tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(size[0], size[1]))
			o.WaitSeen(t, map[string]int{fmt.Sprintf("%T", common.OperatorsLoadedMsg{}): 1, fmt.Sprintf("%T", common.RefreshedMsg{}): 1})

			mate := newClient(t, sb, client.Config{OperatorID: mateID})
			p, err := mate.ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 10}})
			if err != nil {
				t.Fatal(err)
			}
			var target int64
			for _, c := range p.Results[1:] { // not the one under the cursor
				if c.Status != client.StatusEnded && (c.OperatorAssignedTo == nil || *c.OperatorAssignedTo != me) {
					target = c.ID
					break
				}
			}
			if _, err := mate.UpdateConversation(context.Background(), target, client.ConversationUpdate{OperatorAssignedTo: &me}); err != nil {
				t.Fatal(err)
			}
			tm.Send(common.RefreshMsg{Auto: true})
			o.WaitSeen(t, map[string]int{fmt.Sprintf("%T", common.RefreshedMsg{}): 2, fmt.Sprintf("%T", common.ArrivedMsg{}): 1})
			tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
			golden.RequireEqual(t, []byte(viewtest.Plain(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)))
		})
	}
}
