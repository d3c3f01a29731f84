package contacts

import (
	"strings"
	"unicode/utf8"

	"github.com/parley-tui/parley/sanitize"
)

// cleanLine and cleanText sanitize API text for the contacts views (sanitize.Line / sanitize.Text)
// and then drop a zero-width joiner that does not join two pictographs. sanitize keeps
// ZWJ for emoji sequences; between letters ("a\u200db") terminals disagree on its width
// (tmux draws "a‍b" in one cell, the layout measures two), which shifts the frame.
func cleanLine(s string) string { return strayZWJ(sanitize.Line(s)) }

func cleanText(s string) string { return strayZWJ(sanitize.Text(s)) }

func strayZWJ(s string) string {
	if !strings.ContainsRune(s, '\u200d') {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(-1)
	for i, r := range s {
		if r == '\u200d' {
			next, _ := utf8.DecodeRuneInString(s[i+len("\u200d"):])
			if !pictographic(prev) || !pictographic(next) {
				continue
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// pictographic is a rough Extended_Pictographic test (plus the emoji modifiers and VS16
// that may precede a joiner in an emoji sequence).
func pictographic(r rune) bool {
	switch {
	case r >= 0x1f000 && r <= 0x1faff, // emoji blocks, skin tones included
		r >= 0x2600 && r <= 0x27bf, // miscellaneous symbols, dingbats
		r >= 0x2190 && r <= 0x21ff, r >= 0x2300 && r <= 0x23ff, r >= 0x2b00 && r <= 0x2bff,
		r == 0xfe0f, r == 0x00a9, r == 0x00ae, r == 0x203c, r == 0x2049, r == 0x2122, r == 0x2139:
		return true
	}
	return false
}
