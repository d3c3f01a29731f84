package serve

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/sanitize"
)

// Role is what a user of the hub may do.
type Role string

// The roles of the users file.
const (
	// RoleViewer reads: every write is refused before it is sent.
	RoleViewer Role = "viewer"
	// RoleAgent writes as their own operator only, and toggles only their own away status.
	RoleAgent Role = "agent"
	// RoleSupervisor may act as any operator of their organization.
	RoleSupervisor Role = "supervisor"
)

// Roles are the roles in the order the help and errors list them.
var Roles = []Role{RoleViewer, RoleAgent, RoleSupervisor}

// User is one entry of the users file.
type User struct {
	// Name names the user in the status bar, the connection log and the audit log.
	Name string
	// Key is the user's public key; KeyText is its authorized_keys line as written.
	Key     gossh.PublicKey
	KeyText string
	// Operator is the operator id the user's writes go out as (Service-Operator-Id); 0
	// only for a viewer without one.
	Operator int64
	// Org is the organization the user works in (Service-Organization-Id); 0: the hub's
	// own (its --org, else the token's default organization).
	Org  int64
	Role Role
	// Line is the line of the entry in the users file.
	Line int
}

// Users are the entries of a users file, by key.
type Users struct {
	Path string
	List []User
	// Sum is the SHA-256 of the file's bytes as LoadUsers read them (the hub watches the
	// file for other bytes).
	Sum [sha256.Size]byte
}

// ByKey returns the user whose key is k.
func (u *Users) ByKey(k gossh.PublicKey) (User, bool) {
	if u == nil || k == nil {
		return User{}, false
	}
	want := k.Marshal()
	for _, usr := range u.List {
		if bytes.Equal(usr.Key.Marshal(), want) {
			return usr, true
		}
	}
	return User{}, false
}

// SetDefaultOrg gives the users without an organization the hub's own, org (0 when the
// hub sends none: the token's default organization).
func (u *Users) SetDefaultOrg(org int64) {
	for i := range u.List {
		if u.List[i].Org == 0 {
			u.List[i].Org = org
		}
	}
}

// Orgs are the organizations the users work in, each once, in the order of the file.
func (u *Users) Orgs() []int64 {
	var out []int64
	for _, usr := range u.List {
		if !slices.Contains(out, usr.Org) {
			out = append(out, usr.Org)
		}
	}
	return out
}

// UsersError lists what is wrong with a users file, each problem at its line.
type UsersError struct {
	Path     string
	Problems []UsersProblem
}

// UsersProblem is one thing wrong with an entry of the users file.
type UsersProblem struct {
	Line int
	Msg  string
}

func (e *UsersError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		if p.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s", e.Path, p.Line, p.Msg)
		} else {
			fmt.Fprintf(&b, "%s: %s", e.Path, p.Msg)
		}
	}
	return b.String()
}

// userFields are the keys an entry may hold.
var userFields = []string{"name", "key", "operator", "org", "role"}

// maxUserProblems caps the problems reported for one file.
const maxUserProblems = 20

// LoadUsers reads and checks the users file at path (ParseUsers); the operators are
// checked against the API with CheckOperators.
func LoadUsers(path string) (*Users, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the users file: %w", err)
	}
	u, err := ParseUsers(data, path)
	if err != nil {
		return nil, err
	}
	u.Sum = sha256.Sum256(data)
	return u, nil
}

// ParseUsers reads a users file: a YAML list of entries
//
//   - name: Clara
//     key: ssh-ed25519 AAAA… clara@laptop
//     operator: 7
//     org: 2          # optional
//     role: agent     # viewer, agent or supervisor
//
// Every entry must have a name (no control characters), one public key in authorized_keys
// form that no other entry has, a known role and, but for a viewer, an operator id. Every
// problem comes back in one *UsersError, each at its line.
func ParseUsers(data []byte, path string) (*Users, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &UsersError{Path: path, Problems: []UsersProblem{{Msg: "not a YAML file: " + shorten(sanitize.Line(strings.TrimPrefix(err.Error(), "yaml: ")))}}}
	}
	p := usersParser{users: &Users{Path: path}}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return nil, &UsersError{Path: path, Problems: []UsersProblem{{Msg: "no users: the file must list at least one user (name, key, operator, org, role)"}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.SequenceNode {
		return nil, &UsersError{Path: path, Problems: []UsersProblem{{Line: root.Line,
			Msg: "the file must be a list of users, each starting with \"- name: …\""}}}
	}
	if len(root.Content) == 0 {
		return nil, &UsersError{Path: path, Problems: []UsersProblem{{Line: root.Line, Msg: "no users: the list is empty"}}}
	}
	for i, n := range root.Content {
		p.entry(i+1, n)
	}
	if len(p.problems) > 0 {
		if len(p.problems) > maxUserProblems {
			n := len(p.problems) - maxUserProblems
			p.problems = append(p.problems[:maxUserProblems], UsersProblem{Msg: fmt.Sprintf("and %d more problems", n)})
		}
		return nil, &UsersError{Path: path, Problems: p.problems}
	}
	return p.users, nil
}

// isNull says whether n is an empty document's value ("---" alone, "~", "null"): a file
// without users, whose line yaml may place past the file's end.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

type usersParser struct {
	users    *Users
	problems []UsersProblem
}

func (p *usersParser) add(line int, format string, args ...any) {
	p.problems = append(p.problems, UsersProblem{Line: line, Msg: fmt.Sprintf(format, args...)})
}

// entry reads the nth entry (1-based).
func (p *usersParser) entry(nth int, n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		p.add(n.Line, "user %d: must be a mapping of name, key, operator, org and role", nth)
		return
	}
	u := User{Line: n.Line}
	who := fmt.Sprintf("user %d", nth)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Value == "name" && v.Kind == yaml.ScalarNode && strings.TrimSpace(v.Value) != "" {
			who = fmt.Sprintf("user %d (%s)", nth, quote(v.Value))
		}
	}
	seen := map[string]int{}
	before := len(p.problems)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		if k.Kind != yaml.ScalarNode || !slices.Contains(userFields, name) {
			p.add(k.Line, "%s: unknown field %s (the fields are %s)", who, quote(name), strings.Join(userFields, ", "))
			continue
		}
		if prev, dup := seen[name]; dup {
			p.add(k.Line, "%s: %s is given twice (first on line %d)", who, name, prev)
			continue
		}
		seen[name] = k.Line
		if v.Kind != yaml.ScalarNode {
			p.add(v.Line, "%s: %s must be a single value", who, name)
			continue
		}
		val := strings.TrimSpace(v.Value)
		switch name {
		case "name":
			if err := checkName(val); err != nil {
				p.add(v.Line, "%s: name: %v", who, err)
				continue
			}
			u.Name = val
		case "key":
			key, err := parseKey(val)
			if err != nil {
				p.add(v.Line, "%s: key: %v", who, err)
				continue
			}
			u.Key, u.KeyText = key, val
		case "operator", "org":
			id, err := strconv.ParseInt(val, 10, 64)
			if err != nil || id <= 0 {
				p.add(v.Line, "%s: %s: %s is not a positive integer id", who, name, quote(val))
				continue
			}
			if name == "operator" {
				u.Operator = id
			} else {
				u.Org = id
			}
		case "role":
			r := Role(strings.ToLower(val))
			if !slices.Contains(Roles, r) {
				p.add(v.Line, "%s: role: %s is not a role (viewer, agent or supervisor)", who, quote(val))
				continue
			}
			u.Role = r
		}
	}
	for _, f := range []string{"name", "key", "role"} {
		if _, ok := seen[f]; !ok {
			p.add(n.Line, "%s: %s is missing", who, f)
		}
	}
	if _, ok := seen["operator"]; !ok && u.Role != "" && u.Role != RoleViewer {
		p.add(n.Line, "%s: operator is missing (the operator id a%s %s's changes go out as)", who, article(u.Role), u.Role)
	}
	if len(p.problems) > before {
		return
	}
	for _, o := range p.users.List {
		if bytes.Equal(o.Key.Marshal(), u.Key.Marshal()) {
			p.add(seen["key"], "%s: key: the same key as %s on line %d; each key names one user", who, quote(o.Name), o.Line)
			return
		}
		if strings.EqualFold(o.Name, u.Name) {
			p.add(seen["name"], "%s: name: %s is on line %d already; each user has a name of their own", who, quote(o.Name), o.Line)
			return
		}
	}
	p.users.List = append(p.users.List, u)
}

func article(r Role) string {
	if r == RoleAgent {
		return "n"
	}
	return ""
}

// checkName accepts a name a terminal and a log can show as it is: no control, format or
// other invisible character, nothing the sanitizer would change (the status bar shows the
// name through it).
func checkName(s string) error {
	switch {
	case s == "":
		return errors.New("must not be empty")
	case len(s) > 64:
		return errors.New("is longer than 64 bytes")
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar {
			return fmt.Errorf("holds the character %U; a name is plain text", r)
		}
	}
	if r, _, bad := sanitize.Leak(s); bad {
		return fmt.Errorf("holds the character %U, which parley does not show; a name is plain text", r)
	}
	return nil
}

// maxQuoted is how many characters of a value from the file a message repeats.
const maxQuoted = 64

// quote shows text from the file in a message: in double quotes, every character that is
// not graphic or that a terminal would not show written as a Go escape (\x1b, \u202e; a
// byte that is not UTF-8 as \xff), cut to maxQuoted characters.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, n := 0, 0; i < len(s); n++ {
		if n == maxQuoted {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"', r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsGraphic(r) && sanitize.Line(string(r)) == string(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\u202e', '\U000e0041'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// shorten cuts a message of outside origin to 200 characters.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	return string([]rune(s)[:200]) + "…"
}

// parseKey reads one public key in authorized_keys form ("ssh-ed25519 AAAA… comment").
// Options before the key type (from="…", command="…") are refused: the hub has no use for
// them and would not honour them.
func parseKey(s string) (gossh.PublicKey, error) {
	if s == "" {
		return nil, errors.New("is empty; give the public key line, as in ~/.ssh/id_ed25519.pub")
	}
	if strings.Contains(s, "PRIVATE KEY") {
		return nil, errors.New("this is a private key; give the public one (the .pub file) and keep the private key secret")
	}
	key, comment, options, rest, err := gossh.ParseAuthorizedKey([]byte(s))
	if err != nil {
		return nil, errors.New("not a public key in authorized_keys form (like \"ssh-ed25519 AAAA… you@host\")")
	}
	if len(options) > 0 {
		return nil, errors.New("authorized_keys options are not supported; give only the key type, the key and a comment")
	}
	if len(bytes.TrimSpace(rest)) > 0 || holdsKey(comment) {
		return nil, errors.New("more than one key; give one key per user")
	}
	if _, ok := key.(*gossh.Certificate); ok {
		return nil, errors.New("a certificate; give the plain public key")
	}
	return key, nil
}

// holdsKey reports whether a key's comment holds another key ("type base64" pair): two
// keys pasted on one line.
func holdsKey(comment string) bool {
	f := strings.Fields(comment)
	for i := 0; i+1 < len(f); i++ {
		blob, err := base64.StdEncoding.DecodeString(f[i+1])
		if err != nil {
			continue
		}
		if k, err := gossh.ParsePublicKey(blob); err == nil && k.Type() == f[i] {
			return true
		}
	}
	return false
}

// OperatorsOf lists the operators of organization org (0: the hub's own), as the API
// does: the ids and, where the API says, the organization each belongs to.
type OperatorsOf func(ctx context.Context, org int64) ([]OperatorRef, error)

// OperatorRef is an operator as the users file check needs it.
type OperatorRef struct {
	ID  int64
	Org int64 // 0 when the API did not say
	// Name and Role help whoever writes the users file pick an id ("" when unknown); they
	// are the API's text, shown only through sanitize.Line.
	Name, Role string
}

// Directory is what the hub knows of the operators of each organization its users work in,
// from the API's operator lists.
type Directory map[int64][]int64

// Has reports whether operator is one of organization org's.
func (d Directory) Has(org, operator int64) bool { return slices.Contains(d[org], operator) }

// CheckOperators asks the API for the operators of every organization of users (once per
// organization) and checks every user's operator against them: an operator id that is not
// one of that organization's is a problem at the user's line, and so is an organization
// the API does not know (its list then shows another organization's operators). The
// directory is kept for the supervisors' act-as checks.
func CheckOperators(ctx context.Context, users *Users, list OperatorsOf) (Directory, error) {
	dir := Directory{}
	named := map[int64][]OperatorRef{}
	var problems []UsersProblem
	for _, org := range users.Orgs() {
		ops, err := list(ctx, org)
		if err != nil {
			what := "the hub's organization"
			if org != 0 {
				what = "organization " + strconv.FormatInt(org, 10)
			}
			return nil, fmt.Errorf("check the users file %s: list the operators of %s: %w", users.Path, what, err)
		}
		ids := make([]int64, 0, len(ops))
		named[org] = ops
		foreign := 0
		for _, o := range ops {
			ids = append(ids, o.ID)
			if org != 0 && o.Org != 0 && o.Org != org {
				foreign++
			}
		}
		if org != 0 && len(ops) > 0 && foreign == len(ops) {
			for _, u := range users.List {
				if u.Org == org {
					problems = append(problems, UsersProblem{Line: u.Line, Msg: fmt.Sprintf(
						"user %s: org: the API does not know organization %d (its operators list shows organization %d's)",
						quote(u.Name), org, ops[0].Org)})
				}
			}
			continue
		}
		dir[org] = ids
	}
	for _, u := range users.List {
		if u.Operator == 0 {
			continue
		}
		ids, ok := dir[u.Org]
		if !ok {
			continue // its organization is reported already
		}
		if !slices.Contains(ids, u.Operator) {
			where := "the hub's organization"
			if u.Org != 0 {
				where = "organization " + strconv.FormatInt(u.Org, 10)
			}
			problems = append(problems, UsersProblem{Line: u.Line, Msg: fmt.Sprintf(
				"user %s: operator: %d is not an operator of %s; the API lists %s", quote(u.Name), u.Operator, where, opList(named[u.Org]))})
		}
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b UsersProblem) int { return a.Line - b.Line })
		return nil, &UsersError{Path: users.Path, Problems: problems}
	}
	return dir, nil
}

// opList shows at most ten operators by id, each with its name and role where the API
// gave them: "2001 Ana Silva (owner), 2006 Greta (agent)".
func opList(ops []OperatorRef) string {
	if len(ops) == 0 {
		return "none"
	}
	ops = slices.Clone(ops)
	slices.SortFunc(ops, func(a, b OperatorRef) int { return cmp.Compare(a.ID, b.ID) })
	parts := make([]string, 0, min(len(ops), 11))
	for i, o := range ops {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ops)-10))
			break
		}
		text := strconv.FormatInt(o.ID, 10)
		if name := sanitize.Line(o.Name); name != "" {
			text += " " + name
		}
		if role := sanitize.Line(o.Role); role != "" {
			text += " (" + role + ")"
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, ", ")
}
