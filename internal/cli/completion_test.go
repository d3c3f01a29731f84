package cli

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sandbox"
)

// complete runs the shell's completion request (`parley __complete ARGS… WORD`) and returns
// the values offered (without descriptions) and the directive line.
func complete(t *testing.T, args ...string) (values []string, directive string) {
	t.Helper()
	out, err := runRoot(t, append([]string{"__complete"}, args...)...)
	if err != nil {
		t.Fatalf("__complete %q: %v", args, err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	directive = lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, directive
}

// noFileComp is cobra's directive line for "offer these and no file names".
const noFileComp = ":4"

// The shells' completion requests complete every flag value parley knows: metric names,
// statuses, operator modes, formats, sandbox sizes and variants, the time flags' words;
// commands without arguments offer no file names; the old --read-only is not offered.
func TestShellCompletionValues(t *testing.T) {
	var metrics []string
	for _, m := range client.Metrics {
		metrics = append(metrics, string(m.Metric))
	}
	var variants []string
	for _, v := range sandbox.Variants() {
		variants = append(variants, string(v.Name))
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"analytics", "export", "um_"}, metrics},
		{[]string{"analytics", "export", "um_operator_"}, filter(metrics, "um_operator_")},
		{[]string{"analytics", "export", "um_conversation_duration", ""}, []string{"--from", "--to"}}, // the required flags
		{[]string{"analytics", "export", "um_conversation_duration", "--mode", ""}, []string{"human", "bot"}},
		{[]string{"analytics", "export", "um_conversation_duration", "--format", ""}, []string{"csv", "json"}},
		{[]string{"analytics", "export", "um_conversation_duration", "--from", ""}, []string{"today", "yesterday", "now", "12h", "7d", "30d", "90d"}},
		{[]string{"analytics", "export", "um_conversation_duration", "--to", "y"}, []string{"yesterday"}},
		{[]string{"conversations", "export", "--status", ""}, []string{"new", "pending", "ended"}},
		{[]string{"conversations", "export", "--status", "p"}, []string{"pending"}},
		{[]string{"conversations", "export", "--updated-from", ""}, []string{"today", "yesterday", "now", "12h", "7d", "30d", "90d"}},
		{[]string{"sandbox", "--size", ""}, []string{"small", "medium", "large"}},
		{[]string{"sandbox", "--variant", ""}, variants},
		{[]string{"sandbox", ""}, nil},
		{[]string{"contacts", "search", ""}, nil},
		{[]string{"--readonly", ""}, nil},
		{[]string{"--re"}, []string{"--readonly"}},
		{[]string{"completion", ""}, []string{"bash", "fish", "powershell", "zsh"}},
		{[]string{"contacts", "upsert", "--identifier", ""}, client.Identifiers},
		{[]string{"contacts", "update", ""}, nil},
		{[]string{"contacts", "update", "7", "--country", ""}, nil},
		{[]string{"conversations", "end", ""}, nil},
		{[]string{"conversations", "topics", "7", "--add", ""}, nil},
		{[]string{"notes", "add", ""}, nil},
	} {
		got, dir := complete(t, c.args...)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: offered %q, want %q", c.args, got, c.want)
		}
		if dir != noFileComp {
			t.Errorf("%q: directive %s, want %s (no file names)", c.args, dir, noFileComp)
		}
	}
	// Commands are completed from the root, completion among them.
	got, _ := complete(t, "")
	for _, want := range []string{"analytics", "auth", "completion", "config", "contacts", "conversations", "notes", "operators", "sandbox", "serve"} {
		if !slices.Contains(got, want) {
			t.Errorf("the root offers %q, without %q", got, want)
		}
	}
	// An output file is a file name.
	if _, dir := complete(t, "analytics", "export", "um_conversation_duration", "-o", ""); dir == noFileComp {
		t.Errorf("-o offers no file names")
	}
}

func filter(list []string, prefix string) []string {
	var out []string
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// parley completion writes each shell's script; a missing or unknown shell is an error
// with the usage and nothing on stdout (a redirect must not save the help as a script),
// and the unknown word is not repeated.
func TestCompletionScripts(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	for shell, want := range map[string]string{"bash": "# bash completion V2 for parley", "zsh": "#compdef parley", "fish": "# fish completion for parley"} {
		r := runParley(t, bin, headlessEnv(t), "", "completion", shell)
		if r.err != nil || !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, "__complete") || r.stderr != "" {
			t.Errorf("completion %s: %v, %.80q, stderr %q", shell, r.err, r.stdout, r.stderr)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "cust_pasted_token_0123"}} {
		out, err := runRoot(t, args...)
		if err == nil || out != "" {
			t.Fatalf("%q: %v, stdout %.80q", args, err, out)
		}
		msg := err.Error()
		if !strings.Contains(msg, "usage: parley completion SHELL") || !strings.Contains(msg, "bash, fish, powershell, zsh") || strings.Contains(msg, "cust_") {
			t.Errorf("%q: %s", args, msg)
		}
	}
}

// An operator id (assign --assignee, operators away) is completed from the organization's
// operator list, one read, each with its name, role and away status.
func TestOperatorIDCompletion(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := smallSandbox(t)
	ops, err := viewtest.Client(t, sb).AllOperators(t.Context())
	if err != nil || len(ops) == 0 {
		t.Fatalf("operators: %v", err)
	}
	for _, args := range [][]string{
		{"__complete", "conversations", "assign", "12", "--assignee", ""},
		{"__complete", "operators", "away", "--on", ""},
	} {
		r := runParley(t, bin, apiEnv(t, sb), "", args...)
		if r.err != nil {
			t.Fatalf("%q: %v\n%s", args, r.err, r.stderr)
		}
		lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
		if dir := lines[len(lines)-1]; dir != noFileComp || len(lines)-1 != len(ops) {
			t.Fatalf("%q: %d offered, directive %s; want %d operators\n%s", args, len(lines)-1, dir, len(ops), r.stdout)
		}
		for i, o := range ops {
			id, desc, _ := strings.Cut(lines[i], "\t")
			if id != strconv.FormatInt(o.ID, 10) || !strings.Contains(desc, o.Role) || !strings.Contains(desc, writes.AwayWord(o.IsAway.V)) {
				t.Errorf("%q: offered %q for operator %d (%s)", args, lines[i], o.ID, o.Role)
			}
		}
	}
	// Without an API that answers, nothing is offered, and no file names.
	env := append(headlessEnv(t), "PARLEY_BASE_URL=http://127.0.0.1:9", "PARLEY_TOKEN=x")
	r := runParley(t, bin, env, "", "__complete", "operators", "away", "--on", "")
	if r.err != nil || strings.TrimSpace(r.stdout) != noFileComp {
		t.Fatalf("unreachable API: %v\n%s", r.err, r.stdout)
	}
}
