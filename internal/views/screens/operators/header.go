package operators

// The frame of the operator list: the header (counts, filter, order, what watching costs)
// and the footnote (the last refresh and the screen's keys).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/sanitize"
)

// Header counts the operators (those shown of all when the filter hides some) and how many
// the server said are available, away and online, and how many it did not say about
// (never counted as available); it names the filter and the order, and shows the
// operators family's requests today against the budget and the auto-refresh pace; the
// column titles follow. The parts go on one line or two, each in the longest form that fits.
func (s source) Header(st list.Status) []string {
	m := s.m
	styles := m.ctx.Styles
	c := CountOf(m.all)
	count := list.CountPart(st, "operator", "operators")
	if (m.show != ShowAll || strings.TrimSpace(m.name) != "") && st.Loaded {
		all := fmt.Sprintf("%s of %d operators", st.Count, c.All)
		count = list.HeaderPart{all, all, fmt.Sprintf("%s of %d", st.Count, c.All)}
	}
	// The forms shrink by level, every part at once: "status unknown" first, then the
	// nouns and the words "filter:" and "sort:", then "available".
	parts := []list.HeaderPart{count}
	if st.Loaded && len(m.all) > 0 {
		avail := fmt.Sprintf("%d available", c.Available)
		parts = append(parts,
			list.HeaderPart{avail, avail, avail, fmt.Sprintf("%d avail", c.Available)},
			list.HeaderPart{fmt.Sprintf("%d away", c.Away)})
		if c.Unknown > 0 {
			parts = append(parts, list.HeaderPart{fmt.Sprintf("%d status unknown", c.Unknown), fmt.Sprintf("%d unknown", c.Unknown)})
		}
		parts = append(parts, list.HeaderPart{fmt.Sprintf("%d online", c.Online)})
	}
	if name := sanitize.Line(strings.TrimSpace(m.name)); name != "" {
		parts = append(parts, list.HeaderPart{fmt.Sprintf("name has %q", name), fmt.Sprintf("%q", list.ShortValue(name, 12))})
	}
	parts = append(parts,
		list.HeaderPart{m.show.Says(), m.show.Says(), m.show.String()},
		list.HeaderPart{"by " + m.sort.String()})
	used := m.ctx.Client.Usage(client.FamilyOperators)
	budget := "operators requests today " + layout.Count(used) + "/" + layout.Count(m.ctx.Budget.PerDay)
	cost := []list.HeaderPart{{budget, budget, "requests " + layout.Count(used) + "/" + layout.Count(m.ctx.Budget.PerDay)}}
	if p := m.AutoPace(); m.ctx.Budget.On() {
		// The longest form that fits: with the slots' pace, without, the short one.
		text, short := p.Text(m.ctx.Budget, false, m.ctx.Keys.Refresh.Help().Key)
		forms := list.HeaderPart{text}
		if p.Every > 0 {
			forms = list.HeaderPart{text + ", slots every " + layout.ShortDuration(p.Every*common.SlotsFactor), text}
		}
		if short != "" {
			forms = append(forms, short)
		}
		cost = append(cost, forms)
	}
	// The operators on one line, what watching them costs on the next when both do not fit
	// on one.
	var lines []string
	if all := append(slices.Clip(parts), cost...); fitsWhole(all, st.Width) {
		lines = list.FitHeader(all, st.Width, 1)
	} else {
		lines = append(list.FitHeader(parts, st.Width, 1), list.FitHeader(cost, st.Width, 1)...)
	}
	for i, l := range lines {
		lines[i] = styles.HeaderLine.Render(l)
	}
	return append(lines, styles.Muted.Render(titles(st.Width)))
}

// Footnote shows the last refresh after the position, and the screen's keys at the right.
func (s source) Footnote(st list.Status) (note, hints string) {
	k := s.m.ctx.Keys
	if !st.At.IsZero() {
		note = " · refreshed " + st.At.In(s.m.ctx.Now().Location()).Format("15:04:05")
	}
	// The keys as bound, and only those this session may use here (read-only has no edits,
	// a hub agent no operator edits), most used first: as many as fit beside the note.
	var parts []string
	for _, h := range []struct{ action, what string }{{"open", "conversations"}, {"search", "find"}, {"status", "filter"}, {"order", "sort"},
		{"away", "away"}, {"edit", "edit"}, {"delete", "delete"}, {"toggle_detail", "detail"}, {"refresh", "refresh"}} {
		if k.Allows(h.action, keymap.InOperators) {
			parts = append(parts, k.Binding(h.action).Help().Key+" "+h.what)
		}
	}
	room := st.Width - ansi.StringWidth(fmt.Sprintf(" %d/%d", st.Cursor+1, st.Rows)+note) - 2
	for len(parts) > 0 && ansi.StringWidth(strings.Join(parts, " · ")+" ") > room {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return note, ""
	}
	return note, s.m.ctx.Styles.Muted.Render(strings.Join(parts, " · ") + " ")
}

// fitsWhole reports whether parts fit on one line of w cells in their longest forms.
func fitsWhole(parts []list.HeaderPart, w int) bool {
	forms := make([]string, 0, len(parts))
	for _, p := range parts {
		if len(p) > 0 && p[0] != "" {
			forms = append(forms, p[0])
		}
	}
	return ansi.StringWidth(" "+strings.Join(forms, list.HeaderSep)) <= w
}
