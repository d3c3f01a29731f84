package sanitize

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileText has every kind of character JSON must write escaped, among text it keeps.
const hostileText = "a\u202eb\u202a\u202b\u202c\u202d c\u2066\u2067\u2068\u2069 d\u200b\u200c\u200d\u2060\ufeff" +
	" e\u2028f\u2029g\x7f h\u0085\u009b i\u00ad\u115f\u1160\u3164\uffa0 j\U000E0001\U000E0041\U000E007F" +
	" k\ufe0f\u200e\u200f\u061c l\x1b]0;t\x07 m\r\n\t 你好 שלום 👍"

func encode(t testing.TB, v any, indent string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkJSON asserts that out holds no character a terminal acts on or hides, except the
// white space between values.
func checkJSON(t testing.TB, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Fatalf("not UTF-8: %q", out)
	}
	for i, r := range string(out) {
		if r == '\n' || r == '\t' || r == '\r' {
			continue
		}
		if r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 || hidden(r) {
			t.Fatalf("raw %U at %d: %q", r, i, out)
		}
	}
}

func TestJSONEscapesAndKeepsTheText(t *testing.T) {
	v := map[string]any{"name": hostileText, "list": []any{hostileText, 1.5, nil, true}, hostileText: "key"}
	for _, indent := range []string{"", "  "} {
		raw := encode(t, v, indent)
		out := JSON(raw)
		checkJSON(t, out)
		if !json.Valid(out) {
			t.Fatalf("not JSON: %s", out)
		}
		var back map[string]any
		if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back, v) {
			t.Fatalf("decodes to %q (%v), want %q", back, err, v)
		}
		for _, esc := range []string{`\u202e`, `\u2066`, `\u200b`, `\u200c`, `\u200d`, `\u2060`, `\ufeff`, `\u2028`,
			`\u2029`, `\u007f`, `\u0085`, `\u00ad`, `\u3164`, `\udb40\udc01`, `\udb40\udc41`, `\u001b`} {
			if !bytes.Contains(out, []byte(esc)) {
				t.Errorf("no %s in %s", esc, out)
			}
		}
		for _, kept := range []string{"你好", "שלום", "👍"} {
			if !bytes.Contains(out, []byte(kept)) {
				t.Errorf("%s escaped: %s", kept, out)
			}
		}
		if indent != "" && !bytes.Contains(out, []byte("\n  \"")) {
			t.Errorf("the indentation was escaped: %s", out)
		}
	}
}

func TestJSONInvalidUTF8AndPlainText(t *testing.T) {
	in := []byte("{\"a\":\"x\xffy\xc2\"}")
	if got := string(JSON(in)); got != `{"a":"x\ufffdy\ufffd"}` {
		t.Errorf("JSON(%q) = %s", in, got)
	}
	plain := []byte("{\n  \"a\": \"b \\\" \\\\\" ,\n\t\"c\": [1, 2]\r\n}")
	if got := JSON(plain); &got[0] != &plain[0] {
		t.Error("plain JSON was copied")
	}
	// A raw control inside a string (not JSON, but not passed on raw either).
	if got := string(JSON([]byte("\"a\nb\x1b\""))); got != `"a\u000ab\u001b"` {
		t.Errorf("a raw newline in a string: %s", got)
	}
}

// Any JSON text stays valid and decodes to the same values; a string of any bytes is
// written with nothing raw a terminal acts on.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{
		"", "plain", hostileText, "\xff\xfe", `{"a":"\u202e"}`, `"\\"`, `["\\\"", "x\u2028"]`,
		"\ufeff{}", strings.Repeat("\U000E0041", 1000), `{"n": -9223372036854775808, "m": 9223372036854775807}`,
		`NaN`, strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100), `"` + strings.Repeat("x", 1<<20) + `"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out := JSON(b)
		checkJSON(t, out)
		if !json.Valid(b) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("JSON(%q) = %q is not JSON", b, out)
		}
		want, got := decode(t, b), decode(t, out)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("JSON(%q) = %q decodes to %v, want %v", b, out, got, want)
		}
		if s := string(b); utf8.ValidString(s) {
			// The same text, encoded and escaped, decodes back to itself.
			var back string
			if err := json.Unmarshal(JSON(encode(t, s, "")), &back); err != nil || back != s {
				t.Fatalf("%q came back as %q (%v)", s, back, err)
			}
		}
	})
}

// decode reads JSON text with numbers as written (so any number of valid JSON decodes).
func decode(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return v
}

func TestLeak(t *testing.T) {
	for in, want := range map[string]rune{
		"a\u200cb":        0,
		"🇩🇪 plain\nlines": 0,
		"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F": 0,
		"a\u200c b":      0x200c,
		"x\U000E0041":    0xE0041,
		"ok\u3164":       0x3164,
		"a\u202eb":       0x202e,
		"a\x1bb":         0x1b,
		"a\tb":           '\t',
		"\xff":           utf8.RuneError,
		"a\u2028b":       0x2028,
		"fine ␛[2J":      0,
		"trailing\u00ad": 0xad,
	} {
		r, at, ok := Leak(in)
		if ok != (want != 0) || ok && r != want {
			t.Errorf("Leak(%q) = %U at %d, %v; want %U", in, r, at, ok, want)
		}
	}
}
