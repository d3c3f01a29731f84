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
