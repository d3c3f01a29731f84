package operatorpick_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/operatorpick"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sanitize"
)

func op(id int64, display, name string, away, online client.Opt[bool]) client.Operator {
	return client.Operator{ID: id, DisplayName: display, Name: name, Role: "agent", IsAway: away, IsOnline: online}
}

var yes, no, unknown = client.Opt[bool]{V: true, Known: true}, client.Opt[bool]{Known: true}, client.Opt[bool]{}

// The picker names operators by display name (else name) with their state, sanitized;
// typed text narrows the list (letters are text, not moves), and enter picks the one under
// the cursor, once.
func TestPickerFiltersAndPicks(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	items := []operatorpick.Item{
		operatorpick.ItemFrom(op(1, "Clara Diaz", "clara", no, yes)),
		operatorpick.ItemFrom(op(2, "", "ben\x1b[31m", yes, yes)),
		operatorpick.ItemFrom(op(3, "Jonas", "jonas", no, no)),
		operatorpick.ItemFrom(op(4, "Kim", "kim", unknown, unknown)),
	}
	var picked []int64
	m := operatorpick.New(ctx, "Assign to…", "", items, func(it operatorpick.Item) tea.Cmd {
		picked = append(picked, it.ID)
		return nil
	})
	m.SetSize(80, 24)
	v := ansi.Strip(m.View())
	for _, want := range []string{"Clara Diaz · agent · online (#1)", sanitize.Line("ben\x1b[31m") + " · agent · away (#2)", "Jonas · agent · offline (#3)", "Kim · agent (#4)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the picker does not show %q:\n%s", want, v)
		}
	}
	if strings.Contains(m.View(), "\x1b[31m") {
		t.Error("an operator's name is not sanitized")
	}
	for _, k := range viewtest.Keys("jon") {
		m.Update(k)
	}
	if got := m.Shown(); len(got) != 1 || got[0].ID != 3 {
		t.Fatalf("after typing jon: %+v", got)
	}
	m.Update(viewtest.Key("enter"))
	m.Update(viewtest.Key("enter"))
	if len(picked) != 1 || picked[0] != 3 {
		t.Fatalf("picked %v, want [3] once", picked)
	}
}

// A bot is named one way: by its role, or by the flag when its role says otherwise.
func TestPickerNamesABotOnce(t *testing.T) {
	role := client.Operator{ID: 7, DisplayName: "Northy", Role: client.RoleBot, IsBot: yes, IsOnline: yes}
	flag := client.Operator{ID: 8, DisplayName: "Helper", Role: "agent", IsBot: yes}
	m := operatorpick.New(viewtest.Ctx(nil), "Assign to…", "",
		[]operatorpick.Item{operatorpick.ItemFrom(role), operatorpick.ItemFrom(flag)}, func(operatorpick.Item) tea.Cmd { return nil })
	m.SetSize(80, 24)
	v := ansi.Strip(m.View())
	for _, want := range []string{"Northy · bot · online (#7)", "Helper · agent · bot (#8)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the picker does not show %q:\n%s", want, v)
		}
	}
}

// The picker moves with the keys as the user bound them: a rebound down key moves, the
// arrow it no longer has does not; so do the next and previous pane keys.
func TestPickerMovesWithTheBindings(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	if err := ctx.Keys.Apply(map[string][]string{"down": {"ctrl+j"}, "next_pane": {"ctrl+l"}}); err != nil {
		t.Fatal(err)
	}
	items := []operatorpick.Item{{ID: 1, Name: "Ana"}, {ID: 2, Name: "Ben"}, {ID: 3, Name: "Cem"}, {ID: 4, Name: "Dora"}}
	var picked int64
	m := operatorpick.New(ctx, "Assign to…", "", items, func(it operatorpick.Item) tea.Cmd {
		picked = it.ID
		return nil
	})
	m.SetSize(80, 24)
	for _, k := range []string{"ctrl+j", "down", "tab", "ctrl+l", "ctrl+l", "up"} {
		m.Update(viewtest.Key(k))
	}
	m.Update(viewtest.Key("enter"))
	if picked != 3 {
		t.Fatalf("ctrl+j, down (unbound), tab (unbound), ctrl+l twice, up picked #%d, want #3", picked)
	}
}
