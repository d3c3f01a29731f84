package main

import (
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
	var g globalFlags
	root := &cobra.Command{
		Use:           "parley",
		Short:         "A terminal UI for the Messaging Platform JSON API",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&g.baseURL, "base-url", "", "API base address (env PARLEY_BASE_URL)")
	pf.StringVar(&g.org, "org", "", "organization id sent as Service-Organization-Id (env PARLEY_ORG_ID)")
	pf.StringVar(&g.operator, "operator", "", "operator id sent as Service-Operator-Id (env PARLEY_OPERATOR_ID)")
	pf.BoolVar(&g.demo, "demo", false, "use the embedded sandbox with demo data")
	pf.StringVar(&g.configPath, "config", "", "config file (env PARLEY_CONFIG; default $XDG_CONFIG_HOME/parley/config.yaml)")
	pf.StringVar(&g.debug, "debug", "", "write a debug log to this file")

	// Subcommands register here, one line each.
	root.AddCommand(newAuthCmd(&g))
	root.AddCommand(newConfigCmd(&g))
	return root
}
