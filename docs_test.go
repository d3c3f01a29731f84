package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink is a markdown link's target: [text](target), outside code.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// mdHeading is a heading line.
var mdHeading = regexp.MustCompile(`^#{1,6} (.*)$`)

// anchorOf is GitHub's anchor of a heading: lower case, punctuation other than - and _
// dropped, spaces as -.
func anchorOf(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`).ReplaceAllString(h, "")
	return strings.ReplaceAll(h, " ", "-")
}

// mdDoc is a markdown file's anchors and link targets, code blocks and spans left out.
type mdDoc struct {
	anchors map[string]bool
	links   []string
}

func readMD(t *testing.T, path string) mdDoc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := mdDoc{anchors: map[string]bool{}}
	fence := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := mdHeading.FindStringSubmatch(line); m != nil {
			a := anchorOf(m[1])
			for n := 1; d.anchors[a]; n++ { // GitHub numbers a repeated heading's anchor
				a = anchorOf(m[1]) + "-" + string(rune('0'+n))
			}
			d.anchors[a] = true
		}
		line = regexp.MustCompile("`[^`]*`").ReplaceAllString(line, "")
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			d.links = append(d.links, m[1])
		}
	}
	return d
}

// Every link of the repository's documents resolves: a file it names exists, and a
// heading it names is in that file.
func TestDocLinksResolve(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "*.md").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	docs := map[string]mdDoc{}
	files := strings.Fields(string(out))
	for _, f := range files {
		docs[f] = readMD(t, f)
	}
	checked := 0
	for _, f := range files {
		for _, l := range docs[f].links {
			if regexp.MustCompile(`^[a-z]+:`).MatchString(l) {
				continue
			}
			path, frag, _ := strings.Cut(l, "#")
			target := f
			if path != "" {
				target = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(f), path)))
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s: link %q: no file %s", f, l, target)
					continue
				}
			}
			if frag != "" {
				d, ok := docs[target]
				if !ok {
					t.Errorf("%s: link %q: %s is not a markdown file of the repository", f, l, target)
				} else if !d.anchors[frag] {
					t.Errorf("%s: link %q: no heading #%s in %s", f, l, frag, target)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no link checked")
	}
}
