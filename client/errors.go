package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// Error is an HTTP error answer of the API: the status and the server's `detail` text.
type Error struct {
	Method string
	Path   string
	Status int
	// Detail is the server's `detail` string, or the start of a non-JSON body.
	Detail string
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration
	// Daily is true for a 429 of the family's daily limit (as opposed to burst throttling
	// or the analytics limit; see isDailyLimit), and Until is then when the API takes
	// requests of the family again.
	Daily bool
	Until time.Time
}

func (e *Error) Error() string {
	d := e.Detail
	if d == "" {
		d = http.StatusText(e.Status)
	}
	if e.Status == http.StatusTooManyRequests && e.RetryAfter > 0 {
		d += " (the API asks to wait " + WaitText(e.RetryAfter) + ")"
	}
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, d)
}

func (e *Error) retryable() bool {
	switch e.Status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

const maxDetail = 200

// newError builds an Error from a response. Bodies that are not JSON with a `detail`
// string become the (cut) detail text themselves; an HTML page (a proxy's error page) is
// named by its status and title instead of being shown as markup.
func newError(method, path string, status int, h http.Header, body []byte, now time.Time) *Error {
	e := &Error{Method: method, Path: path, Status: status}
	var payload struct {
		Detail any `json:"detail"`
	}
	if json.Unmarshal(body, &payload) == nil && payload.Detail != nil {
		switch d := payload.Detail.(type) {
		case string:
			e.Detail = d
		default:
			b, _ := json.Marshal(d)
			e.Detail = string(b)
		}
	} else if isHTML(h, body) {
		e.Detail = "the server answered " + statusLine(status) + " with an HTML page" + titleNote(body)
	} else if len(body) > 0 {
		var obj map[string]any
		if json.Unmarshal(body, &obj) == nil {
			// A validation error shaped {"field": ["message"]}.
			e.Detail = compactJSON(body)
		} else {
			e.Detail = strings.TrimSpace(string(body))
		}
	}
	e.Detail = cut(e.Detail, maxDetail)
	// A Retry-After date and the end of a daily limit are times of the server's clock: they
	// are read as waits from the answer's own Date header (the same clock wrote both), and
	// only an answer without one falls back on the local clock, now.
	server := now
	if h != nil {
		if d, err := http.ParseTime(h.Get("Date")); err == nil {
			server = d
		}
		e.RetryAfter = parseRetryAfter(h.Get("Retry-After"), server)
	}
	e.Until, e.Daily = isDailyLimit(e, now, server)
	return e
}

// statusLine is a status with its text: "502 Bad Gateway".
func statusLine(status int) string {
	if t := http.StatusText(status); t != "" {
		return strconv.Itoa(status) + " " + t
	}
	return strconv.Itoa(status)
}

func compactJSON(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// parseRetryAfter reads seconds or an HTTP date, the wait from server (the server's clock
// when it answered).
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		if !(n > 0) { // also NaN
			return 0
		}
		if n >= float64(math.MaxInt64/int64(time.Second)) {
			return time.Duration(math.MaxInt64) // a huge value would overflow into a negative wait
		}
		return time.Duration(n * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

func statusOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// IsNotFound reports a 404.
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

// IsPermission reports a 403: the acting operator lacks the capability.
func IsPermission(err error) bool { return statusOf(err) == http.StatusForbidden }

// IsAuth reports a 401: the token is missing or rejected.
func IsAuth(err error) bool { return statusOf(err) == http.StatusUnauthorized }

// IsRateLimited reports a 429 (daily limit, burst throttling or analytics limit).
func IsRateLimited(err error) bool { return statusOf(err) == http.StatusTooManyRequests }

// IsValidation reports a 400: the server refused the input.
func IsValidation(err error) bool { return statusOf(err) == http.StatusBadRequest }

// NetworkProblem says in plain words what happened to a request that got no complete answer,
// and whether it had been sent, without the method and the URL; ok is false when err is not
// such a failure. The texts:
//
//	cannot connect to 127.0.0.1:9 (connection refused); nothing was sent
//	cannot find the host api.example (no such host); nothing was sent
//	cannot connect to api.example:443 within 30s; nothing was sent
//	the connection to api.example:443 was lost after the request was sent; the answer did not arrive
//	no answer within 30s after the request was sent
//
// The text is not sanitized.
func NetworkProblem(err error) (text string, ok bool) {
	var te *TransportError
	if errors.As(err, &te) {
		return te.problem(), true
	}
	// A network error from elsewhere: what it says, without knowing what was sent.
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "cannot find the host " + dns.Name + " (" + dns.Err + ")", true
	}
	var op *net.OpError
	if errors.As(err, &op) {
		addr := "the API"
		if op.Addr != nil {
			addr = op.Addr.String()
		}
		if op.Timeout() {
			return "no answer from " + addr + " in time", true
		}
		if op.Op == "dial" {
			return "cannot connect to " + addr + " (" + shortReason(err) + ")", true
		}
		return "the connection to " + addr + " failed (" + shortReason(err) + ")", true
	}
	return "", false
}

// TransportError is a request that got no complete HTTP answer: the connection could not be
// made, broke, or the time ran out. Sent tells whether the whole request had been written
// to the connection before that: only then can the API have received it. errors.As reaches
// the underlying error (a *net.OpError, *net.DNSError, context.DeadlineExceeded, …).
type TransportError struct {
	Method string
	URL    string // without user info
	Host   string // host:port the request went to
	// Sent: the request was written completely; the API may have received and carried it out.
	Sent bool
	// Connected: a connection to Host was made.
	Connected bool
	// Limit is the time the attempt was allowed, when it ran out (zero otherwise).
	Limit time.Duration
	Err   error
}

func (e *TransportError) Error() string { return e.Method + " " + e.URL + ": " + e.Err.Error() }

func (e *TransportError) Unwrap() error { return e.Err }

// problem is the plain-words text of NetworkProblem.
func (e *TransportError) problem() string {
	var dns *net.DNSError
	switch {
	case errors.As(e.Err, &dns):
		return "cannot find the host " + dns.Name + " (" + dns.Err + "); nothing was sent"
	case e.Limit > 0 && e.Sent:
		return "no answer within " + limitText(e.Limit) + " after the request was sent"
	case e.Limit > 0 && e.Connected:
		return "could not send the request to " + e.Host + " within " + limitText(e.Limit) + "; nothing was sent"
	case e.Limit > 0:
		return "cannot connect to " + e.Host + " within " + limitText(e.Limit) + "; nothing was sent"
	case errors.Is(e.Err, context.Canceled) && e.Sent:
		return "the request to " + e.Host + " was cancelled after it was sent; the answer did not arrive"
	case errors.Is(e.Err, context.Canceled):
		return "the request to " + e.Host + " was cancelled before it was sent; nothing was sent"
	case e.Sent:
		return "the connection to " + e.Host + " was lost after the request was sent; the answer did not arrive"
	case e.Connected:
		return "the connection to " + e.Host + " broke before the whole request was sent (" + shortReason(e.Err) + ")"
	}
	return "cannot connect to " + e.Host + " (" + shortReason(e.Err) + "); nothing was sent"
}

// shortReason is the system's word for a network failure ("connection refused") rather than
// the whole chain of operations.
func shortReason(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

// limitText is a time limit in words: 300ms, 30s, 2m00s.
func limitText(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return WaitText(d)
}

// BadResponseError is a success answer (2xx) that cannot be believed: its body is empty where
// one is expected, is not JSON (an HTML page, a cut-off body), or lacks what the endpoint
// promises (an envelope without `results`, a resource without an id). Reason says so in
// plain words ("the API answered 200 with an empty body"); Err is the decoder's error, when
// there is one.
type BadResponseError struct {
	Method string
	Path   string
	Status int
	Reason string
	Err    error
}

func (e *BadResponseError) Error() string { return e.Method + " " + e.Path + ": " + e.Reason }

func (e *BadResponseError) Unwrap() error { return e.Err }

// ErrOutcomeUnknown marks a write (POST, PATCH, PUT, DELETE) that may have been carried out by
// the API although the client cannot tell: errors.Is(err, ErrOutcomeUnknown) holds when the
// request was sent and its answer was lost (connection lost or reset, timeout, cancelled,
// body unreadable), when the API answered 2xx with a body that is empty, not JSON or not of
// the promised shape, when it answered 5xx (a proxy's 502 or 504 often comes after the API
// got the request), and when an idempotent write's retries are exhausted after any of its
// attempts met one of these. It never holds for reads, for a write that was not sent (a
// refused connection) or one the API refused with a 4xx (408 and 429 aside when an earlier
// attempt may have gone through). Check the server's state before reporting such a write as
// saved or failed, and before sending it again. The precise cause stays in the chain.
var ErrOutcomeUnknown = errors.New("the API may have carried out the change")

// outcomeUnknown wraps the cause of a write whose outcome is unknown.
type outcomeUnknown struct{ err error }

func (e *outcomeUnknown) Error() string   { return e.err.Error() + "; " + ErrOutcomeUnknown.Error() }
func (e *outcomeUnknown) Unwrap() []error { return []error{e.err, ErrOutcomeUnknown} }

// Detail returns the server's detail text of an API error, the reason of a BadResponseError,
// or err's text otherwise.
func Detail(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Detail != "" {
		return e.Detail
	}
	var bad *BadResponseError
	if errors.As(err, &bad) {
		return bad.Reason
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// ErrInvalidOrdering is returned, before any request, for an ordering the spec does not
// allow on that endpoint.
var ErrInvalidOrdering = errors.New("ordering not allowed")

// ErrEmptyBulkDelete is returned for a list DELETE that names no ids, no filter and no search.
var ErrEmptyBulkDelete = errors.New("refusing a list DELETE without delete_ids, filters or search")

// WaitText is a wait in words: 45s, 12m05s, 3h42m, or a date for absurd waits.
func WaitText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		d = d.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}
