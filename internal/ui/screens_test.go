package ui

import (
	"slices"
	"strconv"
	"testing"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
)

// The registry lists the screens in tab order, each named as the key table's action whose
// default key is the number of its place.
func TestScreenRegistry(t *testing.T) {
	t.Parallel()
	k := keymap.Default()
	seen := map[string]bool{}
	for i, sp := range screenSpecs() {
		if sp.id != common.ScreenID(i) {
			t.Errorf("row %d declares screen %d: the tabs follow common.ScreenID", i, sp.id)
		}
		if got := k.Binding(sp.name).Keys(); !slices.Equal(got, []string{strconv.Itoa(i + 1)}) {
			t.Errorf("%s: the key table's action %q has default keys %q, want %d", sp.title, sp.name, got, i+1)
		}
		if seen[sp.name] || seen[sp.title] || sp.title == "" {
			t.Errorf("%s (%s): a name given twice, or no title", sp.title, sp.name)
		}
		seen[sp.name], seen[sp.title] = true, true
		if sp.family == "" {
			t.Errorf("%s: no request family", sp.name)
		}
	}
}
