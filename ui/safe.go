package ui

import (
	"fmt"
	"reflect"
	"runtime/debug"

	tea "github.com/charmbracelet/bubbletea"
)

// Crash is a panic caught in parley's Update, View or commands.
type Crash struct {
	Value any
	Stack []byte
}

func (c *Crash) Error() string { return fmt.Sprintf("internal error: %v", c.Value) }

type crashMsg struct{ crash *Crash }

// Crash returns the panic that stopped the program, if any.
func (a *App) Crash() *Crash { return a.crash }

// Init starts every screen, loads the operator directory, listens for client events and
// starts auto-refresh.
func (a *App) Init() (cmd tea.Cmd) {
	defer a.recover(&cmd)
	cmd = a.initCmds()
	if opened := a.applyModalChanges(); opened != nil {
		cmd = tea.Batch(cmd, opened)
	}
	return guard(cmd)
}

// Update is the root's update with panics turned into a clean quit: the terminal is
// restored by Bubble Tea's normal shutdown and main prints a short message.
func (a *App) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	if c, ok := msg.(crashMsg); ok {
		a.crash = c.crash
		return a, tea.Quit
	}
	if a.crash != nil {
		return a, tea.Quit
	}
	defer a.recover(&cmd)
	_, cmd = a.update(msg)
	if opened := a.applyModalChanges(); opened != nil {
		cmd = tea.Batch(cmd, opened)
	}
	return a, guard(cmd)
}

// View draws the screen; a panic here quits at the next update.
func (a *App) View() (s string) {
	if a.crash != nil {
		return ""
	}
	defer func() {
		if r := recover(); r != nil {
			a.crash = &Crash{Value: r, Stack: debug.Stack()}
			s = ""
		}
	}()
	return a.view()
}

func (a *App) recover(cmd *tea.Cmd) {
	if r := recover(); r != nil {
		a.crash = &Crash{Value: r, Stack: debug.Stack()}
		*cmd = tea.Quit
	}
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
				msg = crashMsg{&Crash{Value: r, Stack: debug.Stack()}}
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
