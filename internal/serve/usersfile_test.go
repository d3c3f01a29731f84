package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/waitfor"
)

// writeUsers writes a users file into a new directory with mode and returns its path.
func writeUsers(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "users.yaml")
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// comments are a users file's comments, in order, without their spacing (a key's line is
// left out: its comment may hold a "#").
func comments(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " -"), "key:") {
			continue
		}
		if m := regexp.MustCompile(`#.*`).FindString(line); m != "" {
			out = append(out, strings.TrimSpace(m))
		}
	}
	return out
}

// Adding and removing users edits the file in place: every comment stays where it was (but
// those above the entry removed), the entries keep their order, the new one comes last, the
// file keeps its permissions, and the hub reads the result as it would at its start.
func TestUsersFileKeepsCommentsAndOrder(t *testing.T) {
	t.Parallel()
	_, k1 := newKey(t, "clara@laptop")
	_, k2 := newKey(t, "sam@desk #2")
	_, k3 := newKey(t, "dana #new: x")
	content := fmt.Sprintf(`# The team's users.
# One entry per person.

# support
- name: Clara   # lead
  key: %s
  operator: 2006
  role: agent

# supervisors
- name: "Sam"
  key: '%s'
  operator: 2002
  role: supervisor
  org: 1002   # customer two
# end of the list
`, k1, k2)
	path := writeUsers(t, content, 0o640)
	f, err := OpenUsersFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Add(Entry{Name: "Dana", Key: k3 + "\n", Operator: 2007, Role: RoleAgent, Org: 1002}); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	users, err := LoadUsers(path)
	if err != nil {
		t.Fatalf("the hub cannot read the file it wrote: %v", err)
	}
	var names []string
	for _, u := range users.List {
		names = append(names, u.Name)
	}
	if strings.Join(names, ",") != "Clara,Sam,Dana" {
		t.Errorf("the users are %v, want Clara, Sam, Dana", names)
	}
	if d := users.List[2]; d.Operator != 2007 || d.Org != 1002 || d.Role != RoleAgent || d.KeyText != k3 {
		t.Errorf("Dana reads back as %+v", d)
	}
	written, _ := os.ReadFile(path)
	if got, want := comments(string(written)), comments(content); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the comments are\n%q\nwant\n%q\nin:\n%s", got, want, written)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("the file's mode is %04o, want 0640 as before", fi.Mode().Perm())
	}

	f, err = OpenUsersFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := f.Remove("clara")
	if err != nil || gone.Name != "Clara" {
		t.Fatalf("remove Clara: %+v, %v", gone, err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	written, _ = os.ReadFile(path)
	want := []string{"# The team's users.", "# One entry per person.", "# supervisors", "# customer two", "# end of the list"}
	if got := comments(string(written)); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("after removing Clara the comments are %q, want %q:\n%s", got, want, written)
	}
	users, err = LoadUsers(path)
	if err != nil || len(users.List) != 2 || users.List[0].Name != "Sam" || users.List[1].Name != "Dana" {
		t.Fatalf("after removing Clara: %+v, %v", users, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("the directory holds %d files, want the users file alone (no temporary file left)", len(entries))
	}
}

// A bad entry is refused with the reason and changes nothing: a key that is not one (or is
// private, or two), no role, an agent without an operator, a name or key the file has.
func TestUsersFileRefusesBadEntries(t *testing.T) {
	t.Parallel()
	_, k1 := newKey(t, "clara@laptop")
	_, k2 := newKey(t, "x")
	content := fmt.Sprintf("- name: Clara\n  key: %s\n  operator: 7\n  role: agent\n", k1)
	path := writeUsers(t, content, 0o600)
	for _, c := range []struct {
		e    Entry
		want string
	}{
		{Entry{Name: "Dana", Key: "ssh-ed25519 nope", Operator: 8, Role: RoleAgent}, `user "Dana" not added: key: not a public key in authorized_keys form`},
		{Entry{Name: "Dana", Key: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n", Operator: 8, Role: RoleAgent}, "key: this is a private key"},
		{Entry{Name: "Dana", Key: k2 + " " + k1, Operator: 8, Role: RoleAgent}, "key: more than one key"},
		{Entry{Name: "Dana", Key: "", Operator: 8, Role: RoleAgent}, "key: is empty"},
		{Entry{Name: "Dana", Key: k2, Operator: 8}, "role: give one of viewer, agent or supervisor"},
		{Entry{Name: "Dana", Key: k2, Operator: 8, Role: "boss"}, `role: "boss" is not a role`},
		{Entry{Name: "Dana", Key: k2, Role: RoleAgent}, "operator: an agent needs the operator id"},
		{Entry{Name: "Dana", Key: k2, Role: RoleAgent, Operator: -9223372036854775808}, "operator: -9223372036854775808 is not a positive"},
		{Entry{Name: "Da\x1bna", Key: k2, Role: RoleViewer}, "name: holds the character U+001B"},
		{Entry{Name: "Dana", Key: k1, Role: RoleViewer}, `key: the same key as "Clara" on line 1`},
		{Entry{Name: "CLARA", Key: k2, Role: RoleViewer}, `name: "Clara" is on line 1 already`},
	} {
		f, err := OpenUsersFile(path, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Add(c.e); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.e, err, c.want)
		}
		if u, err := f.Users(); err != nil || len(u.List) != 1 {
			t.Errorf("a refused entry changed the file: %+v %v", u, err)
		}
	}
	f, _ := OpenUsersFile(path, false)
	if _, err := f.Remove("Clara"); err == nil || !strings.Contains(err.Error(), "the only user") {
		t.Errorf("removing the last user: %v", err)
	}
	if _, err := f.Remove("Zed"); err == nil || !strings.Contains(err.Error(), `no user "Zed"`) {
		t.Errorf("removing a stranger: %v", err)
	}
	broken := writeUsers(t, "- name: Clara\n  key: nope\n  role: agent\n", 0o600)
	if _, err := OpenUsersFile(broken, false); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("a broken file: %v", err)
	}
}

// The first user goes into a file that does not exist yet (mode 0600), or that holds
// only comments or an empty list.
func TestUsersFileTakesTheFirstUser(t *testing.T) {
	t.Parallel()
	_, k := newKey(t, "vic")
	for name, content := range map[string]string{"absent": "", "comments": "# the team\n", "empty list": "# the team\n[]\n"} {
		path := filepath.Join(t.TempDir(), "users.yaml")
		if content != "" {
			path = writeUsers(t, content, 0o640)
		}
		f, err := OpenUsersFile(path, true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := f.Add(Entry{Name: "Vic", Key: k, Role: RoleViewer}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := f.Save(); err != nil {
			t.Fatal(err)
		}
		users, err := LoadUsers(path)
		if err != nil || len(users.List) != 1 || users.List[0].Name != "Vic" {
			data, _ := os.ReadFile(path)
			t.Fatalf("%s: %+v %v\n%s", name, users, err, data)
		}
		if fi, _ := os.Stat(path); content == "" && fi.Mode().Perm() != 0o600 {
			t.Errorf("a new users file has mode %04o, want 0600", fi.Mode().Perm())
		}
	}
	if _, err := OpenUsersFile(filepath.Join(t.TempDir(), "none.yaml"), false); err == nil {
		t.Error("a missing file opened without create")
	}
}

// The hub reads its users file again when its bytes change, without SIGHUP: a key added
// connects, a session of a key removed ends; a file that does not check out changes
// nothing and is not tried again until it changes.
func TestTheHubWatchesItsUsersFile(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	clock := newManualClock()
	ms := threeUsers(t, api)
	th := startHub(t, api, ms[1:], withClock(clock))
	sam := open(t, th.dial(t, "Sam"), "Sam", 80, 24)
	sam.waitList()
	clara := ms[0]
	clara.signer, clara.key = newKey(t, "clara@test")
	th.members["Clara"] = clara
	if c, err := dialWith(th.addr, gossh.PublicKeys(clara.signer)); err == nil {
		_ = c.Close()
		t.Fatal("Clara got in before she was added")
	}

	// The file with Clara, written by users add: she is in after the next look.
	f, err := OpenUsersFile(th.users, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Add(Entry{Name: "Clara", Key: clara.key, Operator: clara.operator, Role: RoleAgent}); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	clock.advance(DefaultUsersCheck)
	waitfor.True(t, "the reload", func() bool { return th.logged(t, "users reloaded", "users", "3") == 1 })
	term := open(t, th.dial(t, "Clara"), "Clara", 80, 24)
	term.waitList()

	// A file that does not check out: logged once, the users in force stay.
	if err := os.WriteFile(th.users, []byte("- name: Eve\n  key: nope\n  role: agent\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	clock.advance(DefaultUsersCheck)
	waitfor.True(t, "the refusal", func() bool { return th.logged(t, "the users file was not reloaded; the one in force stays") == 1 })
	clock.advance(DefaultUsersCheck)
	clock.advance(DefaultUsersCheck)
	if n := th.logged(t, "reading the users file again"); n != 2 {
		t.Errorf("%d reloads, want 2 (the bad file is not read again while it stays the same)", n)
	}
	if th.SessionCount() != 2 {
		t.Errorf("%d sessions after a bad file, want 2", th.SessionCount())
	}

	// Clara removed: her session ends.
	if err := os.WriteFile(th.users, []byte(usersYAML(ms[1], ms[2])), 0o600); err != nil {
		t.Fatal(err)
	}
	clock.advance(DefaultUsersCheck)
	if code := term.ended(); code != 1 {
		t.Errorf("Clara's session ended with %d, want 1", code)
	}
	if !strings.Contains(term.text(), "your key was removed from the hub's users file") {
		t.Errorf("Clara was told %q", tail(term.text(), 300))
	}
}
