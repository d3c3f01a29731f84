package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// now is the tests' fixed clock; the sandbox seeds its data relative to it.
var now = time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)

// attached is a short conversation of the test sandbox (small, seed 1) with an attachment.
const attached = 700129

// testSandbox starts a small sandbox (seed 1, the fixed clock, no burst limit) with a
// client of the customer token.
func testSandbox(t *testing.T) (*sandbox.Running, *client.Client) {
	t.Helper()
	sb, err := sandbox.Start(context.Background(), sandbox.Options{Size: sandbox.SizeSmall, Seed: 1,
		Now: func() time.Time { return now }, BurstRate: -1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken,
		HTTPClient: &http.Client{Transport: tr}, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return sb, c
}

func write(t *testing.T, c *client.Client, id int64, f Format) (string, int) {
	t.Helper()
	var b bytes.Buffer
	n, err := Write(t.Context(), c, id, f, &b)
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), n
}

// TestGolden: a short conversation with an attachment, as text and as Markdown.
// Regenerate with: go test ./internal/transcript -run Golden -update
func TestGolden(t *testing.T) {
	_, c := testSandbox(t)
	for _, f := range []Format{Text, Markdown} {
		t.Run(string(f), func(t *testing.T) {
			out, n := write(t, c, attached, f)
			if n != 5 || !strings.Contains(out, "IMG_2041.jpg") {
				t.Fatalf("%d messages, the attachment missing:\n%s", n, out)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// TestHostileTextStaysInert: the sandbox's hostile conversation (escape sequences,
// controls, bidi overrides, a hostile url) written in every format carries no control, no
// C1 byte and no bidi control; Markdown makes no heading, link, image or HTML of its own;
// JSON gives every message back as the API sent it.
func TestHostileTextStaysInert(t *testing.T) {
	sb, c := testSandbox(t)
	id := sb.Server.Info().HostileConversationID
	var msgs []client.Message
	for m, err := range c.Messages(t.Context(), id, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 100, Ordering: "id"}}) {
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	for _, f := range Formats {
		out, n := write(t, c, id, f)
		if n != len(msgs) {
			t.Fatalf("%s: %d messages of %d", f, n, len(msgs))
		}
		for i, r := range out {
			if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) ||
				(r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == '\ufeff' {
				t.Fatalf("%s: the control %U at byte %d: %q", f, r, i, out[max(0, i-40):min(len(out), i+40)])
			}
		}
		switch f {
		case Markdown:
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "#") && l != "# Conversation #"+itoa(id) {
					t.Fatalf("a heading of a message's: %q", l)
				}
				if strings.Contains(l, "](") && !strings.HasPrefix(l, "📎 [") {
					t.Fatalf("a link of a message's: %q", l)
				}
				for _, mark := range []string{"<", "[", "`", "&"} {
					if i := strings.Index(l, mark); i >= 0 && !strings.HasPrefix(l, "📎 [") && (i == 0 || l[i-1] != '\\') {
						t.Fatalf("an unescaped %s: %q", mark, l)
					}
				}
			}
			if !strings.Contains(out, "📎 [phish␇here␛\\]8;;␛\\\\](<https://evil.example/phish%07here%1B]8;;%1B%5C>) · evil.example") {
				t.Fatalf("the hostile attachment is not one safe link:\n%s", out)
			}
		case JSON:
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			for i, l := range lines {
				var jm jsonMessage
				if err := json.Unmarshal([]byte(l), &jm); err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				m := msgs[i]
				if jm.ID != m.ID || jm.Body != strings.ToValidUTF8(m.Body, "\uFFFD") || jm.Role != m.Role() || jm.Name != m.SenderName() {
					t.Fatalf("line %d is not message %s as sent: %+v", i+1, m.ID, jm)
				}
				if client.Str(jm.URL) != client.Str(m.URL) {
					t.Fatalf("line %d: url %q, sent %q", i+1, client.Str(jm.URL), client.Str(m.URL))
				}
			}
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestMarkdownEscapes: Markdown's markup in a message is shown as written.
func TestMarkdownEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"# Heading":                     `\# Heading`,
		"[click](https://evil.example)": `\[click\](https://evil.example)`,
		"![img](x.png)":                 `!\[img\](x.png)`,
		"<script>alert(1)</script>":     `\<script\>alert(1)\</script\>`,
		"&#x202E; &amp;":                `\&\#x202E; \&amp;`,
		"*bold* _it_ `code` ~~s~~":      "\\*bold\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~",
		"| a | b |":                     `\| a \| b \|`,
		"- item":                        `\- item`,
		"+ item":                        `\+ item`,
		"===":                           `\===`,
		"12. item":                      `12\. item`,
		"3) item":                       `3\) item`,
		"a - b, 1. c":                   `a - b, 1. c`,
		"costs $5 and $6":               `costs \$5 and \$6`,
		`back\slash`:                    `back\\slash`,
		"> quote":                       `\> quote`,
		"plain text.":                   "plain text.",
	} {
		if got := escapeMarkdown(in); got != want {
			t.Errorf("escapeMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"text": Text, "Markdown": Markdown, "md": Markdown, " json ": JSON} {
		if f, err := ParseFormat(in); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, f, err)
		}
	}
	if _, err := ParseFormat("pdf"); err == nil || !strings.Contains(err.Error(), "want text, markdown or json") {
		t.Errorf("pdf: %v", err)
	}
	if FileName(7, Markdown) != "parley-conversation-7.md" || FileName(7, JSON) != "parley-conversation-7.jsonl" {
		t.Error(FileName(7, Markdown), FileName(7, JSON))
	}
}

// TestRequestsAreCeilOfNOver100: a thread of exactly 200 messages costs 2 requests, not a
// third for an empty page, and one of 201 costs 3; every message is written once, in
// ascending id order.
func TestRequestsAreCeilOfNOver100(t *testing.T) {
	for _, n := range []int{200, 201} {
		log := &viewtest.RequestLog{}
		sb, err := sandbox.Start(t.Context(), sandbox.Options{Size: sandbox.SizeSmall, LongThread: n, RequestLog: log, BurstRate: -1}, "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken})
		if err != nil {
			t.Fatal(err)
		}
		out, written := write(t, c, sb.Server.Info().LongConversationID, JSON)
		_ = sb.Close()
		if written != n {
			t.Fatalf("%d messages written of %d", written, n)
		}
		if want := (n + PageSize - 1) / PageSize; len(log.Lines()) != want {
			t.Errorf("%d messages: %d requests, want %d", n, len(log.Lines()), want)
		}
		prev, seen := "", map[string]bool{}
		for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var jm jsonMessage
			if err := json.Unmarshal([]byte(l), &jm); err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			if seen[jm.ID] || (prev != "" && !idBefore(prev, jm.ID)) {
				t.Fatalf("line %d: message %s after %s", i+1, jm.ID, prev)
			}
			seen[jm.ID], prev = true, jm.ID
		}
	}
}

// idBefore orders message ids (conversation.part.sequence) by their numbers.
func idBefore(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, errx := strconv.ParseInt(pa[i], 10, 64)
		y, erry := strconv.ParseInt(pb[i], 10, 64)
		if errx != nil || erry != nil {
			return a < b
		}
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}

// TestJSONWritesOnlyWhatWasSent: a message without a sender, a time or a url has no
// sender_id, a null sent_at and no url or link in its JSON line, never a zero of parley's.
func TestJSONWritesOnlyWhatWasSent(t *testing.T) {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := (jsonFormat{}).message(w, 7, client.Message{ID: "7.1.1", Body: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"sender_id", "url", "link"} {
		if v, ok := got[k]; ok {
			t.Errorf("%s: %v, the message has none", k, v)
		}
	}
	if v, ok := got["sent_at"]; !ok || v != nil {
		t.Errorf("sent_at: %v (present %v), want null", v, ok)
	}
	b.Reset()
	m := client.Message{ID: "7.1.2", Body: "hi", Sender: client.Sender{Type: client.SenderContact, ID: 50203}}
	if err := (jsonFormat{}).message(w, 7, m); err != nil || w.Flush() != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"sender_id":50203`) {
		t.Errorf("the sender's id is missing: %s", b.String())
	}
}

// TestAMissingConversationWritesNothing: when the thread's first page fails (404), the
// error names the conversation and nothing is written, not even the heading.
func TestAMissingConversationWritesNothing(t *testing.T) {
	_, c := testSandbox(t)
	for _, f := range Formats {
		var b bytes.Buffer
		n, err := Write(t.Context(), c, 99, f, &b)
		if err == nil || n != 0 || !strings.Contains(err.Error(), "conversation 99 after 0 messages") {
			t.Fatalf("%s: %d messages, %v", f, n, err)
		}
		if b.Len() != 0 {
			t.Fatalf("%s: wrote %q before the error", f, b.String())
		}
	}
}
