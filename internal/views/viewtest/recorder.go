package viewtest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Sent is one request a Recorder passed on.
type Sent struct {
	Method, Path string
	Query        string
	Body         string
}

// String is the path and the body: "/api/um/v3/operators/3/ {"email":"…"}".
func (s Sent) String() string { return s.Path + " " + s.Body }

// Recorder is a transport that records every request (with its body) it passes to Next.
type Recorder struct {
	Next http.RoundTripper
	mu   sync.Mutex
	reqs []Sent
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, Sent{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery, Body: string(body)})
	r.mu.Unlock()
	return r.Next.RoundTrip(req)
}

// Requests are the requests recorded so far, in the order they were sent, whose method is
// method and whose path contains part.
func (r *Recorder) Requests(method, part string) []Sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Sent
	for _, s := range r.reqs {
		if s.Method == method && strings.Contains(s.Path, part) {
			out = append(out, s)
		}
	}
	return out
}
