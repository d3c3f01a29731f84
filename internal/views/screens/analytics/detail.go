package analytics

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
)

// field is a line of the data point detail: a name and its value (sanitized text).
type field struct{ name, value string }

// pointDetail is a box with every field of one data point, for what the table cuts or
// leaves out. It holds only text made when it opened. esc or enter closes it.
type pointDetail struct {
	ctx    *common.Ctx
	title  string
	fields []field
	width  int
	height int
}

// detailFields lists every field of point i of the current results. Text from the API is
// already sanitized (value_str when the results came in, operator names when they were
// learnt).
func (m *Model) detailFields(i int) []field {
	p := &m.cur.points[i]
	id := func(v *int64) string {
		if v == nil {
			return "—"
		}
		return strconv.FormatInt(*v, 10)
	}
	flag := func(v *bool) string {
		if v == nil {
			return "null"
		}
		return strconv.FormatBool(*v)
	}
	widgets := "—"
	if len(p.WidgetIDs) > 0 {
		widgets = FormatIDs(p.WidgetIDs)
	}
	op := "—"
	if p.OperatorID != nil {
		op = "#" + strconv.FormatInt(*p.OperatorID, 10)
		if n := m.operatorLabel(*p.OperatorID, p.OrganizationID); !strings.HasPrefix(n, "#") {
			op = n + " (" + op + ")"
		}
	}
	value := "—"
	if p.Value != nil {
		value = m.cell("value", i, 0)
		if raw := FormatID(*p.Value); raw != value {
			value += " (" + raw + ")"
		}
	}
	str := "—"
	if p.ValueStr != nil {
		str = m.cur.strs[i]
		if str == "" {
			str = `"" (empty)`
		}
	}
	kind := "human"
	if p.IsChatbotMetric {
		kind = "bot"
	}
	return []field{
		{"time (UTC)", p.Time.UTC().Format("2006-01-02 15:04:05")},
		{"value", value},
		{"value_str", str},
		{"operator", op},
		{"operator group", id(p.OperatorGroupID)},
		{"organization", strconv.FormatInt(p.OrganizationID, 10)},
		{"widgets", widgets},
		{"conversation", id(p.ConversationID)},
		{"part", id(p.ConversationPartID)},
		{"session", id(p.ConversationSessionID)},
		{"operator kind", kind + " (is_chatbot_metric " + strconv.FormatBool(p.IsChatbotMetric) + ")"},
		{"interaction", Interaction(p) + " (chatbot " + flag(p.ChatbotInteraction) + ", human " + flag(p.HumanInteraction) + ")"},
	}
}

// openDetail opens the detail of the data point under the table's cursor.
func (m *Model) openDetail() tea.Cmd {
	n := len(m.Points())
	if n == 0 {
		return nil
	}
	i := min(max(0, m.table.Cursor), n-1)
	title := fmt.Sprintf("Data point %s of %s · %s", layout.Count(i+1), layout.Count(n), m.cur.query.Metric)
	return m.ctx.OpenModal(&pointDetail{ctx: m.ctx, title: title, fields: m.detailFields(i)})
}

func (d *pointDetail) Init() tea.Cmd     { return nil }
func (d *pointDetail) Inline() bool      { return false }
func (d *pointDetail) SetSize(w, h int)  { d.width, d.height = w, h }
func (d *pointDetail) boxWidth() int     { return max(30, min(84, d.width-2)) }
func (d *pointDetail) innerWidth() int   { return d.boxWidth() - 4 }
func (d *pointDetail) labelWidth() int   { return 16 }
func (d *pointDetail) valueWidth() int   { return max(8, d.innerWidth()-d.labelWidth()) }
func (d *pointDetail) closeKeys() string { return d.ctx.Keys.Back.Help().Key }

// ShortHelp lists the detail's keys.
func (d *pointDetail) ShortHelp() []key.Binding {
	k := d.ctx.Keys
	return []key.Binding{key.NewBinding(key.WithKeys(k.Back.Keys()...), key.WithHelp(k.Back.Help().Key, "close"))}
}

// Update closes the detail on esc or enter.
func (d *pointDetail) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	if k := d.ctx.Keys; key.Matches(km, k.Back) || key.Matches(km, k.Open) {
		return d, d.ctx.CloseModal(d)
	}
	return d, nil
}

// View renders the box: each field on its line, long values wrapped below their name;
// when the box would be taller than the screen, the longest value is cut with "…".
func (d *pointDetail) View() string {
	st := d.ctx.Styles
	w, lw, vw := d.innerWidth(), d.labelWidth(), d.valueWidth()
	fields := d.fields
	wrapped := make([][]string, len(fields))
	total := 0
	for i, f := range fields {
		wrapped[i] = strings.Split(ansi.Wrap(f.value, vw, ""), "\n")
		total += len(wrapped[i])
	}
	if d.height > 0 {
		// The frame, the title, a blank line, a blank line and the keys.
		room := max(1, d.height-st.Modal.GetVerticalFrameSize()-4)
		// Too short: the null fields go first, from the last one.
		for i := len(fields) - 1; i >= 0 && total > room; i-- {
			if fields[i].value == "—" {
				fields = slices.Delete(slices.Clone(fields), i, i+1)
				wrapped = slices.Delete(wrapped, i, i+1)
				total--
			}
		}
		for total > room {
			longest := 0
			for i := range wrapped {
				if len(wrapped[i]) > len(wrapped[longest]) {
					longest = i
				}
			}
			lines := wrapped[longest]
			if len(lines) <= 1 {
				break
			}
			lines = lines[:len(lines)-1]
			lines[len(lines)-1] = ansi.Truncate(lines[len(lines)-1], vw-1, "") + "…"
			wrapped[longest] = lines
			total--
		}
	}
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render(ansi.Truncate(d.title, w, "…")))
	b.WriteString("\n\n")
	for i, f := range fields {
		for j, l := range wrapped[i] {
			name := ""
			if j == 0 {
				name = f.name
			}
			b.WriteString(st.Label.Render(layout.Pad(name, lw)) + l + "\n")
		}
	}
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(ansi.Truncate(d.closeKeys()+" close", w, "…")))
	return st.Modal.Width(d.boxWidth()).Render(b.String())
}

// detailNeeded reports whether enter should open the detail: the table shows results.
func (m *Model) detailNeeded() bool {
	return m.left == viewTable && m.cur != nil && len(m.cur.points) > 0
}

var _ common.Modal = (*pointDetail)(nil)
