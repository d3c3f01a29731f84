package contacts_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWideListShowsEmailsWhole: at 160 columns the list's email column shows every
// address of up to 34 cells whole (before, emails were cut at 17 beside a place column of
// blanks), and at 80 columns those of up to 30.
func TestWideListShowsEmailsWhole(t *testing.T) {
	for _, c := range []struct{ w, h, fits int }{{160, 48, 34}, {80, 24, 30}} {
		e := readOnly(t)
		hs := newHarness(t, e.ctx, c.w, c.h)
		hs.focus()
		v := hs.s.View()
		whole, long := 0, 0
		for _, r := range hs.s.List.VisibleRows() {
			w := ansi.StringWidth(r.Email)
			if r.Email == "" || w > c.fits {
				continue
			}
			if !strings.Contains(v, r.Email) {
				t.Errorf("%d columns: %q is not shown whole:\n%s", c.w, r.Email, v)
			}
			whole++
			if w >= 24 {
				long++
			}
		}
		if whole < 5 || long == 0 {
			t.Fatalf("%d columns: %d emails in view, %d of 24 cells or more: the test cannot tell", c.w, whole, long)
		}
	}
}
