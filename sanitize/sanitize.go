// Package sanitize makes untrusted text (anything from the API) safe to lay out in a
// terminal. It is applied once, when API data enters the UI model; layout only ever
// measures sanitized text.
//
// The rule (DESIGN.md, "Untrusted text"):
//  1. invalid UTF-8 becomes U+FFFD; "\r\n" and a lone "\r" become "\n"; in single-line
//     slots "\n" becomes a space; "\t" becomes spaces;
//  2. every other C0 control, DEL and C1 control becomes a visible stand-in (a control
//     picture such as ␛ for C0 and DEL, U+FFFD for C1), so the introducer of any escape
//     sequence is inert and the rest of it shows as plain text;
//  3. bidi controls and other invisible format characters are removed (ZWNJ and the tag
//     characters of flag sequences stay);
//  4. emoji joiners (ZWJ), variation selectors and skin-tone modifiers are removed, so every
//     emoji stands alone. Terminals disagree on the width of joined sequences: a terminal
//     that clusters graphemes draws 👍🏽, ❤️ and 🏳️‍🌈 two cells wide, while tmux, xterm and
//     VTE add up per code point (4, 1 and 3). A frame measured one way and drawn the other
//     breaks. Without them (👍, ❤, 🏳🌈) both kinds of terminal agree with the measure.
//     Flags (pairs of regional indicators) and tag sequences measure the same everywhere
//     and stay.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TabWidth is how many spaces replace a tab.
const TabWidth = 4

// Text sanitizes multi-line text: newlines are kept (normalized to "\n").
func Text(s string) string { return clean(s, false) }

// Line sanitizes text for a single-line slot (list rows, titles, the status bar): line
// breaks become spaces.
func Line(s string) string { return clean(s, true) }

// safeASCII reports whether s is only printable ASCII (plus "\n" when multi-line), the fast
// path that needs no copy.
func safeASCII(s string, single bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if c == '\n' && !single {
			continue
		}
		return false
	}
	return true
}

func clean(s string, single bool) string {
	if safeASCII(s, single) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	newline := func() {
		if single {
			b.WriteByte(' ')
		} else {
			b.WriteByte('\n')
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
			newline()
		case r == '\n', r == '\u2028', r == '\u2029':
			newline()
		case r == '\t':
			b.WriteString("    "[:TabWidth])
		case r < 0x20:
			b.WriteRune(0x2400 + r) // control pictures: ␀ … ␟
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case r >= 0x80 && r < 0xa0:
			b.WriteRune(utf8.RuneError)
		case removed(r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// removed reports the characters that are dropped: bidi controls and format characters
// (but ZWNJ and tag characters), emoji joiners, variation selectors and skin-tone modifiers.
func removed(r rune) bool {
	switch {
	case r == '\u200c':
		return false
	case r == '\u200d', // zero-width joiner
		r >= 0xFE00 && r <= 0xFE0F,   // variation selectors (VS16 asks for emoji presentation)
		r >= 0x1F3FB && r <= 0x1F3FF: // skin-tone modifiers
		return true
	}
	if r >= 0xe0000 && r <= 0xe007f { // tags (flag sequences)
		return false
	}
	if unicode.Is(unicode.Cf, r) { // U+200B-200F, 202A-202E, 2060-2064, 2066-206F, FEFF, 00AD, 061C, …
		return true
	}
	return false
}

// Lines sanitizes multi-line text and splits it into lines.
func Lines(s string) []string { return strings.Split(Text(s), "\n") }

// IsClean reports whether s needs no change for a single-line slot (for tests and asserts).
func IsClean(s string) bool { return Line(s) == s }
