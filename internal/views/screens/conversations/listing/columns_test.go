package listing

import (
	"slices"
	"testing"
)

// The one-line row's widths, as its comment gives them: status 9, unread 1, name, preview,
// topics, operator, widget (from 118), age 6; the preview takes the rest.
func TestColumnWidths(t *testing.T) {
	t.Parallel()
	for w, want := range map[int][]int{
		76:  {9, 1, 15, 17, 10, 10, -1, 6},
		78:  {9, 1, 15, 18, 11, 10, -1, 6},
		98:  {9, 1, 19, 29, 14, 12, -1, 6},
		117: {9, 1, 23, 40, 16, 14, -1, 6},
		118: {9, 1, 23, 29, 16, 14, 11, 6},
		158: {9, 1, 28, 49, 22, 19, 15, 6},
		198: {9, 1, 28, 79, 28, 20, 18, 6},
	} {
		if got := columns.Widths(w, nil); !slices.Equal(got, want) {
			t.Errorf("at %d: %v, want %v", w, got, want)
		}
	}
}
