package layout

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/theme"
)

// Field is one labelled value of a record. Value is sanitized text; "" shows as "—". A
// Whole value (a URL) wraps onto the lines below its label instead of being cut.
type Field struct {
	Label, Value string
	Whole        bool
}

// Record lays out one record of a list screen (an operator, a navigation event) as the
// lower pane of that screen: a title, the record's fields one a line, and under "Also
// sent" the fields the server sent that parley does not read (sanitized "key=value"
// texts), so that a user of another server sees what it sent. It returns exactly h lines
// of width w; what does not fit is counted on the last line.
func Record(st *theme.Styles, title string, fields []Field, extra []string, w, h int) []string {
	if h <= 0 || w <= 0 {
		return nil
	}
	const labelW = 13
	var out []string
	out = append(out, Fit(" "+st.Section.Render(title), w))
	for _, f := range fields {
		label := " " + st.Label.Render(Pad(f.Label, labelW)) + " "
		if !f.Whole || f.Value == "" {
			out = append(out, Fit(label+OrDash(f.Value), w))
			continue
		}
		room := max(1, w-labelW-2)
		for i, l := range strings.Split(ansi.Hardwrap(f.Value, room, true), "\n") {
			if i > 0 {
				label = strings.Repeat(" ", labelW+2)
			}
			out = append(out, Fit(label+l, w))
		}
	}
	if len(extra) > 0 {
		out = append(out, Fit(" "+st.Label.Render("Also sent")+st.Muted.Render(" (fields parley does not read)"), w))
		for _, e := range extra {
			out = append(out, Fit("   "+ansi.Truncate(e, max(1, w-3), "…"), w))
		}
	}
	if len(out) > h {
		hidden := len(out) - h + 1
		out = append(out[:h-1], Fit(st.Muted.Render(fmt.Sprintf(" ↓ %d more lines", hidden)), w))
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
	}
	return out
}
