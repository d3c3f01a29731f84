package forms

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/internal/keymap"
)

// TestReadOnlyFormsStillMoveAndMark: read-only turns the lists' row marks (and the edits)
// off, but a form that read-only allows (the analytics filter) still moves in its lists and
// marks its choices: the form's bindings are its own, on whatever the key map's are.
func TestReadOnlyFormsStillMoveAndMark(t *testing.T) {
	keys := keymap.Default()
	keys.Deny(keymap.CanWrite)
	km := keyMap(keys, huh.NewDefaultKeyMap(), "apply")
	for name, b := range map[string]key.Binding{"toggle": km.MultiSelect.Toggle, "down": km.MultiSelect.Down,
		"up": km.Select.Up, "filter": km.Select.Filter} {
		if !b.Enabled() {
			t.Errorf("read-only: the form's %s key (%v) is off", name, b.Keys())
		}
	}
	if !slices.Equal(km.MultiSelect.Toggle.Keys(), keys.Mark.Keys()) {
		t.Errorf("toggle is bound to %v, want the mark key %v", km.MultiSelect.Toggle.Keys(), keys.Mark.Keys())
	}
}
