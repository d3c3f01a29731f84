package main

import (
	"errors"

	"boot.parley.local/termguard"

	"github.com/spf13/cobra"
)

// globalFlags are the persistent flags every command shares (DESIGN.md, Configuration).
type globalFlags struct {
	baseURL    string
	org        string
	operator   string
	demo       bool
	configPath string
	debug      string
}

func newRootCmd() *cobra.Command {
	g := &globalFlags{}
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
			termVar, hadTerm := termguard.Restore()
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

	// Subcommands register here, one line each.
	root.AddCommand(newAuthCmd(g))
	root.AddCommand(newConfigCmd(g))
	root.AddCommand(newConversationsCmd(g))
	root.AddCommand(newContactsCmd(g))
	root.AddCommand(newAnalyticsCmd(g))
	root.AddCommand(newSandboxCmd())
	return root
}
