// Package forms hosts charmbracelet/huh forms inside parley's modal stack: tab/shift+tab
// between fields, visible validation, esc cancels (asking first when something was typed,
// if the form wants that), a failed submit keeps everything typed and shows the server's
// detail, and a double submit never sends two requests.
package forms

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/views/common"
)

// Submit is called once the user completes the form. It validates what needs more than a
// field validator and starts the task: it returns the task id it will report in a
// common.TaskDoneMsg and the command that runs it. A taskID of 0 means the work is done
// (the command only notifies) and the modal closes at once. A non-nil error is shown in the
// form, which stays open with its input.
type Submit func() (taskID int, cmd tea.Cmd, err error)

// Options configure a Modal.
type Options struct {
	Title string
	// Build returns the form over the caller's bound values. It is called again after a
	// failed submit, so everything typed is kept (huh binds fields to pointers).
	Build func() *huh.Form
	// Submit starts the work.
	Submit Submit
	// Dirty, when set, reports whether esc would discard typed text; the modal then asks
	// before closing.
	Dirty func() bool
	// Width is the preferred width of the box (0 = 64).
	Width int
	// Success is the toast shown when the task succeeds ("" = none).
	Success string
	// Keys extra submit keys (for example ctrl+s for a multi-line note).
	SubmitKeys []string
}

// Modal is a huh form in a centered box.
type Modal struct {
	ctx        *common.Ctx
	opts       Options
	form       *huh.Form
	width      int
	height     int
	submitting bool
	taskID     int
	err        string
	confirming bool // asking whether to discard typed text
	submitKey  key.Binding
}

// New builds a form modal.
func New(ctx *common.Ctx, opts Options) *Modal {
	m := &Modal{ctx: ctx, opts: opts}
	if len(opts.SubmitKeys) > 0 {
		m.submitKey = key.NewBinding(key.WithKeys(opts.SubmitKeys...), key.WithHelp(strings.Join(opts.SubmitKeys, "/"), "submit"))
	}
	m.form = m.build()
	return m
}

// Theme returns the huh theme matching parley's styles.
func Theme(ctx *common.Ctx) *huh.Theme {
	if ctx.Styles.Mono {
		return huh.ThemeBase()
	}
	return huh.ThemeCharm()
}

func (m *Modal) build() *huh.Form {
	f := m.opts.Build().WithTheme(Theme(m.ctx)).WithShowHelp(true).WithShowErrors(true)
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithDisabled()) // esc/ctrl+c are handled by the modal
	f = f.WithKeyMap(km)
	if m.width > 0 {
		f = f.WithWidth(m.innerWidth())
	}
	if m.height > 0 && m.naturalHeight() > m.height-6 {
		f = f.WithHeight(max(6, m.height-6)) // taller than the screen: huh scrolls the group
	}
	return f
}

// naturalHeight is how many lines the form takes without a height limit (a huh form given
// a height pads every group to it, which stretched short forms on tall terminals).
func (m *Modal) naturalHeight() int {
	f := m.opts.Build().WithTheme(Theme(m.ctx)).WithShowHelp(true).WithShowErrors(true)
	if m.width > 0 {
		f = f.WithWidth(m.innerWidth())
	}
	_ = f.Init()
	return strings.Count(f.View(), "\n") + 1
}

// Err is the error shown in the form ("" = none).
func (m *Modal) Err() string { return m.err }

// Submitting reports a task in flight.
func (m *Modal) Submitting() bool { return m.submitting }

// Form is the underlying huh form.
func (m *Modal) Form() *huh.Form { return m.form }

func (m *Modal) boxWidth() int {
	w := m.opts.Width
	if w <= 0 {
		w = 64
	}
	if m.width > 0 {
		w = min(w, m.width-2)
	}
	return max(30, w)
}

func (m *Modal) innerWidth() int { return m.boxWidth() - 4 }

// Init starts the form.
func (m *Modal) Init() tea.Cmd { return m.form.Init() }

// SetSize gives the area the modal may use.
func (m *Modal) SetSize(w, h int) {
	m.width, m.height = w, h
	m.form = m.form.WithWidth(m.innerWidth())
	if m.naturalHeight() > h-6 {
		m.form = m.form.WithHeight(max(6, h-6))
	}
}

// Inline is false: forms are centered boxes.
func (m *Modal) Inline() bool { return false }

// ShortHelp lists the modal's own keys.
func (m *Modal) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	out := []key.Binding{
		key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab/shift+tab", "next/previous field")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next/submit")),
	}
	if m.opts.SubmitKeys != nil {
		out = append(out, m.submitKey)
	}
	return append(out, key.NewBinding(key.WithKeys(k.Back.Keys()...), key.WithHelp(k.Back.Help().Key, "cancel")))
}

// Update routes keys to the form and handles completion and the task's result.
func (m *Modal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case common.TaskDoneMsg:
		if !m.submitting || msg.TaskID != m.taskID {
			return m, nil
		}
		m.submitting = false
		if msg.Err != nil {
			m.err = common.ErrorText(msg.Err)
			m.form = m.build() // same bound values: nothing typed is lost
			return m, m.form.Init()
		}
		cmds := []tea.Cmd{m.ctx.CloseModal(m)}
		if m.opts.Success != "" {
			cmds = append(cmds, common.Toast(m.opts.Success))
		}
		return m, tea.Batch(cmds...)
	case tea.WindowSizeMsg:
		return m, nil // the root sizes modals through SetSize
	case tea.KeyMsg:
		if m.confirming {
			switch msg.String() {
			case "y", "Y":
				return m, m.ctx.CloseModal(m)
			default:
				m.confirming = false
				return m, nil
			}
		}
		if key.Matches(msg, m.ctx.Keys.Back) {
			if m.submitting {
				return m, nil
			}
			if m.opts.Dirty != nil && m.opts.Dirty() {
				m.confirming = true
				return m, nil
			}
			return m, m.ctx.CloseModal(m)
		}
		if m.submitting {
			return m, nil // a second submit never sends a second request
		}
		if len(m.opts.SubmitKeys) > 0 && key.Matches(msg, m.submitKey) {
			return m.complete()
		}
	}
	if m.submitting {
		return m, nil
	}
	f, cmd := m.form.Update(msg)
	if ff, ok := f.(*huh.Form); ok {
		m.form = ff
	}
	if m.form.State == huh.StateCompleted {
		mm, c2 := m.complete()
		return mm, tea.Batch(cmd, c2)
	}
	return m, cmd
}

// complete runs Submit once.
func (m *Modal) complete() (common.Modal, tea.Cmd) {
	if m.submitting {
		return m, nil
	}
	if errs := m.form.Errors(); len(errs) > 0 {
		m.err = errs[0].Error()
		m.form = m.build()
		return m, m.form.Init()
	}
	id, cmd, err := m.opts.Submit()
	if err != nil {
		m.err = err.Error()
		m.form = m.build()
		return m, m.form.Init()
	}
	m.err = ""
	if id == 0 {
		return m, tea.Batch(cmd, m.ctx.CloseModal(m))
	}
	m.submitting = true
	m.taskID = id
	return m, cmd
}

// View renders the box.
func (m *Modal) View() string {
	st := m.ctx.Styles
	w := m.innerWidth()
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render(ansi.Truncate(m.opts.Title, w, "…")))
	b.WriteString("\n\n")
	b.WriteString(m.form.View())
	if m.err != "" {
		b.WriteString("\n")
		b.WriteString(st.Error.Render(ansi.Wrap("✗ "+m.err, w, "")))
	}
	if m.submitting {
		b.WriteString("\n")
		b.WriteString(st.Loading.Render("Saving…"))
	}
	if m.confirming {
		b.WriteString("\n")
		b.WriteString(st.Warning.Render("Discard what you typed? y = discard, any other key = keep editing"))
	}
	return st.Modal.Width(m.boxWidth() - 2).Render(lipgloss.NewStyle().MaxWidth(w).Render(b.String()))
}
