package common

import tea "github.com/charmbracelet/bubbletea"

// TextInput is a modal (or screen) that may have a text input focused. Over a slow link
// several key presses arrive in one read, and Bubble Tea then delivers the printable ones
// as one message ("jj"); the root takes such a burst one key at a time (EachKey), except
// what TakesText accepts: that goes whole to the focused input, as typed text.
type TextInput interface {
	// TakesText reports whether runes, read together, are text for the input that has the
	// focus now (not keys that move, pick or close).
	TakesText(runes []rune) bool
}

// Typed reports a key that types a character into a text input (a printable key, space
// included, without alt): in a text input such a key is text even when an action is bound
// to it.
func Typed(k tea.KeyMsg) bool {
	return !k.Alt && (k.Type == tea.KeyRunes || k.Type == tea.KeySpace)
}

// EachKey hands msg to deliver as the keys it stands for, and batches what deliver returns.
// A burst of printable keys read together ("jj", never a paste) is taken one key at a time,
// each by whatever has the keys after the one before (a key may open or close a modal:
// deliver applies such changes before it returns); as soon as what has the keys (target)
// takes the rest as text (TextInput), the rest goes to it whole. Everything else, a paste
// included, is delivered as it is.
func EachKey(msg tea.KeyMsg, target func() any, deliver func(tea.KeyMsg) tea.Cmd) tea.Cmd {
	if msg.Type != tea.KeyRunes || len(msg.Runes) < 2 || msg.Paste {
		return deliver(msg)
	}
	var cmds []tea.Cmd
	rest := msg.Runes
	for len(rest) > 0 {
		if t, ok := target().(TextInput); ok && t.TakesText(rest) {
			cmds = append(cmds, deliver(tea.KeyMsg{Type: tea.KeyRunes, Runes: rest, Alt: msg.Alt}))
			break
		}
		cmds = append(cmds, deliver(tea.KeyMsg{Type: tea.KeyRunes, Runes: rest[:1:1], Alt: msg.Alt}))
		rest = rest[1:]
	}
	return tea.Batch(cmds...)
}
