package contacts_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestHeaderKeepsEveryPartVisible: in the list pane of the side-by-side layout (52 cells at
// 120 columns, 43 at 100) the header shortens its parts, and when that is not enough takes
// a second line, instead of cutting off the search, the filters or the ordering.
func TestHeaderKeepsEveryPartVisible(t *testing.T) {
	e := readOnly(t)
	yes := true
	for _, tc := range []struct {
		name string
		q    contacts.Query
		want []string // each in one of its forms
	}{
		{"search", contacts.Query{Search: "berlin schmidt", Filter: client.ContactFilter{Verified: &yes}},
			[]string{`"berlin schmidt"`, "verified", "time: last"}},
		{"order", contacts.Query{Ordering: "-created_at", Filter: client.ContactFilter{Locale: "de_DE", Verified: &yes}},
			[]string{"created ↓", "locale:de_DE", "verified", "time: created"}},
	} {
		for _, w := range []int{52, 43} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, w), func(t *testing.T) {
				m := newList(e, 100, w, 20)
				m = viewtest.Settle(m, m.SetQuery(tc.q), wait)
				if m.Total() == 0 {
					t.Fatalf("nothing matches %+v", tc.q)
				}
				v := m.View()
				viewtest.CheckSize(t, v, w, 20, "list")
				lines := strings.Split(v, "\n")
				first := string([]rune(m.Rows()[0].Name)[:6]) // the first row's name begins so
				header := lines[0]
				if !strings.Contains(lines[1], first) {
					header += "\n" + lines[1] // a second header line
				}
				for _, part := range append([]string{fmt.Sprint(m.Total())}, tc.want...) {
					if !strings.Contains(header, part) {
						t.Errorf("the header lacks %q:\n%s", part, header)
					}
				}
				if !strings.Contains(v, first) {
					t.Errorf("the first row is not shown:\n%s", v)
				}
			})
		}
	}
}
