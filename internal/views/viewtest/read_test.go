package viewtest

import (
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestReadSplitsKeysReadTogether: Bubble Tea v2's input reader delivers one message per key
// of a burst, a paste whole, and names keys as the keymap writes them.
func TestReadSplitsKeysReadTogether(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []tea.Msg
	}{
		{"jj", []tea.Msg{Key("j"), Key("j")}},
		{"/ab", []tea.Msg{Key("/"), Key("a"), Key("b")}},
		{"G?", []tea.Msg{Key("G"), Key("?")}},
		{" j", []tea.Msg{Key("space"), Key("j")}},
		{"\x1b[Z\t\r", []tea.Msg{Key("shift+tab"), Key("tab"), Key("enter")}},
		{"\x13\x04\x15", []tea.Msg{Key("ctrl+s"), Key("ctrl+d"), Key("ctrl+u")}},
		{"\x1b[6~\x1b[5~\x1b[A", []tea.Msg{Key("pgdown"), Key("pgup"), Key("up")}},
		{"\x1b[200~kk j\x1b[201~j", []tea.Msg{tea.PasteMsg{Content: "kk j"}, Key("j")}},
	} {
		got := Read(t, c.in)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q read as %#v, want %#v", c.in, got, c.want)
		}
	}
}
