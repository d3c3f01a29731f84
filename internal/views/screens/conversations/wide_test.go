package conversations_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWideListUsesTheWidth: at 200 columns the list shows names of up to 18 cells whole and
// the first 28 cells of every preview (before, the list stayed 80 columns wide: names cut
// at 14, previews at 18).
func TestWideListUsesTheWidth(t *testing.T) {
	t.Parallel()
	m, _, _, _ := newScreen(t, 200, 50)
	v := m.View()
	names, previews := 0, 0
	for _, r := range m.List.VisibleRows() {
		if r.Name != "" && ansi.StringWidth(r.Name) <= 18 {
			if !strings.Contains(v, r.Name) {
				t.Errorf("the name %q is cut", r.Name)
			}
			if ansi.StringWidth(r.Name) > 14 {
				names++
			}
		}
		pv := r.Preview
		if r.PreviewFromOperator {
			pv = "↩ " + pv
		}
		if ansi.StringWidth(pv) > 28 {
			if head := ansi.Truncate(pv, 28, ""); !strings.Contains(v, head) {
				t.Errorf("the preview %q is cut before 28 cells", pv)
			}
			previews++
		}
	}
	if previews < 5 || names == 0 {
		t.Fatalf("%d long previews and %d names of 15 to 18 cells in view: the test cannot tell", previews, names)
	}
}
