package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// These targets check properties of the error path (bounded, token-free, sane waits), not
// its exact texts, which change with the server's kind of error page.

var errorBodySeeds = []string{
	`{"detail": "Not found."}`,
	`{"detail": {"code": "x", "message": "nested"}}`,
	`{"detail": ["a", "b"]}`,
	`{"detail": null}`,
	`{"email": ["Enter a valid email address."]}`,
	`{"detail": "` + strings.Repeat("é", 300) + `"}`,
	`<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>`,
	"plain text error\n",
	"",
	"   ",
	"\xff\xfe\x00",
	`{"detail": "\u001b]0;pwned\u0007"}`,
	`{"detail": "` + strings.Repeat("x", 10000) + `"}`,
	`[1, 2, 3]`,
	`{"detail": 42}`,
}

var retryAfterSeeds = []string{"", "0", "1", "5", "60", "3600", "86400", "-1", "1.5", "NaN", "Inf", "1e400",
	"9223372036854775807", "Wed, 21 Oct 2015 07:28:00 GMT", "Fri, 20 Nov 2026 10:16:30 GMT", "Fri, 31 Dec 9999 23:59:59 GMT",
	"soon", " 30 "}

var errNow = time.Date(2026, 11, 20, 10, 15, 30, 0, time.UTC)

func FuzzNewError(f *testing.F) {
	for i, b := range errorBodySeeds {
		f.Add("GET", "/api/um/v3/conversations/1/", 400+i*11%200, []byte(b), retryAfterSeeds[i%len(retryAfterSeeds)])
	}
	f.Add("DELETE", "/api/um/v3/contact_identities/", 429, []byte(`{"detail": "Request was throttled."}`), "3600")
	f.Fuzz(func(t *testing.T, method, path string, status int, body []byte, retryAfter string) {
		if status < 400 || status > 599 {
			status = 400 + (status%200+200)%200
		}
		h := http.Header{}
		h.Set("Retry-After", retryAfter)
		e := newError(method, path, status, h, body, errNow)
		if e.Status != status || e.Method != method || e.Path != path {
			t.Fatalf("status, method or path changed: %+v", e)
		}
		if len(e.Detail) > maxDetail+len("…") {
			t.Fatalf("a detail of %d bytes from %d bytes of body", len(e.Detail), len(body))
		}
		if utf8.Valid(body) && !utf8.ValidString(e.Detail) {
			t.Fatalf("cutting made %q invalid UTF-8", e.Detail)
		}
		if n := len(e.Error()) - len(method) - len(path); n > maxDetail+100 {
			t.Fatalf("an error text of %d bytes besides method and path: %q", n, e.Error())
		}
		checkRetryAfter(t, strings.TrimSpace(h.Get("Retry-After")), e.RetryAfter)
	})
}

// checkRetryAfter: a wait is never negative and never longer than what the server asked.
func checkRetryAfter(t *testing.T, v string, got time.Duration) {
	t.Helper()
	if got < 0 {
		t.Fatalf("Retry-After %q: a negative wait %v", v, got)
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		if !(n > 0) && got != 0 {
			t.Fatalf("Retry-After %q: waits %v", v, got)
		}
		if n > 0 && n < 1e9 && (got > time.Duration(n*float64(time.Second))+time.Nanosecond || got < time.Duration(n*float64(time.Second))-time.Nanosecond) {
			t.Fatalf("Retry-After %q: waits %v", v, got)
		}
		return
	}
	if at, err := http.ParseTime(v); err == nil {
		want := max(at.Sub(errNow), 0)
		if got != want {
			t.Fatalf("Retry-After %q: waits %v, want %v", v, got, want)
		}
		return
	}
	if got != 0 {
		t.Fatalf("Retry-After %q (neither seconds nor a date): waits %v", v, got)
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range retryAfterSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		checkRetryAfter(t, strings.TrimSpace(v), parseRetryAfter(v, errNow))
	})
}

// An error answer that carries the token, plainly or JSON-escaped, anywhere in its body,
// never shows it: not in the error's text, not in the detail the screens show.
func FuzzErrorAnswerHidesToken(f *testing.F) {
	const token = "tok_Secret0123456789abcdef"
	var (
		mu     sync.Mutex
		answer struct {
			status     int
			body       []byte
			retryAfter string
		}
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		a := answer
		mu.Unlock()
		if a.retryAfter != "" {
			w.Header().Set("Retry-After", a.retryAfter)
		}
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	}))
	f.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, Token: token, MaxRetries: -1, Timeout: 10 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	for i, b := range errorBodySeeds {
		f.Add(uint16(400+i*13%200), []byte(b), uint16(i*7), uint8(i%3), retryAfterSeeds[i%len(retryAfterSeeds)])
	}
	f.Add(uint16(404), []byte(`{"detail": "Unknown token ."}`), uint16(22), uint8(1), "")
	f.Add(uint16(401), []byte(`{"detail": "Invalid token ."}`), uint16(22), uint8(2), "")
	f.Fuzz(func(t *testing.T, status uint16, body []byte, at uint16, form uint8, retryAfter string) {
		st := 400 + int(status)%200
		if st == http.StatusTooManyRequests || st >= 500 {
			retryAfter = "" // no waiting in a fuzz run: a wait is FuzzNewError's business
		}
		retryAfter = strings.Map(func(r rune) rune {
			if r < 0x20 || r >= 0x7f {
				return -1
			}
			return r
		}, retryAfter)
		// The token goes in as it is, JSON-escaped in part, or JSON-escaped whole.
		tok := token
		switch form % 3 {
		case 1:
			tok = `\u0074` + token[1:]
		case 2:
			var b strings.Builder
			for _, r := range token {
				b.WriteString(`\u00` + strconv.FormatInt(int64(r), 16))
			}
			tok = b.String()
		}
		pos := int(at) % (len(body) + 1)
		full := append(append(append([]byte{}, body[:pos]...), tok...), body[pos:]...)
		mu.Lock()
		answer.status, answer.body, answer.retryAfter = st, full, retryAfter
		mu.Unlock()
		_, err := c.GetConversation(context.Background(), 1)
		if err == nil {
			t.Fatalf("status %d: no error", st)
		}
		if strings.Contains(err.Error(), token) {
			t.Fatalf("the error text carries the token: %q", err.Error())
		}
		if strings.Contains(Detail(err), token) {
			t.Fatalf("the detail carries the token: %q", Detail(err))
		}
		var e *Error
		if errors.As(err, &e) {
			if strings.Contains(e.Detail, token) || strings.Contains(e.Error(), token) {
				t.Fatalf("the API error carries the token: %q", e.Detail)
			}
			if len(e.Detail) > maxDetail+len("…") || e.RetryAfter < 0 {
				t.Fatalf("detail of %d bytes, wait %v", len(e.Detail), e.RetryAfter)
			}
		}
	})
}
