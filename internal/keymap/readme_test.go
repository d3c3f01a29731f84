package keymap

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's key table from the table")

// keyTableHeader is the header of the README's key table.
const keyTableHeader = "| keys | action | help | more |\n|---|---|---|---|\n"

// markdownTable is the README's key table: a row per entry, in the table's order, with its
// default keys as help shows them, the action name the config file rebinds it with ("—"
// for one that cannot be rebound), its help text and its doc.
func markdownTable() string {
	var b strings.Builder
	b.WriteString(keyTableHeader)
	for _, s := range table {
		keys := make([]string, len(s.Keys))
		for i, k := range s.Keys {
			keys[i] = "`" + HelpKeys([]string{k}) + "`"
		}
		action := "`" + s.Name + "`"
		if s.Fixed {
			action = "—"
		}
		b.WriteString("| " + strings.Join(keys, "/") + " | " + action + " | " + s.Help + " |")
		if s.Doc != "" {
			b.WriteString(" " + s.Doc)
		}
		b.WriteString(" |\n")
	}
	return b.String()
}

// readmeKeyTable cuts the README around its key table (the first table of the "## Keys"
// section with keyTableHeader): before, the table, after.
func readmeKeyTable(t *testing.T, readme string) (before, tbl, after string) {
	t.Helper()
	sec := strings.Index(readme, "\n## Keys\n")
	if sec < 0 {
		t.Fatal(`the README has no "## Keys" section`)
	}
	start := strings.Index(readme[sec:], "\n"+keyTableHeader)
	if start < 0 {
		t.Fatalf("no key table under \"## Keys\" (header %q)", keyTableHeader)
	}
	start += sec + 1
	end := start
	for end < len(readme) && readme[end] == '|' {
		nl := strings.IndexByte(readme[end:], '\n')
		if nl < 0 {
			end = len(readme)
			break
		}
		end += nl + 1
	}
	return readme[:start], readme[start:end], readme[end:]
}

// The README's key table is the table: every action with its keys, name, help and doc, in
// the table's order. `go test ./internal/keymap -run README -update` writes it.
func TestREADMEKeyTableIsTheTable(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, got, after := readmeKeyTable(t, string(b))
	want := markdownTable()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(before+want+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("README key table row %d:\n got  %q\n want %q", i+1, g, w)
		}
	}
	t.Error("the README's key table differs from the table: go test ./internal/keymap -run README -update writes it")
}
