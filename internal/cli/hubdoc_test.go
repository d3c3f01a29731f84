package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/ledger"
)

// unitFile is a systemd unit: section → key → its values in order (a key such as
// Environment may be given more than once).
type unitFile map[string]map[string][]string

// one is the single value of key in section ("" when it is not set).
func (u unitFile) one(t *testing.T, section, key string) string {
	t.Helper()
	v := u[section][key]
	if len(v) > 1 {
		t.Errorf("[%s] %s is set %d times", section, key, len(v))
	}
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

var unitKey = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// parseUnit reads a unit file as systemd does: [Section] headers, Key=Value lines, # and ;
// comments, a trailing backslash continuing a line. Anything else is an error.
func parseUnit(text string) (unitFile, error) {
	u := unitFile{}
	section := ""
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		n := i + 1
		line := strings.TrimSpace(lines[i])
		for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
			i++
			line = strings.TrimSpace(strings.TrimSuffix(line, `\`)) + " " + strings.TrimSpace(lines[i])
		}
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[':
			name, ok := strings.CutSuffix(line[1:], "]")
			if !ok || !slices.Contains([]string{"Unit", "Service", "Install"}, name) {
				return nil, fmt.Errorf("line %d: %q is not a section of a service unit", n, line)
			}
			if _, dup := u[name]; dup {
				return nil, fmt.Errorf("line %d: [%s] twice", n, name)
			}
			section, u[name] = name, map[string][]string{}
		default:
			key, value, ok := strings.Cut(line, "=")
			key, value = strings.TrimSpace(key), strings.TrimSpace(value)
			switch {
			case !ok || !unitKey.MatchString(key):
				return nil, fmt.Errorf("line %d: %q is not Key=Value", n, line)
			case section == "":
				return nil, fmt.Errorf("line %d: %s before the first section", n, key)
			}
			u[section][key] = append(u[section][key], value)
		}
	}
	return u, nil
}

// hubDoc is docs/hub.md.
func hubDoc(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "hub.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// hubUnit is the unit of docs/hub.md: its ini block that starts with [Unit].
func hubUnit(t *testing.T, doc string) unitFile {
	t.Helper()
	m := regexp.MustCompile("(?s)```ini\n(\\[Unit\\].*?)```").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/hub.md has no ```ini block starting with [Unit]")
	}
	u, err := parseUnit(m[1])
	if err != nil {
		t.Fatalf("docs/hub.md's unit: %v", err)
	}
	return u
}

// The systemd unit of docs/hub.md is a valid service unit that runs `parley serve` with
// flags the command takes, restarts it on failure as a user of its own, and puts every
// file the hub reads and writes where the page's table says, in directories systemd makes
// for it.
func TestHubDocUnit(t *testing.T) {
	doc := hubDoc(t)
	u := hubUnit(t, doc)
	for _, k := range [][2]string{{"Unit", "Description"}, {"Service", "ExecStart"}, {"Service", "User"}, {"Service", "Restart"},
		{"Service", "StateDirectory"}, {"Service", "ConfigurationDirectory"}, {"Service", "CacheDirectory"}, {"Install", "WantedBy"}} {
		if u.one(t, k[0], k[1]) == "" {
			t.Errorf("[%s] %s is not set", k[0], k[1])
		}
	}
	if r := u.one(t, "Service", "Restart"); r != "on-failure" {
		t.Errorf("Restart=%s, want on-failure", r)
	}
	if user := u.one(t, "Service", "User"); user == "root" || user == "0" {
		t.Errorf("User=%s: the hub needs a user of its own", user)
	}
	if typ := u.one(t, "Service", "Type"); typ != "" && typ != "simple" && typ != "exec" {
		t.Errorf("Type=%s: parley serve runs in the foreground and does not notify", typ)
	}
	if r := u.one(t, "Service", "ExecReload"); !strings.Contains(r, "-HUP $MAINPID") {
		t.Errorf("ExecReload=%s: a reload is SIGHUP (the users file read again)", r)
	}

	// ExecStart: the binary by its absolute path, `serve`, and flags the command takes.
	args := strings.Fields(u.one(t, "Service", "ExecStart"))
	if len(args) < 2 || !filepath.IsAbs(args[0]) || filepath.Base(args[0]) != "parley" || args[1] != "serve" {
		t.Fatalf("ExecStart=%q does not run /…/parley serve", strings.Join(args, " "))
	}
	var f serveFlags
	fl := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	addServeFlags(fl, &f)
	if err := fl.Parse(args[2:]); err != nil {
		t.Fatalf("ExecStart's flags: %v", err)
	}
	if rest := fl.Args(); len(rest) > 0 {
		t.Fatalf("ExecStart passes arguments %q; parley serve takes none", rest)
	}

	// The environment: where the hub's files go.
	vars := map[string]string{}
	for _, kv := range u["Service"]["Environment"] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			t.Fatalf("Environment=%s is not NAME=value", kv)
		}
		vars[k] = v
	}
	env := mapEnv(vars)
	ss, err := resolveServe(f, fl.Changed, Settings{}, env)
	if err != nil {
		t.Fatalf("the unit's settings: %v", err)
	}
	cfgDir, err := config.Dir(env)
	if err != nil {
		t.Fatal(err)
	}
	ledgerDir, err := ledger.DefaultDir(env)
	if err != nil {
		t.Fatal(err)
	}
	etc := "/etc/" + u.one(t, "Service", "ConfigurationDirectory")
	state := "/var/lib/" + u.one(t, "Service", "StateDirectory")
	cache := "/var/cache/" + u.one(t, "Service", "CacheDirectory")
	for _, c := range []struct{ what, path, dir string }{
		{"the config directory", cfgDir, etc},
		{"the users file", ss.users, etc},
		{"the host key", ss.hostKey, state},
		{"the audit log", ss.auditLog, state},
		{"the request ledger", ledgerDir, state},
		{"the crash log", filepath.Join(vars["XDG_CACHE_HOME"], "parley", "crash.log"), cache},
	} {
		if c.path != c.dir && !strings.HasPrefix(c.path, c.dir+"/") {
			t.Errorf("%s is %s, outside %s that the unit makes for it", c.what, c.path, c.dir)
		}
		if c.path != c.dir && !strings.Contains(doc, "`"+c.path) {
			t.Errorf("docs/hub.md does not name %s's path %s", c.what, c.path)
		}
	}
	if home := vars["HOME"]; home != state {
		t.Errorf("HOME=%s, want the state directory %s (the hub's user has no other home)", home, state)
	}
}

// parseUnit refuses what systemd would not read as a unit.
func TestParseUnitRefusesMalformedUnits(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ExecStart=/bin/true\n", "before the first section"},
		{"[Unit]\nDescription x\n", "is not Key=Value"},
		{"[Unit]\n[Unit]\n", "[Unit] twice"},
		{"[Timer]\nOnCalendar=daily\n", "not a section of a service unit"},
		{"[Service]\nexec-start=/bin/true\n", "is not Key=Value"},
	} {
		if _, err := parseUnit(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.text, err, c.want)
		}
	}
	u, err := parseUnit("[Service]\n# a comment\nExecStart=/usr/bin/parley serve \\\n  --addr 0.0.0.0:2222\nEnvironment=A=1\nEnvironment=B=2\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := u["Service"]["ExecStart"]; len(got) != 1 || got[0] != "/usr/bin/parley serve --addr 0.0.0.0:2222" {
		t.Errorf("a continued line reads %q", got)
	}
	if got := u["Service"]["Environment"]; len(got) != 2 {
		t.Errorf("a repeated key reads %q", got)
	}
}
