package picker

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// Box is the frame a picker is drawn in: its title in the top border, the field, a rule,
// the rows, notes and a footer. The palette, the organization and operator pickers, the
// assign picker and help draw theirs with it.
type Box struct {
	Title  string
	Field  string   // the field's line
	Rule   bool     // a rule under the field
	Rows   []string // the body lines, each at most inner cells
	Height int      // the body's height: Rows and blank lines after them
	Notes  []string // muted text under the body, wrapped to the box
	Footer string   // the last line, styled by the caller
}

// BoxRowsTop is the line of a Box with a rule where its rows start: under the top border,
// the field and the rule (Options.RowsTop).
const BoxRowsTop = 3

// BoxChrome is the lines of a box around its body, without notes: the border (2), the
// field, the rule and the footer.
const BoxChrome = 5

// BoxWidth is the width of a picker's box, border included, on a terminal w cells wide:
// most of a wide terminal, all of a narrow one (60 when w is not known).
func BoxWidth(w int) int {
	if w <= 0 {
		return 60
	}
	return min(w, max(60, min(110, w*6/10)))
}

// NoteLines are notes wrapped to inner cells.
func NoteLines(notes []string, inner int) []string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, strings.Split(ansi.Wrap(n, inner, ""), "\n")...)
		}
	}
	return out
}

// Render draws the box inner cells wide inside its border and padding.
func (b Box) Render(st *theme.Styles, inner int) string {
	var s strings.Builder
	line := func(l string) { s.WriteString(" " + layout.Fit(l, inner) + " \n") }
	line(b.Field)
	chrome := 3 // the border and the footer
	if b.Rule {
		line(st.Subtle.Render(strings.Repeat("─", inner)))
		chrome++
	}
	chrome++ // the field
	for i := range max(b.Height, len(b.Rows)) {
		if i < len(b.Rows) {
			line(b.Rows[i])
		} else {
			line("")
		}
	}
	notes := NoteLines(b.Notes, inner)
	for _, n := range notes {
		line(st.Muted.Render(n))
	}
	s.WriteString(" " + layout.Fit(b.Footer, inner) + " ")
	fs := layout.FrameStyles{Focused: st.BorderFocused, TitleFocused: st.ModalTitle}
	return layout.Frame(fs, b.Title, s.String(), inner+4, max(b.Height, len(b.Rows))+len(notes)+chrome, true)
}

// Line is a row of a picker's list, exactly w cells: "› " and the text under the cursor
// (selected), "  " and the text elsewhere, the matched runes marked.
func Line(st *theme.Styles, text string, runes []int, selected bool, w int) string {
	if selected {
		return Cell("› "+text, Shift(runes, 2), w, st.Selected, st.Match)
	}
	return Cell("  "+text, Shift(runes, 2), w, st.Base, st.Match)
}

// Nothing is the row that says no item matches q.
func Nothing(st *theme.Styles, q string, w int) string {
	return st.Muted.Render(layout.Pad(fmt.Sprintf("  Nothing matches %q.", q), w))
}

// Untyped is the first key of b that types nothing ("↓" for "j/↓"), else its first, as
// help names keys: what moves in a picker.
func Untyped(b key.Binding) string {
	for _, k := range b.Keys() {
		if p, ok := keymap.Press(k); ok && !common.Typed(p) {
			return keymap.HelpKeys([]string{k})
		}
	}
	if ks := b.Keys(); len(ks) > 0 {
		return keymap.HelpKeys(ks[:1])
	}
	return ""
}

// Keys is the footer's words for the picker's keys: "↑/↓ move · enter choose · esc cancel"
// (the words for choosing and closing given), esc named "clear" while a filter is typed.
func (m Model) Keys(choose, close string) string {
	k := m.keys
	if m.Query() != "" {
		close = "clear"
	}
	return Untyped(k.Up) + "/" + Untyped(k.Down) + " move · " + k.Open.Help().Key + " " + choose + " · " +
		k.Back.Help().Key + " " + close
}

// ShortHelp is the bottom line's keys of a picker, with the words for choosing and closing.
func (m Model) ShortHelp(choose, close string) []key.Binding {
	k := m.keys
	if m.Query() != "" {
		close = "clear"
	}
	var moves []string
	for _, b := range []key.Binding{k.Up, k.Down} {
		for _, kk := range b.Keys() {
			if p, ok := keymap.Press(kk); ok && !common.Typed(p) {
				moves = append(moves, kk)
			}
		}
	}
	return []key.Binding{
		key.NewBinding(key.WithKeys(moves...), key.WithHelp(Untyped(k.Up)+"/"+Untyped(k.Down), "move")),
		keymap.As(k.Open, choose), keymap.As(k.Back, close),
	}
}

// Count is the footer's "N of M": the rows shown of the items (the Typed row counted in
// both).
func (m Model) Count() string {
	all := len(m.texts)
	if m.typed != "" {
		all++
	}
	return fmt.Sprintf("%d of %d", len(m.shown), all)
}

// FitRows is how many rows a picker's box shows on a terminal height lines high (0: not
// known): all of its items when they fit, with its notes wrapped to inner cells under
// them, and never fewer than 3.
func FitRows(height, inner int, notes []string, items int) int {
	room := 12
	if height > 0 {
		room = height - BoxChrome - len(NoteLines(notes, inner)) - 1
	}
	return max(3, min(room, items))
}

// Dialog draws the picker in b (the caller gives its Title, Height and Notes): the field,
// a rule, the rows in view (row draws one; nil draws the match's text with Line), "Nothing
// matches" when nothing does, and the footer with the count and the keys, choose and close
// naming what enter and esc do.
func (m Model) Dialog(st *theme.Styles, b Box, inner int, row func(mt Match, selected bool, w int) string, choose, close string) string {
	if row == nil {
		row = func(mt Match, selected bool, w int) string { return Line(st, m.Text(mt), mt.Runes, selected, w) }
	}
	from, to := m.Window()
	for i := from; i < to; i++ {
		b.Rows = append(b.Rows, row(m.shown[i], i == m.Cursor(), inner))
	}
	if len(m.shown) == 0 {
		b.Rows = append(b.Rows, Nothing(st, m.Query(), inner))
	}
	b.Field, b.Rule = m.Field(), true
	b.Footer = st.Muted.Render(m.Count() + " · " + m.Keys(choose, close))
	return b.Render(st, inner)
}

// Room is the room a picker modal is given (SetSize), and what every picker modal has the
// same of common.Modal: it is a centered box (Inline), and it starts nothing (Init). A
// modal embeds it.
type Room struct{ Width, Height int }

// Init starts nothing.
func (Room) Init() tea.Cmd { return nil }

// Inline is false: a picker is a centered box.
func (Room) Inline() bool { return false }

// Give gives a picker modal the room w×h and sizes its picker for it: the Box's inner width
// and rows() rows (which may read the room).
func (r *Room) Give(w, h int, pick *Model, rows func() int) {
	*r = Room{Width: w, Height: h}
	pick.SetWidth(r.Inner())
	pick.SetRows(rows())
}

// Inner is the text width of a Box in the room.
func (r Room) Inner() int { return max(10, BoxWidth(r.Width)-4) }
