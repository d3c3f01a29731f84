package layout

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
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
		label := labelCell(st, f.Label, labelW)
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

// labelCell is a field's label padded to labelW cells, with a space either side.
func labelCell(st *theme.Styles, label string, labelW int) string {
	return " " + st.Label.Render(Pad(label, labelW)) + " "
}

// Labelled lays out one labelled value of a detail pane w cells wide (the contact's, the
// conversation's): the label padded to labelW, the value (sanitized) word-wrapped beside it
// and indented under it. With maxLines > 0 it keeps that many lines, the last one cut with
// "…". The lines are not fitted to w.
func Labelled(st *theme.Styles, label, value string, labelW, w, maxLines int) []string {
	room := max(4, w-labelW-2)
	lines := strings.Split(ansi.Wrap(value, room, ""), "\n")
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = ansi.Truncate(lines[maxLines-1], room-1, "") + "…"
	}
	indent := strings.Repeat(" ", labelW+2)
	for i, l := range lines {
		if i == 0 {
			lines[i] = labelCell(st, label, labelW) + l
		} else {
			lines[i] = indent + l
		}
	}
	return lines
}

// Stamps writes the times of a detail pane: to the minute in Now's zone, each followed by
// what Age says of it against Now (" (5h ago)", or "" for no age).
type Stamps struct {
	Now time.Time
	Age func(t, now time.Time) string
}

// Of is t written out, "—" for the zero time.
func (s Stamps) Of(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(s.Now.Location()).Format("2006-01-02 15:04") + s.Age(t, s.Now)
}

// OfSent is a time the server may leave out written out, "—" when it did.
func (s Stamps) OfSent(t *client.Time) string {
	if t == nil {
		return "—"
	}
	return s.Of(t.Time)
}

// AgoInParens is Ago in parentheses after a space: " (5h ago)".
func AgoInParens(t, now time.Time) string { return " (" + Ago(t, now) + ")" }
