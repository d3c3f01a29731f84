package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestParseFull(t *testing.T) {
	data := `base_url: https://API.example.com/api/um/v3/
organization_id: 12
operator_id: "3"
theme: Dark
refresh_interval: 2m
page_size: 50
request_budget: 800
keys:
  quit: q
  refresh: [r, f5]
  help: []
`
	c, err := Parse([]byte(data), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	two := 2 * time.Minute
	want := Config{
		Path: "c.yaml", BaseURL: "https://api.example.com", OrganizationID: "12", OperatorID: "3",
		Theme: ThemeDark, RefreshInterval: &two, PageSize: 50, RequestBudget: 800,
		Keys:     map[string][]string{"quit": {"q"}, "refresh": {"r", "f5"}, "help": {}},
		KeyLines: map[string]int{"quit": 9, "refresh": 10, "help": 11},
	}
	if !sameValues(c, want) || !reflect.DeepEqual(c.KeyLines, want.KeyLines) {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	if c.Lines[KeyTheme] != 4 {
		t.Errorf("theme line = %d, want 4", c.Lines[KeyTheme])
	}
}

func TestParseProblemsCarryLines(t *testing.T) {
	data := `base_url: ftp://x
them: dark
page_size: 101
refresh_interval: 2s
organization_id: abc
request_budget: 0
colour: red
theme: neon
keys:
  quit: {a: b}
page_size: 5
`
	_, err := Parse([]byte(data), "c.yaml")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		`c.yaml:1: base_url: the URL must start with https://`,
		`c.yaml:2: unknown key "them" (did you mean "theme"?)`,
		`c.yaml:3: page_size: 101 is out of range (1 to 100)`,
		`c.yaml:4: refresh_interval: "2s" is out of range`,
		`c.yaml:5: organization_id: not a positive integer id`,
		`c.yaml:6: request_budget: 0 is out of range`,
		`c.yaml:7: unknown key "colour" (known keys: base_url,`,
		`c.yaml:8: theme: "neon" is not a theme`,
		`c.yaml:10: keys: quit must be a key or a list of keys`,
		`c.yaml:11: page_size is set twice (first on line 3)`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in\n%s", want, msg)
		}
	}
}

// Every YAML syntax error names the line it is on (and the column where parley can tell),
// a tab in the indentation says so and what to do, and the other messages stay yaml.v3's.
// yaml.v3 alone gives no line for a problem on line 1, the line before for parser errors,
// the line a value starts on for a tab further down, and nothing for bytes that are not text.
func TestParseSyntaxErrorHasLine(t *testing.T) {
	const tab = "a tab indents this line; YAML indents with spaces"
	for _, c := range []struct{ data, want string }{
		{"theme: dark\nkeys: [a\n", "c.yaml:2: did not find expected ',' or ']'"},
		{"theme: dark\n\n\n\n\n\n\tx: y\n", "c.yaml:7:1: " + tab},
		{"\ttheme: dark\n", "c.yaml:1:1: " + tab},
		{"theme: dark\nkeys:\n\tquit: q\n", "c.yaml:3:1: " + tab},
		{"theme: dark\nkeys:\n  quit: q\n\trefresh: r\n", "c.yaml:4:1: " + tab},
		{"keys:\n  quit: q\n \tr: r\n", "c.yaml:3:2: " + tab},
		{"keys:\n  quit:\n  \t- q\n", "c.yaml:3:3: " + tab},
		{"theme: dark\r\n\tkeys: x\r\n", "c.yaml:2:1: " + tab},
		{"theme: dark\nkeys: |\n\tfoo\n", "c.yaml:3:1: " + tab},
		{"a: b: c\n", "c.yaml:1: mapping values are not allowed in this context"},
		{"- a\nb: c\n", "c.yaml:2: did not find expected '-' indicator"},
		{"theme: dark\nbase_url: x\n- a\n", "c.yaml:3: did not find expected key"},
		{"theme: dark\npage_size: 1\nkeys:\n  quit: q\n r: s\n", "c.yaml:5: did not find expected key"},
		{"theme: dark\npage_size: 1\n!foo!x theme: y\n", "c.yaml:3: found undefined tag handle"},
		{"theme: dark\nx: [\n", "c.yaml:2: did not find expected node content"},
		{"theme: dark\nkeys: @x\n", "c.yaml:2: found character that cannot start any token"},
		{"%YAML 1.3\n---\na: b\n", "c.yaml:1: found incompatible YAML document"},
		{"theme: dark\nx: *a\n", "c.yaml:2:4: *a refers to no anchor &a before it"},
		{"theme: dark\n\x01\n", "c.yaml:2:1: the control character U+0001 is not allowed in YAML; remove it"},
		{"theme: dark\nkeys: \xff\n", "c.yaml:2:7: byte 0xFF is not UTF-8 text; save the file as UTF-8"},
		{"theme: \"dä\x7f\"\n", "c.yaml:1:11: the control character U+007F is not allowed in YAML; remove it"},
	} {
		_, err := Parse([]byte(c.data), "c.yaml")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\ngot  %v\nwant %s", c.data, err, c.want)
		}
	}
}

func TestParseEmptyAndNull(t *testing.T) {
	for _, data := range []string{"", "# only a comment\n", "---\n", "base_url:\ntheme: ~\n"} {
		c, err := Parse([]byte(data), "c.yaml")
		if err != nil {
			t.Errorf("%q: %v", data, err)
		}
		if c.BaseURL != "" || c.Theme != "" {
			t.Errorf("%q: values set: %+v", data, c)
		}
	}
	if _, err := Parse([]byte("- a\n- b\n"), "c.yaml"); err == nil {
		t.Error("a list at the top level must be refused")
	}
}

func TestRefreshInterval(t *testing.T) {
	for in, want := range map[string]time.Duration{"0": 0, "off": 0, "0s": 0, "30": 30 * time.Second, "1m30s": 90 * time.Second} {
		got, err := ParseRefreshInterval(in)
		if err != nil || got != want {
			t.Errorf("%q: got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1s", "-5s", "25h", "soon", "-1"} {
		if _, err := ParseRefreshInterval(in); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

func TestNormalizeBaseURL(t *testing.T) {
	ok := map[string]string{
		"https://api.example.com/":             "https://api.example.com",
		"HTTPS://Api.Example.com:8443/x/":      "https://api.example.com:8443/x",
		"http://127.0.0.1:8080/api/um/v3":      "http://127.0.0.1:8080",
		" https://api.example.com/api/um/v3/ ": "https://api.example.com",
		"https://h/p/api/um/v3/api/um//":       "https://h/p",
	}
	for in, want := range ok {
		got, err := NormalizeBaseURL(in)
		if err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "api.example.com", "ftp://x", "https://", "https://u:secret@x", "https://x?token=1", "https://x#f", "https://bad\x9fhost/"} {
		_, err := NormalizeBaseURL(in)
		if err == nil {
			t.Errorf("%q: want an error", in)
		} else if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "token=1") {
			t.Errorf("%q: error repeats a credential: %v", in, err)
		}
	}
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	d, err := Dir(env(map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}))
	if err != nil || d != filepath.Join("/x", "parley") {
		t.Errorf("got %q, %v", d, err)
	}
	d, err = Dir(env(map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/h"}))
	if err != nil || d != filepath.Join("/h", ".config", "parley") {
		t.Errorf("got %q, %v", d, err)
	}
	if _, err := Dir(env(nil)); err == nil {
		t.Error("want an error without HOME")
	}
}

func TestLoadMissingFile(t *testing.T) {
	c, err := Load(filepath.Join(t.TempDir(), "none.yaml"))
	if err != nil || c.Exists {
		t.Fatalf("got %+v, %v", c, err)
	}
}

var setting = regexp.MustCompile(`^ *(- )?[a-z_]+:( |$)`)

func TestExampleParsesToNothing(t *testing.T) {
	c, err := Parse(Example(), "example")
	if err != nil {
		t.Fatal(err)
	}
	if !sameValues(c, Config{}) {
		t.Fatalf("the example sets values: %+v", c)
	}
	// Every commented setting, uncommented, is valid.
	var lines []string
	for _, l := range strings.Split(string(Example()), "\n") {
		if rest, ok := strings.CutPrefix(l, "# "); ok && setting.MatchString(rest) {
			lines = append(lines, rest)
		}
	}
	uncommented := strings.Join(lines, "\n") + "\n"
	c, err = Parse([]byte(uncommented), "uncommented")
	if err != nil {
		t.Fatalf("%v\n%s", err, uncommented)
	}
	if c.BaseURL == "" || c.PageSize != 100 || c.TeamSize != DefaultTeamSize || c.RequestBudget != RequestBudgetFor(DefaultTeamSize) || len(c.Keys) != 2 || len(c.Views) != 4 ||
		c.Alerts.Mute != DefaultMute || c.Alerts.Notify != NotifyOff || c.MarkReadOnOpen == nil || !*c.MarkReadOnOpen {
		t.Fatalf("uncommented example: %+v\n%s", c, uncommented)
	}
}

func TestWriteExample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.yaml")
	if err := WriteExample(path, false); err != nil {
		t.Fatal(err)
	}
	if err := WriteExample(path, false); !errors.Is(err, ErrExists) {
		t.Fatalf("second write: %v", err)
	}
	if err := os.WriteFile(path, []byte("theme: dark\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteExample(path, true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != string(Example()) {
		t.Fatal("--force did not replace the file")
	}
}

func TestSetCreatesFromExample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parley", "config.yaml")
	res, err := Set(path, Setting{KeyBaseURL, "https://api.example.com/"}, Setting{KeyOrganizationID, "12"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || len(res.Changed) != 2 {
		t.Fatalf("result %+v", res)
	}
	data, _ := os.ReadFile(path)
	s := string(data)
	if !strings.Contains(s, "\nbase_url: https://api.example.com\n") || !strings.Contains(s, "\norganization_id: \"12\"\n") {
		t.Fatalf("file:\n%s", s)
	}
	if strings.Count(s, "\n") != strings.Count(example, "\n") {
		t.Fatal("the commented lines were not replaced in place")
	}
	c, err := Load(path)
	if err != nil || c.BaseURL != "https://api.example.com" || c.OrganizationID != "12" {
		t.Fatalf("got %+v, %v", c, err)
	}
}

func TestSetKeepsCommentsAndOtherValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	orig := `# my settings
theme: dark   # dark terminal
base_url: https://old.example.com # the old one
keys:
  quit: [q]   # muscle memory
`
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Set(path, Setting{KeyBaseURL, "https://new.example.com"}, Setting{KeyOperatorID, "7"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Created || len(res.Changed) != 2 {
		t.Fatalf("result %+v", res)
	}
	data, _ := os.ReadFile(path)
	want := `# my settings
theme: dark   # dark terminal
base_url: https://new.example.com # the old one
keys:
  quit: [q]   # muscle memory
operator_id: "7"
`
	if string(data) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", data, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode changed to %v", fi.Mode().Perm())
	}
	// Unchanged values do not rewrite the file.
	res, err = Set(path, Setting{KeyBaseURL, "https://new.example.com/"})
	if err != nil || len(res.Changed) != 0 {
		t.Fatalf("got %+v, %v", res, err)
	}
}

func TestSetFallsBackToNodeEdit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	orig := "{theme: dark, base_url: \"https://old.example.com\"}  # flow style\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(path, Setting{KeyBaseURL, "https://new.example.com"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.BaseURL != "https://new.example.com" || c.Theme != ThemeDark {
		t.Fatalf("got %+v, %v", c, err)
	}
}

func TestSetRefusesBrokenFileAndBadValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	orig := "them: dark\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(path, Setting{KeyBaseURL, "https://x.example.com"}); err == nil || !strings.Contains(err.Error(), ":1: unknown key") {
		t.Fatalf("got %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != orig {
		t.Fatal("a broken file was rewritten")
	}
	good := filepath.Join(t.TempDir(), "config.yaml")
	if _, err := Set(good, Setting{KeyOrganizationID, "x"}); err == nil {
		t.Fatal("want an error for a bad id")
	}
	if _, err := os.Stat(good); err == nil {
		t.Fatal("a file was created for a bad value")
	}
}

// TestReadOnly: readonly (and read_only, its earlier spelling) takes true or false, any
// case; anything else is refused with its line, named as the file spells it; unset it stays
// nil; both spellings at once are refused; Set writes readonly, or edits the read_only line
// an older file has; the example's line uncommented is valid.
func TestReadOnly(t *testing.T) {
	for _, key := range []string{"readonly", "read_only"} {
		for text, want := range map[string]bool{"true": true, "True": true, "false": false, `"true"`: true} {
			c, err := Parse([]byte("theme: dark\n"+key+": "+text+"\n"), "c.yaml")
			if err != nil || c.ReadOnly == nil || *c.ReadOnly != want {
				t.Errorf("%s: %s: %+v, %v", key, text, c.ReadOnly, err)
			}
		}
		_, err := Parse([]byte("theme: dark\n"+key+": yes please\n"), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), `c.yaml:2: `+key+`: "yes please" is not true or false`) {
			t.Errorf("%s: a bad value: %v", key, err)
		}
	}
	if c, err := Parse([]byte("theme: dark\n"), "c.yaml"); err != nil || c.ReadOnly != nil {
		t.Errorf("unset: %v, %v", c.ReadOnly, err)
	}
	_, err := Parse([]byte("read_only: true\nreadonly: false\n"), "c.yaml")
	if err == nil || !strings.Contains(err.Error(), "c.yaml:2: readonly is set twice (first on line 1; read_only is the older spelling of readonly)") {
		t.Errorf("both spellings: %v", err)
	}
	if _, err := Parse([]byte("readonly: true\nread_only: false\n"), "c.yaml"); err == nil || !strings.Contains(err.Error(), "c.yaml:2: read_only is set twice") {
		t.Errorf("both spellings, the old one second: %v", err)
	}
	if _, err := Parse([]byte("read-only: true\n"), "c.yaml"); err == nil || !strings.Contains(err.Error(), `(did you mean "readonly"?)`) {
		t.Errorf("a misspelling suggests: %v", err)
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if _, err := Set(path, Setting{KeyReadOnly, "TRUE"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.ReadOnly == nil || !*c.ReadOnly {
		t.Fatalf("after Set: %+v, %v", c.ReadOnly, err)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "\nreadonly: \"true\"\n") || strings.Contains(string(data), "\nread_only:") {
		t.Errorf("Set wrote:\n%s", data)
	}
	// An older file's read_only line is the one Set changes.
	old := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(old, []byte("# mine\nread_only: true # for lookups\ntheme: dark\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(old, Setting{KeyReadOnly, "false"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(old); string(data) != "# mine\nread_only: \"false\" # for lookups\ntheme: dark\n" {
		t.Errorf("Set on a read_only file wrote:\n%s", data)
	}
}

// TestMouse: mouse takes true or false; anything else is refused with its line; unset it
// stays nil (the TUI leaves the mouse to the terminal); Set writes it, keeping the file.
func TestMouse(t *testing.T) {
	for text, want := range map[string]bool{"true": true, "False": false} {
		c, err := Parse([]byte("theme: dark\nmouse: "+text+"\n"), "c.yaml")
		if err != nil || c.Mouse == nil || *c.Mouse != want {
			t.Errorf("mouse: %s: %+v, %v", text, c.Mouse, err)
		}
	}
	if c, err := Parse([]byte("theme: dark\n"), "c.yaml"); err != nil || c.Mouse != nil {
		t.Errorf("unset: %v, %v", c.Mouse, err)
	}
	_, err := Parse([]byte("theme: dark\nmouse: clicky\n"), "c.yaml")
	if err == nil || !strings.Contains(err.Error(), `c.yaml:2: mouse: "clicky" is not true or false`) {
		t.Errorf("a bad value: %v", err)
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("# mine\ntheme: dark\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(path, Setting{KeyMouse, "true"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.Mouse == nil || !*c.Mouse {
		t.Fatalf("after Set: %+v, %v", c.Mouse, err)
	}
	if data, _ := os.ReadFile(path); !strings.HasPrefix(string(data), "# mine\ntheme: dark\n") {
		t.Errorf("Set wrote:\n%s", data)
	}
}

// A file saved as UTF-16 is refused on its first line, saying so: yaml.v3 counts the lines
// of the decoded text (U+2028 ends a line there, not in the file), so its line numbers were
// wrong, and parley's edits write UTF-8 into the file.
func TestAUTF16FileIsRefusedSayingSo(t *testing.T) {
	for _, data := range []string{
		"\xfe\xff(00",
		// theme: dark U+2028 U+2028 keys: [ — yaml.v3 found the problem on line 3.
		"\xfe\xff\x00t\x00h\x00e\x00m\x00e\x00:\x00 \x00d\x00a\x00r\x00k\x20\x28\x20\x28\x00k\x00e\x00y\x00s\x00:\x00 \x00[\x00\n",
		"\xff\xfet\x00h\x00e\x00m\x00e\x00:\x00 \x00d\x00a\x00r\x00k\x00\n\x00",
	} {
		_, err := Parse([]byte(data), "config.yaml")
		want := "config.yaml:1: the file is UTF-16 text (it starts with a UTF-16 byte order mark); parley reads and writes its config as UTF-8: save it as UTF-8"
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v", data, err)
		}
	}
	if _, err := Parse([]byte("\xef\xbb\xbftheme: dark\n"), "config.yaml"); err != nil {
		t.Errorf("UTF-8 with a byte order mark: %v", err)
	}
}

// TestHyperlinks: hyperlinks takes auto, on or off (true and false too, whatever the case);
// anything else is refused with its line; unset it stays "" (auto applies).
func TestHyperlinks(t *testing.T) {
	for text, want := range map[string]Hyperlinks{"auto": HyperlinksAuto, "On": HyperlinksOn, "off": HyperlinksOff,
		"true": HyperlinksOn, "FALSE": HyperlinksOff} {
		c, err := Parse([]byte("theme: dark\nhyperlinks: "+text+"\n"), "c.yaml")
		if err != nil || c.Hyperlinks != want {
			t.Errorf("hyperlinks: %s: %q, %v", text, c.Hyperlinks, err)
		}
	}
	if c, err := Parse([]byte("theme: dark\n"), "c.yaml"); err != nil || c.Hyperlinks != "" {
		t.Errorf("unset: %q, %v", c.Hyperlinks, err)
	}
	_, err := Parse([]byte("theme: dark\nhyperlinks: sometimes\n"), "c.yaml")
	if err == nil || !strings.Contains(err.Error(), `c.yaml:2: hyperlinks: "sometimes" is not auto, on or off`) {
		t.Errorf("a bad value: %v", err)
	}
}
