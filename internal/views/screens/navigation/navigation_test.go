package navigation_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/screens/navigation"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

func open(t *testing.T, e *viewtest.Env, w, h int) (*viewtest.Screen, *navigation.Model) {
	t.Helper()
	l, m, _ := openCtx(t, e, w, h)
	return l, m
}

// openCtx is open, also returning the screen's context (whose client a test changes).
func openCtx(t *testing.T, e *viewtest.Env, w, h int) (*viewtest.Screen, *navigation.Model, *common.Ctx) {
	t.Helper()
	ctx := viewtest.Ctx(e.Client)
	m := navigation.New(ctx)
	l := viewtest.RunScreen(t, ctx, m, w, h)
	l.Until("the first page", func() bool { return m.Loaded() && !m.Loading() })
	return l, m, ctx
}

func TestPagesOfHundredWithPrefetch(t *testing.T) {
	e := newEnv(t)
	l, m := open(t, e, 80, 24)
	if m.Total() <= 100 {
		t.Fatalf("the small sandbox has %d events; the test needs more than 100", m.Total())
	}
	if len(m.Rows()) != 100 {
		t.Fatalf("first page has %d events", len(m.Rows()))
	}
	for i := 1; i < len(m.Rows()); i++ {
		if m.Rows()[i].ID >= m.Rows()[i-1].ID {
			t.Fatalf("not newest first at %d", i)
		}
	}
	// Walk down until the next page is asked for: within a screen of the loaded end.
	asked := -1
	for i := 0; i < 100; i++ {
		l.Key("j")
		if e.Log.Count("GET", "/navigation/") == 2 {
			asked = i + 1
			break
		}
	}
	visible := (24 - 2 - 2) / 2 // header and footer; two lines per event at 80 columns
	if asked < 0 || 100-asked > visible+1 {
		t.Fatalf("the second page was asked for at row %d (%d visible)", asked, visible)
	}
	l.Until("the second page", func() bool { return len(m.Rows()) == m.Total() && !m.Loading() })
	l.Key("G") // the end: nothing more to ask for
	for range 5 {
		l.Key("k")
	}
	l.Drain(100 * time.Millisecond)
	lines := e.Log.Lines()
	var nav []string
	for _, r := range lines {
		if strings.HasSuffix(r.Path, "/navigation/") {
			nav = append(nav, r.Query)
		}
	}
	if len(nav) != 2 || !strings.Contains(nav[1], "offset=100") || !strings.Contains(nav[1], "limit=100") {
		t.Fatalf("navigation requests %q: want two, the second at offset 100", nav)
	}
	viewtest.CheckSize(t, l.H.Render(), 80, 24, "the screen")
}

func TestOrderingToggles(t *testing.T) {
	e := newEnv(t)
	l, m := open(t, e, 80, 24)
	newest := m.Rows()[0].ID
	l.Key("o")
	l.Until("oldest first", func() bool { return m.Loaded() && !m.Loading() && m.Ordering() == "id" })
	rows := m.Rows()
	for i := 1; i < len(rows); i++ {
		if rows[i].ID <= rows[i-1].ID {
			t.Fatalf("not oldest first at %d", i)
		}
	}
	if !strings.Contains(l.H.Render(), "events · oldest first (o toggles)") {
		t.Fatalf("header:\n%s", l.H.Render())
	}
	l.Key("o")
	l.Until("newest first", func() bool { return !m.Loading() && m.Ordering() == "-id" })
	if m.Rows()[0].ID != newest {
		t.Fatalf("first %d, want %d", m.Rows()[0].ID, newest)
	}
	got := map[string]bool{}
	for _, r := range e.Log.Lines() {
		if strings.HasSuffix(r.Path, "/navigation/") {
			got[r.Query] = true
		}
	}
	for _, want := range []string{"limit=100&ordering=-id", "limit=100&ordering=id"} {
		if !got[want] {
			t.Errorf("no request with %q: %v", want, got)
		}
	}
}

// A page of the previous ordering that arrives late is dropped.
func TestStalePageDropped(t *testing.T) {
	e := newEnv(t)
	l, m := open(t, e, 80, 24)
	_, toOldest := l.H.Update(viewtest.Key("o"))
	_, toNewest := l.H.Update(viewtest.Key("o"))
	l.Run(toNewest)
	l.Until("newest first", func() bool { return !m.Loading() })
	first := m.Rows()[0].ID
	l.Run(toOldest)
	l.Drain(200 * time.Millisecond)
	if m.Rows()[0].ID != first || m.Ordering() != "-id" {
		t.Fatalf("a stale page replaced the list: first %d (want %d), ordering %s", m.Rows()[0].ID, first, m.Ordering())
	}
}

func TestEnterOpensTheConversation(t *testing.T) {
	e := newEnv(t)
	l, m := open(t, e, 80, 24)
	with, without := -1, -1
	for i, r := range m.Rows() {
		if r.ConversationID != 0 && with < 0 {
			with = i
		}
		if r.ConversationID == 0 && without < 0 {
			without = i
		}
	}
	if with < 0 || without < 0 {
		t.Fatal("the first page lacks an event with and one without a conversation")
	}
	for range without {
		l.Key("j")
	}
	l.Key("enter")
	l.Until("a toast", func() bool { return l.H.LastToast() != "" })
	if len(l.H.Switched) != 0 || !strings.Contains(l.H.LastToast(), "no conversation") {
		t.Fatalf("enter without a conversation: switched %v, toast %q", l.H.Switched, l.H.LastToast())
	}
	l.Key("g")
	for range with {
		l.Key("j")
	}
	r := m.Rows()[with]
	l.Key("enter")
	l.Until("the switch", func() bool { return len(l.H.Switched) == 1 })
	sw := l.H.Switched[0]
	want := common.OpenConversationMsg{ConversationID: r.ConversationID, ContactID: r.ContactID, From: "navigation"}
	if sw.Screen != common.ScreenConversations || sw.Then != want {
		t.Fatalf("switch %+v, want conversations then %+v", sw, want)
	}
}

// The root's auto-refresh asks once for the newest page and keeps the cursor.
func TestAutoRefreshKeepsTheCursor(t *testing.T) {
	e := newEnv(t)
	l, m := open(t, e, 80, 24)
	l.Key("j", "j", "j")
	at, _ := m.Selected()
	l.Deliver(common.RefreshMsg{Auto: true})
	l.Until("the merge", func() bool { return !m.Loading() && e.Log.Count("GET", "/navigation/") == 2 })
	if r, _ := m.Selected(); r.ID != at.ID || len(m.Rows()) != 100 {
		t.Fatalf("cursor on %d (was %d), %d rows", r.ID, at.ID, len(m.Rows()))
	}
}

func TestContextChangeReloads(t *testing.T) {
	e := newEnv(t)
	l, m, ctx := openCtx(t, e, 80, 24)
	total := m.Total()
	ctx.Client = e.Client.WithContext(e.Info.OrgIDs[1], 0)
	l.Deliver(common.ContextChangedMsg{})
	l.Until("reloaded", func() bool { return m.Loaded() && !m.Loading() })
	if m.Total() == total {
		t.Fatalf("same count %d in another organization", total)
	}
	// Hidden screens reload when shown again.
	m.Blur()
	l.Deliver(common.ContextChangedMsg{})
	if m.Loaded() {
		t.Fatal("a hidden screen kept its rows after a context change")
	}
	l.Run(m.Focus())
	l.Until("reloaded on focus", func() bool { return m.Loaded() && !m.Loading() })
}

func TestRowsAreSanitized(t *testing.T) {
	conv, ref := int64(7), "https://evil.example/\x1b]8;;x\x07"
	r := navigation.RowFrom(client.NavigationEvent{ID: 1, Title: "Hi\x1b[2J\u202e" + viewtest.Invisible, URL: "https://a.example/\r\nx" + viewtest.Invisible, ConversationID: &conv, Referrer: &ref})
	for _, s := range []string{r.Title, r.URL, r.Referrer} {
		viewtest.CheckInertLine(t, s, "a row")
	}
	if r.ConversationID != 7 || r.ContactID != 0 {
		t.Fatalf("ids %+v", r)
	}
}

func TestViewIsExactlyTheSizeGiven(t *testing.T) {
	e := newEnv(t)
	_, m := open(t, e, 80, 24)
	for _, sz := range [][2]int{{80, 24}, {80, 20}, {100, 30}, {119, 30}, {122, 30}, {160, 48}, {200, 50}, {80, 5}} {
		m.SetSize(sz[0], sz[1])
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) { viewtest.CheckSize(t, m.View(), sz[0], sz[1], "the screen") })
	}
}

// A switch of the acting operator alone keeps the events and the cursor while they load
// again.
func TestOperatorSwitchKeepsTheCursor(t *testing.T) {
	e := newEnv(t)
	l, m, ctx := openCtx(t, e, 80, 24)
	l.Key("j", "j", "j")
	at, _ := m.Selected()
	lists := e.Log.Count("GET", "/navigation/")
	ctx.Client = e.Client.WithContext(0, e.Info.RestrictedOperatorID)
	l.Deliver(common.ContextChangedMsg{OperatorOnly: true})
	if len(m.Rows()) == 0 {
		t.Fatal("the events went while they load again")
	}
	l.Until("reloaded", func() bool { return !m.Loading() && e.Log.Count("GET", "/navigation/") == lists+1 })
	if r, _ := m.Selected(); r.ID != at.ID {
		t.Fatalf("cursor on %d after the switch, want %d", r.ID, at.ID)
	}
}

// A contact whose name the lists have seen is named, not numbered, in both layouts; the
// screen asks nothing for it.
func TestKnownContactsAreNamed(t *testing.T) {
	e := newEnv(t)
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		ctx := viewtest.Ctx(e.Client)
		m := navigation.New(ctx)
		l := viewtest.RunScreen(t, ctx, m, size[0], size[1])
		l.Until("the first page", func() bool { return m.Loaded() && !m.Loading() })
		first := m.Rows()[0]
		if first.ContactID == 0 {
			t.Fatal("the newest event has no contact")
		}
		before := e.Log.Count("GET", "")
		ctx.LearnContact(first.ContactID, "Zed Zebrowski")
		l.Key("r") // draw again
		l.Until("the reload", func() bool { return m.Loaded() && !m.Loading() })
		v := l.H.Render()
		if !strings.Contains(v, "Zed Zebrowski") || strings.Contains(v, fmt.Sprintf("contact %d ", first.ContactID)) {
			t.Fatalf("%dx%d: contact %d is not named:\n%s", size[0], size[1], first.ContactID, v)
		}
		if n := e.Log.Count("GET", "") - before; n > 1 {
			t.Fatalf("naming cost %d requests (the reload is one)", n)
		}
		viewtest.CheckSize(t, v, size[0], size[1], "the screen")
	}
}

// # goes to a loaded event; the endpoint has no id filter, so an event not loaded is said
// so, with how many are.
func TestJumpToID(t *testing.T) {
	e := newEnv(t)
	l, m := open(t, e, 120, 30)
	target := m.Rows()[40]
	l.Jump(fmt.Sprint(target.ID), func() bool { r, _ := m.Selected(); return r.ID == target.ID })
	oldest, err := e.Client.ListNavigation(t.Context(), client.NavigationListOptions{ListOptions: client.ListOptions{Limit: 1, Ordering: "id"}})
	if err != nil || len(oldest.Results) != 1 {
		t.Fatalf("the oldest event: %v", err)
	}
	id := oldest.Results[0].ID
	l.Jump(fmt.Sprint(id), func() bool { return len(l.H.Toasts) > 0 })
	want := fmt.Sprintf("No navigation event #%d among the navigation events loaded (%d of %s loaded).", id, len(m.Rows()), layout.Thousands(m.Total()))
	if got := l.H.LastToast(); got != want {
		t.Fatalf("toast %q, want %q", got, want)
	}
	if r, _ := m.Selected(); r.ID != target.ID {
		t.Fatalf("the cursor moved to %d", r.ID)
	}
}

// newEnv is a fresh sandbox (tests here write) with a request log and a client on it.
func newEnv(t *testing.T) *viewtest.Env { return viewtest.NewEnv(t, sandbox.Options{}, nil) }

// eventsAsSent is another server, made from the sandbox (an edit of its navigation lists,
// see viewtest.EditBodies): in an envelope or a bare array, every event lacks created_at and
// contact_identity_id and carries fields parley does not read.
func eventsAsSent(_ string, body []byte) ([]byte, error) {
	var page map[string]json.RawMessage
	items := json.RawMessage(body)
	bare := bytes.HasPrefix(bytes.TrimSpace(body), []byte("["))
	if !bare {
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, err
		}
		items = page["results"]
	}
	var events []map[string]any
	if err := json.Unmarshal(items, &events); err != nil {
		return nil, err
	}
	for _, ev := range events {
		delete(ev, "created_at")
		delete(ev, "contact_identity_id")
		ev["duration_ms"] = 1200
		ev["device"] = "phone\u202e"
	}
	items, _ = json.Marshal(events)
	if bare {
		return items, nil
	}
	page["results"] = items
	return json.Marshal(page)
}

// TestEventsShowAsSent: an event without a time and a contact shows "—" for both, in both
// layouts, and p shows its fields with those parley does not read, sanitized; with lists as
// envelopes and as bare arrays. Before, the fields parley does not read were dropped.
func TestEventsShowAsSent(t *testing.T) {
	for _, v := range []sandbox.Variant{"", sandbox.VariantBareLists} {
		name := string(v)
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			opts := sandbox.Options{}
			if v != "" {
				opts.Variants = []sandbox.Variant{v}
			}
			e := viewtest.NewEnv(t, opts, func(next http.RoundTripper) http.RoundTripper {
				return viewtest.EditBodies{Next: next, Suffix: "/navigation/", Edit: eventsAsSent}
			})
			l, m := open(t, e, 130, 30)
			r, ok := m.Selected()
			if !ok || !r.At.IsZero() || r.ContactID != 0 {
				t.Fatalf("the first event %+v (%v): a time or a contact the server did not send", r, ok)
			}
			first := strings.Split(l.H.Render(), "\n")[3] // under the header and the column titles
			if f := strings.Fields(strings.Replace(first, "▌", " ", 1)); len(f) < 4 || f[1] != "—" || f[2] != "—" {
				t.Fatalf("the row does not show — for the time and the contact:\n%s", first)
			}
			l.Key("p")
			if !m.DetailShown() {
				t.Fatal("p did not show the detail")
			}
			view := l.H.Render()
			viewtest.CheckSize(t, view, 130, 30, "the screen with the detail")
			for _, want := range []string{fmt.Sprintf("Event #%d", r.ID), "Time          —", "Contact       —",
				"Also sent", `device="phone"`, "duration_ms=1200"} {
				if !strings.Contains(view, want) {
					t.Errorf("the detail lacks %q:\n%s", want, view)
				}
			}
			if strings.ContainsRune(view, '\u202e') {
				t.Fatal("a bidi control from the server reached the screen")
			}
			l.Key("j")
			if r2, _ := m.Selected(); !strings.Contains(l.H.Render(), fmt.Sprintf("Event #%d", r2.ID)) {
				t.Fatalf("the detail does not follow the cursor to %d:\n%s", r2.ID, l.H.Render())
			}
		})
	}
}

// TestGoldenNavigation renders the screen against the in-process sandbox (small, seed 1,
// fixed clock, no colour) once the first page is in.
// Regenerate with: go test ./internal/views/screens/navigation -run Golden -update
func TestGoldenNavigation(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ctx := viewtest.Ctx(newEnv(t).Client)
			h := viewtest.NewHost(ctx, navigation.New(ctx))
			viewtest.GoldenView(t, h, size[0], size[1], map[string]int{"list.PageMsg": 1})
		})
	}
}

// longURLs gives the first event of every page a URL of some 300 characters.
func longURLs(_ string, body []byte) ([]byte, error) {
	var page map[string]json.RawMessage
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, err
	}
	var events []map[string]any
	if err := json.Unmarshal(page["results"], &events); err != nil {
		return nil, err
	}
	if len(events) > 0 {
		events[0]["url"] = longURL
	}
	page["results"], _ = json.Marshal(events)
	return json.Marshal(page)
}

var longURL = "https://shop.example/checkout/step-2?" + strings.Repeat("utm_campaign=winter-sale&", 11) + "end=1"

// TestLongURLWholeInTheDetailAndCopied: the detail (p) shows an event's whole URL, wrapped
// under its label, not cut; y copies the URL (the toast names the event), and the screen's
// keys say so.
func TestLongURLWholeInTheDetailAndCopied(t *testing.T) {
	t.Setenv("TMUX", "") // the copy goes by OSC 52 only, never into the tmux buffer of the machine
	e := viewtest.NewEnv(t, sandbox.Options{}, func(next http.RoundTripper) http.RoundTripper {
		return viewtest.EditBodies{Next: next, Suffix: "/navigation/", Edit: longURLs}
	})
	l, m := open(t, e, 100, 40)
	r, _ := m.Selected()
	if r.URL != longURL {
		t.Fatalf("the first event's URL is %q", r.URL)
	}
	l.Key("p")
	view := l.H.Render()
	viewtest.CheckSize(t, view, 100, 40, "the detail with a long URL")
	var joined strings.Builder
	in := false
	for _, line := range strings.Split(view, "\n") {
		line = strings.Trim(line, " │")
		switch {
		case strings.HasPrefix(line, "URL "):
			in = true
			line = strings.TrimSpace(strings.TrimPrefix(line, "URL"))
		case in && strings.HasPrefix(line, "Referrer"):
			in = false
		}
		if in {
			joined.WriteString(strings.TrimSpace(line))
		}
	}
	if joined.String() != longURL {
		t.Fatalf("the detail's URL lines make %q, want the whole URL:\n%s", joined.String(), view)
	}
	l.Key("y")
	l.Until("a toast", func() bool { return l.H.LastToast() != "" })
	if got := l.H.LastToast(); !strings.Contains(got, fmt.Sprintf("Copied the URL of event #%d", r.ID)) {
		t.Fatalf("y: toast %q", got)
	}
	_, cmd := m.Update(viewtest.Key("y"))
	copied := false
	for _, msg := range viewtest.Run(cmd, time.Second) {
		if _, toast := msg.(common.ToastMsg); !toast && fmt.Sprint(msg) == longURL {
			copied = true // Bubble Tea's clipboard message carries the text
		}
	}
	if !copied {
		t.Fatal("y did not put the event's URL on the clipboard")
	}
	if !strings.Contains(view, "y copy URL") {
		t.Fatalf("the screen's keys do not name y:\n%s", view)
	}
}
