package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/zalando/go-keyring"

	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/credentials"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

const authTestToken = "tok-SECRET-0123456789abcdef"

// fakeAuthAPI answers the two requests auth makes: the operators list and an analytics metric.
type fakeAuthAPI struct {
	token string
	orgs  []int64 // organizations in the analytics answer

	mu       sync.Mutex
	requests []*http.Request
}

func (f *fakeAuthAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, r.Clone(context.Background()))
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != f.token {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"detail": "Invalid token."}`))
		return
	}
	switch {
	case r.Header.Get("Service-Operator-Id") == "999":
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"detail": "Unknown operator 999."}`))
	case strings.HasPrefix(r.URL.Path, "/api/um/v3/operators/"):
		w.Write([]byte(`{"count": 1, "next": null, "previous": null, "results": [{"id": 1, "name": "Owner"}]}`))
	case strings.HasPrefix(r.URL.Path, "/api/um/v1/analytics/"):
		var pts []map[string]any
		for _, o := range f.orgs {
			pts = append(pts, map[string]any{"organization_id": o, "time": "2026-01-02T03:04:05", "um_widget_id": []int{1}})
		}
		json.NewEncoder(w).Encode(map[string]any{"results": pts})
	default:
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"detail": "Not found."}`))
	}
}

func (f *fakeAuthAPI) seen() []*http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*http.Request(nil), f.requests...)
}

func newFakeAuthAPI(t *testing.T, orgs ...int64) (*fakeAuthAPI, *httptest.Server) {
	t.Helper()
	f := &fakeAuthAPI{token: authTestToken, orgs: orgs}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

// runAuth runs "parley <args>" in process with the auth and config commands, env and
// stdin, returning stdout, stderr and the error.
func runAuth(t *testing.T, env map[string]string, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var g globalFlags
	root := &cobra.Command{Use: "parley", SilenceUsage: true, SilenceErrors: true}
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.StringVar(&g.baseURL, "base-url", "", "")
	pf.StringVar(&g.org, "org", "", "")
	pf.StringVar(&g.operator, "operator", "", "")
	pf.BoolVar(&g.demo, "demo", false, "")
	pf.StringVar(&g.configPath, "config", "", "")
	pf.StringVar(&g.debug, "debug", "", "")
	d := authDeps{env: mapEnv(env), now: time.Now}
	root.AddCommand(newAuthCmdWith(&g, d), newConfigCmdWith(&g, mapEnv(env)))
	var out, errOut bytes.Buffer
	root.SetArgs(args)
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errOut)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := root.ExecuteContext(ctx)
	if strings.Contains(out.String()+errOut.String(), authTestToken) || (err != nil && strings.Contains(err.Error(), authTestToken)) {
		t.Fatalf("parley %v: the token appears in the output:\n%s\n%s\n%v", args, out.String(), errOut.String(), err)
	}
	return out.String(), errOut.String(), err
}

// mockKeyringEnv returns an env with a fresh config dir and a (fake) D-Bus address, on
// go-keyring's mock provider.
func mockKeyringEnv(t *testing.T) map[string]string {
	t.Helper()
	keyring.MockInit()
	env := writeTestConfig(t, "")
	env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
	return env
}

func TestAuthLoginStatusLogoutWithKeyring(t *testing.T) {
	env := mockKeyringEnv(t)
	api, srv := newFakeAuthAPI(t, 1, 2)

	_, stderr, err := runAuth(t, env, authTestToken+"\n", "auth", "login", "--with-token", "--base-url", srv.URL+"/", "--org", "7")
	if err != nil {
		t.Fatalf("login: %v\n%s", err, stderr)
	}
	for _, want := range []string{
		"Logged in to " + srv.URL,
		"****cdef (customer token: data of 2 organizations) stored in the OS keyring",
		"config.yaml: set base_url and organization_id",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("login output lacks %q:\n%s", want, stderr)
		}
	}
	v, err := keyring.Get(credentials.Service, srv.URL+"#org=7")
	if err != nil || v != authTestToken {
		t.Fatalf("keyring entry: %v", err)
	}
	reqs := api.seen()
	if len(reqs) != 2 || reqs[0].URL.Query().Get("limit") != "1" || reqs[0].Header.Get("Service-Organization-Id") != "7" {
		t.Fatalf("verification requests: %v", reqs)
	}
	if reqs[1].Header.Get("Service-Organization-Id") != "" {
		t.Error("the token-kind probe must not select an organization")
	}
	// The base URL and organization were recorded: no flags needed from now on.
	cfg, err := config.Load(filepath.Join(env["XDG_CONFIG_HOME"], "parley", "config.yaml"))
	if err != nil || cfg.BaseURL != srv.URL || cfg.OrganizationID != "7" {
		t.Fatalf("config: %+v %v", cfg, err)
	}

	stdout, _, err := runAuth(t, env, "", "auth", "status")
	if err != nil {
		t.Fatalf("status: %v\n%s", err, stdout)
	}
	for _, want := range []string{
		"API:          " + srv.URL + " (from config file)",
		"Organization: 7 (from config file)",
		"Operator:     not set",
		"Token:        ****cdef from the OS keyring (service parley), profile " + srv.URL + "#org=7",
		"Works:        yes",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("status lacks %q:\n%s", want, stdout)
		}
	}

	_, stderr, err = runAuth(t, env, "", "auth", "logout")
	if err != nil || !strings.Contains(stderr, "Removed the token for "+srv.URL+"#org=7 from the OS keyring.") {
		t.Fatalf("logout: %v\n%s", err, stderr)
	}
	if _, err := keyring.Get(credentials.Service, srv.URL+"#org=7"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("still in the keyring: %v", err)
	}
	stdout, _, err = runAuth(t, env, "", "auth", "status")
	if err == nil || !strings.Contains(err.Error(), "not logged in") || !strings.Contains(stdout, "Token:        none") {
		t.Fatalf("status after logout: %v\n%s", err, stdout)
	}
}

func TestAuthLoginRejectedTokenStoresNothing(t *testing.T) {
	env := mockKeyringEnv(t)
	_, srv := newFakeAuthAPI(t)
	_, _, err := runAuth(t, env, "tok-WRONG-0123456789abcdef", "auth", "login", "--with-token", "--base-url", srv.URL)
	if err == nil || !strings.Contains(err.Error(), "token rejected by "+srv.URL+": Invalid token. (HTTP 401); nothing was stored") {
		t.Fatalf("got %v", err)
	}
	if _, err := keyring.Get(credentials.Service, srv.URL); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatal("a rejected token was stored")
	}
	if _, err := os.Stat(filepath.Join(env["XDG_CONFIG_HOME"], "parley", "config.yaml")); err == nil {
		t.Fatal("a rejected login wrote the config file")
	}
}

func TestAuthLoginKindOrganization(t *testing.T) {
	env := mockKeyringEnv(t)
	_, srv := newFakeAuthAPI(t, 4)
	_, stderr, err := runAuth(t, env, authTestToken, "auth", "login", "--with-token", "--base-url", srv.URL)
	if err != nil || !strings.Contains(stderr, "(organization token, or a customer token with one organization)") {
		t.Fatalf("%v\n%s", err, stderr)
	}
	_, srv2 := newFakeAuthAPI(t)
	_, stderr, err = runAuth(t, env, authTestToken, "auth", "login", "--with-token", "--base-url", srv2.URL)
	if err != nil || !strings.Contains(stderr, "(kind unknown: no analytics data in the last 7 days)") {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// The second login switched the recorded base URL.
	cfg, _ := config.Load(filepath.Join(env["XDG_CONFIG_HOME"], "parley", "config.yaml"))
	if cfg.BaseURL != srv2.URL {
		t.Fatalf("recorded %q", cfg.BaseURL)
	}
}

func TestAuthLoginWithoutKeyring(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided"))
	env := writeTestConfig(t, "")
	env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
	_, srv := newFakeAuthAPI(t, 1)

	_, _, err := runAuth(t, env, authTestToken, "auth", "login", "--with-token", "--base-url", srv.URL)
	credPath := filepath.Join(env["XDG_CONFIG_HOME"], "parley", "credentials")
	for _, want := range []string{"OS keyring unavailable", "set PARLEY_TOKEN", "--insecure-storage", credPath} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error lacks %q: %v", want, err)
		}
	}

	_, stderr, err := runAuth(t, env, authTestToken, "auth", "login", "--with-token", "--base-url", srv.URL, "--insecure-storage")
	if err != nil || !strings.Contains(stderr, "stored in the file "+credPath) {
		t.Fatalf("insecure login: %v\n%s", err, stderr)
	}
	fi, err := os.Stat(credPath)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", fi, err)
	}
	stdout, _, err := runAuth(t, env, "", "auth", "status")
	if err != nil || !strings.Contains(stdout, "****cdef from the file "+credPath) || !strings.Contains(stdout, "Keyring:") {
		t.Fatalf("status: %v\n%s", err, stdout)
	}
	_, stderr, err = runAuth(t, env, "", "auth", "logout")
	if err != nil || !strings.Contains(stderr, "from "+credPath) || !strings.Contains(stderr, "The OS keyring was not checked") {
		t.Fatalf("logout: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(credPath); !os.IsNotExist(err) {
		t.Fatal("logout left the credentials file")
	}
	// Logging out again: the keyring was not searched, so parley does not claim it holds
	// nothing.
	_, stderr, err = runAuth(t, env, "", "auth", "logout")
	if err != nil || !strings.Contains(stderr, "No token for "+srv.URL+" in "+credPath+".") || strings.Contains(stderr, "No stored token") ||
		strings.Contains(stderr, "not checked: OS keyring unavailable") {
		t.Fatalf("second logout: %v\n%s", err, stderr)
	}
}

// --debug FILE logs the verification requests of auth login and auth status, never the token.
func TestAuthDebugLogHasRequestsNotToken(t *testing.T) {
	env := mockKeyringEnv(t)
	_, srv := newFakeAuthAPI(t, 1)
	logPath := filepath.Join(t.TempDir(), "debug.log")
	if _, stderr, err := runAuth(t, env, authTestToken, "auth", "login", "--with-token", "--base-url", srv.URL, "--debug", logPath); err != nil {
		t.Fatalf("login: %v\n%s", err, stderr)
	}
	if stdout, _, err := runAuth(t, env, "", "auth", "status", "--debug", logPath); err != nil {
		t.Fatalf("status: %v\n%s", err, stdout)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if n := strings.Count(log, "path=/api/um/v3/operators/"); n != 2 || !strings.Contains(log, "path=/api/um/v1/analytics/") {
		t.Errorf("the log does not show login's two requests and status's one (%d operator requests):\n%s", n, log)
	}
	if strings.Contains(log, authTestToken) || strings.Contains(log, "SECRET") {
		t.Fatalf("the debug log holds the token:\n%s", log)
	}
}

func TestAuthStatusEnvTokenAndFailures(t *testing.T) {
	env := mockKeyringEnv(t)
	_, srv := newFakeAuthAPI(t)
	env[credentials.EnvToken] = authTestToken
	env[envBaseURL] = srv.URL
	stdout, _, err := runAuth(t, env, "", "auth", "status")
	if err != nil || !strings.Contains(stdout, "****cdef from the PARLEY_TOKEN environment variable") || !strings.Contains(stdout, "(from PARLEY_BASE_URL)") {
		t.Fatalf("%v\n%s", err, stdout)
	}
	env[credentials.EnvToken] = "tok-WRONG-0123456789abcdef"
	stdout, _, err = runAuth(t, env, "", "auth", "status")
	if err == nil || !strings.Contains(stdout, "Works:        no: token rejected") || strings.Contains(stdout, "tok-WRONG") {
		t.Fatalf("%v\n%s", err, stdout)
	}
	env[credentials.EnvToken] = authTestToken
	stdout, _, err = runAuth(t, env, "", "auth", "status", "--operator", "999")
	if err == nil || err.Error() != "the token could not be checked" || !strings.Contains(stdout, "(HTTP 400; check --org and --operator): Unknown operator 999.") {
		t.Fatalf("%v\n%s", err, stdout)
	}
	// No API at all: demo.
	stdout, _, err = runAuth(t, writeTestConfig(t, ""), "", "auth", "status")
	if err == nil || !strings.Contains(stdout, "embedded demo sandbox") {
		t.Fatalf("%v\n%s", err, stdout)
	}
}

func TestAuthLoginInputErrors(t *testing.T) {
	env := mockKeyringEnv(t)
	_, srv := newFakeAuthAPI(t)
	cases := []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"auth", "login", "--with-token"}, "no base URL"},
		{"", []string{"auth", "login", "--base-url", srv.URL}, "stdin is not a terminal"},
		{"", []string{"auth", "login", "--with-token", "--base-url", srv.URL}, "the token is empty"},
		{authTestToken + "\n" + authTestToken, []string{"auth", "login", "--with-token", "--base-url", srv.URL}, "paste exactly one token"},
		{authTestToken, []string{"auth", "login", "--with-token", "--base-url", srv.URL, "--org", "x"}, `--org: not a positive integer id`},
		{authTestToken, []string{"auth", "login", "--with-token", "--base-url", srv.URL, authTestToken}, "takes no arguments"},
		{authTestToken, []string{"auth", authTestToken}, "takes no arguments"},
		{authTestToken, []string{"auth", "login", "--with-token", "--base-url", authTestToken}, "--base-url: the URL must start with https://"},
		{authTestToken, []string{"auth", "login", "--with-token", "--base-url", srv.URL, "--operator", authTestToken}, "--operator: not a positive integer id"},
	}
	for _, c := range cases {
		_, _, err := runAuth(t, env, c.stdin, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
}

// A token given as the value of a flag is never repeated in the error (pflag's own
// message quotes it), and the message still says what to do.
func TestAuthLoginTokenAsFlagValue(t *testing.T) {
	env := mockKeyringEnv(t)
	api, srv := newFakeAuthAPI(t, 1)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"auth", "login", "--base-url", srv.URL, "--with-token=" + authTestToken}, "--with-token takes no value; pipe the token on stdin"},
		{[]string{"auth", "login", "--base-url", srv.URL, "--insecure-storage=" + authTestToken}, "invalid value for --insecure-storage: it takes no value, or =true or =false"},
		{[]string{"--demo=" + authTestToken, "auth", "status"}, "invalid value for --demo"},
		{[]string{"auth", "login", "--" + authTestToken + "=1"}, "unknown flag for parley auth login; what was given is not repeated"},
		{[]string{"auth", "login", "-" + authTestToken}, "unknown shorthand flag -t for parley auth login"},
		{[]string{"auth", "login", "---" + authTestToken}, "bad flag syntax for parley auth login"},
		{[]string{"auth", "login", "--tokn"}, "unknown flag --tokn for parley auth login"},
		{[]string{"auth", "login", "--base-url"}, "flag needs an argument: --base-url"},
	}
	for _, c := range cases {
		// runAuth fails the test when the token shows in stdout, stderr or the error.
		_, _, err := runAuth(t, env, authTestToken, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
	if n := len(api.seen()); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
	if _, err := keyring.Get(credentials.Service, srv.URL); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatal("a token was stored")
	}
}

func TestConfigInit(t *testing.T) {
	env := writeTestConfig(t, "")
	path := filepath.Join(env["XDG_CONFIG_HOME"], "parley", "config.yaml")
	stdout, _, err := runAuth(t, env, "", "config", "init")
	if err != nil || !strings.Contains(stdout, "Wrote "+path) {
		t.Fatalf("%v %s", err, stdout)
	}
	_, _, err = runAuth(t, env, "", "config", "init")
	if err == nil || !strings.Contains(err.Error(), "already exists (use --force") {
		t.Fatalf("second init: %v", err)
	}
	if _, _, err = runAuth(t, env, "", "config", "init", "--force"); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runAuth(t, env, "", "config", "path")
	if err != nil || strings.TrimSpace(stdout) != path {
		t.Fatalf("path: %v %q", err, stdout)
	}
	// config path checks the key bindings as start-up does, naming the line.
	if err := os.WriteFile(path, []byte("theme: dark\nkeys:\n  metric: x\n  range: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = runAuth(t, env, "", "config", "path")
	if err == nil || !strings.Contains(err.Error(), path+":4: keys.range: key \"x\" is also bound to \"metric\"") {
		t.Fatalf("path with conflicting keys: %v", err)
	}
	other := filepath.Join(t.TempDir(), "other.yaml")
	if _, _, err = runAuth(t, env, "", "--config", other, "config", "init"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatal(err)
	}
}

// TestAuthLoginAgainstSandbox logs in to the embedded sandbox with its customer token and
// an organization token.
func TestAuthLoginAgainstSandbox(t *testing.T) {
	run := smallSandbox(t)
	info := run.Server.Info()
	env := mockKeyringEnv(t)

	_, stderr, err := runAuth(t, env, info.CustomerToken, "auth", "login", "--with-token", "--base-url", run.URL)
	if err != nil || !strings.Contains(stderr, "(customer token: data of ") || strings.Contains(stderr, info.CustomerToken) {
		t.Fatalf("customer token: %v\n%s", err, stderr)
	}
	org := strconv.FormatInt(info.DefaultOrgID, 10)
	orgToken := info.OrgTokens[info.DefaultOrgID]
	_, stderr, err = runAuth(t, env, orgToken, "auth", "login", "--with-token", "--org", org)
	if err != nil || !strings.Contains(stderr, "(organization token, or a customer token with one organization)") || strings.Contains(stderr, orgToken) {
		t.Fatalf("organization token: %v\n%s", err, stderr)
	}
	stdout, _, err := runAuth(t, env, "", "auth", "status")
	if err != nil || !strings.Contains(stdout, "Organization: "+org+" (from config file)") || !strings.Contains(stdout, credentials.Mask(orgToken)+" from the OS keyring") || !strings.Contains(stdout, "Works:        yes") {
		t.Fatalf("status: %v\n%s", err, stdout)
	}
	_, _, err = runAuth(t, env, "", "auth", "status", "--operator", strconv.FormatInt(info.RestrictedOperatorID, 10))
	if err != nil {
		t.Fatalf("status as the agent operator: %v", err)
	}
}

// The API does not refuse an organization a token cannot use: an organization token
// ignores Service-Organization-Id and a customer token falls back to the default
// organization. auth login compares the organization that answered and stores nothing
// when it is not the one asked for; auth status reports it.
func TestAuthLoginWrongOrganization(t *testing.T) {
	run := smallSandbox(t)
	info := run.Server.Info()
	def := info.DefaultOrgID
	var other int64
	for _, o := range info.OrgIDs {
		if o != def {
			other = o
			break
		}
	}
	if other == 0 {
		t.Fatalf("the sandbox has one organization: %v", info.OrgIDs)
	}
	d, o := strconv.FormatInt(def, 10), strconv.FormatInt(other, 10)
	orgToken := info.OrgTokens[def]
	env := mockKeyringEnv(t)
	cfgPath := filepath.Join(env["XDG_CONFIG_HOME"], "parley", "config.yaml")
	nothingStored := func(what string) {
		t.Helper()
		for _, key := range []string{run.URL, run.URL + "#org=" + o, run.URL + "#org=9999"} {
			if _, err := keyring.Get(credentials.Service, key); !errors.Is(err, keyring.ErrNotFound) {
				t.Fatalf("%s: a token was stored under %s", what, key)
			}
		}
		if _, err := os.Stat(cfgPath); !os.IsNotExist(err) {
			t.Fatalf("%s: the config file was written", what)
		}
	}

	_, stderr, err := runAuth(t, env, orgToken, "auth", "login", "--with-token", "--base-url", run.URL, "--org", o)
	want := "this token belongs to organization " + d + ", not " + o + "; log in with --org " + d + ", or without an organization; nothing was stored"
	if err == nil || err.Error() != want || strings.Contains(stderr, "Logged in") {
		t.Fatalf("organization token with --org %s: got %v\n%s\nwant %q", o, err, stderr, want)
	}
	nothingStored("organization token")

	_, stderr, err = runAuth(t, env, info.CustomerToken, "auth", "login", "--with-token", "--base-url", run.URL, "--org", "9999")
	want = "organization 9999 is not one this token can reach (it answered for " + d + ", its default organization)"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nothing was stored") || strings.Contains(stderr, "Logged in") {
		t.Fatalf("customer token with --org 9999: got %v\n%s\nwant %q", err, stderr, want)
	}
	nothingStored("customer token")

	// A customer token in an organization it reaches is fine.
	if _, stderr, err = runAuth(t, env, info.CustomerToken, "auth", "login", "--with-token", "--base-url", run.URL, "--org", o); err != nil {
		t.Fatalf("customer token with --org %s: %v\n%s", o, err, stderr)
	}
	stdout, _, err := runAuth(t, env, "", "auth", "status")
	if err != nil || !strings.Contains(stdout, "Works:        yes\n") {
		t.Fatalf("status: %v\n%s", err, stdout)
	}

	// The organization token logged in without an organization (after a logout and with a
	// fresh config file); the environment then names another one: status says the token
	// does not work there.
	if _, stderr, err = runAuth(t, env, "", "auth", "logout"); err != nil {
		t.Fatalf("logout: %v\n%s", err, stderr)
	}
	if err := os.Remove(cfgPath); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err = runAuth(t, env, orgToken, "auth", "login", "--with-token", "--base-url", run.URL); err != nil {
		t.Fatalf("organization token without --org: %v\n%s", err, stderr)
	}
	stdout, _, err = runAuth(t, env, "", "auth", "status")
	if err != nil || !strings.Contains(stdout, "Works:        yes, in organization "+d+"\n") {
		t.Fatalf("status: %v\n%s", err, stdout)
	}
	env[envOrg] = o
	stdout, _, err = runAuth(t, env, "", "auth", "status")
	want = "Works:        not in organization " + o + ": the API answered for organization " + d + ", not " + o + " (from PARLEY_ORG_ID)"
	if err == nil || err.Error() != "the token does not work in organization "+o || !strings.Contains(stdout, want) || strings.Contains(stdout, "Works:        yes") {
		t.Fatalf("status in organization %s: %v\n%s\nwant %q", o, err, stdout, want)
	}
}

// smallSandbox serves the small demo data set on a free port until the test ends.
func smallSandbox(t *testing.T) *sandbox.Running {
	t.Helper()
	run := sandboxtest.Start(t, sandbox.Options{Size: sandbox.SizeSmall})
	return run
}
