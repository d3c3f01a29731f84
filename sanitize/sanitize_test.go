package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain ascii untouched", "Hello, world", "Hello, world"},
		{"window title OSC", "a\x1b]0;pwned\x07b", "a␛]0;pwned␇b"},
		{"clear screen CSI", "\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"OSC 52 clipboard", "\x1b]52;c;ZXZpbA==\x07", "␛]52;c;ZXZpbA==␇"},
		{"OSC 8 link", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "␛]8;;http://evil␛\\click␛]8;;␛\\"},
		{"DCS", "\x1bP1$r\x1b\\", "␛P1$r␛\\"},
		{"C1 CSI", "x\u009b2Jy", "x\uFFFD2Jy"},
		{"C1 OSC", "\u009d0;t\u009c", "\uFFFD0;t\uFFFD"},
		{"NEL", "a\u0085b", "a\uFFFDb"},
		{"DEL", "a\x7fb", "a␡b"},
		{"NUL and BEL", "\x00\x07", "␀␇"},
		{"CRLF to space", "a\r\nb\rc\nd", "a b c d"},
		{"tab", "a\tb", "a    b"},
		{"bidi override removed", "abc\u202Edcba\u202C", "abcdcba"},
		{"bidi isolates removed", "\u2066x\u2069\u200e\u200f\u061c", "x"},
		{"zero width space, word joiner, BOM, soft hyphen removed", "a\u200bb\u2060c\ufeffd\u00ade", "abcde"},
		{"ZWJ sequence split into its emoji", "👩\u200d💻", "👩💻"},
		{"rainbow flag: VS16 and ZWJ dropped", "🏳\ufe0f\u200d🌈", "🏳🌈"},
		{"skin tone dropped", "👋🏽", "👋"},
		{"heart: VS16 dropped", "❤\ufe0f", "❤"},
		{"regional indicator flag kept", "🇩🇪", "🇩🇪"},
		{"tag sequence flag kept", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"},
		{"ZWNJ kept", "می\u200cخواهم", "می\u200cخواهم"},
		{"CJK kept", "你好，世界", "你好，世界"},
		{"RTL text kept", "שלום عربي", "שלום عربي"},
		{"invalid utf8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"line separator", "a\u2028b", "a b"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.want {
				t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestTextKeepsNewlines(t *testing.T) {
	got := Text("one\r\ntwo\rthree\nfour\x1b[31m")
	want := "one\ntwo\nthree\nfour␛[31m"
	if got != want {
		t.Fatalf("Text = %q, want %q", got, want)
	}
	if l := Lines("a\nb\r\nc"); len(l) != 3 || l[2] != "c" {
		t.Fatalf("Lines = %q", l)
	}
}

func TestFastPathDoesNotCopy(t *testing.T) {
	s := strings.Repeat("plain text ", 100)
	allocs := testing.AllocsPerRun(100, func() { _ = Line(s) })
	if allocs != 0 {
		t.Fatalf("Line on plain ASCII allocated %v times", allocs)
	}
}

// TestEmojiWidthAgreesAcrossTerminals: after sanitizing, the grapheme width parley lays out
// with equals the per-code-point width of terminals that do not cluster graphemes (tmux,
// xterm, VTE), so frames hold in both.
func TestEmojiWidthAgreesAcrossTerminals(t *testing.T) {
	perCodePoint := func(s string) int {
		n := 0
		for _, r := range s {
			n += ansi.StringWidth(string(r))
		}
		return n
	}
	for _, s := range []string{"👩\u200d💻", "🏳\ufe0f\u200d🌈", "👋🏽", "❤\ufe0f", "👨\u200d👩\u200d👧\u200d👦",
		"Family: 👨\u200d👩\u200d👧\u200d👦 Coder: 👩\u200d💻 Flag: 🏳️\u200d🌈 Skin: 👋🏽", "1\ufe0f\u20e3"} {
		got := Line(s)
		if g, c := ansi.StringWidth(got), perCodePoint(got); g != c {
			t.Errorf("Line(%q) = %q: grapheme width %d, per code point %d", s, got, g, c)
		}
	}
	// Regional indicators: one cell each in tmux, a pair of two cells when clustered;
	// both come to 2 for a flag.
	if w := ansi.StringWidth(Line("🇩🇪")); w != 2 {
		t.Errorf("a flag is %d wide, want 2", w)
	}
}

// check asserts the safety properties of sanitized output.
func check(t *testing.T, in, out string, single bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output of %q is not valid UTF-8: %q", in, out)
	}
	for _, r := range out {
		switch {
		case r == '\n' && !single:
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			t.Fatalf("output of %q keeps control %U: %q", in, r, out)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			t.Fatalf("output of %q keeps bidi control %U", in, r)
		}
	}
	if ansi.Strip(out) != out {
		t.Fatalf("output of %q still holds an escape sequence: %q", in, out)
	}
	if again := clean(out, single); again != out {
		t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b]0;pwned\x07", "\x1b[2J", "\u009b31m", "\u202eevil", "a\r\nb",
		"👩\u200d💻", "\xff\xfe", strings.Repeat("x", 300), "\x1bP+q\x1b\\", "\t\x00\x7f",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check(t, s, Line(s), true)
		check(t, s, Text(s), false)
	})
}

func BenchmarkLineASCII(b *testing.B) {
	s := strings.Repeat("hello world ", 20)
	for b.Loop() {
		_ = Line(s)
	}
}

func BenchmarkLineHostile(b *testing.B) {
	s := strings.Repeat("\x1b]0;x\x07👩\u200d💻\u202e", 20)
	for b.Loop() {
		_ = Line(s)
	}
}

func TestJoinersGo(t *testing.T) {
	cases := map[string]string{
		"a\u200db":      "ab",
		"👩\u200d💻":      "👩💻",
		"\u200d👍":       "👍",
		"नमस्\u200dते":  "नमस्ते",
		"می\u200cخواهم": "می\u200cخواهم", // ZWNJ stays: Persian needs it and it has no width
	}
	for in, want := range cases {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}
