package common

import tea "charm.land/bubbletea/v2"

// Choice is one thing a screen offers the command palette beyond its key bindings: a saved
// view to switch to, for example. The palette shows Group and Title (and Hint, such as the
// view's count, when known) and, when chosen, delivers Msg to the screen that offered it.
type Choice struct {
	Group string
	Title string
	Hint  string
	Msg   tea.Msg
}

// Chooser is implemented by screens that offer the palette choices of their own.
type Chooser interface {
	Choices() []Choice
}
