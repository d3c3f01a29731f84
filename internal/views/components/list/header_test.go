package list

import (
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFitHeader(t *testing.T) {
	t.Parallel()
	parts := []HeaderPart{
		{"79 conversations", "79"},
		{"status:all", "status:all", ""},
		{"topic:Billing"},
		{"order:-id", "order:-id", "by id↓"},
	}
	for _, tc := range []struct {
		w, max int
		want   []string
	}{
		{80, 2, []string{" 79 conversations · status:all · topic:Billing · order:-id"}},
		{52, 2, []string{" 79 · status:all · topic:Billing · order:-id"}},
		{38, 2, []string{" 79 · topic:Billing · by id↓"}},
		{20, 2, []string{" 79 · topic:Billing", " by id↓"}},
		{12, 2, []string{" 79", " topic:Bill…"}},
	} {
		got := FitHeader(parts, tc.w, tc.max)
		for _, l := range got {
			if ansi.StringWidth(l) > tc.w {
				t.Errorf("w %d: line %q is wider", tc.w, l)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("w %d: %q, want %q", tc.w, got, tc.want)
		}
	}
}
