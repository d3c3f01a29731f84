// Package common is what every view shares: the injected context (styles, keys, clock, API
// client), the screen and modal contracts, and the app-wide messages views send upward.
package common

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/writes"
)

// Ctx is injected into every view at construction. The root owns it; it replaces Client when
// the user switches organization or operator, so views read c.Client when they build a
// command (never inside the command's closure).
type Ctx struct {
	Styles *theme.Styles
	Keys   *keymap.KeyMap
	Now    func() time.Time
	// Timer is the clock of the views' timers (Tick): nil is tea.Tick, the program's; tests
	// give one whose timers fire when the test moves its clock.
	Timer  Timer
	Client *client.Client
	// PageSize is the list page size (1..100).
	PageSize int
	// OffsetCap is the most results the offset list endpoints reach (0: the spec's 10,000,
	// OffsetCap); tests lower it with the sandbox's.
	OffsetCap int
	// Operators maps operator ids to sanitized display names, filled by the root.
	Operators map[int64]string
	// contactNames maps contact ids to the sanitized names seen on rows loaded anywhere
	// (LearnContact, ContactName): other screens name contacts with them at no cost.
	contactNames map[int64]string
	// Budget paces auto-refresh by the day's request budget (set by the root).
	Budget Budget
	// Activity tells how recently someone worked in parley (the root's keys and focus
	// reports, by the clock): with Budget it makes a screen's auto-refresh pace. nil reads
	// as Live (ActivityNow).
	Activity func() Activity
	// ActingOperatorID is the operator requests run as (0 = the token's default).
	ActingOperatorID int64
	// DefaultOperatorID is the token's own operator when known (demo: the owner).
	DefaultOperatorID int64
	// OnlyOperator is, in a session fixed to one operator (a hub agent), that operator: the
	// only one whose away status the session sets (0: any). With Keys (whose Deny and
	// Allows hold the session's role and read-only) it is what the session may do.
	OnlyOperator int64
	// Remote: the terminal is a remote session's (the team hub), not the one parley's
	// process runs in, so nothing goes through the process's own tmux (clipboard.Copy).
	Remote bool
	// Hyperlinks: the links parley draws (a message's attachment, an add-on link) are
	// terminal hyperlinks (OSC 8) on this terminal; otherwise they are text (the copy key
	// copies them either way).
	Hyperlinks bool
	// SharePolls, in a session of the team hub, is how old an answer another session
	// fetched may be for this one's auto-refresh to take it (client.Within): sessions that
	// show the same screen then cost one request a period together, not one each.
	SharePolls time.Duration

	// MarkReadOnOpen: opening an unread conversation marks it read for the acting
	// operator (one PATCH), where the session may write.
	MarkReadOnOpen bool

	// Views are the saved views of the list screens (the config file's views: section).
	Views []SavedView
	// Orderings are the orderings the list screens show when a query names none, by screen
	// (ViewsConversations, ViewsContacts): the config file's all views. A screen not in it
	// shows its list's own default (DefaultOrdering).
	Orderings map[string]string
	// SaveView writes a view into the config file (called from a command, never in
	// Update); nil when there is no config file to write to.
	SaveView func(SavedView) error

	// ids is the last id NewID gave.
	ids int

	// opening and closing are modal changes asked for during the current Update; the root
	// applies them before it handles the next message (Router.Settle).
	opening, closing []Modal
}

// OpenModal pushes m onto the modal stack before the next message is handled, so keys
// typed right after the one that opened it (a fast typist, or several keys arriving in one
// read over SSH) go to it and not to the screen. It returns nil so it can stand where a
// command is expected.
func (c *Ctx) OpenModal(m Modal) tea.Cmd {
	c.opening = append(c.opening, m)
	return nil
}

// CloseModal removes m from the modal stack before the next message is handled.
func (c *Ctx) CloseModal(m Modal) tea.Cmd {
	c.closing = append(c.closing, m)
	return nil
}

// TakeModalChanges returns the modals to close and to open, and forgets them (Router.Settle
// calls it after every Update).
func (c *Ctx) TakeModalChanges() (closing, opening []Modal) {
	closing, opening = c.closing, c.opening
	c.closing, c.opening = nil, nil
	return closing, opening
}

// ServerNow is Now corrected by what the client learnt of the server's clock
// (client.Client.ServerClock): the age of an API timestamp is told from it, so a local
// clock running fast does not show "10m" for a message just sent, nor a slow one a time
// still to come.
func (c *Ctx) ServerNow() time.Time {
	now := c.Now()
	if c.Client != nil {
		off, _ := c.Client.ServerClock()
		now = now.Add(off)
	}
	return now
}

// ActivityNow is the activity the root reports (Live without a root).
func (c *Ctx) ActivityNow() Activity {
	if c.Activity == nil {
		return Live
	}
	return c.Activity()
}

// NewID returns an id that nothing else of this app uses: the owner id of a list, a
// screen or a Loader (a component stamps its requests and results with it, so that a
// result reaches only the component that asked for it, whatever its type), and a task's id
// (so a TaskDoneMsg reaches only the form or screen that started it). Call it at
// construction or from Update (or a form's Submit), never from inside a command.
func (c *Ctx) NewID() int {
	c.ids++
	return c.ids
}

// RequestTimeout bounds one read of a view (retries included): a page of a list, a thread,
// a detail.
const RequestTimeout = 90 * time.Second

// RequestContext is the context of one request, bounded by timeout; fresh makes it skip
// the client's response cache.
func RequestContext(timeout time.Duration, fresh bool) (context.Context, context.CancelFunc) {
	return RequestContextIn(context.Background(), timeout, fresh)
}

// RequestContextIn is RequestContext within parent (a Loader's context).
func RequestContextIn(parent context.Context, timeout time.Duration, fresh bool) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(parent, timeout)
	if fresh {
		ctx = client.Fresh(ctx)
	}
	return ctx, cancel
}

// PageLimit is the page size lists ask for: PageSize when the API allows it, else the
// API's maximum.
func (c *Ctx) PageLimit() int {
	if c.PageSize >= 1 && c.PageSize <= client.MaxLimit {
		return c.PageSize
	}
	return client.MaxLimit
}

// layout.FrameStyles returns the pane frame styles of the theme.
func (c *Ctx) FrameStyles() layout.FrameStyles {
	st := c.Styles
	return layout.FrameStyles{Focused: st.BorderFocused, Blurred: st.BorderBlurred,
		TitleFocused: st.PaneTitleFocused, TitleBlurred: st.PaneTitleBlurred, Thick: st.Mono}
}

// Panes draws a screen of panes w×h, nothing when w or h is 0 or less: the panes of order
// side by side in their frames, widths[p] wide, the focused one marked (layout.Panes). When
// the screen shows one pane at a time (oneAtATime), every title names the next-pane key.
func Panes[P comparable](c *Ctx, w, h int, order []P, widths map[P]int, focus P, oneAtATime bool,
	pane func(p P, w int) (title, body string)) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	next := ""
	if oneAtATime {
		next = c.Keys.NextPane.Help().Key
	}
	return layout.Panes(c.FrameStyles(), order, widths, h, focus, next, pane)
}

// OpenModalMsg asks the root to push a modal (from a command's result; in Update use
// Ctx.OpenModal).
type OpenModalMsg struct{ Modal Modal }

// CloseModalMsg asks the root to pop the top modal.
type CloseModalMsg struct{}

// RestyledMsg says that the styles changed in place (the terminal told its background
// colour after the first frames): whatever keeps drawn text draws it again.
type RestyledMsg struct{}

// OpenModal returns a command that pushes m.
func OpenModal(m Modal) tea.Cmd { return func() tea.Msg { return OpenModalMsg{Modal: m} } }

// CloseModal returns a command that pops the top modal.
func CloseModal() tea.Cmd { return func() tea.Msg { return CloseModalMsg{} } }

// ToastMsg shows a non-modal notice for a few seconds.
type ToastMsg struct {
	Text  string
	Error bool
}

// Toast returns a command showing text.
func Toast(text string) tea.Cmd { return func() tea.Msg { return ToastMsg{Text: text} } }

// ErrorToast returns a command showing an error in plain words.
func ErrorToast(err error) tea.Cmd { return FailToast(writes.ErrorText(err)) }

// FailToast returns a command showing text, a failure the caller words itself ("Could not
// end conversation #12: …"), as an error: in the error style and for as long as every
// other error.
func FailToast(text string) tea.Cmd {
	return func() tea.Msg { return ToastMsg{Text: text, Error: true} }
}

// Unusable is the check an action on a row makes first (the selected row, the action's
// target): stop is true when there is no row (ok false: nothing to say) or when the row
// lacks what the action needs (lacks), and then cmd is a toast of why, worded by format and
// args.
func Unusable(ok, lacks bool, format string, args ...any) (cmd tea.Cmd, stop bool) {
	switch {
	case !ok:
		return nil, true
	case lacks:
		return Toast(fmt.Sprintf(format, args...)), true
	}
	return nil, false
}

// SwitchScreenMsg asks the root to show another screen.
type SwitchScreenMsg struct {
	Screen ScreenID
	// Then is delivered to the screen after switching (e.g. "open conversation 42").
	Then tea.Msg
	// From is the screen that asked, when Asked: the message travels as a command's
	// result, and a key read before it arrived (enter, then 4 at once) may have left that
	// screen already. The root drops such a switch: it would take the user back from
	// where they went. A switch without Asked (the palette's, the root's own) always runs.
	From  ScreenID
	Asked bool
}

// Jump is the command by which screen s asks the root to show screen to and hand it then
// (see SwitchScreenMsg.From).
func (s ScreenID) Jump(to ScreenID, then tea.Msg) tea.Cmd {
	return func() tea.Msg { return SwitchScreenMsg{Screen: to, Then: then, From: s, Asked: true} }
}

// ScreenID names a screen.
type ScreenID int

// Screens, in tab order.
const (
	ScreenConversations ScreenID = iota
	ScreenContacts
	ScreenOperators
	ScreenAnalytics
	ScreenNavigation
)

// OpenConversationMsg asks the conversations screen to show one conversation (for example
// from a contact's detail).
type OpenConversationMsg struct {
	ConversationID int64
	ContactID      int64
	// From says where it was opened ("a contact", "navigation"): the list names it when
	// the conversation is not among its rows.
	From string
}

// ShowOperatorConversationsMsg asks the conversations screen to list the conversations
// assigned to one operator (the spec's operator_id filter), from the operators screen. Name
// is how the list header names the operator ("assigned to Ben Okafor"), sanitized.
type ShowOperatorConversationsMsg struct {
	OperatorID int64
	Name       string
}

// RefreshMsg asks a screen to refresh what it shows. Auto is true for the auto-refresh tick
// (only the visible page, only what changed); false for the user's `r`.
type RefreshMsg struct{ Auto bool }

// RefreshedMsg tells the root a refresh finished (for "refreshed at" in the status bar).
type RefreshedMsg struct{ At time.Time }

// ContextChangedMsg tells every screen that the organization or acting operator changed:
// drop what is shown and load again.
type ContextChangedMsg struct {
	// OperatorOnly: the organization stayed, only the acting operator changed. What is
	// shown still exists, so a screen may keep its place and reload it (after a refusal
	// the user switches operator and does the same thing again).
	OperatorOnly bool
}

// OperatorsLoadedMsg carries the operator directory the root loaded (for names).
type OperatorsLoadedMsg struct {
	Stamp     Stamp // the root's request (zero for a directory the root had already)
	Operators []client.Operator
	Err       error
}

// TaskDoneMsg reports a finished write (Ctx.Start): forms match TaskID; the component that
// started it recognises it by Owner (Mine), and every screen may update what it shows from
// Kind and Result (a contact edited from the conversations screen).
type TaskDoneMsg struct {
	TaskID  int
	Owner   int
	Kind    string
	Subject int64 // the row written (0: several, or none)
	Result  any
	Err     error
	// Lost, when set, is the error of a write whose answer was lost (OutcomeUnknown), and
	// the message reports the check that followed: Err nil means the change was found on
	// the server (Result is what the check read), a *NotDoneError that it was not, an
	// *UncheckedError that the check could not tell (see outcome.go).
	Lost error
}

// Timer returns a command that delivers msg once d has passed.
type Timer func(d time.Duration, msg tea.Msg) tea.Cmd

// Tick returns a command that delivers msg after d on the context's clock (Timer): every
// timer of the views (a cursor's rest, a debounce, auto-refresh, a toast, a countdown) is
// armed here, so a test decides when each one fires.
func (c *Ctx) Tick(d time.Duration, msg tea.Msg) tea.Cmd {
	if c.Timer != nil {
		return c.Timer(d, msg)
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// LearnContact remembers a contact's sanitized name, seen on a loaded row.
func (c *Ctx) LearnContact(id int64, name string) {
	if id == 0 || name == "" {
		return
	}
	if c.contactNames == nil {
		c.contactNames = map[int64]string{}
	}
	c.contactNames[id] = name
}

// KnowsContacts reports whether any contact's name was seen.
func (c *Ctx) KnowsContacts() bool { return len(c.contactNames) > 0 }

// ContactName is the name of a contact seen on a loaded row ("" when none was).
func (c *Ctx) ContactName(id int64) string { return c.contactNames[id] }
