package cli

import (
	"strconv"
	"strings"

	"github.com/parley-tui/parley/internal/config"
)

// envHyperlinks overrides the config file's hyperlinks setting (auto, on or off).
const envHyperlinks = "PARLEY_HYPERLINKS"

// hyperlinksOn says whether the links parley draws are terminal hyperlinks (OSC 8) on the
// terminal env describes (the process's environment, or what a hub session's SSH client
// sent): on and off decide; auto (and "") turns them on where the terminal is known to take
// them (hyperlinkTerminal). A terminal that does not know OSC 8 may print it, so auto
// stays off where it cannot tell.
func hyperlinksOn(setting config.Hyperlinks, env []string) bool {
	switch setting {
	case config.HyperlinksOn:
		return true
	case config.HyperlinksOff:
		return false
	}
	return hyperlinkTerminal(env)
}

// hyperlinkTerminal reports a terminal known to support OSC 8 hyperlinks, by the variables
// it sets. Inside tmux or GNU screen it is false whatever the outer terminal: tmux passes
// hyperlinks on only from 3.4 and with its hyperlinks feature set, screen not at all, and
// neither can be asked from here (set hyperlinks: on for a tmux that does).
func hyperlinkTerminal(env []string) bool {
	term := envValue(env, "TERM")
	if envValue(env, "TMUX") != "" || envValue(env, "STY") != "" ||
		strings.HasPrefix(term, "tmux") || strings.HasPrefix(term, "screen") {
		return false
	}
	switch envValue(env, "TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "rio":
		return true
	}
	switch term {
	case "xterm-kitty", "xterm-ghostty", "wezterm", "foot", "foot-extra", "alacritty", "contour":
		return true
	}
	if envValue(env, "KITTY_WINDOW_ID") != "" || envValue(env, "WT_SESSION") != "" ||
		envValue(env, "WEZTERM_EXECUTABLE") != "" {
		return true
	}
	// VTE (GNOME Terminal, Tilix, Terminator, …) from 0.50, Konsole from 20.12.
	if v, err := strconv.Atoi(envValue(env, "VTE_VERSION")); err == nil && v >= 5000 {
		return true
	}
	if v, err := strconv.Atoi(envValue(env, "KONSOLE_VERSION")); err == nil && v >= 201200 {
		return true
	}
	return false
}
