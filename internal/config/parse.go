package config

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The top-level keys a config file may hold.
const (
	KeyBaseURL         = "base_url"
	KeyOrganizationID  = "organization_id"
	KeyOperatorID      = "operator_id"
	KeyTheme           = "theme"
	KeyRefreshInterval = "refresh_interval"
	KeyPageSize        = "page_size"
	KeyRequestBudget   = "request_budget"
	KeyTeamSize        = "team_size"
	KeyRequestTimeout  = "request_timeout"
	KeyReadOnly        = "readonly"
	KeyMouse           = "mouse"
	KeyHyperlinks      = "hyperlinks"
	KeyKeys            = "keys"
	KeyServe           = "serve"
	KeyShiftEnd        = "shift_end"
)

var knownKeys = []string{
	KeyBaseURL, KeyOrganizationID, KeyOperatorID, KeyTheme,
	KeyRefreshInterval, KeyPageSize, KeyRequestBudget, KeyTeamSize, KeyRequestTimeout, KeyReadOnly, KeyKeys, KeyServe,
	KeyMouse, KeyHyperlinks, KeyViews, KeyAlerts, KeyMarkReadOnOpen, KeyShiftEnd,
}

// oldSpellings are keys of earlier releases, read as the key they map to and listed nowhere
// (messages and the example name the current spelling).
var oldSpellings = map[string]string{
	"read_only": KeyReadOnly,
}

// canonical is the current spelling of a key.
func canonical(name string) string {
	if cur, ok := oldSpellings[name]; ok {
		return cur
	}
	return name
}

// maxProblems caps the problems reported for one file.
const maxProblems = 20

// Parse validates data as a config file; name is used in messages. Every problem found
// (unknown keys, bad values, duplicates) is reported in one *Error, each with its line.
func Parse(data []byte, name string) (Config, error) {
	c := Config{Path: name, Lines: map[string]int{}}
	if isUTF16(data) {
		return c, &Error{Path: name, Problems: []Problem{{Line: 1, Msg: utf16Msg}}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return c, &Error{Path: name, Problems: []Problem{syntaxProblem(err, data)}}
	}
	p := parser{c: &c}
	if len(doc.Content) > 0 {
		p.document(doc.Content[0])
	}
	if len(p.problems) > 0 {
		sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Line < p.problems[j].Line })
		if len(p.problems) > maxProblems {
			n := len(p.problems) - maxProblems
			p.problems = append(p.problems[:maxProblems], Problem{Msg: fmt.Sprintf("and %d more problems", n)})
		}
		return c, &Error{Path: name, Problems: p.problems}
	}
	return c, nil
}

// utf16Msg is the problem of a file saved as UTF-16.
const utf16Msg = "the file is UTF-16 text (it starts with a UTF-16 byte order mark); parley reads and writes its config as UTF-8: save it as UTF-8"

// isUTF16 reports a file that starts with a UTF-16 byte order mark (big or little endian).
// yaml.v3 would read it, but counts its lines in the decoded text, which parley cannot map
// back to the file (a problem after U+2028 was reported on the wrong line), and parley's
// edits of the file (config set, saving a view) write UTF-8: such a file is refused as a
// whole, on its first line.
func isUTF16(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE})
}

// syntaxProblem turns a YAML syntax error ("yaml: line 3: …") into a Problem with the line
// (and, where parley can tell, the column) the problem is on. yaml.v3 reports lines
// unevenly: none for a problem on the first line, the line before for parser errors, the
// line a scalar starts on for a tab further down, and neither line nor column for a byte
// that is not text or an unknown alias. Those are worked out again from data.
func syntaxProblem(err error, data []byte) Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	reported := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, text, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				reported, msg = n, text
			}
		}
	}
	src := newSource(data)
	switch {
	case isReaderProblem(msg):
		if p, ok := src.notText(); ok {
			return p
		}
		// Not found as UTF-8: the file came as UTF-16 (yaml.v3 reads that too) and broke.
		return Problem{Line: 1, Msg: "the file is not readable text; save it as UTF-8"}
	case strings.Contains(msg, "tab character"):
		if line, col, ok := src.tabIndented(reported); ok {
			return Problem{Line: line, Column: col, Msg: tabMsg}
		}
	case msg == "found character that cannot start any token":
		// Reported on the character's own line (none when that is the first).
		line := max(reported, 1)
		if col, ok := src.tabIndent(line); ok {
			return Problem{Line: line, Column: col, Msg: tabMsg}
		}
		return Problem{Line: src.clamp(line), Msg: msg}
	case strings.HasPrefix(msg, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if line, col, ok := src.find("*" + name); ok {
			return Problem{Line: line, Column: col, Msg: fmt.Sprintf("*%s refers to no anchor &%s before it", name, name)}
		}
	}
	if parserProblems[msg] {
		// yaml.v3 counts the lines of parser errors from 0.
		return Problem{Line: src.clamp(reported + 1), Msg: msg}
	}
	return Problem{Line: src.clamp(max(reported, 1)), Msg: msg}
}

const tabMsg = "a tab indents this line; YAML indents with spaces"

// parserProblems are the messages of yaml.v3's parser (as opposed to its scanner and
// reader), whose lines it counts from 0.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found incompatible YAML document":       true,
	"found duplicate %YAML directive":        true,
	"found duplicate %TAG directive":         true,
	"found undefined tag handle":             true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
}

// isReaderProblem reports the messages of yaml.v3's reader: bytes that are not text.
func isReaderProblem(msg string) bool {
	for _, p := range []string{"control characters are not allowed", "invalid leading UTF-8 octet",
		"invalid trailing UTF-8 octet", "incomplete UTF-8 octet sequence", "invalid length of a UTF-8 sequence",
		"invalid Unicode character", "incomplete UTF-16", "expected low surrogate area", "unexpected low surrogate area"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// source is a config file split into lines as YAML splits them: at \r\n, \r, \n and
// (YAML 1.1, as yaml.v3 reads it) NEL, LS and PS.
type source struct {
	data  []byte
	start []int // byte offset of each line's start
	end   []int // byte offset of each line's end (its break excluded)
}

func newSource(data []byte) *source {
	s := &source{data: data, start: []int{0}}
	for i := 0; i < len(data); {
		n := breakLen(data[i:])
		if n == 0 {
			i++
			continue
		}
		s.end = append(s.end, i)
		i += n
		s.start = append(s.start, i)
	}
	s.end = append(s.end, len(data))
	return s
}

func breakLen(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == '\r' && b[1] == '\n':
		return 2
	case b[0] == '\r' || b[0] == '\n':
		return 1
	case len(b) >= 2 && b[0] == 0xC2 && b[1] == 0x85: // NEL
		return 2
	case len(b) >= 3 && b[0] == 0xE2 && b[1] == 0x80 && (b[2] == 0xA8 || b[2] == 0xA9): // LS, PS
		return 3
	}
	return 0
}

// lines is the number of lines with something on them: a problem "after the last line"
// (the end of the file) is on the last one.
func (s *source) lines() int {
	n := len(s.start)
	if n > 1 && s.start[n-1] == len(s.data) {
		n-- // the file ends with a line break
	}
	return n
}

func (s *source) clamp(line int) int { return min(max(line, 1), s.lines()) }

func (s *source) line(n int) []byte { return s.data[s.start[n-1]:s.end[n-1]] }

// tabIndent returns the 1-based column of the first tab among the blanks that start line n,
// when the line has more than blanks on it.
func (s *source) tabIndent(n int) (int, bool) {
	if n < 1 || n > len(s.start) {
		return 0, false
	}
	l := s.line(n)
	tab := -1
	for i, c := range l {
		switch c {
		case '\t':
			if tab < 0 {
				tab = i
			}
		case ' ':
		default:
			return tab + 1, tab >= 0
		}
	}
	return 0, false
}

// tabIndented finds the line indented with a tab that yaml.v3 complained about: the first
// at or after the reported line (which may be the line the broken value starts on), else the
// first in the file.
func (s *source) tabIndented(reported int) (line, col int, ok bool) {
	first, firstCol := 0, 0
	for n := 1; n <= len(s.start); n++ {
		if c, ok := s.tabIndent(n); ok {
			if n >= reported {
				return n, c, true
			}
			if first == 0 {
				first, firstCol = n, c
			}
		}
	}
	return first, firstCol, first > 0
}

// find returns where text first occurs, by line and 1-based column (in characters).
func (s *source) find(text string) (line, col int, ok bool) {
	for n := 1; n <= len(s.start); n++ {
		if i := bytes.Index(s.line(n), []byte(text)); i >= 0 {
			return n, utf8.RuneCount(s.line(n)[:i]) + 1, true
		}
	}
	return 0, 0, false
}

// notText finds the first byte that is not UTF-8 or the first character YAML does not allow
// (a control character other than tab and line breaks, U+FFFE, U+FFFF).
func (s *source) notText() (Problem, bool) {
	for n := 1; n <= len(s.start); n++ {
		l := s.line(n)
		for i, col := 0, 1; i < len(l); col++ {
			r, size := utf8.DecodeRune(l[i:])
			switch {
			case r == utf8.RuneError && size <= 1:
				return Problem{Line: n, Column: col, Msg: fmt.Sprintf("byte 0x%02X is not UTF-8 text; save the file as UTF-8", l[i])}, true
			case !yamlPrintable(r):
				return Problem{Line: n, Column: col, Msg: fmt.Sprintf("the control character U+%04X is not allowed in YAML; remove it", r)}, true
			}
			i += size
		}
	}
	return Problem{}, false
}

// yamlPrintable reports the characters a YAML stream may hold, as yaml.v3's reader checks
// them (line breaks aside).
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t' || r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7E:
		return true
	case r >= 0xA0 && r <= 0xD7FF:
		return true
	case r >= 0xE000 && r <= 0xFFFD:
		return true
	case r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

type parser struct {
	c        *Config
	problems []Problem
}

func (p *parser) addf(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.problems = append(p.problems, Problem{Line: line, Msg: fmt.Sprintf(format, args...)})
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func (p *parser) document(root *yaml.Node) {
	root = deref(root)
	if isNull(root) {
		return
	}
	if root.Kind != yaml.MappingNode {
		p.addf(root, "the file must be a mapping of keys to values (like \"theme: dark\")")
		return
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := deref(root.Content[i]), deref(root.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			p.addf(k, "keys must be plain names")
			continue
		}
		name := canonical(k.Value)
		if prev, dup := p.c.Lines[name]; dup {
			if name != k.Value || p.c.spelled[name] != "" {
				p.addf(k, "%s is set twice (first on line %d; %s is the older spelling of %s)", k.Value, prev,
					oldSpelling(name), name)
				continue
			}
			p.addf(k, "%s is set twice (first on line %d)", name, prev)
			continue
		}
		if !known(name) {
			p.unknownKey(k, "", name, knownKeys)
			continue
		}
		p.c.Lines[name] = k.Line
		if name != k.Value {
			if p.c.spelled == nil {
				p.c.spelled = map[string]string{}
			}
			p.c.spelled[name] = k.Value
		}
		if isNull(v) {
			continue
		}
		p.value(k.Value, v)
	}
}

// oldSpelling is the earlier spelling of a current key ("" when it has none).
func oldSpelling(key string) string {
	for old, cur := range oldSpellings {
		if cur == key {
			return old
		}
	}
	return ""
}

func known(name string) bool { return slices.Contains(knownKeys, canonical(name)) }

func (p *parser) scalar(name string, v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode {
		p.addf(v, "%s must be a single value", name)
		return "", false
	}
	return strings.TrimSpace(v.Value), true
}

func (p *parser) value(name string, v *yaml.Node) {
	switch name {
	case KeyKeys:
		p.keys(v)
	case KeyServe:
		p.serve(v)
	case KeyViews:
		p.views(v)
	case KeyAlerts:
		p.alerts(v)
	default:
		s, ok := p.scalar(name, v)
		if !ok {
			return
		}
		// Messages name the key as the file writes it; its current spelling decides.
		if set := p.c.settings()[canonical(name)]; set != nil {
			if err := set(s); err != nil {
				p.addf(v, "%s: %v", name, err)
			}
		}
	}
}

// settings are the top-level settings that hold a single value, by key: each checks the
// text of its value and stores it in c.
func (c *Config) settings() map[string]setter {
	return map[string]setter{
		KeyBaseURL:         store(&c.BaseURL, NormalizeBaseURL),
		KeyOrganizationID:  store(&c.OrganizationID, NormalizeID),
		KeyOperatorID:      store(&c.OperatorID, NormalizeID),
		KeyTheme:           store(&c.Theme, ParseTheme),
		KeyRefreshInterval: store(&c.RefreshInterval, ptr(ParseRefreshInterval)),
		KeyPageSize:        store(&c.PageSize, wholeIn(1, MaxPageSize)),
		KeyRequestBudget:   store(&c.RequestBudget, wholeIn(1, MaxRequestBudget)),
		KeyTeamSize:        store(&c.TeamSize, wholeIn(1, MaxTeamSize)),
		KeyRequestTimeout:  store(&c.RequestTimeout, ParseRequestTimeout),
		KeyReadOnly:        store(&c.ReadOnly, ptr(parseBool)),
		KeyMouse:           store(&c.Mouse, ptr(parseBool)),
		KeyMarkReadOnOpen:  store(&c.MarkReadOnOpen, ptr(parseBool)),
		KeyHyperlinks:      store(&c.Hyperlinks, ParseHyperlinks),
		KeyShiftEnd:        store(&c.ShiftEnd, ParseShiftEnd),
	}
}

// setter checks the text of one setting's value and stores what it means.
type setter func(text string) error

// store is the setter that keeps in *dst what parse reads from the text; a text parse
// refuses leaves *dst alone.
func store[T any](dst *T, parse func(string) (T, error)) setter {
	return func(text string) error {
		v, err := parse(text)
		if err != nil {
			return err
		}
		*dst = v
		return nil
	}
}

// ptr reads with parse into a pointer: the form of a setting whose zero value is a
// value of its own (nil: not set).
func ptr[T any](parse func(string) (T, error)) func(string) (*T, error) {
	return func(s string) (*T, error) {
		v, err := parse(s)
		if err != nil {
			return nil, err
		}
		return &v, nil
	}
}

// wholeIn reads a whole number from lo to hi (intIn).
func wholeIn(lo, hi int) func(string) (int, error) {
	return func(s string) (int, error) { return intIn(s, lo, hi) }
}

// section reads a section of settings (serve:, alerts:): a mapping whose keys are among
// keys, each once, and whose values are single values that settings check and store.
// Messages start with the section's name; usage says what the section must look like. It
// returns the line of each key (nil when the section is not a mapping).
func (p *parser) section(v *yaml.Node, name, usage string, keys []string, settings map[string]setter) map[string]int {
	if v.Kind != yaml.MappingNode {
		p.addf(v, "%s", usage)
		return nil
	}
	where := name + ": "
	lines := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := deref(v.Content[i]), deref(v.Content[i+1])
		key := strings.TrimSpace(k.Value)
		if k.Kind != yaml.ScalarNode || !slices.Contains(keys, key) {
			p.unknownKey(k, where, key, keys)
			continue
		}
		if prev, dup := lines[key]; dup {
			p.addf(k, "%s%s is set twice (first on line %d)", where, key, prev)
			continue
		}
		lines[key] = k.Line
		if isNull(val) {
			continue
		}
		text, ok := p.scalar(where+key, val)
		if !ok {
			continue
		}
		if err := settings[key](text); err != nil {
			p.addf(val, "%s%s: %v", where, key, err)
		}
	}
	return lines
}

// unknownKey reports a key that is not among keys, with the one likely meant; where
// starts the message ("" at the top level).
func (p *parser) unknownKey(k *yaml.Node, where, name string, keys []string) {
	if s := suggest(name, keys); s != "" {
		p.addf(k, "%sunknown key %q (did you mean %q?)", where, name, s)
	} else {
		p.addf(k, "%sunknown key %q (known keys: %s)", where, name, strings.Join(keys, ", "))
	}
}

// parseBool reads a yes/no setting: true or false (as YAML writes them, in any case).
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", s)
}

func (p *parser) keys(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		p.addf(v, "keys must map action names to keys, like \"quit: [q, ctrl+q]\"")
		return
	}
	p.c.Keys = map[string][]string{}
	p.c.KeyLines = map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := deref(v.Content[i]), deref(v.Content[i+1])
		if k.Kind != yaml.ScalarNode || strings.TrimSpace(k.Value) == "" {
			p.addf(k, "keys: action names must be plain names")
			continue
		}
		action := strings.TrimSpace(k.Value)
		if prev, dup := p.c.KeyLines[action]; dup {
			p.addf(k, "keys: %s is set twice (first on line %d)", action, prev)
			continue
		}
		var list []string
		switch {
		case isNull(val):
			list = []string{}
		case val.Kind == yaml.ScalarNode:
			list = []string{val.Value}
		case val.Kind == yaml.SequenceNode:
			list = make([]string, 0, len(val.Content))
			for _, e := range val.Content {
				e = deref(e)
				if e.Kind != yaml.ScalarNode || isNull(e) {
					p.addf(e, "keys: %s: each key must be a single value like \"ctrl+r\"", action)
					continue
				}
				list = append(list, e.Value)
			}
		default:
			p.addf(val, "keys: %s must be a key or a list of keys", action)
			continue
		}
		bad := false
		for _, key := range list {
			if strings.TrimSpace(key) == "" {
				p.addf(val, "keys: %s: a key must not be empty", action)
				bad = true
				break
			}
		}
		if bad {
			continue
		}
		p.c.Keys[action] = list
		p.c.KeyLines[action] = k.Line
	}
}

// NormalizeBaseURL checks an API base address and returns it without a trailing slash.
// It must be an absolute http or https URL without user information, query or fragment.
// A trailing "/api/um/v3" (the path prefix of every endpoint) is removed, so a URL copied
// from an endpoint's documentation works.
func NormalizeBaseURL(s string) (string, error) {
	// The messages never repeat the value: a token pasted into the wrong place must not
	// end up on the screen or in a log.
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil {
		return "", errors.New("not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errors.New("the URL must start with https:// (or http://)")
	}
	if u.Host == "" {
		return "", errors.New("the URL has no host")
	}
	if u.User != nil {
		return "", errors.New("the URL must not carry a user name or password (the token goes in the credentials store)")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", errors.New("the URL must not have a query (?…) or fragment (#…)")
	}
	if !utf8.ValidString(u.Host) {
		return "", errors.New("not a valid URL")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	// The API's own path is taken off however often it was pasted ("/api/um/v3/api/um"),
	// so that the result normalizes to itself. Each pass shortens the path: the loop ends.
	path := strings.TrimRight(u.Path, "/")
	for trimmed := true; trimmed; {
		trimmed = false
		for _, suffix := range []string{"/api/um/v3", "/api/um/v1/analytics", "/api/um"} {
			if p := strings.TrimSuffix(path, suffix); p != path {
				path, trimmed = strings.TrimRight(p, "/"), true
			}
		}
	}
	u.Path = path
	u.RawPath = ""
	return u.String(), nil
}

// NormalizeID checks an organization or operator id: a positive decimal integer.
func NormalizeID(s string) (string, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return "", errors.New("not a positive integer id") // the value is not repeated (see NormalizeBaseURL)
	}
	return strconv.FormatInt(n, 10), nil
}

// ParseTheme checks a theme name.
func ParseTheme(s string) (Theme, error) {
	if t, ok := oneOf(s, []Theme{ThemeAuto, ThemeDark, ThemeLight, ThemeMono}, nil); ok {
		return t, nil
	}
	return "", fmt.Errorf("%q is not a theme (auto, dark, light or mono)", s)
}

// ParseHyperlinks checks a hyperlinks setting: auto, on or off (true and false read as on
// and off).
func ParseHyperlinks(s string) (Hyperlinks, error) {
	if h, ok := oneOf(s, []Hyperlinks{HyperlinksAuto, HyperlinksOn, HyperlinksOff},
		map[string]Hyperlinks{"true": HyperlinksOn, "false": HyperlinksOff}); ok {
		return h, nil
	}
	return "", fmt.Errorf("%q is not auto, on or off", s)
}

// oneOf reads a setting that is one of names (or of the names aliases gives another
// meaning), in any case, blanks around it ignored.
func oneOf[T ~string](s string, names []T, aliases map[string]T) (T, bool) {
	v := strings.ToLower(strings.TrimSpace(s))
	if a, ok := aliases[v]; ok {
		return a, true
	}
	if slices.Contains(names, T(v)) {
		return T(v), true
	}
	return "", false
}

// ParseRefreshInterval reads an auto-refresh interval: a Go duration such as "30s" or
// "2m", a number of seconds, or 0/"off" to turn auto-refresh off. Other than 0 it must be
// between MinRefreshInterval and MaxRefreshInterval.
func ParseRefreshInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		return 0, nil
	}
	var d time.Duration
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > int64(MaxRefreshInterval/time.Second) {
			return 0, fmt.Errorf("%q is out of range (0 = off, or %s to %s)", s, MinRefreshInterval, MaxRefreshInterval)
		}
		d = time.Duration(n) * time.Second
	} else {
		d, err = time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration like 30s or 2m (0 or off turns auto-refresh off)", s)
		}
	}
	if d == 0 {
		return 0, nil
	}
	if d < MinRefreshInterval || d > MaxRefreshInterval {
		return 0, fmt.Errorf("%q is out of range (0 = off, or %s to %s)", s, MinRefreshInterval, MaxRefreshInterval)
	}
	return d, nil
}

func intIn(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d is out of range (%d to %d)", n, lo, hi)
	}
	return n, nil
}

// suggest returns the candidate closest to s when it is a likely typo, else "".
func suggest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
