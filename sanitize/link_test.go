package sanitize

import (
	"strings"
	"testing"
)

func TestParseLink(t *testing.T) {
	cases := []struct {
		name, in            string
		url, linkName, host string // url "" : not a web link
	}{
		{"attachment", "https://files.example.com/99006/3/invoice.pdf",
			"https://files.example.com/99006/3/invoice.pdf", "invoice.pdf", "files.example.com"},
		{"http, upper-case scheme and host", "HTTP://Files.Example.COM/a/B.png",
			"HTTP://Files.Example.COM/a/B.png", "B.png", "files.example.com"},
		{"no path: the host names it", "https://crm.example.com", "https://crm.example.com", "crm.example.com", "crm.example.com"},
		{"trailing slash: the last segment", "https://x.example/docs/", "https://x.example/docs/", "docs", "x.example"},
		{"escaped name decoded", "https://x.example/a%20b%C3%A9.pdf?x=1#f", "https://x.example/a%20b%C3%A9.pdf?x=1#f", "a bé.pdf", "x.example"},
		{"space and non-ASCII encoded", "https://x.example/über uns.pdf", "https://x.example/%C3%BCber%20uns.pdf", "über uns.pdf", "x.example"},
		{"stray percent encoded", "https://x.example/100%/a%zz", "https://x.example/100%25/a%25zz", "a%zz", "x.example"},
		{"hostile: ESC, ST and OSC 8 inside", "https://evil.example/phish\x1b\\here\x1b]8;;\x1b\\",
			"https://evil.example/phish%1B%5Chere%1B]8;;%1B%5C", "phish␛\\here␛]8;;␛\\", "evil.example"},
		{"hostile: BEL and C1 ST", "https://evil.example/a\x07b\u009cc",
			"https://evil.example/a%07b%C2%9Cc", "a␇b\uFFFDc", "evil.example"},
		{"hostile: encoded bidi override in the name", "https://evil.example/invoice_%E2%80%AEfdp.exe",
			"https://evil.example/invoice_%E2%80%AEfdp.exe", "invoice_fdp.exe", "evil.example"},
		{"angle brackets and quotes", `https://x.example/a<b>"c"`, "https://x.example/a%3Cb%3E%22c%22", `a<b>"c"`, "x.example"},
		{"javascript", "javascript:alert(1)", "", "", ""},
		{"file", "file:///etc/passwd", "", "", ""},
		{"no host", "https:///path", "", "", ""},
		{"relative", "/uploads/x.pdf", "", "", ""},
		{"text", "see the attachment", "", "", ""},
		{"empty", "", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := ParseLink(c.in)
			if l.URL != c.url || l.Name != c.linkName || l.Host != c.host {
				t.Fatalf("ParseLink(%q) = URL %q name %q host %q, want %q %q %q", c.in, l.URL, l.Name, l.Host, c.url, c.linkName, c.host)
			}
			if l.Web() != (c.url != "") {
				t.Fatalf("Web() = %v", l.Web())
			}
			if l.Text != Line(strings.TrimSpace(c.in)) {
				t.Fatalf("Text = %q", l.Text)
			}
		})
	}
}

// checkLink holds what every Link promises, whatever the input.
func checkLink(t *testing.T, in string, l Link) {
	t.Helper()
	for i := 0; i < len(l.URL); i++ {
		c := l.URL[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte(`"<>\^`+"`{|}", c) >= 0 {
			t.Fatalf("ParseLink(%q).URL = %q holds byte %#x", in, l.URL, c)
		}
	}
	for _, s := range []string{l.Name, l.Host, l.Text} {
		if !IsClean(s) {
			t.Fatalf("ParseLink(%q) has unsanitized text %q", in, s)
		}
	}
	if l.Web() && (l.Name == "" || l.Host == "") {
		t.Fatalf("ParseLink(%q): a web link without a name or host: %+v", in, l)
	}
	if !l.Web() && (l.Name != "" || l.Host != "") {
		t.Fatalf("ParseLink(%q): a name or host without a link: %+v", in, l)
	}
}

func FuzzParseLink(f *testing.F) {
	for _, s := range []string{
		"https://files.example.com/99006/3/invoice.pdf", "https://evil.example/phish\x1b\\here\x1b]8;;\x1b\\",
		"http://[::1]:8080/a%2Fb", "https://x/%", "javascript:alert(1)", "https://a\x07b/c", "https://ex\u00e4mple.com/\u202e", "https://%E2%80%8B/x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkLink(t, in, ParseLink(in))
	})
}
