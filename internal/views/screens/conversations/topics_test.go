package conversations_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sanitize"
)

// topicsScreen is the conversations screen on a sandbox of the test's own, run by a Loop,
// with the row under the cursor given the topics mine and another row the topics other
// (through the client, then an auto-refresh that merges both rows).
type topicsScreen struct {
	*viewtest.Screen
	m       *conversations.Model
	c       *client.Client
	patches *viewtest.Recorder
	id      int64 // the row under the cursor
}

func newTopicsScreen(t *testing.T, mine, other []string) *topicsScreen {
	t.Helper()
	rec := &viewtest.Recorder{}
	e := viewtest.NewEnv(t, sandbox.Options{}, func(next http.RoundTripper) http.RoundTripper {
		rec.Next = next
		return rec
	})
	ctx := viewtest.Ctx(e.Client)
	m := openScreen(ctx, 120, 40)
	rows := m.List.Rows()
	sel, ok := m.List.Selected()
	if !ok || len(rows) < 2 {
		t.Fatalf("%d rows loaded", len(rows))
	}
	otherID := rows[1].ID
	if otherID == sel.ID {
		otherID = rows[0].ID
	}
	for _, set := range []struct {
		id     int64
		topics []string
	}{{sel.ID, mine}, {otherID, other}} {
		if _, err := e.Client.SetConversationTopics(t.Context(), set.id, set.topics); err != nil {
			t.Fatal(err)
		}
	}
	_, cmd := m.Update(common.RefreshMsg{Auto: true})
	settle(m, cmd)
	if r, _ := m.List.Selected(); r.ID != sel.ID || !slices.Equal(r.Topics, list.Map(mine, sanitize.Line)) {
		t.Fatalf("the refresh did not bring the topics of the row under the cursor: %+v", r)
	}
	return &topicsScreen{Screen: viewtest.RunScreen(t, ctx, m, 120, 40), m: m, c: e.Client, patches: rec, id: sel.ID}
}

// topics are the conversation's topics as the API has them now.
func (s *topicsScreen) topics(t *testing.T) []string {
	t.Helper()
	conv, err := s.c.GetConversation(t.Context(), s.id)
	if err != nil {
		t.Fatal(err)
	}
	return list.Map(conv.Topics, func(tp client.Topic) string { return tp.Text })
}

// The topics form shows hostile topics sanitized but sends the topics the user kept as the
// API spells them: toggling another topic on adds it, and the others stay the same topics
// (before, their display text was sent, which created new topics in their place).
func TestTopicsFormSendsKeptTopicsAsTheAPISpellsThem(t *testing.T) {
	t.Parallel()
	const hostile = "\x1b]0;TOPICPWN\x07Evil\u202etopic " + viewtest.Invisible
	const joined = "Zw\u200dj \u009b kept"
	const toggled = "!Aaa\u202e toggled\x1b[0m" // seen on another row; sorts first: g reaches it
	s := newTopicsScreen(t, []string{hostile, joined}, []string{toggled})

	s.Key("t")
	f := s.Modal()
	viewtest.CheckInert(t, f.View(), "the topics form")
	v := ansi.Strip(f.View())
	if !strings.Contains(v, sanitize.Line(hostile)) {
		t.Fatalf("the form does not show the topic sanitized:\n%s", v)
	}
	s.Key("g", " ", "ctrl+s")
	s.Until("saved", func() bool { return s.H.Top() == nil })

	want := []string{toggled, joined, hostile}
	got := s.topics(t)
	if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Fatalf("topics after the edit %q, want %q", got, want)
	}
	bodies := s.patches.Requests("PATCH", "")
	if len(bodies) != 3 { // the two seeding ones, then the form's
		t.Fatalf("%d PATCHes: %q", len(bodies), bodies)
	}
	var body struct{ Topics []string }
	if err := json.Unmarshal([]byte(bodies[2].Body), &body); err != nil {
		t.Fatal(err)
	}
	if slices.Sort(body.Topics); !slices.Equal(body.Topics, slices.Sorted(slices.Values(want))) {
		t.Fatalf("PATCH %s: want the topics %q as they were", bodies[2], want)
	}
}

// "j j j space" typed fast: "jjj" read together arrives as three messages one after the
// other, then the space: the form moves three options down and toggles the fourth, not the
// one the cursor started on.
func TestTopicsFormTakesKeysReadTogetherOneByOne(t *testing.T) {
	t.Parallel()
	others := []string{"!A1", "!A2", "!A3", "!A4"} // sort first: g reaches the first
	s := newTopicsScreen(t, []string{"Kept"}, others)
	s.Key("t")
	s.Modal()
	s.Key("g")
	s.Read("jjj")
	s.Key(" ", "ctrl+s")
	s.Until("saved", func() bool { return s.H.Top() == nil })
	got := s.topics(t)
	if slices.Sort(got); !slices.Equal(got, []string{"!A4", "Kept"}) {
		t.Fatalf("topics after jjj space: %q, want the fourth option added", got)
	}
}

// esc in the topics form closes it at once while nothing changed, and asks first once a
// topic was toggled (as the note form does with typed text): any key but y keeps editing,
// y discards without sending anything.
func TestTopicsFormAsksBeforeDiscardingAToggle(t *testing.T) {
	t.Parallel()
	s := newTopicsScreen(t, []string{"Kept"}, []string{"!Other"})
	const question = "Discard your changes?"

	s.Key("t")
	s.Modal()
	s.Key("g", " ", " ", "esc") // toggled on and off again: nothing to lose
	if s.H.Top() != nil {
		t.Fatalf("esc after no net change did not close the form:\n%s", s.H.Top().View())
	}

	s.Key("t")
	f := s.Modal()
	s.Key("g", " ", "esc")
	if s.H.Top() != f || !strings.Contains(ansi.Strip(f.View()), question) {
		t.Fatalf("esc after a toggle did not ask:\n%s", f.View())
	}
	s.Key("n")
	if s.H.Top() != f || strings.Contains(ansi.Strip(f.View()), question) {
		t.Fatalf("another key did not keep the form:\n%s", f.View())
	}
	s.Key("esc", "y")
	if s.H.Top() != nil {
		t.Fatalf("y did not discard:\n%s", f.View())
	}
	s.Drain(50 * time.Millisecond)
	if got := s.topics(t); !slices.Equal(got, []string{"Kept"}) {
		t.Fatalf("topics after discarding: %q", got)
	}
	if n := len(s.patches.Requests("PATCH", "")); n != 2 { // the seeding ones
		t.Fatalf("%d PATCHes, want only the 2 seeding ones", n)
	}
}

// TestTopicsFormHintsSayWhatTheKeysDo: the topics' keys say that space toggles, that enter
// moves to the next field (not "confirm", which it does not), and that ctrl+s saves; on the
// last field enter saves too.
func TestTopicsFormHintsSayWhatTheKeysDo(t *testing.T) {
	t.Parallel()
	s := newTopicsScreen(t, []string{"Kept"}, []string{"Other"})
	s.Key("t")
	f := s.Modal()
	v := ansi.Strip(f.View())
	for _, want := range []string{"space toggle", "enter next field", "ctrl+s save"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the topics form's keys lack %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "confirm") || strings.Contains(v, "submit") {
		t.Fatalf("the topics form's keys still say confirm or submit:\n%s", v)
	}
	s.Key("tab") // the new topics, the last field
	if v := ansi.Strip(f.View()); !strings.Contains(v, "enter save") {
		t.Fatalf("on the last field the keys do not say that enter saves:\n%s", v)
	}
	s.Key("esc")
}
