// Package ui is parley's root model: it owns the screens, screen switching, the modal stack,
// the tab bar, the status bar, toasts, auto-refresh with the request budget, and the wiring
// of client events (rate-limit waits) into the status bar. Update and View never do I/O.
package ui

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/confirm"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/sanitize"
)

// Minimum terminal size; below it parley shows a "terminal too small" screen.
const (
	MinWidth  = 80
	MinHeight = 20
)

// Options are the dependencies of the root model.
type Options struct {
	Client *client.Client
	Styles *theme.Styles
	Keys   *keymap.KeyMap
	// Now is the clock (fixed in tests); nil means time.Now.
	Now func() time.Time
	// Timer arms the timers (common.Ctx.Timer): nil is tea.Tick; tests give a clock they
	// move, so no timer fires before the test says.
	Timer common.Timer
	// Demo is true on the embedded sandbox.
	Demo bool
	// Label names the API in the status bar (the base URL's host).
	Label string
	// RefreshInterval is the auto-refresh period while someone works (0 = off).
	RefreshInterval time.Duration
	// RequestBudget is this user's share of the organization's daily requests per family
	// (0: common.APIDailyLimit / 10, a team of ten); auto-refresh leaves a fifth of it
	// for the user's own requests (common.ReserveFor).
	RequestBudget int
	// ShiftEnd is when the working day ends, a time of day (17h: 17:00; 0: none): while
	// the day's forecast says the budget runs out before it, auto-refresh is stretched and
	// a toast says so (common.Budget.ShiftEnd). A hub session shows the hub's.
	ShiftEnd time.Duration
	// PageSize is the list page size.
	PageSize int
	// Events delivers the client's wait events (retries, queued analytics), or nil.
	Events <-chan client.Event
	// DefaultOperatorID is the token's own operator, when known.
	DefaultOperatorID int64
	// ReportCrash writes down a caught panic (called from a command), or nil.
	ReportCrash CrashReporter
	// AskBackground asks the terminal for its background colour at start (the styles are
	// for a dark one until it answers; a terminal that never answers keeps them).
	AskBackground bool

	// ReadOnly: a viewer (and `parley --readonly`): no edit keys anywhere (keymap's Deny
	// disables them, so neither the footer nor help shows them, and no edit form opens);
	// the client's gate, where one is set, refuses writes anyway.
	ReadOnly bool
	// FixedOperator: an agent of the hub: act as (ctrl+p) is not offered; writes go as
	// DefaultOperatorID.
	FixedOperator bool
	// FixedOrganization: a session of the hub: picking an organization (ctrl+o) is not
	// offered; the session stays in the organization its users-file entry names.
	FixedOrganization bool
	// Remote: the terminal is a remote session's (the team hub), not the one the process
	// runs in: copying goes by OSC 52 to that terminal only, never through the process's
	// own tmux.
	Remote bool
	// Team is non-nil in a hub session: the conversations screen takes common.PolledMsg
	// instead of polling itself, and the status bar shows the team's use of the budget and
	// the sessions connected.
	Team common.Team
	// UserName is the hub user's name, shown in the status bar ("as Clara"; the operator's
	// name follows when it is another).
	UserName string
	// Mouse: clicks and the wheel (internal/ui/mouse.go). Off, the terminal is asked for no mouse
	// reports and keeps its own text selection.
	Mouse bool
	// Alerts are the alerts of arrivals: bell, title, notifications (alerts.go).
	Alerts Alerts
	// MarkReadOnOpen: opening an unread conversation marks it read (where the session may
	// write).
	MarkReadOnOpen bool
	// Hyperlinks: the links parley draws (a message's attachment, an add-on link) are
	// terminal hyperlinks (OSC 8), for a terminal that takes them (common.Ctx.Hyperlinks).
	Hyperlinks bool

	// Views are the saved views of the list screens (the config file's views: section);
	// SaveView writes one into the config file (nil: none can be saved).
	Views    []common.SavedView
	SaveView func(common.SavedView) error
	// Orderings are the list screens' default orders, by screen (the config file's all
	// entries; a screen not in it keeps its list's own).
	Orderings map[string]string
	// State is what the last run left to restore (nil: start afresh); SaveState keeps the
	// state when it changes (called from a command; nil: not kept).
	State     *State
	SaveState func(State)
	// StartNote, when set, is shown at start as an error toast: what went wrong before the
	// TUI started that the user must know (the state file was damaged and kept aside).
	StartNote string
}

// denied is what the session may not do (keymap.Caps): read-only writes nothing, a fixed
// operator (a hub agent) acts as no one else and changes no operator, a fixed organization
// picks no other, a remote session (the hub's) saves no file on the hub's machine.
func (o Options) denied() keymap.Caps {
	var c keymap.Caps
	if o.ReadOnly {
		c |= keymap.CanWrite
	}
	if o.FixedOperator {
		c |= keymap.CanActAs | keymap.CanManageOperators
	}
	if o.FixedOrganization {
		c |= keymap.CanPickOrg
	}
	if o.Remote {
		c |= keymap.CanSaveFiles // the machine is the hub's, not the session's
	}
	return c
}

// onlyOperator is the one operator a fixed-operator session (a hub agent) acts as and sets
// the away status of (0: any).
func onlyOperator(o Options) int64 {
	if o.FixedOperator {
		return o.DefaultOperatorID
	}
	return 0
}

// App is the root model.
type App struct {
	ctx  *common.Ctx
	opts Options
	base *client.Client // the client without organization/operator context changes
	// route holds the screens, the shown one and the modal stack, and routes messages
	// between them (common.Router); specs[i] declares route.Screens[i] (screens.go).
	route  common.Router
	specs  []screenSpec
	width  int
	height int

	toasts  []toast
	toastID int

	trouble     troubles // what the client reported that the status bar holds (troubles.go)
	statusTick  bool
	bars        barCache // the tab bar and status bar, redrawn only when their text changes
	lastRefresh time.Time
	autoGen     int
	auto        autoClock // the auto-refresh policy's activity and timer (refresh.go)
	safe        safety    // panics caught in Init, Update, View or a command (safe.go)
	leaving     bool      // the program is quitting: its final frame is empty (Leaving)
	hits        hits      // where the last frame drew the tabs and the top modal (mouse.go)
	alert       alerting  // the bell's last ring and the mute (alerts.go)
	// loads stamps the root's own requests (the operator directory, the check before a
	// switch of organization); the zero loader: the root is one, its owner id 0.
	loads   common.Loader
	back    []backEntry  // where the jumps came from, newest last (back.go)
	quitAsk common.Modal // the open "discard …?" question before quitting, if any
	saved   State        // the state last written (or restored)

	// Organization and operator context (contextpicker.go).
	opList    []client.Operator // the current organization's operators, for ctrl+p
	opsOrg    int64             // the organization the operator directory came from
	tokenOrg  int64             // the token's default organization, once a directory showed it
	opsFor    int64             // the organization header the directory was asked with
	switching *contextPickedMsg // a switch waiting for the API to confirm the organization
}

type toast struct {
	id    int
	text  string
	err   bool
	until time.Time
}

type toastExpiredMsg struct{ id int }
type eventMsg struct{ ev client.Event }
type statusTickMsg struct{}
type autoTickMsg struct{ gen int }

// New builds the root model with its screens.
func New(o Options) *App {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RequestBudget <= 0 {
		o.RequestBudget = common.APIDailyLimit / 10
	}
	o.UserName = sanitize.Line(strings.TrimSpace(o.UserName))
	if deny := o.denied(); deny != 0 {
		// On a copy: the caller's key map stays as it is (a hub's sessions may share one).
		keys := *o.Keys
		keys.Deny(deny)
		o.Keys = &keys
	}
	ctx := &common.Ctx{
		Styles:            o.Styles,
		Keys:              o.Keys,
		Now:               o.Now,
		Timer:             o.Timer,
		Client:            o.Client,
		PageSize:          o.PageSize,
		Operators:         map[int64]string{},
		DefaultOperatorID: o.DefaultOperatorID,
		OnlyOperator:      onlyOperator(o),
		Remote:            o.Remote,
		Hyperlinks:        o.Hyperlinks,
		SharePolls:        sharePolls(o),
		ActingOperatorID:  o.Client.OperatorID(),
		Budget: common.Budget{Interval: o.RefreshInterval, PerDay: o.RequestBudget,
			Reserve: common.ReserveFor(o.RequestBudget), ShiftEnd: o.ShiftEnd},
		Views:          slices.Clone(o.Views),
		Orderings:      maps.Clone(o.Orderings),
		SaveView:       o.SaveView,
		MarkReadOnOpen: o.MarkReadOnOpen,
	}
	a := &App{ctx: ctx, opts: o, base: o.Client,
		trouble: troubles{waits: map[client.Family]wait{}, limits: map[client.Family]time.Time{}}}
	a.auto.lastKey, a.auto.lastRun = o.Now(), o.Now() // start-up loads every shown screen
	ctx.Activity = a.activity
	a.specs = screenSpecs()
	a.route = common.Router{Ctx: ctx, Hooks: common.KeyHooks{First: a.firstKey, Global: a.globalKey}}
	for _, sp := range a.specs {
		a.route.Screens = append(a.route.Screens, sp.build(ctx))
	}
	a.restore(o.State)
	return a
}

// Options are the options the app was built with (the defaults filled in).
func (a *App) Options() Options { return a.opts }

// Ctx exposes the shared context (tests).
func (a *App) Ctx() *common.Ctx { return a.ctx }

// Screen returns the active screen.
func (a *App) Screen() common.Screen { return a.route.Screen() }

// ScreenName is the active screen's name ("Conversations").
func (a *App) ScreenName() string { return a.shown().title }

// shown is the active screen's row of the registry.
func (a *App) shown() screenSpec { return a.specs[a.route.Active] }

// screenKey is the number key of the screen at index i.
func (a *App) screenKey(i int) key.Binding { return a.ctx.Keys.Binding(a.specs[i].name) }

// initCmds starts every screen, loads the operator directory, listens for client events
// and starts auto-refresh.
func (a *App) initCmds() tea.Cmd {
	cmds := []tea.Cmd{a.loadOperators(), a.listen(), a.armAuto()}
	if a.opts.AskBackground {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	for _, s := range a.route.Screens {
		cmds = append(cmds, s.Init())
	}
	if a.opts.StartNote != "" {
		cmds = append(cmds, common.FailToast(a.opts.StartNote))
	}
	return tea.Batch(append(cmds, a.focusRestored())...)
}

// The root's kinds of requests (keys of its common.Loader).
const (
	loadDirectory int64 = iota // the operator directory
	loadSwitch                 // the directory of the organization a switch goes to
)

// directoryTimeout bounds the reading of an operator directory (every page).
const directoryTimeout = 60 * time.Second

func (a *App) loadOperators() tea.Cmd {
	c := a.ctx.Client
	a.opsFor = c.OrganizationID()
	return a.readDirectory(loadDirectory, c, func(stamp common.Stamp, ops []client.Operator, err error) tea.Msg {
		return common.OperatorsLoadedMsg{Stamp: stamp, Operators: ops, Err: err}
	})
}

// readDirectory is the command that reads the whole operator directory through c, as the
// root's request of kind key; msg makes the answer its message.
func (a *App) readDirectory(key int64, c *client.Client, msg func(common.Stamp, []client.Operator, error) tea.Msg) tea.Cmd {
	stamp, parent := a.loads.Start(key)
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, directoryTimeout, false)
		defer cancel()
		ops, err := c.AllOperators(ctx)
		return msg(stamp, ops, err)
	}
}

func (a *App) listen() tea.Cmd {
	ch := a.opts.Events
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		return eventMsg{ev}
	}
}

// update takes the root's own messages and routes the rest (common.Router): keys to the
// top modal, else globals, else the active screen; results to every screen and modal (each
// drops what is not its own).
func (a *App) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.route.Resize(a.width, a.screenHeight())
		if a.tooSmall() {
			return a, nil
		}
		return a, a.route.Resized()
	case tea.BackgroundColorMsg:
		return a, a.restyle(msg.IsDark())
	case tea.KeyPressMsg:
		return a, tea.Batch(a.onKey(msg), a.noteKey(msg), a.saveState())
	case tea.PasteMsg:
		return a, tea.Batch(a.onKey(msg), a.wake(false))
	case tea.MouseMsg:
		return a, a.onMouse(msg)
	case replayKeyMsg:
		return a, a.onKey(msg.press)
	case screenKeyMsg:
		cmd := a.jump(common.SwitchScreenMsg{Screen: msg.screen})
		return a, tea.Batch(cmd, func() tea.Msg { return replayKeyMsg{press: msg.press} })
	case tea.FocusMsg:
		return a, a.onFocus(true)
	case tea.BlurMsg:
		return a, a.onFocus(false)
	case common.ToastMsg:
		return a, a.addToast(msg.Text, msg.Error)
	case toastExpiredMsg:
		for i, t := range a.toasts {
			if t.id == msg.id {
				a.toasts = append(a.toasts[:i], a.toasts[i+1:]...)
				break
			}
		}
		return a, nil
	case eventMsg:
		return a, a.onEvent(msg.ev)
	case statusTickMsg:
		return a, a.onStatusTick()
	case limitEndedMsg:
		return a, a.onLimitEnded()
	case autoTickMsg:
		return a, a.onAutoTick(msg)
	case common.PolledMsg:
		return a, a.onPolled(msg)
	case common.ArrivedMsg:
		return a, a.onArrived(msg)
	case common.OutlookMsg:
		return a, a.onOutlook(msg)
	case common.RefreshedMsg:
		if msg.At.After(a.lastRefresh) {
			a.lastRefresh = msg.At
		}
		return a, nil
	case common.OperatorsLoadedMsg:
		if !a.loads.Take(msg.Stamp) {
			return a, nil
		}
		if msg.Err != nil {
			return a, common.ErrorToast(fmt.Errorf("operators: %w", msg.Err))
		}
		return a, a.applyDirectory(msg)
	case switchProbedMsg:
		return a, a.onSwitchProbed(msg)
	case contextPickedMsg:
		return a, a.setContext(msg)
	case common.TaskDoneMsg:
		return a, tea.Batch(a.broadcast(msg), a.afterOperatorTask(msg))
	case common.SwitchScreenMsg:
		if msg.Asked && a.shown().id != msg.From {
			return a, nil // the user left the screen that asked: stale
		}
		return a, tea.Batch(a.jump(msg), a.wake(false))
	}
	return a, a.route.Route(msg)
}

// restyle puts the styles for a dark or light background in place of the current ones
// (the context's Styles is shared: every view draws with the new ones) and has whatever
// keeps drawn text draw it again.
func (a *App) restyle(dark bool) tea.Cmd {
	st := a.ctx.Styles
	if st.Dark == dark {
		return nil
	}
	*st = *theme.New(st.Palette, dark, st.Mono)
	a.bars = barCache{}
	return a.broadcast(common.RestyledMsg{})
}

// broadcast sends a non-key message to every modal and every screen.
func (a *App) broadcast(msg tea.Msg) tea.Cmd { return a.route.Broadcast(msg) }

// onKey is the one input layer: every key press and paste goes through here before any
// overlay, screen or pane sees it. Over a slow link several presses arrive in one read;
// Bubble Tea's input reader delivers them one message each ("jj" is two), so each is taken
// by whatever has the keys after the one before ("/abc": the search prompt that "/" opened
// gets the rest). A paste is one message and stays whole. The router hands it to firstKey,
// the top modal, globalKey or the active screen, whichever takes it first.
func (a *App) onKey(msg tea.Msg) tea.Cmd {
	return tea.Batch(a.route.Key(msg), a.route.Settle())
}

// firstKey takes the keys that act over any modal: ctrl+c, and the act-as key over an edit
// form that is not sending (common.Submitter).
func (a *App) firstKey(msg tea.Msg) (tea.Cmd, bool) {
	k := a.ctx.Keys
	press, isKey := msg.(tea.KeyPressMsg)
	if !isKey {
		return nil, false
	}
	if key.Matches(press, k.ForceQuit) {
		return a.quit(), true
	}
	if f, ok := a.route.Top().(common.Submitter); ok && !f.Submitting() {
		if key.Matches(press, k.ActAs) {
			return a.operatorPicker(), true
		}
		if text, refused := a.refusedKey(press, keymap.InForm); refused {
			return a.addToast(text, false), true
		}
	}
	return nil, false
}

// globalKey takes, when no modal is open, the global bindings (back after a jump, quit,
// help, palette, the context pickers, the number keys) and the edit keys read-only mode
// turned off (refusedKey); on a terminal too small it takes every key (quit quits).
func (a *App) globalKey(msg tea.Msg) (tea.Cmd, bool) {
	k := a.ctx.Keys
	press, isKey := msg.(tea.KeyPressMsg)
	if a.tooSmall() {
		if isKey && key.Matches(press, k.Quit) {
			return a.quit(), true
		}
		return nil, true
	}
	if !isKey {
		return nil, false
	}
	switch {
	case a.isBack(press) && a.canGoBack():
		return a.goBack(), true
	case key.Matches(press, k.Quit):
		return a.quit(), true
	case key.Matches(press, k.Help):
		return a.ctx.OpenModal(newHelp(a.ctx, a.ScreenName(), a.helpGroups())), true
	case key.Matches(press, k.Palette):
		return a.openPalette(), true
	case key.Matches(press, k.PickOrg):
		return a.orgPicker(), true
	case key.Matches(press, k.ActAs):
		return a.operatorPicker(), true
	case key.Matches(press, k.MuteAlerts):
		return a.toggleMute(), true
	}
	for i, sp := range a.specs {
		if key.Matches(press, a.screenKey(i)) {
			a.back = nil // a screen chosen by its key leaves the path of jumps
			return a.switchTo(sp.id), true
		}
	}
	if text, refused := a.refusedKey(press, a.Screen().Where()); refused {
		return a.addToast(text, false), true
	}
	return nil, false
}

// quit ends parley, unless an open form holds unsaved text (common.Unsaved): then a
// question asks first ("Discard the note?": y quits, n or esc keeps the form). The quit
// keys pressed again while it asks (ctrl+c twice) quit: ctrl+c always can.
func (a *App) quit() tea.Cmd {
	if top := a.route.Top(); top != nil && top == a.quitAsk {
		return tea.Quit
	}
	what := ""
	for i := len(a.route.Modals) - 1; i >= 0 && what == ""; i-- {
		if u, ok := a.route.Modals[i].(common.Unsaved); ok {
			what = u.Unsaved()
		}
	}
	if what == "" {
		return tea.Quit
	}
	a.quitAsk = confirm.New(a.ctx, "Discard "+what+"?",
		"Quit parley without saving "+what+"? "+a.ctx.Keys.ForceQuit.Help().Key+" again quits too.", tea.Quit)
	return a.ctx.OpenModal(a.quitAsk)
}

// refusedKey says why a key does nothing here, before anything is asked or opened: the
// key belongs to an action of the place the user is in (w) that this session may not use
// there (keymap.KeyMap.Refused: a hub agent's e on an operator, ctrl+p, ctrl+o), or to an
// edit binding read-only turned off that no enabled binding of the screen's help takes
// (the analytics screen's d picks the date range). The words name the key, the action and
// why (keymap.Why), never a request.
func (a *App) refusedKey(press tea.KeyPressMsg, w keymap.Where) (string, bool) {
	k := a.ctx.Keys
	if b, lacks, ok := k.Refused(press.String(), w); ok {
		if lacks&keymap.CanWrite != 0 {
			return fmt.Sprintf("read-only: %s (%s) is off", press.String(), b.Help().Desc), true
		}
		return fmt.Sprintf("%s (%s) is off: %s", press.String(), b.Help().Desc, keymap.Why(lacks)), true
	}
	if !a.opts.ReadOnly {
		return "", false
	}
	off := k.DisabledEdits(press.String())
	if len(off) == 0 {
		return "", false
	}
	for _, sec := range k.Sections(w) {
		for _, b := range sec.Keys {
			if key.Matches(press, b) {
				return "", false
			}
		}
	}
	what := make([]string, 0, len(off))
	for _, b := range off {
		if d := b.Help().Desc; d != "" && !slices.Contains(what, d) {
			what = append(what, d)
		}
	}
	return fmt.Sprintf("read-only: %s (%s) is off", press.String(), strings.Join(what, ", ")), true
}

func (a *App) switchTo(id common.ScreenID) tea.Cmd {
	for i, sp := range a.specs {
		if sp.id == id && i != a.route.Active {
			a.Screen().Blur()
			a.route.Active = i
			return a.Screen().Focus()
		}
	}
	return nil
}

// helpGroups are the bindings of where the user is (keymap.KeyMap.Sections).
func (a *App) helpGroups() [][]key.Binding {
	var out [][]key.Binding
	for _, sec := range a.ctx.Keys.Sections(a.Screen().Where()) {
		out = append(out, sec.Keys)
	}
	return out
}

func (a *App) addToast(text string, isErr bool) tea.Cmd {
	a.toastID++
	d := 4 * time.Second
	if isErr {
		d = 7 * time.Second
	}
	text = sanitize.Line(text)
	// The same words again (two lists failing on one unreachable API) replace the older
	// toast rather than stack under it.
	a.toasts = slices.DeleteFunc(a.toasts, func(t toast) bool { return t.text == text && t.err == isErr })
	a.toasts = append(a.toasts, toast{id: a.toastID, text: text, err: isErr, until: a.ctx.Now().Add(d)})
	if len(a.toasts) > 3 {
		a.toasts = a.toasts[len(a.toasts)-3:]
	}
	return a.ctx.Tick(d, toastExpiredMsg{id: a.toastID})
}

func (a *App) tooSmall() bool { return a.width < MinWidth || a.height < MinHeight }

// screenHeight is the lines between the tab bar and the status bar (the footer is below
// the status bar).
func (a *App) screenHeight() int { return max(0, a.height-3) }

// View draws the tab bar, the active screen with modals over it, the status bar and the
// footer (the keys of what has them).
func (a *App) view() string {
	if a.width == 0 {
		return ""
	}
	if a.tooSmall() {
		return a.tooSmallView()
	}
	body := a.Screen().View()
	var bottom string
	var inline common.Modal
	if top := a.route.Top(); top != nil && top.Inline() {
		inline = top
	}
	modalTop, modalBottom := -1, -1 // the rows the centered modals cover, if any
	a.hits.modal = box{}
	for _, m := range a.route.Modals {
		if !m.Inline() {
			v := m.View()
			mw, mh := blockSize(v)
			top := max(0, (a.screenHeight()-mh)/2)
			a.hits.modal = box{x: max(0, (a.width-mw)/2), y: 1 + top, w: mw, h: mh} // as overlayCenter puts it
			if modalTop < 0 || top < modalTop {
				modalTop = top
			}
			modalBottom = max(modalBottom, top+mh)
			body = overlayCenter(body, v, a.width, a.screenHeight())
		}
	}
	toastLine := false
	if len(a.toasts) > 0 {
		body, toastLine = a.overlayToasts(body, modalTop, modalBottom)
	}
	switch {
	case inline != nil:
		bottom = layout.Fit(inline.View(), a.width)
	case toastLine:
		bottom = a.toastBar()
	default:
		bottom = a.statusBar()
	}
	return a.tabBar() + "\n" + body + "\n" + bottom + "\n" + a.footer()
}

func (a *App) tooSmallView() string {
	st := a.ctx.Styles
	lines := []string{
		st.Warning.Render("Terminal too small"),
		"",
		fmt.Sprintf("parley needs at least %d×%d; this one is %d×%d.", MinWidth, MinHeight, a.width, a.height),
		"Enlarge the window, or press " + a.ctx.Keys.Quit.Help().Key + " to quit.",
	}
	var out []string
	top := max(0, (a.height-len(lines))/2)
	for i := 0; i < a.height; i++ {
		j := i - top
		if j >= 0 && j < len(lines) {
			out = append(out, layout.Fit(layout.PadLeft("", max(0, (a.width-widthOf(lines[j]))/2))+lines[j], a.width))
		} else {
			out = append(out, strings.Repeat(" ", a.width))
		}
	}
	return strings.Join(out, "\n")
}

// toastBoxes renders the toasts, oldest first.
func (a *App) toastBoxes() []string {
	st := a.ctx.Styles
	var boxes []string
	// Width excludes the border: a box is at most width-4 wide, so that it keeps two
	// columns off each side and never covers a pane's left border.
	maxW := min(100, a.width-6)
	for _, t := range a.toasts {
		style := st.Toast
		text := t.text
		if t.err {
			style = st.ToastError
			text = "✗ " + text
		}
		boxes = append(boxes, style.Width(min(maxW, widthOf(text)+4)+style.GetHorizontalBorderSize()).Render(text))
	}
	return boxes
}

// overlayToasts stacks the toast boxes in the bottom-right corner of the screen area,
// newest at the bottom, above the panes' bottom border, each box right-aligned. A toast
// never covers an open form or dialog (rows modalTop to modalBottom, -1 when none): when
// the stack does not fit below the dialog (a centered dialog has no more room above),
// onLine is true and the newest toast takes the status bar's line instead.
func (a *App) overlayToasts(body string, modalTop, modalBottom int) (out string, onLine bool) {
	boxes := a.toastBoxes()
	total := 0
	for _, b := range boxes {
		_, bh := blockSize(b)
		total += bh
	}
	bottom := a.screenHeight() - 1
	if modalTop >= 0 && bottom-total < modalBottom {
		return body, true
	}
	for i := len(boxes) - 1; i >= 0; i-- {
		bw, bh := blockSize(boxes[i])
		top := bottom - bh
		if top < 0 {
			break
		}
		body = overlayAt(body, boxes[i], max(0, a.width-bw-2), top, a.width)
		bottom = top
	}
	return body, false
}

// toastBar is the newest toast as the bottom line, for when a dialog leaves no room for
// the boxes.
func (a *App) toastBar() string {
	t := a.toasts[len(a.toasts)-1]
	st := a.ctx.Styles
	if t.err {
		return layout.Fit(st.Error.Render(" ✗ "+t.text), a.width)
	}
	return layout.Fit(st.Success.Render(" "+t.text), a.width)
}

// sharePolls is how old an answer another session of the hub fetched may be for an
// auto-refresh of this one (common.Ctx.SharePolls): three quarters of the interval, so
// that a session's own last answer is always too old for its next tick while another
// session's, fetched since, is not. Outside the hub, none.
func sharePolls(o Options) time.Duration {
	if o.Team == nil || o.RefreshInterval <= 0 {
		return 0
	}
	return o.RefreshInterval * 3 / 4
}
