package sanitize

import (
	"net/url"
	"strings"
)

// Link is a URL from the API (a message's attachment, a conversation's add-on link) made
// safe to draw, to copy and to use as the target of a terminal hyperlink.
type Link struct {
	// URL is the address made safe, or "" when the text is not an http or https URL with a
	// host: every byte outside printable ASCII, and every printable one a URL may not hold
	// (space, quotes, angle brackets, backslash, braces, bar, caret, backquote), is
	// percent-encoded, and so is a % that does not start an escape. What is left is
	// printable ASCII without a byte that could end a terminal's escape sequence (ESC, BEL,
	// the C1 string terminator) or a Markdown link's target (space, <, >).
	URL string
	// Name is the last segment of the URL's path, decoded and sanitized for one line (the
	// host when the path has none); Host is the URL's host, sanitized, in lower case. Both
	// are "" when URL is.
	Name, Host string
	// Text is the value as sent, sanitized for one line: what is shown of a value that is
	// not a web address.
	Text string
}

// Web reports whether the link is an http or https URL (URL is set).
func (l Link) Web() bool { return l.URL != "" }

// ParseLink reads raw, a URL the API sent. Only http and https URLs with a host become
// links (URL, Name, Host); anything else (javascript:, file:, a path, text) is Text alone,
// which is never a link target nor copied as one.
func ParseLink(raw string) Link {
	raw = strings.TrimSpace(raw)
	out := Link{Text: Line(raw)}
	safe := EscapeURL(raw)
	u, err := url.Parse(safe)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return out
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return out
	}
	host := Line(strings.ToLower(u.Hostname()))
	if host == "" {
		return out
	}
	out.URL, out.Host = safe, host
	out.Name = out.Host
	segs := strings.Split(u.EscapedPath(), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i] == "" {
			continue
		}
		name, err := url.PathUnescape(segs[i])
		if err != nil {
			name = segs[i]
		}
		if name = strings.TrimSpace(Line(name)); name != "" {
			out.Name = name
		}
		break
	}
	return out
}

// EscapeURL percent-encodes every byte of s that a URL may not hold as it is: bytes outside
// printable ASCII (controls, DEL, the bytes of non-ASCII characters), space, the quotes,
// < > \ ^ ` { | }, and a % not followed by two hex digits. The result is printable ASCII.
func EscapeURL(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(c)
		case urlByte(c):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
	}
	return b.String()
}

// urlByte reports whether c may stand in a URL as it is (RFC 3986's unreserved and
// reserved characters; % is handled apart).
func urlByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
