//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// statusLine is the status bar (or a note that took its place): the line above the
// footer, the screen's last.
func statusLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) < 2 {
		return ""
	}
	return lines[len(lines)-2]
}

// fastRefresh is a config directory whose file sets auto-refresh to its shortest
// interval, 5 s, so that a test sees ticks come (or not) in seconds.
func fastRefresh(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "parley"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "parley", "config.yaml"), []byte("refresh_interval: 5s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDailyLimitHoldsTheStatusBar: against `parley sandbox --daily-limit 60`, once the
// conversations limit is reached the status bar says so until the limit's end, also
// after the note that announced it went; auto-refresh of conversations stops; the loaded
// list stays usable; and r says why it cannot fetch.
func TestDailyLimitHoldsTheStatusBar(t *testing.T) {
	sb := StartSandbox(t, "small", "--daily-limit", "60")
	c := sb.Client(t)
	for range 58 { // the day's conversations requests, but two
		if _, err := c.ListConversations(context.Background(), client.ConversationListOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	env := append(append([]string{}, sb.Env...), "XDG_CONFIG_HOME="+fastRefresh(t))
	tui := StartTUI(t, 160, 40, env)
	waitList(t, tui)
	limited := func(s string) bool { return strings.Contains(statusLine(s), "daily limit: conversations until") }
	tui.WaitUntil(limited, 60*time.Second, "the daily limit in the status bar (auto-refresh every 5s)")
	bar := statusLine(tui.Screen())
	if !strings.Contains(bar, "auto off (daily limit)") || strings.Contains(bar, "rate-limited") {
		t.Fatalf("status bar %q", bar)
	}
	refused := sb.CountRequests(t, func(r Request) bool {
		return strings.HasSuffix(r.Path, "/api/um/v3/conversations/") && r.Status == 429
	})
	// The note that announced it goes after 7 s; the state stays. Meanwhile auto-refresh
	// (every 5 s) would have asked again had it gone on.
	tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "Daily limit of conversations requests reached") },
		30*time.Second, "the note to go")
	if s := tui.Screen(); !limited(s) {
		t.Fatalf("the state went with the note: %q", statusLine(s))
	}
	if n := sb.CountRequests(t, func(r Request) bool {
		return strings.HasSuffix(r.Path, "/api/um/v3/conversations/") && r.Status == 429
	}); n != refused {
		t.Fatalf("auto-refresh went on at the limit: %d more refused list requests", n-refused)
	}
	// The list stays usable.
	before := tui.Screen()
	tui.Keys("j", "j")
	tui.WaitUntil(func(s string) bool { return s != before && listLoaded.MatchString(s) }, 10*time.Second, "the cursor to move")
	// r says why it cannot fetch.
	tui.Keys("r")
	tui.WaitFor("Daily limit of conversations requests reached", 10*time.Second)

	// At 80×24 the state keeps its words too.
	small := StartTUI(t, 80, 24, env)
	small.WaitUntil(func(s string) bool { return strings.Contains(statusLine(s), "daily limit") }, 60*time.Second,
		"the daily limit at 80×24")
}

// TestStoppedSandboxIsUnreachable: a stopped sandbox reads "unreachable" with the age of
// what is shown, never "rate-limited".
func TestStoppedSandboxIsUnreachable(t *testing.T) {
	sb := StartSandbox(t, "small")
	tui := StartTUI(t, 160, 40, sb.Env)
	waitList(t, tui)
	_ = sb.cmd.Process.Signal(os.Interrupt)
	_, _ = sb.cmd.Process.Wait()
	tui.Keys("r")
	tui.WaitUntil(func(s string) bool {
		if strings.Contains(s, "rate-limited") {
			t.Fatalf("a stopped sandbox reads as rate limiting: %q", statusLine(s))
		}
		bar := statusLine(s)
		return strings.Contains(bar, "unreachable") && !strings.Contains(bar, "retrying") && strings.Contains(bar, "offline data as of")
	}, 60*time.Second, "unreachable once the retries gave up")
}

// TestServerErrorIsNotARateLimit: a 503 reads "server error 503" until the API answers
// again, never "rate-limited".
func TestServerErrorIsNotARateLimit(t *testing.T) {
	sb := StartSandbox(t, "small")
	up, err := url.Parse(sb.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	var failing atomic.Bool
	proxy := httputil.NewSingleHostReverseProxy(up)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"detail": "Service temporarily unavailable."}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	tui := StartTUI(t, 160, 40, []string{"PARLEY_BASE_URL=" + srv.URL + up.Path, "PARLEY_TOKEN=" + sb.Token})
	waitList(t, tui)
	failing.Store(true)
	tui.Keys("r")
	tui.WaitUntil(func(s string) bool {
		if strings.Contains(s, "rate-limited") {
			t.Fatalf("a 503 reads as rate limiting: %q", statusLine(s))
		}
		bar := statusLine(s)
		return strings.Contains(bar, "server error 503") && !strings.Contains(bar, "retrying")
	}, 60*time.Second, "the server error once the retries gave up")
	failing.Store(false)
	tui.Keys("r")
	tui.WaitUntil(func(s string) bool {
		bar := statusLine(s)
		return !strings.Contains(bar, "server error") && strings.Contains(bar, "refreshed")
	}, 30*time.Second, "the server error to end with the next answer")
}
