package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Problem is what kept a request from an answer, in the words a status bar needs: each one
// calls for another state ("rate-limited, retrying in 4s", "daily limit reached until
// 01:00", "server error", "unreachable").
type Problem int

const (
	// ProblemNone: the API answered (a 4xx other than 429 is an answer too).
	ProblemNone Problem = iota
	// ProblemRateLimited: a 429 of burst throttling or a per-minute limit; a new request
	// is possible after a few seconds.
	ProblemRateLimited
	// ProblemDailyLimit: a 429 of the family's daily limit; nothing of that family goes
	// through before the limit resets (Event.Until).
	ProblemDailyLimit
	// ProblemServer: the server or a gateway answered with an error status (5xx).
	ProblemServer
	// ProblemUnreachable: no answer at all: connection refused, no such host, a timeout,
	// a connection lost.
	ProblemUnreachable
)

// String names the problem as the debug log does.
func (p Problem) String() string {
	switch p {
	case ProblemRateLimited:
		return "rate-limited"
	case ProblemDailyLimit:
		return "daily-limit"
	case ProblemServer:
		return "server-error"
	case ProblemUnreachable:
		return "unreachable"
	}
	return "none"
}

// dailyRetryAfter is the shortest Retry-After read as the daily limit: burst throttling
// asks for a few seconds (spec, Limits) and the analytics limit for at most a minute,
// while the daily limit asks to wait until the counters reset.
const dailyRetryAfter = 5 * time.Minute

// maxUntil bounds how far ahead a limit is said to last.
const maxUntil = 7 * 24 * time.Hour

// isDailyLimit tells a 429 of the daily limit from one of burst throttling or the
// analytics limit. The spec answers both with 429 and shows no body or header for
// either; the sandbox (and the API's documented practice) sends Retry-After with the
// time until the counters reset and a detail naming the daily limit. A 429 is read as the
// daily limit when its Retry-After is longer than dailyRetryAfter, or when it has no
// Retry-After and its detail speaks of a daily limit; until is then when requests of the
// family go through again: after the Retry-After, else at the next 00:00 UTC.
func isDailyLimit(e *Error, now, server time.Time) (until time.Time, ok bool) {
	if e.Status != http.StatusTooManyRequests {
		return time.Time{}, false
	}
	if e.RetryAfter > dailyRetryAfter {
		return now.Add(min(e.RetryAfter, maxUntil)), true // an absurd wait would overflow
	}
	if e.RetryAfter > 0 || !speaksOfADay(e.Detail) {
		return time.Time{}, false
	}
	// The server's day ends at its 00:00 UTC: the wait till then, from the local now.
	u := server.UTC()
	return now.Add(time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC).Sub(u)), true
}

// speaksOfADay reports a detail text about a daily limit ("Daily request limit of 5000
// reached", "limit of 5000 requests per day exceeded").
func speaksOfADay(detail string) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "daily") || strings.Contains(d, "per day") || strings.Contains(d, "a day")
}

// DailyLimit reports whether err is the API's refusal for the daily limit of a family,
// and when requests of that family go through again (as the answer said, else at the
// next 00:00 UTC).
func DailyLimit(err error) (until time.Time, ok bool) {
	var e *Error
	if !errors.As(err, &e) || !e.Daily {
		return time.Time{}, false
	}
	return e.Until, true
}

// FamilyOf is the request family of the request an API error answered (FamilyOther when
// err is not an *Error).
func FamilyOf(err error) Family {
	var e *Error
	if !errors.As(err, &e) {
		return FamilyOther
	}
	return familyOf(e.Path)
}

// ProblemOf classifies a request's error: the daily limit, another 429, a 5xx, no answer
// at all, or ProblemNone for an answer of the API (and for nil, a cancelled request, a
// body that could not be believed).
func ProblemOf(err error) Problem {
	if err == nil || errors.Is(err, context.Canceled) {
		return ProblemNone
	}
	var e *Error
	if errors.As(err, &e) {
		switch {
		case e.Daily:
			return ProblemDailyLimit
		case e.Status == http.StatusTooManyRequests:
			return ProblemRateLimited
		case e.Status >= 500:
			return ProblemServer
		}
		return ProblemNone
	}
	var te *TransportError
	if errors.As(err, &te) || isConnError(err) {
		return ProblemUnreachable
	}
	return ProblemNone
}

// health remembers which troubles the client reported (EventFailed, EventRetry), so that
// the first answer after them is reported too (EventAnswered): a status bar then holds a
// state exactly while it is true. WithContext clients share it.
type health struct {
	mu sync.Mutex
	// down: the last request that met a server error or no answer has not been followed
	// by an answer yet.
	down bool
	// limited: families whose last request met a limit (a 429) and that have not been
	// answered since.
	limited map[Family]bool
}

// troubled records that a request of family met problem p.
func (h *health) troubled(f Family, p Problem) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch p {
	case ProblemServer, ProblemUnreachable:
		h.down = true
	case ProblemRateLimited, ProblemDailyLimit:
		if h.limited == nil {
			h.limited = map[Family]bool{}
		}
		h.limited[f] = true
	}
}

// answered records an answer of the API to a request of family, and reports whether it
// ends a trouble reported before (then an EventAnswered is due).
func (h *health) answered(f Family) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	ended := h.down || h.limited[f]
	h.down = false
	delete(h.limited, f)
	return ended
}

// report emits the event of a request of family that failed for good with err after
// attempt retries (poll: a request of Poll): EventFailed for the troubles a status bar
// shows, nothing for the others (a 404, a refused write, a cancelled request).
func (c *Client) report(f Family, method string, status, attempts int, poll bool, err error) {
	p := ProblemOf(err)
	if p == ProblemNone {
		return
	}
	ev := Event{Kind: EventFailed, Family: f, Method: method, Status: status, Attempt: attempts, Problem: p,
		Err: c.redact(err), Poll: poll}
	var e *Error
	if errors.As(err, &e) {
		switch {
		case e.Daily:
			ev.Until = e.Until
		case e.Status == http.StatusTooManyRequests && e.RetryAfter > 0:
			ev.Until = c.now().Add(min(e.RetryAfter, maxUntil))
		}
	}
	c.health.troubled(f, p)
	c.emit(ev)
}
