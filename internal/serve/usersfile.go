package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/parley-tui/parley/internal/atomicfile"
)

// Entry is a user as `parley serve users add` writes it into the users file.
type Entry struct {
	Name string
	// Key is the public key in authorized_keys form ("ssh-ed25519 AAAA… you@host").
	Key      string
	Operator int64 // 0: none (a viewer only)
	Org      int64 // 0: the hub's own organization
	Role     Role
}

// UsersFile is the users file as written, to change in place: its YAML document, edited
// through the YAML library's node tree, so that the comments and the order of the entries
// stay as they were (the spacing around comments may change: the library writes the
// document anew). Save writes it back.
type UsersFile struct {
	Path string
	doc  yaml.Node
	// mode and exists describe the file as it was read (Save keeps its mode and owner).
	mode   fs.FileMode
	exists bool
	info   fs.FileInfo
}

// OpenUsersFile reads the users file at path and checks it (ParseUsers). A file that does
// not exist yet is an empty one when create is set (add makes the first user), an error
// otherwise.
func OpenUsersFile(path string, create bool) (*UsersFile, error) {
	f := &UsersFile{Path: path, mode: 0o600}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		f.doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.SequenceNode, Tag: "!!seq"}}}
		return f, nil
	case err != nil:
		return nil, fmt.Errorf("read the users file: %w", err)
	}
	if f.info, err = os.Stat(path); err != nil {
		return nil, fmt.Errorf("read the users file: %w", err)
	}
	f.exists, f.mode = true, f.info.Mode().Perm()
	if _, err := ParseUsers(data, path); err != nil {
		var ue *UsersError
		if !errors.As(err, &ue) || !emptyList(ue) {
			return nil, fmt.Errorf("%w\n(fix the users file first: nothing was changed)", err)
		}
	}
	if err := yaml.Unmarshal(data, &f.doc); err != nil {
		return nil, fmt.Errorf("read the users file %s: %w", path, err)
	}
	if len(f.doc.Content) == 0 { // only comments, or nothing
		f.doc.Kind = yaml.DocumentNode
		f.doc.Content = []*yaml.Node{{Kind: yaml.SequenceNode, Tag: "!!seq"}}
	}
	return f, nil
}

// emptyList reports a users file whose only problem is that it lists nobody (yet).
func emptyList(e *UsersError) bool {
	return len(e.Problems) == 1 && strings.HasPrefix(e.Problems[0].Msg, "no users")
}

// list is the document's list of entries.
func (f *UsersFile) list() *yaml.Node { return f.doc.Content[0] }

// Users is the file's users as it stands (checked as at the hub's start, without the API).
func (f *UsersFile) Users() (*Users, error) {
	data, err := f.Bytes()
	if err != nil {
		return nil, err
	}
	return ParseUsers(data, f.Path)
}

// Add appends e as the last entry. It checks e first (a name, a public key, a role, an
// operator but for a viewer: each problem in words, nothing changed), then the file with
// e in it as the hub would read it (ParseUsers: the same key or name twice); on an error
// the file stays as it was.
func (f *UsersFile) Add(e Entry) error {
	var problems []string
	if err := checkName(e.Name); err != nil {
		problems = append(problems, "name: "+err.Error())
	}
	key := strings.TrimSpace(e.Key)
	if _, err := parseKey(key); err != nil {
		problems = append(problems, "key: "+err.Error())
	}
	switch {
	case e.Role == "":
		problems = append(problems, "role: give one of viewer, agent or supervisor")
	case !slices.Contains(Roles, e.Role):
		problems = append(problems, fmt.Sprintf("role: %q is not a role (viewer, agent or supervisor)", e.Role))
	case e.Operator == 0 && e.Role != RoleViewer:
		problems = append(problems, fmt.Sprintf("operator: a%s %s needs the operator id their changes go out as", article(e.Role), e.Role))
	}
	if e.Operator < 0 {
		problems = append(problems, fmt.Sprintf("operator: %d is not a positive integer id", e.Operator))
	}
	if e.Org < 0 {
		problems = append(problems, fmt.Sprintf("org: %d is not a positive integer id", e.Org))
	}
	if len(problems) > 0 {
		return fmt.Errorf("user %s not added: %s", quote(e.Name), strings.Join(problems, "; "))
	}
	entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	field := func(k, v, tag string) {
		entry.Content = append(entry.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v})
	}
	field("name", e.Name, "!!str")
	field("key", key, "!!str")
	if e.Operator != 0 {
		field("operator", strconv.FormatInt(e.Operator, 10), "!!int")
	}
	field("role", string(e.Role), "!!str")
	if e.Org != 0 {
		field("org", strconv.FormatInt(e.Org, 10), "!!int")
	}
	list := f.list()
	list.Style &^= yaml.FlowStyle // "[]", the empty list, becomes a list of entries
	list.Content = append(list.Content, entry)
	if _, err := f.Users(); err != nil {
		list.Content = list.Content[:len(list.Content)-1]
		return fmt.Errorf("user %s not added: %w", quote(e.Name), err)
	}
	return nil
}

// Remove takes the entry named name (as the hub compares names: without regard to case)
// out of the file, with the comments above it, and returns it. The last user is not
// removed: the hub does not start, nor reload, with an empty users file.
func (f *UsersFile) Remove(name string) (User, error) {
	users, err := f.Users()
	if err != nil {
		return User{}, err
	}
	at := -1
	for i, u := range users.List {
		if strings.EqualFold(u.Name, strings.TrimSpace(name)) {
			at = i
		}
	}
	if at < 0 {
		names := make([]string, len(users.List))
		for i, u := range users.List {
			names[i] = quote(u.Name)
		}
		return User{}, fmt.Errorf("no user %s in %s (it lists %s)", quote(name), f.Path, strings.Join(names, ", "))
	}
	if len(users.List) == 1 {
		return User{}, fmt.Errorf("%s is the only user of %s: the hub does not run without users; add another first", quote(users.List[at].Name), f.Path)
	}
	list := f.list()
	list.Content = append(list.Content[:at:at], list.Content[at+1:]...)
	return users.List[at], nil
}

// Bytes is the file as Save writes it.
func (f *UsersFile) Bytes() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&f.doc); err != nil {
		return nil, fmt.Errorf("write the users file: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("write the users file: %w", err)
	}
	return b.Bytes(), nil
}

// Save writes the file back: beside it first, then renamed over it (atomicfile), so that
// the hub (which watches the file) reads the old file or the new one, never a part. The new
// file keeps the old one's permissions and, where the system lets it, its owner and group;
// a file made anew is readable by its owner only (0600).
func (f *UsersFile) Save() error {
	data, err := f.Bytes()
	if err != nil {
		return err
	}
	err = atomicfile.WriteWith(f.Path, "."+filepath.Base(f.Path)+".*", data, func(tmp *os.File) error {
		if err := tmp.Chmod(f.mode); err != nil {
			return fmt.Errorf("keep its mode: %w", err)
		}
		if f.exists {
			if err := sameOwner(tmp, f.info); err != nil {
				return fmt.Errorf("keep its owner: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write the users file %s: %w", f.Path, err)
	}
	return nil
}
