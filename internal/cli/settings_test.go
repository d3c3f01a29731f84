package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/credentials"
	"github.com/parley-tui/parley/internal/ledger"
)

func mapEnv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// writeTestConfig writes a config file under a fresh XDG_CONFIG_HOME and returns the env.
func writeTestConfig(t *testing.T, content string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if content != "" {
		if err := os.MkdirAll(filepath.Join(dir, "parley"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "parley", "config.yaml"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{"XDG_CONFIG_HOME": dir, "HOME": t.TempDir()}
}

// TestTeamSizeSetsTheDefaultBudget: without request_budget each person's budget is their
// share of the API's 5000 a day in a team of team_size; request_budget, when set, wins.
func TestTeamSizeSetsTheDefaultBudget(t *testing.T) {
	for _, c := range []struct {
		file       string
		team, want int
	}{
		{"", 10, 500},
		{"team_size: 20\n", 20, 250},
		{"team_size: 1\n", 1, 5000},
		{"team_size: 3\n", 3, 1666},
		{"team_size: 20\nrequest_budget: 300\n", 20, 300},
	} {
		s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(writeTestConfig(t, c.file)))
		if err != nil {
			t.Fatal(err)
		}
		if s.TeamSize != c.team || s.RequestBudget != c.want {
			t.Errorf("%q: team %d, budget %d; want %d, %d", c.file, s.TeamSize, s.RequestBudget, c.team, c.want)
		}
	}
	for _, bad := range []string{"team_size: 0\n", "team_size: 5001\n", "team_size: ten\n"} {
		if _, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(writeTestConfig(t, bad))); err == nil ||
			!strings.Contains(err.Error(), "team_size") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

// The config file's shift_end reaches the TUI's settings (none without it).
func TestShiftEndFromTheConfigFile(t *testing.T) {
	for file, want := range map[string]time.Duration{"": 0, "shift_end: \"17:30\"\n": 17*time.Hour + 30*time.Minute} {
		s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(writeTestConfig(t, file)))
		if err != nil {
			t.Fatal(err)
		}
		if s.ShiftEnd != want {
			t.Errorf("%q: shift end %s, want %s", file, s.ShiftEnd, want)
		}
	}
}

func TestSettingsDefaultsAndDemo(t *testing.T) {
	env := writeTestConfig(t, "")
	s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Demo || s.DemoReason != "no base URL and no token configured" {
		t.Errorf("demo %v %q", s.Demo, s.DemoReason)
	}
	if s.Theme != config.ThemeAuto || s.RefreshInterval != 30*time.Second || s.PageSize != 100 || s.TeamSize != 10 || s.RequestBudget != 500 {
		t.Errorf("defaults: %+v", s)
	}
	if s.ConfigPath != filepath.Join(env["XDG_CONFIG_HOME"], "parley", "config.yaml") || s.ConfigExists {
		t.Errorf("config path %q exists %v", s.ConfigPath, s.ConfigExists)
	}
	if s.Credentials == nil || s.Credentials.FilePath() != filepath.Join(env["XDG_CONFIG_HOME"], "parley", "credentials") {
		t.Errorf("credentials file %q", s.Credentials.FilePath())
	}
}

func TestSettingsPrecedence(t *testing.T) {
	file := `base_url: https://file.example.com
organization_id: 1
operator_id: 2
theme: light
refresh_interval: 0
page_size: 25
request_budget: 1000
keys:
  quit: [x]
`
	ctx := context.Background()

	// File only.
	env := writeTestConfig(t, file)
	s, err := resolveSettings(ctx, &globalFlags{}, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL != "https://file.example.com" || s.OrganizationID != 1 || s.OperatorID != 2 || s.Demo {
		t.Errorf("file: %+v", s)
	}
	if s.From != (Origins{"config file", "config file", "config file"}) {
		t.Errorf("origins %+v", s.From)
	}
	if s.Theme != config.ThemeLight || s.RefreshInterval != 0 || s.PageSize != 25 || s.RequestBudget != 1000 {
		t.Errorf("file values: %+v", s)
	}
	if len(s.Keys["quit"]) != 1 || s.KeyLines["quit"] != 9 {
		t.Errorf("keys %v lines %v", s.Keys, s.KeyLines)
	}
	if s.Profile.Key() != "https://file.example.com#org=1" {
		t.Errorf("profile %q", s.Profile.Key())
	}

	// Env over file.
	env[envBaseURL] = "https://env.example.com/"
	env[envOrg] = "10"
	env[envOperator] = "20"
	s, err = resolveSettings(ctx, &globalFlags{}, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL != "https://env.example.com" || s.OrganizationID != 10 || s.OperatorID != 20 {
		t.Errorf("env: %+v", s)
	}
	if s.From != (Origins{envBaseURL, envOrg, envOperator}) {
		t.Errorf("origins %+v", s.From)
	}

	// Flags over env.
	g := &globalFlags{baseURL: "https://flag.example.com", org: "100", operator: "200"}
	s, err = resolveSettings(ctx, g, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL != "https://flag.example.com" || s.OrganizationID != 100 || s.OperatorID != 200 {
		t.Errorf("flags: %+v", s)
	}
	if s.From != (Origins{"--base-url", "--org", "--operator"}) {
		t.Errorf("origins %+v", s.From)
	}

	// --demo wins over a configured API.
	g.demo = true
	s, err = resolveSettings(ctx, g, mapEnv(env))
	if err != nil || !s.Demo || s.DemoReason != "--demo" {
		t.Errorf("demo: %v %v %q", err, s.Demo, s.DemoReason)
	}
}

func TestSettingsConfigPathFlagAndEnv(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.yaml")
	b := filepath.Join(dir, "b.yaml")
	os.WriteFile(a, []byte("theme: dark\n"), 0o644)
	os.WriteFile(b, []byte("theme: mono\n"), 0o644)
	env := map[string]string{"HOME": dir, envConfig: b}
	s, err := resolveSettings(ctx, &globalFlags{}, mapEnv(env))
	if err != nil || s.Theme != config.ThemeMono || s.ConfigPath != b {
		t.Fatalf("env: %v %q %q", err, s.Theme, s.ConfigPath)
	}
	s, err = resolveSettings(ctx, &globalFlags{configPath: a}, mapEnv(env))
	if err != nil || s.Theme != config.ThemeDark || s.ConfigPath != a {
		t.Fatalf("flag: %v %q %q", err, s.Theme, s.ConfigPath)
	}
	_, err = resolveSettings(ctx, &globalFlags{configPath: filepath.Join(dir, "missing.yaml")}, mapEnv(env))
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing explicit file: %v", err)
	}
	s, err = resolveSettingsOpts(ctx, &globalFlags{configPath: filepath.Join(dir, "missing.yaml")}, mapEnv(env), true)
	if err != nil || s.ConfigExists {
		t.Fatalf("missing file allowed: %v", err)
	}
}

func TestSettingsErrors(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		file string
		g    globalFlags
		env  map[string]string
		want string
	}{
		{"bad flag url", "", globalFlags{baseURL: "ftp://x"}, nil, "--base-url: "},
		{"bad env org", "", globalFlags{}, map[string]string{envOrg: "abc"}, `PARLEY_ORG_ID: not a positive integer id`},
		{"bad flag operator", "", globalFlags{operator: "-3"}, nil, "--operator: "},
		{"file problem", "base_url: https://x.example.com\nthme: dark\n", globalFlags{}, nil, "config.yaml:2: unknown key \"thme\""},
		{"token without base", "", globalFlags{}, map[string]string{credentials.EnvToken: "tok-SECRET-0123456789abcdef"}, "PARLEY_TOKEN is set but no base URL"},
	}
	for _, c := range cases {
		env := writeTestConfig(t, c.file)
		for k, v := range c.env {
			env[k] = v
		}
		_, err := resolveSettings(ctx, &c.g, mapEnv(env))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "tok-SECRET") {
			t.Errorf("%s: error contains the token", c.name)
		}
	}
}

func TestSettingsTokenFromEnv(t *testing.T) {
	env := writeTestConfig(t, "base_url: https://api.example.com\n")
	env[credentials.EnvToken] = "tok-SECRET-0123456789abcdef"
	s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
	if err != nil || s.Demo {
		t.Fatalf("%v demo=%v", err, s.Demo)
	}
	tok, err := s.Token(context.Background())
	if err != nil || tok.Source != credentials.SourceEnv || tok.Reveal() != env[credentials.EnvToken] {
		t.Fatalf("token %v %v", tok, err)
	}
	// Nothing configured but the environment token and --demo.
	delete(env, credentials.EnvToken)
	env["DBUS_SESSION_BUS_ADDRESS"] = "" // no keyring here
	s, _ = resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
	if _, err := s.Token(context.Background()); !errors.Is(err, credentials.ErrNoToken) {
		t.Fatalf("want ErrNoToken, got %v", err)
	}
}

// TestSettingsLedgerDir: the request ledger lives in $XDG_STATE_HOME/parley/ledger, else
// under HOME (the platform's state directory); with neither there is none.
func TestSettingsLedgerDir(t *testing.T) {
	env := writeTestConfig(t, "")
	env["XDG_STATE_HOME"] = t.TempDir()
	s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(env["XDG_STATE_HOME"], "parley", "ledger"); s.LedgerDir != want {
		t.Errorf("with XDG_STATE_HOME: %q, want %q", s.LedgerDir, want)
	}
	delete(env, "XDG_STATE_HOME")
	s, err = resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := ledger.DefaultDir(mapEnv(env)); s.LedgerDir != want || !strings.HasPrefix(want, env["HOME"]) {
		t.Errorf("without XDG_STATE_HOME: %q, want %q under HOME", s.LedgerDir, want)
	}
	s, err = resolveSettings(context.Background(), &globalFlags{}, mapEnv(map[string]string{}))
	if err != nil || s.LedgerDir != "" {
		t.Errorf("no HOME: %q %v", s.LedgerDir, err)
	}
}

// TestReadOnlyFlagOverTheFile: the root command's --readonly (alone it means true) wins
// over readonly in the config file, --readonly=false included; without the flag the file
// decides, and without either parley is not read-only. --read-only and read_only, the
// earlier spellings, do the same; the old flag is hidden from the help.
func TestReadOnlyFlagOverTheFile(t *testing.T) {
	for _, spell := range []struct{ flag, key string }{{"--readonly", "readonly"}, {"--read-only", "read_only"}, {"--readonly", "read_only"}, {"--read-only", "readonly"}} {
		for _, c := range []struct {
			args []string
			file string
			want bool
		}{
			{nil, "", false},
			{nil, spell.key + ": true\n", true},
			{nil, spell.key + ": false\n", false},
			{[]string{spell.flag}, "", true},
			{[]string{spell.flag}, spell.key + ": false\n", true},
			{[]string{spell.flag + "=false"}, spell.key + ": true\n", false},
			{[]string{spell.flag + "=true"}, "theme: dark\n", true},
		} {
			root := newRootCmd("test")
			if err := root.ParseFlags(c.args); err != nil {
				t.Fatalf("%q: %v", c.args, err)
			}
			flag := root.Flags().Lookup("readonly")
			if flag == nil {
				t.Fatal("the root command has no --readonly")
			}
			g := &globalFlags{readOnly: *flag.Value.(*optBool)}
			s, err := resolveSettings(context.Background(), g, mapEnv(writeTestConfig(t, c.file)))
			if err != nil {
				t.Fatalf("%q %q: %v", c.args, c.file, err)
			}
			if s.ReadOnly != c.want {
				t.Errorf("%q with %q: read-only %v, want %v", c.args, c.file, s.ReadOnly, c.want)
			}
		}
		if err := newRootCmd("test").ParseFlags([]string{spell.flag + "=maybe"}); err == nil {
			t.Errorf("%s=maybe was taken", spell.flag)
		}
		if _, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(writeTestConfig(t, spell.key+": maybe\n"))); err == nil ||
			!strings.Contains(err.Error(), spell.key+`: "maybe" is not true or false`) {
			t.Errorf("%s: maybe: %v", spell.key, err)
		}
	}
	var help bytes.Buffer
	root := newRootCmd("test")
	root.SetOut(&help)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(help.String(), "--readonly") || strings.Contains(help.String(), "--read-only") {
		t.Errorf("the help shows --readonly and hides --read-only:\n%s", help.String())
	}
}

// TestMouseFlagEnvFile: the mouse is off unless asked for; --mouse (alone it means true)
// wins over PARLEY_MOUSE, which wins over mouse in the config file; a bad value anywhere is
// refused.
func TestMouseFlagEnvFile(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  string
		file string
		want bool
	}{
		{nil, "", "", false},
		{nil, "", "mouse: true\n", true},
		{nil, "0", "mouse: true\n", false},
		{nil, "true", "mouse: false\n", true},
		{[]string{"--mouse"}, "false", "mouse: false\n", true},
		{[]string{"--mouse=false"}, "1", "mouse: true\n", false},
	} {
		root := newRootCmd("test")
		if err := root.ParseFlags(c.args); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		flag := root.Flags().Lookup("mouse")
		if flag == nil {
			t.Fatal("the root command has no --mouse")
		}
		g := &globalFlags{mouse: *flag.Value.(*optBool)}
		env := writeTestConfig(t, c.file)
		env[envMouse] = c.env
		s, err := resolveSettings(context.Background(), g, mapEnv(env))
		if err != nil {
			t.Fatalf("%q %q %q: %v", c.args, c.env, c.file, err)
		}
		if s.Mouse != c.want {
			t.Errorf("%q, PARLEY_MOUSE=%q, %q: mouse %v, want %v", c.args, c.env, c.file, s.Mouse, c.want)
		}
	}
	if err := newRootCmd("test").ParseFlags([]string{"--mouse=sometimes"}); err == nil {
		t.Error("--mouse=sometimes was taken")
	}
	env := writeTestConfig(t, "")
	env[envMouse] = "sometimes"
	if _, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env)); err == nil ||
		!strings.Contains(err.Error(), `PARLEY_MOUSE: "sometimes" is not true or false`) {
		t.Errorf("PARLEY_MOUSE=sometimes: %v", err)
	}
}
