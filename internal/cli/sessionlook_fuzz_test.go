package cli

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/theme"
)

// A hub session's look, from any environment its client sends (the variables joined by
// U+001E): never more colour than the variables allow (NO_COLOR and the mono theme leave
// attributes only, a dumb or missing TERM none), styles always, and the terminal asked for
// its background only when neither the theme nor COLORFGBG says it and there is colour;
// hyperlinks always when the setting is on, never when it is off.
func FuzzSessionLook(f *testing.F) {
	for _, s := range []string{
		"TERM=xterm-256color\x1eCOLORTERM=truecolor", "TERM=xterm-256color\x1eNO_COLOR=1", "TERM=dumb",
		"NO_COLOR=true\x1eNO_COLOR=0\x1eTERM=xterm", "TERM=xterm\x1eCOLORFGBG=15;0", "TERM=xterm\x1eCOLORFGBG=9223372036854775807",
		"TERM=kitty\x1eCLICOLOR_FORCE=1\x1eNO_COLOR=NaN", "", "=\x1e==\x1eTERM", "TERM=" + strings.Repeat("x", 1<<20),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, vars string) {
		env := strings.Split(vars, "\x1e")
		noColor, _ := strconv.ParseBool(envValue(env, "NO_COLOR"))
		_, fgbg := colorFGBG(envValue(env, "COLORFGBG"))
		for _, mode := range []theme.Mode{theme.ModeAuto, theme.ModeDark, theme.ModeLight, theme.ModeMono} {
			l := sessionLook(mode, config.HyperlinksAuto)(env)
			if l.Styles == nil {
				t.Fatalf("%q, %v: no styles", vars, mode)
			}
			if l.Profile < colorprofile.NoTTY || l.Profile > colorprofile.TrueColor {
				t.Fatalf("%q, %v: profile %v", vars, mode, l.Profile)
			}
			if (noColor || mode == theme.ModeMono) && l.Profile > colorprofile.ASCII {
				t.Fatalf("%q, %v: colour (%v) where none is allowed", vars, mode, l.Profile)
			}
			if l.AskBackground && (mode != theme.ModeAuto || fgbg || l.Profile <= colorprofile.ASCII) {
				t.Fatalf("%q, %v: asks for the background (profile %v, COLORFGBG %v)", vars, mode, l.Profile, fgbg)
			}
		}
		if !sessionLook(theme.ModeAuto, config.HyperlinksOn)(env).Hyperlinks ||
			sessionLook(theme.ModeAuto, config.HyperlinksOff)(env).Hyperlinks {
			t.Fatalf("%q: hyperlinks on or off not followed", vars)
		}
	})
}
