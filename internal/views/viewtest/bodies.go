package viewtest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
)

// EditBodies is another server made from the sandbox: it passes every request to Next and
// hands the body of each 200 answer to a GET whose path ends with Suffix ("": any path) to
// Edit, whose result the answer carries instead (a field left out, one renamed, one more).
type EditBodies struct {
	Next   http.RoundTripper
	Suffix string
	Edit   func(path string, body []byte) ([]byte, error)
}

// RoundTrip implements http.RoundTripper.
func (e EditBodies) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := e.Next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, e.Suffix) || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if body, err = e.Edit(r.URL.Path, body); err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}
