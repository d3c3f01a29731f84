package navigation

import (
	"slices"
	"testing"
)

// The one-line event's widths: time 12, contact (by number 9; by name from wideRow once
// contacts are known), conversation 9, title, URL and referrer; the URL takes the rest.
func TestColumnWidths(t *testing.T) {
	for w, want := range map[int][2][]int{
		120: {{12, 9, 9, 24, 43, 16}, {12, -1, 18, 9, 22, 38, 14}},
		140: {{12, 9, 9, 30, 53, 20}, {12, -1, 18, 9, 28, 48, 18}},
		158: {{12, 9, 9, 36, 61, 24}, {12, -1, 19, 9, 33, 56, 22}},
		198: {{12, 9, 9, 48, 81, 32}, {12, -1, 24, 9, 43, 74, 29}},
	} {
		if got := idColumns.Widths(w, nil); !slices.Equal(got, want[0]) {
			t.Errorf("at %d: %v, want %v", w, got, want[0])
		}
		if got := namedColumns.Widths(w, nil); !slices.Equal(got, want[1]) {
			t.Errorf("at %d with names: %v, want %v", w, got, want[1])
		}
	}
}
