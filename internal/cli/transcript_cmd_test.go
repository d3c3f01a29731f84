package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// paths are the method, path and query of every request logged, in order.
func paths(log *viewtest.RequestLog) []string {
	var out []string
	for _, r := range log.Lines() {
		out = append(out, r.Method+" "+r.Path+"?"+r.Query)
	}
	return out
}

// TestConversationsTranscriptOfALongThread: the transcript of a 1,234-message thread has
// every message once, oldest first, and costs ⌈1234/100⌉ = 13 requests, all of them pages of
// the thread in ascending order; -o writes a 0600 file.
func TestConversationsTranscriptOfALongThread(t *testing.T) {
	bin := parleyBinary(t)
	log := &viewtest.RequestLog{}
	sb, err := sandbox.Start(t.Context(), sandbox.Options{Size: sandbox.SizeSmall, LongThread: 1234, RequestLog: log}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	long := sb.Server.Info().LongConversationID
	path := filepath.Join(t.TempDir(), "long.jsonl")
	r := runParley(t, bin, apiEnv(t, sb), "", "conversations", "transcript", strconv.FormatInt(long, 10), "--format", "json", "-o", path)
	if r.err != nil {
		t.Fatalf("transcript: %v\n%s", r.err, r.stderr)
	}
	if !strings.Contains(r.stderr, "wrote 1234 messages of conversation") || r.stdout != "" {
		t.Fatalf("stdout %q, stderr %q", r.stdout, r.stderr)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the file: %v %v", fi, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 1234 {
		t.Fatalf("%d messages in the transcript, want 1,234", len(lines))
	}
	var prev client.Message
	seen := map[string]bool{}
	for i, l := range lines {
		var m struct {
			ID     string      `json:"id"`
			SentAt client.Time `json:"sent_at"`
			Body   string      `json:"body"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if i == 0 && !strings.HasPrefix(m.Body, "Start of the long thread") {
			t.Fatalf("the first message is %q", m.Body)
		}
		if seen[m.ID] {
			t.Fatalf("message %s twice (line %d)", m.ID, i+1)
		}
		seen[m.ID] = true
		if i > 0 && m.SentAt.Before(prev.SentAt.Time) {
			t.Fatalf("message %d (%s) is older than the one before it (%s)", i+1, m.ID, prev.ID)
		}
		prev.ID, prev.SentAt = m.ID, m.SentAt
	}
	var pages []string
	for _, p := range paths(log) {
		if strings.Contains(p, "/messages/") {
			pages = append(pages, p)
		}
	}
	t.Logf("%d requests, %d of them message pages", len(paths(log)), len(pages))
	if len(pages) != 13 || len(paths(log)) != 13 {
		t.Fatalf("%d requests, %d of them message pages; want 13 and 13:\n%s", len(paths(log)), len(pages), strings.Join(paths(log), "\n"))
	}
	for _, p := range pages {
		if !strings.Contains(p, "ordering=id") || !strings.Contains(p, "limit=100") {
			t.Fatalf("a page not asked in ascending order by 100: %s", p)
		}
	}

	// Text to stdout; a bad id or format is refused before any request.
	r = runParley(t, bin, apiEnv(t, sb), "", "conversations", "transcript", strconv.FormatInt(long, 10))
	if r.err != nil || !strings.HasPrefix(r.stdout, "Conversation #"+strconv.FormatInt(long, 10)) || !strings.HasSuffix(r.stdout, "\n1234 messages\n") {
		t.Fatalf("text: %v\n%s", r.err, r.stderr)
	}
	// A conversation that is not there: the error, and nothing on stdout.
	r = runParley(t, bin, apiEnv(t, sb), "", "conversations", "transcript", "99")
	if r.err == nil || r.stdout != "" || !strings.Contains(r.stderr, "conversation 99 after 0 messages") {
		t.Fatalf("a missing conversation: %v, stdout %q, stderr %q", r.err, r.stdout, r.stderr)
	}
	before := len(paths(log))
	for _, args := range [][]string{{"0"}, {"abc"}, {"7", "--format", "pdf"}, {}} {
		r = runParley(t, bin, apiEnv(t, sb), "", append([]string{"conversations", "transcript"}, args...)...)
		if r.err == nil {
			t.Errorf("%q was taken", args)
		}
	}
	if n := len(paths(log)); n != before {
		t.Errorf("refused arguments sent %d requests", n-before)
	}
}
