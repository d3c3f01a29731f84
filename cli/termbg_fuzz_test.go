//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package cli

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"
)

// answerColour is what an OSC 11 answer must hold after "rgb:" for parseOSC11 to read it:
// three groups of 1 to 4 hex digits, ended by BEL, ESC or the end of the answer.
var answerColour = regexp.MustCompile(`^([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})(?:[\x07\x1b]|$)`)

// The terminal's answer to the background query is outside input: parseOSC11 reads exactly
// the well-formed colours and calls them dark by their luminance, whatever else comes.
func FuzzParseOSC11(f *testing.F) {
	for _, s := range []string{
		"\x1b]11;rgb:0000/0000/0000\x1b\\", "\x1b]11;rgb:ffff/ffff/ffff\x07", "\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\",
		"\x1b]11;rgb:fd/f6/e3\x07", "\x1b]11;rgb:f/f/f\x07", "\x1b]11;rgb:8080/8080/8080\x1b\\", "\x1b]11;rgb:ffff/ffff\x07",
		"\x1b]11;rgb:fffff/0/0\x07", "\x1b]11;rgb:gg/00/00\x07", "\x1b]11;rgb://\x07", "\x1b]11;rgb:+f/0/0\x07",
		"\x1b]11;rgba:0/0/0/0\x07", "rgb:", "", "\x1b[?62;c", "\x1b]11;rgb:0/0/0", "\x1b]11;rgb:0_0/0/0\x07",
		"garbage rgb:ffff/ffff/ffff\x1b\\ rgb:0/0/0", "\x1b]11;rgb:FFFF/FFFF/FFFF\x07", "\x1b]11;rgb:0x1/0/0\x07",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dark, ok := parseOSC11(b)
		i := bytes.Index(b, []byte("rgb:"))
		var m [][]byte
		if i >= 0 {
			m = answerColour.FindSubmatch(b[i+4:])
		}
		if ok != (m != nil) {
			t.Fatalf("%q: ok = %v, but the colour is well formed: %v", b, ok, m != nil)
		}
		if !ok {
			if dark {
				t.Fatalf("%q: dark without a colour", b)
			}
			return
		}
		var rgb [3]float64
		for j := range rgb {
			v, err := strconv.ParseUint(string(m[j+1]), 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			rgb[j] = float64(v) / float64(uint64(1)<<(4*len(m[j+1]))-1)
		}
		if want := 0.2126*rgb[0]+0.7152*rgb[1]+0.0722*rgb[2] < 0.5; dark != want {
			t.Fatalf("%q: dark = %v for %v", b, dark, rgb)
		}
	})
}

// COLORFGBG comes from the environment: only its last field counts, and only 0–15.
func FuzzColorFGBG(f *testing.F) {
	for _, s := range []string{"", "15;0", "0;15", "7;default;0", "15;8", "15;9", "default;default", "0;16", ";", "15;-1", "1;07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dark, ok := colorFGBG(s)
		fields := bytes.Split([]byte(s), []byte(";"))
		bg := string(fields[len(fields)-1])
		n, err := strconv.Atoi(bg)
		valid := s != "" && err == nil && strconv.Itoa(n) == bg && n >= 0 && n <= 15
		if ok != valid {
			t.Fatalf("%q: ok = %v", s, ok)
		}
		if ok && dark != (n <= 6 || n == 8) {
			t.Fatalf("%q: dark = %v", s, dark)
		}
		if !ok && dark {
			t.Fatalf("%q: dark without a colour", s)
		}
	})
}
