package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"sync"
)

// An Answer holds the body of a request's success answer as the server sent it (fields the
// client does not know, the server's spelling of times and numbers), for passing on: a
// request made with a context of KeepAnswer leaves its answer there, the last one when the
// context makes several. An answer taken from the client's memory has no body to leave.
type Answer struct {
	mu   sync.Mutex
	body []byte
}

type answerKey struct{}

// KeepAnswer returns ctx with a new Answer that the requests made with it fill.
func KeepAnswer(ctx context.Context) (context.Context, *Answer) {
	a := &Answer{}
	return context.WithValue(ctx, answerKey{}, a), a
}

// JSON is the body of the last success answer kept (nil: none).
func (a *Answer) JSON() json.RawMessage {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.body
}

// keepAnswer leaves body in ctx's Answer, if it has one. A token the server echoed is
// redacted: what is kept is meant to be printed.
func (c *Client) keepAnswer(ctx context.Context, body []byte) {
	a, _ := ctx.Value(answerKey{}).(*Answer)
	if a == nil {
		return
	}
	b := bytes.Clone(body)
	if c.token != "" {
		b = bytes.ReplaceAll(b, []byte(c.token), []byte("[redacted]"))
	}
	a.mu.Lock()
	a.body = b
	a.mu.Unlock()
}

// ErrDryRun is the error of a write that a dry-run client (WithDryRun) described instead
// of sending.
var ErrDryRun = errors.New("not sent: dry run")

// DryRequest is a write as a dry-run client would have sent it: never the token.
type DryRequest struct {
	Method string `json:"method"`
	// Path is the request's path on the API's host, the base URL's path included, with its
	// query: "/api/um/v3/contact_identities/?identifier=email".
	Path string `json:"path"`
	// Headers are the context headers it would carry: Service-Organization-Id and
	// Service-Operator-Id, when set.
	Headers map[string]string `json:"headers,omitempty"`
	// Body is the JSON body (nil: none).
	Body json.RawMessage `json:"body,omitempty"`
}

// WithDryRun returns a derived client that sends no write: each write that passes the gates
// is described to fn and fails with ErrDryRun, nothing sent, counted or waited for. Reads
// are sent as usual.
func (c *Client) WithDryRun(fn func(DryRequest)) *Client {
	d := *c
	d.dryRun = fn
	return &d
}

// describe tells the dry run about a write to u with payload.
func (c *Client) describe(method string, u *url.URL, payload []byte) {
	r := DryRequest{Method: method, Path: u.EscapedPath()}
	if u.RawQuery != "" {
		r.Path += "?" + u.RawQuery
	}
	if payload != nil {
		r.Body = json.RawMessage(bytes.Clone(payload))
	}
	h := map[string]string{}
	if c.org != 0 {
		h["Service-Organization-Id"] = strconv.FormatInt(c.org, 10)
	}
	if op := c.operatorFor(method); op != 0 {
		h["Service-Operator-Id"] = strconv.FormatInt(op, 10)
	}
	if len(h) > 0 {
		r.Headers = h
	}
	c.dryRun(r)
}
