package sanitize

import (
	"unicode/utf16"
	"unicode/utf8"
)

// JSON rewrites JSON text so that it can be printed on a terminal and still means the
// same: every character a terminal would act on or draw as nothing is written as a \u
// escape (a surrogate pair above U+FFFF): C0 controls, DEL, C1 controls, the line and
// paragraph separators, bidi controls and every other format or default-ignorable
// character (U+200B, U+200C, U+200D, U+2060, U+FEFF, the soft hyphen, variation selectors,
// tags, Hangul fillers, …). Invalid UTF-8 is written as \ufffd, which is what a JSON
// reader makes of it. Outside strings JSON text is plain ASCII, so only the contents of
// strings change; valid JSON stays valid, and decodes to the same values.
func JSON(b []byte) []byte {
	var out []byte // nil until the first change
	inString, escaped := false, false
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			keep := c >= 0x20 && c < 0x7f || !inString && (c == '\n' || c == '\r' || c == '\t') // JSON's white space
			inString, escaped = jsonState(inString, escaped, c)
			if keep {
				if out != nil {
					out = append(out, c)
				}
			} else {
				out = appendEscape(started(out, b, i), rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		escaped = false
		switch {
		case r == utf8.RuneError && size <= 1:
			out = appendEscape(started(out, b, i), utf8.RuneError)
		case r < 0xa0, r == '\u2028', r == '\u2029', hidden(r):
			out = appendEscape(started(out, b, i), r)
		case out != nil:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

// started is out, or b[:i] copied into a new buffer when out is still nil.
func started(out, b []byte, i int) []byte {
	if out != nil {
		return out
	}
	out = make([]byte, 0, len(b)+32)
	return append(out, b[:i]...)
}

// jsonState follows JSON text byte by byte: whether it is inside a string, and whether
// the byte before was the backslash of an escape.
func jsonState(inString, escaped bool, c byte) (bool, bool) {
	switch {
	case !inString:
		return c == '"', false
	case escaped:
		return true, false
	case c == '\\':
		return true, true
	case c == '"':
		return false, false
	}
	return true, false
}

func appendEscape(out []byte, r rune) []byte {
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return appendEscape(appendEscape(out, hi), lo)
	}
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
