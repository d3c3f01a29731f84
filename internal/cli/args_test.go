package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command that takes arguments answers a missing one with what is missing, its usage
// line and an example, and extra ones with their count, never with cobra's "requires at
// least 1 arg(s), only received 0" and never repeating what was typed.
func TestEveryCommandSaysWhatArgumentIsMissing(t *testing.T) {
	root := newRootCmd("test")
	takesArgs := 0
	eachCmd(root, func(cmd *cobra.Command) {
		if cmd.Args == nil || !cmd.Runnable() {
			return
		}
		path := cmd.CommandPath()
		wantsArgs := requiredPlaceholder(cmd.Use)
		err := cmd.Args(cmd, nil)
		if wantsArgs != (err != nil) {
			t.Errorf("%s (use %q): no arguments gives %v", path, cmd.Use, err)
		}
		if err != nil {
			takesArgs++
			msg := err.Error()
			for _, want := range []string{"missing ", "\nusage: " + cmd.UseLine(), "\nexample:\n  " + path + " "} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s: the error lacks %q:\n%s", path, want, msg)
				}
			}
		}
		const pasted = "cust_pasted_token_0123456789"
		many := []string{pasted, pasted, pasted, pasted, pasted, pasted, pasted, pasted, pasted, pasted, pasted, pasted}
		if err := cmd.Args(cmd, many); err != nil {
			if strings.Contains(err.Error(), pasted) {
				t.Errorf("%s repeats an argument: %v", path, err)
			}
			if !strings.Contains(err.Error(), "12") && !strings.Contains(err.Error(), "takes no arguments") {
				t.Errorf("%s: the error for 12 arguments does not count them: %v", path, err)
			}
		}
		for _, args := range [][]string{nil, many} {
			if err := cmd.Args(cmd, args); err != nil && strings.Contains(err.Error(), "arg(s)") {
				t.Errorf("%s answers %d arguments with cobra's text: %v", path, len(args), err)
			}
		}
	})
	if takesArgs < 2 {
		t.Errorf("%d commands want an argument; analytics export and contacts search do", takesArgs)
	}
}

// requiredPlaceholder reports whether a Use line names a required positional argument: an
// upper-case word after the name, outside [optional] groups, before the first flag.
func requiredPlaceholder(use string) bool {
	fields := strings.Fields(use)
	depth := 0
	for _, f := range fields[1:] {
		if depth == 0 && strings.HasPrefix(f, "-") {
			return false
		}
		if depth == 0 && !strings.HasPrefix(f, "[") && f == strings.ToUpper(f) {
			return true
		}
		depth += strings.Count(f, "[") - strings.Count(f, "]")
	}
	return false
}

// What the user sees, from the binary: the message on stderr, exit status 1, nothing on
// stdout and no request made (no API is configured).
func TestMissingArgumentFromTheBinary(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"analytics", "export", "--from", "30d", "--to", "today"}, []string{
			"parley: missing METRIC (parley analytics metrics lists them)\n",
			"usage: parley analytics export METRIC --from DATE --to DATE [flags]\n",
			"example:\n  parley analytics export um_conversation_duration --from 30d --to today\n"}},
		{[]string{"contacts", "search"}, []string{
			"parley: missing QUERY (one or more keywords)\n",
			"usage: parley contacts search QUERY... [flags]\n",
			"example:\n  parley contacts search berlin\n"}},
		{[]string{"analytics", "export", "um_conversation_duration", "extra", "--from", "30d", "--to", "today"}, []string{
			"parley: parley analytics export takes one METRIC, got 2 arguments (not repeated here)\n",
			"usage: parley analytics export METRIC"}},
	} {
		r := runParley(t, bin, headlessEnv(t), "", c.args...)
		if r.err == nil || r.stdout != "" {
			t.Errorf("parley %v: %v, stdout %q", c.args, r.err, r.stdout)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("parley %v: stderr lacks %q:\n%s", c.args, w, r.stderr)
			}
		}
		if strings.Contains(r.stderr, "arg(s)") {
			t.Errorf("parley %v: cobra's text:\n%s", c.args, r.stderr)
		}
	}
}

// Every command with a required flag answers a missing one with what is missing, its usage
// line and an example, never with cobra's bare `required flag(s) "from", "to" not set`.
func TestEveryCommandSaysWhatFlagIsMissing(t *testing.T) {
	root := newRootCmd("test")
	var withRequired []string
	eachCmd(root, func(cmd *cobra.Command) {
		var required []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if v := f.Annotations[cobra.BashCompOneRequiredFlag]; len(v) > 0 && v[0] == "true" {
				required = append(required, "--"+f.Name)
			}
		})
		if len(required) == 0 {
			return
		}
		path := cmd.CommandPath()
		withRequired = append(withRequired, path)
		if cmd.PreRunE == nil {
			t.Errorf("%s: a missing %v is left to cobra's bare error", path, required)
			return
		}
		err := cmd.PreRunE(cmd, nil)
		if err == nil {
			t.Errorf("%s: nothing said with %v missing", path, required)
			return
		}
		msg := err.Error()
		for _, want := range append(required, "missing ", "\nusage: "+cmd.UseLine(), "\nexample:\n  "+path+" ") {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the error lacks %q:\n%s", path, want, msg)
			}
		}
	})
	if !slices.Contains(withRequired, "parley analytics export") {
		t.Errorf("commands with required flags: %v; analytics export has --from and --to", withRequired)
	}
}
