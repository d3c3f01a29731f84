package config

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// The seeds run as regression tests in every `go test`; -fuzz explores from them.
var configSeeds = []string{
	"",
	"# only a comment\n",
	"---\n",
	"base_url: https://API.example.com/api/um/v3/\norganization_id: 12\noperator_id: \"3\"\ntheme: Dark\n" +
		"refresh_interval: 2m\npage_size: 50\nrequest_budget: 800\nkeys:\n  quit: q\n  refresh: [r, f5]\n  help: []\n",
	"base_url: ftp://x\nthem: dark\npage_size: 101\nrefresh_interval: 2s\norganization_id: abc\n",
	"theme: dark\nkeys: [a\n",
	"theme: dark\n\n\n\n\n\n\tx: y\n",
	"\ttheme: dark\n",
	"theme: dark\nkeys:\n  quit: q\n\trefresh: r\n",
	"keys:\n  quit: q\n \tr: r\n",
	"theme: dark\r\n\tkeys: x\r\n",
	"theme: dark\rkeys:\r\tquit: q\r",
	"theme: dark\u0085\tkeys: x\n",
	"theme: dark\u2028keys: [a\n",
	"theme: dark\nkeys: |\n\tfoo\n",
	"a: b: c\n",
	"- a\nb: c\n",
	"theme: dark\nx: *a\n",
	"a: &x [*x]\n",
	"%YAML 1.3\n---\na: b\n",
	"theme: dark\n\x01\n",
	"theme: dark\nkeys: \xff\n",
	"\xff\xfe",
	"\xfe\xff\x00t\x00h",
	"\xfe\xff(00",
	"\xfe\xff\x00t\x00h\x00e\x00m\x00e\x00:\x00 \x00d\x00a\x00r\x00k\x20\x28\x20\x28\x00k\x00e\x00y\x00s\x00:\x00 \x00[\x00\n",
	"\xff\xfet\x00h\x00e\x00m\x00e\x00:\x00 \x00d\x00a\x00r\x00k\x00\n\x00",
	"\xef\xbb\xbftheme: dark\n",
	"theme: \"\\e[31mred\"\n",
	"keys:\n  quit: \"\\e]0;x\\a\"\n",
	"base_url: \"https://user:secret-token-123@host\"\n",
	"page_size: 99999999999999999999\n",
	"refresh_interval: 9223372036854775807\n",
	"theme: dark\ntheme: light\n",
	"keys: {quit: [q, {a: b}], help: ~}\n",
	"base_url: !!binary aGVsbG8=\n",
	"? [a]\n: b\n",
	"theme: &t dark\nbase_url: *t\n",
}

func FuzzParse(f *testing.F) {
	for _, s := range configSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "c.yaml")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: %T %v is not an *Error", data, err, err)
			}
			checkProblems(t, data, e)
			if isUTF16(data) && (len(e.Problems) != 1 || e.Problems[0] != (Problem{Line: 1, Msg: utf16Msg})) {
				t.Fatalf("%q: a UTF-16 file gets %+v", data, e.Problems)
			}
			return
		}
		if isUTF16(data) {
			t.Fatalf("%q: a UTF-16 file is read", data)
		}
		checkConfig(t, data, c)
	})
}

// checkProblems: every problem names a line of the file and, when it has one, a column on
// that line; a tab problem points at a tab that indents its line.
func checkProblems(t *testing.T, data []byte, e *Error) {
	t.Helper()
	if len(e.Problems) == 0 || len(e.Problems) > maxProblems+1 {
		t.Fatalf("%q: %d problems", data, len(e.Problems))
	}
	src := newSource(data)
	for i, p := range e.Problems {
		if i == maxProblems && p.Line == 0 && strings.HasPrefix(p.Msg, "and ") {
			continue // "and N more problems"
		}
		if p.Msg == "" {
			t.Fatalf("%q: a problem without a message", data)
		}
		if p.Line < 1 || p.Line > src.lines() {
			t.Fatalf("%q: %q is on line %d of %d", data, p.Msg, p.Line, src.lines())
		}
		if p.Column < 0 || p.Column > utf8.RuneCount(src.line(p.Line))+1 {
			t.Fatalf("%q: %q is on column %d of line %d", data, p.Msg, p.Column, p.Line)
		}
		if p.Msg == tabMsg {
			l := src.line(p.Line)
			if p.Column < 1 || l[p.Column-1] != '\t' || len(bytes.TrimLeft(l[:p.Column-1], " ")) != 0 {
				t.Fatalf("%q: the tab of line %d is not at column %d", data, p.Line, p.Column)
			}
		}
	}
	for _, line := range strings.Split(e.Error(), "\n") {
		if !strings.HasPrefix(line, "c.yaml:") {
			t.Fatalf("%q: %q does not name the file", data, line)
		}
	}
}

// checkConfig: every value read is within its limits and normalized.
func checkConfig(t *testing.T, data []byte, c Config) {
	t.Helper()
	if c.BaseURL != "" {
		if u, err := NormalizeBaseURL(c.BaseURL); err != nil || u != c.BaseURL {
			t.Fatalf("%q: base URL %q is not normalized (%q, %v)", data, c.BaseURL, u, err)
		}
	}
	for _, id := range []string{c.OrganizationID, c.OperatorID} {
		if id != "" {
			if n, err := NormalizeID(id); err != nil || n != id {
				t.Fatalf("%q: id %q is not normalized", data, id)
			}
		}
	}
	switch c.Theme {
	case "", ThemeAuto, ThemeDark, ThemeLight, ThemeMono:
	default:
		t.Fatalf("%q: theme %q", data, c.Theme)
	}
	if r := c.RefreshInterval; r != nil && *r != 0 && (*r < MinRefreshInterval || *r > MaxRefreshInterval) {
		t.Fatalf("%q: refresh interval %v", data, *r)
	}
	if c.PageSize < 0 || c.PageSize > MaxPageSize || c.RequestBudget < 0 || c.RequestBudget > MaxRequestBudget {
		t.Fatalf("%q: page size %d, budget %d", data, c.PageSize, c.RequestBudget)
	}
	lines := newSource(data).lines()
	for k, l := range c.Lines {
		if !known(k) || l < 1 || l > lines {
			t.Fatalf("%q: key %q on line %d", data, k, l)
		}
	}
	for a, keys := range c.Keys {
		if l := c.KeyLines[a]; l < 1 || l > lines {
			t.Fatalf("%q: action %q on line %d", data, a, l)
		}
		for _, k := range keys {
			if strings.TrimSpace(k) == "" {
				t.Fatalf("%q: action %q has an empty key", data, a)
			}
		}
	}
}

// The base URL and id messages never repeat the value (a token pasted there must not reach
// the screen or a log): each is one of a few fixed texts.
func FuzzNormalizeBaseURL(f *testing.F) {
	for _, s := range []string{"https://api.example.com", "https://API.example.com/api/um/v3/", "http://h:8080/p/api/um/v1/analytics",
		"ftp://x", "https://user:secret-token-123@host", "https://h/?q=1", "https://h/#f", "https://h?", "https:///p", "  https://h/  ",
		"cust_0123456789abcdef", "https://h/%zz", "https://[::1]:443/", "https://h/a b", "\x00", "https://h/\u202e",
		"https://API.example.5555555cZZZZZPZZZZZ\x9fo_/api/um/v3/api/um//", "https://h/api/um/v1/analytics/api/um/v3"} {
		f.Add(s)
	}
	fixed := map[string]bool{
		"not a valid URL": true,
		"the URL must start with https:// (or http://)": true,
		"the URL has no host":                           true,
		"the URL must not carry a user name or password (the token goes in the credentials store)": true,
		"the URL must not have a query (?…) or fragment (#…)":                                      true,
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := NormalizeBaseURL(s)
		if err != nil {
			if !fixed[err.Error()] {
				t.Fatalf("%q: unexpected message %q", s, err)
			}
		} else {
			if again, err := NormalizeBaseURL(u); err != nil || again != u {
				t.Fatalf("%q → %q → %q, %v: not stable", s, u, again, err)
			}
			if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || strings.HasSuffix(u, "/") {
				t.Fatalf("%q → %q", s, u)
			}
		}
		if _, err := NormalizeID(s); err != nil && err.Error() != "not a positive integer id" {
			t.Fatalf("%q: id message %q", s, err)
		}
	})
}

func FuzzParseRefreshInterval(f *testing.F) {
	for _, s := range []string{"0", "off", "0s", "30", "1m30s", "2s", "24h", "24h0m1s", "86400", "86401", "-5s", "5", "4",
		"9223372036854775807", "1e3", "1.5m", "0x10", " 30s ", "+30s", "300ms", "∞"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseRefreshInterval(s)
		if err != nil {
			if d != 0 {
				t.Fatalf("%q: %v with an error", s, d)
			}
			return
		}
		if d != 0 && (d < MinRefreshInterval || d > MaxRefreshInterval) {
			t.Fatalf("%q: %v is outside %v..%v", s, d, MinRefreshInterval, MaxRefreshInterval)
		}
		// What config writes back reads the same.
		if again, err := ParseRefreshInterval(d.String()); err != nil || again != d {
			t.Fatalf("%q: %v, written %q, reads back as %v, %v", s, d, d.String(), again, err)
		}
	})
}
