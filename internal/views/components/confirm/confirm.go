// Package confirm is the yes/no modal in front of every destructive action: a yes key runs
// the action once, a no key or esc cancels, by the key map's one yes/no rule (keymap's
// IsYes: y or Y as bound, never enter unless yes is bound to it alone, which opens rows and
// submits forms and is pressed by habit). The caller writes the question (naming the item,
// or stating the count of marked items) with destructive wording; API text in it must
// already be sanitized.
package confirm

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
)

// Model is the confirmation modal.
type Model struct {
	ctx    *common.Ctx
	title  string
	body   string
	onYes  tea.Cmd
	width  int
	height int
	done   bool // answered: further keys do nothing (a second y never runs onYes twice)
}

// New returns a confirmation modal: title is the question's headline ("Delete contact?"),
// body says exactly what happens ("Delete contact “Anna” (#12)? This cannot be undone.").
// onYes runs after the modal closed, once; nothing runs on cancel.
func New(ctx *common.Ctx, title, body string, onYes tea.Cmd) common.Modal {
	return &Model{ctx: ctx, title: title, body: body, onYes: onYes}
}

// Init does nothing.
func (m *Model) Init() tea.Cmd { return nil }

// SetSize gives the area the modal may use.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// Inline is false: the question is a centered box.
func (m *Model) Inline() bool { return false }

// ShortHelp lists the modal's keys.
func (m *Model) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	yes := key.NewBinding(key.WithKeys(k.YesKeys()...), key.WithHelp(keymap.HelpKeys(k.YesKeys()), k.Yes.Help().Desc))
	return []key.Binding{yes, k.No, k.Back}
}

// Answered reports whether the user already said yes or no.
func (m *Model) Answered() bool { return m.done }

// Update handles a yes key (run onYes and close) and a no key or esc (close); nothing else.
func (m *Model) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok || m.done {
		return m, nil
	}
	k := m.ctx.Keys
	switch {
	case k.IsYes(km):
		m.done = true
		if m.onYes == nil {
			return m, m.ctx.CloseModal(m)
		}
		return m, tea.Sequence(m.ctx.CloseModal(m), m.onYes)
	case k.IsNo(km):
		m.done = true
		return m, m.ctx.CloseModal(m)
	}
	return m, nil
}

func (m *Model) boxWidth() int {
	w := 60
	if m.width > 0 {
		w = min(w, m.width-2)
	}
	return max(24, w)
}

// View renders the box: the headline, the question and the keys.
func (m *Model) View() string {
	st := m.ctx.Styles
	k := m.ctx.Keys
	inner := m.boxWidth() - 4
	var b strings.Builder
	b.WriteString(st.Warning.Render(ansi.Truncate("⚠ "+m.title, inner, "…")))
	b.WriteString("\n\n")
	b.WriteString(m.bodyLines(inner))
	b.WriteString("\n\n")
	yes := st.HelpKey.Render(keymap.HelpKeys(k.YesKeys())) + " " + st.Error.Render(firstWord(m.title))
	no := st.HelpKey.Render(k.No.Help().Key+"/"+k.Back.Help().Key) + " " + st.HelpDesc.Render("cancel")
	b.WriteString(ansi.Truncate(yes+" · "+no, inner, "…"))
	return st.Modal.Width(m.boxWidth()).Render(b.String())
}

// bodyLines is the question wrapped to the box; when it is taller than the box may be (a
// very long name in it), its end is cut with an ellipsis so the box and its keys fit.
func (m *Model) bodyLines(w int) string {
	lines := strings.Split(ansi.Wrap(m.body, w, ""), "\n")
	if m.height > 0 {
		// The frame, the headline, two blank lines and the keys.
		room := max(1, m.height-m.ctx.Styles.Modal.GetVerticalFrameSize()-4)
		if len(lines) > room {
			lines = lines[:room]
			lines[room-1] = ansi.Truncate(lines[room-1], w-1, "") + "…"
		}
	}
	return strings.Join(lines, "\n")
}

// firstWord is the action of the headline in lower case ("Delete contact?" → "delete"),
// so the yes key reads like the action it takes.
func firstWord(title string) string {
	f := strings.Fields(title)
	if len(f) == 0 {
		return "go ahead"
	}
	return strings.ToLower(strings.TrimRight(f[0], "?!.:"))
}
