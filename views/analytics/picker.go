package analytics

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
)

// pickItem is a line of the metric picker: a group header or a metric (two lines).
type pickItem struct {
	header string
	info   client.MetricInfo
}

func (it pickItem) isHeader() bool { return it.header != "" }

// picker is the metric picker: every metric of the spec grouped by theme, each with what it
// measures and what value and value_str mean. up/down move, tab/shift+tab jump to the
// next/previous group, enter picks, esc cancels.
type picker struct {
	ctx    *common.Ctx
	items  []pickItem
	cursor int // index into items, always a metric
	offset int // first visible line
	width  int
	height int
	descs  [][]string // wrapped descriptions per item, for the current width
}

func newPicker(ctx *common.Ctx, current client.Metric) *picker {
	p := &picker{ctx: ctx}
	for _, g := range client.MetricGroups {
		p.items = append(p.items, pickItem{header: g})
		for _, info := range client.Metrics {
			if info.Group == g {
				p.items = append(p.items, pickItem{info: info})
			}
		}
	}
	p.cursor = 1
	for i, it := range p.items {
		if !it.isHeader() && it.info.Metric == current {
			p.cursor = i
		}
	}
	return p
}

// Init does nothing.
func (p *picker) Init() tea.Cmd { return nil }

// Inline is false: the picker is a centered box.
func (p *picker) Inline() bool { return false }

// SetSize gives the area the picker may use.
func (p *picker) SetSize(w, h int) {
	p.width, p.height = w, h
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

// ShortHelp lists the picker's keys.
func (p *picker) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	return []key.Binding{k.Up, k.Down,
		key.NewBinding(key.WithKeys(k.NextPane.Keys()...), key.WithHelp(k.NextPane.Help().Key+"/"+k.PrevPane.Help().Key, "next/previous group")),
		key.NewBinding(key.WithKeys(k.Open.Keys()...), key.WithHelp(k.Open.Help().Key, "pick")),
		key.NewBinding(key.WithKeys(k.Back.Keys()...), key.WithHelp(k.Back.Help().Key, "cancel")),
	}
}

// Selected is the metric under the cursor.
func (p *picker) Selected() client.Metric { return p.items[p.cursor].info.Metric }

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
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	k := p.ctx.Keys
	switch {
	case key.Matches(km, k.Back):
		return p, tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return menuClosedMsg{} })
	case key.Matches(km, k.Open):
		m := p.Selected()
		return p, tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return metricPickedMsg{metric: m} })
	case key.Matches(km, k.Down):
		p.move(1)
	case key.Matches(km, k.Up):
		p.move(-1)
	case key.Matches(km, k.PageDown):
		p.move(max(1, p.bodyHeight()/3))
	case key.Matches(km, k.PageUp):
		p.move(-max(1, p.bodyHeight()/3))
	case key.Matches(km, k.Top):
		p.cursor = 1
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
			out = append(out, st.Section.Render(common.Pad(it.header, w)))
			continue
		}
		name := common.Pad("  "+string(it.info.Metric), w)
		descs := []string{describe(it.info)}
		if i < len(p.descs) && len(p.descs[i]) > 0 {
			descs = p.descs[i]
		}
		sel := i == p.cursor
		if sel {
			name = st.Selected.Render(common.Pad("▸ "+string(it.info.Metric), w))
		}
		out = append(out, name)
		for _, d := range descs {
			d = common.Pad("      "+d, w)
			if sel {
				out = append(out, st.Selected.Render(d))
			} else {
				out = append(out, st.Muted.Render(d))
			}
		}
	}
	return out
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
		" next/previous group · " + k.Open.Help().Key + " pick · " + k.Back.Help().Key + " cancel"
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render("Pick a metric"))
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(common.Pad(hint, w)))
	b.WriteString("\n\n")
	b.WriteString(common.Block(body, w, bh))
	return st.Modal.Width(p.boxWidth() - 2).Render(lipgloss.NewStyle().MaxWidth(w).Render(b.String()))
}
