package keymap

import (
	"slices"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// The one yes/no rule, for every question parley asks (a confirmation before a delete, a
// form's "discard your changes?" and "send another copy?", quitting over unsaved text):
//
//   - yes is a key of the Yes binding, a letter in either case (y or Y), but not a key of
//     Open (enter), which opens rows and moves through forms and is pressed by habit —
//     unless Yes has no other key;
//   - no is a key of the No binding, in either case, or Back (esc).
//
// A confirmation takes nothing else; an inline question of a form reads any other key as
// no.

// YesKeys are the keys that answer yes, as bound: the Yes binding's, but those of Open
// unless Yes has no other.
func (k *KeyMap) YesKeys() []string {
	var out []string
	for _, y := range k.Yes.Keys() {
		if !slices.Contains(k.Open.Keys(), y) {
			out = append(out, y)
		}
	}
	if len(out) == 0 {
		return k.Yes.Keys()
	}
	return out
}

// IsYes reports whether msg answers yes.
func (k *KeyMap) IsYes(msg tea.KeyPressMsg) bool {
	return k.Yes.Enabled() && answers(msg, k.YesKeys())
}

// IsNo reports whether msg answers no: a key of No (either case) or Back.
func (k *KeyMap) IsNo(msg tea.KeyPressMsg) bool {
	return (k.No.Enabled() && answers(msg, k.No.Keys())) || (k.Back.Enabled() && answers(msg, k.Back.Keys()))
}

// answers reports whether msg is one of keys, a letter in either case.
func answers(msg tea.KeyPressMsg, keys []string) bool {
	s := msg.String()
	letter := msg.Text != "" && msg.Mod&^(tea.ModShift|tea.ModCapsLock) == 0 && utf8.RuneCountInString(msg.Text) == 1
	for _, k := range keys {
		if s == k || (letter && strings.EqualFold(msg.Text, k)) {
			return true
		}
	}
	return false
}

// YesNo is how an inline question names its answers: the yes keys as bound, then N for
// any other key ("y/N").
func (k *KeyMap) YesNo() string { return HelpKeys(k.YesKeys()) + "/N" }
