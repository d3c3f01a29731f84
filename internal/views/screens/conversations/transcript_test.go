package conversations_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/transcript"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestTranscriptKeyWritesTheFile: D on the open conversation asks for the format and the
// file; submitted empty, the file is the CLI's transcript of that conversation, in the
// current directory, mode 0600, and a toast names it; a second one takes the next free
// name. The thread's pages cost ⌈n/100⌉ requests.
func TestTranscriptKeyWritesTheFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	e := viewtest.NewEnv(t, sandbox.Options{}, nil)
	ctx := viewtest.Ctx(e.Client)
	m := conversations.New(ctx)
	m.SetSize(80, 24)
	settle(m, m.Init())
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: attached})
	settle(m, cmd)
	s := viewtest.RunScreen(t, ctx, m, 80, 24)
	pages := e.Log.Count("GET", "/messages/")

	for i, name := range []string{"parley-conversation-700129.md", "parley-conversation-700129-2.md"} {
		s.Key("D")
		form := viewtest.Plain(s.Modal().View())
		if !strings.Contains(form, "Transcript of conversation #700129") {
			t.Fatalf("the form:\n%s", form)
		}
		s.Key("j") // text → markdown
		s.Key("ctrl+s")
		s.Until("the form to close", func() bool { return s.H.Top() == nil })
		s.Settle()
		path := filepath.Join(dir, name)
		if toast := s.H.LastToast(); !strings.Contains(toast, "Wrote 5 messages of #700129 to "+path) {
			t.Fatalf("transcript %d: the toast says %q", i+1, toast)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", name, fi, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if _, err := transcript.Write(t.Context(), e.Client, attached, transcript.Markdown, &want); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("the file is not the transcript:\n%s", got)
		}
	}
	if n := e.Log.Count("GET", "/messages/") - pages; n != 4 { // two transcripts and the two this test writes to compare them, a page each
		t.Fatalf("the transcripts cost %d message requests, want 4 (one page each)", n)
	}
}

// TestTranscriptKeyNeedsFiles: a session that may not write files (read-only, or a hub
// session on the hub's machine) is not offered the transcript.
func TestTranscriptKeyNeedsFiles(t *testing.T) {
	for _, deny := range []keymap.Caps{keymap.CanWrite, keymap.CanSaveFiles} {
		m, ctx := openAttached(t, 80, 24)
		keys := *ctx.Keys
		keys.Deny(deny)
		ctx.Keys = &keys
		_, cmd := m.Update(viewtest.Key("D"))
		settle(m, cmd)
		if viewtest.Opened(ctx) != nil {
			t.Fatalf("D opened a form without %v", deny)
		}
	}
}
