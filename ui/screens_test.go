package ui

import (
	"slices"
	"strconv"
	"testing"

	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/views/common"
)

// The registry lists the screens in tab order, each under the number key of its place and
// the key table's action of its name (the state file's name too).
func TestScreenRegistry(t *testing.T) {
	k := keymap.Default()
	seen := map[string]bool{}
	for i, sp := range screenSpecs() {
		if sp.id != common.ScreenID(i) {
			t.Errorf("row %d declares screen %d: the tabs follow common.ScreenID", i, sp.id)
		}
		if got := sp.key(k).Keys(); !slices.Equal(got, []string{strconv.Itoa(i + 1)}) {
			t.Errorf("%s: default keys %q, want %d", sp.name, got, i+1)
		}
		if !slices.Contains(keymap.Actions(), sp.lower()) || seen[sp.lower()] {
			t.Errorf("%s: no key table action %q, or a name given twice", sp.name, sp.lower())
		}
		seen[sp.lower()] = true
		if sp.family == "" {
			t.Errorf("%s: no request family", sp.name)
		}
	}
}
