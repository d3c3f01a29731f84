package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/config"
)

// TestHyperlinksByTerminal: auto turns hyperlinks on in terminals known to take them, off
// elsewhere and inside tmux or screen; on and off decide whatever the terminal.
func TestHyperlinksByTerminal(t *testing.T) {
	for env, want := range map[string]bool{
		"TERM=xterm-256color":                             false,
		"TERM=xterm-256color TERM_PROGRAM=Apple_Terminal": false,
		"TERM=linux": false,
		"TERM=xterm-256color TERM_PROGRAM=iTerm.app":                   true,
		"TERM=xterm-256color TERM_PROGRAM=WezTerm":                     true,
		"TERM=xterm-256color TERM_PROGRAM=vscode":                      true,
		"TERM=xterm-kitty":                                             true,
		"TERM=xterm-ghostty":                                           true,
		"TERM=foot":                                                    true,
		"TERM=alacritty":                                               true,
		"TERM=xterm-256color WT_SESSION=abc":                           true,
		"TERM=xterm-256color VTE_VERSION=7600":                         true,
		"TERM=xterm-256color VTE_VERSION=4803":                         false,
		"TERM=xterm-256color KONSOLE_VERSION=230805":                   true,
		"TERM=xterm-256color KONSOLE_VERSION=201100":                   false,
		"TERM=tmux-256color TERM_PROGRAM=iTerm.app":                    false,
		"TERM=screen-256color VTE_VERSION=7600":                        false,
		"TERM=xterm-kitty TMUX=/run/user/1000/tmux-1000/default,1,0":   false,
		"TERM=xterm-256color STY=1234.pts-0.host TERM_PROGRAM=WezTerm": false,
	} {
		vars := strings.Fields(env)
		if got := hyperlinksOn(config.HyperlinksAuto, vars); got != want {
			t.Errorf("auto on %s: %v, want %v", env, got, want)
		}
		if !hyperlinksOn(config.HyperlinksOn, vars) || hyperlinksOn(config.HyperlinksOff, vars) {
			t.Errorf("on/off on %s do not decide", env)
		}
	}
	if hyperlinksOn("", []string{"TERM=xterm-kitty"}) != true {
		t.Error("an unset setting is not auto")
	}
}

// TestHyperlinksSetting: PARLEY_HYPERLINKS wins over the config file, which wins over the
// default auto; a bad value is refused naming the variable.
func TestHyperlinksSetting(t *testing.T) {
	for _, c := range []struct {
		env, file string
		want      config.Hyperlinks
	}{
		{"", "", config.HyperlinksAuto},
		{"", "hyperlinks: off\n", config.HyperlinksOff},
		{"on", "hyperlinks: off\n", config.HyperlinksOn},
		{"auto", "hyperlinks: on\n", config.HyperlinksAuto},
	} {
		env := writeTestConfig(t, c.file)
		env[envHyperlinks] = c.env
		s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
		if err != nil || s.Hyperlinks != c.want {
			t.Errorf("PARLEY_HYPERLINKS=%q, %q: %q, %v; want %q", c.env, c.file, s.Hyperlinks, err, c.want)
		}
	}
	env := writeTestConfig(t, "")
	env[envHyperlinks] = "maybe"
	if _, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env)); err == nil ||
		!strings.Contains(err.Error(), `PARLEY_HYPERLINKS: "maybe" is not auto, on or off`) {
		t.Errorf("PARLEY_HYPERLINKS=maybe: %v", err)
	}
}
