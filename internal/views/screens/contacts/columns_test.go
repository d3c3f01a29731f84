package contacts

import (
	"slices"
	"testing"
)

// The one-line row's widths, as its comment gives them: verified, name, email, place, phone
// (from 120), company (from 140), locale (from 90), time.
func TestColumnWidths(t *testing.T) {
	t.Parallel()
	for w, want := range map[int][]int{
		60:  {1, 14, 22, 11, -1, -1, -1, 6},
		78:  {1, 19, 30, 16, -1, -1, -1, 6},
		86:  {1, 21, 34, 18, -1, -1, -1, 6},
		98:  {1, 23, 37, 19, -1, -1, 5, 6},
		108: {1, 26, 41, 22, -1, -1, 5, 6},
		120: {1, 25, 38, 21, 16, -1, 5, 6},
		140: {1, 25, 40, 21, 16, 17, 5, 6},
		198: {1, 28, 85, 26, 16, 22, 5, 6},
	} {
		if got := columns.Widths(w, nil); !slices.Equal(got, want) {
			t.Errorf("at %d: %v, want %v", w, got, want)
		}
	}
}
