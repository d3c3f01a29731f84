package operators

import (
	"slices"
	"testing"
)

// The row's widths: status 12, online 7, name, display name (the rest below wideRow, at
// most 24 from it), email and locale from wideRow (the email up to 48), role 6, slots 10.
func TestColumnWidths(t *testing.T) {
	t.Parallel()
	for w, want := range map[int][]int{
		60:  {12, 7, 10, 8, -1, -1, -1, 6, 10},
		78:  {12, 7, 21, 15, -1, -1, -1, 6, 10},
		99:  {12, 7, 32, 25, -1, -1, -1, 6, 10},
		100: {12, 7, 18, -1, 12, 20, 6, 6, 10},
		118: {12, 7, 27, -1, 18, 23, 6, 6, 10},
		140: {12, 7, 32, -1, 24, 34, 6, 6, 10},
		158: {12, 7, 32, -1, 24, 48, 6, 6, 10},
		198: {12, 7, 32, -1, 24, 48, 6, 6, 10},
	} {
		if got := columns.Widths(w, nil); !slices.Equal(got, want) {
			t.Errorf("at %d: %v, want %v", w, got, want)
		}
	}
}
