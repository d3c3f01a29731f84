package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sanitize"
)

// completionLong is the help of `parley completion`, which cobra adds: how to install the
// scripts (README, Command line, says the same).
const completionLong = `Print the shell completion script for bash, zsh, fish or powershell. Commands, flags
and flag values are completed: metric names, statuses, operator modes, formats, sandbox
sizes and variants, and the words and ages a time flag takes.

  bash:  parley completion bash > ~/.local/share/bash-completion/completions/parley
         (needs the bash-completion package; or add  source <(parley completion bash)
         to ~/.bashrc)
  zsh:   parley completion zsh > "${fpath[1]}/_parley"   (compinit must be enabled:
         autoload -U compinit; compinit in ~/.zshrc)
  fish:  parley completion fish > ~/.config/fish/completions/parley.fish

Open a new shell afterwards.`

// setUpCompletion gives cobra's completion command parley's help text (cobra adds the
// command itself when the root runs; building it now lets the help be set), and makes
// every command that takes no argument offer none, instead of the shell's file names.
func setUpCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	eachCmd(root, func(c *cobra.Command) {
		if c.Parent() == root && c.Name() == "completion" {
			completionCmd(c)
		}
		if c.ValidArgsFunction == nil && c.Args != nil && c.Args(c, []string{"x"}) != nil {
			c.ValidArgsFunction = cobra.NoFileCompletions
		}
	})
}

// completionCmd makes cobra's completion command parley's: the install help, and a missing
// or unknown shell is an error (exit 1, nothing on stdout) instead of the help with exit 0,
// which a redirect into a completion file would have saved as a script.
func completionCmd(c *cobra.Command) {
	c.Use = "completion SHELL"
	c.Long = completionLong
	c.Example = `  parley completion bash > ~/.local/share/bash-completion/completions/parley
  parley completion zsh > "${fpath[1]}/_parley"
  parley completion fish > ~/.config/fish/completions/parley.fish`
	var shells []string
	for _, sub := range c.Commands() {
		shells = append(shells, sub.Name())
		sub.Args = noArgs // cobra.NoArgs would repeat what was typed
	}
	list := strings.Join(shells, ", ")
	c.Args = needArgs(1, 1, "SHELL", list)
	c.RunE = func(cmd *cobra.Command, _ []string) error {
		// Never repeated: it may be anything typed by mistake, a token included.
		return usageError(cmd, "parley completes for "+list+" only")
	}
}

// eachCmd calls f for cmd and every command under it.
func eachCmd(cmd *cobra.Command, f func(*cobra.Command)) {
	f(cmd)
	for _, c := range cmd.Commands() {
		eachCmd(c, f)
	}
}

// completeValues makes the shell offer values (each "value" or "value\tdescription") for
// the flag name of cmd, and no file names.
func completeValues(cmd *cobra.Command, name string, values ...string) {
	err := cmd.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return withPrefix(values, toComplete), cobra.ShellCompDirectiveNoFileComp
	})
	if err != nil {
		panic(fmt.Sprintf("completion of --%s: %v", name, err))
	}
}

// completeFlag makes the shell offer what fn finds for the flag name of cmd.
func completeFlag(cmd *cobra.Command, name string, fn cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(name, fn); err != nil {
		panic(fmt.Sprintf("completion of --%s: %v", name, err))
	}
}

// noFiles makes the shell offer nothing for flags that take a number or an id.
func noFiles(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		completeValues(cmd, n)
	}
}

// metricCompletions are the metric names with what each measures.
func metricCompletions() []string {
	out := make([]string, 0, len(client.Metrics))
	for _, m := range orderedMetrics() {
		out = append(out, string(m.Metric)+"\t"+oneLine(m.Description))
	}
	return out
}

// completeMetric completes the METRIC argument of analytics export: one metric, then no more.
func completeMetric(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return withPrefix(metricCompletions(), toComplete), cobra.ShellCompDirectiveNoFileComp
}

// withPrefix keeps the completions ("value" or "value\tdescription") whose value starts
// with what is typed: every shell gets only what fits, whether its script filters or not.
func withPrefix(all []string, typed string) []string {
	out := make([]string, 0, len(all))
	for _, c := range all {
		if v, _, _ := strings.Cut(c, "\t"); strings.HasPrefix(v, typed) {
			out = append(out, c)
		}
	}
	return out
}

func modeCompletions() []string {
	return []string{string(client.OperatorModeHuman) + "\tdata points with a human operator", string(client.OperatorModeBot) + "\tdata points with a bot"}
}

func formatCompletions() []string {
	return []string{string(export.CSV), string(export.JSON)}
}

func sizeCompletions() []string {
	return []string{string(sandbox.SizeSmall), string(sandbox.SizeMedium), string(sandbox.SizeLarge)}
}

func variantCompletions() []string {
	var out []string
	for _, v := range sandbox.Variants() {
		out = append(out, string(v.Name)+"\t"+oneLine(v.Summary))
	}
	return out
}

// oneLine is a description for a completion: shells show one line, without tabs.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// identifierCompletions are the fields contacts upsert finds a contact by.
func identifierCompletions() []string {
	out := make([]string, 0, len(client.Identifiers))
	for _, id := range client.Identifiers {
		out = append(out, id+"\tfind the contact by its "+strings.ReplaceAll(id, "_", " "))
	}
	return out
}

// operatorLine describes an operator for a completion: display name, role, away status
// as the server stated them (made safe for a terminal).
func operatorLine(o client.Operator) string {
	name := strings.TrimSpace(o.DisplayName)
	if name == "" {
		name = strings.TrimSpace(o.Name)
	}
	parts := []string{}
	if name != "" {
		parts = append(parts, name)
	}
	if o.Role != "" {
		parts = append(parts, o.Role)
	}
	if o.IsAway.Known {
		parts = append(parts, writes.AwayWord(o.IsAway.V))
	}
	return oneLine(sanitize.Line(strings.Join(parts, ", ")))
}
