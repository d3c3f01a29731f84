package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/credentials"
)

// authDeps is what the auth commands take from the process; tests replace parts of it.
type authDeps struct {
	env func(string) string
	// httpClient is the transport for the verification requests (nil: the client's default).
	httpClient *http.Client
	now        func() time.Time
	// onRequest sees each verification request (the --debug log); nil for none.
	onRequest func(client.RequestInfo)
}

// authNeeds is what an auth command needs before it runs.
type authNeeds struct {
	// newConfig accepts a named config file that does not exist yet (auth login creates it).
	newConfig bool
	// requests: the command sends verification requests, logged in the --debug log like
	// every other request (never the token).
	requests bool
}

// authRunE is the RunE of an auth command: run gets the settings resolved from the flags,
// the environment and the config file, and d with the --debug log when it sends requests.
func authRunE(g *globalFlags, d authDeps, needs authNeeds, run func(cmd *cobra.Command, s Settings, d authDeps) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		s, err := resolveSettingsOpts(cmd.Context(), g, d.env, needs.newConfig)
		if err != nil {
			return err
		}
		d := d // this run's copy: the log below is this run's
		if needs.requests {
			dl, err := openDebugLog(g.debug)
			if err != nil {
				return err
			}
			defer func() { _ = dl.close() }()
			d.onRequest = dl.request
		}
		return run(cmd, s, d)
	}
}

func defaultAuthDeps() authDeps {
	return authDeps{env: os.Getenv, now: time.Now}
}

// verifyTimeout bounds each verification request of auth login and auth status.
const verifyTimeout = 15 * time.Second

// maxTokenInput caps what --with-token reads from stdin.
const maxTokenInput = 64 << 10

func newAuthCmd(g *globalFlags) *cobra.Command {
	return newAuthCmdWith(g, defaultAuthDeps())
}

func newAuthCmdWith(g *globalFlags, d authDeps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Store, show or remove the API token",
		Long: `Store, show or remove the API token.

parley takes the token from PARLEY_TOKEN, else from the OS keyring (service "parley"),
else from the file written by "auth login --insecure-storage". Tokens are stored per
API base URL and organization.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newAuthLoginCmd(g, d), newAuthStatusCmd(g, d), newAuthLogoutCmd(g, d))
	return cmd
}

type loginOptions struct {
	withToken bool
	insecure  bool
}

func newAuthLoginCmd(g *globalFlags, d authDeps) *cobra.Command {
	var o loginOptions
	cmd := &cobra.Command{
		Use:   "login [--base-url URL] [--org ID] [--with-token] [--insecure-storage]",
		Short: "Verify an API token and store it in the OS keyring",
		Long: `Verify an API token with one request and store it in the OS keyring. One more
request, to the Analytics API, tells a customer token from an organization token where
the data allows it.

The token is read without echo from the terminal, or from stdin with --with-token
(for example: printenv MY_TOKEN | parley auth login --with-token --base-url URL).
It is never accepted as an argument. The base URL (and the organization, when given)
is recorded in the config file, so that a plain "parley" uses this API afterwards.

Without a usable OS keyring (a headless machine without a D-Bus session), set
PARLEY_TOKEN instead, or pass --insecure-storage to store the token in a file
readable only by you ($XDG_CONFIG_HOME/parley/credentials, mode 0600).`,
		Args: noArgs,
		RunE: authRunE(g, d, authNeeds{newConfig: true, requests: true}, func(cmd *cobra.Command, s Settings, d authDeps) error {
			return runLogin(cmd, s, d, o)
		}),
	}
	cmd.Flags().BoolVar(&o.withToken, "with-token", false, "read the token from stdin")
	setFlagHint(cmd.Flags(), "with-token", "takes no value; pipe the token on stdin (for example: printenv MY_TOKEN | parley auth login --with-token)")
	cmd.Flags().BoolVar(&o.insecure, "insecure-storage", false, "store the token in a 0600 file instead of the OS keyring")
	return cmd
}

func runLogin(cmd *cobra.Command, s Settings, d authDeps, o loginOptions) error {
	ctx := cmd.Context()
	stderr := cmd.ErrOrStderr()
	if s.BaseURL == "" {
		return errors.New("no base URL: pass --base-url URL (or set PARLEY_BASE_URL, or base_url in the config file)")
	}
	dest := credentials.ToKeyring
	if o.insecure {
		dest = credentials.ToFile
		if s.Credentials.FilePath() == "" {
			return errors.New("--insecure-storage: cannot find the configuration directory (set XDG_CONFIG_HOME or HOME)")
		}
	} else if err := s.Credentials.CheckKeyring(ctx, s.Profile); err != nil {
		if errors.Is(err, credentials.ErrKeyringUnavailable) {
			return noKeyringError(err, s.Credentials.FilePath())
		}
		return err
	}

	raw, err := readToken(cmd, o.withToken, s.BaseURL)
	if err != nil {
		return err
	}
	value, err := credentials.CleanToken(raw)
	if err != nil {
		return fmt.Errorf("read token: %w", err)
	}
	warnInsecureURL(stderr, s.BaseURL)

	answered, err := verifyToken(ctx, d, s, value)
	if err != nil {
		return credentials.RedactError(fmt.Errorf("%w; nothing was stored", err), value)
	}
	kind := detectTokenKind(ctx, d, s, value)
	if err := checkOrganization(s, answered, kind); err != nil {
		return fmt.Errorf("%w; nothing was stored", err)
	}

	tok, err := s.Credentials.Save(ctx, s.Profile, value, dest)
	if err != nil {
		if errors.Is(err, credentials.ErrKeyringUnavailable) {
			return noKeyringError(err, s.Credentials.FilePath())
		}
		return credentials.RedactError(fmt.Errorf("store token: %w", err), value)
	}

	fmt.Fprintf(stderr, "Logged in to %s.\n", s.BaseURL)
	fmt.Fprintf(stderr, "Token %s (%s) stored in %s under %q.\n", tok.Masked(), kind.text, tok.Origin(), tok.Profile)
	if err := recordLogin(stderr, s); err != nil {
		return fmt.Errorf("the token is stored, but the config file was not updated: %w", err)
	}
	if strings.TrimSpace(d.env(credentials.EnvToken)) != "" {
		fmt.Fprintf(stderr, "Note: %s is set in this environment and takes precedence over the stored token.\n", credentials.EnvToken)
	}
	return nil
}

// noKeyringError is the message of auth login without a usable keyring: the two ways on.
func noKeyringError(cause error, filePath string) error {
	file := "a file readable only by you (mode 0600)"
	if filePath != "" {
		file = filePath + " (mode 0600, readable only by you)"
	}
	return fmt.Errorf(`cannot store the token: %v.
Two ways on:
  - set %s in the environment (parley then stores nothing), or
  - run "parley auth login --insecure-storage" to store the token in %s`,
		cause, credentials.EnvToken, file)
}

// readToken reads the token from stdin (--with-token) or, on a terminal, from a prompt
// without echo. --with-token on a terminal prompts too, so the token never shows.
func readToken(cmd *cobra.Command, withToken bool, baseURL string) (string, error) {
	in := cmd.InOrStdin()
	f, isFile := in.(*os.File)
	tty := isFile && term.IsTerminal(f.Fd())
	if withToken && !tty {
		b, err := io.ReadAll(io.LimitReader(in, maxTokenInput+1))
		if err != nil {
			return "", fmt.Errorf("read token from stdin: %w", err)
		}
		if len(b) > maxTokenInput {
			return "", errors.New("read token from stdin: more than 64 KiB of input")
		}
		return string(b), nil
	}
	if !tty {
		return "", errors.New("stdin is not a terminal: pipe the token in with --with-token (for example: printenv MY_TOKEN | parley auth login --with-token)")
	}
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "API token for %s (input is hidden): ", baseURL)
	b, err := readPassword(f.Fd(), stderr)
	fmt.Fprintln(stderr)
	if err != nil {
		return "", fmt.Errorf("read token: %w", err)
	}
	return string(b), nil
}

// readPassword reads a line without echo. An interrupt while it waits turns the echo back
// on before parley exits, so the shell is not left without echo.
func readPassword(fd uintptr, stderr io.Writer) ([]byte, error) {
	state, err := term.GetState(fd)
	if err != nil {
		return nil, err
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	defer func() {
		signal.Stop(sigs)
		close(done)
	}()
	go func() {
		defer func() { _ = recover() }()
		select {
		case <-sigs:
			_ = term.Restore(fd, state)
			fmt.Fprintln(stderr)
			os.Exit(130)
		case <-done:
		}
	}()
	return term.ReadPassword(fd)
}

// warnInsecureURL warns when the token would travel unencrypted to another machine.
func warnInsecureURL(w io.Writer, base string) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
		return
	}
	fmt.Fprintf(w, "Warning: %s is not https; the token is sent unencrypted.\n", base)
}

// newVerifyClient returns a client for the verification requests: short timeout, at most
// one retry.
func newVerifyClient(d authDeps, s Settings, token string, org, operator int64) (*client.Client, error) {
	return client.New(client.Config{
		BaseURL:        s.BaseURL,
		Token:          token,
		OrganizationID: org,
		OperatorID:     operator,
		HTTPClient:     d.httpClient,
		UserAgent:      userAgent(s.Version),
		Timeout:        verifyTimeout,
		MaxRetries:     1,
		MaxRetryWait:   5 * time.Second,
		MaxBodyBytes:   8 << 20,
		Now:            d.now,
		OnRequest:      d.onRequest,
	})
}

// errTokenRejected is matched by verifyToken's error when the server refused the token (401).
var errTokenRejected = errors.New("token rejected")

// verifyToken makes the one cheap request that proves the token works:
// GET /api/um/v3/operators/?limit=1 in the configured organization and operator. It
// returns the organization the API answered for (the operator's organization_id; 0 when
// the answer does not say).
func verifyToken(ctx context.Context, d authDeps, s Settings, token string) (int64, error) {
	c, err := newVerifyClient(d, s, token, s.OrganizationID, s.OperatorID)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*verifyTimeout)
	defer cancel()
	page, err := c.ListOperators(ctx, client.ListOptions{Limit: 1})
	if err == nil {
		if len(page.Results) == 0 {
			return 0, nil
		}
		return page.Results[0].OrganizationID, nil
	}
	var ce *client.Error
	if errors.As(err, &ce) {
		detail := strings.TrimSpace(ce.Detail)
		if detail == "" {
			detail = http.StatusText(ce.Status)
		}
		switch ce.Status {
		case http.StatusUnauthorized:
			return 0, fmt.Errorf("%w by %s: %s (HTTP 401)", errTokenRejected, s.BaseURL, detail)
		case http.StatusForbidden:
			return 0, fmt.Errorf("%s refused the request (HTTP 403): %s", s.BaseURL, detail)
		case http.StatusBadRequest:
			return 0, fmt.Errorf("%s refused the request (HTTP 400; check --org and --operator): %s", s.BaseURL, detail)
		}
		return 0, fmt.Errorf("could not verify the token with %s: HTTP %d: %s", s.BaseURL, ce.Status, detail)
	}
	return 0, fmt.Errorf("could not verify the token with %s: %w", s.BaseURL, err)
}

// checkOrganization compares the organization asked for (s.OrganizationID) with the one
// the verifying request was answered for. The API does not refuse an organization a token
// cannot use: an organization token ignores Service-Organization-Id, and a customer token
// falls back to its default organization for an unknown id (spec, Authentication 3), so
// the answer's organization_id is the only sign. kind words the message when the token
// kind is known; an unknown kind (auth status does not probe) gets both explanations.
func checkOrganization(s Settings, answered int64, kind tokenKind) error {
	want := s.OrganizationID
	if want == 0 || answered == 0 || answered == want {
		return nil
	}
	from := ""
	if s.From.Organization != "" && s.From.Organization != "--org" {
		from = " (from " + s.From.Organization + ")"
	}
	switch {
	case kind.orgs > 1:
		return fmt.Errorf("organization %d%s is not one this token can reach (it answered for %d, its default organization); check the id, or log in without an organization",
			want, from, answered)
	case kind.orgs == 1 && kind.only == answered:
		return fmt.Errorf("this token belongs to organization %d, not %d%s; log in with --org %d, or without an organization",
			answered, want, from, answered)
	}
	return fmt.Errorf("the API answered for organization %d, not %d%s: this is an organization token of %d, or %d is not an organization this token can reach",
		answered, want, from, answered, want)
}

// probeDays is the period the token-kind probe looks at.
const probeDays = 7

// tokenKind is what the token-kind probe found.
type tokenKind struct {
	// text describes the kind for the login message.
	text string
	// orgs is the number of organizations in the probe's data (0: none, or the probe failed).
	orgs int
	// only is that organization when orgs is 1.
	only int64
}

// detectTokenKind tells a customer token from an organization token where the data allows
// it. The API has no "who am I" endpoint, and the verifying operators request cannot tell
// them apart (both answer for one organization); the Analytics API, asked without an
// organization filter, returns the data of every organization the token may read. Points
// of two or more organizations prove a customer token; otherwise the kind stays open. See
// docs/api-notes.md, "Token kind".
func detectTokenKind(ctx context.Context, d authDeps, s Settings, token string) tokenKind {
	c, err := newVerifyClient(d, s, token, 0, 0)
	if err != nil {
		return tokenKind{text: "kind unknown"}
	}
	ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	now := d.now().UTC()
	q := client.AnalyticsQuery{Metric: client.MetricConversationCategory, From: now.AddDate(0, 0, -(probeDays - 1)), To: now}
	pts, err := c.AnalyticsWindowPoints(ctx, q, client.AnalyticsWindow{From: q.From, To: q.To})
	if err != nil {
		return tokenKind{text: "kind unknown: the analytics check failed"}
	}
	orgs := map[int64]bool{}
	for _, p := range pts {
		orgs[p.OrganizationID] = true
	}
	k := tokenKind{orgs: len(orgs)}
	switch {
	case len(orgs) > 1:
		k.text = "customer token: data of " + strconv.Itoa(len(orgs)) + " organizations"
	case len(orgs) == 1:
		k.text = "organization token, or a customer token with one organization"
		for o := range orgs {
			k.only = o
		}
	default:
		k.text = "kind unknown: no analytics data in the last " + strconv.Itoa(probeDays) + " days"
	}
	return k
}

// recordLogin writes the base URL (and the organization) given by flag or environment
// into the config file, so that a plain "parley" uses the same API, and says so.
func recordLogin(w io.Writer, s Settings) error {
	if s.ConfigPath == "" {
		fmt.Fprintln(w, "No config file location (set XDG_CONFIG_HOME or HOME): the base URL was not recorded.")
		return nil
	}
	var set []config.Setting
	if s.From.BaseURL != "config file" {
		set = append(set, config.Setting{Key: config.KeyBaseURL, Value: s.BaseURL})
	}
	if s.OrganizationID != 0 && s.From.Organization != "config file" {
		set = append(set, config.Setting{Key: config.KeyOrganizationID, Value: strconv.FormatInt(s.OrganizationID, 10)})
	}
	if len(set) == 0 {
		return nil
	}
	res, err := config.Set(s.ConfigPath, set...)
	if err != nil {
		return err
	}
	if len(res.Changed) == 0 {
		return nil
	}
	verb := "Updated"
	if res.Created {
		verb = "Created"
	}
	fmt.Fprintf(w, "%s %s: set %s (no token is written there).\n", verb, s.ConfigPath, strings.Join(res.Changed, " and "))
	return nil
}

func newAuthStatusCmd(g *globalFlags, d authDeps) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the API, the token's source and whether the token works",
		Long: `Show the API base URL, organization and operator in use, where the token comes from
(PARLEY_TOKEN, the OS keyring or the credentials file), the token masked to its last
4 characters, and whether it works (one request). Exits non-zero when there is no
token or it does not work.`,
		Args: noArgs,
		RunE: authRunE(g, d, authNeeds{requests: true}, runStatus),
	}
}

func runStatus(cmd *cobra.Command, s Settings, d authDeps) error {
	ctx := cmd.Context()
	out := cmd.OutOrStdout()
	row := func(k, v string) { fmt.Fprintf(out, "%-14s%s\n", k+":", v) }
	cfg := "none"
	if s.ConfigExists {
		cfg = s.ConfigPath
	} else if s.ConfigPath != "" {
		cfg = s.ConfigPath + " (not created)"
	}
	row("Config file", cfg)
	if s.BaseURL == "" {
		row("API", "none configured: parley uses the embedded demo sandbox")
		return errors.New(`not logged in: run "parley auth login --base-url URL"`)
	}
	row("API", s.BaseURL+origin(s.From.BaseURL))
	if s.OrganizationID != 0 {
		row("Organization", strconv.FormatInt(s.OrganizationID, 10)+origin(s.From.Organization))
	} else {
		row("Organization", "not set (the token's own or default organization)")
	}
	if s.OperatorID != 0 {
		row("Operator", strconv.FormatInt(s.OperatorID, 10)+origin(s.From.Operator))
	} else {
		row("Operator", "not set (the account owner acts)")
	}
	if s.Demo {
		row("Mode", "demo (--demo): the embedded sandbox is used, not this API")
	}

	tok, err := s.Token(ctx)
	if kp := s.Credentials.KeyringProblem(); kp != nil {
		row("Keyring", "unavailable ("+strings.TrimPrefix(kp.Error(), "OS keyring unavailable: ")+")")
	}
	if err != nil {
		if errors.Is(err, credentials.ErrNoToken) {
			row("Token", "none")
			return fmt.Errorf(`not logged in to %s: run "parley auth login" (or set %s)`, s.BaseURL, credentials.EnvToken)
		}
		row("Token", "unreadable")
		return err
	}
	where := tok.Origin()
	if tok.Source == credentials.SourceKeyring || tok.Source == credentials.SourceFile {
		where += ", profile " + tok.Profile
	}
	row("Token", tok.Masked()+" from "+where)
	warnInsecureURL(cmd.ErrOrStderr(), s.BaseURL)
	answered, err := verifyToken(ctx, d, s, tok.Reveal())
	if err != nil {
		err = credentials.RedactError(err, tok.Reveal())
		row("Works", "no: "+err.Error())
		if errors.Is(err, errTokenRejected) {
			return errors.New("the token does not work")
		}
		return errors.New("the token could not be checked")
	}
	if err := checkOrganization(s, answered, tokenKind{}); err != nil {
		row("Works", "not in organization "+strconv.FormatInt(s.OrganizationID, 10)+": "+err.Error())
		return fmt.Errorf("the token does not work in organization %d", s.OrganizationID)
	}
	if s.OrganizationID == 0 && answered != 0 {
		row("Works", "yes, in organization "+strconv.FormatInt(answered, 10))
		return nil
	}
	row("Works", "yes")
	return nil
}

func origin(from string) string {
	if from == "" {
		return ""
	}
	return " (from " + from + ")"
}

func newAuthLogoutCmd(g *globalFlags, d authDeps) *cobra.Command {
	return &cobra.Command{
		Use:   "logout",
		Short: "Remove the stored token from the OS keyring and the credentials file",
		Args:  noArgs,
		RunE:  authRunE(g, d, authNeeds{}, runLogout),
	}
}

func runLogout(cmd *cobra.Command, s Settings, d authDeps) error {
	ctx := cmd.Context()
	w := cmd.ErrOrStderr()
	if s.BaseURL == "" {
		return errors.New("no base URL: pass --base-url URL for the API to log out of")
	}
	r, err := s.Credentials.Delete(ctx, s.Profile)
	for _, k := range r.Keyring {
		fmt.Fprintf(w, "Removed the token for %s from the OS keyring.\n", k)
	}
	for _, k := range r.File {
		fmt.Fprintf(w, "Removed the token for %s from %s.\n", k, s.Credentials.FilePath())
	}
	if err != nil {
		return err
	}
	if r.KeyringErr != nil {
		fmt.Fprintf(w, "The OS keyring was not checked: %s.\n", strings.TrimPrefix(r.KeyringErr.Error(), "OS keyring unavailable: "))
	}
	if len(r.Keyring)+len(r.File) == 0 {
		switch {
		case r.KeyringErr == nil:
			fmt.Fprintf(w, "No stored token for %s.\n", s.Profile.Key())
		case s.Credentials.FilePath() != "":
			// The keyring was not searched: say only what is known.
			fmt.Fprintf(w, "No token for %s in %s.\n", s.Profile.Key(), s.Credentials.FilePath())
		default:
			fmt.Fprintf(w, "Nothing was removed for %s.\n", s.Profile.Key())
		}
	}
	if strings.TrimSpace(d.env(credentials.EnvToken)) != "" {
		fmt.Fprintf(w, "%s is still set in this environment; unset it to stop using that token.\n", credentials.EnvToken)
	}
	return nil
}

// noArgs refuses positional arguments without repeating them (cobra.NoArgs quotes them):
// a token typed on the command line by mistake must not be echoed.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.HasSubCommands() {
		var names []string
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() {
				names = append(names, c.Name())
			}
		}
		return fmt.Errorf("%s takes no arguments; its commands are %s (a token is never accepted on the command line)",
			cmd.CommandPath(), strings.Join(names, ", "))
	}
	return fmt.Errorf("%s takes no arguments (a token is never accepted on the command line: pipe it in with --with-token)", cmd.CommandPath())
}
