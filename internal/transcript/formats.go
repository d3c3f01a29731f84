package transcript

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
	"github.com/parley-tui/parley/sanitize"
)

// textFormat is plain text: a header, then each message as a line with its time, sender
// and role and its text indented below, its attachment last; the count at the end.
//
//	2026-11-19 08:55:10 · Freya (contact)
//	    Here is a photo of the damaged item: …
//	    📎 IMG_2041.jpg <https://files.example.net/uploads/IMG_2041.jpg>
type textFormat struct{}

func (textFormat) begin(w *bufio.Writer, id int64) error {
	_, err := fmt.Fprintf(w, "Conversation #%d: transcript, oldest message first, times in UTC\n", id)
	return err
}

func (textFormat) message(w *bufio.Writer, _ int64, m client.Message) error {
	e := entryOf(m)
	who := e.role
	if e.name != "" {
		who = e.name + " (" + e.role + ")"
	}
	fmt.Fprintf(w, "\n%s · %s\n", e.at, who)
	for _, l := range e.body {
		if strings.TrimSpace(l) == "" {
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "    %s\n", l)
	}
	switch {
	case e.attached && e.link.Web():
		fmt.Fprintf(w, "    📎 %s <%s>\n", e.link.Name, e.link.URL)
	case e.attached:
		fmt.Fprintf(w, "    📎 %s (not a web address)\n", e.link.Text)
	case len(e.body) == 0:
		fmt.Fprintln(w, "    (empty message)")
	}
	return nil // a bufio.Writer keeps its first error for Flush
}

func (textFormat) end(w *bufio.Writer, n int) error {
	_, err := fmt.Fprintf(w, "\n%s\n", plural(n))
	return err
}

// markdownFormat is Markdown: a heading, then each message as a line with its sender (in
// bold), role and time, its text as a block quote and its attachment as a link; the count
// at the end. Every character of API text that Markdown would read as markup is escaped.
type markdownFormat struct{}

func (markdownFormat) begin(w *bufio.Writer, id int64) error {
	_, err := fmt.Fprintf(w, "# Conversation #%d\n\nTranscript, oldest message first, times in UTC.\n", id)
	return err
}

func (markdownFormat) message(w *bufio.Writer, _ int64, m client.Message) error {
	e := entryOf(m)
	who := "*" + e.role + "*"
	if e.name != "" {
		who = "**" + escapeMarkdown(e.name) + "** · " + e.role
	}
	fmt.Fprintf(w, "\n%s · %s\n\n", who, e.at)
	lines := make([]string, len(e.body))
	for i, l := range e.body {
		lines[i] = escapeMarkdown(strings.TrimSpace(l))
	}
	for i, l := range lines {
		switch {
		case l == "":
			fmt.Fprintln(w, ">")
		case i+1 < len(lines) && lines[i+1] != "":
			fmt.Fprintln(w, "> "+l+"\\") // a hard line break: the message's lines stay lines
		default:
			fmt.Fprintln(w, "> "+l)
		}
	}
	switch {
	case e.attached && e.link.Web():
		if len(e.body) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "📎 [%s](<%s>) · %s\n", escapeMarkdown(e.link.Name), e.link.URL, escapeMarkdown(e.link.Host))
	case e.attached:
		if len(e.body) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "📎 %s (not a web address)\n", escapeMarkdown(e.link.Text))
	case len(e.body) == 0:
		fmt.Fprintln(w, "*(empty message)*")
	}
	return nil
}

func (markdownFormat) end(w *bufio.Writer, n int) error {
	_, err := fmt.Fprintf(w, "\n---\n\n%s\n", plural(n))
	return err
}

// escapeMarkdown escapes a line of sanitized text so that Markdown (CommonMark with
// GitHub's extensions) shows it as written: a backslash goes before every character that
// is markup anywhere in a line (emphasis, code, links and images, raw HTML and entities,
// tables, strikethrough, math, headings, block quotes), and before the characters that are
// markup only at the start of a line (list items, setext underlines, ordered list numbers'
// dot or parenthesis).
func escapeMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	start := true   // at the start of the line
	digits := false // the line so far is digits
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("\\`*_[]<>#|~&$", c) >= 0:
			b.WriteByte('\\')
		case start && strings.IndexByte("-+=", c) >= 0:
			b.WriteByte('\\')
		case digits && (c == '.' || c == ')'):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		digits = c >= '0' && c <= '9' && (start || digits)
		start = false
	}
	return b.String()
}

// jsonFormat is JSON lines: one object a message, in the order of the thread, with the
// message's text as sent (every control character escaped: export.WriteJSON).
type jsonFormat struct{}

// jsonMessage is a message in a JSON transcript.
type jsonMessage struct {
	ConversationID int64       `json:"conversation_id"`
	ID             string      `json:"id"`
	SentAt         client.Time `json:"sent_at"`
	Role           string      `json:"role"`
	// SenderID is the sender's id, absent when the message names none (no sender, or id 0):
	// never a 0 the server did not send.
	SenderID *int64 `json:"sender_id,omitempty"`
	Name     string `json:"name"`
	Body     string `json:"body"`
	// URL is the message's url as sent (absent when it has none); Link is the same made
	// safe (sanitize.Link), only for an http or https URL.
	URL  *string `json:"url,omitempty"`
	Link string  `json:"link,omitempty"`
}

func (jsonFormat) begin(*bufio.Writer, int64) error { return nil }

func (jsonFormat) message(w *bufio.Writer, id int64, m client.Message) error {
	jm := jsonMessage{ConversationID: id, ID: m.ID, SentAt: m.SentAt, Role: m.Role(), Name: m.SenderName(), Body: m.Body}
	if m.Sender.ID != 0 {
		jm.SenderID = &m.Sender.ID
	}
	if u := strings.TrimSpace(client.Str(m.URL)); u != "" {
		jm.URL = m.URL
		jm.Link = sanitize.ParseLink(u).URL
	}
	return export.WriteJSON(w, jm, false)
}

func (jsonFormat) end(*bufio.Writer, int) error { return nil }
