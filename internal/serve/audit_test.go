package serve

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Each write is one JSON line: time, user, operator, method, path, the ids it touched and
// its outcome; the file is private and the token never in it.
func TestAuditLogLines(t *testing.T) {
	t.Parallel()
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

// auditLines reads an audit log as a reader that skips what is not JSON does: the records,
// and the lines that are not one.
func auditLines(t *testing.T, data []byte) (records []auditLine, other []string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r auditLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			other = append(other, l)
			continue
		}
		records = append(records, r)
	}
	return records, other
}

// failingWriter writes the first n bytes it is given, then fails.
type failingWriter struct {
	w strings.Builder
	n int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		f.w.Write(p[:f.n])
		n := f.n
		f.n = 0
		return n, errors.New("disk full")
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// A crash in the middle of a line leaves every record before it readable, and the records
// written after a restart each on a line of their own: the line cut short is the only one
// a reader skips. The same when a write fails half way (a full disk) and later ones work.
func TestAuditLogCutShortKeepsEveryCompleteRecord(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 20, 10, 15, 30, 0, time.UTC)
	write := func(a *Audit, users ...string) {
		for _, u := range users {
			a.Record(Write{User: u, Operator: 2006, Method: "PATCH", Path: "/api/um/v3/conversations/700150/", Status: 200, At: at})
		}
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	a, err := OpenAudit(path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	write(a, "Ann", "Bob", "Cyd")
	_ = a.Close()
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lastStart := strings.LastIndex(strings.TrimSuffix(string(whole), "\n"), "\n") + 1
	for cut := lastStart + 1; cut < len(whole); cut++ { // inside the last line
		if err := os.WriteFile(path, whole[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		a, err := OpenAudit(path, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		write(a, "Dan", "Eve")
		_ = a.Close()
		data, _ := os.ReadFile(path)
		records, other := auditLines(t, data)
		var users []string
		for _, r := range records {
			users = append(users, r.User)
		}
		wantUsers, wantOther := "Ann Bob Dan Eve", []string{string(whole[lastStart:cut])}
		if cut == len(whole)-1 { // only the newline lost: the record is whole
			wantUsers, wantOther = "Ann Bob Cyd Dan Eve", nil
		}
		if strings.Join(users, " ") != wantUsers || !slices.Equal(other, wantOther) {
			t.Fatalf("cut at byte %d: records of %q, other lines %q", cut, users, other)
		}
	}

	w := &failingWriter{n: 30}
	b := NewAudit(w, "")
	write(b, "Ann")
	w.n = 1 << 20 // space again
	write(b, "Bob", "Cyd")
	records, other := auditLines(t, []byte(w.w.String()))
	if len(records) != 2 || records[0].User != "Bob" || records[1].User != "Cyd" || len(other) != 1 || len(other[0]) != 30 {
		t.Fatalf("after a failed write: %+v, other %q", records, other)
	}
}

// An error text from the API with reordering and invisible characters and an escape is
// written escaped: the log shows nothing hidden on a terminal and decodes to the text.
func TestAuditLogEscapesHostileErrorText(t *testing.T) {
	var b strings.Builder
	a := NewAudit(&b, "")
	const hostile = "refused \u202eevil\u202c \u2066x\u2069 \u200b\x1b]0;title\x07 \U000E0041"
	a.Record(Write{User: "Sam", Method: "PATCH", Path: "/api/um/v3/operators/2006/away/", Err: errors.New(hostile),
		At: time.Date(2026, 11, 20, 10, 15, 30, 0, time.UTC)})
	line := b.String()
	for _, r := range line {
		if r > 0x7e || r < 0x20 && r != '\n' {
			t.Fatalf("the line holds %U raw: %q", r, line)
		}
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	if m["error"] != hostile {
		t.Fatalf("the error decodes to %q, want %q", m["error"], hostile)
	}
}
