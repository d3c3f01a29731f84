package ui

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/sanitize"
)

// A panic in Init, Update, View or a command does not end parley: the model stays as it
// was (the App itself, never nil), the screen keeps its last good frame, the stack goes to
// the crash log (written by a command: Update does no I/O) and an error toast names the
// cause and the log. Only a storm of panics (stormCount within stormWindow, the same bug
// hit on every message) quits, so the user is never stuck on a screen that cannot work.
const (
	stormCount  = 5
	stormWindow = 10 * time.Second
)

// Crash is a panic caught in parley's Init, Update, View or commands.
type Crash struct {
	// Where names the part that panicked: "Init", "Update", "View" or "a command".
	Where string
	Value any
	Stack []byte
	At    time.Time
}

func (c *Crash) Error() string { return fmt.Sprintf("internal error: %v", c.Value) }

// Stopped is why the program quit by itself after repeated panics.
type Stopped struct {
	// First is the first panic of the storm.
	First *Crash
	// Count panics came within Within.
	Count  int
	Within time.Duration
}

// CrashReporter writes a crash down (in a command, never in Update) and returns the
// panic's one-line description as it may be shown (the token removed) and where the
// details are.
type CrashReporter func(*Crash) (summary, path string, err error)

// safety is the App's record of caught panics.
type safety struct {
	recent    []*Crash // the panics within stormWindow, oldest first
	viewCrash *Crash   // a panic in View, reported by the next Update
	lastFrame string   // the last frame View drew without panicking
	stopped   *Stopped // set when a storm of panics quits the program
}

type crashMsg struct{ crash *Crash }

type crashReportedMsg struct {
	summary, path string
	err           error
}

// Stopped returns why the program quit after repeated panics, or nil.
func (a *App) Stopped() *Stopped { return a.safe.stopped }

// Init starts every screen, loads the operator directory, listens for client events and
// starts auto-refresh.
func (a *App) Init() tea.Cmd {
	cmd, c := a.protect("Init", func() tea.Cmd { return a.settled(a.initCmds()) })
	if c != nil {
		return a.crashed(c)
	}
	return guard(cmd)
}

// settled is cmd with the Init commands of the modals opened through the context meanwhile
// (common.Router.Settle).
func (a *App) settled(cmd tea.Cmd) tea.Cmd {
	if opened := a.route.Settle(); opened != nil {
		return tea.Batch(cmd, opened)
	}
	return cmd
}

// Update is the root's update with panics caught: the App is returned as it stands, the
// crash is reported and the program goes on.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if a.safe.stopped != nil {
		return a, tea.Quit
	}
	var cmds []tea.Cmd
	if c := a.safe.viewCrash; c != nil {
		a.safe.viewCrash = nil
		cmds = append(cmds, a.crashed(c))
		if a.safe.stopped != nil {
			return a, cmds[0]
		}
	}
	switch msg := msg.(type) {
	case crashMsg:
		return a, tea.Batch(append(cmds, a.crashed(msg.crash))...)
	case crashReportedMsg:
		return a, tea.Batch(append(cmds, a.addToast(crashText(msg), true))...)
	}
	cmd, c := a.protect("Update", func() tea.Cmd {
		_, cmd := a.update(msg)
		return a.settled(cmd)
	})
	if c != nil {
		cmd = a.crashed(c)
	} else {
		cmd = guard(cmd)
	}
	return a, tea.Batch(append(cmds, cmd)...)
}

// View is the program's view: the frame (Render) on the alternate screen, with focus
// reports on and the terminal's cursor in an inline prompt (the bottom line above the
// footer) when one is open. Once the program quits (Leaving) the frame is empty.
func (a *App) View() tea.View {
	frame := ""
	if !a.leaving {
		frame = a.Render()
	}
	v := tea.NewView(frame)
	v.AltScreen = true
	v.ReportFocus = true // focus reports slow auto-refresh down in the background (refresh.go)
	v.MouseMode = a.mouseMode()
	v.WindowTitle = a.windowTitle() // counts only (alerts.go)
	if a.leaving {
		return v
	}
	if top := a.route.Top(); top != nil && top.Inline() && !a.tooSmall() && a.safe.stopped == nil {
		if c, ok := top.(common.Cursored); ok {
			if cur := c.Cursor(); cur != nil {
				cur.X = min(cur.X, a.width-1)
				cur.Y = a.height - 2
				v.Cursor = cur
			}
		}
	}
	return v
}

// Leaving is a filter (tea.WithFilter) for the program that runs an App, to compose with any
// other: on tea.QuitMsg the App's view becomes an empty frame, which is what the program
// draws last. The renderer leaves the alternate screen from the bottom row of its last
// frame; after the terminal grew taller than it was when parley started, a terminal that
// keeps the rows above the cursor as it shrinks the alternate screen back (tmux does, to
// leave it) would bring them onto the shell: about a dozen lines of parley's frame under
// the prompt. An empty frame has no rows, so the cursor leaves from the top.
func Leaving(m tea.Model, msg tea.Msg) tea.Msg {
	if _, ok := msg.(tea.QuitMsg); ok {
		if a, ok := m.(*App); ok {
			a.leaving = true
		}
	}
	return msg
}

// Render draws the frame. A panic here keeps the last good frame, with the error on its
// bottom line; the next Update reports it.
func (a *App) Render() (s string) {
	if a.safe.stopped != nil {
		return a.safe.lastFrame
	}
	defer func() {
		if r := recover(); r != nil {
			c := &Crash{Where: "View", Value: r, Stack: debug.Stack(), At: a.ctx.Now()}
			if a.safe.viewCrash == nil {
				a.safe.viewCrash = c
			}
			s = a.brokenFrame(c)
		}
	}()
	s = a.view()
	a.safe.lastFrame = s
	return s
}

// protect runs f, turning a panic into a Crash.
func (a *App) protect(where string, f func() tea.Cmd) (cmd tea.Cmd, c *Crash) {
	defer func() {
		if r := recover(); r != nil {
			cmd, c = nil, &Crash{Where: where, Value: r, Stack: debug.Stack(), At: a.ctx.Now()}
		}
	}()
	return f(), nil
}

// crashed records a caught panic and returns the command that reports it; the command
// also quits when the panic completes a storm.
func (a *App) crashed(c *Crash) tea.Cmd {
	if c.At.IsZero() {
		c.At = a.ctx.Now()
	}
	keep := a.safe.recent[:0]
	for _, r := range a.safe.recent {
		if c.At.Sub(r.At) < stormWindow {
			keep = append(keep, r)
		}
	}
	a.safe.recent = append(keep, c)
	report := a.reportCmd(c)
	if len(a.safe.recent) >= stormCount {
		a.safe.stopped = &Stopped{First: a.safe.recent[0], Count: len(a.safe.recent), Within: stormWindow}
		return tea.Sequence(report, tea.Quit)
	}
	return report
}

// reportCmd writes the crash down through the reporter (I/O, so in a command).
func (a *App) reportCmd(c *Crash) tea.Cmd {
	report := a.opts.ReportCrash
	return guard(func() tea.Msg {
		if report == nil {
			return crashReportedMsg{summary: fmt.Sprint(c.Value)}
		}
		summary, path, err := report(c)
		return crashReportedMsg{summary: summary, path: path, err: err}
	})
}

// crashText is the toast of a reported crash.
func crashText(m crashReportedMsg) string {
	switch {
	case m.err != nil:
		return fmt.Sprintf("internal error: %s (the crash log could not be written: %v)", m.summary, m.err)
	case m.path != "":
		return fmt.Sprintf("internal error: %s; details in %s", m.summary, m.path)
	}
	return "internal error: " + m.summary
}

// brokenFrame is the last good frame with its bottom line replaced by the error: the
// crash's toast once reported, else the panic itself.
func (a *App) brokenFrame(c *Crash) (frame string) {
	defer func() {
		if recover() != nil {
			frame = a.safe.lastFrame
		}
	}()
	text := "internal error while drawing: " + fmt.Sprint(c.Value)
	if n := len(a.toasts); n > 0 && a.toasts[n-1].err {
		text = a.toasts[n-1].text
	}
	line := layout.Fit(a.ctx.Styles.Error.Render(" ✗ "+sanitize.Line(text)), a.width)
	if a.safe.lastFrame == "" {
		return line
	}
	lines := strings.Split(a.safe.lastFrame, "\n")
	lines[len(lines)-1] = line
	return strings.Join(lines, "\n")
}

// guard wraps a command so a panic inside it (or inside the commands it batches or
// sequences) becomes a crashMsg instead of killing the program mid-frame.
func guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = crashMsg{&Crash{Where: "a command", Value: r, Stack: debug.Stack()}}
			}
		}()
		return guardMsg(cmd())
	}
}

var cmdType = reflect.TypeOf(tea.Cmd(nil))

// guardMsg wraps the commands carried by tea.Batch and tea.Sequence messages, keeping the
// message's own (possibly unexported) type.
func guardMsg(msg tea.Msg) tea.Msg {
	if b, ok := msg.(tea.BatchMsg); ok {
		out := make(tea.BatchMsg, len(b))
		for i, c := range b {
			out[i] = guard(c)
		}
		return out
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != cmdType {
		return msg
	}
	out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	for i := 0; i < v.Len(); i++ {
		c, _ := v.Index(i).Interface().(tea.Cmd)
		out.Index(i).Set(reflect.ValueOf(guard(c)))
	}
	return out.Interface()
}
