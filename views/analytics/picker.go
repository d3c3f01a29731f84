package analytics

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/layout"
	"github.com/parley-tui/parley/views/prompt"
)

// pickItem is a line of the metric picker: a group header or a metric (two lines).
type pickItem struct {
	header string
	info   client.MetricInfo
}

func (it pickItem) isHeader() bool { return it.header != "" }

// picker is the metric picker: every metric of the spec grouped by theme, each with what it
// measures and what value and value_str mean. up/down move, tab/shift+tab jump to the
// next/previous group, / filters by words of the name, theme or description, enter picks,
// esc clears the filter, then cancels.
type picker struct {
	ctx    *common.Ctx
	all    []pickItem // every group and metric
	items  []pickItem // the ones shown: all, or those matching the filter with their headers
	filter textinput.Model
	typing bool // the filter input has the keys
	cursor int  // index into items, always a metric (0 with no items)
	offset int  // first visible line
	width  int
	height int
	descs  [][]string // wrapped descriptions per item, for the current width
}

func newPicker(ctx *common.Ctx, current client.Metric) *picker {
	p := &picker{ctx: ctx}
	for _, g := range client.MetricGroups {
		p.all = append(p.all, pickItem{header: g})
		for _, info := range client.Metrics {
			if info.Group == g {
				p.all = append(p.all, pickItem{info: info})
			}
		}
	}
	p.filter = textinput.New()
	p.filter.Prompt = "Filter: "
	p.filter.SetStyles(prompt.InputStyles(ctx))
	p.filter.CharLimit = 60
	p.items = p.all
	p.cursor = 1
	p.selectMetric(current)
	return p
}

// selectMetric puts the cursor on m when it is shown, else on the first metric shown.
func (p *picker) selectMetric(m client.Metric) {
	p.cursor = min(1, len(p.items)-1)
	for i, it := range p.items {
		if !it.isHeader() && it.info.Metric == m {
			p.cursor = i
		}
	}
	p.cursor = max(0, p.cursor)
}

// matches tells whether every word of the filter occurs in the metric's name (underscores
// read as spaces too), theme or description, ignoring case.
func matches(info client.MetricInfo, words []string) bool {
	name := string(info.Metric)
	hay := strings.ToLower(name + " " + strings.ReplaceAll(name, "_", " ") + " " + info.Group + " " + describe(info))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// applyFilter shows the metrics matching the filter text under their group headers, keeping
// the selected metric when it still shows.
func (p *picker) applyFilter() {
	var current client.Metric
	if p.hasMetric() {
		current = p.Selected()
	}
	words := strings.Fields(strings.ToLower(p.filter.Value()))
	if len(words) == 0 {
		p.items = p.all
	} else {
		p.items = nil
		header := -1
		for i, it := range p.all {
			if it.isHeader() {
				header = i
				continue
			}
			if !matches(it.info, words) {
				continue
			}
			if header >= 0 {
				p.items = append(p.items, p.all[header])
				header = -1
			}
			p.items = append(p.items, it)
		}
	}
	p.selectMetric(current)
	p.offset = 0
	p.layout()
}

// hasMetric is false when the filter matches nothing.
func (p *picker) hasMetric() bool {
	return p.cursor < len(p.items) && !p.items[p.cursor].isHeader()
}

// Init does nothing.
func (p *picker) Init() tea.Cmd { return nil }

// Inline is false: the picker is a centered box.
func (p *picker) Inline() bool { return false }

// SetSize gives the area the picker may use.
func (p *picker) SetSize(w, h int) {
	p.width, p.height = w, h
	p.filter.SetWidth(max(10, p.innerWidth()-len(p.filter.Prompt)-1))
	p.layout()
}

// layout wraps the descriptions of the items shown to the box's width.
func (p *picker) layout() {
	dw := max(10, p.innerWidth()-6)
	p.descs = make([][]string, len(p.items))
	for i, it := range p.items {
		if !it.isHeader() {
			p.descs[i] = strings.Split(ansi.Wordwrap(describe(it.info), dw, ""), "\n")
		}
	}
	p.scroll()
}

// itemLines is how many lines item i takes (a metric: its name and its description).
func (p *picker) itemLines(i int) int {
	if p.items[i].isHeader() {
		if i > 0 {
			return 2 // a blank line, then the header
		}
		return 1
	}
	if i < len(p.descs) && len(p.descs[i]) > 0 {
		return 1 + len(p.descs[i])
	}
	return 2
}

// ShortHelp lists the picker's keys, the most used first.
func (p *picker) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	return []key.Binding{k.Down, k.Up,
		key.NewBinding(key.WithKeys(k.Open.Keys()...), key.WithHelp(k.Open.Help().Key, "pick")),
		key.NewBinding(key.WithKeys(k.Search.Keys()...), key.WithHelp(k.Search.Help().Key, "filter")),
		key.NewBinding(key.WithKeys(k.NextPane.Keys()...), key.WithHelp(k.NextPane.Help().Key+"/"+k.PrevPane.Help().Key, "next/previous group")),
		key.NewBinding(key.WithKeys(k.Back.Keys()...), key.WithHelp(k.Back.Help().Key, p.backHelp())),
	}
}

// backHelp says what esc does now.
func (p *picker) backHelp() string {
	if p.typing || p.filter.Value() != "" {
		return "clear filter"
	}
	return "cancel"
}

// Selected is the metric under the cursor ("" when the filter matches nothing).
func (p *picker) Selected() client.Metric {
	if !p.hasMetric() {
		return ""
	}
	return p.items[p.cursor].info.Metric
}

// move goes d metrics down (negative: up), skipping headers, stopping at the ends.
func (p *picker) move(d int) {
	step := 1
	if d < 0 {
		step, d = -1, -d
	}
	for ; d > 0; d-- {
		i := p.cursor + step
		for i >= 0 && i < len(p.items) && p.items[i].isHeader() {
			i += step
		}
		if i < 0 || i >= len(p.items) {
			return
		}
		p.cursor = i
	}
}

// jump moves to the first metric of the next (d=1) or previous (d=-1) group, wrapping.
func (p *picker) jump(d int) {
	if !p.hasMetric() {
		return
	}
	head := p.cursor
	for head >= 0 && !p.items[head].isHeader() {
		head--
	}
	i := head
	for {
		i = (i + d + len(p.items)) % len(p.items)
		if p.items[i].isHeader() {
			break
		}
	}
	p.cursor = i + 1
}

// Update moves, picks or cancels.
func (p *picker) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	k := p.ctx.Keys
	if p.typing && common.Typed(km) {
		return p, p.typeFilter(km) // text, whatever key it is bound to elsewhere
	}
	switch {
	case key.Matches(km, k.Back) && (p.typing || p.filter.Value() != ""):
		p.typing = false
		p.filter.Blur()
		p.filter.SetValue("")
		p.applyFilter()
	case key.Matches(km, k.Back):
		return p, tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return menuClosedMsg{} })
	case key.Matches(km, k.Open):
		if !p.hasMetric() {
			return p, nil
		}
		m := p.Selected()
		return p, tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return metricPickedMsg{metric: m} })
	case p.typing && key.Matches(km, k.Down):
		p.move(1)
	case p.typing && key.Matches(km, k.Up):
		p.move(-1)
	case p.typing && key.Matches(km, k.NextPane):
		p.jump(1)
		p.offset = max(0, p.lineOf(p.cursor-1))
	case p.typing && key.Matches(km, k.PrevPane):
		p.jump(-1)
		p.offset = max(0, p.lineOf(p.cursor-1))
	case p.typing:
		return p, p.typeFilter(km)
	case key.Matches(km, k.Search):
		p.typing = true
		return p, p.filter.Focus()
	case !p.hasMetric():
	case key.Matches(km, k.Down):
		p.move(1)
	case key.Matches(km, k.Up):
		p.move(-1)
	case key.Matches(km, k.PageDown):
		p.move(max(1, p.bodyHeight()/3))
	case key.Matches(km, k.PageUp):
		p.move(-max(1, p.bodyHeight()/3))
	case key.Matches(km, k.Top):
		p.cursor = min(1, len(p.items)-1)
	case key.Matches(km, k.Bottom):
		p.cursor = len(p.items) - 1
	case key.Matches(km, k.NextPane):
		p.jump(1)
		p.offset = p.lineOf(p.cursor - 1) // the group's header on top
	case key.Matches(km, k.PrevPane):
		p.jump(-1)
		p.offset = p.lineOf(p.cursor - 1)
	}
	p.scroll()
	return p, nil
}

// typeFilter edits the filter text with km.
func (p *picker) typeFilter(km tea.KeyPressMsg) tea.Cmd {
	before := p.filter.Value()
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(km)
	if p.filter.Value() != before {
		p.applyFilter()
	}
	p.scroll()
	return cmd
}

func (p *picker) boxWidth() int { return max(40, min(100, p.width-2)) }

func (p *picker) innerWidth() int { return p.boxWidth() - 4 }

// bodyHeight is the lines of the list inside the box.
func (p *picker) bodyHeight() int { return max(4, min(40, p.height-2)-6) }

// lineOf is the first line of item i in the rendered list (for a header after the first,
// the header itself, not the blank line above it).
func (p *picker) lineOf(i int) int {
	n := 0
	for j := 0; j < i && j < len(p.items); j++ {
		n += p.itemLines(j)
	}
	if i < len(p.items) && p.items[i].isHeader() && i > 0 {
		n++
	}
	return n
}

// scroll keeps the cursor's item visible, with its group header when it is the group's
// first metric (Update and SetSize only).
func (p *picker) scroll() {
	if !p.hasMetric() {
		p.offset = 0
		return
	}
	bh := p.bodyHeight()
	start := p.lineOf(p.cursor)
	if p.cursor > 0 && p.items[p.cursor-1].isHeader() {
		start = p.lineOf(p.cursor - 1)
	}
	end := p.lineOf(p.cursor) + p.itemLines(p.cursor)
	if start < p.offset {
		p.offset = start
	}
	if end > p.offset+bh {
		p.offset = end - bh
	}
	total := p.lineOf(len(p.items))
	p.offset = max(0, min(p.offset, max(0, total-bh)))
}

// lines renders every item.
func (p *picker) lines(w int) (out []string) {
	st := p.ctx.Styles
	for i, it := range p.items {
		if it.isHeader() {
			if i > 0 {
				out = append(out, "")
			}
			out = append(out, st.Section.Render(layout.Pad(it.header, w)))
			continue
		}
		name := layout.Pad("  "+string(it.info.Metric), w)
		descs := []string{describe(it.info)}
		if i < len(p.descs) && len(p.descs[i]) > 0 {
			descs = p.descs[i]
		}
		sel := i == p.cursor
		if sel {
			name = st.Selected.Render(layout.Pad("▸ "+string(it.info.Metric), w))
		}
		out = append(out, name)
		for _, d := range descs {
			d = layout.Pad("      "+d, w)
			if sel {
				out = append(out, st.Selected.Render(d))
			} else {
				out = append(out, st.Muted.Render(d))
			}
		}
	}
	return out
}

// shown counts the metrics shown.
func (p *picker) shown() int {
	n := 0
	for _, it := range p.items {
		if !it.isHeader() {
			n++
		}
	}
	return n
}

// View renders the box with the visible part of the list.
func (p *picker) View() string {
	st := p.ctx.Styles
	k := p.ctx.Keys
	w := p.innerWidth()
	all := p.lines(w)
	bh := p.bodyHeight()
	off := max(0, min(p.offset, len(all)))
	body := all[off:min(len(all), off+bh)]
	hint := k.Up.Help().Key + "/" + k.Down.Help().Key + " move · " + k.NextPane.Help().Key + "/" + k.PrevPane.Help().Key +
		" group · " + k.Search.Help().Key + " filter · " + k.Open.Help().Key + " pick · " + k.Back.Help().Key + " " + p.backHelp()
	if p.typing {
		hint = "type to filter · ↑/↓ move · " + k.Open.Help().Key + " pick · " + k.Back.Help().Key + " clear filter"
	}
	if ansi.StringWidth(hint) > w { // narrow: the moves go (the arrows say themselves)
		hint = k.NextPane.Help().Key + " group · " + k.Search.Help().Key + " filter · " + k.Open.Help().Key + " pick · " +
			k.Back.Help().Key + " " + p.backHelp()
		if p.typing {
			hint = "type to filter · " + k.Open.Help().Key + " pick · " + k.Back.Help().Key + " clear filter"
		}
	}
	title := "Pick a metric"
	if len(p.items) != len(p.all) {
		title += fmt.Sprintf(" · %d of %d metrics", p.shown(), len(client.Metrics))
	}
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render(title))
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(layout.Pad(hint, w)))
	b.WriteString("\n")
	switch {
	case p.typing || p.filter.Value() != "":
		b.WriteString(layout.Pad(p.filter.View(), w))
	default:
		b.WriteString(layout.Pad("", w))
	}
	b.WriteString("\n")
	if len(p.items) == 0 {
		body = []string{st.Muted.Render(layout.Pad("No metric matches “"+p.filter.Value()+"”.", w))}
	}
	b.WriteString(layout.Block(body, w, bh))
	return st.Modal.Width(p.boxWidth()).Render(lipgloss.NewStyle().MaxWidth(w).Render(b.String()))
}
