package ui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/parley-tui/parley/internal/views/common"
)

// The mouse is opt-in (Options.Mouse): off, the terminal keeps its own text selection and
// parley asks for no mouse reports; a mouse sequence that arrives anyway (typed, or sent by
// a multiplexer) does nothing. On, the root's view asks for cell-motion reports (presses,
// releases and the wheel; no motion without a button) and the root routes each press and
// wheel step by the layout of the frame it last drew: the tab bar switches screens, the
// screen area gets the message with coordinates relative to the screen's top-left cell,
// and the top centered modal gets it relative to its own box (a press outside the box does
// nothing, as keys under a modal do nothing). Releases and motion are dropped: a click acts
// on the press.

// tabSpan is the columns of one screen's tab in the tab bar: from (included) to to.
type tabSpan struct {
	from, to int
	id       common.ScreenID
}

// box is a rectangle of the frame, in cells.
type box struct{ x, y, w, h int }

func (b box) contains(x, y int) bool {
	return b.w > 0 && x >= b.x && x < b.x+b.w && y >= b.y && y < b.y+b.h
}

// hits is where the last frame drew what a click can reach: the tabs (from tabBar) and the
// top centered modal's box (from view; zero when none).
type hits struct {
	tabs  []tabSpan
	modal box
}

// tabSpans measures the tab bar's parts as tabBar draws them: the accent, then each tab.
func tabSpans(accent string, labels []string, ids []common.ScreenID) []tabSpan {
	x := lipgloss.Width(accent)
	out := make([]tabSpan, 0, len(labels))
	for i, l := range labels {
		w := lipgloss.Width(l)
		out = append(out, tabSpan{from: x, to: x + w, id: ids[i]})
		x += w
	}
	return out
}

// mouseMode is the view's mouse mode: cell motion when the mouse is on, else none (so the
// terminal is never asked for mouse reports).
func (a *App) mouseMode() tea.MouseMode {
	if a.opts.Mouse {
		return tea.MouseModeCellMotion
	}
	return tea.MouseModeNone
}

// onMouse takes a mouse message: with the mouse on, a left press or a wheel step goes where
// the last frame drew what is under it; everything else is dropped.
func (a *App) onMouse(msg tea.MouseMsg) tea.Cmd {
	if !a.opts.Mouse || a.width == 0 || a.tooSmall() {
		return nil
	}
	m := msg.Mouse()
	switch msg.(type) {
	case tea.MouseClickMsg:
		if m.Button != tea.MouseLeft {
			return nil
		}
	case tea.MouseWheelMsg:
		if m.Button != tea.MouseWheelUp && m.Button != tea.MouseWheelDown {
			return nil
		}
	default:
		return nil
	}
	return tea.Batch(a.routeMouse(msg, m), a.route.Settle(), a.wake(false))
}

func (a *App) routeMouse(msg tea.MouseMsg, m tea.Mouse) tea.Cmd {
	if top := a.route.Top(); top != nil && top.Inline() {
		// A prompt in the bottom line (a search): a click elsewhere leaves it, as esc does,
		// and goes on to what is under it; the wheel leaves it alone.
		if _, click := msg.(tea.MouseClickMsg); !click || m.Y >= a.height-2 {
			return nil
		}
		a.ctx.CloseModal(top)
		_ = a.route.Settle() // only a close: nothing opens, nothing to start
	}
	if top := a.route.Top(); top != nil {
		b := a.hits.modal
		if top.Inline() || !b.contains(m.X, m.Y) {
			return nil
		}
		return a.route.ToTop(mouseAt(msg, m.X-b.x, m.Y-b.y))
	}
	switch {
	case m.Y == 0:
		if _, click := msg.(tea.MouseClickMsg); !click {
			return nil
		}
		for _, t := range a.hits.tabs {
			if m.X >= t.from && m.X < t.to {
				return a.switchTo(t.id)
			}
		}
	case m.Y >= 1 && m.Y <= a.screenHeight():
		return a.route.ToScreen(a.route.Active, mouseAt(msg, m.X, m.Y-1))
	}
	return nil // the status bar and the footer
}

// mouseAt is msg with its coordinates replaced by x, y (relative to the component it goes to).
func mouseAt(msg tea.MouseMsg, x, y int) tea.Msg {
	m := msg.Mouse()
	m.X, m.Y = x, y
	if _, wheel := msg.(tea.MouseWheelMsg); wheel {
		return tea.MouseWheelMsg(m)
	}
	return tea.MouseClickMsg(m)
}
