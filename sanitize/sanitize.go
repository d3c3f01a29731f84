// Package sanitize makes untrusted text (anything from the API) safe to lay out in a
// terminal. It is applied once, when API data enters the UI model; layout only ever
// measures sanitized text.
//
// The rule:
//  1. invalid UTF-8 becomes U+FFFD; "\r\n", a lone "\r" and the line and paragraph
//     separators U+2028/U+2029 become "\n"; in single-line slots "\n" becomes a space;
//     "\t" becomes spaces;
//  2. every other C0 control, DEL and C1 control becomes a visible stand-in (a control
//     picture such as ␛ for C0 and DEL, U+FFFD for C1), so the introducer of any escape
//     sequence is inert and the rest of it shows as plain text;
//  3. bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are removed, and
//     so is every other format character (general category Cf: zero-width space, word
//     joiner, BOM, soft hyphen, invisible operators, …) and every other default-ignorable
//     code point (Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the combining grapheme
//     joiner, Mongolian variation selectors, the reserved ranges). Two keep their place
//     where a script needs them: a zero-width non-joiner (U+200C) stays between two
//     letters (Persian, the Indic scripts after a virama), and tag characters stay inside
//     a well-formed subdivision flag (U+1F3F4, a region and subdivision code in tag
//     letters and digits, U+E007F); anywhere else both are removed, so no hidden "tag"
//     text passes;
//  4. emoji joiners (ZWJ), variation selectors and skin-tone modifiers are removed, so every
//     emoji stands alone. Terminals disagree on the width of joined sequences: a terminal
//     that clusters graphemes draws 👍🏽, ❤️ and 🏳️‍🌈 two cells wide, while tmux, xterm and
//     VTE add up per code point (4, 1 and 3). A frame measured one way and drawn the other
//     breaks. Without them (👍, ❤, 🏳🌈) both kinds of terminal agree with the measure.
//     Flags (pairs of regional indicators) and subdivision flags measure the same
//     everywhere and stay.
//
// JSON writes the same text escaped instead of changed, for output that must keep it.
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
		if c := s[i]; c >= 0x20 && c < 0x7f {
			b.WriteByte(c) // printable ASCII, the common case
			i++
			continue
		}
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
		case r == zwnj:
			if endsWithLetter(b.String()) && keptLetterAt(s, i) {
				b.WriteRune(r)
			}
		case r == blackFlag:
			// A subdivision flag keeps its tags; they are never written on their own.
			n := subdivisionTags(s[i:])
			b.WriteString(s[i-size : i+n])
			i += n
		case removed(r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// maxMarks is how many combining marks endsWithLetter looks back over.
const maxMarks = 32

// endsWithLetter reports whether s ends with a letter, or a letter and its combining marks
// (a virama before a ZWNJ in the Indic scripts).
func endsWithLetter(s string) bool {
	for range maxMarks {
		r, size := utf8.DecodeLastRuneInString(s)
		switch {
		case size == 0:
			return false
		case unicode.In(r, unicode.Mn, unicode.Mc):
			s = s[:len(s)-size]
		default:
			return unicode.IsLetter(r)
		}
	}
	return false
}

const (
	zwnj      = '\u200c'     // zero-width non-joiner
	blackFlag = '\U0001F3F4' // the base of subdivision flags (🏴 + tags + cancel tag)
	cancelTag = '\U000E007F' // ends a tag sequence
)

// keptLetterAt reports whether s[i:] starts with a letter that is written as it is.
func keptLetterAt(s string, i int) bool {
	r, size := utf8.DecodeRuneInString(s[i:])
	return size > 0 && r != utf8.RuneError && unicode.IsLetter(r) && !removed(r)
}

// subdivisionTags is the length in bytes of the tags of a well-formed subdivision flag at
// the start of s (what follows U+1F3F4), or 0. Its tag spec is a subdivision code in tag
// characters: a region (two letters or three digits), then one to four letters or digits,
// lower case, ended by the cancel tag; e.g. gbsct for Scotland. Nothing else can hide
// behind the flag.
func subdivisionTags(s string) int {
	var code []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == cancelTag:
			if wellFormedSubdivision(code) {
				return i
			}
			return 0
		case r >= 0xE0030 && r <= 0xE0039, r >= 0xE0061 && r <= 0xE007A:
			if len(code) == 7 {
				return 0
			}
			code = append(code, byte(r-0xE0000))
		default:
			return 0
		}
	}
	return 0
}

// wellFormedSubdivision reports whether code is a region (two letters or three digits)
// and a suffix of one to four letters or digits.
func wellFormedSubdivision(code []byte) bool {
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	region := 2
	if len(code) >= 3 && digit(code[0]) && digit(code[1]) && digit(code[2]) {
		region = 3
	} else if len(code) < 2 || digit(code[0]) || digit(code[1]) {
		return false
	}
	suffix := len(code) - region
	return suffix >= 1 && suffix <= 4
}

// removed reports the characters that are dropped wherever they stand: format characters
// (Cf: bidi controls, zero-width space, word joiner, BOM, soft hyphen, tags, …), the other
// default-ignorable code points (Hangul fillers, variation selectors, …), emoji joiners
// and skin-tone modifiers. ZWNJ and the tags of a subdivision flag are kept by clean where
// they belong, before this is asked.
func removed(r rune) bool {
	return r >= 0x1F3FB && r <= 0x1F3FF || // skin-tone modifiers
		hidden(r)
}

// hidden reports whether r is a format character (Cf) or a default-ignorable code point:
// a character a terminal draws as nothing, or that changes how the characters around it
// are drawn (bidi controls reorder them). Line and paragraph separators and controls are
// not among them; they have rules of their own.
func hidden(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(defaultIgnorable, r)
}

// defaultIgnorable is Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt),
// the part that is not in category Cf.
var defaultIgnorable = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x034F, Hi: 0x034F, Stride: 1}, // combining grapheme joiner
		{Lo: 0x115F, Hi: 0x1160, Stride: 1}, // Hangul choseong and jungseong fillers
		{Lo: 0x17B4, Hi: 0x17B5, Stride: 1}, // Khmer inherent vowels
		{Lo: 0x180B, Hi: 0x180F, Stride: 1}, // Mongolian free variation selectors (and 180E, Cf)
		{Lo: 0x200B, Hi: 0x200F, Stride: 1}, // zero-width space, (non-)joiners, LRM, RLM
		{Lo: 0x202A, Hi: 0x202E, Stride: 1}, // bidi embeddings and overrides
		{Lo: 0x2060, Hi: 0x206F, Stride: 1}, // word joiner, invisible operators, isolates, reserved
		{Lo: 0x3164, Hi: 0x3164, Stride: 1}, // Hangul filler
		{Lo: 0xFE00, Hi: 0xFE0F, Stride: 1}, // variation selectors
		{Lo: 0xFEFF, Hi: 0xFEFF, Stride: 1}, // BOM, zero-width no-break space
		{Lo: 0xFFA0, Hi: 0xFFA0, Stride: 1}, // halfwidth Hangul filler
		{Lo: 0xFFF0, Hi: 0xFFF8, Stride: 1}, // reserved
	},
	R32: []unicode.Range32{
		{Lo: 0x1BCA0, Hi: 0x1BCA3, Stride: 1}, // shorthand format controls
		{Lo: 0x1D173, Hi: 0x1D17A, Stride: 1}, // musical symbol format controls
		{Lo: 0xE0000, Hi: 0xE0FFF, Stride: 1}, // tags, variation selectors supplement, reserved
	},
}

// Lines sanitizes multi-line text and splits it into lines.
func Lines(s string) []string { return strings.Split(Text(s), "\n") }

// IsClean reports whether s needs no change for a single-line slot (for tests and asserts).
func IsClean(s string) bool { return Line(s) == s }

// Leak finds the first character of s that sanitized multi-line text cannot hold where it
// stands: a control other than "\n", a bidi or other hidden character, a ZWNJ that is not
// between letters, a tag outside a subdivision flag. It is for tests and asserts over
// rendered screens (escape sequences stripped); ok is false when s has none.
func Leak(s string) (r rune, at int, ok bool) {
	clean := Text(s)
	for i, j := 0, 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !strings.HasPrefix(clean[j:], s[i:i+size]) {
			return r, i, true
		}
		i, j = i+size, j+size
	}
	return 0, 0, false
}
