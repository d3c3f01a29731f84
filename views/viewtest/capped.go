package viewtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// CappedCount makes a server report the capped total: the `count` of every page of the
// offset list endpoints (conversations, contacts) becomes at most Cap, as a server does
// whose count stops where its offset lists do (the spec only says offset endpoints return
// at most 10,000 results). The /all/ endpoints' count stays the true one. Everything else
// passes to Next untouched.
type CappedCount struct {
	Next http.RoundTripper
	Cap  int
}

// RoundTrip implements http.RoundTripper.
func (c *CappedCount) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.Next.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || resp.StatusCode != http.StatusOK || !offsetList(req.URL.Path) {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var env map[string]json.RawMessage
	var n int
	if json.Unmarshal(body, &env) == nil && json.Unmarshal(env["count"], &n) == nil && n > c.Cap {
		env["count"] = json.RawMessage(strconv.Itoa(c.Cap))
		if b, err := json.Marshal(env); err == nil {
			body = b
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return resp, nil
}

// offsetList reports the path of an offset list endpoint (not /all/, not one item).
func offsetList(path string) bool {
	path = strings.TrimSuffix(path, "/")
	return strings.HasSuffix(path, "/conversations") || strings.HasSuffix(path, "/contact_identities")
}
