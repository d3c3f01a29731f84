//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// offsetCap is the spec's cap of the offset lists.
const offsetCap = 10_000

// thousands writes n as the screen does: 12,888.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestPastTheCapWithACappedCount: against a server whose offset lists report a count of
// at most 10,000 (`parley sandbox --variant capped-count`) and that has more conversations
// than that, the conversation list in id order (newest first: the config file's all entry
// makes it the default) shows "10,000+",
// G reaches the true last conversation, and walking back up from it crosses the cap: every
// row is the server's, in its order, on both sides of position 10,000 and both ways across
// it. The request log shows the rows past the cap came from /conversations/all/ (ordering
// id), never from an offset past the cap.
func TestPastTheCapWithACappedCount(t *testing.T) {
	began := time.Now()
	sb := StartSandbox(t, "large", "--variant", "capped-count")
	t.Logf("the large sandbox started (seeded) in %s", time.Since(began).Round(time.Second))

	// The server's default order, read through /all/ (oldest first), newest first.
	c := sb.Client(t)
	var ids []int64
	for conv, err := range c.ConversationsAll(t.Context(), client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: client.MaxLimit}}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, conv.ID)
	}
	slices.Reverse(ids)
	n := len(ids)
	if n <= offsetCap+200 {
		t.Fatalf("%d conversations in the default organization: the test needs well over %d", n, offsetCap)
	}
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil || p.Count != offsetCap {
		t.Fatalf("the offset list's count is %v (%v), want the capped %d", p, err, offsetCap)
	}
	before := len(sb.Requests(t))

	// 200×100: one line a row, about 95 rows to a page.
	conf := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(conf, []byte("views:\n  - name: all\n    screen: conversations\n    ordering: -id\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tui := StartTUI(t, 200, 100, append(slices.Clip(sb.Env), "PARLEY_CONFIG="+conf))
	// The header says the count may be more than the cap.
	// (The list's border is heavy while it has the focus, light otherwise.)
	tui.WaitUntil(func(s string) bool {
		return strings.Contains(s, "│ "+thousands(offsetCap)+"+ conversations ·") || strings.Contains(s, "┃ "+thousands(offsetCap)+"+ conversations ·")
	}, time.Minute, "the header with "+thousands(offsetCap)+"+ conversations")
	walkStart := time.Now()

	total := thousands(n)
	footer := regexp.MustCompile(`[│┃] (\d[\d,]*)/` + regexp.QuoteMeta(total) + `\b`)
	thread := regexp.MustCompile(`│ #(\d+) · \d+ loaded`)
	// at waits until the cursor is at pos (1-based) and the thread shown is the one of the
	// server's conversation at that position (the thread follows the cursor once it rests).
	at := func(pos int, what string) {
		t.Helper()
		want := fmt.Sprintf("%d", ids[pos-1])
		tui.WaitUntil(func(s string) bool {
			f, th := footer.FindStringSubmatch(s), thread.FindStringSubmatch(s)
			return f != nil && f[1] == thousands(pos) && th != nil && th[1] == want && !strings.Contains(s, "loading…")
		}, time.Minute, fmt.Sprintf("%s: position %s of %s showing the server's conversation there, #%s", what, thousands(pos), total, want))
	}
	position := func() int {
		t.Helper()
		f := footer.FindStringSubmatch(tui.Screen())
		if f == nil {
			t.Fatalf("no position in the footer:\n%s", tui.Screen())
		}
		v, _ := strconv.Atoi(strings.ReplaceAll(f[1], ",", ""))
		return v
	}

	// Down: G goes to the true last conversation, past the cap.
	tui.Keys("G")
	at(n, "G")
	if s := tui.Screen(); !strings.Contains(s, total+" conversations") {
		t.Fatalf("after G the header does not show the true total %s:\n%s", total, s)
	}

	// Up by pages to just below the cap, then row by row across it and back.
	for pos := n; pos > offsetCap+100; {
		tui.Keys("C-u")
		prev := pos
		tui.WaitUntil(func(s string) bool {
			f := footer.FindStringSubmatch(s)
			return f != nil && f[1] != thousands(prev) && !strings.Contains(s, "loading…") && !strings.Contains(s, "⋯")
		}, time.Minute, "a page up")
		pos = position()
	}
	ups := slices.Repeat([]string{"k"}, position()-(offsetCap+1))
	for len(ups) > 0 {
		k := min(len(ups), 50)
		tui.Keys(ups[:k]...)
		ups = ups[k:]
	}
	at(offsetCap+1, "up to the first row past the cap")
	tui.Keys("k")
	at(offsetCap, "up to the last row of the cap")
	tui.Keys("k")
	at(offsetCap-1, "up above the cap")
	tui.Keys("j", "j")
	at(offsetCap+1, "down across the cap again")
	t.Logf("G and the walk back across the cap took %s (the whole test %s)",
		time.Since(walkStart).Round(time.Millisecond), time.Since(began).Round(time.Second))

	// The request log: the rows past the cap came through /all/ in id order; no offset
	// page was asked for past the cap.
	var all, offsets []url.Values
	for _, r := range sb.Requests(t)[before:] {
		q, err := url.ParseQuery(r.Query)
		if err != nil {
			t.Fatal(err)
		}
		switch r.Path {
		case "/api/um/v3/conversations/all/":
			all = append(all, q)
		case "/api/um/v3/conversations/":
			offsets = append(offsets, q)
		}
	}
	if minPages := (n - offsetCap + client.MaxLimit - 1) / client.MaxLimit; len(all) < minPages {
		t.Fatalf("%d /all/ requests for the %d rows past the cap, want at least %d", len(all), n-offsetCap, minPages)
	}
	for _, q := range all {
		if q.Get("ordering") != "id" {
			t.Fatalf("an /all/ request without ordering=id: %v", q)
		}
	}
	for _, q := range offsets {
		if off, _ := strconv.Atoi(q.Get("offset")); off >= offsetCap {
			t.Fatalf("an offset page past the cap was asked for: %v", q)
		}
	}
	t.Logf("%d /all/ requests, %d offset pages", len(all), len(offsets))
}
