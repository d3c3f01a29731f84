//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

func TestEditTopics(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	first, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Ordering: listOrder}})
	if err != nil || len(first.Results) == 0 {
		t.Fatalf("first conversation: %v", err)
	}
	conv := first.Results[0]
	tui := StartTUI(t, 120, 40, sb.Env)
	waitList(t, tui)
	tui.Keys("t")
	tui.WaitFor("Topics of conversation", 10*time.Second)
	tui.Keys("Tab") // from the topic picker to the free-text field
	tui.Type("Escalated")
	tui.Keys("Enter")
	s := tui.WaitFor("Topics saved", 10*time.Second)
	if !strings.Contains(s, "Escalated") {
		t.Fatalf("the row does not show the new topic:\n%s", s)
	}
	got, err := c.GetConversation(t.Context(), conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, tp := range got.Topics {
		texts = append(texts, tp.Text)
	}
	if !strings.Contains(strings.Join(texts, ","), "Escalated") || len(got.Topics) != len(conv.Topics)+1 {
		t.Fatalf("topics on the server: %q (before: %d topics)", texts, len(conv.Topics))
	}
}

func TestBulkDeleteTwoEndedAndAnOngoingRefused(t *testing.T) {
	sb := StartSandbox(t, "small")
	c := sb.Client(t)
	page, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100, Ordering: listOrder}})
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	var ended, ongoing []int64
	for i, conv := range page.Results {
		switch {
		case conv.Status == client.StatusEnded && len(ended) < 2:
			ended = append(ended, conv.ID)
			idx = append(idx, i)
		case conv.Status != client.StatusEnded && len(ongoing) < 1:
			ongoing = append(ongoing, conv.ID)
			idx = append(idx, i)
		}
	}
	if len(ended) != 2 || len(ongoing) != 1 {
		t.Fatalf("the first page lacks two ended and one ongoing conversation")
	}
	tui := StartTUI(t, 120, 40, sb.Env)
	waitList(t, tui)
	at := 0
	for _, i := range idx {
		for ; at < i; at++ {
			tui.Keys("j")
		}
		tui.Keys("Space") // marks, then moves down
		at++
	}
	tui.WaitFor("3 marked", 10*time.Second)
	tui.Keys("d")
	s := tui.WaitFor("Delete 2 of 3 marked conversations?", 10*time.Second)
	if !strings.Contains(s, "2 ended conversations will be deleted") || !strings.Contains(s, "1 ongoing one is not sent and stays") {
		t.Fatalf("the confirmation does not warn about the ongoing one:\n%s", s)
	}
	tui.Keys("y")
	s = tui.WaitFor("Deleted 2 conversations.", 10*time.Second)
	if !strings.Contains(s, "1 ongoing conversation not sent") {
		t.Fatalf("no report of the refused ongoing conversation:\n%s", s)
	}
	for _, id := range ended {
		if _, err := c.GetConversation(t.Context(), id); !client.IsNotFound(err) {
			t.Fatalf("ended conversation %d was not deleted (%v)", id, err)
		}
	}
	if _, err := c.GetConversation(t.Context(), ongoing[0]); err != nil {
		t.Fatalf("ongoing conversation %d was deleted: %v", ongoing[0], err)
	}
	// Exactly the marked ended ids were sent, never a filter-only bulk delete nor the
	// ongoing one.
	for _, r := range sb.Requests(t) {
		if r.Method == "DELETE" && strings.HasSuffix(r.Path, "/conversations/") &&
			(!strings.Contains(r.Query, "delete_ids=") || strings.Contains(r.Query, fmt.Sprint(ongoing[0]))) {
			t.Fatalf("a list DELETE without delete_ids or with the ongoing %d: %+v", ongoing[0], r)
		}
	}
}

// TestLoginThenParleyWithoutEnv: after `auth login` (here with --insecure-storage, as on a
// headless machine) a plain `parley` opens on that API with no variable set.
func TestLoginThenParleyWithoutEnv(t *testing.T) {
	sb := StartSandbox(t, "small")
	cfg := t.TempDir()
	login := exec.Command(binary, "auth", "login", "--with-token", "--insecure-storage", "--base-url", sb.BaseURL)
	login.Env = append(cleanEnv(), "XDG_CONFIG_HOME="+cfg, "XDG_RUNTIME_DIR="+t.TempDir())
	login.Stdin = strings.NewReader(sb.Token + "\n")
	out, err := login.CombinedOutput()
	if err != nil {
		t.Fatalf("auth login: %v\n%s", err, out)
	}
	if strings.Contains(string(out), sb.Token) {
		t.Fatal("auth login printed the token")
	}
	tui := StartTUI(t, 100, 30, []string{"XDG_CONFIG_HOME=" + cfg})
	s := waitList(t, tui)
	host := strings.TrimPrefix(sb.BaseURL, "http://")
	if !strings.Contains(s, host) || strings.Contains(s, "demo data") {
		t.Fatalf("parley did not open on %s:\n%s", host, s)
	}
}

// TestConflictingKeysAreReportedAtStart: a config binding search to j (already down) stops
// parley at start with the file and line.
func TestConflictingKeysAreReportedAtStart(t *testing.T) {
	sb := StartSandbox(t, "small")
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "parley"), 0o700); err != nil {
		t.Fatal(err)
	}
	conf := "theme: auto\nkeys:\n  search: [j]\n"
	if err := os.WriteFile(filepath.Join(cfg, "parley", "config.yaml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	tui := StartTUI(t, 100, 30, append(sb.Env, "XDG_CONFIG_HOME="+cfg))
	tui.WaitUntil(func(string) bool { return tui.Dead() }, 10*time.Second, "parley to stop")
	msg := tui.Stderr()
	want := fmt.Sprintf("config.yaml:3: keys.search: key %q is also bound to %q", "j", "down")
	if !strings.Contains(msg, want) {
		t.Fatalf("stderr does not report the conflict (%q):\n%s", want, msg)
	}
}

// cleanEnv is the environment without parley's variables or a D-Bus session.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "PARLEY_") || k == "DBUS_SESSION_BUS_ADDRESS" || k == "XDG_CONFIG_HOME" || k == "XDG_RUNTIME_DIR" {
			continue
		}
		out = append(out, kv)
	}
	return out
}
