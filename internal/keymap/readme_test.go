package keymap

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the key table of docs/keys.md from the table")

// keysDoc is the page of the key table, from this package's directory; docsDir the
// directory of the pages its links may point to.
var (
	keysDoc = filepath.Join("..", "..", "docs", "keys.md")
	docsDir = filepath.Join("..", "..", "docs")
)

// keyTableHeader is the header of the key table of docs/keys.md.
const keyTableHeader = "| keys | action | help | more |\n|---|---|---|---|\n"

// markdownTable is the key table of docs/keys.md: a row per entry, in the table's order,
// with its default keys as help shows them, the action name the config file rebinds it
// with ("—" for one that cannot be rebound), its help text and its doc.
func markdownTable() string {
	var b strings.Builder
	b.WriteString(keyTableHeader)
	for _, s := range table {
		b.WriteString("| " + keysCell(s) + " | " + actionCell(s) + " | " + s.Help + " |")
		if s.Doc != "" {
			b.WriteString(" " + s.Doc)
		}
		b.WriteString(" |\n")
	}
	return b.String()
}

// keysCell is an entry's default keys as help shows them, each in backticks, joined by /.
func keysCell(s Spec) string {
	keys := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		keys[i] = "`" + HelpKeys([]string{k}) + "`"
	}
	return strings.Join(keys, "/")
}

// actionCell is the action name the config file rebinds an entry with, in backticks, or
// "—" for one that cannot be rebound.
func actionCell(s Spec) string {
	if s.Fixed {
		return "—"
	}
	return "`" + s.Name + "`"
}

// anchorLink is a link to a heading of the same page: [text](#anchor).
var anchorLink = regexp.MustCompile(`\]\(#([^)\s]+)\)`)

// headingAnchors are the anchors of a markdown page's headings, outside code blocks, as
// GitHub makes them: lower case, punctuation other than - and _ dropped, spaces as -.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	punct := regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
	fence := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && !fence && strings.HasPrefix(line, "#") {
			h = punct.ReplaceAllString(strings.ToLower(strings.TrimSpace(h)), "")
			anchors[strings.ReplaceAll(h, " ", "-")] = true
		}
	}
	return anchors
}

// resolveAnchors points the table's links to headings ("see [Saved views](#saved-views)")
// at the page of docs/ that has the heading, relative to docs/keys.md, unless the keys
// page has it itself. A heading no page has, or several have, is an error.
func resolveAnchors(t *testing.T, tbl, keysPage string) string {
	t.Helper()
	own := headingAnchors(keysPage)
	pages := map[string]map[string]bool{} // path relative to docs/ → anchors
	err := filepath.WalkDir(docsDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(docsDir, path)
		if err != nil {
			return err
		}
		pages[filepath.ToSlash(rel)] = headingAnchors(string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return anchorLink.ReplaceAllStringFunc(tbl, func(link string) string {
		anchor := anchorLink.FindStringSubmatch(link)[1]
		if own[anchor] {
			return link
		}
		var found []string
		for page, anchors := range pages {
			if page != "keys.md" && anchors[anchor] {
				found = append(found, page)
			}
		}
		if len(found) != 1 {
			t.Errorf("the key table links to #%s, which %d pages of docs/ have as a heading: %v", anchor, len(found), found)
			return link
		}
		return "](" + found[0] + "#" + anchor + ")"
	})
}

// keyTable cuts docs/keys.md around its key table (the first table of the "## Keys"
// section with keyTableHeader): before, the table, after.
func keyTable(t *testing.T, page string) (before, tbl, after string) {
	t.Helper()
	sec := strings.Index(page, "\n## Keys\n")
	if sec < 0 {
		t.Fatal(`docs/keys.md has no "## Keys" section`)
	}
	start := strings.Index(page[sec:], "\n"+keyTableHeader)
	if start < 0 {
		t.Fatalf("no key table under \"## Keys\" (header %q)", keyTableHeader)
	}
	start += sec + 1
	end := start
	for end < len(page) && page[end] == '|' {
		nl := strings.IndexByte(page[end:], '\n')
		if nl < 0 {
			end = len(page)
			break
		}
		end += nl + 1
	}
	return page[:start], page[start:end], page[end:]
}

// The key table of docs/keys.md (the README's keys, in full) is the table: every action
// with its keys, name, help and doc, in the table's order, its links to headings pointing
// at the page that has them. `go test ./internal/keymap -run README -update` writes it.
func TestREADMEKeyTableIsTheTable(t *testing.T) {
	b, err := os.ReadFile(keysDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, got, after := keyTable(t, string(b))
	want := resolveAnchors(t, markdownTable(), string(b))
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(keysDoc, []byte(before+want+after), 0o644); err != nil {
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
			t.Errorf("docs/keys.md key table row %d:\n got  %q\n want %q", i+1, g, w)
		}
	}
	t.Error("the key table of docs/keys.md differs from the table: go test ./internal/keymap -run README -update writes it")
}

// summaryHeader is the header of the README's summary of the keys most used.
const summaryHeader = "| keys | action | what |\n|---|---|---|\n"

// The README's summary of the keys most used names each action with its default keys as
// the table has them, so a changed default fails here instead of leaving the README wrong.
func TestREADMEKeySummaryIsTheTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "\n"+summaryHeader)
	if start < 0 {
		t.Fatalf("the README has no key summary (header %q)", summaryHeader)
	}
	rows := 0
	for line := range strings.SplitSeq(readme[start+1+len(summaryHeader):], "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(line, " | ")
		if len(cells) < 3 {
			t.Errorf("README key summary row %q: not | keys | action | what |", line)
			continue
		}
		keys, action := strings.TrimPrefix(cells[0], "| "), cells[1]
		var want []string // the keys of the entries of that action ("—": every fixed one)
		for _, s := range table {
			if actionCell(s) == action {
				want = append(want, keysCell(s))
			}
		}
		switch {
		case len(want) == 0:
			t.Errorf("README key summary row %q: no action %s in the table", line, action)
		case !slices.Contains(want, keys):
			t.Errorf("README key summary: %s is %s, the table says %s", action, keys, strings.Join(want, " or "))
		}
		rows++
	}
	if rows == 0 {
		t.Error("the README's key summary has no row")
	}
}
