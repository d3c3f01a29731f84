package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/parley-tui/parley/views/common"
)

// helpModal lists the bindings valid where the user is, built from keymap.
type helpModal struct {
	ctx    *common.Ctx
	title  string
	groups [][]key.Binding
	width  int
	height int
}

func newHelp(ctx *common.Ctx, title string, groups [][]key.Binding) *helpModal {
	return &helpModal{ctx: ctx, title: title, groups: groups}
}

func (h *helpModal) Init() tea.Cmd            { return nil }
func (h *helpModal) Inline() bool             { return false }
func (h *helpModal) SetSize(w, hh int)        { h.width, h.height = w, hh }
func (h *helpModal) ShortHelp() []key.Binding { return nil }

func (h *helpModal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		return h, h.ctx.CloseModal(h) // any key closes help
	}
	return h, nil
}

func (h *helpModal) View() string {
	st := h.ctx.Styles
	var cols []string
	colW := 0
	for _, g := range h.groups {
		var lines []string
		for _, b := range g {
			if !b.Enabled() || b.Help().Key == "" {
				continue
			}
			lines = append(lines, st.HelpKey.Render(common.Pad(b.Help().Key, 14))+st.HelpDesc.Render(b.Help().Desc))
		}
		if len(lines) == 0 {
			continue
		}
		col := strings.Join(lines, "\n")
		w, _ := blockSize(col)
		colW = max(colW, w)
		cols = append(cols, col)
	}
	// Lay the groups out in as many columns as fit.
	perRow := max(1, (h.width-4)/(colW+3))
	var rows []string
	for i := 0; i < len(cols); i += perRow {
		end := min(len(cols), i+perRow)
		var padded []string
		maxH := 0
		for _, c := range cols[i:end] {
			_, ch := blockSize(c)
			maxH = max(maxH, ch)
		}
		for _, c := range cols[i:end] {
			lines := strings.Split(c, "\n")
			padded = append(padded, common.Block(lines, colW+3, maxH))
		}
		rows = append(rows, common.JoinHorizontal(padded...))
	}
	body := st.ModalTitle.Render("Keys: "+h.title) + "\n\n" + strings.Join(rows, "\n\n") +
		"\n\n" + st.Muted.Render("Press any key to close.")
	return st.Modal.Render(body)
}
