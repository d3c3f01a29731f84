package layout

import (
	"sort"

	"charm.land/lipgloss/v2"

	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/sanitize"
)

// MaxHyperlink is the longest link target drawn as a terminal hyperlink: terminals drop
// longer ones (VTE's limit is 2,083 bytes), so a longer link shows as text only (it is
// still copied whole).
const MaxHyperlink = 2048

// Hyperlink draws text in style s and, when on, as a terminal hyperlink (OSC 8) to url,
// through lipgloss (the sequence is zero cells wide: layout measures and cuts the line as
// it does any styled one). url must be a sanitize.Link's URL: printable ASCII without a
// byte that could end the sequence. Nothing is linked when url is "" or too long.
func Hyperlink(s lipgloss.Style, text, url string, on bool) string {
	if on && url != "" && len(url) <= MaxHyperlink {
		s = s.Hyperlink(url)
	}
	return s.Render(text)
}

// Link glyphs: a message's attachment and a conversation's add-on link.
const (
	GlyphAttachment = "📎"
	GlyphAddon      = "🔗"
)

// LinkLine draws a link as one line: a two-cell slot for the mark (▸ when marked: the link
// the copy key copies), the glyph, the name (a hyperlink to l's URL when links is on) and
// the host ("📎 invoice.pdf · files.example.com"). name "" names it by l.Name. A value that
// is not a web address shows as the text sent, after name, marked as such, and is never a
// link.
func LinkLine(st *theme.Styles, glyph, name string, l sanitize.Link, links, marked bool) string {
	mark := "  "
	if marked {
		mark = st.Accent.Render("▸") + " "
	}
	if !l.Web() {
		if name != "" {
			name += ": "
		}
		return mark + glyph + " " + name + st.Muted.Render(l.Text+" (not a web address)")
	}
	if name == "" {
		name = l.Name
	}
	return mark + glyph + " " + Hyperlink(st.Link, name, l.URL, links) + st.MessageMeta.Render(" · "+l.Host)
}

// LowestInView is the index in lines (line numbers, ascending) of the lowest one among the
// h lines from top: the link a pane marks. -1 when none is in view.
func LowestInView(lines []int, top, h int) int {
	i := sort.SearchInts(lines, top+h) - 1
	if i < 0 || lines[i] < top {
		return -1
	}
	return i
}
