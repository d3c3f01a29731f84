package serve

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/sanitize"
)

// fixedKey is the authorized_keys line of a key made from seed (the same in every run).
func fixedKey(t testing.TB, seed byte) string {
	t.Helper()
	s, err := gossh.NewSignerFromKey(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
}

// yamlBreak is a line break as YAML counts lines.
var yamlBreak = regexp.MustCompile(`\r\n|[\r\n\x{85}\x{2028}\x{2029}]`)

// yamlText is data as YAML reads it: UTF-16 after its byte order mark, else UTF-8.
func yamlText(data []byte) []byte {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		order = binary.BigEndian
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		order = binary.LittleEndian
	default:
		return data
	}
	units := make([]uint16, 0, len(data)/2)
	for i := 2; i+1 < len(data); i += 2 {
		units = append(units, order.Uint16(data[i:]))
	}
	return []byte(string(utf16.Decode(units)))
}

// maxProblemLen bounds one problem's message: a huge value in the file is not repeated
// whole.
const maxProblemLen = 600

// ParseUsers on any file: either users that obey every rule of the file (a name shown as
// written, one key each, a known role, an operator but for a viewer, positive ids), which
// written out again read back the same, or a *UsersError of at most maxUserProblems+1
// problems, each short, at a line of the file, and safe to print on a terminal.
func FuzzParseUsers(f *testing.F) {
	k1, k2 := fixedKey(f, 1), fixedKey(f, 2)
	valid := fmt.Sprintf("- name: Clara\n  key: %s\n  operator: 7\n  role: agent\n- name: Vic\n  key: %s\n  role: viewer\n  org: 2\n", k1, k2)
	for _, s := range []string{
		valid,
		"\ufeff" + valid,          // a UTF-8 BOM
		"\xfe\xff\x00-\x00 \x00n", // a UTF-16 BOM
		strings.Replace(valid, "operator: 7", "operator: 9223372036854775807", 1),
		strings.Replace(valid, "operator: 7", "operator: -9223372036854775808", 1),
		strings.Replace(valid, "operator: 7", "operator: 9223372036854775808", 1),
		strings.Replace(valid, "operator: 7", "operator: NaN", 1),
		strings.Replace(valid, "operator: 7", "operator: .nan", 1),
		strings.Replace(valid, "operator: 7", "operator: 0x7", 1),
		strings.Replace(valid, "operator: 7", "operator: 7.0", 1),
		strings.Replace(valid, "name: Clara", "name: \"Cl\\u200cara\\u3164\\u202e\"", 1),
		strings.Replace(valid, "name: Clara", "name: \"\\u3164\\u115f\"", 1),
		strings.Replace(valid, "name: Clara", "name: \"\\e]0;x\\a\"", 1),
		strings.Replace(valid, "name: Clara", "name: "+strings.Repeat("x", 1<<20), 1),
		strings.Replace(valid, "role: agent", "role: "+strings.Repeat("\u202e", 1000), 1),
		strings.Replace(valid, "Vic", "clara", 1),
		strings.Replace(valid, k2, k1, 1),
		"- &a {name: A}\n- *a\n",
		"- name: [" + strings.Repeat("[", 10000),
		"[]", "", "- 1\n- [2]\n", "{a: b}", "- name: A\n  name: B\n",
		"- " + strings.Repeat("x", 1<<20) + ": 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := ParseUsers(data, "u.yaml")
		if err != nil {
			if u != nil {
				t.Fatal("users returned with an error")
			}
			var ue *UsersError
			if !errors.As(err, &ue) || len(ue.Problems) == 0 || len(ue.Problems) > maxUserProblems+1 {
				t.Fatalf("error %T with the wrong problems: %v", err, err)
			}
			lines := len(yamlBreak.FindAll(yamlText(data), -1)) + 1
			for _, p := range ue.Problems {
				if p.Line < 0 || p.Line > lines {
					t.Fatalf("problem at line %d of a %d-line file: %s", p.Line, lines, p.Msg)
				}
				if len(p.Msg) > maxProblemLen {
					t.Fatalf("a problem of %d bytes: %.200q…", len(p.Msg), p.Msg)
				}
			}
			msg := err.Error()
			if !utf8.ValidString(msg) || strings.ContainsAny(msg, "\r\t\x1b\x7f") {
				t.Fatalf("the error is not plain text: %q", msg)
			}
			if r, at, bad := sanitize.Leak(msg); bad {
				t.Fatalf("the error shows a raw %U at %d: %q", r, at, msg)
			}
			return
		}
		if len(u.List) == 0 {
			t.Fatal("no users and no error")
		}
		names := map[string]bool{}
		keys := map[string]bool{}
		for _, usr := range u.List {
			if usr.Name == "" || sanitize.Line(usr.Name) != usr.Name || strings.TrimSpace(usr.Name) != usr.Name {
				t.Fatalf("name %q is not shown as written", usr.Name)
			}
			if names[strings.ToLower(usr.Name)] {
				t.Fatalf("name %q twice", usr.Name)
			}
			names[strings.ToLower(usr.Name)] = true
			if usr.Key == nil || keys[string(usr.Key.Marshal())] {
				t.Fatalf("user %q: key missing or twice", usr.Name)
			}
			keys[string(usr.Key.Marshal())] = true
			if !slices.Contains(Roles, usr.Role) || usr.Org < 0 || usr.Operator < 0 || (usr.Operator == 0) != (usr.Role == RoleViewer && usr.Operator == 0) {
				t.Fatalf("user %+v", usr)
			}
			if usr.Role != RoleViewer && usr.Operator <= 0 {
				t.Fatalf("%s %q without an operator", usr.Role, usr.Name)
			}
		}
		// Written out again, the file reads back the same.
		var entries []map[string]any
		for _, usr := range u.List {
			e := map[string]any{"name": usr.Name, "key": usr.KeyText, "role": string(usr.Role)}
			if usr.Operator != 0 {
				e["operator"] = usr.Operator
			}
			if usr.Org != 0 {
				e["org"] = usr.Org
			}
			entries = append(entries, e)
		}
		out, err := yaml.Marshal(entries)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseUsers(out, "u.yaml")
		if err != nil {
			t.Fatalf("written out again:\n%s\ndoes not read: %v", out, err)
		}
		if len(back.List) != len(u.List) {
			t.Fatalf("%d users read back as %d", len(u.List), len(back.List))
		}
		for i, b := range back.List {
			a := u.List[i]
			if a.Name != b.Name || a.Operator != b.Operator || a.Org != b.Org || a.Role != b.Role || !bytes.Equal(a.Key.Marshal(), b.Key.Marshal()) {
				t.Fatalf("user %d: %+v read back as %+v", i, a, b)
			}
		}
	})
}
