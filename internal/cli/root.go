// Package cli is parley's command line: the cobra commands (the TUI, sandbox, auth,
// config, exports and search) and what they wire together (settings, credentials, the API
// client or the embedded sandbox, the Bubble Tea program, the signal watch and the crash
// guard). The main package only calls Execute.
package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// Execute runs the command named by the process's arguments and returns the exit status:
// 0, 1 after an error (printed on stderr), 3 when a write's outcome stays unknown
// (exitUnknown), 128 + n after signal n ended the TUI. proc is
// the run's crash guard, which main defers; version is parley's version.
func Execute(ctx context.Context, proc *Process, version string) int {
	root := newRootCmd(version)
	err := root.ExecuteContext(withProcess(ctx, proc))
	var sig *signalExit
	var exit *exitError
	switch {
	case errors.As(err, &sig):
		return sig.code()
	case errors.As(err, &exit):
		fmt.Fprintln(os.Stderr, "parley: "+exit.text)
		return exit.code
	case err != nil:
		fmt.Fprintln(os.Stderr, "parley:", errorLine(err))
		return 1
	}
	return 0
}

// errorLine is a command's error for stderr: a network failure in plain words, and
// everything made safe for a terminal, since the server's detail text is untrusted.
func errorLine(err error) string {
	if text, ok := client.NetworkProblem(err); ok {
		return sanitize.Line(text)
	}
	return sanitize.Text(err.Error())
}

// globalFlags are the persistent flags every command shares (README, Configuration).
type globalFlags struct {
	baseURL    string
	org        string
	operator   string
	demo       bool
	configPath string
	debug      string
	// readOnly is --readonly, or --read-only, its earlier spelling: the root command's (the
	// TUI) and each write command's (not a persistent flag).
	readOnly optBool
	// mouse is the root command's --mouse (the TUI only; not a persistent flag).
	mouse optBool
	// The TUI's alerts of arrivals and --mark-read-on-open (the TUI only).
	bell, title, markRead optBool
	notify                string
	// version is parley's version, from main (not a flag).
	version string
}

// optBool is a boolean flag that remembers whether it was given: given, it wins over the
// config file (--readonly=false too); not given, the file decides.
type optBool struct{ given, value bool }

func (b *optBool) String() string { return strconv.FormatBool(b.value) }
func (b *optBool) Type() string   { return "bool" }

func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	b.given, b.value = true, v
	return nil
}

// readOnlyFlag gives cmd --readonly (usage says what it does there) and, out of the help,
// --read-only, its earlier spelling.
func readOnlyFlag(cmd *cobra.Command, g *globalFlags, usage string) {
	ro := cmd.Flags().VarPF(&g.readOnly, "readonly", "", usage)
	ro.NoOptDefVal = "true"
	old := cmd.Flags().VarPF(&g.readOnly, "read-only", "", "the earlier spelling of --readonly")
	old.NoOptDefVal = "true"
	old.Hidden = true
}

func newRootCmd(version string) *cobra.Command {
	g := &globalFlags{version: version}
	root := &cobra.Command{
		Use:   "parley",
		Short: "A terminal UI for the Messaging Platform JSON API",
		Long: `parley is a terminal UI for the Messaging Platform JSON API v3 and the Analytics
API v1: triage conversations, look up contacts, manage operators and read analytics.

Run without a command to open the TUI. With no API configured it opens on demo data
from an embedded sandbox.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				// Never repeat the argument: it might be a token pasted by mistake.
				return errors.New("parley takes no arguments; its commands are listed by parley --help")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			termVar, hadTerm := os.LookupEnv("TERM")
			return runTUI(cmd.Context(), g, termVar, hadTerm, cmd.ErrOrStderr())
		},
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// Flag errors never repeat the value given: it may be a token (--with-token=TOKEN).
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.StringVar(&g.baseURL, "base-url", "", "API base address (env PARLEY_BASE_URL)")
	pf.StringVar(&g.org, "org", "", "organization id sent as Service-Organization-Id (env PARLEY_ORG_ID)")
	pf.StringVar(&g.operator, "operator", "", "operator id sent as Service-Operator-Id (env PARLEY_OPERATOR_ID)")
	pf.BoolVar(&g.demo, "demo", false, "use the embedded sandbox with demo data")
	pf.StringVar(&g.configPath, "config", "", "config file (env PARLEY_CONFIG; default $XDG_CONFIG_HOME/parley/config.yaml)")
	pf.StringVar(&g.debug, "debug", "", "write a debug log to this file")
	readOnlyFlag(root, g, "offer no edits and send no request but GET: no edit keys, forms or deletes (config readonly)")
	mo := root.Flags().VarPF(&g.mouse, "mouse", "", "click and scroll with the mouse; shift-drag selects text (env PARLEY_MOUSE, config mouse)")
	mo.NoOptDefVal = "true"
	for _, f := range []struct {
		v         *optBool
		name, use string
	}{
		{&g.bell, "bell", "ring the terminal bell when a conversation arrives in your queues (config alerts.bell; default true)"},
		{&g.title, "title", "show the counts of arrivals in the terminal's title (config alerts.title; default true)"},
		{&g.markRead, "mark-read-on-open", "opening an unread conversation marks it read (config mark_read_on_open; default true)"},
	} {
		root.Flags().VarPF(f.v, f.name, "", f.use).NoOptDefVal = "true"
	}
	root.Flags().StringVar(&g.notify, "notify", "", "desktop notifications of arrivals through the terminal: off, osc9 or osc777 (config alerts.notify; default off)")

	// Subcommands register here, one line each.
	root.AddCommand(newAuthCmd(g))
	root.AddCommand(newConfigCmd(g))
	root.AddCommand(newConversationsCmd(g))
	root.AddCommand(newContactsCmd(g))
	root.AddCommand(newNotesCmd(g))
	root.AddCommand(newOperatorsCmd(g))
	root.AddCommand(newAnalyticsCmd(g))
	root.AddCommand(newSandboxCmd())
	root.AddCommand(newServeCmd(g))
	noFiles(root, "base-url", "org", "operator")
	setUpCompletion(root)
	return root
}

// commandGroup is the command that holds the commands about one kind of data (what), such
// as `parley contacts`.
func commandGroup(use, what string) *cobra.Command {
	return &cobra.Command{Use: use, Short: what + " from the command line"}
}
