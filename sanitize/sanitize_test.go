package sanitize

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
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
		{"paragraph separator", "a\u2029b", "a b"},
		{"empty", "", ""},
		{"LRM, RLM and ALM removed", "a\u200eb\u200fc\u061cd", "abcd"},
		{"ZWNJ before a space removed", "Mallory\u200c redoc", "Mallory redoc"},
		{"ZWNJ at the start and end removed", "\u200cab\u200c", "ab"},
		{"ZWNJ between digits removed", "1\u200c2", "12"},
		{"ZWNJ between a letter and an emoji removed", "a\u200c👍", "a👍"},
		{"ZWNJ after a virama kept", "क्\u200cष", "क्\u200cष"},
		{"a run of ZWNJ keeps one", "می\u200c\u200c\u200cخواهم", "می\u200cخواهم"},
		{"ZWNJ before a Hangul filler removed", "a\u200c\u3164", "a"},
		{"Hangul fillers removed", "\u115fa\u1160b\u3164c\uffa0", "abc"},
		{"combining grapheme joiner removed", "a\u034fb", "ab"},
		{"Mongolian vowel separator and free variation selectors removed", "ᠠ\u180eᠡ\u180b", "ᠠᠡ"},
		{"invisible operators removed", "f\u2061(x)\u2062y\u2064", "f(x)y"},
		{"interlinear annotation removed", "\ufff9a\ufffab\ufffb", "ab"},
		{"language tag removed", "\U000E0001\U000E0065\U000E006Ehi", "hi"},
		{"tag text after a letter removed", "ok\U000E0041\U000E0042\U000E0043\U000E007F", "ok"},
		{"tag text as a flag's tags removed", "🏴\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E0020\U000E0061\U000E006C\U000E006C\U000E007F", "🏴"},
		{"upper-case tags are no subdivision", "🏴\U000E0047\U000E0042\U000E0053\U000E0043\U000E0054\U000E007F", "🏴"},
		{"a flag without its cancel tag loses its tags", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074", "🏴"},
		{"a subdivision without a suffix is none", "🏴\U000E0067\U000E0062\U000E007F", "🏴"},
		{"a numeric region is one", "🏴\U000E0031\U000E0032\U000E0033\U000E0061\U000E007F", "🏴\U000E0031\U000E0032\U000E0033\U000E0061\U000E007F"},
		{"variation selector supplement removed", "葛\U000E0100", "葛"},
		{"black flag alone kept", "🏴 x", "🏴 x"},
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
	got := Text("one\r\ntwo\rthree\nfour\x1b[31m\u2028five\u2029six")
	want := "one\ntwo\nthree\nfour␛[31m\nfive\nsix"
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
		case r == 0x2028, r == 0x2029:
			t.Fatalf("output of %q keeps separator %U", in, r)
		}
	}
	checkHidden(t, in, out)
	if ansi.Strip(out) != out {
		t.Fatalf("output of %q still holds an escape sequence: %q", in, out)
	}
	if again := clean(out, single); again != out {
		t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
	}
}

// checkHidden asserts that the only hidden characters (format, default-ignorable) left in
// out are a ZWNJ between a letter (or its marks) and a letter, and the tags of a
// well-formed subdivision flag: 🏴, two letters or three digits, one to four letters or
// digits, the cancel tag. It is written apart from the sanitizer, from the rule.
func checkHidden(t *testing.T, in, out string) {
	t.Helper()
	rs := []rune(out)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0x200c:
			j := i - 1
			for j >= 0 && unicode.In(rs[j], unicode.Mn, unicode.Mc) {
				j--
			}
			if j < 0 || !unicode.IsLetter(rs[j]) || i+1 == len(rs) || !unicode.IsLetter(rs[i+1]) {
				t.Fatalf("output of %q keeps a ZWNJ outside a word at %d: %q", in, i, out)
			}
		case r == 0x1f3f4:
			j := i + 1
			var code []rune
			for j < len(rs) && rs[j] >= 0xe0000 && rs[j] <= 0xe007e {
				code = append(code, rs[j]-0xe0000)
				j++
			}
			if len(code) == 0 {
				continue
			}
			if j == len(rs) || rs[j] != 0xe007f || !subdivisionCode.MatchString(string(code)) {
				t.Fatalf("output of %q keeps tags %q that are no subdivision flag: %q", in, string(code), out)
			}
			i = j
		case r >= 0xe0000 && r <= 0xe0fff, r >= 0xfe00 && r <= 0xfe0f, r == 0x200d:
			t.Fatalf("output of %q keeps %U: %q", in, r, out)
		case unicode.Is(unicode.Cf, r), r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r == 0x034f:
			t.Fatalf("output of %q keeps the hidden %U: %q", in, r, out)
		}
	}
}

var subdivisionCode = regexp.MustCompile(`^([a-z]{2}|[0-9]{3})[a-z0-9]{1,4}$`)

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b]0;pwned\x07", "\x1b[2J", "\u009b31m", "\u202eevil", "a\r\nb",
		"👩\u200d💻", "\xff\xfe", strings.Repeat("x", 300), "\x1bP+q\x1b\\", "\t\x00\x7f",
		"می\u200cخواهم", "a\u200c\u200c b\u200c", "क्\u200cष", "\u115f\u1160\u3164\uffa0",
		"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🏴\U000E0041\U000E007F",
		"\U000E0001\U000E0041", "\ufeffBOM", "\xef\xbb\xbf\xfe\xff", "\u2028\u2029\u0085",
		strings.Repeat("\u200b", 1<<20),
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
