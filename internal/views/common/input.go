package common

import tea "charm.land/bubbletea/v2"

// Typed reports a key that types a character into a text input (a printable key, space
// included, with at most shift): in a text input such a key is text even when an action is
// bound to it.
//
// Bubble Tea v2's input reader delivers one tea.KeyPressMsg per key, also when several
// presses arrive in one read over a slow link ("jj" is two messages), and a paste as one
// tea.PasteMsg: the root hands each to whatever has the keys at that moment.
func Typed(k tea.KeyPressMsg) bool {
	return k.Text != "" && k.Mod&^(tea.ModShift|tea.ModCapsLock) == 0
}

// Input hands the user's own input to a screen's handlers: a key press to key, a click to
// click and a wheel step to wheel (with the pointer in the screen's cells); ok is false for
// any other message, which the screen handles itself.
func Input(msg tea.Msg, key func(tea.KeyPressMsg) tea.Cmd, click, wheel func(tea.Mouse) tea.Cmd) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return key(msg), true
	case tea.MouseClickMsg:
		return click(msg.Mouse()), true
	case tea.MouseWheelMsg:
		return wheel(msg.Mouse()), true
	}
	return nil, false
}
