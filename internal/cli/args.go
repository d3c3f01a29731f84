package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// needArgs is the Args of a command that takes positional arguments: at least min, at most
// max (max < 0: any number more). what names them as the usage line does ("METRIC",
// "QUERY"). A missing argument is answered with what is missing, the usage line and the
// command's example, not cobra's "requires at least 1 arg(s), only received 0"; extra
// arguments are counted, never repeated (one may be a token pasted by mistake).
func needArgs(min, max int, what, hint string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < min:
			missing := "missing " + what
			if hint != "" {
				missing += " (" + hint + ")"
			}
			return usageError(cmd, missing)
		case max >= 0 && len(args) > max:
			return usageError(cmd, fmt.Sprintf("%s takes %s, got %d arguments (not repeated here)", cmd.CommandPath(), countWords(max, what), len(args)))
		}
		return nil
	}
}

// usageError is problem followed by the command's usage line and its example.
func usageError(cmd *cobra.Command, problem string) error {
	var b strings.Builder
	b.WriteString(problem)
	b.WriteString("\nusage: ")
	b.WriteString(cmd.UseLine())
	if ex := strings.TrimRight(cmd.Example, "\n"); ex != "" {
		b.WriteString("\nexample:\n")
		b.WriteString(ex)
	}
	fmt.Fprintf(&b, "\n(see %s --help)", cmd.CommandPath())
	return fmt.Errorf("%s", b.String())
}

// countWords says how many arguments a command takes: "one METRIC", "2 arguments".
func countWords(n int, what string) string {
	switch n {
	case 0:
		return "no arguments"
	case 1:
		return "one " + what
	}
	return fmt.Sprintf("%d arguments", n)
}

// bothArgs is the Args of a command whose arguments pass first and then second: the first
// problem is the one said.
func bothArgs(first, second cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := first(cmd, args); err != nil {
			return err
		}
		return second(cmd, args)
	}
}

// requireFlags makes names required flags of cmd (cobra's mark, which completion reads), and
// a missing one is answered as a missing argument is: what is missing, the usage line and
// the command's example, not cobra's bare `required flag(s) "from", "to" not set`. Call it
// once cmd's flags are defined.
func requireFlags(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		if err := cmd.MarkFlagRequired(n); err != nil {
			panic(fmt.Sprintf("required flag --%s of %s: %v", n, cmd.CommandPath(), err))
		}
	}
	if cmd.PreRunE != nil || cmd.PreRun != nil {
		panic(fmt.Sprintf("required flags of %s: it has its own PreRun", cmd.CommandPath()))
	}
	// Checked before cobra's own check, once the arguments passed theirs.
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
		var missing []string
		for _, n := range names {
			if !cmd.Flags().Changed(n) {
				missing = append(missing, "--"+n)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		return usageError(cmd, "missing "+joinAnd(missing))
	}
}

// joinAnd joins words as a sentence lists them: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
