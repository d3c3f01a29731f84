package credentials

import (
	"bytes"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/config"
)

// fileError is an error of parseFile: the file and the line, nothing of what it holds.
var fileError = regexp.MustCompile(`^creds:[0-9]+: (malformed line \(want "PROFILE TOKEN"\)|a line longer than [0-9]+ bytes)$`)

// The credentials file, read from any bytes: either entries that written out again read back
// the same, or an error that names the file and repeats nothing of what the file holds (a
// line of it may be a token).
func FuzzParseCredentialsFile(f *testing.F) {
	for _, s := range []string{
		"", fileHeader, fileHeader + "https://api.example.com tok-SECRET-0123456789abcdef\n",
		"https://a.example#org=12 tok-0123456789\r\nhttps://b.example tok-abcdefghij\n",
		"\ufeffhttps://a.example tok-0123456789\n", // a UTF-8 BOM
		"\xfe\xff\x00h\x00 \x00t",                  // a UTF-16 BOM
		"tok-lonely-0123456789\n", "a b c\n", "# comment\n\n   \n\t# indented\n",
		"a\u00a0tok\u0085x\n", "a\u2028b c\n", "a b\x00c\n", "a\xffb c\n",
		"https://a.example " + strings.Repeat("t", 1<<20) + "\n",
		"https://a.example " + strings.Repeat("t", maxLine-100) + "\n",
		"x 9223372036854775807\ny -9223372036854775808\nz NaN\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseFile(bytes.NewReader(data), "creds")
		if err != nil {
			if msg := err.Error(); !fileError.MatchString(msg) {
				t.Fatalf("the error is not one naming the file and line only: %q", msg)
			}
			return
		}
		for k, v := range entries {
			if !oneField(k) || !oneField(v) || strings.HasPrefix(k, "#") {
				t.Fatalf("entry %q %q", k, v)
			}
		}
		out, err := formatFile(entries)
		if err != nil {
			t.Fatalf("entries read from a file do not write: %v", err)
		}
		back, err := parseFile(bytes.NewReader(out), "creds")
		if err != nil || !maps.Equal(back, entries) {
			t.Fatalf("written out and read again: %v, %v; want %v", back, err, entries)
		}
	})
}

// What `parley auth login --insecure-storage` stores (a base URL as the configuration
// normalizes it, an organization id, a token CleanToken accepts) is written and read back
// as itself; what cannot be is refused before anything is written.
func FuzzCredentialsRoundTrip(f *testing.F) {
	f.Add("https://api.example.com", int64(12), "tok-SECRET-0123456789abcdef")
	f.Add("https://api.example.com/api/um/v3/", int64(0), " tok-0123456789\n")
	f.Add("http://[::1%25eth0]:8080/x y/", int64(9223372036854775807), "tok-0123456789")
	f.Add("https://a\u00a0b.example", int64(-9223372036854775808), "tok\u00a0012345678")
	f.Add("https://a.example/\u2028", int64(1), "NaN-NaN-NaN")
	f.Add("\ufeffhttps://a.example", int64(1), "\ufefftok-0123456789")
	f.Add("https://a.example/#org=1", int64(2), strings.Repeat("t", 1<<20))
	f.Fuzz(func(t *testing.T, base string, org int64, token string) {
		url, err := config.NormalizeBaseURL(base)
		if err != nil {
			return
		}
		p := Profile{BaseURL: url}
		if org > 0 {
			p.OrganizationID = strconv.FormatInt(org, 10)
		}
		tok, err := CleanToken(token)
		if err != nil {
			return
		}
		entries := map[string]string{p.Key(): tok, "https://other.example": "tok-other-0123456789"}
		out, err := formatFile(entries)
		if err != nil {
			t.Fatalf("profile %q: %v", p.Key(), err)
		}
		back, err := parseFile(bytes.NewReader(out), "creds")
		if err != nil || !maps.Equal(back, entries) {
			t.Fatalf("profile %q, token of %d bytes: read back as %v, %v", p.Key(), len(tok), back, err)
		}
	})
}

// A byte order mark an editor put before the first line is not part of the first profile;
// a line with a control character or bytes that are not UTF-8 is malformed, not a profile
// that never matches.
func TestParseFileBOMAndControls(t *testing.T) {
	got, err := parseFile(strings.NewReader("\ufeffhttps://a.example tok-0123456789\n"), "creds")
	if err != nil || got["https://a.example"] != "tok-0123456789" || len(got) != 1 {
		t.Fatalf("with a BOM: %v, %v", got, err)
	}
	for _, s := range []string{"https://a.example tok\x00-0123456789\n", "https://a\xff.example tok-0123456789\n",
		"\xfe\xff\x00h\x00 \x00t\n"} {
		if got, err := parseFile(strings.NewReader(s), "creds"); err == nil || !fileError.MatchString(err.Error()) {
			t.Errorf("%q: %v, %v", s, got, err)
		}
	}
}
