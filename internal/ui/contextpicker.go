package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/picker"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

// probeDays is the period the organization probe asks the Analytics API about.
const probeDays = 7

// contextPickedMsg is what a picker sends when the user chose an organization or operator.
type contextPickedMsg struct {
	org, op int64
}

// orgsFoundMsg is the answer of the organization probe.
type orgsFoundMsg struct {
	stamp common.Stamp
	orgs  []int64
	err   error
}

type pickItem struct {
	label   string // sanitized
	org, op int64
	current bool
}

// contextPicker is the ctrl+o / ctrl+p modal: the picker (internal/views/components/picker) over the
// organizations or operators to choose from; a typed id offers itself first.
type contextPicker struct {
	ctx   *common.Ctx
	title string
	note  string
	what  string // what a typed id names ("organization", "operator")
	items []pickItem
	pick  picker.Model
	picker.Room
	loading bool
	// loads stamps the picker's request (the organization picker's probe).
	loads common.Loader
	// choose turns a typed id into the context to switch to.
	choose func(id int64) contextPickedMsg
	// found fills the list from the probe (organization picker only).
	found func(p *contextPicker, msg orgsFoundMsg)
}

func newContextPicker(ctx *common.Ctx, title, what string) *contextPicker {
	p := &contextPicker{ctx: ctx, title: title, what: what, loads: common.NewLoader(ctx)}
	p.pick = picker.New(ctx, nil, picker.Options{Prompt: "filter: ", Placeholder: "a name, or an id", RowsTop: picker.BoxRowsTop,
		Typed: func(q string) (string, bool) {
			id := jumpID(q)
			return fmt.Sprintf("%s %d (the id typed)", what, id), id != 0
		}})
	return p
}

// setItems shows items, the cursor on the item it was on (by organization and operator),
// else on the current one.
func (p *contextPicker) setItems(items []pickItem) {
	at := -1
	if mt, ok := p.pick.Selected(); ok && mt.Item != picker.Typed && p.pick.Query() != "" {
		at = slices.IndexFunc(items, func(it pickItem) bool {
			return it.org == p.items[mt.Item].org && it.op == p.items[mt.Item].op
		})
	}
	if at < 0 {
		at = slices.IndexFunc(items, func(it pickItem) bool { return it.current })
	}
	p.items = items
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.label
		if it.current {
			texts[i] += "  ✓ current"
		}
	}
	p.pick.SetItems(texts)
	if at >= 0 {
		p.pick.Select(at)
	}
}

func (p *contextPicker) SetSize(w, h int) { p.Give(w, h, &p.pick, p.rows) }

// rows is how many rows the list shows: all of them (the typed id's too) when they fit.
func (p *contextPicker) rows() int {
	return picker.FitRows(p.Height, p.Inner(), p.notes(), len(p.items)+1)
}

// notes are the lines under the list: what is loading, and what choosing means.
func (p *contextPicker) notes() []string {
	if p.loading {
		return []string{"Looking for organizations (one analytics request)…", p.note}
	}
	return []string{p.note}
}

func (p *contextPicker) ShortHelp() []key.Binding { return p.pick.ShortHelp("choose", "cancel") }

func (p *contextPicker) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if msg, ok := msg.(orgsFoundMsg); ok {
		if p.found != nil && p.loads.Take(msg.stamp) {
			p.loading = false
			p.found(p, msg)
			p.pick.SetRows(p.rows())
		}
		return p, nil
	}
	return p, p.pick.Handle(msg, func() tea.Cmd { return p.ctx.CloseModal(p) }, p.choice)
}

// choice closes the picker and switches to the chosen row: an item, or the id typed.
func (p *contextPicker) choice(mt picker.Match) tea.Cmd {
	var out contextPickedMsg
	if mt.Item == picker.Typed {
		out = p.choose(jumpID(p.pick.Query()))
	} else {
		out = contextPickedMsg{org: p.items[mt.Item].org, op: p.items[mt.Item].op}
	}
	return tea.Sequence(p.ctx.CloseModal(p), func() tea.Msg { return out })
}

func (p *contextPicker) View() string {
	return p.pick.Dialog(p.ctx.Styles, picker.Box{Title: p.title, Height: p.rows(), Notes: p.notes()}, p.Inner(), nil, "choose", "cancel")
}

// orgPicker is the ctrl+o modal. The API has no organizations endpoint: the Analytics API,
// asked without an organization filter and without Service-Organization-Id, returns data of
// every organization a customer token may read (docs/api-notes.md, "Token kind"); their ids,
// the configured one and the current one make the list, and any id can be typed.
func (a *App) orgPicker() tea.Cmd {
	cur := a.ctx.Client
	curOrg, curOp := cur.OrganizationID(), cur.OperatorID()
	baseOrg := a.base.OrganizationID()
	known := a.opsOrg
	p := newContextPicker(a.ctx, "Organization (Service-Organization-Id)", "organization")
	p.loading = true
	p.note = "Choosing another organization acts as its default operator (the owner)."
	p.choose = func(id int64) contextPickedMsg {
		op := int64(0)
		if id == curOrg {
			op = curOp
		}
		return contextPickedMsg{org: id, op: op}
	}
	build := func(found []int64) {
		ids := append([]int64(nil), found...)
		for _, id := range []int64{baseOrg, curOrg, known, a.tokenOrg} {
			if id != 0 && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		items := []pickItem{{label: "default organization of the token", current: curOrg == 0}}
		for _, id := range ids {
			label := fmt.Sprintf("organization %d", id)
			switch {
			case id == baseOrg && id == known:
				label += " (configured; shown now)"
			case id == baseOrg:
				label += " (configured)"
			case id == a.tokenOrg || (id == known && curOrg == 0):
				label += " (the token's default)"
			}
			op := int64(0)
			if id == curOrg {
				op = curOp
			}
			items = append(items, pickItem{label: label, org: id, op: op, current: id == curOrg})
		}
		p.setItems(items)
	}
	build(nil)
	p.found = func(p *contextPicker, msg orgsFoundMsg) {
		switch {
		case msg.err != nil:
			p.note = "Could not list organizations (" + writes.ErrorText(msg.err) + "). Type an id."
		case len(msg.orgs) > 1:
			p.note = fmt.Sprintf("Customer token: the Analytics API shows data of %d organizations. "+
				"Choosing one acts as its default operator.", len(msg.orgs))
		case len(msg.orgs) == 1:
			p.note = "Only one organization has data: an organization token is fixed to its organization " +
				"and cannot switch (the API ignores Service-Organization-Id); a customer token with one " +
				"organization has nothing to switch to."
		default:
			p.note = fmt.Sprintf("No analytics data in the last %d days to find organizations by; type an id.", probeDays)
		}
		build(msg.orgs)
	}
	probe := a.base.WithContext(0, 0)
	now := a.ctx.Now()
	stamp, parent := p.loads.Start(0)
	a.ctx.OpenModal(p)
	return tea.Batch(func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, 30*time.Second, false)
		defer cancel()
		q := client.AnalyticsQuery{Metric: client.MetricConversationCategory,
			From: now.UTC().AddDate(0, 0, -(probeDays - 1)), To: now.UTC()}
		pts, err := probe.AnalyticsWindowPoints(ctx, q, client.AnalyticsWindow{From: q.From, To: q.To})
		if err != nil {
			return orgsFoundMsg{stamp: stamp, err: fmt.Errorf("organization probe: %w", err)}
		}
		var ids []int64
		for _, pt := range pts {
			if pt.OrganizationID != 0 && !slices.Contains(ids, pt.OrganizationID) {
				ids = append(ids, pt.OrganizationID)
			}
		}
		return orgsFoundMsg{stamp: stamp, orgs: ids}
	})
}

// operatorPicker is the ctrl+p modal: the current organization's operators (from the
// directory the root keeps) and the token's own operator.
func (a *App) operatorPicker() tea.Cmd {
	cur := a.ctx.Client
	org, op := cur.OrganizationID(), cur.OperatorID()
	p := newContextPicker(a.ctx, "Act as operator (Service-Operator-Id)", "operator")
	p.note = "Requests run with this operator's role and permissions."
	if len(a.opList) == 0 {
		p.note = "The operator list is not loaded; type an id or choose the default."
	}
	p.choose = func(id int64) contextPickedMsg { return contextPickedMsg{org: org, op: id} }
	def := "default (the token's own operator)"
	if n := a.ctx.Operators[a.ctx.DefaultOperatorID]; n != "" && a.ctx.DefaultOperatorID != 0 {
		def += " · " + n
	}
	items := []pickItem{{label: def, org: org, current: op == 0}}
	for _, o := range a.opList {
		name := sanitize.Line(o.Name)
		if name == "" {
			name = sanitize.Line(o.DisplayName)
		}
		label := fmt.Sprintf("%s · %s (#%d)", name, sanitize.Line(o.Role), o.ID)
		if o.IsBot.V || o.Role == client.RoleBot {
			label += " [bot]"
		}
		if o.IsAway.V {
			label += " · away"
		}
		items = append(items, pickItem{label: label, org: org, op: o.ID, current: o.ID == op})
	}
	p.setItems(items)
	return a.ctx.OpenModal(p)
}

// switchProbedMsg answers the check that comes before a switch to another organization:
// the operator directory as the API returns it in the new context.
type switchProbedMsg struct {
	stamp common.Stamp
	to    contextPickedMsg
	ops   []client.Operator
	err   error
}

// setContext switches organization and operator. A switch of the acting operator alone
// happens at once. A switch to another organization first asks for that organization's
// operator directory: only when the API answers for the organization asked for (an
// organization token answers for its own whatever the header says, and a customer token
// for its default one when the id is unknown) does parley switch, with that directory;
// otherwise it says so and nothing changes: screens, status bar and counters stay as they
// were.
func (a *App) setContext(msg contextPickedMsg) tea.Cmd {
	cur := a.ctx.Client
	a.loads.Drop(loadSwitch) // whatever was being checked is no longer wanted
	a.switching = nil
	if msg.org == cur.OrganizationID() && msg.op == cur.OperatorID() {
		return nil
	}
	if msg.org == cur.OrganizationID() {
		return a.applyContext(msg, nil, false)
	}
	a.switching = &msg
	return a.readDirectory(loadSwitch, a.base.WithContext(msg.org, msg.op), func(stamp common.Stamp, ops []client.Operator, err error) tea.Msg {
		return switchProbedMsg{stamp: stamp, to: msg, ops: ops, err: err}
	})
}

// onSwitchProbed switches when the API answered for the organization asked for, and
// otherwise stays where it was.
func (a *App) onSwitchProbed(msg switchProbedMsg) tea.Cmd {
	if !a.loads.Take(msg.stamp) {
		return nil // superseded by a later choice
	}
	a.switching = nil
	what := orgName(msg.to.org)
	if msg.err != nil {
		return common.ErrorToast(fmt.Errorf("%s: not switched: %w", what, msg.err))
	}
	answered := directoryOrg(msg.ops)
	a.base.Counters().Resolve(msg.to.org, answered)
	if msg.to.org != 0 && answered != 0 && answered != msg.to.org {
		text := fmt.Sprintf("Organization %d is not available to this token: the API answers for organization %d. "+
			"Staying in %s.", msg.to.org, answered, a.orgShown())
		return common.FailToast(text)
	}
	return a.applyContext(msg.to, msg.ops, true)
}

// orgName names an organization header value for messages.
func orgName(org int64) string {
	if org == 0 {
		return "the default organization"
	}
	return "organization " + strconv.FormatInt(org, 10)
}

// orgShown names the organization parley is in now, as the status bar does.
func (a *App) orgShown() string {
	org := a.ctx.Client.OrganizationID()
	switch {
	case a.opsOrg != 0:
		return "organization " + strconv.FormatInt(a.opsOrg, 10)
	case org != 0:
		return "organization " + strconv.FormatInt(org, 10)
	}
	return "the default organization"
}

// directoryOrg is the organization an operator directory belongs to (0 when empty).
func directoryOrg(ops []client.Operator) int64 {
	if len(ops) > 0 {
		return ops[0].OrganizationID
	}
	return 0
}

// applyContext makes the switch: a new client for both, the operator directory (the one
// the check fetched, else loaded again), and every screen told to reload.
func (a *App) applyContext(msg contextPickedMsg, ops []client.Operator, probed bool) tea.Cmd {
	cur := a.ctx.Client
	orgChanged := msg.org != cur.OrganizationID()
	a.ctx.Client = a.base.WithContext(msg.org, msg.op)
	a.ctx.ActingOperatorID = msg.op
	var dir tea.Cmd
	if orgChanged {
		a.opList = nil
		a.opsOrg = 0
		a.ctx.Operators = map[int64]string{}
	}
	if probed {
		a.loads.Drop(loadDirectory) // a directory still loading for the old context is stale now
		a.opsFor = msg.org
		dir = a.applyDirectory(common.OperatorsLoadedMsg{Operators: ops})
	} else {
		dir = a.loadOperators()
	}
	who := "the default operator"
	if msg.op != 0 {
		who = fmt.Sprintf("operator #%d", msg.op)
		if n := a.ctx.Operators[msg.op]; n != "" {
			who = n
		}
	}
	text := "Now acting as " + who
	if orgChanged {
		text = "Now in " + orgName(msg.org) + ", acting as " + who
	}
	return tea.Batch(a.broadcast(common.ContextChangedMsg{OperatorOnly: !orgChanged}), dir, common.Toast(text))
}

// applyDirectory takes a loaded operator directory: names for every screen, the ctrl+p
// list, the organization the API answered for.
func (a *App) applyDirectory(msg common.OperatorsLoadedMsg) tea.Cmd {
	names := make(map[int64]string, len(msg.Operators))
	for _, op := range msg.Operators {
		n := op.DisplayName
		if n == "" {
			n = op.Name
		}
		names[op.ID] = sanitize.Line(n)
	}
	a.ctx.Operators = names
	a.onDirectory(msg.Operators)
	return a.broadcast(msg)
}

// onDirectory keeps the full operator list for the ctrl+p picker, learns the organization
// the API answered for (and tells the request counters, so that requests with and without
// the header count against that one organization), and the default operator (the token's
// own, else the owner).
func (a *App) onDirectory(ops []client.Operator) {
	a.opList = ops
	a.opsOrg = directoryOrg(ops)
	if a.ctx.Client.OrganizationID() == 0 && a.opsOrg != 0 {
		a.tokenOrg = a.opsOrg // asked without Service-Organization-Id: the token's own
	}
	a.base.Counters().Resolve(a.opsFor, a.opsOrg)
	def := a.opts.DefaultOperatorID
	if !slices.ContainsFunc(ops, func(o client.Operator) bool { return o.ID == def }) {
		def = 0
		for _, o := range ops {
			if o.Role == client.RoleOwner {
				def = o.ID
				break
			}
		}
	}
	a.ctx.DefaultOperatorID = def
}

// afterOperatorTask keeps the operator directory (names in lists, the ctrl+p picker)
// current after an operator was edited, deleted or set away. An away change is applied
// to the directory from the task's answer; an edit or a delete loads it again.
func (a *App) afterOperatorTask(msg common.TaskDoneMsg) tea.Cmd {
	if msg.Err != nil {
		return nil
	}
	switch msg.Kind {
	case operators.KindAway:
		id, away := int64(0), client.Opt[bool]{}
		switch r := msg.Result.(type) {
		case client.AwayStatus:
			id, away = r.OperatorID, r.IsAway
		case operators.Row:
			id, away = r.ID, r.IsAway
		}
		if i := slices.IndexFunc(a.opList, func(o client.Operator) bool { return o.ID == id }); i >= 0 && away.Known {
			a.opList = slices.Clone(a.opList) // screens were given this slice too
			a.opList[i].IsAway = away
			return nil
		}
		return a.loadOperators() // not in the directory, or its status unknown: it is out of date
	case operators.KindEdit, operators.KindDelete:
		return a.loadOperators()
	}
	return nil
}

// contextLabel is the status bar's "org N · as NAME", and its form for a narrow terminal.
// In a hub session NAME is the user's, and the acting operator's name follows when it is
// another ("as clara (Clara Diaz)"), in the long form only.
func (a *App) contextLabel() (full, short string) {
	org := a.scope()
	op := a.ctx.Client.OperatorID()
	name := ""
	if op != 0 {
		name = a.ctx.Operators[op]
		if name == "" {
			name = fmt.Sprintf("operator %d", op)
		}
	} else if d := a.ctx.DefaultOperatorID; d != 0 && a.ctx.Operators[d] != "" {
		name = a.ctx.Operators[d]
	} else {
		name = "default operator"
	}
	full = org + " · as " + name
	if u := a.opts.UserName; u != "" {
		short = org + " · as " + u
		full = short
		if !strings.EqualFold(u, name) {
			full += " (" + name + ")"
		}
		return full, short
	}
	return full, full
}
