package analytics

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// rangeMenu lists the date range presets with their dates and cost, and "Custom…".
type rangeMenu struct {
	ctx    *common.Ctx
	cur    Range
	query  client.AnalyticsQuery // the current query, to price each choice
	items  []Preset              // Presets then PresetCustom
	cursor int
	now    time.Time
	width  int
}

func newRangeMenu(ctx *common.Ctx, cur Range, q client.AnalyticsQuery) *rangeMenu {
	m := &rangeMenu{ctx: ctx, cur: cur, query: q, now: ctx.ServerNow()} // days by the server's clock
	m.items = append(append(m.items, Presets...), PresetCustom)
	for i, p := range m.items {
		if p == cur.Preset {
			m.cursor = i
		}
	}
	return m
}

func (m *rangeMenu) Init() tea.Cmd    { return nil }
func (m *rangeMenu) Inline() bool     { return false }
func (m *rangeMenu) SetSize(w, _ int) { m.width = w }
func (m *rangeMenu) Selected() Preset { return m.items[m.cursor] }
func (m *rangeMenu) boxWidth() int    { return max(40, min(84, m.width-2)) }
func (m *rangeMenu) innerWidth() int  { return m.boxWidth() - 4 }

// ShortHelp lists the menu's keys.
func (m *rangeMenu) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{k.Down, k.Up,
		key.NewBinding(key.WithKeys(k.Open.Keys()...), key.WithHelp(k.Open.Help().Key, "choose")),
		key.NewBinding(key.WithKeys(k.Back.Keys()...), key.WithHelp(k.Back.Help().Key, "cancel")),
	}
}

// Update moves, chooses or cancels. "Custom…" opens the custom range form.
func (m *rangeMenu) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	k := m.ctx.Keys
	switch {
	case key.Matches(km, k.Back):
		return m, tea.Sequence(m.ctx.CloseModal(m), func() tea.Msg { return menuClosedMsg{} })
	case key.Matches(km, k.Open):
		p := m.Selected()
		if p == PresetCustom {
			form := customForm(m.ctx, m.cur.Period(m.now))
			return m, tea.Sequence(m.ctx.CloseModal(m), m.ctx.OpenModal(form), func() tea.Msg { return menuClosedMsg{} })
		}
		return m, tea.Sequence(m.ctx.CloseModal(m), func() tea.Msg { return rangePickedMsg{r: Range{Preset: p}} })
	case key.Matches(km, k.Down):
		m.cursor = min(len(m.items)-1, m.cursor+1)
	case key.Matches(km, k.Up):
		m.cursor = max(0, m.cursor-1)
	case key.Matches(km, k.Top):
		m.cursor = 0
	case key.Matches(km, k.Bottom):
		m.cursor = len(m.items) - 1
	}
	return m, nil
}

// View renders the menu: each preset with its dates, days, chart step and cost.
func (m *rangeMenu) View() string {
	st := m.ctx.Styles
	k := m.ctx.Keys
	w := m.innerWidth()
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render("Date range (UTC)"))
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(layout.Pad(k.Up.Help().Key+"/"+k.Down.Help().Key+" move · "+k.Open.Help().Key+" choose · "+k.Back.Help().Key+" cancel", w)))
	b.WriteString("\n\n")
	for i, p := range m.items {
		var line string
		if p == PresetCustom {
			line = layout.Pad("Custom…", 14) + "from/to dates, optionally with times"
			if m.cur.Preset == PresetCustom {
				line += " (now " + m.cur.Custom.String() + ")"
			}
		} else {
			per := p.Period(m.now)
			line = layout.Pad(p.Label(), 14) + layout.Pad(per.String(), 25) + layout.Pad(plural(per.Days(), "day"), 9) +
				"per " + per.Granularity().String() + " · " + CostText(len(Plan(per.Apply(m.query))))
		}
		if i == m.cursor {
			line = st.Selected.Render(layout.Pad("▸ "+line, w))
		} else {
			line = layout.Pad("  "+line, w)
		}
		b.WriteString(line)
		if i < len(m.items)-1 {
			b.WriteString("\n")
		}
	}
	return st.Modal.Width(m.boxWidth()).Render(lipgloss.NewStyle().MaxWidth(w).Render(b.String()))
}
