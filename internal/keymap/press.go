package keymap

import (
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// namedPresses are the key presses of the named keys a binding may hold.
var namedPresses = map[string]tea.KeyPressMsg{
	"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
	"space": {Code: tea.KeySpace, Text: " "}, "backspace": {Code: tea.KeyBackspace},
	"delete": {Code: tea.KeyDelete}, "insert": {Code: tea.KeyInsert},
	"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
	"home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd}, "pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown},
	"f1": {Code: tea.KeyF1}, "f2": {Code: tea.KeyF2}, "f3": {Code: tea.KeyF3}, "f4": {Code: tea.KeyF4},
	"f5": {Code: tea.KeyF5}, "f6": {Code: tea.KeyF6}, "f7": {Code: tea.KeyF7}, "f8": {Code: tea.KeyF8},
	"f9": {Code: tea.KeyF9}, "f10": {Code: tea.KeyF10}, "f11": {Code: tea.KeyF11}, "f12": {Code: tea.KeyF12},
}

// Press is the key press a binding's key name stands for ("G", "ctrl+o", "shift+tab",
// "pgdown"), as the terminal's input reader delivers it; ok is false when k names no key
// parley can press (the press must read back as k, which key.Matches compares).
func Press(k string) (press tea.KeyPressMsg, ok bool) {
	var mod tea.KeyMod
	rest := k
	for {
		prefix, after, found := strings.Cut(rest, "+")
		if !found || after == "" {
			break
		}
		switch prefix {
		case "ctrl":
			mod |= tea.ModCtrl
		case "alt":
			mod |= tea.ModAlt
		case "shift":
			mod |= tea.ModShift
		default:
			return tea.KeyPressMsg{}, false
		}
		rest = after
	}
	if named, ok := namedPresses[rest]; ok {
		press = named
		if mod != 0 {
			press.Mod, press.Text = mod, ""
		}
	} else {
		r, size := utf8.DecodeRuneInString(rest)
		if size != len(rest) || r == utf8.RuneError || !unicode.IsPrint(r) {
			return tea.KeyPressMsg{}, false
		}
		switch {
		case mod != 0:
			press = tea.KeyPressMsg{Code: unicode.ToLower(r), Mod: mod}
		case unicode.IsUpper(r):
			press = tea.KeyPressMsg{Code: unicode.ToLower(r), ShiftedCode: r, Mod: tea.ModShift, Text: rest}
		default:
			press = tea.KeyPressMsg{Code: r, Text: rest}
		}
	}
	return press, press.String() == k
}
