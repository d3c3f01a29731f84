package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
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
// string become the (cut) detail text themselves.
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
	if h != nil {
		e.RetryAfter = parseRetryAfter(h.Get("Retry-After"), now)
	}
	return e
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

// parseRetryAfter reads seconds or an HTTP date.
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

// NetworkProblem says in plain words why err never reached the API ("cannot reach
// 127.0.0.1:9 (connect: connection refused)", "cannot find the host api.example (no such
// host)", "no answer in time"), without the method and the URL; ok is false when err is
// not a network failure. The text is not sanitized.
func NetworkProblem(err error) (text string, ok bool) {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "cannot find the host " + dns.Name + " (" + dns.Err + ")", true
	}
	var op *net.OpError
	if errors.As(err, &op) {
		if op.Timeout() {
			return "no answer in time", true
		}
		reason := err.Error()
		if op.Err != nil {
			reason = op.Err.Error()
		}
		if op.Addr != nil {
			return "cannot reach " + op.Addr.String() + " (" + reason + ")", true
		}
		return "cannot reach the API (" + reason + ")", true
	}
	return "", false
}

// Detail returns the server's detail text of an API error, or err's text otherwise.
func Detail(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Detail != "" {
		return e.Detail
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
