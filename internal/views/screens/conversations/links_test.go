package conversations_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// attached is a conversation of the test sandbox (small, seed 1) whose second newest
// message carries a url: a photo of a damaged item, on files.example.net.
const (
	attached    = 700129
	attachedURL = "https://files.example.net/uploads/IMG_2041.jpg"
)

// openAttached is the screen at w×h with the conversation attached open in the thread,
// which has the focus.
func openAttached(t *testing.T, w, h int) (*conversations.Model, *common.Ctx) {
	t.Helper()
	m, c, _, ctx := newScreen(t, w, h)
	found := false
	for msg, err := range c.Messages(t.Context(), attached, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 3}}) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || client.Str(msg.URL) == attachedURL
	}
	if !found {
		t.Fatalf("conversation %d carries no message with url %s: the sandbox's data changed", attached, attachedURL)
	}
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: attached})
	settle(m, cmd)
	if m.Focused() != conversations.PaneMessages || m.Msgs.ConversationID() != attached {
		t.Fatalf("the thread of %d is not open and focused", attached)
	}
	return m, ctx
}

// TestGoldenAttachment: a message's url shows as a line with its file name and host under
// the message, marked as the link y copies.
// Regenerate with: go test ./internal/views/screens/conversations -run GoldenAttachment -update
func TestGoldenAttachment(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m, _ := openAttached(t, size[0], size[1])
			v := viewtest.Plain(m.View())
			if !strings.Contains(v, "▸ 📎 IMG_2041.jpg · files.example.net") {
				t.Fatalf("no marked attachment line:\n%s", v)
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}

// copied is what the command copies to the clipboard ("" for nothing) and the toast it says.
func copied(t *testing.T, cmd tea.Cmd) (text, toast string) {
	t.Helper()
	for _, msg := range viewtest.Run(cmd, wait) {
		switch msg := msg.(type) {
		case common.ToastMsg:
			toast = msg.Text
		default:
			if fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" {
				text = fmt.Sprint(msg)
			}
		}
	}
	return text, toast
}

// TestCopyKeyCopiesTheMarkedLink: y in the thread copies the marked attachment's URL; in
// the list, and in a thread without a link in view, the conversation's id as before.
func TestCopyKeyCopiesTheMarkedLink(t *testing.T) {
	m, _ := openAttached(t, 200, 50)
	_, cmd := m.Update(viewtest.Key("y"))
	if text, toast := copied(t, cmd); text != attachedURL || !strings.Contains(toast, "the link to IMG_2041.jpg") {
		t.Fatalf("y in the thread copied %q (%q), want %q", text, toast, attachedURL)
	}
	m.Update(viewtest.Key("esc"))
	r, _ := m.List.Selected()
	_, cmd = m.Update(viewtest.Key("y"))
	if text, _ := copied(t, cmd); text != fmt.Sprint(r.ID) {
		t.Fatalf("y in the list copied %q, want the id %d", text, r.ID)
	}
	if v := viewtest.Plain(m.View()); strings.Contains(v, "▸") || !strings.Contains(v, "📎 IMG_2041.jpg") {
		t.Fatalf("the thread beside the focused list marks its link (or does not show it):\n%s", v)
	}

	// The long thread opens at messages without a url: y copies its id.
	m, _, sb, _ := newScreen(t, 80, 24)
	long := sb.Server.Info().LongConversationID
	_, cmd = m.Update(common.OpenConversationMsg{ConversationID: long})
	settle(m, cmd)
	if _, ok := m.Msgs.MarkedLink(); ok {
		t.Fatalf("the long thread's newest messages carry a link:\n%s", viewtest.Plain(m.View()))
	}
	_, cmd = m.Update(viewtest.Key("y"))
	if text, _ := copied(t, cmd); text != fmt.Sprint(long) {
		t.Fatalf("y in a thread without a link in view copied %q, want the id %d", text, long)
	}
}

// TestCopyKeyInTheDetailCopiesTheMarkedAddonLink: y in the focused detail of a
// conversation with add-on links copies the marked one's URL, as the detail marks it.
func TestCopyKeyInTheDetailCopiesTheMarkedAddonLink(t *testing.T) {
	m, c, _, _ := newScreen(t, 200, 50)
	p, err := c.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var conv client.Conversation
	for _, r := range p.Results {
		if len(r.AddonURLs) > 0 {
			conv = r
			break
		}
	}
	if conv.ID == 0 {
		t.Fatal("no conversation of the first 100 has add-on links: the sandbox's data changed")
	}
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: conv.ID})
	settle(m, cmd)
	_, cmd = m.Update(viewtest.Key("tab"))
	settle(m, cmd)
	if m.Focused() != conversations.PaneDetail {
		t.Fatalf("tab did not focus the detail of %d", conv.ID)
	}
	for range 100 {
		if _, _, ok := m.Detail.MarkedLink(); ok {
			break
		}
		_, cmd = m.Update(viewtest.Key("j"))
		settle(m, cmd)
	}
	name, l, ok := m.Detail.MarkedLink()
	if !ok || conv.AddonURLs[name] != l.URL {
		t.Fatalf("the marked link %q %+v (%v) is none of %v:\n%s", name, l, ok, conv.AddonURLs, viewtest.Plain(m.View()))
	}
	_, cmd = m.Update(viewtest.Key("y"))
	if text, toast := copied(t, cmd); text != l.URL || !strings.Contains(toast, "the "+name+" link") {
		t.Fatalf("y in the detail copied %q (%q), want %q", text, toast, l.URL)
	}
}

// TestHostileURLInertOnScreen: the whole screen at 200×50 (list, thread and detail in
// their frames) with the hostile conversation's link in view reaches the terminal through
// Bubble Tea's renderer with one hyperlink, to the url percent-encoded, and nothing else
// of the url's.
func TestHostileURLInertOnScreen(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	ctx := viewtest.Ctx(viewtest.Client(t, sb))
	ctx.Styles = theme.New(theme.Default(), true, false)
	ctx.Hyperlinks = true
	m := openScreen(ctx, 200, 50)
	_, cmd := m.Update(common.OpenConversationMsg{ConversationID: sb.Server.Info().HostileConversationID})
	settle(m, cmd)
	for range 400 {
		if l, ok := m.Msgs.MarkedLink(); ok && l.Host == "evil.example" {
			break
		}
		_, cmd = m.Update(viewtest.Key("k"))
		settle(m, cmd)
	}
	const target = "https://evil.example/phish%07here%1B]8;;%1B%5C"
	if l, ok := m.Msgs.MarkedLink(); !ok || l.URL != target {
		t.Fatalf("the hostile link is not in view (%+v):\n%s", l, viewtest.Plain(m.View()))
	}
	out := viewtest.Rendered(t, m.View(), 200, 50, "evil.example")
	if seen := viewtest.RawLinks(t, out, target); !seen[target] {
		t.Fatalf("no hyperlink to %s", target)
	}
}
