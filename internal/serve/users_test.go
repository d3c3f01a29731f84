package serve

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// newKey makes a key pair; the public key in authorized_keys form with comment.
func newKey(t testing.TB, comment string) (gossh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
	return s, line + " " + comment
}

func TestParseUsersReadsEveryField(t *testing.T) {
	t.Parallel()
	_, k1 := newKey(t, "clara@laptop")
	_, k2 := newKey(t, "sam@desk")
	_, k3 := newKey(t, "vic")
	data := fmt.Sprintf(`# the team
- name: Clara
  key: %s
  operator: 7
  role: agent
- name: Sam Okafor
  key: "%s"
  operator: 3
  org: 1002
  role: Supervisor
- name: Vic
  key: %s
  role: viewer
`, k1, k2, k3)
	u, err := ParseUsers([]byte(data), "users.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(u.List) != 3 {
		t.Fatalf("%d users, want 3", len(u.List))
	}
	c, s, v := u.List[0], u.List[1], u.List[2]
	if c.Name != "Clara" || c.Operator != 7 || c.Role != RoleAgent || c.Org != 0 || c.Line != 2 || c.KeyText != k1 {
		t.Errorf("Clara = %+v", c)
	}
	if s.Name != "Sam Okafor" || s.Operator != 3 || s.Org != 1002 || s.Role != RoleSupervisor || s.Line != 6 {
		t.Errorf("Sam = %+v", s)
	}
	if v.Role != RoleViewer || v.Operator != 0 {
		t.Errorf("Vic = %+v", v)
	}
	if got, ok := u.ByKey(s.Key); !ok || got.Name != "Sam Okafor" {
		t.Errorf("ByKey(Sam's key) = %v, %v", got.Name, ok)
	}
	other, _ := newKey(t, "")
	if _, ok := u.ByKey(other.PublicKey()); ok {
		t.Error("an unknown key found a user")
	}
	u.SetDefaultOrg(1001)
	if got := u.Orgs(); fmt.Sprint(got) != "[1001 1002]" {
		t.Errorf("Orgs after SetDefaultOrg(1001) = %v", got)
	}
}

// Every problem of a users file is reported at its line, with the entry named, and
// nothing is returned.
func TestParseUsersNamesEachBadEntry(t *testing.T) {
	t.Parallel()
	_, k1 := newKey(t, "a")
	_, k2 := newKey(t, "b")
	priv := "-----BEGIN OPENSSH PRIVATE KEY----- abc"
	tests := []struct {
		name, file string
		want       []string
	}{
		{"bad key", "- name: Ann\n  key: ssh-ed25519 notbase64\n  operator: 7\n  role: agent\n",
			[]string{`u.yaml:2: user 1 ("Ann"): key: not a public key in authorized_keys form`}},
		{"private key", fmt.Sprintf("- name: Ann\n  key: %s\n  operator: 7\n  role: agent\n", priv),
			[]string{`u.yaml:2: user 1 ("Ann"): key: this is a private key`}},
		{"two keys", fmt.Sprintf("- name: Ann\n  key: %s %s\n  operator: 7\n  role: agent\n", k1, k2),
			[]string{`u.yaml:2: user 1 ("Ann"): key: more than one key`}},
		{"duplicate key", fmt.Sprintf("- name: Ann\n  key: %s\n  operator: 7\n  role: agent\n- name: Bob\n  key: %s\n  operator: 8\n  role: agent\n", k1, k1),
			[]string{`u.yaml:6: user 2 ("Bob"): key: the same key as "Ann" on line 1`}},
		{"duplicate name", fmt.Sprintf("- name: Ann\n  key: %s\n  operator: 7\n  role: agent\n- name: ann\n  key: %s\n  operator: 8\n  role: agent\n", k1, k2),
			[]string{`u.yaml:5: user 2 ("ann"): name: "Ann" is on line 1 already`}},
		{"unknown role", fmt.Sprintf("- name: Ann\n  key: %s\n  operator: 7\n  role: admin\n", k1),
			[]string{`u.yaml:4: user 1 ("Ann"): role: "admin" is not a role (viewer, agent or supervisor)`}},
		{"no operator", fmt.Sprintf("- name: Ann\n  key: %s\n  role: agent\n", k1),
			[]string{`u.yaml:1: user 1 ("Ann"): operator is missing`}},
		{"bad operator", fmt.Sprintf("- name: Ann\n  key: %s\n  operator: seven\n  role: agent\n", k1),
			[]string{`u.yaml:3: user 1 ("Ann"): operator: "seven" is not a positive integer id`}},
		{"unknown field", fmt.Sprintf("- name: Ann\n  key: %s\n  operator: 7\n  role: agent\n  team: blue\n", k1),
			[]string{`u.yaml:5: user 1 ("Ann"): unknown field "team"`}},
		{"no name", fmt.Sprintf("- key: %s\n  operator: 7\n  role: agent\n", k1),
			[]string{`u.yaml:1: user 1: name is missing`}},
		{"control character in the name", fmt.Sprintf("- name: \"Ann\\e[31m\"\n  key: %s\n  operator: 7\n  role: agent\n", k1),
			[]string{`u.yaml:1: user 1 ("Ann\x1b[31m"): name: holds the character U+001B`}},
		{"not a list", "name: Ann\n", []string{"u.yaml:1: the file must be a list of users"}},
		{"empty", "", []string{"u.yaml: no users"}},
		{"empty list", "[]\n", []string{"u.yaml:1: no users: the list is empty"}},
		{"not YAML", "- name: [\n", []string{"u.yaml: not a YAML file"}},
		{"two problems", fmt.Sprintf("- name: Ann\n  key: nope\n  operator: 7\n  role: agent\n- name: Bob\n  key: %s\n  operator: 8\n  role: boss\n", k2),
			[]string{`u.yaml:2: user 1 ("Ann"): key:`, `u.yaml:8: user 2 ("Bob"): role: "boss"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := ParseUsers([]byte(tt.file), "u.yaml")
			if err == nil {
				t.Fatalf("no error; users %+v", u)
			}
			if u != nil {
				t.Errorf("users returned with the error: %+v", u)
			}
			var ue *UsersError
			if !errors.As(err, &ue) {
				t.Fatalf("error %T %v is not a *UsersError", err, err)
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error\n%s\ndoes not contain\n%s", msg, w)
				}
			}
			if n := strings.Count(msg, "\n") + 1; n != len(tt.want) {
				t.Errorf("%d problems reported, want %d:\n%s", n, len(tt.want), msg)
			}
		})
	}
}

// The operators of the users file are checked against the API's list of each
// organization: an id the API does not list, and an organization it does not know, are
// errors naming the entry's line.
func TestCheckOperatorsAgainstTheAPI(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	c := api.client(t, 0)
	ops := api.operators(t)
	agent, admin := ops["agent"][0], ops["admin"][0]
	list := func(ctx context.Context, org int64) ([]OperatorRef, error) {
		var out []OperatorRef
		for op, err := range c.WithContext(org, 0).Operators(ctx) {
			if err != nil {
				return nil, err
			}
			out = append(out, OperatorRef{ID: op.ID, Org: op.OrganizationID, Name: op.Name + "\x1b[31m", Role: op.Role})
		}
		return out, nil
	}
	_, k1 := newKey(t, "")
	_, k2 := newKey(t, "")
	_, k3 := newKey(t, "")
	good := fmt.Sprintf("- name: Ann\n  key: %s\n  operator: %d\n  role: agent\n- name: Bob\n  key: %s\n  operator: %d\n  role: supervisor\n- name: Vic\n  key: %s\n  role: viewer\n",
		k1, agent, k2, admin, k3)
	u, err := ParseUsers([]byte(good), "u.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lists := func() int {
		return api.log.count(t, func(r logged) bool { return strings.HasSuffix(r.Path, "/operators/") })
	}
	before := lists()
	dir, err := CheckOperators(context.Background(), u, list)
	if err != nil {
		t.Fatalf("good file: %v", err)
	}
	if !dir.Has(0, agent) || !dir.Has(0, admin) || dir.Has(0, 999999) {
		t.Errorf("directory %v", dir)
	}
	if n := lists() - before; n != 1 {
		t.Errorf("%d operator list requests for three users of one organization, want 1", n)
	}

	other := api.info.OrgIDs[1]
	bad := fmt.Sprintf("- name: Ann\n  key: %s\n  operator: 999999\n  role: agent\n- name: Bob\n  key: %s\n  operator: %d\n  org: 987654\n  role: supervisor\n- name: Cy\n  key: %s\n  operator: %d\n  org: %d\n  role: agent\n",
		k1, k2, admin, k3, agent, other)
	u, err = ParseUsers([]byte(bad), "u.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = CheckOperators(context.Background(), u, list)
	if err == nil {
		t.Fatal("no error for unknown operators")
	}
	msg := err.Error()
	if strings.Contains(msg, "\x1b") {
		t.Errorf("the API's text reached the error as it is: %q", msg)
	}
	for _, w := range []string{
		`u.yaml:1: user "Ann": operator: 999999 is not an operator of the hub's organization; the API lists`,
		fmt.Sprintf(` %d `, agent), "(agent)", "(owner)",
		`u.yaml:5: user "Bob": org: the API does not know organization 987654`,
		fmt.Sprintf(`u.yaml:10: user "Cy": operator: %d is not an operator of organization %d`, agent, other),
	} {
		if !strings.Contains(msg, w) {
			t.Errorf("error\n%s\ndoes not contain\n%s", msg, w)
		}
	}
}
