// Package config reads, validates and edits parley's YAML configuration file.
//
// The file lives at $XDG_CONFIG_HOME/parley/config.yaml unless --config or PARLEY_CONFIG
// names another one. It holds no secrets: the API token lives in the credentials store.
// Every value is optional; Config keeps "not set" apart from a zero value so that the
// caller can apply the precedence flags → env → file → defaults.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Theme is the colour theme: auto (follow the terminal background), dark, light or mono.
type Theme string

// The themes a config file may name.
const (
	ThemeAuto  Theme = "auto"
	ThemeDark  Theme = "dark"
	ThemeLight Theme = "light"
	ThemeMono  Theme = "mono"
)

// Hyperlinks says whether the links parley draws (a message's attachment, an add-on link)
// are terminal hyperlinks (OSC 8): auto (where the terminal is known to take them), on or
// off.
type Hyperlinks string

// The hyperlinks settings.
const (
	HyperlinksAuto Hyperlinks = "auto"
	HyperlinksOn   Hyperlinks = "on"
	HyperlinksOff  Hyperlinks = "off"
)

// Defaults and limits of the settings a config file may change.
const (
	DefaultTheme           = ThemeAuto
	DefaultRefreshInterval = 30 * time.Second
	DefaultPageSize        = 100
	DefaultRequestTimeout  = 30 * time.Second
	// DefaultTeamSize is the number of people of one organization running parley that the
	// default request budget assumes.
	DefaultTeamSize = 10
	// DefaultRequestBudget is one person's share of the API's daily limit in a team of
	// DefaultTeamSize: RequestBudgetFor(DefaultTeamSize).
	DefaultRequestBudget = MaxRequestBudget / DefaultTeamSize
	// AgentDayRequests is what one agent's working day spends of the conversations family
	// with the default settings: the simulated day of docs/budget.md's table "Requests per
	// agent-shift", whose test keeps the two equal. `parley config --help` quotes it.
	AgentDayRequests = 408

	// MinRefreshInterval is the shortest auto-refresh interval other than 0 (off).
	MinRefreshInterval = 5 * time.Second
	// MaxRefreshInterval is the longest auto-refresh interval.
	MaxRefreshInterval = 24 * time.Hour
	// MaxPageSize is the API's largest page (spec: limit maximum 100).
	MaxPageSize = 100
	// MaxRequestBudget is the API's daily limit per resource family and organization.
	MaxRequestBudget = 5000
	// MaxTeamSize is the largest team_size: a budget of one request each.
	MaxTeamSize = MaxRequestBudget
	// MinRequestTimeout and MaxRequestTimeout bound the time one request attempt may take.
	MinRequestTimeout = time.Second
	MaxRequestTimeout = 5 * time.Minute
)

// Config is the content of one config file. A zero field means "not set in the file".
type Config struct {
	// Path is the file this Config was read from.
	Path string
	// Exists reports whether the file existed; a missing file reads as an empty Config.
	Exists bool

	// BaseURL is the API base address, normalized by NormalizeBaseURL ("" = not set).
	BaseURL string
	// OrganizationID is sent as Service-Organization-Id: a positive integer in decimal ("" = not set).
	OrganizationID string
	// OperatorID is sent as Service-Operator-Id: a positive integer in decimal ("" = not set).
	OperatorID string
	// Theme is one of the Theme constants ("" = not set).
	Theme Theme
	// RefreshInterval is the auto-refresh interval; 0 turns auto-refresh off (nil = not set).
	RefreshInterval *time.Duration
	// PageSize is the list page size, 1..MaxPageSize (0 = not set).
	PageSize int
	// RequestBudget is the number of requests per resource family per day parley may
	// spend, 1..MaxRequestBudget (0 = not set).
	RequestBudget int
	// TeamSize is how many people of the organization use parley, 1..MaxTeamSize (0 = not
	// set): without RequestBudget, the budget is RequestBudgetFor(TeamSize).
	TeamSize int
	// RequestTimeout bounds one attempt of one API request,
	// MinRequestTimeout..MaxRequestTimeout (0 = not set).
	RequestTimeout time.Duration
	// ReadOnly: the TUI offers no edits and the write commands refuse to run (nil = not
	// set; the --readonly flag wins). The
	// file's key is readonly; read_only, its earlier spelling, is read too.
	ReadOnly *bool
	// Mouse: the TUI takes clicks and the wheel (nil = not set; --mouse and PARLEY_MOUSE
	// win). Off by default: the terminal's own text selection then works as usual.
	Mouse *bool
	// MarkReadOnOpen: opening an unread conversation marks it read (nil = not set; on by
	// default; --mark-read-on-open wins).
	MarkReadOnOpen *bool
	// Alerts is the alerts: section: the bell, the title and desktop notifications on
	// arrivals (the zero value when the file has none).
	Alerts Alerts
	// Hyperlinks is one of the Hyperlinks constants ("" = not set; PARLEY_HYPERLINKS wins).
	Hyperlinks Hyperlinks
	// Keys maps an action name to the keys bound to it, exactly as written in the file
	// (a single key is a list of one; an empty list is kept). The keymap package validates
	// the action names and the keys and reports conflicts.
	Keys map[string][]string
	// KeyLines maps each action name of Keys to its line in the file, for messages.
	KeyLines map[string]int
	// ShiftEnd is when the working day ends, the time since midnight (ParseShiftEnd; 0 =
	// not set): the day's forecast stretches auto-refresh so that the request budget
	// lasts until then.
	ShiftEnd time.Duration
	// Serve is the serve: section, the settings of `parley serve` (the zero value when the
	// file has none).
	Serve Serve
	// Views are the saved views of the views: section, in the file's order.
	Views []View
	// Lines maps each top-level key present in the file to its line (under the key's
	// current spelling).
	Lines map[string]int
	// spelled maps a key the file writes in an older spelling (read_only) to that spelling,
	// so that Set edits the line the file has instead of adding a second one.
	spelled map[string]string
}

// Problem is one thing wrong with a config file, at a line (0 when unknown) and, where
// known, a column (1-based, in characters; 0 when unknown).
type Problem struct {
	Line   int
	Column int
	Msg    string
}

// Error lists everything wrong with a config file.
type Error struct {
	Path     string
	Problems []Problem
}

func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case p.Line > 0 && p.Column > 0:
			fmt.Fprintf(&b, "%s:%d:%d: %s", e.Path, p.Line, p.Column, p.Msg)
		case p.Line > 0:
			fmt.Fprintf(&b, "%s:%d: %s", e.Path, p.Line, p.Msg)
		default:
			fmt.Fprintf(&b, "%s: %s", e.Path, p.Msg)
		}
	}
	return b.String()
}

// Dir returns parley's configuration directory: $XDG_CONFIG_HOME/parley, else
// $HOME/.config/parley (%AppData%\parley on Windows). env looks up environment variables.
func Dir(env func(string) string) (string, error) {
	if x := env("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "parley"), nil
	}
	if runtime.GOOS == "windows" {
		if a := env("AppData"); a != "" {
			return filepath.Join(a, "parley"), nil
		}
		return "", errors.New("cannot find the configuration directory: %AppData% is not set")
	}
	if h := env("HOME"); h != "" {
		return filepath.Join(h, ".config", "parley"), nil
	}
	return "", errors.New("cannot find the configuration directory: neither XDG_CONFIG_HOME nor HOME is set")
}

// DefaultPath returns the default config file path, Dir(env)/config.yaml.
func DefaultPath(env func(string) string) (string, error) {
	d, err := Dir(env)
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "config.yaml"), nil
}

// Load reads and validates the config file at path. A missing file is not an error: it
// reads as an empty Config with Exists false. Problems in the file come back as *Error,
// each with its line.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{Path: path}, nil
	}
	if err != nil {
		return Config{Path: path}, fmt.Errorf("read config: %w", err)
	}
	c, err := Parse(data, path)
	c.Exists = true
	return c, err
}

// RequestBudgetFor is one person's share of the API's daily limit per family and
// organization (MaxRequestBudget) in a team of teamSize people: the default request
// budget. Auto-refresh leaves a fifth of it for the person's own requests.
func RequestBudgetFor(teamSize int) int {
	return max(1, MaxRequestBudget/max(1, teamSize))
}
