package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/parley-tui/parley/internal/atomicfile"
)

// example is the commented config file written by "parley config init". Every setting is
// commented out, so the file changes nothing until a line is uncommented.
const example = `# parley configuration
#
# Every setting is optional. Precedence, highest first: command-line flags, environment
# variables, this file, built-in defaults. The API token never goes in this file: store it
# with "parley auth login" (OS keyring) or set PARLEY_TOKEN in the environment.

# API base address; the API paths (/api/um/v3/...) are appended to it.
# Flag --base-url, env PARLEY_BASE_URL. With no base URL and no token, parley opens the
# embedded demo sandbox.
# base_url: https://api.example.com

# Organization the requests run in, sent as Service-Organization-Id (for a customer token).
# Flag --org, env PARLEY_ORG_ID. Default: the token's own (or default) organization.
# organization_id: 12

# Operator whose permissions the requests use, sent as Service-Operator-Id.
# Flag --operator, env PARLEY_OPERATOR_ID. Default: the account's owner.
# operator_id: 3

# Colours: auto (follow the terminal background), dark, light or mono.
# theme: auto

# How often the visible screen refreshes itself while you work (a key in the last 2
# minutes): a duration such as 30s or 2m; 0 or off turns auto-refresh off. At least 5s.
# Idle it slows down (4 times slower after 2 minutes without a key or when the terminal
# loses the focus, 20 times after 10 minutes) and it stops after 30 minutes until the
# next key; the request budget may slow it down too.
# refresh_interval: 30s

# Rows fetched per list request, 1 to 100.
# page_size: 100

# How many people of your organization use parley. The API allows 5000 requests per
# resource family, organization and UTC day, shared by all of them, so each one's
# budget is 5000 / team_size (500 for 10).
# team_size: 10

# Requests per resource family per day this parley may spend: your share of the 5000
# (default 5000 / team_size). Auto-refresh spends at most four fifths of it, slower as
# they run low, and leaves the last fifth for what you do (opening threads, searches,
# edits).
# request_budget: 500

# When your working day ends, a time of day (HH:MM, this machine's clock; 24:00 is
# midnight). The status bar says when the day's budget runs out at the pace of the last
# hour; while that is before the shift ends, auto-refresh slows down (up to 8 times) so
# that the budget lasts, and a message says so.
# shift_end: "17:00"

# How long parley waits for one answer of the API before it gives up on that attempt: a
# duration such as 10s or 2m, 1s to 5m. Env PARLEY_REQUEST_TIMEOUT.
# request_timeout: 30s

# Read-only: the TUI offers no edits (no edit keys, forms or deletes) and the write
# commands (notes add, conversations take, …) refuse to run; parley only reads.
# Flag --readonly (--readonly=false overrides this line). Older files write read_only.
# readonly: false

# Mouse: click tabs, rows, panes and form fields, and scroll with the wheel. Off by
# default, so that the terminal's own text selection works as usual; while it is on,
# select text with shift held while dragging (in most terminals; in tmux, shift or tmux's
# copy mode). Flag --mouse (--mouse=false overrides this line), env PARLEY_MOUSE.
# mouse: false

# Opening an unread conversation marks it read for you: one PATCH of the conversation
# (conversations family) for each unread one you open; u still toggles. Never in
# read-only. Flag --mark-read-on-open (--mark-read-on-open=false overrides this line).
# mark_read_on_open: true

# How parley tells you that something arrived in what the auto-refresh (or the hub's
# shared poll) already fetched: a conversation new to the list, one newly assigned to
# you, a new message from the contact in one of yours. M (mute_alerts) silences the bell
# and the notifications for the mute duration. Flags --bell, --title, --notify.
# alerts:
#   bell: true        # the terminal bell, at most once every 15 seconds
#   title: true       # the terminal's title: "parley — 3 new · 1 mine"
#   notify: off       # desktop notifications through the terminal: off, osc9 or osc777
#   mute: 30m         # how long M silences the bell and the notifications, 1m to 24h

# Links (a message's attachment, a conversation's add-on links) as terminal hyperlinks
# (OSC 8), which the terminal opens on a click (often with ctrl or cmd held): auto turns
# them on in terminals known to support them (iTerm2, WezTerm, kitty, Ghostty, foot,
# Alacritty, VS Code, Windows Terminal, GNOME Terminal and other VTE terminals, Konsole)
# and off elsewhere and inside tmux or screen, which may not pass them on; on and off
# decide for every terminal. y copies a link either way. Env PARLEY_HYPERLINKS.
# hyperlinks: auto

# Key bindings: an action name and the key or keys that trigger it (a key or a list).
# The "?" help shows the actions and their keys; conflicts are reported at start-up.
# keys:
#   refresh: [r, f5]
#   quit: q

# Saved views: named queries of the conversations and contacts lists, shown as a row
# above the list ("all" first) and switched with [ and ]; V saves the current query here.
# filters take the API's filter names (topics, um_widget_id, operator_id, email, …);
# ordering is an API ordering (a leading - for descending). An entry named all with only a
# screen and an ordering sets that list's default order (conversations by last message,
# -last_message_sent_at, and contacts by creation, -created_at, unless it says otherwise;
# -id is the server's own order, which browses past 10,000 results).
# views:
#   - name: all
#     screen: conversations
#     ordering: -id
#   - name: New
#     screen: conversations
#     status: new
#   - name: Recent talk
#     screen: conversations
#     ordering: -last_message_sent_at
#   - name: Unverified
#     screen: contacts
#     filters:
#       verified: "false"

# The team hub, "parley serve": each setting is also a flag of that command (the flag
# wins). Relative paths are read from this file's directory.
# serve:
#   addr: 127.0.0.1:2222            # where agents connect with ssh; port 0 picks a free one
#   users: users.yaml               # who may connect: name, key, operator, org, role
#   host_key: hub_host_ed25519_key  # made (mode 0600) on first start, reused after
#   audit_log: audit.jsonl          # one JSON line per write of every session (mode 0600)
#   max_sessions: 50
#   idle_timeout: 8h                # a session without a key for that long ends
#   conn_rate: 30                   # connections per minute one address may open
#   no_session_timeout: 30s         # a connection without a session for that long is closed
#   max_handshakes: 64              # handshakes in progress at once (one address: an eighth)
#   handshake_rate: 300             # connections per minute all addresses together may open
#   log_format: text                # the log on stderr: text (key=value) or json
#   metrics_addr: 127.0.0.1:9470    # /metrics and /healthz (off when not set)
#   cache_size: 64MiB               # the memory of answers every session shares (KiB, MiB, GiB)
#   shift_end: "17:00"              # the team's day ends: polls slow down so the budget lasts
`

// Example returns the commented example config file.
func Example() []byte { return []byte(example) }

// ErrExists is returned by WriteExample when the file exists and force is false.
var ErrExists = errors.New("config file already exists")

// WriteExample writes the commented example to path, creating its directory. It refuses
// to replace an existing file unless force is set.
func WriteExample(path string, force bool) error {
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s: %w (use --force to replace it)", path, ErrExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("check config file: %w", err)
		}
	}
	return writeFile(path, Example(), 0o644)
}

// Setting is one top-level scalar value for Set.
type Setting struct {
	Key   string // one of base_url, organization_id, operator_id, theme, refresh_interval, page_size, request_budget, team_size, request_timeout, readonly, mouse, mark_read_on_open, hyperlinks
	Value string
}

// SetResult says what Set did.
type SetResult struct {
	Created bool     // the file did not exist and was written from the example
	Changed []string // the keys whose value changed; empty when the file already said so
}

var errNeedsNodeEdit = errors.New("line edit not possible")

// Set records top-level scalar values in the config file at path, keeping the rest of the
// file: its other settings, its comments and their layout. A missing file is created from
// the commented example. A setting already holding the value is left alone; a file that
// does not parse is refused (with its problems), never overwritten.
func Set(path string, settings ...Setting) (SetResult, error) {
	var res SetResult
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data, res.Created = Example(), true
	case err != nil:
		return res, fmt.Errorf("read config: %w", err)
	}
	before, err := Parse(data, path)
	if err != nil {
		return res, err
	}
	want := before
	for _, s := range settings {
		if s.Key == KeyKeys || s.Key == KeyServe || s.Key == KeyViews || s.Key == KeyAlerts || !known(s.Key) {
			return res, fmt.Errorf("config: cannot set %q", s.Key)
		}
		changed, err := apply(&want, &s)
		if err != nil {
			return res, err
		}
		if !changed {
			continue
		}
		res.Changed = append(res.Changed, s.Key)
		edit := s
		if old := before.spelled[s.Key]; old != "" {
			edit.Key = old // the file's line, as the file spells it
		}
		out, err := setLine(data, edit)
		if err == nil {
			err = check(out, path, want)
		}
		if err != nil {
			out, err = setNode(data, edit)
			if err == nil {
				err = check(out, path, want)
			}
			if err != nil {
				return SetResult{}, fmt.Errorf("update %s in %s: %w", s.Key, path, err)
			}
		}
		data = out
	}
	if len(res.Changed) == 0 && !res.Created {
		return res, nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return res, writeFile(path, data, mode)
}

// apply validates s, normalizes its value and stores it in c, reporting whether the value
// changed.
func apply(c *Config, s *Setting) (bool, error) {
	s.Value = strings.TrimSpace(s.Value)
	one := fmt.Sprintf("%s: %s\n", s.Key, quote(s.Value))
	parsed, err := Parse([]byte(one), "value")
	if err != nil {
		var e *Error
		if errors.As(err, &e) && len(e.Problems) > 0 {
			return false, errors.New(e.Problems[0].Msg)
		}
		return false, err
	}
	old := *c
	switch s.Key {
	case KeyBaseURL:
		c.BaseURL, s.Value = parsed.BaseURL, parsed.BaseURL
	case KeyOrganizationID:
		c.OrganizationID, s.Value = parsed.OrganizationID, parsed.OrganizationID
	case KeyOperatorID:
		c.OperatorID, s.Value = parsed.OperatorID, parsed.OperatorID
	case KeyTheme:
		c.Theme, s.Value = parsed.Theme, string(parsed.Theme)
	case KeyRefreshInterval:
		c.RefreshInterval = parsed.RefreshInterval
	case KeyPageSize:
		c.PageSize = parsed.PageSize
	case KeyRequestBudget:
		c.RequestBudget = parsed.RequestBudget
	case KeyTeamSize:
		c.TeamSize = parsed.TeamSize
	case KeyRequestTimeout:
		c.RequestTimeout = parsed.RequestTimeout
	case KeyReadOnly:
		c.ReadOnly, s.Value = parsed.ReadOnly, strconv.FormatBool(*parsed.ReadOnly)
	case KeyMouse:
		c.Mouse, s.Value = parsed.Mouse, strconv.FormatBool(*parsed.Mouse)
	case KeyMarkReadOnOpen:
		c.MarkReadOnOpen, s.Value = parsed.MarkReadOnOpen, strconv.FormatBool(*parsed.MarkReadOnOpen)
	case KeyHyperlinks:
		c.Hyperlinks, s.Value = parsed.Hyperlinks, string(parsed.Hyperlinks)
	}
	return !sameValues(old, *c), nil
}

// check verifies that data parses to exactly the values in want.
func check(data []byte, path string, want Config) error {
	got, err := Parse(data, path)
	if err != nil {
		return err
	}
	if !sameValues(got, want) {
		return errors.New("the edited file does not read back as intended")
	}
	return nil
}

func sameValues(a, b Config) bool {
	a.Path, b.Path, a.Exists, b.Exists = "", "", false, false
	a.Lines, b.Lines, a.KeyLines, b.KeyLines = nil, nil, nil, nil
	a.Serve.Lines, b.Serve.Lines, a.spelled, b.spelled = nil, nil, nil, nil
	a.Alerts.Lines, b.Alerts.Lines = nil, nil
	a.Views, b.Views = viewsWithoutLines(a.Views), viewsWithoutLines(b.Views)
	return reflect.DeepEqual(a, b)
}

// quote renders v as a YAML scalar (quoted only when needed).
func quote(v string) string {
	out, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", v)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// setLine edits the file as text: it replaces the key's line, or uncomments a
// "# key: …" line, or appends the key at the end.
func setLine(data []byte, s Setting) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	entry := s.Key + ": " + quote(s.Value)
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root != nil && root.Kind == yaml.MappingNode {
		if root.Style&yaml.FlowStyle != 0 {
			return nil, errNeedsNodeEdit
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			if k.Value != s.Key {
				continue
			}
			if v.Kind != yaml.ScalarNode || v.Line != k.Line || v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || k.Column != 1 {
				return nil, errNeedsNodeEdit
			}
			if comment := v.LineComment; comment != "" {
				entry += " " + comment
			}
			lines[k.Line-1] = entry
			return []byte(strings.Join(lines, "\n")), nil
		}
	} else if root != nil && !isNull(root) {
		return nil, errNeedsNodeEdit
	}
	commented := regexp.MustCompile(`^#\s?` + regexp.QuoteMeta(s.Key) + `\s*:`)
	for i, l := range lines {
		if commented.MatchString(l) {
			lines[i] = entry
			return []byte(strings.Join(lines, "\n")), nil
		}
	}
	out := bytes.TrimRight(data, "\n")
	if len(out) > 0 {
		out = append(out, '\n')
	}
	return append(out, entry+"\n"...), nil
}

// setNode edits the parsed document and encodes it again: the fallback for layouts the
// line edit cannot handle. Comments survive; indentation may change.
func setNode(data []byte, s Setting) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	root := doc.Content[0]
	if isNull(root) {
		root = &yaml.Node{Kind: yaml.MappingNode, HeadComment: root.HeadComment}
		doc.Content[0] = root
	}
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("the file is not a mapping of keys to values")
	}
	val := &yaml.Node{Kind: yaml.ScalarNode, Value: s.Value}
	found := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == s.Key {
			val.LineComment = root.Content[i+1].LineComment
			root.Content[i+1] = val
			found = true
		}
	}
	if !found {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: s.Key}, val)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeFile replaces path atomically (temporary file and rename), creating its directory
// with mode 0700 when missing.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create config directory: %w", err)
	}
	prepare := func(f *os.File) error { return f.Chmod(mode) }
	if err := atomicfile.WriteWith(path, ".config-*.yaml", data, prepare); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	return nil
}
