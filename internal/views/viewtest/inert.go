package viewtest

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/sanitize"
)

// Invisible is hostile text of characters a terminal draws as nothing or that reorder the
// text around them, among letters that stay: a ZWNJ outside a word, tag characters (hidden
// "tag" text), Hangul fillers, bidi isolates, embeddings, overrides and marks, a zero-width
// space, word joiner, BOM, soft hyphen, ZWJ and variation selector, the line and paragraph
// separators and DEL. Tests add it to the API text they feed a view.
const Invisible = "a\u200c b\U000E0001\U000E0041\U000E0042\U000E007F \u115f\u1160\u3164\uffa0 c" +
	"\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u202e\u200e\u200f\u061c d" +
	"\u200b\u2060\ufeff\u00ad\u200d\ufe0f\u2028\u2029\x7f e"

// CheckInert fails the test when a rendered view holds anything API text could smuggle to
// the terminal: an escape sequence other than the colours (SGR) and links (OSC 8) parley
// draws itself, a control other than "\n", or a character the sanitizer removes where it
// stands (sanitize.Leak: bidi and other format characters, a ZWNJ outside a word, tags
// outside a subdivision flag, Hangul fillers). what names the view in the failure.
func CheckInert(t testing.TB, view, what string) {
	t.Helper()
	var text strings.Builder
	state := byte(ansi.NormalState)
	for s := view; len(s) > 0; {
		seq, _, n, next := ansi.DecodeSequence(s, state, nil)
		if n <= 0 {
			break
		}
		switch c := seq[0]; {
		case ansi.HasCsiPrefix(seq) && strings.HasSuffix(seq, "m"), strings.HasPrefix(seq, "\x1b]8;"):
			// parley's own colours and links
		case c == '\n':
			text.WriteByte('\n')
		case c < 0x20, c == 0x7f, c == 0xc2 && len(seq) > 1 && seq[1] < 0xa0:
			t.Fatalf("%s: a raw control or escape sequence %q at byte %d of:\n%s", what, seq, len(view)-len(s), ansi.Strip(view))
		default:
			text.WriteString(seq)
		}
		state, s = next, s[n:]
	}
	plain := text.String()
	if r, at, ok := sanitize.Leak(plain); ok {
		t.Fatalf("%s: a raw %U at byte %d of:\n%s", what, r, at, plain)
	}
}

// CheckInertLine is CheckInert for text of a single-line slot (a row's cell, a title): no
// line break either.
func CheckInertLine(t testing.TB, text, what string) {
	t.Helper()
	if strings.Contains(text, "\n") {
		t.Fatalf("%s: a line break in %q", what, text)
	}
	CheckInert(t, text, what)
}
