package analytics

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/internal/views/components/scroll"
)

// metricPicker is the metric picker: every metric of the spec grouped by theme, each with what it
// measures and what value and value_str mean, in the one picker (internal/views/components/picker): typing
// filters by the name, theme and description (best match first, under their themes), the
// arrows move, tab/shift+tab jump to the next/previous theme, enter picks, esc clears the
// filter, then cancels.
type metricPicker struct {
	ctx  *common.Ctx
	all  []client.MetricInfo // every metric, theme by theme
	pick picker.Model
	body scroll.Pane
	picker.Room
	// top is the first line of every row of the matches in the body, its theme's header
	// when it is the theme's first.
	top []int
}

func newMetricPicker(ctx *common.Ctx, current client.Metric) *metricPicker {
	p := &metricPicker{ctx: ctx, body: scroll.New(nil)}
	for _, g := range client.MetricGroups {
		for _, info := range client.Metrics {
			if info.Group == g {
				p.all = append(p.all, info)
			}
		}
	}
	texts := make([]string, len(p.all))
	for i, info := range p.all {
		texts[i] = string(info.Metric) + "  " + info.Group + "  " + describe(info)
	}
	p.pick = picker.New(ctx, texts, picker.Options{Prompt: "Filter: ", Placeholder: "a name, a theme or words of the description",
		Group: func(i int) string { return p.all[i].Group }})
	for i, info := range p.all {
		if info.Metric == current {
			p.pick.Select(i)
		}
	}
	return p
}

// SetSize gives the area the picker may use.
func (p *metricPicker) SetSize(w, h int) {
	p.Room = picker.Room{Width: w, Height: h}
	p.pick.SetWidth(p.innerWidth())
	p.pick.SetRows(max(1, p.bodyHeight()/3)) // a page: about a third of the lines
	p.body.SetSize(p.innerWidth(), p.bodyHeight())
	p.draw()
	p.showCursor()
}

// ShortHelp lists the picker's keys, the most used first.
func (p *metricPicker) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	return append(p.pick.ShortHelp("pick", "cancel")[:2],
		key.NewBinding(key.WithKeys(k.NextPane.Keys()...), key.WithHelp(k.NextPane.Help().Key+"/"+k.PrevPane.Help().Key, "next/previous group")),
		p.pick.ShortHelp("pick", "cancel")[2])
}

// Selected is the metric under the cursor ("" when the filter matches nothing).
func (p *metricPicker) Selected() client.Metric {
	mt, ok := p.pick.Selected()
	if !ok {
		return ""
	}
	return p.all[mt.Item].Metric
}

// group is the theme of row i of the matches.
func (p *metricPicker) group(i int) string { return p.all[p.pick.Shown()[i].Item].Group }

// jump moves to the first row of the next (d=1) or previous (d=-1) theme, wrapping.
func (p *metricPicker) jump(d int) {
	n := len(p.pick.Shown())
	if n == 0 {
		return
	}
	start := func(i int) int { // the first row of row i's run of its theme
		for i > 0 && p.group(i-1) == p.group(i) {
			i--
		}
		return i
	}
	i := start(p.pick.Cursor())
	if d > 0 {
		for i < n && p.group(i) == p.group(p.pick.Cursor()) {
			i++
		}
		if i == n {
			i = 0
		}
	} else {
		i = start((i - 1 + n) % n)
	}
	p.pick.MoveTo(i)
	p.draw()
	p.body.SetOffset(p.top[i]) // the theme's header on top
}

// Update filters, moves, picks or cancels.
func (p *metricPicker) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		k := p.ctx.Keys
		switch {
		case p.pick.Acts(km, k.NextPane):
			p.jump(1)
			return p, nil
		case p.pick.Acts(km, k.PrevPane):
			p.jump(-1)
			return p, nil
		}
	}
	ev, cmd := p.pick.Update(msg)
	switch ev {
	case picker.Closed:
		return p, tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return menuClosedMsg{} })
	case picker.Chosen:
		m := p.Selected()
		return p, tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return metricPickedMsg{metric: m} })
	case picker.Filtered:
		p.draw()
		p.body.SetOffset(0)
		p.showCursor()
	case picker.Moved:
		p.draw()
		p.showCursor()
	}
	return p, cmd
}

func (p *metricPicker) boxWidth() int { return max(40, min(100, p.Width-2)) }

func (p *metricPicker) innerWidth() int { return p.boxWidth() - 4 }

// bodyHeight is the lines of the list inside the box.
func (p *metricPicker) bodyHeight() int { return max(4, min(40, p.Height-2)-6) }

// draw lays the matches' lines out at the box's width into the body, the position kept: a
// theme's header (a blank line above it but the first) before each run of its metrics,
// each metric's name (the matched characters marked, the cursor's selected) and its
// description, wrapped.
func (p *metricPicker) draw() {
	st := p.ctx.Styles
	w := p.innerWidth()
	dw := max(10, w-6)
	shown := p.pick.Shown()
	var lines []string
	p.top = make([]int, len(shown))
	for i, mt := range shown {
		info := p.all[mt.Item]
		if i == 0 || p.group(i-1) != info.Group {
			if i > 0 {
				lines = append(lines, "")
			}
			p.top[i] = len(lines)
			lines = append(lines, st.Section.Render(layout.Pad(info.Group, w)))
		} else {
			p.top[i] = len(lines)
		}
		name := string(info.Metric)
		marks := mt.Runes[:picker.Below(mt.Runes, utf8.RuneCountInString(name))]
		base, prefix, desc := st.Base, "  ", st.Muted
		if i == p.pick.Cursor() {
			base, prefix, desc = st.Selected, "▸ ", st.Selected
		}
		lines = append(lines, picker.Cell(prefix+name, picker.Shift(marks, 2), w, base, st.Match))
		for _, d := range strings.Split(ansi.Wordwrap(describe(info), dw, ""), "\n") {
			lines = append(lines, desc.Render(layout.Pad("      "+d, w)))
		}
	}
	p.body.SetLines(lines)
}

// showCursor scrolls the cursor's metric into view, with its theme's header when it is
// the theme's first.
func (p *metricPicker) showCursor() {
	i := p.pick.Cursor()
	if i < 0 || i >= len(p.top) {
		return
	}
	end := len(p.body.Lines())
	if i+1 < len(p.top) {
		end = p.top[i+1]
	}
	p.body.Show(p.top[i], end)
}

// View renders the box with the visible part of the list.
func (p *metricPicker) View() string {
	st := p.ctx.Styles
	k := p.ctx.Keys
	w := p.innerWidth()
	group := k.NextPane.Help().Key + "/" + k.PrevPane.Help().Key + " group · "
	hint := p.pick.Keys("pick", "cancel")
	if full := strings.Replace(hint, " move · ", " move · "+group, 1); ansi.StringWidth(full) <= w {
		hint = full
	}
	title := "Pick a metric"
	if n := len(p.pick.Shown()); n != len(p.all) {
		title += fmt.Sprintf(" · %d of %d metrics", n, len(p.all))
	}
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render(title))
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(layout.Pad(hint, w)))
	b.WriteString("\n")
	b.WriteString(layout.Pad(p.pick.Field(), w))
	b.WriteString("\n")
	if len(p.pick.Shown()) == 0 {
		b.WriteString(layout.Block([]string{st.Muted.Render(layout.Pad("No metric matches “"+p.pick.Query()+"”.", w))}, w, p.bodyHeight()))
	} else {
		b.WriteString(p.body.View())
	}
	return st.Modal.Width(p.boxWidth()).Render(lipgloss.NewStyle().MaxWidth(w).Render(b.String()))
}
