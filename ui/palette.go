package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/sanitize"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/layout"
	"github.com/parley-tui/parley/views/prompt"
)

// replayKeyMsg is a key the palette or help chose to run: the root hands it to its input
// layer (onKey) as if it had been pressed, once the modal that chose it has closed. An
// action run from a list is thus always the binding's own key, never a second list of
// what the actions do.
type replayKeyMsg struct{ press tea.KeyPressMsg }

// runBinding returns the command that runs b by pressing its first key that a key press
// can stand for, or nil when none can (a rebound key whose name parley cannot type).
func runBinding(b key.Binding) tea.Cmd {
	for _, k := range b.Keys() {
		if press, ok := keymap.Press(k); ok {
			return func() tea.Msg { return replayKeyMsg{press: press} }
		}
	}
	return nil
}

// paletteItem is one row of the command palette: what it shows and the message it sends
// when chosen (after the palette closed).
type paletteItem struct {
	kind  string // what it is ("key", "screen", a choice's group…), shown muted
	title string // sanitized
	hint  string // sanitized; shown after the title (a view's count)
	keys  string // the key that does the same, when there is one
	msg   tea.Msg
}

// paletteJumpFrom is the From of the conversation a typed number opens.
const paletteJumpFrom = "the palette"

// paletteMaxRows is the most rows the palette lists at once on a tall terminal.
const paletteMaxRows = 30

// palette is the command palette (`:`, ctrl+k): a text field and the fuzzy-filtered list of
// everything that can be done where the user is, each with its key. Printable keys type;
// the arrows and page keys move; enter runs the row; esc closes.
type palette struct {
	ctx    *common.Ctx
	where  string
	items  []paletteItem
	input  textinput.Model
	query  string
	shown  []paletteItem // the rows matching the query, best first
	cursor int
	offset int
	width  int
	height int
}

func newPalette(ctx *common.Ctx, where string, items []paletteItem) *palette {
	in := textinput.New()
	in.Prompt = ": "
	in.Placeholder = "type to filter; a number opens that conversation"
	in.SetStyles(prompt.InputStyles(ctx))
	in.Focus()
	p := &palette{ctx: ctx, where: where, items: items, input: in}
	p.filter()
	return p
}

func (p *palette) Init() tea.Cmd { return nil }
func (p *palette) Inline() bool  { return false }

func (p *palette) SetSize(w, h int) {
	p.width, p.height = w, h
	p.input.SetWidth(max(10, p.innerW()-ansi.StringWidth(p.input.Prompt)-1))
	p.keep()
}

// ShortHelp: the keys of the palette (printable keys type, so only the arrows move).
func (p *palette) ShortHelp() []key.Binding {
	k := p.ctx.Keys
	return []key.Binding{
		key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move")),
		keymap.As(k.Open, "run"), keymap.As(k.Back, "close"),
	}
}

// moves reports whether km moves the cursor: a move binding's key that types nothing.
func (p *palette) move(km tea.KeyPressMsg) (delta int, ok bool) {
	if common.Typed(km) {
		return 0, false
	}
	k := p.ctx.Keys
	page := max(1, p.rows()-1)
	switch {
	case key.Matches(km, k.Up):
		return -1, true
	case key.Matches(km, k.Down):
		return 1, true
	case key.Matches(km, k.PageUp):
		return -page, true
	case key.Matches(km, k.PageDown):
		return page, true
	case key.Matches(km, k.Top):
		return -len(p.shown), true
	case key.Matches(km, k.Bottom):
		return len(p.shown), true
	}
	return 0, false
}

func (p *palette) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := p.ctx.Keys
		if key.Matches(msg, k.Back) {
			return p, p.ctx.CloseModal(p)
		}
		if key.Matches(msg, k.Open) {
			return p, p.run()
		}
		if d, ok := p.move(msg); ok {
			p.cursor += d
			p.keep()
			return p, nil
		}
		p.input, cmd = p.input.Update(msg)
	case tea.PasteMsg:
		msg.Content = sanitize.Line(msg.Content)
		p.input, cmd = p.input.Update(msg)
	default:
		return p, nil
	}
	if v := p.input.Value(); v != p.query {
		p.query = v
		p.filter()
	}
	return p, cmd
}

// run closes the palette and sends the chosen row's message.
func (p *palette) run() tea.Cmd {
	if p.cursor < 0 || p.cursor >= len(p.shown) {
		return nil
	}
	msg := p.shown[p.cursor].msg
	p.ctx.CloseModal(p)
	return func() tea.Msg { return msg }
}

// jumpID is the conversation id the query names ("123", ":123" or "#123"), or 0.
func jumpID(q string) int64 {
	q = strings.TrimLeft(strings.TrimSpace(q), ":#")
	if !digits([]rune(q)) {
		return 0
	}
	id, err := strconv.ParseInt(q, 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}

// paletteSource is what the matcher reads of the rows: title and kind.
type paletteSource []paletteItem

func (s paletteSource) String(i int) string { return s[i].title + "  " + s[i].kind }
func (s paletteSource) Len() int            { return len(s) }

// filter lists the rows matching the query, best first (all of them, in their order, for
// an empty query); a number first offers to open that conversation.
func (p *palette) filter() {
	p.shown = p.shown[:0]
	q := strings.TrimSpace(p.query)
	if id := jumpID(q); id != 0 {
		p.shown = append(p.shown, paletteItem{kind: "go to", title: fmt.Sprintf("open conversation %d", id),
			msg: common.SwitchScreenMsg{Screen: common.ScreenConversations,
				Then: common.OpenConversationMsg{ConversationID: id, From: paletteJumpFrom}}})
	}
	if q == "" {
		p.shown = append(p.shown, p.items...)
	} else {
		for _, m := range fuzzy.FindFrom(q, paletteSource(p.items)) {
			p.shown = append(p.shown, p.items[m.Index])
		}
	}
	p.cursor, p.offset = 0, 0
}

// boxW is the palette's width, border included: most of a wide terminal, all of a narrow
// one.
func (p *palette) boxW() int {
	if p.width <= 0 {
		return 60
	}
	return min(p.width, max(60, min(110, p.width*6/10)))
}

func (p *palette) innerW() int { return max(10, p.boxW()-4) }

// paletteChrome is the lines around the rows: the border (2), the field, the line under
// it and the footer.
const paletteChrome = 5

// rows is the number of rows shown at once.
func (p *palette) rows() int {
	if p.height <= 0 {
		return 10
	}
	return max(1, min(paletteMaxRows, p.height-paletteChrome))
}

// keep keeps the cursor on a row and in the window.
func (p *palette) keep() {
	p.cursor = max(0, min(p.cursor, len(p.shown)-1))
	n := p.rows()
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+n {
		p.offset = p.cursor - n + 1
	}
	p.offset = max(0, min(p.offset, len(p.shown)-n))
}

func (p *palette) View() string {
	st := p.ctx.Styles
	inner := p.innerW()
	keyW := 0
	for _, it := range p.shown {
		keyW = max(keyW, ansi.StringWidth(it.keys))
	}
	keyW = min(keyW, 14)
	kindW := 0
	for _, it := range p.shown {
		kindW = max(kindW, ansi.StringWidth(it.kind))
	}
	kindW = min(kindW, 16)
	var b strings.Builder
	b.WriteString(" " + layout.Fit(p.input.View(), inner) + " \n")
	b.WriteString(" " + st.Subtle.Render(strings.Repeat("─", inner)) + " \n")
	n := p.rows()
	for i := p.offset; i < p.offset+n; i++ {
		var line string
		switch {
		case i < len(p.shown):
			line = p.row(p.shown[i], i == p.cursor, inner, kindW, keyW)
		case i == 0:
			line = st.Muted.Render(layout.Pad("  Nothing matches "+strconv.Quote(p.query)+".", inner))
		default:
			line = strings.Repeat(" ", inner)
		}
		b.WriteString(" " + line + " \n")
	}
	k := p.ctx.Keys
	count := fmt.Sprintf("%d of %d", len(p.shown), len(p.items))
	if jumpID(p.query) != 0 {
		count = fmt.Sprintf("%d of %d", len(p.shown), len(p.items)+1)
	}
	foot := count + " · ↑/↓ move · " + k.Open.Help().Key + " run · " + k.Back.Help().Key + " close"
	b.WriteString(" " + st.Muted.Render(layout.Fit(foot, inner)) + " ")
	fs := layout.FrameStyles{Focused: st.BorderFocused, TitleFocused: st.ModalTitle}
	return layout.Frame(fs, "Command palette: "+p.where, b.String(), inner+4, n+paletteChrome, true)
}

// row draws one row: the marker and title (and hint) on the left, its kind and key on the
// right, exactly w cells.
func (p *palette) row(it paletteItem, selected bool, w, kindW, keyW int) string {
	st := p.ctx.Styles
	title := it.title
	if it.hint != "" {
		title += " · " + it.hint
	}
	marker := "  "
	if selected {
		marker = "› "
	}
	kind := layout.Pad(it.kind, kindW)
	keys := ""
	if keyW > 0 {
		keys = "  " + layout.PadLeft(it.keys, keyW)
	}
	left := layout.Pad(marker+title, max(1, w-ansi.StringWidth(kind+keys)-2))
	if selected {
		return st.Selected.Render(layout.Fit(left+"  "+kind+keys, w))
	}
	return layout.Fit(left+"  "+st.Muted.Render(kind)+st.HelpKey.Render(keys), w)
}

// paletteItems is everything the palette offers where the user is: the keys the key table
// lists there (keymap.KeyMap.Sections: the screen's and the global ones), every screen,
// the choices of the screens that offer some (saved views), and the organizations and
// operators the pickers know, when they may be switched. Before a query orders them by
// match: the screens, the screen's keys, its choices, the global keys, the contexts, and
// last the keys that move the cursor (seldom what a palette is opened for).
func (a *App) paletteItems() []paletteItem {
	k := a.ctx.Keys
	var screens, own, global, moves, choices []paletteItem
	seen := map[string]bool{}
	screenKeys := []key.Binding{k.Palette}
	for i := range a.specs {
		screenKeys = append(screenKeys, a.screenKey(i))
	}
	for _, b := range screenKeys {
		for _, kk := range b.Keys() {
			seen[kk] = true // screens are offered by name; the palette needs no row of its own
		}
	}
	title := a.shown().name
	for _, sec := range k.Sections(a.Screen().Where()) {
		for _, b := range sec.Keys {
			run := runBinding(b)
			if run == nil || slices.ContainsFunc(b.Keys(), func(s string) bool { return seen[s] }) {
				continue
			}
			it := paletteItem{kind: title, title: sanitize.Line(b.Help().Desc), keys: sanitize.Line(b.Help().Key), msg: run()}
			switch sec.Group {
			case keymap.GroupMove:
				moves = append(moves, it)
			case keymap.GroupGlobal:
				it.kind = "key"
				global = append(global, it)
			default:
				own = append(own, it)
			}
		}
	}
	for i, sp := range a.specs {
		it := paletteItem{kind: "screen", title: sp.title, msg: common.SwitchScreenMsg{Screen: sp.id}}
		if k := a.screenKey(i); k.Enabled() {
			it.keys = sanitize.Line(k.Help().Key)
		}
		screens = append(screens, it)
	}
	for i, sp := range a.specs {
		ch, ok := a.route.Screens[i].(common.Chooser)
		if !ok {
			continue
		}
		for _, c := range ch.Choices() {
			kind := sanitize.Line(c.Group)
			if kind == "" {
				kind = sp.name
			}
			choices = append(choices, paletteItem{kind: kind, title: sanitize.Line(c.Title), hint: sanitize.Line(c.Hint),
				msg: common.SwitchScreenMsg{Screen: sp.id, Then: c.Msg}})
		}
	}
	return slices.Concat(screens, own, choices, global, a.contextItems(), moves)
}

// contextItems are the organizations and operators the pickers (ctrl+o, ctrl+p) know
// without asking the API: the configured, current and token's organizations, and the
// current organization's operator directory. Each is offered only while its picker is.
func (a *App) contextItems() []paletteItem {
	k := a.ctx.Keys
	cur := a.ctx.Client
	curOrg, curOp := cur.OrganizationID(), cur.OperatorID()
	var items []paletteItem
	if k.PickOrg.Enabled() {
		keys := sanitize.Line(k.PickOrg.Help().Key)
		var ids []int64
		for _, id := range []int64{a.base.OrganizationID(), curOrg, a.opsOrg, a.tokenOrg} {
			if id != 0 && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		if curOrg != 0 {
			items = append(items, paletteItem{kind: "organization", title: "default organization of the token",
				keys: keys, msg: contextPickedMsg{}})
		}
		for _, id := range ids {
			it := paletteItem{kind: "organization", title: fmt.Sprintf("organization %d", id), keys: keys}
			op := int64(0)
			if id == curOrg || (curOrg == 0 && id == a.opsOrg) {
				it.hint, op = "current", curOp
			}
			it.msg = contextPickedMsg{org: id, op: op}
			items = append(items, it)
		}
	}
	if k.ActAs.Enabled() {
		keys := sanitize.Line(k.ActAs.Help().Key)
		def := paletteItem{kind: "operator", title: "act as the default operator", keys: keys,
			msg: contextPickedMsg{org: curOrg}}
		if curOp == 0 {
			def.hint = "current"
		}
		items = append(items, def)
		for _, o := range a.opList {
			name := sanitize.Line(o.DisplayName)
			if name == "" {
				name = sanitize.Line(o.Name)
			}
			it := paletteItem{kind: "operator", title: fmt.Sprintf("act as %s (#%d) · %s", name, o.ID, sanitize.Line(o.Role)),
				keys: keys, msg: contextPickedMsg{org: curOrg, op: o.ID}}
			if o.IsBot.V || o.Role == client.RoleBot {
				it.title += " [bot]"
			}
			if o.ID == curOp {
				it.hint = "current"
			}
			items = append(items, it)
		}
	}
	return items
}

// openPalette opens the command palette over the active screen.
func (a *App) openPalette() tea.Cmd {
	return a.ctx.OpenModal(newPalette(a.ctx, a.ScreenName(), a.paletteItems()))
}
