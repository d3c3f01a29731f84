package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/sanitize"
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
	far   bool   // of another screen, or an object found by name: listed after the near ones
	title string // sanitized
	hint  string // sanitized; shown after the title (a view's count)
	keys  string // the key that does the same, when there is one
	msg   tea.Msg
}

// paletteJumpFrom is the From of the conversation a typed number opens.
const paletteJumpFrom = "the palette"

// paletteMaxRows is the most rows the palette lists at once on a tall terminal.
const paletteMaxRows = 30

// palette is the command palette (`:`, ctrl+k): the picker (internal/views/components/picker) over everything
// that can be done where the user is, each with its key; enter runs the row.
type palette struct {
	ctx   *common.Ctx
	where string
	items []paletteItem
	pick  picker.Model
	picker.Room
}

func newPalette(ctx *common.Ctx, where string, items []paletteItem) *palette {
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.title + "  " + it.kind // the title first: what a query means
	}
	p := &palette{ctx: ctx, where: where, items: items}
	p.pick = picker.New(ctx, texts, picker.Options{Prompt: ": ", Placeholder: "type to filter; a number opens that conversation",
		CharLimit: 256, RowsTop: picker.BoxRowsTop, Near: func(i int) bool { return !items[i].far }, Typed: func(q string) (string, bool) {
			id := jumpID(q)
			return fmt.Sprintf("open conversation %d", id), id != 0
		}})
	return p
}

func (p *palette) SetSize(w, h int) { p.Give(w, h, &p.pick, p.rows) }

// ShortHelp: the keys of the palette.
func (p *palette) ShortHelp() []key.Binding { return p.pick.ShortHelp("run", "close") }

func (p *palette) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	return p, p.pick.Handle(msg, func() tea.Cmd { return p.ctx.CloseModal(p) }, p.run)
}

// run closes the palette and sends the chosen row's message.
func (p *palette) run(mt picker.Match) tea.Cmd {
	msg := p.item(mt).msg
	return tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return msg })
}

// item is the row of a match: an item, or the conversation the query names.
func (p *palette) item(mt picker.Match) paletteItem {
	if mt.Item != picker.Typed {
		return p.items[mt.Item]
	}
	id := jumpID(p.pick.Query())
	return paletteItem{kind: "go to", title: p.pick.Text(mt),
		msg: common.SwitchScreenMsg{Screen: common.ScreenConversations,
			Then: common.OpenConversationMsg{ConversationID: id, From: paletteJumpFrom}}}
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

// digits reports whether rs is one or more digits.
func digits(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return len(rs) > 0
}

// rows is the number of rows shown at once.
func (p *palette) rows() int {
	if p.Height <= 0 {
		return 10
	}
	return max(1, min(paletteMaxRows, p.Height-picker.BoxChrome))
}

func (p *palette) View() string {
	st := p.ctx.Styles
	inner := p.Inner()
	keyW, kindW := 0, 0
	for _, mt := range p.pick.Shown() {
		it := p.item(mt)
		keyW = max(keyW, ansi.StringWidth(it.keys))
		kindW = max(kindW, ansi.StringWidth(it.kind))
	}
	keyW, kindW = min(keyW, 14), min(kindW, 16)
	row := func(mt picker.Match, selected bool, w int) string { return p.row(mt, selected, w, kindW, keyW) }
	return p.pick.Dialog(st, picker.Box{Title: "Command palette: " + p.where, Height: p.rows()}, inner, row, "run", "close")
}

// row draws one row: the marker and title (and hint) on the left, its kind and key on the
// right, exactly w cells, the characters the query matched marked.
func (p *palette) row(mt picker.Match, selected bool, w, kindW, keyW int) string {
	st := p.ctx.Styles
	it := p.item(mt)
	title := it.title
	if it.hint != "" {
		title += " · " + it.hint
	}
	n := utf8.RuneCountInString(it.title) + 2 // the match's text: the title, two spaces, the kind
	var inTitle, inKind []int
	for _, r := range mt.Runes {
		if r < n {
			inTitle = append(inTitle, r)
		} else {
			inKind = append(inKind, r-n)
		}
	}
	keys := ""
	if keyW > 0 {
		keys = "  " + layout.PadLeft(it.keys, keyW)
	}
	lw := max(1, w-kindW-ansi.StringWidth(keys)-2)
	base, kindSt, keySt := st.Base, st.Muted, st.HelpKey
	if selected {
		base, kindSt, keySt = st.Selected, st.Selected, st.Selected
	}
	return picker.Line(st, title, inTitle, selected, lw) + base.Render("  ") + picker.Cell(it.kind, inKind, kindW, kindSt, st.Match) +
		keySt.Render(keys)
}

// paletteItems is everything the palette offers: the keys the key table lists where the
// user is (keymap.KeyMap.Sections: the screen's and the global ones), every screen, the
// actions of the other screens where the user stands on them (chosen: that screen, then
// its key), the choices of the screens that offer some (saved views, the contacts a list
// holds), the operators of the directory (to find one, and to set one away where the
// session may), and the organizations and operators the pickers know, when they may be
// switched. Before a query orders them so: the screens, the screen's keys, its saved
// views, the global keys, the contexts, the other screens' keys, the operators and
// contacts, and last the keys that move the cursor (seldom what a palette is opened for).
// A query lists the matches best first, those of the screen the user is on (and the
// screens, saved views and global keys) before the rest.
func (a *App) paletteItems() []paletteItem {
	k := a.ctx.Keys
	var screens, own, global, moves, choices, elsewhere, objects []paletteItem
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
		if i != a.route.Active {
			elsewhere = append(elsewhere, a.screenActions(i)...)
		}
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
			it := paletteItem{kind: kind, title: sanitize.Line(c.Title), hint: sanitize.Line(c.Hint),
				msg: common.SwitchScreenMsg{Screen: sp.id, Then: c.Msg}}
			if _, contact := c.Msg.(contacts.OpenContactMsg); contact {
				objects = append(objects, it)
			} else {
				choices = append(choices, it)
			}
		}
	}
	far := slices.Concat(a.contextItems(), elsewhere, a.operatorItems(), objects)
	for i := range far {
		far[i].far = true
	}
	return slices.Concat(screens, own, choices, global, far, moves)
}

// screenKeyMsg is an action of another screen chosen in the palette: the root shows that
// screen, then runs the key there as if pressed (replayKeyMsg), where the user stands on it.
type screenKeyMsg struct {
	screen common.ScreenID
	where  keymap.Where // where the key acts: the screen's place when it was offered
	press  tea.KeyPressMsg
}

// screenActions are the actions of screen i (not the active one) where the user stands on
// it, as the key table lists them for the session there: neither the moves nor the global
// keys (offered once) nor the way back.
func (a *App) screenActions(i int) []paletteItem {
	k := a.ctx.Keys
	w := a.route.Screens[i].Where()
	var out []paletteItem
	for _, sec := range k.Sections(w) {
		if sec.Group == keymap.GroupMove || sec.Group == keymap.GroupGlobal {
			continue
		}
		for _, b := range sec.Keys {
			if sharesKey(b, k.Back) {
				continue
			}
			for _, kk := range b.Keys() {
				if press, ok := keymap.Press(kk); ok {
					out = append(out, paletteItem{kind: a.specs[i].name, title: sanitize.Line(b.Help().Desc),
						keys: sanitize.Line(b.Help().Key), msg: screenKeyMsg{screen: a.specs[i].id, where: w, press: press}})
					break
				}
			}
		}
	}
	return out
}

// operatorItems are the operators of the directory by name: chosen, the operators screen
// shows it under the cursor; and, where the session may set it away (a hub agent only
// their own), "away <name>" (or "available <name>" for one the directory says is away),
// which toggles it as the away key does, after the usual confirmation for another operator.
func (a *App) operatorItems() []paletteItem {
	k := a.ctx.Keys
	mayAway := k.Allows("away", keymap.InOperators)
	var items []paletteItem
	for _, o := range a.opList {
		name, shown := sanitize.Line(cmp.Or(o.Name, o.DisplayName)), sanitize.Line(o.DisplayName)
		label := fmt.Sprintf("%s (#%d)", name, o.ID)
		if shown != "" && shown != name {
			label = fmt.Sprintf("%s “%s” (#%d)", name, shown, o.ID) // both names find it
		}
		items = append(items, paletteItem{kind: "operator", title: label, hint: sanitize.Line(o.Role),
			msg: common.SwitchScreenMsg{Screen: common.ScreenOperators, Then: operators.ChooseMsg{ID: o.ID}}})
		if mayAway && (a.ctx.OnlyOperator == 0 || o.ID == a.ctx.OnlyOperator) {
			word := "away"
			if o.IsAway.Known && o.IsAway.V {
				word = "available"
			}
			items = append(items, paletteItem{kind: "operator", title: word + " " + label, keys: sanitize.Line(k.Away.Help().Key),
				msg: common.SwitchScreenMsg{Screen: common.ScreenOperators, Then: operators.ChooseMsg{ID: o.ID, Away: true}}})
		}
	}
	return items
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
