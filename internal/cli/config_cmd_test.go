package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/config"
)

// settingSpan is an inline YAML setting of the docs ("`keys: {…}`", "`theme: mono`").
var settingSpan = regexp.MustCompile("`((?:" + strings.Join([]string{config.KeyBaseURL, config.KeyOrganizationID,
	config.KeyOperatorID, config.KeyTheme, config.KeyRefreshInterval, config.KeyPageSize, config.KeyRequestBudget,
	config.KeyTeamSize, config.KeyRequestTimeout, config.KeyKeys}, "|") + "): [^`]+)`")

// viewsBlock is an example of saved views in the docs: a fenced YAML block of a views:
// section.
var viewsBlock = regexp.MustCompile("(?s)```yaml\n(" + config.KeyViews + ":\n.*?)```")

// commentedSetting is a setting line of the "config init" example, without its "# ".
var commentedSetting = regexp.MustCompile(`^ *(- )?[a-z_]+:( |$)`)

// docsText is the README and every page of docs/, one after the other.
func docsText(t *testing.T) string {
	t.Helper()
	root := filepath.Join("..", "..")
	paths := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}

// Every config example a user may copy loads as parley loads it at start-up ("config path"
// checks the file and the key bindings): the inline settings of the README and docs/, their
// examples of saved views, and the example of "config init" with every setting uncommented.
func TestConfigExamplesLoad(t *testing.T) {
	docs := docsText(t)
	var examples []string
	for _, m := range settingSpan.FindAllStringSubmatch(docs, -1) {
		examples = append(examples, m[1]+"\n")
	}
	if !slices.ContainsFunc(examples, func(e string) bool { return strings.HasPrefix(e, "keys: ") }) {
		t.Fatalf("no keys example found in the docs: %q", examples)
	}
	views := viewsBlock.FindAllStringSubmatch(docs, -1)
	if len(views) == 0 {
		t.Fatal("no views example found in the docs")
	}
	for _, m := range views {
		examples = append(examples, m[1])
	}
	var uncommented []string
	for _, l := range strings.Split(string(config.Example()), "\n") {
		if rest, ok := strings.CutPrefix(l, "# "); ok && commentedSetting.MatchString(rest) {
			uncommented = append(uncommented, rest)
		}
	}
	examples = append(examples, strings.Join(uncommented, "\n")+"\n")
	for _, ex := range examples {
		env := writeTestConfig(t, ex)
		if _, _, err := runAuth(t, env, "", "config", "path"); err != nil {
			t.Errorf("example does not load:\n%s%v", ex, err)
		}
	}
}

// A key clash with a default binding names the config line of the rebound action, and a
// clash that happens on several screens is reported once.
func TestConfigKeyConflictNamesLineOnce(t *testing.T) {
	cases := []struct{ file, want string }{
		{"theme: dark\nkeys:\n  metric: d\n", `:3: keys.metric: key "d" is also bound to "range" (default) on the analytics screen`},
		{"keys:\n  refresh: j\n", `:2: keys.refresh: key "j" is also bound to "down" (default) on the list screens and on the analytics screen`},
		{"keys: {down: [j, n]}\n", `:1: keys.down: key "n" is also bound to "note" (default) on the list screens`},
	}
	for _, c := range cases {
		env := writeTestConfig(t, c.file)
		path := filepath.Join(env["XDG_CONFIG_HOME"], "parley", "config.yaml")
		_, _, err := runAuth(t, env, "", "config", "path")
		if err == nil {
			t.Errorf("%q: loaded", c.file)
			continue
		}
		if !strings.Contains(err.Error(), path+c.want) || strings.Count(err.Error(), "keys.") != 1 {
			t.Errorf("%q:\ngot  %v\nwant one problem: %s%s", c.file, err, path, c.want)
		}
	}
}

// `parley config --help` quotes the agent day of the table "Requests per agent-shift" of
// docs/budget.md (its whole-day conversations figure), not a figure of its own.
func TestConfigHelpQuotesTheDocsAgentDay(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "budget.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\n\| whole day \(the UTC day\) \| ([0-9]+) \|`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/budget.md has no whole-day row in \"Requests per agent-shift\"")
	}
	help := strings.Join(strings.Fields(newConfigCmdWith(&globalFlags{}, func(string) string { return "" }).Long), " ")
	want := "spends about " + string(m[1]) + " conversations requests"
	if !strings.Contains(help, want) {
		t.Fatalf("config --help does not say %q:\n%s", want, help)
	}
}
