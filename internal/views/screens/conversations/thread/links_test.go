package thread_test

import (
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/conversations/thread"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// linked is a view context on c with colour and hyperlinks on, as a terminal that supports
// them gets.
func linked(c *client.Client) *common.Ctx {
	ctx := viewtest.Ctx(c)
	ctx.Styles = theme.New(theme.Default(), true, false)
	ctx.Hyperlinks = true
	return ctx
}

// TestHostileURLRendersInert: a message's url with an escape, a bell, a string terminator
// and an OSC 8 of its own (the sandbox's hostile conversation) reaches the terminal as one
// hyperlink to its percent-encoded form, its name shown as inert text; Bubble Tea's
// renderer writes no other string sequence and no control of the url's.
func TestHostileURLRendersInert(t *testing.T) {
	sb := viewtest.Sandbox(t, sandbox.Options{})
	c := viewtest.Client(t, sb)
	m := thread.New(linked(c))
	m.SetSize(76, 22)
	m.Focus()
	m, _ = apply(m, viewtest.Run(m.Open(sb.Server.Info().HostileConversationID, "hostile", false), wait))
	for range 400 {
		if l, ok := m.MarkedLink(); ok && l.Host == "evil.example" {
			break
		}
		m = step(m, "k")
	}
	l, ok := m.MarkedLink()
	if !ok || l.Host != "evil.example" {
		t.Fatalf("the hostile link never came into view:\n%s", viewtest.Plain(m.View()))
	}
	const target = "https://evil.example/phish%07here%1B]8;;%1B%5C"
	if l.URL != target {
		t.Fatalf("the hostile url became %q, want %q", l.URL, target)
	}
	view := m.View()
	if !strings.Contains(viewtest.Plain(view), "▸ 📎 phish␇here␛]8;;␛\\ · evil.example") {
		t.Fatalf("the hostile link does not show as inert text:\n%s", viewtest.Plain(view))
	}
	out := Rendered(t, view)
	if seen := viewtest.RawLinks(t, out, target); !seen[target] {
		t.Fatalf("the link's name is not a hyperlink to %q", target)
	}
}

// Rendered is the renderer's bytes of a 76×22 screen showing view.
func Rendered(t *testing.T, view string) []byte {
	t.Helper()
	return viewtest.Rendered(t, view, 76, 22, "evil.example")
}

// TestURLsMadeSafe: every url the API may send draws inert and links only as an http(s)
// URL percent-encoded; hyperlinks off (a terminal that does not support them) writes no
// OSC at all.
func TestURLsMadeSafe(t *testing.T) {
	urls := []string{
		"https://evil.example/a\x07b",                              // a bell
		"https://evil.example/c\u009cd",                            // the C1 string terminator
		"https://evil.example/\x1b]8;;https://phish.example\x1b\\", // an OSC 8 of its own
		"https://evil.example/\x1b]0;title\x07",                    // a window title
		"javascript:alert(1)",                                      // not a web address: no link
	}
	want := []string{
		"https://evil.example/a%07b",
		"https://evil.example/c%C2%9Cd",
		"https://evil.example/%1B]8;;https://phish.example%1B%5C",
		"https://evil.example/%1B]0;title%07",
	}
	var msgs []client.Message
	for i, u := range urls {
		msgs = append(msgs, client.Message{ID: "1.1." + string(rune('9'-i)), Body: "see", URL: &u,
			Sender: client.Sender{Type: client.SenderContact}, Name: "Eve"})
	}
	for _, on := range []bool{true, false} {
		ctx := linked(nil)
		ctx.Hyperlinks = on
		m := thread.New(ctx)
		m.SetSize(76, 22)
		m.Focus()
		m.Preload(1, "urls", msgs)
		view := m.View()
		plain := viewtest.Plain(view)
		for _, s := range []string{"📎 a␇b · evil.example", "📎 c\uFFFDd · evil.example", "javascript:alert(1) (not a web address)"} {
			if !strings.Contains(plain, s) {
				t.Fatalf("no %q in\n%s", s, plain)
			}
		}
		out := Rendered(t, view)
		seen := viewtest.RawLinks(t, out, want...)
		switch {
		case on && len(seen) != len(want):
			t.Fatalf("hyperlinks to %v, want %v", seen, want)
		case !on && len(seen) != 0:
			t.Fatalf("hyperlinks off, yet links to %v", seen)
		}
	}
}
