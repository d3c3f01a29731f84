// Package picker is the one picker of parley: a filter field over a list of items, matched
// with one rule (Find: fuzzy, every word of the query), the matched characters marked the
// same way everywhere (Cell), a cursor moved with the key map's bindings (so a user's
// rebinding applies) and a window of the rows that fit. The command palette, the
// organization and operator pickers (ctrl+o, ctrl+p), the assign picker, the analytics
// metric picker and help's filter are built on it; each draws its rows its own way, most in
// the one box (Box).
//
// The keys, the same in every picker: the filter has the keyboard, so a key that types
// text is text (j, k, g, q and space too); the actions work by their keys that type
// nothing — the move bindings' arrows, page keys, home and end, tab and shift+tab for the
// next and previous row, enter (Open) to choose, esc (Back) to clear the filter and, with
// no filter, to close. An action bound only to keys that type text keeps them (a user who
// binds down to v alone moves with v). Keys read together ("jj" in one read) are typed
// together, exactly as pressed apart. The mouse wheel moves the cursor; in a picker whose
// rows are one line each (Options.RowsTop), a click selects a row and a click on the
// selected row chooses it.
package picker

import (
	"cmp"
	"slices"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/components/prompt"
	"github.com/parley-tui/parley/sanitize"
)

// Options are how a picker filters and what its field says.
type Options struct {
	Prompt      string // before the field ("filter: ")
	Placeholder string // in the empty field
	CharLimit   int    // 0: 64
	Order       Order
	// Typed, when set, offers a row for the query itself, first ("open conversation 123"
	// for ":123"): its text, or ok false for none. The row's Match has Item Typed.
	Typed func(query string) (text string, ok bool)
	// Group, when set with Best, keeps the matches of one group together: the groups in the
	// order of their best match, each group's best first (the metrics under their themes).
	Group func(item int) string
	// Near, when set with Best, lists the matches of the near items (what the screen the
	// user is on offers) before the others, each part best first: "filters" on the
	// conversations screen finds its own filters before the contacts screen's.
	Near func(item int) bool
	// RowsTop is the line of the picker's view where its rows start, one line a row, for
	// the mouse (BoxRowsTop in a Box with a rule); 0: the rows take no clicks.
	RowsTop int
}

// Event is what a key or a message did to the picker.
type Event uint8

const (
	None     Event = iota // nothing the caller must act on
	Moved                 // the cursor moved
	Filtered              // the query changed: the matches and the cursor are new
	Chosen                // Open on a row: the caller takes Selected
	Closed                // Back with no filter: the caller closes the picker
)

// Model is a picker's state: the items' texts, the field, the matches and the window.
type Model struct {
	keys  *keymap.KeyMap
	opts  Options
	input textinput.Model
	texts []string
	typed string // the text of the row for the query (Options.Typed), "" for none
	shown []Match
	win   list.Window
}

// New is a picker over texts (sanitized: the text of each item, as the query matches it),
// its field focused, every item shown.
func New(ctx *common.Ctx, texts []string, o Options) Model {
	in := textinput.New()
	in.Prompt = o.Prompt
	in.Placeholder = o.Placeholder
	in.CharLimit = o.CharLimit
	if in.CharLimit == 0 {
		in.CharLimit = 64
	}
	in.SetStyles(prompt.InputStyles(ctx))
	in.Focus()
	m := Model{keys: ctx.Keys, opts: o, input: in, texts: texts}
	m.win.SetSize(10)
	m.filter()
	return m
}

// SetItems replaces the items (a list that arrived later), keeping the query and the
// cursor on the item it was on when that is still shown.
func (m *Model) SetItems(texts []string) {
	sel, had := m.Selected()
	m.texts = texts
	m.filter()
	if had && sel.Item != Typed {
		m.Select(sel.Item)
	}
}

// SetRows sets how many rows the window shows (and a page moves).
func (m *Model) SetRows(n int) {
	m.win.SetSize(max(1, n))
	m.win.Clamp(len(m.shown))
}

// SetWidth sets the field's width, its prompt included.
func (m *Model) SetWidth(w int) {
	m.input.SetWidth(max(4, w-ansi.StringWidth(m.input.Prompt)-1))
}

// Query is what is typed.
func (m Model) Query() string { return m.input.Value() }

// SetQuery types q in place of the query.
func (m *Model) SetQuery(q string) {
	m.input.SetValue(q)
	m.filter()
}

// Field is the field's view (the prompt, the query, the cursor).
func (m Model) Field() string { return m.input.View() }

// Shown are the matches of the query, in the order they are listed.
func (m Model) Shown() []Match { return m.shown }

// Len is the number of items (the Typed row not counted).
func (m Model) Len() int { return len(m.texts) }

// Text is the text of a match: its item's, or the Typed row's.
func (m Model) Text(mt Match) string {
	if mt.Item == Typed {
		return m.typed
	}
	return m.texts[mt.Item]
}

// Cursor is the index of the row under the cursor, in Shown.
func (m Model) Cursor() int { return m.win.Cursor }

// Selected is the match under the cursor; ok is false when nothing matches.
func (m Model) Selected() (Match, bool) {
	if m.win.Cursor < 0 || m.win.Cursor >= len(m.shown) {
		return Match{}, false
	}
	return m.shown[m.win.Cursor], true
}

// Select puts the cursor on item (when it is shown).
func (m *Model) Select(item int) {
	if i := slices.IndexFunc(m.shown, func(mt Match) bool { return mt.Item == item }); i >= 0 {
		m.MoveTo(i)
	}
}

// MoveTo puts the cursor on row i of Shown (within the rows) and scrolls it into view.
func (m *Model) MoveTo(i int) {
	m.win.Cursor = i
	m.win.Clamp(len(m.shown))
}

// Move moves the cursor d rows (negative: up), as the move keys do.
func (m *Model) Move(d int) { m.win.Move(d, len(m.shown)) }

// Window is the rows in view: Shown[from:to].
func (m Model) Window() (from, to int) { return m.win.Offset, m.win.End(len(m.shown)) }

// Page is how many rows a page key moves.
func (m Model) Page() int { return m.win.Visible() }

// filter lists the matches of the query and puts the cursor on the first (the best), or,
// when the query was cleared, keeps it on the item it was on.
func (m *Model) filter() {
	prev, had := m.Selected()
	q := m.input.Value()
	m.shown = Find(q, m.texts, m.opts.Order)
	if m.opts.Group != nil && m.opts.Order == Best {
		rank := map[string]int{} // a group's place: that of its best match
		for i, mt := range m.shown {
			if _, ok := rank[m.opts.Group(mt.Item)]; !ok {
				rank[m.opts.Group(mt.Item)] = i
			}
		}
		slices.SortStableFunc(m.shown, func(a, b Match) int {
			return cmp.Compare(rank[m.opts.Group(a.Item)], rank[m.opts.Group(b.Item)])
		})
	}
	if m.opts.Near != nil && m.opts.Order == Best {
		far := func(mt Match) int {
			if m.opts.Near(mt.Item) {
				return 0
			}
			return 1
		}
		slices.SortStableFunc(m.shown, func(a, b Match) int { return cmp.Compare(far(a), far(b)) })
	}
	m.typed = ""
	if m.opts.Typed != nil {
		if t, ok := m.opts.Typed(q); ok {
			m.typed = sanitize.Line(t)
			m.shown = slices.Insert(m.shown, 0, Match{Item: Typed})
		}
	}
	m.win.Reset()
	if m.opts.Order == Kept && q != "" {
		// The list keeps its order; the cursor starts on the best match.
		best := -1
		for i, mt := range m.shown {
			if mt.Item != Typed && (best < 0 || mt.score > m.shown[best].score) {
				best = i
			}
		}
		m.win.Cursor = max(0, best)
	}
	m.win.Clamp(len(m.shown))
	if q == "" && had && prev.Item != Typed {
		m.Select(prev.Item)
	}
}

// Acts reports whether msg is one of b's keys that act in a picker: b's keys that type
// nothing, or any of them when all of b's keys type text (an action bound to letters alone
// keeps them).
func (m Model) Acts(msg tea.KeyPressMsg, b key.Binding) bool {
	if !key.Matches(msg, b) {
		return false
	}
	if !common.Typed(msg) {
		return true
	}
	for _, k := range b.Keys() {
		if p, ok := keymap.Press(k); ok && !common.Typed(p) {
			return false // b has a key that types nothing: this one is text
		}
	}
	return true
}

// moveBy is how far msg moves the cursor (ok false: it does not).
func (m Model) moveBy(msg tea.KeyPressMsg) (d int, ok bool) {
	k, n := m.keys, len(m.shown)
	switch {
	case m.Acts(msg, k.Down), m.Acts(msg, k.NextPane):
		return 1, true
	case m.Acts(msg, k.Up), m.Acts(msg, k.PrevPane):
		return -1, true
	case m.Acts(msg, k.PageDown):
		return m.Page(), true
	case m.Acts(msg, k.PageUp):
		return -m.Page(), true
	case m.Acts(msg, k.Top):
		return -n, true
	case m.Acts(msg, k.Bottom):
		return n, true
	}
	return 0, false
}

// Update takes a key, a paste or a wheel step and says what it did. A caller with keys of
// its own (help's ?, the metric picker's groups) matches them first.
func (m *Model) Update(msg tea.Msg) (Event, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case m.Acts(msg, m.keys.Back):
			if m.input.Value() == "" {
				return Closed, nil
			}
			m.SetQuery("")
			return Filtered, nil
		case m.Acts(msg, m.keys.Open):
			if _, ok := m.Selected(); !ok {
				return None, nil
			}
			return Chosen, nil
		}
		if d, ok := m.moveBy(msg); ok {
			m.Move(d)
			return Moved, nil
		}
		return m.edit(msg)
	case tea.PasteMsg:
		msg.Content = sanitize.Line(msg.Content)
		return m.edit(msg)
	case tea.MouseClickMsg:
		from, to := m.Window()
		i := from + msg.Mouse().Y - m.opts.RowsTop
		if m.opts.RowsTop <= 0 || msg.Mouse().Y < m.opts.RowsTop || i >= to {
			return None, nil
		}
		if i == m.win.Cursor {
			return Chosen, nil
		}
		m.MoveTo(i)
		return Moved, nil
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelDown:
			m.Move(1)
		case tea.MouseWheelUp:
			m.Move(-1)
		default:
			return None, nil
		}
		return Moved, nil
	}
	return None, nil
}

// Handle is Update for a picker modal: it closes on Closed (close), chooses the match under
// the cursor on Chosen (choose), and otherwise returns the field's command.
func (m *Model) Handle(msg tea.Msg, close func() tea.Cmd, choose func(Match) tea.Cmd) tea.Cmd {
	ev, cmd := m.Update(msg)
	switch ev {
	case Closed:
		return close()
	case Chosen:
		mt, _ := m.Selected()
		return choose(mt)
	}
	return cmd
}

// edit hands msg to the field and filters again when the query changed.
func (m *Model) edit(msg tea.Msg) (Event, tea.Cmd) {
	before := m.input.Value()
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() == before {
		return None, cmd
	}
	m.filter()
	return Filtered, cmd
}
