package thread_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations/thread"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// gapEnv is the long thread of a sandbox of the test's own, with its request log, opened
// at w×h; ids are all its message ids, oldest first (asked for before the pane opened).
type gapEnv struct {
	env  *viewtest.Env
	m    thread.Model
	ids  []string
	long int64
	base int // message requests before the pane opened
}

func openLong(t *testing.T, w, h int) *gapEnv {
	t.Helper()
	env := viewtest.NewEnv(t, sandbox.Options{}, nil)
	long := env.Info.LongConversationID
	var ids []string
	for msg, err := range env.Client.Messages(t.Context(), long, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100, Ordering: "id"}}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, msg.ID)
	}
	base := env.Log.Count("GET", "/messages/")
	m := thread.New(viewtest.Ctx(env.Client))
	m.SetSize(w, h)
	m.Focus()
	m, _ = apply(m, viewtest.Run(m.Open(long, "Long thread", false), wait))
	return &gapEnv{env: env, m: m, ids: ids, long: long, base: base}
}

// messageRequests counts the message pages the sandbox served since the pane opened.
func (g *gapEnv) messageRequests() int { return g.env.Log.Count("GET", "/messages/") - g.base }

// press presses key and runs what it asks for, and what that asks for, to the end.
func press(m thread.Model, key string) thread.Model {
	m, cmd := m.Update(viewtest.Key(key))
	for cmd != nil {
		m, cmd = apply(m, viewtest.Run(cmd, wait))
	}
	return m
}

func head(m thread.Model) string { return strings.SplitN(ansi.Strip(m.View()), "\n", 2)[0] }

// fillGap presses key, running what it asks for, until the gap is closed, and then wants
// the whole thread loaded in order.
func (g *gapEnv) fillGap(t *testing.T, key string) {
	t.Helper()
	for i := 0; g.m.Gap(); i++ {
		if i > 5000 {
			t.Fatalf("pressing %s never closed the gap", key)
		}
		g.m = press(g.m, key)
	}
	if got := thread.IDs(g.m); !slices.Equal(got, g.ids) {
		t.Fatalf("after pressing %s through the gap: %d messages loaded, want the %d of the thread in order", key, len(got), len(g.ids))
	}
}

// g goes to the first message of a 1,520-message thread with one request (two with the
// one that opened it, as the sandbox counts them), leaving a gap; a second g costs none.
func TestTopGoesToTheFirstMessageWithOneRequest(t *testing.T) {
	t.Parallel()
	g := openLong(t, 80, 22)
	if n := g.messageRequests(); n != 1 {
		t.Fatalf("opening the thread cost %d message requests, want 1", n)
	}
	g.m = press(g.m, "g")
	if n := g.messageRequests(); n != 2 {
		t.Fatalf("opening the thread and g cost %d message requests, want 2", n)
	}
	if !strings.Contains(g.m.View(), "Start of the long thread") {
		t.Fatalf("g does not show the first message:\n%s", g.m.View())
	}
	if !g.m.Gap() || g.m.Loaded() != 200 {
		t.Fatalf("after g: gap %v, %d loaded; want a gap between 200 loaded", g.m.Gap(), g.m.Loaded())
	}
	if got := thread.IDs(g.m); !slices.Equal(got[:100], g.ids[:100]) || !slices.Equal(got[100:], g.ids[len(g.ids)-100:]) {
		t.Fatal("after g the loaded messages are not the oldest 100 and the newest 100 in order")
	}
	if h := head(g.m); !strings.Contains(h, " · top") {
		t.Fatalf("header at the first message: %q", h)
	}
	g.m = press(g.m, "G")
	g.m = press(g.m, "g")
	if n := g.messageRequests(); n != 2 {
		t.Fatalf("G and g again cost %d more message requests, want none", n-2)
	}
}

// g pressed while the thread's first page is on its way is kept, not lost when the page
// lands at the newest message: the thread opens at its first message, with the one request
// for the oldest page. G before the answer takes it back.
func TestTopBeforeTheFirstPageOpensAtTheTop(t *testing.T) {
	t.Parallel()
	env := viewtest.NewEnv(t, sandbox.Options{}, nil)
	long := env.Info.LongConversationID
	for _, tc := range []struct {
		keys     []string
		top      bool
		requests int
	}{{[]string{"g"}, true, 2}, {[]string{"g", "G"}, false, 1}} {
		base := env.Log.Count("GET", "/messages/")
		m := thread.New(viewtest.Ctx(env.Client))
		m.SetSize(80, 22)
		m.Focus()
		cmd := m.OpenAt(long, "Long thread", client.Version{}, true)
		for _, k := range tc.keys {
			m = press(m, k) // before the first page's answer
		}
		for cmd != nil {
			m, cmd = apply(m, viewtest.Run(cmd, wait))
		}
		if n := env.Log.Count("GET", "/messages/") - base; n != tc.requests {
			t.Errorf("%v before the first page: %d message requests, want %d", tc.keys, n, tc.requests)
		}
		h := head(m)
		if tc.top && (!strings.Contains(h, " · top") || !strings.Contains(m.View(), "Start of the long thread")) {
			t.Errorf("%v before the first page: not at the first message: %q\n%s", tc.keys, h, m.View())
		}
		if !tc.top && !strings.Contains(h, " · bottom") {
			t.Errorf("%v before the first page: not at the newest message: %q", tc.keys, h)
		}
	}
}

// After g the gap fills from above as the view goes down, one page per request, and the
// thread ends whole and in order.
func TestGapFillsFromAbove(t *testing.T) {
	t.Parallel()
	g := openLong(t, 80, 22)
	g.m = press(g.m, "g")
	g.fillGap(t, "ctrl+d")
	// The newest page, the oldest, then a page of 100 at a time down to (and meeting) the
	// newest page.
	want := 2 + (len(g.ids)-200)/100 + 1
	if n := g.messageRequests(); n != want || g.m.Requests() != want {
		t.Fatalf("%d message requests (pane counted %d), want %d", n, g.m.Requests(), want)
	}
	if h := head(g.m); !strings.Contains(h, " · all") {
		t.Fatalf("header of the whole thread: %q", h)
	}
}

// After g, going to the bottom and scrolling up fills the gap from below, as scrolling
// back without g does.
func TestGapFillsFromBelow(t *testing.T) {
	t.Parallel()
	g := openLong(t, 80, 22)
	g.m = press(g.m, "g")
	g.m = press(g.m, "G")
	g.fillGap(t, "ctrl+u")
	want := 2 + (len(g.ids)-200)/100 + 1
	if n := g.messageRequests(); n != want {
		t.Fatalf("%d message requests, want %d", n, want)
	}
}

// Filling the gap keeps the view still: the lines shown stay when a page goes into it
// from above or from below.
func TestGapPageDoesNotMoveTheView(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, toward, start string
	}{{"from above", "j", "g"}, {"from below", "k", "G"}} {
		t.Run(tc.name, func(t *testing.T) {
			g := openLong(t, 80, 22)
			g.m = press(g.m, "g")
			g.m = press(g.m, tc.start)
			var pending tea.Cmd
			g.m, pending = untilAsked(t, g.m, tc.toward)
			before := body(g.m.View())
			g.m, _ = apply(g.m, viewtest.Run(pending, wait))
			if after := body(g.m.View()); after != before {
				t.Fatalf("the view moved:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if g.m.Loaded() != 300 {
				t.Fatalf("%d loaded, want 300", g.m.Loaded())
			}
		})
	}
}

// Answers that are no longer wanted are dropped: an older page in flight when g is
// pressed (and its page is asked for again when the view comes back to it), the oldest
// page when another conversation opened meanwhile, and a gap page when r reopened the
// thread.
func TestStaleThreadPagesAreDropped(t *testing.T) {
	t.Parallel()
	t.Run("older page superseded by g", func(t *testing.T) {
		g := openLong(t, 80, 22)
		var older tea.Cmd
		g.m, older = untilAsked(t, g.m, "k")
		var oldest tea.Cmd
		g.m, oldest = g.m.Update(viewtest.Key("g"))
		if oldest == nil {
			t.Fatal("g with an older page in flight asked for nothing")
		}
		olderMsgs := viewtest.Run(older, wait)
		g.m, _ = apply(g.m, viewtest.Run(oldest, wait))
		g.m, _ = apply(g.m, olderMsgs)
		if g.m.Loaded() != 200 || !g.m.Gap() {
			t.Fatalf("the superseded older page was taken: %d loaded, gap %v", g.m.Loaded(), g.m.Gap())
		}
		g.m = press(g.m, "G")
		g.fillGap(t, "ctrl+u") // the superseded page is asked for again
	})
	t.Run("oldest page of the conversation left", func(t *testing.T) {
		g := openLong(t, 80, 22)
		var oldest tea.Cmd
		g.m, oldest = g.m.Update(viewtest.Key("g"))
		other := g.m.Open(g.env.Info.HostileConversationID, "hostile", false)
		g.m, _ = apply(g.m, viewtest.Run(other, wait))
		loaded := g.m.Loaded()
		g.m, _ = apply(g.m, viewtest.Run(oldest, wait))
		if g.m.ConversationID() != g.env.Info.HostileConversationID || g.m.Loaded() != loaded || g.m.Gap() ||
			strings.Contains(g.m.View(), "Start of the long thread") {
			t.Fatalf("the left conversation's oldest page was shown:\n%s", g.m.View())
		}
	})
	t.Run("gap page after r", func(t *testing.T) {
		g := openLong(t, 80, 22)
		g.m = press(g.m, "g")
		var newer tea.Cmd
		g.m, newer = untilAsked(t, g.m, "ctrl+d")
		var reopen tea.Cmd
		g.m, reopen = g.m.Update(viewtest.Key("r"))
		g.m, _ = apply(g.m, viewtest.Run(reopen, wait))
		g.m, _ = apply(g.m, viewtest.Run(newer, wait))
		if g.m.Gap() || g.m.Loaded() != 100 {
			t.Fatalf("a gap page of before r was taken: %d loaded, gap %v", g.m.Loaded(), g.m.Gap())
		}
	})
}

// The position indicator is right at both ends of a short thread (it said 73 % at the
// first message of a 7-message thread), and with a gap says what is known for sure.
func TestPositionIndicator(t *testing.T) {
	t.Parallel()
	m := thread.New(viewtest.Ctx(nil))
	at := client.Time{Time: viewtest.Now.Add(-time.Hour)}
	var msgs []client.Message
	for i := 7; i >= 1; i-- {
		msgs = append(msgs, client.Message{ID: "1.1." + string(rune('0'+i)), Body: "message " + string(rune('0'+i)), SentAt: at,
			Name: "Ann", Sender: client.Sender{Type: client.SenderContact, ID: 9}})
	}
	m.Preload(1, "Ann", msgs)
	m.SetSize(60, 12)
	m.Focus()
	if h := head(m); !strings.Contains(h, " · bottom") {
		t.Fatalf("at the newest message: %q", h)
	}
	m = press(m, "g")
	if h := head(m); !strings.Contains(h, " · top") || strings.Contains(h, "%") {
		t.Fatalf("at the first message: %q", h)
	}
	m = press(m, "j")
	if h := head(m); !strings.Contains(h, "%") {
		t.Fatalf("between the ends of a whole thread: %q", h)
	}

	g := openLong(t, 80, 22)
	if h := head(g.m); !strings.Contains(h, " · bottom") {
		t.Fatalf("at the newest message of the long thread: %q", h)
	}
	g.m = press(g.m, "k")
	if h := head(g.m); !strings.Contains(h, " newer") || strings.Contains(h, "%") {
		t.Fatalf("among the newest messages, older ones not loaded: %q", h)
	}
	g.m = press(g.m, "g")
	if h := head(g.m); !strings.Contains(h, " · top") {
		t.Fatalf("at the first message after g: %q", h)
	}
	for range 10 {
		g.m = press(g.m, "j")
	}
	if h := head(g.m); !strings.Contains(h, " · 2 older") && !strings.Contains(h, " · 3 older") {
		t.Fatalf("among the oldest messages, 10 lines down: %q", h)
	}
}

// BenchmarkTopOfTheLongThread opens the long thread over HTTP (the sandbox) and goes to
// its first message with g, reporting the message requests the sandbox served for both.
func BenchmarkTopOfTheLongThread(b *testing.B) {
	env := viewtest.NewEnv(b, sandbox.Options{}, nil)
	long := env.Info.LongConversationID
	for b.Loop() {
		before := env.Log.Count("GET", "/messages/")
		m := thread.New(viewtest.Ctx(env.Client))
		m.SetSize(80, 22)
		m.Focus()
		m, _ = apply(m, viewtest.Run(m.Open(long, "Long thread", true), wait))
		m = press(m, "g")
		if n := env.Log.Count("GET", "/messages/") - before; n > 2 || !strings.Contains(m.View(), "Start of the long thread") {
			b.Fatalf("g to the first message: %d message requests (budget 2)", n)
		}
		b.ReportMetric(float64(env.Log.Count("GET", "/messages/")-before), "requests/op")
	}
}
