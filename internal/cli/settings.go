package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/credentials"
	"github.com/parley-tui/parley/internal/ledger"
)

// Environment variables parley reads (README, Configuration).
const (
	envBaseURL  = "PARLEY_BASE_URL"
	envOrg      = "PARLEY_ORG_ID"
	envOperator = "PARLEY_OPERATOR_ID"
	envConfig   = "PARLEY_CONFIG"
	envTimeout  = "PARLEY_REQUEST_TIMEOUT"
	envMouse    = "PARLEY_MOUSE"
)

// Settings is parley's effective configuration for one run: each value comes from the
// flags, else the environment, else the config file, else the default.
type Settings struct {
	// BaseURL is the API base address, normalized (no trailing slash); "" when none is
	// configured (then Demo is true).
	BaseURL string
	// OrganizationID is sent as Service-Organization-Id; 0 means none (the token's own or
	// default organization).
	OrganizationID int64
	// OperatorID is sent as Service-Operator-Id; 0 means none (the account's owner acts).
	OperatorID int64
	// From says where BaseURL, OrganizationID and OperatorID came from, for messages.
	From Origins

	// Theme is auto, dark, light or mono (default auto).
	Theme config.Theme
	// Keys are the key overrides of the config file: action name → keys, unvalidated; the
	// keymap package applies them and reports unknown actions and conflicts. Nil when
	// the file has none.
	Keys map[string][]string
	// KeyLines maps each action of Keys to its line in ConfigPath, for those reports.
	KeyLines map[string]int
	// RefreshInterval is the configured auto-refresh interval while someone works
	// (default 30s); 0 means off. Idleness and the budget may stretch it
	// (common.Budget).
	RefreshInterval time.Duration
	// PageSize is the list page size, 1..100 (default 100).
	PageSize int
	// TeamSize is how many people of the organization use parley (default 10); it sets
	// the default RequestBudget.
	TeamSize int
	// RequestBudget is this user's share of the organization's daily requests per
	// resource family (default 5000 / TeamSize); auto-refresh leaves a fifth of it for
	// the user's own requests.
	RequestBudget int
	// RequestTimeout bounds one attempt of one API request (default 30s).
	RequestTimeout time.Duration
	// ShiftEnd is when the working day ends, the time since midnight (shift_end in the
	// config file; 0: none): the day's forecast stretches auto-refresh so that the
	// request budget lasts until then.
	ShiftEnd time.Duration
	// CacheSize bounds the client's memory of decoded answers in bytes (0: the client's
	// default, the TUI's); the hub sets its own (serve: cache_size).
	CacheSize int64
	// ReadOnly: the TUI offers no edits and the write commands refuse to run (--readonly,
	// else readonly in the config file; default false).
	ReadOnly bool
	// Mouse: the TUI takes clicks and the wheel (--mouse, else PARLEY_MOUSE, else mouse in
	// the config file; default false, which leaves text selection to the terminal).
	Mouse bool
	// MarkReadOnOpen: opening an unread conversation marks it read (--mark-read-on-open,
	// else mark_read_on_open in the config file; default true).
	MarkReadOnOpen bool
	// Alerts are how the TUI tells of arrivals (flags, else the config file's alerts:
	// section, else the defaults: the bell and the title on, notifications off).
	Alerts AlertSettings
	// Hyperlinks: links as terminal hyperlinks: auto (default), on or off (PARLEY_HYPERLINKS,
	// else hyperlinks in the config file); hyperlinksOn decides auto by the terminal.
	Hyperlinks config.Hyperlinks
	// LedgerDir holds the persistent request ledger: $XDG_STATE_HOME/parley/ledger or the
	// platform's equivalent; "" when no state directory can be found (counts stay in
	// memory).
	LedgerDir string
	// StateFile keeps what the TUI restores at start-up (the last screen, saved view and
	// analytics query): <state dir>/state.json; "" without a state directory.
	StateFile string
	// Views are the config file's saved views.
	Views []config.View

	// Serve is the config file's serve: section (the settings of `parley serve`).
	Serve config.Serve

	// ConfigPath is the config file in use ("" when no path could be determined, e.g.
	// without HOME); ConfigExists says whether it exists.
	ConfigPath   string
	ConfigExists bool

	// Demo is true when parley uses the embedded sandbox: with --demo, or when neither a
	// base URL nor PARLEY_TOKEN is configured. DemoReason says which.
	Demo       bool
	DemoReason string

	// Profile is the credentials profile of BaseURL and OrganizationID.
	Profile credentials.Profile
	// Credentials is the run's token store (shared: it remembers a keyring timeout).
	Credentials *credentials.Store

	// Version is parley's version (set by the build, not configured), for the User-Agent
	// and the --debug log.
	Version string
}

// AlertSettings are the alerts of arrivals: the terminal bell, the terminal's title with
// the counts, desktop notifications through the terminal (config.NotifyOff, NotifyOSC9 or
// NotifyOSC777) and how long the mute key silences the bell and the notifications.
type AlertSettings struct {
	Bell, Title bool
	Notify      string
	Mute        time.Duration
}

// Origins say where a setting's value came from: "--base-url", "PARLEY_BASE_URL",
// "config file", or "" when it is not set.
type Origins struct {
	BaseURL, Organization, Operator string
}

// Token finds the API token for the profile: PARLEY_TOKEN, then the OS keyring, then the
// credentials file. It may block for a few seconds on a slow keyring (each keyring call is
// bounded by 3 s and a timeout turns the keyring off for the run), so the TUI must call it
// inside a tea.Cmd, never in Update or View; CLI commands call it directly. The error
// matches credentials.ErrNoToken when no store has a token, and never contains one.
// The returned Token prints as its mask; Reveal gives the value for the client.
func (s Settings) Token(ctx context.Context) (credentials.Token, error) {
	if s.Credentials == nil {
		return credentials.Token{}, errors.New("no credentials store")
	}
	return s.Credentials.Lookup(ctx, s.Profile)
}

// resolveSettings computes the run's Settings from the global flags, the environment
// (env, usually os.Getenv) and the config file. It does no network or keyring I/O. An
// invalid value anywhere, a config file with problems (each reported with its line) or a
// --config/PARLEY_CONFIG file that does not exist is an error.
func resolveSettings(ctx context.Context, g *globalFlags, env func(string) string) (Settings, error) {
	return resolveSettingsOpts(ctx, g, env, false)
}

// resolveSettingsOpts is resolveSettings; with allowMissing a named config file that does
// not exist yet is accepted (auth login and config init create it).
func resolveSettingsOpts(_ context.Context, g *globalFlags, env func(string) string, allowMissing bool) (Settings, error) {
	s := Settings{Version: g.version}

	// The config file: --config, else PARLEY_CONFIG, else the default location.
	explicit := g.configPath != "" || env(envConfig) != ""
	path, err := configPath(g, env)
	if err != nil {
		path = "" // no location (no HOME): run without a config file
	}
	var cfg config.Config
	if path != "" {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		cfg, err = config.Load(path)
		if err != nil {
			return s, err
		}
		if explicit && !cfg.Exists && !allowMissing {
			return s, fmt.Errorf("config file %s does not exist (create it with \"parley config init\")", path)
		}
	}
	s.ConfigPath, s.ConfigExists = path, cfg.Exists

	// Base URL, organization and operator: flag → env → file.
	raw, from := pick(g.baseURL, "--base-url", env(envBaseURL), envBaseURL, cfg.BaseURL)
	if raw != "" {
		u, err := config.NormalizeBaseURL(raw)
		if err != nil {
			return s, fmt.Errorf("%s: %w", from, err)
		}
		s.BaseURL = u
	}
	s.From.BaseURL = from

	if s.OrganizationID, s.From.Organization, err = pickID(g.org, "--org", env(envOrg), envOrg, cfg.OrganizationID); err != nil {
		return s, err
	}
	if s.OperatorID, s.From.Operator, err = pickID(g.operator, "--operator", env(envOperator), envOperator, cfg.OperatorID); err != nil {
		return s, err
	}

	// File-only settings, with defaults.
	s.Theme = cmp.Or(cfg.Theme, config.DefaultTheme)
	s.Keys, s.KeyLines = cfg.Keys, cfg.KeyLines
	s.Serve = cfg.Serve
	s.Views = cfg.Views
	s.RefreshInterval = config.DefaultRefreshInterval
	if cfg.RefreshInterval != nil {
		s.RefreshInterval = *cfg.RefreshInterval
	}
	s.PageSize = cmp.Or(cfg.PageSize, config.DefaultPageSize)
	s.TeamSize = cmp.Or(cfg.TeamSize, config.DefaultTeamSize)
	s.RequestBudget = cmp.Or(cfg.RequestBudget, config.RequestBudgetFor(s.TeamSize))
	s.ShiftEnd = cfg.ShiftEnd

	// The request timeout: env → file → default.
	s.RequestTimeout = cmp.Or(cfg.RequestTimeout, config.DefaultRequestTimeout)
	if err := fromEnv(env, envTimeout, &s.RequestTimeout, config.ParseRequestTimeout); err != nil {
		return s, err
	}

	// Read-only: flag → file.
	if cfg.ReadOnly != nil {
		s.ReadOnly = *cfg.ReadOnly
	}
	if g.readOnly.given {
		s.ReadOnly = g.readOnly.value
	}

	// Mouse: flag → env → file.
	if cfg.Mouse != nil {
		s.Mouse = *cfg.Mouse
	}
	if err := fromEnv(env, envMouse, &s.Mouse, parseEnvBool); err != nil {
		return s, err
	}
	if g.mouse.given {
		s.Mouse = g.mouse.value
	}

	// Marking read on open and the alerts: flag → file → default.
	s.MarkReadOnOpen = true
	if cfg.MarkReadOnOpen != nil {
		s.MarkReadOnOpen = *cfg.MarkReadOnOpen
	}
	if g.markRead.given {
		s.MarkReadOnOpen = g.markRead.value
	}
	if s.Alerts, err = alertSettings(cfg.Alerts, g); err != nil {
		return s, err
	}

	// Hyperlinks: env → file.
	s.Hyperlinks = cmp.Or(cfg.Hyperlinks, config.HyperlinksAuto)
	if err := fromEnv(env, envHyperlinks, &s.Hyperlinks, config.ParseHyperlinks); err != nil {
		return s, err
	}

	// The request ledger.
	if dir, err := ledger.DefaultDir(env); err == nil {
		s.LedgerDir = dir
	}
	if dir, err := stateDir(env); err == nil {
		s.StateFile = filepath.Join(dir, stateFileName)
	}

	// Credentials.
	s.Profile = credentials.Profile{BaseURL: s.BaseURL}
	if s.OrganizationID != 0 {
		s.Profile.OrganizationID = strconv.FormatInt(s.OrganizationID, 10)
	}
	credPath := ""
	if dir, err := config.Dir(env); err == nil {
		credPath = filepath.Join(dir, "credentials")
	}
	s.Credentials = credentials.New(credentials.Options{Env: env, FilePath: credPath})

	// Demo mode.
	envToken := strings.TrimSpace(env(credentials.EnvToken)) != ""
	switch {
	case g.demo:
		s.Demo, s.DemoReason = true, "--demo"
	case s.BaseURL == "" && !envToken:
		s.Demo, s.DemoReason = true, "no base URL and no token configured"
	case s.BaseURL == "":
		return s, fmt.Errorf("%s is set but no base URL is configured: pass --base-url, set %s or base_url in %s (or use --demo)",
			credentials.EnvToken, envBaseURL, displayPath(s.ConfigPath))
	}
	return s, nil
}

// fromEnv sets *dst to what parse reads from the environment variable name, when it is
// set; an error names the variable.
func fromEnv[T any](env func(string) string, name string, dst *T, parse func(string) (T, error)) error {
	v := strings.TrimSpace(env(name))
	if v == "" {
		return nil
	}
	x, err := parse(v)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	*dst = x
	return nil
}

// parseEnvBool reads a yes/no environment variable as strconv.ParseBool does.
func parseEnvBool(v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", v)
	}
	return b, nil
}

// pick returns the first non-empty of flag, env and file, and names its origin.
func pick(flag, flagName, envVal, envName, file string) (string, string) {
	switch {
	case strings.TrimSpace(flag) != "":
		return strings.TrimSpace(flag), flagName
	case strings.TrimSpace(envVal) != "":
		return strings.TrimSpace(envVal), envName
	case file != "":
		return file, "config file"
	}
	return "", ""
}

func pickID(flag, flagName, envVal, envName, file string) (int64, string, error) {
	v, from := pick(flag, flagName, envVal, envName, file)
	if v == "" {
		return 0, "", nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		// The value is not repeated: it might be a token pasted into the wrong place.
		return 0, from, fmt.Errorf("%s: not a positive integer id", from)
	}
	return id, from, nil
}

func displayPath(p string) string {
	if p == "" {
		return "the config file"
	}
	return p
}

// alertSettings are the alerts of the flags, else of the config file's section, else the
// defaults.
func alertSettings(file config.Alerts, g *globalFlags) (AlertSettings, error) {
	a := AlertSettings{Bell: true, Title: true, Notify: config.NotifyOff, Mute: config.DefaultMute}
	if file.Bell != nil {
		a.Bell = *file.Bell
	}
	if file.Title != nil {
		a.Title = *file.Title
	}
	if file.Notify != "" {
		a.Notify = file.Notify
	}
	if file.Mute != 0 {
		a.Mute = file.Mute
	}
	if g.bell.given {
		a.Bell = g.bell.value
	}
	if g.title.given {
		a.Title = g.title.value
	}
	if g.notify != "" {
		w, err := config.ParseNotify(g.notify)
		if err != nil {
			return a, fmt.Errorf("--notify: %w", err)
		}
		a.Notify = w
	}
	return a, nil
}
