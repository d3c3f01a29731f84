package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/common"
)

// maxBack is how many jumps the back stack remembers; older ones are forgotten first.
const maxBack = 20

// backLabelWidth is the most cells of a place's name the status bar's back hint shows.
const backLabelWidth = 32

// backLabelShort is the most it shows on a narrow terminal.
const backLabelShort = 16

// backEntry is one jump: from the screen at index from (named label when it was left) to
// the screen at index to.
type backEntry struct {
	from, to int
	label    string
}

// jump shows another screen for a common.SwitchScreenMsg. One with Then set (a
// conversation opened from a contact's detail, from a navigation event, from elsewhere)
// is a jump: where it came from goes on the back stack, and esc on the screen it leads to
// returns there (back). A switch without Then is a plain switch, as a number key is.
func (a *App) jump(msg common.SwitchScreenMsg) tea.Cmd {
	if msg.Then == nil {
		a.back = nil
		return a.switchTo(msg.Screen)
	}
	from := a.route.Active
	label := a.place()
	cmd := a.switchTo(msg.Screen)
	if a.route.Active != from {
		a.back = append(a.back, backEntry{from: from, to: a.route.Active, label: label})
		if len(a.back) > maxBack {
			a.back = a.back[len(a.back)-maxBack:]
		}
	}
	c := a.route.ToScreen(a.route.Active, msg.Then)
	if l, ok := a.Screen().(common.Lander); ok && a.route.Active != from {
		l.Landed()
	}
	return tea.Batch(cmd, c)
}

// place names where the user stands on the active screen, for "esc: back to …": what the
// screen says (common.Placer: the open contact's name), else its name.
func (a *App) place() string {
	if p, ok := a.Screen().(common.Placer); ok {
		if name := strings.TrimSpace(p.Place()); name != "" {
			return name
		}
	}
	return a.shown().name
}

// backTop is the jump esc on the active screen returns from, if any: the newest one,
// when it led to the active screen.
func (a *App) backTop() (backEntry, bool) {
	if n := len(a.back); n > 0 && a.back[n-1].to == a.route.Active {
		return a.back[n-1], true
	}
	return backEntry{}, false
}

// canGoBack reports whether esc goes back now: a jump led to the active screen and the
// screen has nothing of its own for esc to do (common.BackUser; a screen that does not
// say is assumed to use esc).
func (a *App) canGoBack() bool {
	if _, ok := a.backTop(); !ok {
		return false
	}
	u, ok := a.Screen().(common.BackUser)
	return ok && !u.UsesBack()
}

// goBack returns to where the newest jump came from. The screen there kept its state
// (cursor, pane focus, scroll), and showing it again asks for nothing it holds.
func (a *App) goBack() tea.Cmd {
	e, _ := a.backTop()
	a.back = a.back[:len(a.back)-1]
	return a.switchTo(a.specs[e.from].id)
}

// backHint is the status bar's "esc: back to …" while esc on the active screen would
// return somewhere, with its short form.
func (a *App) backHint() (text, short string, ok bool) {
	e, ok := a.backTop()
	if !ok {
		return "", "", false
	}
	k := a.ctx.Keys.Back.Help().Key
	return k + ": back to " + ansi.Truncate(e.label, backLabelWidth, "…"), k + ": back to " + ansi.Truncate(e.label, backLabelShort, "…"), true
}

// isBack reports whether press is the back key.
func (a *App) isBack(press tea.KeyPressMsg) bool { return key.Matches(press, a.ctx.Keys.Back) }
