package cli

import (
	"bytes"
	"strconv"
	"testing"
)

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
