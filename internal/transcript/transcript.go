// Package transcript writes a conversation's whole thread, oldest message first, as text,
// Markdown or JSON lines: each message's sender (name and role), time (UTC), text and
// attachment. It is the one writer of `parley conversations transcript` and of the TUI's
// transcript key. It reads the thread by ascending cursor, one request a page of PageSize
// messages, and writes each message as it arrives: a thread of any length costs ⌈n/100⌉
// requests and is never held whole.
//
// API text stays inert in every format: text and Markdown are sanitized (package
// sanitize) and Markdown's special characters are escaped, so a message can neither
// carry an escape sequence to the terminal that shows the file nor make a heading, a
// link or an image of its own; JSON keeps the text as sent, every control escaped.
package transcript

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// PageSize is how many messages one request asks for (the API's most).
const PageSize = client.MaxLimit

// Format is a transcript's file format.
type Format string

// The formats.
const (
	Text     Format = "text"
	Markdown Format = "markdown"
	JSON     Format = "json"
)

// Formats are the formats, in the order help lists them.
var Formats = []Format{Text, Markdown, JSON}

// ParseFormat reads a format's name ("md" is Markdown too), in any case.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case Text, Markdown, JSON:
		return f, nil
	case "md":
		return Markdown, nil
	}
	return "", fmt.Errorf("format %q: want text, markdown or json", s)
}

// Ext is the file name extension of the format: txt, md or jsonl.
func (f Format) Ext() string {
	switch f {
	case Markdown:
		return "md"
	case JSON:
		return "jsonl"
	}
	return "txt"
}

// FileName is the name a transcript of conversation id gets when none is given.
func FileName(id int64, f Format) string {
	return fmt.Sprintf("parley-conversation-%d.%s", id, f.Ext())
}

// timeLayout is how text and Markdown write a message's time (UTC).
const timeLayout = "2006-01-02 15:04:05"

// Write writes conversation id's thread to w in format f, oldest message first, reading it
// through c a page at a time (ascending cursor, PageSize messages a request) and writing
// each page before asking for the next. It returns how many messages it wrote; after an
// error, w holds what was written before it: nothing at all when the first page failed
// (the heading waits for the thread's first answer).
func Write(ctx context.Context, c *client.Client, id int64, f Format, w io.Writer) (int, error) {
	var fw formatter
	switch f {
	case Text:
		fw = textFormat{}
	case Markdown:
		fw = markdownFormat{}
	case JSON:
		fw = jsonFormat{}
	default:
		return 0, fmt.Errorf("transcript: unknown format %q", f)
	}
	out := bufio.NewWriter(w)
	n := 0
	begun := false
	begin := func() error {
		if begun {
			return nil
		}
		begun = true
		if err := fw.begin(out, id); err != nil {
			return fmt.Errorf("write the transcript: %w", err)
		}
		return nil
	}
	opts := client.MessageOptions{CursorOptions: client.CursorOptions{Limit: PageSize, Ordering: "id"}}
	for m, err := range c.Messages(ctx, id, opts) {
		if err != nil {
			if ferr := out.Flush(); ferr != nil {
				return n, fmt.Errorf("write the transcript: %w", ferr)
			}
			return n, fmt.Errorf("conversation %d after %d messages: %w", id, n, err)
		}
		if err := begin(); err != nil {
			return n, err
		}
		if err := fw.message(out, id, m); err != nil {
			return n, fmt.Errorf("write the transcript: %w", err)
		}
		n++
		if n%PageSize == 0 { // a page is written whole before the next is asked for
			if err := out.Flush(); err != nil {
				return n, fmt.Errorf("write the transcript: %w", err)
			}
		}
	}
	if err := begin(); err != nil { // a thread without messages
		return n, err
	}
	if err := fw.end(out, n); err != nil {
		return n, fmt.Errorf("write the transcript: %w", err)
	}
	if err := out.Flush(); err != nil {
		return n, fmt.Errorf("write the transcript: %w", err)
	}
	return n, nil
}

// formatter writes one format: the start, each message, the end.
type formatter interface {
	begin(w *bufio.Writer, id int64) error
	message(w *bufio.Writer, id int64, m client.Message) error
	end(w *bufio.Writer, n int) error
}

// entry is a message reduced to what a transcript says of it, sanitized for text.
type entry struct {
	name, role, at string
	body           []string // lines
	link           sanitize.Link
	attached       bool // the message has a url
}

func entryOf(m client.Message) entry {
	e := entry{role: m.Role(), at: m.SentAt.UTC().Format(timeLayout)}
	e.name = sanitize.Line(m.SenderName())
	if m.SentAt.IsZero() {
		e.at = "(no time)"
	}
	if body := sanitize.Text(m.Body); strings.TrimSpace(body) != "" {
		e.body = strings.Split(body, "\n")
	}
	if u := strings.TrimSpace(client.Str(m.URL)); u != "" {
		e.link, e.attached = sanitize.ParseLink(u), true
	}
	return e
}

// plural is "1 message", "3 messages".
func plural(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}
