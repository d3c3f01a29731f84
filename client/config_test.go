package client

import (
	"net/http"
	"strings"
	"testing"
)

func TestNewValidatesBaseURL(t *testing.T) {
	for _, bad := range []string{"", "   ", "api.example.com", "ftp://api.example.com", "http://", "https:///prefix", "http://[::1", "mailto:x@example.com"} {
		if c, err := New(Config{BaseURL: bad, Token: testToken}); err == nil {
			t.Errorf("New(%q) = %v, want an error", bad, c.BaseURL())
		} else {
			checkNoToken(t, err)
		}
	}
	for in, want := range map[string]string{
		"https://api.example.com":             "https://api.example.com",
		"https://api.example.com/":            "https://api.example.com",
		" https://api.example.com/prefix// ":  "https://api.example.com/prefix",
		"http://127.0.0.1:8080/a/b?x=1#frag":  "http://127.0.0.1:8080/a/b",
		"https://api.example.com/prefix/?q=1": "https://api.example.com/prefix",
	} {
		c, err := New(Config{BaseURL: in, Token: testToken})
		if err != nil {
			t.Errorf("New(%q): %v", in, err)
			continue
		}
		if c.BaseURL() != want {
			t.Errorf("BaseURL of %q = %q, want %q", in, c.BaseURL(), want)
		}
	}
}

func TestDefaults(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"id": 1}`) })
	c, err := New(Config{BaseURL: rec.base() + "/", Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	if c.maxRetries != DefaultMaxRetries || c.maxWait != DefaultMaxRetryWait || c.timeout != DefaultTimeout || c.maxBody != DefaultMaxBodyBytes {
		t.Errorf("defaults: retries %d, wait %v, timeout %v, body %d", c.maxRetries, c.maxWait, c.timeout, c.maxBody)
	}
	if c.AnalyticsFree(MetricConversationRating) != 10 {
		t.Errorf("default analytics limit %d, want 10", c.AnalyticsFree(MetricConversationRating))
	}
	if _, err := c.GetOperator(bg(), 1); err != nil {
		t.Fatal(err)
	}
	got := rec.last(t)
	if ua := got.Header.Get("User-Agent"); !strings.HasPrefix(ua, "parley") {
		t.Errorf("default User-Agent %q", ua)
	}
	if got.Path != "/prefix/api/um/v3/operators/1/" {
		t.Errorf("path %q", got.Path)
	}
	// The caller's HTTP client is not modified.
	hc := &http.Client{}
	if _, err := New(Config{BaseURL: rec.base(), Token: testToken, HTTPClient: hc}); err != nil {
		t.Fatal(err)
	}
	if hc.CheckRedirect != nil {
		t.Error("New changed the caller's http.Client")
	}
}
