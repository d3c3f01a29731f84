package conversations_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/list"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// lossyScreen is the conversations screen on a sandbox of the test's own, through a proxy
// that can lose requests (one attempt per request); direct is a client on the sandbox
// itself, to see what it really has.
type lossyScreen struct {
	*viewtest.Screen
	m      *conversations.Model
	proxy  *viewtest.Proxy
	direct *client.Client
	log    *viewtest.RequestLog
}

func newLossyScreen(t *testing.T) *lossyScreen {
	t.Helper()
	e := viewtest.NewEnv(t, sandbox.Options{}, nil)
	p := viewtest.NewProxy(t, e.Sandbox.URL)
	ctx := viewtest.Ctx(p.Client(t, e.Info.CustomerToken, true))
	m := openScreen(ctx, 120, 40)
	if len(m.List.Rows()) == 0 {
		t.Fatal("no rows")
	}
	return &lossyScreen{Screen: viewtest.RunScreen(t, ctx, m, 120, 40), m: m, proxy: p, direct: e.Client, log: e.Log}
}

func (s *lossyScreen) topicsOf(t *testing.T, id int64) []string {
	t.Helper()
	conv, err := s.direct.GetConversation(client.Fresh(t.Context()), id)
	if err != nil {
		t.Fatal(err)
	}
	return list.Map(conv.Topics, func(tp client.Topic) string { return tp.Text })
}

// addTopic opens the topics form on the row under the cursor, types a new topic and saves.
func (s *lossyScreen) addTopic(t *testing.T, topic string) *forms.Modal {
	t.Helper()
	s.Key("t")
	f, ok := s.Modal().(*forms.Modal)
	if !ok {
		t.Fatalf("t opened %T", s.H.Top())
	}
	if len(s.m.List.SeenTopics()) > 0 {
		s.Key("tab") // past the known topics to "New topics"
	}
	s.Key(topic, "ctrl+s")
	return f
}

// The topics PATCH reaches the sandbox and its answer is lost: the form reads the
// conversation again, finds the topics saved, closes saying so, and the row shows them.
func TestTopicsLostAnswerIsConfirmed(t *testing.T) {
	t.Parallel()
	s := newLossyScreen(t)
	r, _ := s.m.List.Selected()
	s.proxy.Lose("PATCH", "/api/um/v3/conversations/", viewtest.DropAnswer, 1)
	gets := s.log.Count("GET", "/conversations/"+itoa(r.ID)+"/")
	s.addTopic(t, "lostanswer")
	s.Until("the form closed", func() bool { return s.H.Top() == nil })
	if got := s.H.LastToast(); got != "Topics saved (confirmed after the connection dropped)" {
		t.Fatalf("toast %q", got)
	}
	if s.proxy.Met() != 1 || s.log.Count("GET", "/conversations/"+itoa(r.ID)+"/") != gets+1 {
		t.Fatalf("lost %d requests; %d reads of the conversation", s.proxy.Met(), s.log.Count("GET", "/conversations/"+itoa(r.ID)+"/")-gets)
	}
	if got := s.topicsOf(t, r.ID); !slices.Contains(got, "lostanswer") {
		t.Fatalf("topics on the server %q", got)
	}
	if row, _ := s.m.List.Selected(); !slices.Contains(row.Topics, "lostanswer") {
		t.Fatalf("the row was not updated from the read: %q", row.Topics)
	}
}

// The PATCH is lost before the sandbox sees it: the form says the topics were not saved,
// keeps what was typed, and ctrl+s sends them again.
func TestTopicsLostRequestIsNotSaved(t *testing.T) {
	t.Parallel()
	s := newLossyScreen(t)
	r, _ := s.m.List.Selected()
	before := s.topicsOf(t, r.ID)
	s.proxy.Lose("PATCH", "/api/um/v3/conversations/", viewtest.DropRequest, 1)
	f := s.addTopic(t, "lostrequest")
	s.Until("the check", func() bool { return !f.Submitting() })
	want := "Not saved: the connection was lost before the server answered, and the conversation's topics on the server are not the ones sent. ctrl+s sends it again."
	if s.H.Top() != f || f.Err() != want {
		t.Fatalf("form open %v, error\n got %q\nwant %q", s.H.Top() == f, f.Err(), want)
	}
	if !strings.Contains(flat(f.View()), "lostrequest") {
		t.Fatalf("the typed topic is gone:\n%s", f.View())
	}
	if got := s.topicsOf(t, r.ID); !slices.Equal(got, before) {
		t.Fatalf("topics changed to %q", got)
	}
	for _, toast := range s.H.Toasts {
		if strings.Contains(toast.Text, "saved") {
			t.Fatalf("toast %q", toast.Text)
		}
	}
	s.Key("ctrl+s")
	s.Until("saved", func() bool { return s.H.Top() == nil })
	if got := s.H.LastToast(); got != "Topics saved" {
		t.Fatalf("toast %q", got)
	}
	if got := s.topicsOf(t, r.ID); !slices.Contains(got, "lostrequest") {
		t.Fatalf("topics on the server %q", got)
	}
}

// The DELETE of an ended conversation reaches the sandbox and its answer is lost: the
// conversation is read again, and its 404 means it was deleted.
func TestDeleteLostAnswerIsConfirmedByA404(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fault viewtest.Fault
		toast string
		gone  bool
	}{
		{viewtest.DropAnswer, "Deleted 1 conversation (confirmed after the connection dropped).", true},
		{viewtest.DropRequest, "Not deleted: the connection was lost before the server answered, and conversation #%d is still there.", false},
	} {
		t.Run(map[viewtest.Fault]string{viewtest.DropAnswer: "answer", viewtest.DropRequest: "request"}[tc.fault], func(t *testing.T) {
			s := newLossyScreen(t)
			for range 3 {
				s.Key("s") // all → new → pending → ended
			}
			s.Until("ended rows", func() bool {
				r, ok := s.m.List.Selected()
				return ok && r.Status == client.StatusEnded && !s.m.List.Loading()
			})
			r, _ := s.m.List.Selected()
			s.proxy.Lose("DELETE", "/api/um/v3/conversations/", tc.fault, 1)
			s.Key("d")
			s.Modal()
			s.Key("y")
			s.Until("the report", func() bool { return len(s.H.Toasts) > 0 })
			want := strings.Replace(tc.toast, "%d", itoa(r.ID), 1)
			if got := s.H.LastToast(); got != want {
				t.Fatalf("toast\n got %q\nwant %q", got, want)
			}
			_, err := s.direct.GetConversation(client.Fresh(t.Context()), r.ID)
			if gone := client.IsNotFound(err); gone != tc.gone {
				t.Fatalf("gone %v (%v), want %v", gone, err, tc.gone)
			}
			if _, shown := s.m.List.Row(r.ID); shown == tc.gone {
				t.Fatalf("row shown %v after the delete", shown)
			}
		})
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// flat is a view as one line of words: without styles, the box's border and the line
// breaks the box wraps text at.
func flat(view string) string {
	view = strings.Map(func(r rune) rune {
		if strings.ContainsRune("│╭╮╰╯─┃", r) {
			return ' '
		}
		return r
	}, ansi.Strip(view))
	return strings.Join(strings.Fields(view), " ")
}
