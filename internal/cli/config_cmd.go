package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/keymap"
)

func newConfigCmd(g *globalFlags) *cobra.Command {
	return newConfigCmdWith(g, os.Getenv)
}

// configLong is the help of `parley config`, with the simulated agent day's figure.
func configLong() string {
	return fmt.Sprintf(`Create or locate the config file.

The config file (YAML) holds the base URL, organization, operator, theme, key
bindings, auto-refresh interval, page size, team size, request budget and request
timeout. It lives at $XDG_CONFIG_HOME/parley/config.yaml unless --config or
PARLEY_CONFIG names another.
Flags and environment variables override it. It never holds the token.

Sizing the request budget: the API allows 5000 requests per resource family,
organization and UTC day, shared by everyone of the organization. Set team_size
to the number of people who use parley (default 10): each one's request_budget
is then 5000 / team_size (500). Auto-refresh spends at most four fifths of it
and leaves the rest for what you do (opening threads, searches, edits); it
runs every refresh_interval (30s) while you work, slows down while you are idle
or as the allowance runs low, and stops after 30 minutes without a key. A full
working day of one agent spends about %d conversations requests with the
defaults (README, "Requests per agent-shift"). Raise team_size when more people
share the organization; set request_budget yourself when fewer of them work on
the same day.`, config.AgentDayRequests)
}

func newConfigCmdWith(g *globalFlags, env func(string) string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Create or locate the config file",
		Long:  configLong(),
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	var force bool
	initCmd := &cobra.Command{
		Use:   "init [--force]",
		Short: "Write a commented example config file",
		Args:  noArgs,
		RunE: withConfigPath(g, env, func(cmd *cobra.Command, path string) error {
			if err := config.WriteExample(path, force); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Wrote %s; every setting in it is commented out until you change it.\n", path)
			return nil
		}),
	}
	initCmd.Flags().BoolVar(&force, "force", false, "replace an existing file")
	pathCmd := &cobra.Command{
		Use:   "path",
		Short: "Print the config file's path and check the file, key bindings included",
		Args:  noArgs,
		RunE: withConfigPath(g, env, func(cmd *cobra.Command, path string) error {
			fmt.Fprintln(cmd.OutOrStdout(), path)
			c, err := config.Load(path)
			if err != nil {
				return err
			}
			// The key bindings are checked as at start-up: unknown actions and conflicts.
			if err := keymap.Default().Apply(c.Keys); err != nil {
				return keyError(err, Settings{ConfigPath: path, KeyLines: c.KeyLines})
			}
			if !c.Exists {
				fmt.Fprintln(cmd.ErrOrStderr(), `(the file does not exist; "parley config init" writes an example)`)
			}
			return nil
		}),
	}
	cmd.AddCommand(initCmd, pathCmd)
	return cmd
}

// withConfigPath is the RunE of a command that runs on the config file in use
// (configPath).
func withConfigPath(g *globalFlags, env func(string) string, run func(cmd *cobra.Command, path string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		path, err := configPath(g, env)
		if err != nil {
			return err
		}
		return run(cmd, path)
	}
}

// configPath is the config file in use: --config, else PARLEY_CONFIG, else the default.
func configPath(g *globalFlags, env func(string) string) (string, error) {
	if g.configPath != "" {
		return g.configPath, nil
	}
	if p := env(envConfig); p != "" {
		return p, nil
	}
	p, err := config.DefaultPath(env)
	if err != nil {
		return "", errors.Join(errors.New("no config file location; pass --config"), err)
	}
	return p, nil
}
