package list

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/sat"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/sanitize"
)

// View draws the header, the pinned row, the rows in the window (only those: never all of
// them), the source's detail block and the footer, exactly the list's width×height. Rows
// come from the cache while their stamp is unchanged (the cache keeps about the window's
// rows: trimCache); the row under the cursor is drawn as the others are, with the cursor's
// cell at its left edge.
func (m *Model[R]) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.cacheWidth != m.width {
		clear(m.cache)
		m.cacheWidth = m.width
	}
	st := m.ctx.Styles
	l := m.parts()
	var b strings.Builder
	b.Grow((m.width + 16) * m.height)
	n := 0 // lines written
	put := func(s string, lines int) {
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		n += lines
	}
	for _, h := range l.header[:min(len(l.header), m.height-l.footer)] {
		put(layout.Fit(h, m.width), 1)
	}
	now := m.ctx.ServerNow() // ages by the server's clock, which stamped the rows
	if l.pinned > 0 {
		put(m.entry(m.pinned, m.onPinned, true, now), l.pinned)
	}
	top := n
	switch {
	case len(m.rows) == 0:
		for _, line := range m.emptyLines(l.body) {
			put(st.Muted.Render(layout.Pad(line, m.width)), 1)
		}
	default:
		end := m.win.End(m.positions())
		for pos := m.win.Offset; pos < end && n-top+l.rowHeight <= l.body; pos++ {
			selected := pos == m.win.Cursor && !m.onPinned
			if i, ok := m.pg.RowAt(pos); ok && i < len(m.rows) {
				put(m.entry(&m.rows[i], selected, false, now), l.rowHeight)
			} else {
				gap := strings.Join(layout.GapEntry(st, l.rowHeight, m.width), "\n")
				if selected {
					gap = m.cursorOn(gap, "")
				}
				put(gap, l.rowHeight)
			}
		}
	}
	m.trimCache()
	blank := strings.Repeat(" ", m.width)
	for n < top+l.body {
		put(blank, 1)
	}
	if l.detail > 0 {
		for _, line := range m.src.(Detailer).Detail(m.width, l.detail) {
			put(layout.Fit(line, m.width), 1)
		}
	}
	if l.footer > 0 {
		put(layout.Fit(m.footer(), m.width), 1)
	}
	return b.String()
}

// emptyLines say why there are no rows, in at most n lines: loading, failed (and which key
// tries again), or the source's empty text.
func (m *Model[R]) emptyLines(n int) []string {
	var lines []string
	switch {
	case !m.pg.Loaded || m.pg.Loading:
		lines = []string{"  Loading " + m.fetch.noun() + "…"}
	case m.pg.Err != nil:
		lines = common.LoadFailedLines(m.pg.Err, m.ctx.Keys.Refresh.Help().Key, m.width, min(4, n))
	default:
		// Wrapped at words: what hides the rows and the key that clears them stay whole.
		for _, l := range strings.Split(ansi.Wrap(m.src.Empty(m.status()), max(1, m.width-3), ""), "\n") {
			lines = append(lines, "  "+l)
		}
	}
	return lines[:min(len(lines), max(0, n))]
}

// entry draws row r, from the cache while its stamp reads the same (the clock moves on
// while the list waits for a key), with the cursor's cell when selected. The pinned row is
// drawn anew every time.
func (m *Model[R]) entry(r *R, selected, pinned bool, now time.Time) string {
	st := m.ctx.Styles
	id := m.id(*r)
	c := Cell{Width: m.width, Mark: " ", Stamp: m.src.Stamp(r, now), Pinned: pinned, Busy: m.busy[id]}
	mark := ""
	switch {
	case pinned:
		mark = "»" // not among the rows
	case m.marked[id]:
		mark = "*"
	}
	if mark != "" {
		c.Mark = st.Marked.Render(mark)
	}
	var s string
	if e, ok := m.cache[id]; ok && !pinned && e.stamp == c.Stamp {
		s = e.text
	} else {
		s = m.src.Render(r, c)
		if !pinned {
			m.cache[id] = cached{text: s, stamp: c.Stamp}
		}
	}
	if !pinned {
		m.drawn = append(m.drawn, id)
	}
	if selected {
		s = m.cursorOn(s, mark)
	}
	return s
}

// trimCache keeps the cache to about the rows in the window: once it holds twice as many
// rows as this frame drew, the others go. Paging through thousands of rows keeps a few
// windows' worth of drawn rows, not a drawn copy of every row passed; a move back by half
// a window still finds its rows drawn.
func (m *Model[R]) trimCache() {
	drawn := m.drawn
	m.drawn = m.drawn[:0]
	if len(m.cache) <= 2*max(len(drawn), m.win.Visible()) {
		return
	}
	keep := make(map[int64]bool, len(drawn))
	for _, id := range drawn {
		keep[id] = true
	}
	for id := range m.cache {
		if !keep[id] {
			delete(m.cache, id)
		}
	}
}

// cursorOn marks a drawn entry as the one under the cursor: the first cell of each of its
// lines (the mark's column, which every source leaves to the list) becomes the cursor's, a
// bar "▌" in the cursor's style, bright while the list has the focus; on the first line
// of a marked or the pinned row, its mark in that style reversed. The rest of the row stays
// as drawn, so a move of the cursor changes two cells a line on the terminal, not two whole
// rows.
func (m *Model[R]) cursorOn(entry, mark string) string {
	st := m.ctx.Styles
	bar, marked := st.CursorBlurred, st.CursorMarkBlurred
	if m.focused {
		bar, marked = st.Cursor, st.CursorMark
	}
	lines := strings.Split(entry, "\n")
	for i, line := range lines {
		cell := bar.Render("▌")
		if i == 0 && mark != "" {
			cell = marked.Render(mark)
		}
		lines[i] = cell + ansi.TruncateLeft(line, 1, "")
	}
	return strings.Join(lines, "\n")
}

// footer shows the position, the marks, the source's note, the loading state and where the
// rows come from past the offset cap; the source's hints at the right end. On the pinned
// row it says what that row is.
func (m *Model[R]) footer() string {
	st := m.ctx.Styles
	if m.OnPinned() {
		id := m.id(*m.pinned)
		long := fmt.Sprintf(" » #%d %s", id, m.pinNote)
		if ansi.StringWidth(long) > m.width {
			short, _, _ := strings.Cut(m.pinNote, " (")
			long = fmt.Sprintf(" » #%d %s", id, short)
		}
		return st.Muted.Render(long)
	}
	var left, note, hints string
	if f, ok := m.src.(Footnoter); ok {
		note, hints = f.Footnote(m.status())
	}
	if len(m.rows) > 0 {
		left = fmt.Sprintf(" %s/%s", layout.Count(sat.Add(m.win.Cursor, 1)), m.pg.Count())
		if n := len(m.marked); n > 0 {
			left += st.Marked.Render(fmt.Sprintf(" · %d marked", n))
		}
		if m.opts.ShowLoaded && len(m.rows) < m.pg.Total {
			left += st.Muted.Render(fmt.Sprintf(" (%s loaded)", layout.Count(len(m.rows))))
		}
	}
	left += note
	if len(m.rows) > 0 {
		left += m.state()
	}
	if hints == "" {
		return left
	}
	return layout.Spread(left, hints, m.width)
}

// state is the footer's last part: a failed or running request, or where the rows come
// from past the offset cap.
func (m *Model[R]) state() string {
	st := m.ctx.Styles
	refresh := m.ctx.Keys.Refresh.Help().Key
	reach := layout.Count(m.pg.Reach())
	switch {
	case m.pg.NextFailed():
		return " · " + st.Error.Render("next page failed; "+refresh+" retries it")
	case m.pg.Err != nil:
		return " · " + st.Error.Render("load failed; "+refresh+" retries")
	case m.pg.Loading:
		return " · " + st.Loading.Render("loading…")
	case m.pg.PastCap(len(m.rows)) && m.fetch.cursor() == LinkNone:
		text := "API shows at most " + reach
		if w := m.fetch.whole(); w != "" && !m.fetch.ranked() {
			text += fmt.Sprintf("; %s (%s) to browse all", w, m.ctx.Keys.Order.Help().Key)
		}
		return " · " + st.Warning.Render(text)
	case m.pg.Kind == LinkAllNext || m.pg.Kind == LinkAllPrev:
		return st.Muted.Render(" · past " + reach + " via /all/")
	}
	return ""
}

// HeaderLines lays a header's parts out in lines of the list's width for a source's
// Header: on one line in the longest forms that fit, else on two (see FitHeader),
// styled as a header.
func HeaderLines(s Status, style lipgloss.Style, parts []HeaderPart) []string {
	lines := FitHeader(parts, s.Width, maxHeaderLines)
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// maxHeaderLines is the most lines HeaderLines takes (a narrow pane with a search and
// filters).
const maxHeaderLines = 2

// CountPart is the header's count part: "1,234 contacts", or the count alone when that
// does not fit.
func CountPart(s Status, one, many string) HeaderPart {
	noun := many
	if s.One {
		noun = one
	}
	return HeaderPart{s.Count + " " + noun, s.Count}
}

// SearchPart is the header's part for a server search (sanitized here): `search:"text"
// (ranked)`, then without "(ranked)", without "search:", and the text cut to 12 cells;
// false without a search.
func SearchPart(search string) (HeaderPart, bool) {
	q := sanitize.Line(search)
	if q == "" {
		return nil, false
	}
	return HeaderPart{fmt.Sprintf("search:%q (ranked)", q), fmt.Sprintf("search:%q", q),
		fmt.Sprintf("%q", q), fmt.Sprintf("%q", ShortValue(q, 12))}, true
}

// FilterParts are the header's parts for the filters set, each described in short words
// (Describe) and cut to 16 cells last.
func FilterParts(filters []string) []HeaderPart {
	parts := make([]HeaderPart, 0, len(filters))
	for _, f := range filters {
		parts = append(parts, HeaderPart{f, f, f, ShortValue(f, 16)})
	}
	return parts
}

// EmptyWhy says that no row of many (the noun: "conversations") matches, and names what
// hides rows: the search (sanitized here), then the filters in the header's words (the
// status among them), and the key (back) that clears them, the search first. Without a
// search or a filter it says only that there are none.
func EmptyWhy(many, search string, filters []string, back string) string {
	var hide []string
	q := sanitize.Line(search)
	if q != "" {
		hide = append(hide, fmt.Sprintf("the search %q", q))
	}
	if len(filters) == 1 {
		hide = append(hide, "the filter "+filters[0])
	} else if len(filters) > 1 {
		hide = append(hide, "the filters "+strings.Join(filters, ", "))
	}
	if len(hide) == 0 {
		return "No " + many + "."
	}
	clears := back + " clears it."
	switch {
	case q != "" && len(filters) > 0:
		clears = back + " clears the search, then again the filters."
	case len(filters) > 1:
		clears = back + " clears them."
	}
	return "No " + many + " match " + strings.Join(hide, " and ") + ". " + clears
}
