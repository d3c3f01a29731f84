package keymap

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// readmeRow is one row of the README's key table.
type readmeRow struct {
	line               int
	keys, action, help string
}

// readmeKeyTable reads the rows of the key tables (header "| keys | action | help | more |")
// in the README's Keys section.
func readmeKeyTable(t *testing.T, readme string) []readmeRow {
	t.Helper()
	lines := strings.Split(readme, "\n")
	start := -1
	for i, l := range lines {
		if l == "## Keys" {
			start = i
		}
	}
	if start < 0 {
		t.Fatal("the README has no \"## Keys\" section")
	}
	code := regexp.MustCompile("`([^`]+)`")
	var rows []readmeRow
	inTable := false
	for i := start + 1; i < len(lines) && !strings.HasPrefix(lines[i], "## "); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "| keys | action | help | more |":
			inTable = true
			continue
		case !strings.HasPrefix(l, "|"):
			inTable = false
			continue
		case !inTable || strings.HasPrefix(l, "|---"):
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), " | ")
		if len(cells) < 4 {
			t.Errorf("README line %d: a key table row without four cells: %q", i+1, l)
			continue
		}
		var keys []string
		for _, m := range code.FindAllStringSubmatch(cells[0], -1) {
			keys = append(keys, m[1])
		}
		action := strings.TrimSpace(cells[1])
		if m := code.FindStringSubmatch(action); m != nil {
			action = m[1]
		}
		rows = append(rows, readmeRow{line: i + 1, keys: strings.Join(keys, "/"), action: action, help: strings.TrimSpace(cells[2])})
	}
	return rows
}

// The README's key table lists every binding of the key map, with its keys as help shows
// them and its help text, under the action name the config file rebinds it with ("—" for
// ctrl+c, which cannot be rebound), and nothing else.
func TestREADMEKeyTableMatchesTheKeyMap(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range keyTableProblems(Default(), readmeKeyTable(t, string(b))) {
		t.Error(p)
	}
}

// keyTableProblems lists every difference between k and rows.
func keyTableProblems(k *KeyMap, rows []readmeRow) []string {
	if len(rows) == 0 {
		return []string{"no key table found under \"## Keys\" (header \"| keys | action | help | more |\")"}
	}
	var probs []string
	errorf := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	byAction := map[string]readmeRow{}
	for _, r := range rows {
		if prev, dup := byAction[r.action]; dup {
			errorf("README lines %d and %d: action %q listed twice", prev.line, r.line, r.action)
		}
		byAction[r.action] = r
	}
	v := reflect.ValueOf(k).Elem()
	want := map[string]bool{}
	for i := range v.NumField() {
		field := v.Type().Field(i).Name
		b, ok := v.Field(i).Addr().Interface().(*key.Binding)
		if !ok {
			continue
		}
		action := "—"
		for _, a := range Actions() {
			if k.binding(a) == b {
				action = a
			}
		}
		want[action] = true
		r, ok := byAction[action]
		switch {
		case !ok:
			errorf("the README's key table has no row for %s (action %q, keys %q, help %q)", field, action, b.Help().Key, b.Help().Desc)
		case r.keys != b.Help().Key:
			errorf("README line %d: %s's keys are %q, the key map's %q", r.line, action, r.keys, b.Help().Key)
		case r.help != b.Help().Desc:
			errorf("README line %d: %s's help is %q, the key map's %q", r.line, action, r.help, b.Help().Desc)
		}
	}
	for _, r := range rows {
		if !want[r.action] {
			errorf("README line %d: %q is no binding of the key map", r.line, r.action)
		}
	}
	return probs
}

// The check fails on drift: a changed key, a changed help text, a row too many, a row
// missing.
func TestKeyTableCheckFailsOnDrift(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeKeyTable(t, string(b))
	changes := map[string]func([]readmeRow) []readmeRow{
		"a key":   func(r []readmeRow) []readmeRow { r[0].keys = "Q"; return r },
		"help":    func(r []readmeRow) []readmeRow { r[1].help = "halp"; return r },
		"a row +": func(r []readmeRow) []readmeRow { return append(r, readmeRow{action: "fly", keys: "F", help: "fly"}) },
		"a row -": func(r []readmeRow) []readmeRow { return r[1:] },
	}
	for what, change := range changes {
		if len(keyTableProblems(Default(), change(append([]readmeRow(nil), rows...)))) == 0 {
			t.Errorf("a README with %s changed passes", what)
		}
	}
}
