package list

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/prompt"
)

// jumpMsg is the id typed into the jump prompt.
type jumpMsg struct {
	owner int
	text  string
}

// foundMsg is the server's answer about a row the jump asked for: row, when the query has
// it (ok). gen is the query generation it was asked in.
type foundMsg[R any] struct {
	owner, gen int
	id         int64
	row        R
	ok         bool
	err        error
}

// askJump opens the jump prompt (the JumpID key).
func (m *Model[R]) askJump() tea.Cmd {
	owner := m.owner
	return m.ctx.OpenModal(prompt.New(m.ctx, "Go to id:", "", func(s string) tea.Msg {
		return jumpMsg{owner: owner, text: s}
	}))
}

// jump moves the cursor to the row whose id text names: a loaded (or the pinned) row at
// once; else, for a query whose endpoint filters by id, the server is asked whether the
// query has it, and a row it has shows pinned above the rows with the cursor on it (it is
// not loaded yet); else the list says that no loaded row has that id.
func (m *Model[R]) jump(text string) tea.Cmd {
	text = strings.TrimPrefix(strings.TrimSpace(text), "#")
	if text == "" {
		return nil
	}
	id, err := forms.ParseID(text)
	if err != nil && m.opts.Named != nil {
		msg := m.opts.Named(text)
		return func() tea.Msg { return msg }
	}
	if err != nil {
		return common.ErrorToast(fmt.Errorf("go to id: %w", err))
	}
	if m.Select(id) {
		return m.prefetch()
	}
	lookup := m.fetch.lookup()
	if lookup == nil {
		more := ""
		if len(m.rows) < m.pg.Total {
			more = fmt.Sprintf(" (%s of %s loaded)", layout.Count(len(m.rows)), layout.Count(m.pg.Total))
		}
		return common.Toast(fmt.Sprintf("No %s #%d among the %s loaded%s.", m.fetch.one(), id, m.fetch.noun(), more))
	}
	owner, gen, c := m.owner, m.pg.Gen(), m.ctx.Client
	return func() tea.Msg {
		ctx, cancel := common.RequestContext(common.RequestTimeout, false)
		defer cancel()
		r, ok, err := lookup(ctx, c, id)
		return foundMsg[R]{owner: owner, gen: gen, id: id, row: r, ok: ok, err: err}
	}
}

// onFound takes the server's answer about a row a jump asked for, unless the query changed
// meanwhile.
func (m *Model[R]) onFound(msg foundMsg[R]) tea.Cmd {
	switch {
	case msg.gen != m.pg.Gen():
		return nil
	case msg.err != nil:
		return common.ErrorToast(msg.err)
	case !msg.ok:
		return common.Toast(fmt.Sprintf("This list has no %s #%d.", m.fetch.one(), msg.id))
	case m.Select(msg.id):
		return m.prefetch() // it loaded meanwhile
	}
	m.Pin(msg.row, "in this list, not loaded yet")
	return nil
}
