// Package forms hosts charmbracelet/huh forms inside parley's modal stack: tab/shift+tab
// between fields, visible validation, esc cancels (asking first when something was typed,
// if the form wants that), a failed submit keeps everything typed and the focus where it
// was (or on the field the error names) and shows the server's detail, and a double submit
// never sends two requests.
//
// Keys typed fast stay in order: huh moves the focus through a command whose message comes
// back after the keys already read (tmux send-keys, or several keys in one read over SSH),
// so those keys would land in the field being left. After a key that may move the focus the
// modal holds the keys that follow until huh has moved, then replays them in order (Bubble
// Tea delivers keys read together one message each, so "jjj" moves a list three rows).
//
// Every form submits from any field with the keymap's Submit binding (ctrl+s by default).
//
// The box always fits the height it is given: the form scrolls (huh keeps the focused field
// in view), and the error block is capped and summarised.
//
// A write whose answer was lost (client.ErrOutcomeUnknown) is never reported as saved or
// failed as it stands: a form with Options.Verify says the change may have been saved, reads
// the resource again and reports what it found (see Options.Verify and Options.Duplicate).
package forms

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/writes"
)

// Submit is called once the user completes the form. It validates what needs more than a
// field validator and starts the task: it returns the task id it will report in a
// common.TaskDoneMsg and the command that runs it. A taskID of 0 means the work is done
// (the command only notifies) and the modal closes at once. A non-nil error is shown in the
// form, which stays open with its input; a *FieldError also moves the focus to its field.
type Submit func() (taskID int, cmd tea.Cmd, err error)

// Options configure a Modal.
type Options struct {
	Title string
	// Build returns the form over the caller's bound values. It may be called more than
	// once (to measure the form, and again after a failed submit), so it must only build:
	// everything typed is kept because huh binds fields to pointers.
	Build func() *huh.Form
	// Submit starts the work.
	Submit Submit
	// Check, when set, validates the bound values without side effects (what Submit checks
	// before it starts anything). It runs before Submit, and after a failed check it runs
	// again as the user edits, so the error shown always describes the values as they are
	// (it disappears once they are fixed). Without it, such an error is cleared by the
	// next edit. A *FieldError moves the focus to its field on submit.
	Check func() error
	// Dirty, when set, reports whether esc would discard typed text; the modal then asks
	// before closing, and quitting parley asks too (Unsaved).
	Dirty func() bool
	// Discard names what Dirty reports in the question asked before quitting ("the note";
	// "" = "your changes").
	Discard string
	// Width is the preferred width of the box (0 = 64).
	Width int
	// Success is the toast shown when the task succeeds ("" = none).
	Success string
	// Cancelled, when set, is sent when esc closes the form without a submit.
	Cancelled func() tea.Msg
	// Does names what submitting does in the keys' hints ("save": "ctrl+s save"; "" =
	// "submit").
	Does string
	// KeyMap replaces huh's default keys (nil = defaults); the modal handles esc and
	// ctrl+c itself, so its Quit binding is disabled.
	KeyMap *huh.KeyMap
	// Verify, when set, checks a write whose answer was lost. When the task reports an
	// error matching client.ErrOutcomeUnknown, the form says that the change may have been
	// saved and runs Verify(taskID, cause): a command that reads the resource again,
	// skipping the response cache, and reports a common.TaskDoneMsg with taskID and Lost
	// set to cause. Its Err is nil when the change is on the server (the form closes as
	// after a success, and the toast says the save was confirmed), a *writes.NotDoneError
	// when it is not (the form stays open and the submit key sends again), or a
	// *writes.UncheckedError when the read could not tell (the form stays open and says
	// so). Meanwhile the form keeps everything typed and takes no submit. Without Verify
	// such an error is shown as it is, saying that the change may have been made.
	Verify func(taskID int, cause error) tea.Cmd
	// Duplicate, when set with Verify, guards a change that must not be made twice (a new
	// note): after a write whose answer was lost, the next submit first checks with
	// Verify (cause is that write's error) whether it was carried out after all. If it
	// was, the form asks the question Duplicate returns for what the check found (ending
	// in keymap's YesNo): a yes key sends anyway; any other key sends nothing, and the form then
	// closes as saved when same (the earlier write saved what the form holds now) or stays
	// open. When the check fails, the form says so and the next submit sends without
	// checking.
	Duplicate func(found common.TaskDoneMsg) (question string, same bool)
}

// Hint is the line a form shows under its first group's title: how to move, that the
// submit key does what does says ("saves") from any field, and how to cancel, with the
// keys as they are bound now.
func Hint(ctx *common.Ctx, does string) string {
	return "tab/shift+tab move · " + ctx.Keys.Submit.Help().Key + " " + does + " from any field · " +
		ctx.Keys.Back.Help().Key + " cancels"
}

// FieldError is an error about one field of the form (from Check or Submit): the form
// shows it and moves the focus to that field. Group is the field's group (0 = first) and
// Field its index among the group's fields.
type FieldError struct {
	Group, Field int
	Err          error
}

func (e *FieldError) Error() string { return e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// AtField returns err as a FieldError about field of group (nil stays nil).
func AtField(group, field int, err error) error {
	if err == nil {
		return nil
	}
	return &FieldError{Group: group, Field: field, Err: err}
}

// Labelled returns check with the field's title in front of its message ("Email: …"): the
// modal lists the fields' messages below the form, where they need the name.
func Labelled(title string, check func(string) error) func(string) error {
	return func(s string) error {
		if err := check(s); err != nil {
			return fmt.Errorf("%s: %w", title, err)
		}
		return nil
	}
}

// holdLimit bounds how long keys are held when huh's focus move does not come back (it
// always does in a real program; this only keeps the form usable if it did not).
const holdLimit = 200 * time.Millisecond

// probeHeight is the height a form is measured at (taller than any form parley shows).
const probeHeight = 300

// settledMsg says that the commands of a focus move sent their messages: the held keys
// may go to the field that has the focus now.
type settledMsg struct {
	m   *Modal
	gen int
}

// redrawMsg makes the form draw its group again (fields ignore it).
type redrawMsg struct{}

type errKind int

const (
	errNone   errKind = iota
	errCheck          // refused before sending: recomputed (or cleared) as the user edits
	errServer         // the task failed: kept until the next submit
)

// Modal is a huh form in a centered box.
type Modal struct {
	ctx        *common.Ctx
	opts       Options
	km         *huh.KeyMap
	typingKm   *huh.KeyMap // km while a select's filter takes text (syncKeys)
	typing     bool        // typingKm is on the form
	form       *huh.Form
	width      int
	height     int
	submitting bool
	taskID     int
	err        string
	errKind    errKind
	confirming bool // asking whether to discard typed text
	closed     bool // asked the root to close it

	// Writes whose answer was lost (Options.Verify, Options.Duplicate).
	checking    bool   // Verify runs after the last write's answer was lost
	prechecking bool   // Verify runs before a resubmit
	lost        error  // the error of the last write whose answer was lost, until a success
	force       bool   // the check before a resubmit failed: the next submit sends at once
	asking      string // the question about a duplicate, waiting for y
	askSame     bool   // what the earlier write saved is what the form holds now

	// Keys held while huh moves the focus (see the package comment).
	holding bool
	gen     int
	held    []tea.Msg // keys and pastes
	leaving huh.Field // the field a move to another group started from

	// The form's shape at the current width: its groups and its tallest group's height.
	groups  int
	natural int
	formH   int // the height given to the form (0 = none yet)
}

// New builds a form modal.
func New(ctx *common.Ctx, opts Options) *Modal {
	m := &Modal{ctx: ctx, opts: opts, km: keyMap(ctx.Keys, opts.KeyMap, opts.Does)}
	m.typingKm = typingKeyMap(m.km)
	m.form = m.newForm()
	return m
}

// keyMap is km (or huh's defaults) without Quit, with the lists of selects and
// multi-selects taking the keymap's keys: up, down, top, bottom and page up/down move the
// cursor, the search key filters, and a multi-select's options are marked with the mark
// key, so that a key rebound in the config is the same key in a form's list as in every
// other list. Moving between fields and submitting stay huh's (tab, shift+tab, enter),
// besides the keymap's Submit, which the modal handles.
//
// The hints say what the keys do: enter (or tab) moves to the next field ("next field";
// huh's multi-select says "confirm", which it does not), and on the last field, as the
// submit key from any field, does what does says ("save"; "" leaves huh's "submit").
func keyMap(keys *keymap.KeyMap, km *huh.KeyMap, does string) *huh.KeyMap {
	if km == nil {
		km = huh.NewDefaultKeyMap()
	} else {
		c := *km
		km = &c
	}
	say := func(b *key.Binding, desc string) {
		if desc != "" {
			b.SetHelp(b.Help().Key, desc)
		}
	}
	for _, b := range []*key.Binding{&km.Input.Next, &km.Text.Next, &km.MultiSelect.Next, &km.Note.Next, &km.Confirm.Next} {
		say(b, "next field")
	}
	for _, b := range []*key.Binding{&km.Input.Submit, &km.Text.Submit, &km.Select.Submit, &km.MultiSelect.Submit,
		&km.Note.Submit, &km.Confirm.Submit} {
		say(b, does)
	}
	km.Quit = key.NewBinding(key.WithDisabled()) // esc/ctrl+c are handled by the modal
	s, ms := &km.Select, &km.MultiSelect
	s.Up, ms.Up = keymap.As(keys.Up, "up"), keymap.As(keys.Up, "up")
	s.Down, ms.Down = keymap.As(keys.Down, "down"), keymap.As(keys.Down, "down")
	s.GotoTop, ms.GotoTop = keymap.As(keys.Top, "go to start"), keymap.As(keys.Top, "go to start")
	s.GotoBottom, ms.GotoBottom = keymap.As(keys.Bottom, "go to end"), keymap.As(keys.Bottom, "go to end")
	s.HalfPageUp, ms.HalfPageUp = keymap.As(keys.PageUp, "½ page up"), keymap.As(keys.PageUp, "½ page up")
	s.HalfPageDown, ms.HalfPageDown = keymap.As(keys.PageDown, "½ page down"), keymap.As(keys.PageDown, "½ page down")
	s.Filter, ms.Filter = keymap.As(keys.Search, "filter"), keymap.As(keys.Search, "filter")
	// Marking a choice is no edit: read-only turns Mark off for the lists' row marks, but
	// the analytics filter's operator choice (allowed read-only) is toggled with it.
	ms.Toggle = keymap.As(keys.Mark, "toggle")
	ms.Toggle.SetEnabled(true)
	return km
}

// typingKeyMap is km while a select's filter has the focus: the filter takes every
// printable key as text, so the list's bindings keep only their other keys (huh would
// otherwise both type a rebound printable key and move with it), and the filter's own
// bindings are set as huh sets them when filtering starts.
func typingKeyMap(km *huh.KeyMap) *huh.KeyMap {
	out := *km
	keep := func(b key.Binding) key.Binding {
		var ks []string
		for _, k := range b.Keys() {
			if len([]rune(k)) != 1 { // a printable key is one character; named keys are longer
				ks = append(ks, k)
			}
		}
		if len(ks) == 0 {
			return key.NewBinding(key.WithDisabled())
		}
		return key.NewBinding(key.WithKeys(ks...), key.WithHelp(keymap.HelpKeys(ks), b.Help().Desc))
	}
	for _, b := range []*key.Binding{&out.Select.Up, &out.Select.Down, &out.Select.GotoTop, &out.Select.GotoBottom,
		&out.Select.HalfPageUp, &out.Select.HalfPageDown,
		&out.MultiSelect.Up, &out.MultiSelect.Down, &out.MultiSelect.GotoTop, &out.MultiSelect.GotoBottom,
		&out.MultiSelect.HalfPageUp, &out.MultiSelect.HalfPageDown} {
		*b = keep(*b)
	}
	out.Select.Filter.SetEnabled(false)
	out.Select.SetFilter.SetEnabled(true)
	out.MultiSelect.Filter.SetEnabled(false)
	out.MultiSelect.SetFilter.SetEnabled(true)
	return &out
}

// syncKeys puts on the form the keys for what the focused field does now: typingKm while
// it filters, km otherwise.
func (m *Modal) syncKeys() {
	f, ok := m.focused().(interface{ GetFiltering() bool })
	typing := ok && f.GetFiltering()
	if typing == m.typing {
		return
	}
	m.typing = typing
	if typing {
		m.form.WithKeyMap(m.typingKm)
	} else {
		m.form.WithKeyMap(m.km)
	}
}

// Theme returns the huh styles matching parley's styles, for the background they were
// picked for.
func Theme(ctx *common.Ctx) *huh.Styles {
	var t *huh.Styles
	if ctx.Styles.Mono {
		t = huh.ThemeBase(ctx.Styles.Dark)
	} else {
		t = huh.ThemeCharm(ctx.Styles.Dark)
	}
	if ctx.Styles.Plain {
		theme.Strip(t)
	}
	return t
}

// newForm builds the form at the modal's width. The modal draws the help and the errors
// itself, below the form, so that it can size the form to what is left.
func (m *Modal) newForm() *huh.Form {
	m.typing = false
	f := m.opts.Build().WithTheme(m.theme()).WithShowHelp(false).WithShowErrors(false).WithKeyMap(m.km)
	if m.width > 0 {
		f = f.WithWidth(m.innerWidth())
	}
	return f
}

// theme is Theme with the options of multi-selects kept on one line: huh lets the field's
// frame wrap a long option, whose rest then starts under the border, left of the cursor
// and the check marks, so an option wider than the field is cut with "…" at the width the
// modal has when it is drawn. (A select wraps its options itself, indented under their
// start; those are left alone.)
func (m *Modal) theme() huh.Theme {
	t := Theme(m.ctx)
	lead := 0 // what huh draws in front of an option, the field's frame included
	for _, st := range []huh.FieldStyles{t.Focused, t.Blurred} {
		lead = max(lead, st.Base.GetHorizontalFrameSize()+lipgloss.Width(st.MultiSelectSelector.String())+
			max(lipgloss.Width(st.SelectedPrefix.String()), lipgloss.Width(st.UnselectedPrefix.String())))
	}
	cut := func(s string) string {
		if strings.Contains(s, "\n") {
			return s // wrapped by a select
		}
		if w := max(1, m.innerWidth()-lead); ansi.StringWidth(s) > w {
			return ansi.Truncate(s, w, "…")
		}
		return s
	}
	for _, st := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		st.SelectedOption = st.SelectedOption.Transform(cut)
		st.UnselectedOption = st.UnselectedOption.Transform(cut)
	}
	// The form asks the terminal nothing: the styles are for the background parley found.
	return huh.ThemeFunc(func(bool) *huh.Styles { return t })
}

// measure finds the number of groups and the height of the tallest one at this width, on
// a form of its own (moving between groups of a fresh form changes no bound value).
func (m *Modal) measure() {
	p := m.newForm().WithHeight(probeHeight)
	_ = p.Init()
	m.groups, m.natural = 0, 0
	for m.groups < 100 {
		m.groups++
		m.natural = max(m.natural, contentHeight(p.View()))
		before := p.GetFocusedField()
		_ = p.NextGroup()
		if p.State != huh.StateNormal || p.GetFocusedField() == before {
			break
		}
	}
}

// contentHeight is the number of lines of v without the blank ones at the end.
func contentHeight(v string) int {
	lines := strings.Split(v, "\n")
	for len(lines) > 1 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return len(lines)
}

// Err is the error shown in the form ("" = none).
func (m *Modal) Err() string { return m.err }

// Submitting reports a task in flight (a check after a lost answer included).
func (m *Modal) Submitting() bool { return m.submitting }

// Checking reports a check in flight after a write whose answer was lost, or before a
// resubmit.
func (m *Modal) Checking() bool { return m.checking || m.prechecking }

// Asking is the question about sending a duplicate shown in the form ("" = none).
func (m *Modal) Asking() string { return m.asking }

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
	resized := w != m.width || m.groups == 0
	m.width, m.height = w, h
	m.form = m.form.WithWidth(m.innerWidth())
	if resized {
		m.measure()
	}
	m.formH = 0
	m.fit()
	// huh draws a group when it updates: draw it again at the new size now (fields ignore
	// the message).
	_ = m.forward(redrawMsg{})
}

// Inline is false: forms are centered boxes.
func (m *Modal) Inline() bool { return false }

// ShortHelp lists the keys of the focused field (huh's bindings), the submit key and esc.
func (m *Modal) ShortHelp() []key.Binding {
	back := m.ctx.Keys.Back
	return append(m.helpKeys(), key.NewBinding(key.WithKeys(back.Keys()...), key.WithHelp(back.Help().Key, "cancel")))
}

// Unsaved names what quitting would lose ("the note", "your changes"; common.Unsaved):
// "" when nothing was typed or changed.
func (m *Modal) Unsaved() string {
	if m.closed || m.opts.Dirty == nil || !m.opts.Dirty() {
		return ""
	}
	if m.opts.Discard != "" {
		return m.opts.Discard
	}
	return "your changes"
}

// SubmitKey is the keymap's Submit binding, which saves the form from any field.
func (m *Modal) SubmitKey() key.Binding { return m.ctx.Keys.Submit }

// Update routes keys to the form and handles completion and the task's result.
func (m *Modal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	cmd := m.update(msg)
	m.fit()
	return m, cmd
}

func (m *Modal) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case settledMsg:
		if msg.m != m || !m.holding || msg.gen != m.gen {
			return nil
		}
		return m.release()
	case common.TaskDoneMsg:
		if !m.submitting || msg.TaskID != m.taskID {
			return nil
		}
		m.submitting = false
		switch {
		case m.prechecking:
			m.prechecking = false
			return m.afterPrecheck(msg)
		case m.checking:
			m.checking = false
			return m.afterCheck(msg)
		}
		if msg.Err != nil {
			if m.opts.Verify != nil && writes.OutcomeUnknown(msg.Err) {
				m.lost = msg.Err
				return m.verify(false)
			}
			return m.fail(writes.ErrorText(msg.Err), msg.Err, errServer)
		}
		return m.succeed("")
	case tea.WindowSizeMsg:
		return nil // the root sizes modals through SetSize
	case tea.KeyPressMsg, tea.PasteMsg:
		return m.input(msg)
	case tea.MouseClickMsg:
		return m.click(msg.Mouse())
	case tea.MouseWheelMsg:
		return nil
	}
	if m.submitting {
		return nil
	}
	// One of huh's own messages (a focus move, a cursor blink, …).
	fieldMove := msg == huh.NextField() || msg == huh.PrevField()
	before := m.focused()
	cmd := m.forward(msg)
	if m.form.State == huh.StateCompleted {
		return tea.Batch(cmd, m.complete())
	}
	if m.holding && fieldMove {
		// Leaving the last field of a group moves on to the next group through one more
		// command: keep holding until that move is done too.
		if after := m.focused(); after == before || after == nil || after.Skip() {
			m.leaving = before
			return m.hold(cmd)
		}
	}
	return cmd
}

// input takes a key or a paste, or holds it while huh moves the focus (release replays it).
func (m *Modal) input(msg tea.Msg) tea.Cmd {
	if m.holding {
		m.held = append(m.held, msg)
		return nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		return m.paste(msg)
	}
	return nil
}

func (m *Modal) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.confirming {
		if m.ctx.Keys.IsYes(msg) {
			return m.cancel()
		}
		m.confirming = false
		return nil
	}
	if m.asking != "" {
		return m.answer(msg)
	}
	if key.Matches(msg, m.ctx.Keys.Back) {
		if m.submitting {
			return nil
		}
		if m.opts.Dirty != nil && m.opts.Dirty() {
			m.confirming = true
			return nil
		}
		return m.cancel()
	}
	if m.submitting {
		return nil // a second submit never sends a second request
	}
	if key.Matches(msg, m.SubmitKey()) {
		return m.complete()
	}
	m.syncKeys()
	moves := m.mayMoveFocus(msg)
	cmd := m.forward(msg)
	if m.form.State == huh.StateCompleted {
		return tea.Batch(cmd, m.complete())
	}
	m.recheck(moves)
	if moves {
		return m.hold(cmd)
	}
	return cmd
}

// paste hands pasted text to the focused field.
func (m *Modal) paste(msg tea.PasteMsg) tea.Cmd {
	if m.confirming || m.asking != "" || m.submitting {
		return nil
	}
	cmd := m.forward(msg)
	m.recheck(false)
	return cmd
}

// forward hands msg to the form.
func (m *Modal) forward(msg tea.Msg) tea.Cmd {
	f, cmd := m.form.Update(msg)
	if ff, ok := f.(*huh.Form); ok {
		m.form = ff
	}
	return cmd
}

func (m *Modal) close() tea.Cmd {
	m.closed = true
	return m.ctx.CloseModal(m)
}

// cancel closes the form without a submit (esc).
func (m *Modal) cancel() tea.Cmd {
	if m.opts.Cancelled == nil {
		return m.close()
	}
	return tea.Batch(m.close(), m.opts.Cancelled)
}

// focused is the field with the focus (nil once the form is done).
func (m *Modal) focused() huh.Field {
	if m.form.State != huh.StateNormal {
		return nil
	}
	return m.form.GetFocusedField()
}

// mayMoveFocus reports whether k is one of the keys with which the focused field moves the
// focus (to the next or previous field, or on to submit).
func (m *Modal) mayMoveFocus(k tea.KeyPressMsg) bool {
	km := m.km
	var keys []key.Binding
	switch m.focused().(type) {
	case nil:
		return false
	case *huh.Input:
		keys = []key.Binding{km.Input.Next, km.Input.Prev, km.Input.Submit}
	case *huh.Text:
		keys = []key.Binding{km.Text.Next, km.Text.Prev, km.Text.Submit}
	case *huh.Confirm:
		keys = []key.Binding{km.Confirm.Next, km.Confirm.Prev, km.Confirm.Submit, km.Confirm.Accept, km.Confirm.Reject}
	case *huh.Note:
		keys = []key.Binding{km.Note.Next, km.Note.Prev, km.Note.Submit}
	case *huh.FilePicker:
		keys = []key.Binding{km.FilePicker.Next, km.FilePicker.Prev, km.FilePicker.Submit}
	default: // Select[T] and MultiSelect[T]
		keys = []key.Binding{km.Select.Next, km.Select.Prev, km.Select.Submit,
			km.MultiSelect.Next, km.MultiSelect.Prev, km.MultiSelect.Submit}
	}
	return key.Matches(k, keys...)
}

// hold keeps the keys that follow until cmd (a focus move) has delivered its messages: a
// Sequence runs cmd and everything it batches before the settledMsg, and the program
// handles messages in the order they are sent. holdLimit ends the hold in any case.
func (m *Modal) hold(cmd tea.Cmd) tea.Cmd {
	m.gen++
	m.holding = true
	done := settledMsg{m: m, gen: m.gen}
	return tea.Batch(
		tea.Sequence(cmd, func() tea.Msg { return done }),
		m.ctx.Tick(holdLimit, done),
	)
}

// release replays the held keys in order (one of them may start a new hold: the keys after
// it are then held again).
func (m *Modal) release() tea.Cmd {
	m.holding = false
	keys := m.held
	m.held = nil
	var cmds []tea.Cmd
	if m.leaving != nil && m.focused() == m.leaving {
		// huh refused to change groups (a field of the group has an error) after it had
		// blurred the field: without this, no field would take the keys.
		cmds = append(cmds, m.refocus())
	}
	m.leaving = nil
	for _, k := range keys {
		if m.closed {
			break // the rest was meant for what is under the modal; it is gone with it
		}
		cmds = append(cmds, m.input(k))
	}
	return tea.Batch(cmds...)
}

// recheck updates an error from a failed check after an edit: with Check it describes the
// values as they are now, without it the edit clears it.
func (m *Modal) recheck(moved bool) {
	if m.errKind != errCheck {
		return
	}
	if m.opts.Check == nil {
		if !moved {
			m.err, m.errKind = "", errNone
		}
		return
	}
	if err := m.opts.Check(); err != nil {
		m.err = err.Error()
	} else {
		m.err, m.errKind = "", errNone
	}
}

// complete runs Submit once.
func (m *Modal) complete() tea.Cmd {
	if m.submitting {
		return nil
	}
	if m.form.State == huh.StateNormal && len(m.form.Errors()) > 0 {
		// A field's own check failed: go there. Check says the same with the field's name.
		m.err, m.errKind = "", errNone
		if m.opts.Check != nil {
			if err := m.opts.Check(); err != nil {
				m.err, m.errKind = err.Error(), errCheck
			}
		}
		return m.focusFieldError()
	}
	if m.opts.Check != nil {
		if err := m.opts.Check(); err != nil {
			return m.fail(err.Error(), err, errCheck)
		}
	}
	if m.lost != nil && m.opts.Duplicate != nil && m.opts.Verify != nil && !m.force {
		// The last write's answer was lost: it may be on the server by now. Look first.
		m.err, m.errKind = "", errNone
		return m.verify(true)
	}
	return m.send()
}

// send runs Submit: the form's write starts (or, with a task id of 0, is done).
func (m *Modal) send() tea.Cmd {
	m.force = false
	id, cmd, err := m.opts.Submit()
	if err != nil {
		return m.fail(err.Error(), err, errCheck)
	}
	m.err, m.errKind = "", errNone
	if id == 0 {
		return tea.Batch(cmd, m.close())
	}
	m.submitting = true
	m.taskID = id
	return cmd
}

// succeed closes the form after its change was made, with the success toast followed by
// note (" (confirmed after the connection dropped)").
func (m *Modal) succeed(note string) tea.Cmd {
	m.lost, m.force = nil, false
	cmds := []tea.Cmd{m.close()}
	if m.opts.Success != "" {
		cmds = append(cmds, common.Toast(m.opts.Success+note))
	}
	return tea.Batch(cmds...)
}

// verify starts Options.Verify about the write whose answer was lost (m.lost): right after
// it (pre false), or before a resubmit (pre true).
func (m *Modal) verify(pre bool) tea.Cmd {
	id := m.ctx.NewID()
	m.submitting, m.taskID = true, id
	m.checking, m.prechecking = !pre, pre
	if !pre {
		m.err, m.errKind = "", errNone
	}
	return m.opts.Verify(id, m.lost)
}

// afterCheck shows what the check after a lost answer found.
func (m *Modal) afterCheck(msg common.TaskDoneMsg) tea.Cmd {
	var notDone *writes.NotDoneError
	switch {
	case msg.Err == nil:
		lost := msg.Lost
		if lost == nil {
			lost = m.lost
		}
		return m.succeed(writes.Confirmed(lost))
	case errors.As(msg.Err, &notDone):
		return m.fail(m.withKey(writes.ErrorText(msg.Err), "sends it again."), msg.Err, errServer)
	}
	text := writes.ErrorText(msg.Err)
	if m.opts.Duplicate == nil {
		// Sending the same change again does no harm.
		text = m.withKey(text, "sends it again.")
	}
	return m.fail(text, msg.Err, errServer)
}

// afterPrecheck goes on with a resubmit once the check of the earlier write came back:
// not on the server, send; on the server, ask; no answer, say so (the next submit sends).
func (m *Modal) afterPrecheck(msg common.TaskDoneMsg) tea.Cmd {
	var notDone *writes.NotDoneError
	switch {
	case msg.Err == nil:
		m.asking, m.askSame = m.opts.Duplicate(msg)
		if m.asking == "" {
			return m.send()
		}
		if m.form.State != huh.StateNormal {
			return m.reopen(nil)
		}
		return nil
	case errors.As(msg.Err, &notDone):
		return m.send()
	}
	m.force = true
	return m.fail(m.withKey(writes.ErrorText(msg.Err), "sends it anyway."), msg.Err, errServer)
}

// answer takes the answer to the question about a duplicate: y sends, anything else not.
func (m *Modal) answer(msg tea.KeyPressMsg) tea.Cmd {
	same := m.askSame
	m.asking, m.askSame = "", false
	if m.ctx.Keys.IsYes(msg) {
		return m.send()
	}
	if same {
		return m.succeed(" by the earlier attempt; no copy sent")
	}
	m.err, m.errKind = m.withKey("Not sent: the earlier attempt is on the server.", "asks again."), errServer
	return nil
}

// withKey is text followed by the submit key and what it does ("ctrl+s sends it again.").
func (m *Modal) withKey(text, does string) string {
	return text + " " + m.SubmitKey().Help().Key + " " + does
}

// fail shows text and keeps the form open with everything typed. The focus stays where it
// was, or goes to the field err names. A form that huh already completed (enter on its
// last field) is built again over the same values, with the focus back on that last field.
func (m *Modal) fail(text string, err error, kind errKind) tea.Cmd {
	m.err, m.errKind = text, kind
	var fe *FieldError
	named := errors.As(err, &fe)
	if m.form.State == huh.StateNormal && !named {
		return nil
	}
	return m.reopen(fe)
}

// reopen builds the form again over the same values (huh completed it, or the focus must
// go to the field fe names), with the focus on that field or on the last one.
func (m *Modal) reopen(fe *FieldError) tea.Cmd {
	named := fe != nil
	m.form = m.newForm()
	m.formH = 0
	cmds := []tea.Cmd{m.form.Init()}
	if named {
		cmds = append(cmds, m.moveTo(fe.Group, fe.Field))
	} else {
		cmds = append(cmds, m.moveTo(m.groups-1, probeHeight))
	}
	return tea.Batch(cmds...)
}

// moveTo moves the focus of a fresh form to field (at most: it stops at the last) of group.
// It uses huh's own moves, run right away; their commands (cursor blinks, and the group
// change huh asks for after the last field) are dropped, and the field reached is focused
// again for its cursor.
func (m *Modal) moveTo(group, field int) tea.Cmd {
	for g := 0; g < min(group, m.groups-1); g++ {
		before := m.focused()
		_ = m.form.NextGroup()
		if after := m.focused(); after == nil || after == before {
			break
		}
	}
	for i := 0; i < field; i++ {
		before := m.focused()
		_ = m.form.NextField()
		after := m.focused()
		if after == nil || after == before {
			break
		}
		if after.Skip() {
			_ = m.form.PrevField()
			break
		}
	}
	return m.refocus()
}

// refocus focuses the focused field again (huh's moves, run directly, may leave it blurred)
// and redraws the group, which huh draws only when it updates.
func (m *Modal) refocus() tea.Cmd {
	f := m.focused()
	if f == nil {
		return nil
	}
	return tea.Batch(f.Focus(), m.forward(redrawMsg{}))
}

// focusFieldError moves the focus to the first field of the current group with an error.
func (m *Modal) focusFieldError() tea.Cmd {
	if f := m.focused(); f == nil || f.Error() != nil {
		return m.refocus()
	}
	for i := 0; i < probeHeight; i++ { // back to the group's first field
		before := m.focused()
		_ = m.form.PrevField()
		if after := m.focused(); after == nil || after == before || after.Skip() {
			break
		}
	}
	for i := 0; i < probeHeight; i++ {
		f := m.focused()
		if f == nil || f.Error() != nil {
			break
		}
		_ = m.form.NextField()
		if after := m.focused(); after == nil || after == f || after.Skip() {
			break
		}
	}
	return m.refocus()
}

// fit gives the form the height left by the title, the help and the lines below it, so the
// box never outgrows the area (huh scrolls the group and keeps the focused field in view).
func (m *Modal) fit() {
	if m.height <= 0 {
		return
	}
	// border, title, blank line, blank line and help, then the lines below.
	h := max(3, m.height-6-len(m.tail()))
	if m.natural > 0 {
		h = min(h, m.natural)
	}
	if h != m.formH {
		m.form = m.form.WithHeight(h)
		m.formH = h
	}
}

// errLimit is how many lines the error block may take.
func (m *Modal) errLimit() int {
	if m.height <= 0 {
		return 6
	}
	return min(6, max(2, (m.height-2)/5))
}

// problems are the errors to show: the submit's or the task's, then those of the fields
// of the current group.
func (m *Modal) problems() []string {
	var out []string
	if m.err != "" {
		out = append(out, m.err)
	}
	if m.form.State == huh.StateNormal {
		for _, e := range m.form.Errors() {
			if s := e.Error(); s != "" && !strings.Contains(m.err, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// tail is what goes below the form: the errors (at most errLimit lines, the rest counted),
// the saving state and the discard question, each wrapped to the box.
func (m *Modal) tail() []string {
	st := m.ctx.Styles
	w := m.innerWidth()
	var out []string
	probs := m.problems()
	limit := m.errLimit()
	var shown []string
	for i, p := range probs {
		rest := len(probs) - i - 1
		room := limit - len(shown)
		if rest > 0 {
			room-- // for the "more" line
		}
		lines := strings.Split(ansi.Wrap("✗ "+p, w, ""), "\n")
		if len(lines) > room {
			if len(shown) > 0 || room <= 0 {
				rest++ // this one is counted instead
			} else {
				lines = lines[:room]
				lines[room-1] = ansi.Truncate(lines[room-1], w-1, "") + "…"
				shown = append(shown, lines...)
			}
			if rest > 0 {
				shown = append(shown, fmt.Sprintf("  … and %d more %s", rest, layout.Plural(rest, "problem", "problems")))
			}
			break
		}
		shown = append(shown, lines...)
	}
	for _, l := range shown {
		out = append(out, st.Error.Render(l))
	}
	var state string
	switch {
	case m.checking:
		state = "May have been saved: " + writes.LostAnswer(m.lost) + "; checking…"
	case m.prechecking:
		state = "Checking whether the earlier attempt was saved…"
	case m.submitting:
		state = "Saving…"
	}
	if state != "" {
		style := st.Loading
		if m.checking {
			style = st.Warning
		}
		for _, l := range strings.Split(ansi.Wrap(state, w, ""), "\n") {
			out = append(out, style.Render(l))
		}
	}
	if m.asking != "" {
		for _, l := range strings.Split(ansi.Wrap(m.asking, w, ""), "\n") {
			out = append(out, st.Warning.Render(l))
		}
	}
	if m.confirming {
		q := ansi.Wrap("Discard your changes? "+keymap.HelpKeys(m.ctx.Keys.YesKeys())+" discards · any other key keeps editing", w, "")
		for _, l := range strings.Split(q, "\n") {
			out = append(out, st.Warning.Render(l))
		}
	}
	return out
}

// helpKeys are the focused field's keys, then the submit key (saying what it does when
// Options.Does says). With Does set, the keys that move on come first, where a narrow box
// does not cut them: the field's toggle, enter to the next field (or to save on the last
// field), then the submit key, then the rest (moving in a list, filtering).
func (m *Modal) helpKeys() []key.Binding {
	keys := m.form.KeyBinds()
	submit := m.SubmitKey()
	if m.opts.Does == "" {
		return append(keys[:len(keys):len(keys)], submit)
	}
	submit = key.NewBinding(key.WithKeys(submit.Keys()...), key.WithHelp(submit.Help().Key, m.opts.Does))
	var lead, rest []key.Binding
	for _, b := range keys {
		switch b.Help().Desc {
		case "toggle", "next field", m.opts.Does:
			lead = append(lead, b)
		default:
			rest = append(rest, b)
		}
	}
	return append(append(lead, submit), rest...)
}

// View renders the box.
func (m *Modal) View() string {
	st := m.ctx.Styles
	w := m.innerWidth()
	lines := []string{st.ModalTitle.Render(ansi.Truncate(m.opts.Title, w, "…")), ""}
	if fv := drawn(m.form.View()); fv != "" {
		lines = append(lines, fv, "")
		lines = append(lines, ansi.Truncate(m.form.Help().ShortHelpView(m.helpKeys()), w, "…"))
	}
	lines = append(lines, m.tail()...)
	return st.Modal.Width(m.boxWidth()).Render(lipgloss.NewStyle().MaxWidth(w).Render(strings.Join(lines, "\n")))
}
