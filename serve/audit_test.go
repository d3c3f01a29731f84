package serve

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Each write is one JSON line: time, user, operator, method, path, the ids it touched and
// its outcome; the file is private and the token never in it.
func TestAuditLogLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte("{\"earlier\":true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const token = "cust_secret_token_123"
	a, err := OpenAudit(path, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 20, 10, 15, 30, 0, time.UTC)
	a.Record(Write{User: "Clara", Org: 1001, Operator: 2006, Method: "PATCH", Path: "/api/um/v3/conversations/700150/", Status: 200, At: at})
	a.Record(Write{User: "Vic", Org: 1001, Method: "DELETE", Path: "/api/um/v3/conversations/", Query: "delete_ids=5,6,7&status=new",
		Refused: true, Reason: "a viewer cannot change anything", At: at})
	a.Record(Write{User: "Sam", Operator: 2002, Method: "PATCH", Path: "/api/um/v3/operators/2006/away/",
		Err: errors.New("Authorization " + token + " lost"), At: at})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("audit log mode %04o, want 0600", perm)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), token) {
		t.Errorf("the token is in the audit log:\n%s", data)
	}
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 4 {
		t.Fatalf("%d lines, want the earlier one and 3:\n%s", len(lines), data)
	}
	want := []string{
		`{"ids":[700150],"method":"PATCH","operator":2006,"org":1001,"path":"/api/um/v3/conversations/700150/","status":200,"time":"2026-11-20T10:15:30Z","user":"Clara"}`,
		`{"delete_ids":[5,6,7],"method":"DELETE","operator":0,"org":1001,"path":"/api/um/v3/conversations/","reason":"a viewer cannot change anything","refused":true,"time":"2026-11-20T10:15:30Z","user":"Vic"}`,
		`{"error":"Authorization [token] lost","ids":[2006],"method":"PATCH","operator":2002,"path":"/api/um/v3/operators/2006/away/","time":"2026-11-20T10:15:30Z","user":"Sam"}`,
	}
	for i, w := range want {
		got, _ := json.Marshal(lines[i+1])
		if string(got) != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+2, got, w)
		}
	}
}
