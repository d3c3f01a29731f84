package conversations_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

var savedNewEnded = []common.SavedView{
	{Name: "New", Screen: common.ViewsConversations, Status: "new"},
	{Name: "Ended late", Screen: common.ViewsConversations, Status: "ended", Ordering: "-last_message_sent_at"},
	{Name: "Elsewhere", Screen: common.ViewsContacts, Search: "x"}, // another screen's
}

type viewsScreen struct {
	*viewtest.Screen
	m   *conversations.Model
	env *viewtest.Env
	ctx *common.Ctx
}

// newViewsScreen is the conversations screen with saved views at w×h on a sandbox of its
// own, its first page loaded; restore, when set, is the view restored before that load.
func newViewsScreen(t *testing.T, views []common.SavedView, w, h int, restore string,
	wrap func(http.RoundTripper) http.RoundTripper) *viewsScreen {
	t.Helper()
	e := viewtest.NewEnv(t, sandbox.Options{}, wrap)
	ctx := viewtest.Ctx(e.Client)
	ctx.Views = views
	m := conversations.New(ctx)
	if restore != "" {
		m.RestoreView(restore)
	}
	m.SetSize(w, h)
	settle(m, m.Init())
	return &viewsScreen{Screen: viewtest.RunScreen(t, ctx, m, w, h), m: m, env: e, ctx: ctx}
}

// count is the server's count of conversations with status ("" = all).
func (s *viewsScreen) count(t *testing.T, status string) string {
	t.Helper()
	p, err := s.env.Client.ListConversations(client.Fresh(t.Context()), client.ConversationListOptions{
		ListOptions: client.ListOptions{Limit: 1}, Filter: client.ConversationFilter{Status: status}})
	if err != nil {
		t.Fatal(err)
	}
	return layout.Thousands(p.Count)
}

// row is the row of views as drawn: the first line inside the list's frame.
func (s *viewsScreen) row() string {
	lines := strings.Split(viewtest.Plain(s.m.View()), "\n")
	if len(lines) < 2 {
		return ""
	}
	return lines[1]
}

func TestViewsSwitchWithKeysAndShowTheirCounts(t *testing.T) {
	t.Parallel()
	s := newViewsScreen(t, savedNewEnded, 200, 50, "", nil)
	all, fresh, ended := s.count(t, ""), s.count(t, "new"), s.count(t, "ended")
	if s.m.ActiveView() != "all" {
		t.Fatalf("active view %q, want all", s.m.ActiveView())
	}
	if row := s.row(); !strings.Contains(row, " all "+all+" ") || !strings.Contains(row, " New ") ||
		strings.Contains(row, "New 0") || !strings.Contains(row, " Ended late ") || strings.Contains(row, "Elsewhere") {
		t.Fatalf("row before switching: %q (all %s)", row, all)
	}

	s.Key("]")
	s.Settle()
	if q := s.m.List.Query(); s.m.ActiveView() != "New" || q.Filter.Status != "new" || q.Ordering != "" {
		t.Fatalf("] showed %q with %+v", s.m.ActiveView(), q)
	}
	if row := s.row(); !strings.Contains(row, " all "+all+" ") || !strings.Contains(row, " New "+fresh+" ") {
		t.Fatalf("row after ]: %q (all %s, new %s)", row, all, fresh)
	}
	if s.env.Log.Count(http.MethodGet, "/conversations/") == 0 {
		t.Fatal("no list request")
	}
	found := false
	for _, l := range s.env.Log.Lines() {
		found = found || strings.Contains(l.Query, "status=new")
	}
	if !found {
		t.Fatal("the New view asked for no status=new")
	}

	s.Key("]")
	s.Settle()
	if q := s.m.List.Query(); s.m.ActiveView() != "Ended late" || q.Filter.Status != "ended" || q.Ordering != "-last_message_sent_at" {
		t.Fatalf("] again showed %q with %+v", s.m.ActiveView(), q)
	}
	if row := s.row(); !strings.Contains(row, " Ended late "+ended) {
		t.Fatalf("row: %q (ended %s)", row, ended)
	}
	s.Key("]") // wraps to all
	s.Settle()
	if s.m.ActiveView() != "all" || !s.m.List.Query().Filter.IsZero() {
		t.Fatalf("] past the last view: %q %+v", s.m.ActiveView(), s.m.List.Query())
	}
	s.Key("[") // wraps back to the last
	s.Settle()
	if s.m.ActiveView() != "Ended late" {
		t.Fatalf("[ from all: %q", s.m.ActiveView())
	}

	// A filter changed by hand marks the view as changed; its count stays the view's.
	s.Key("s")
	s.Quiet(300 * 1e6)
	if row := s.row(); !strings.Contains(row, "Ended late* "+ended) {
		t.Fatalf("row after s: %q", row)
	}

	// The palette's choices are the views, with their counts; choosing one shows it.
	choices := s.m.Choices()
	if len(choices) != 3 || choices[0].Title != "all" || choices[0].Hint != all || choices[1].Title != "New" ||
		choices[1].Hint != fresh || choices[2].Hint != ended {
		t.Fatalf("choices %+v", choices)
	}
	s.Deliver(choices[1].Msg)
	s.Settle()
	if s.m.ActiveView() != "New" || s.m.List.Query().Filter.Status != "new" {
		t.Fatalf("the palette's choice showed %q %+v", s.m.ActiveView(), s.m.List.Query())
	}
}

// noCount strips the count from every conversation list answer, as a server that sends
// none would answer.
type noCount struct{ next http.RoundTripper }

func (n noCount) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := n.next.RoundTrip(r)
	if err != nil || !strings.HasSuffix(r.URL.Path, "/conversations/") {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var env map[string]json.RawMessage
	if json.Unmarshal(body, &env) == nil {
		delete(env, "count")
		body, _ = json.Marshal(env)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

func TestViewsShowNoCountTheServerDidNotSend(t *testing.T) {
	t.Parallel()
	s := newViewsScreen(t, savedNewEnded, 200, 50, "", func(rt http.RoundTripper) http.RoundTripper { return noCount{rt} })
	if len(s.m.List.Rows()) == 0 {
		t.Fatal("no rows")
	}
	rows := fmt.Sprint(len(s.m.List.Rows()))
	s.Key("]")
	s.Settle()
	row := s.row()
	for _, bad := range []string{"all " + rows, "all 0", "New " + fmt.Sprint(len(s.m.List.Rows())), "New 0"} {
		if strings.Contains(row, bad) {
			t.Fatalf("row %q shows %q, a count the server never sent", row, bad)
		}
	}
	if !strings.Contains(row, " all ") || !strings.Contains(row, " New ") {
		t.Fatalf("row %q", row)
	}
	for _, c := range s.m.Choices() {
		if c.Hint != "" {
			t.Fatalf("choice %q has the count %q", c.Title, c.Hint)
		}
	}
}

func TestViewRestoredBeforeTheFirstLoad(t *testing.T) {
	t.Parallel()
	s := newViewsScreen(t, savedNewEnded, 120, 40, "ended LATE", nil)
	if s.m.ActiveView() != "Ended late" {
		t.Fatalf("restored %q", s.m.ActiveView())
	}
	lines := s.env.Log.Lines()
	if len(lines) == 0 || !strings.Contains(lines[0].Query, "status=ended") {
		t.Fatalf("first request %+v, want the view's status=ended", lines)
	}
	for _, l := range lines {
		if strings.HasSuffix(l.Path, "/conversations/") && !strings.Contains(l.Query, "status=ended") {
			t.Fatalf("a request for another query: %+v", l)
		}
	}
	// An unknown view leaves the whole list.
	s2 := newViewsScreen(t, savedNewEnded, 120, 40, "gone", nil)
	if s2.m.ActiveView() != "all" || !s2.m.List.Query().Filter.IsZero() {
		t.Fatalf("unknown view restored as %q", s2.m.ActiveView())
	}
}

func TestSaveViewWritesTheConfigAndKeepsTheNameOnFailure(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.yaml")
	broken := "# mine\ntheme: [\n"
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newViewsScreen(t, nil, 120, 40, "", nil)
	s.ctx.SaveView = func(v common.SavedView) error {
		return config.AddView(path, config.View{Name: v.Name, Screen: v.Screen, Status: v.Status,
			Search: v.Search, Ordering: v.Ordering, Filters: v.Filters})
	}
	if strings.HasPrefix(s.row(), "│ all") {
		t.Fatalf("a screen without saved views shows the row: %q", s.row())
	}
	s.Key("s") // status new
	s.Quiet(300 * 1e6)
	s.Key("o") // ordering id ascending
	s.Quiet(300 * 1e6)
	q := s.m.List.Query()
	if q.Filter.Status != "new" || q.Ordering == "" {
		t.Fatalf("query %+v", q)
	}

	s.Key("V")
	f, ok := s.Modal().(*forms.Modal)
	if !ok {
		t.Fatalf("V opened %T", s.H.Top())
	}
	s.Key("Fresh first", "ctrl+s")
	s.Until("the save to fail", func() bool { return !f.Submitting() && f.Err() != "" })
	if s.H.Top() != f || !strings.Contains(f.Err(), "save view") || !strings.Contains(viewtest.Plain(f.View()), "Fresh first") {
		t.Fatalf("after a failed save: top %T, err %q\n%s", s.H.Top(), f.Err(), viewtest.Plain(f.View()))
	}
	if got, _ := os.ReadFile(path); string(got) != broken {
		t.Fatalf("the broken file changed: %q", got)
	}

	// Fixed, the same form saves what it kept.
	if err := os.WriteFile(path, []byte("# mine\ntheme: dark # keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Key("ctrl+s")
	s.Until("the form to close", func() bool { return s.H.Top() == nil })
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := config.View{Name: "Fresh first", Screen: config.ViewConversations, Status: "new", Ordering: q.Ordering}
	if len(c.Views) != 1 || !c.Views[0].Same(want) {
		t.Fatalf("views in the file: %+v, want %+v", c.Views, want)
	}
	if got, _ := os.ReadFile(path); !strings.HasPrefix(string(got), "# mine\ntheme: dark # keep\n") {
		t.Fatalf("the file lost its lines:\n%s", got)
	}
	if s.m.ActiveView() != "Fresh first" || !strings.Contains(s.row(), "Fresh first") {
		t.Fatalf("active %q, row %q", s.m.ActiveView(), s.row())
	}
	if strings.Contains(s.row(), "Fresh first*") {
		t.Fatalf("the saved view is marked changed: %q", s.row())
	}
	if n := len(s.ctx.Views); n != 1 {
		t.Fatalf("the context has %d views", n)
	}
	s.Key("[")
	s.Settle()
	if s.m.ActiveView() != "all" || !s.m.List.Query().Filter.IsZero() {
		t.Fatalf("[ after the save: %q %+v", s.m.ActiveView(), s.m.List.Query())
	}
}

func TestViewKeysWithoutViewsSayHow(t *testing.T) {
	t.Parallel()
	s := newViewsScreen(t, nil, 80, 24, "", nil)
	s.Key("]")
	s.Settle()
	if len(s.H.Toasts) == 0 || !strings.Contains(s.H.Toasts[len(s.H.Toasts)-1].Text, "V saves the current query") {
		t.Fatalf("toasts %+v", s.H.Toasts)
	}
	s.Key("V")
	s.Settle()
	if s.H.Top() != nil || !strings.Contains(s.H.Toasts[len(s.H.Toasts)-1].Text, "no config file") {
		t.Fatalf("V without a config file: top %T, toasts %+v", s.H.Top(), s.H.Toasts)
	}
}

// TestGoldenViewsRow renders the screen with its row of views (the second view active)
// against the in-process sandbox (small, seed 1, fixed clock, no colour).
// Regenerate with: go test ./internal/views/screens/conversations -run GoldenViewsRow -update
func TestGoldenViewsRow(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := newViewsScreen(t, savedNewEnded, size[0], size[1], "", nil)
			s.Key("]")
			s.Settle()
			golden.RequireEqual(t, []byte(viewtest.Plain(s.m.View())))
		})
	}
}
