// Package client is a typed HTTP client for the Messaging Platform JSON API v3 and the
// Analytics API v1. It knows nothing about terminals or Bubble Tea.
//
// Every call takes a context. Idempotent requests (GET, PUT, DELETE) are retried with
// jittered exponential backoff on 429, 502, 503, 504 and connection errors, honouring
// Retry-After; POST and PATCH are never retried, nor is a list DELETE without delete_ids
// (each one deletes another batch). Requests are counted per family and organization for
// the current UTC day, and analytics requests pass through a limiter that keeps each metric
// of each organization under 10 requests per minute.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults used when Config leaves a field zero.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRetries   = 4
	DefaultMaxRetryWait = 60 * time.Second
	DefaultMaxBodyBytes = 64 << 20
	defaultBackoffBase  = 500 * time.Millisecond
)

// Config configures a Client. Only BaseURL and Token are required.
type Config struct {
	// BaseURL is the API's {base_url}; it may carry a path prefix ("https://host/prefix").
	BaseURL string
	// Token is sent verbatim as the Authorization header, only to BaseURL's host.
	Token string
	// OrganizationID, when non-zero, is sent as Service-Organization-Id.
	OrganizationID int64
	// OperatorID, when non-zero, is sent as Service-Operator-Id.
	OperatorID int64
	// HTTPClient is the transport; nil means a client with no overall timeout (each attempt
	// is bounded by Timeout instead).
	HTTPClient *http.Client
	// UserAgent identifies parley and its version.
	UserAgent string
	// Timeout bounds one attempt of one request. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries caps retries of idempotent requests. Zero means DefaultMaxRetries; negative
	// disables retries.
	MaxRetries int
	// MaxRetryWait caps a single wait between attempts (Retry-After included). Zero means
	// DefaultMaxRetryWait.
	MaxRetryWait time.Duration
	// MaxBodyBytes caps a response body. Zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// AnalyticsPerMinute is the client-side limit per metric per organization. Zero means 10.
	AnalyticsPerMinute int
	// OnEvent, when set, is called (from the goroutine making the request) when the client
	// waits: before a retry and while an analytics request is queued by the limiter. It must
	// not block.
	OnEvent func(Event)
	// Now is the clock used for counters and the limiter; nil means time.Now.
	Now func() time.Time
	// CacheTTL, when positive, keeps successful GET responses for that long and answers
	// repeated requests from memory (no request, nothing counted). Fresh(ctx) skips it; any
	// successful write clears it.
	CacheTTL time.Duration
	// CacheMaxBytes bounds the cache; zero means 32 MiB.
	CacheMaxBytes int
	// OnRequest, when set, is called after every attempt and every cached answer, for a
	// debug log. It never sees the token. It must not block.
	OnRequest func(RequestInfo)
}

// RequestInfo describes one attempt of a request (or an answer from the cache).
type RequestInfo struct {
	Method   string
	Path     string // without the base URL's scheme and host
	Query    string
	Family   Family
	Status   int // 0 when no answer came
	Duration time.Duration
	Attempt  int  // 0 for the first
	Cached   bool // answered from the response cache, nothing sent
	Err      error
}

// EventKind tells what an Event reports.
type EventKind int

const (
	// EventRetry: a request failed with a retryable status or a connection error and will be
	// sent again after Delay.
	EventRetry EventKind = iota + 1
	// EventQueued: an analytics request waits Delay for the client-side limiter.
	EventQueued
)

// Event reports a wait inside the client, for a status bar.
type Event struct {
	Kind    EventKind
	Family  Family
	Method  string
	Status  int // HTTP status that caused a retry; 0 for connection errors and queueing
	Attempt int // 1 for the first retry
	Delay   time.Duration
	Err     error // the error that caused the retry, if any
}

// Client talks to one API. It is safe for concurrent use. WithContext derives clients that
// act for another organization or operator and share counters and limiter.
type Client struct {
	base       *url.URL
	token      string
	org        int64
	operator   int64
	http       *http.Client
	userAgent  string
	timeout    time.Duration
	maxRetries int
	maxWait    time.Duration
	maxBody    int64
	onEvent    func(Event)
	onRequest  func(RequestInfo)
	now        func() time.Time
	counters   *Counters
	limiter    *limiter
	cache      *cache // nil when caching is off
	// sleep waits for d or until ctx is done; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
	// spread lengthens a server-given wait a little at random; tests replace it.
	spread func(d time.Duration) time.Duration
}

// New validates cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" {
		return nil, errors.New("client: base URL is empty")
	}
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/"))
	if err != nil {
		return nil, fmt.Errorf("client: parse base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("client: base URL %q must start with http:// or https://", cfg.BaseURL)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q has no host", cfg.BaseURL)
	}
	u.RawQuery, u.Fragment = "", ""
	u.Path, u.RawPath = strings.TrimRight(u.Path, "/"), strings.TrimRight(u.RawPath, "/") // "…/prefix/?q" too
	c := &Client{
		base:       u,
		token:      cfg.Token,
		org:        cfg.OrganizationID,
		operator:   cfg.OperatorID,
		http:       cfg.HTTPClient,
		userAgent:  cfg.UserAgent,
		timeout:    cfg.Timeout,
		maxRetries: cfg.MaxRetries,
		maxWait:    cfg.MaxRetryWait,
		maxBody:    cfg.MaxBodyBytes,
		onEvent:    cfg.OnEvent,
		onRequest:  cfg.OnRequest,
		now:        cfg.Now,
		sleep:      sleepCtx,
		spread:     spreadWait,
	}
	// Work on a copy of the transport client: its redirect policy must drop the token when a
	// redirect leaves the API (net/http keeps it for another port or scheme of the same host).
	hc := http.Client{}
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	prevCheck := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !c.sameOrigin(req.URL) {
			req.Header.Del("Authorization")
		}
		if prevCheck != nil {
			return prevCheck(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	c.http = &hc
	if c.userAgent == "" {
		c.userAgent = "parley"
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxRetries == 0 {
		c.maxRetries = DefaultMaxRetries
	} else if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	if c.maxWait <= 0 {
		c.maxWait = DefaultMaxRetryWait
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBodyBytes
	}
	if c.now == nil {
		c.now = time.Now
	}
	perMinute := cfg.AnalyticsPerMinute
	if perMinute <= 0 {
		perMinute = 10
	}
	c.counters = newCounters(c.now)
	c.limiter = newLimiter(perMinute, time.Minute, c.now)
	// The API limits analytics per organization it answers for, which Counters learns.
	c.limiter.answering = c.counters.Effective
	if cfg.CacheTTL > 0 {
		maxBytes := cfg.CacheMaxBytes
		if maxBytes <= 0 {
			maxBytes = 32 << 20
		}
		c.cache = newCache(cfg.CacheTTL, maxBytes, c.now)
	}
	return c, nil
}

// WithContext returns a client that acts in another organization (Service-Organization-Id)
// and as another operator (Service-Operator-Id); zero leaves the header out. The new client
// shares transport, counters and the analytics limiter with c.
func (c *Client) WithContext(organizationID, operatorID int64) *Client {
	d := *c
	d.org = organizationID
	d.operator = operatorID
	return &d
}

// OrganizationID is the organization sent as Service-Organization-Id (0 when none).
func (c *Client) OrganizationID() int64 { return c.org }

// OperatorID is the operator sent as Service-Operator-Id (0 when none).
func (c *Client) OperatorID() int64 { return c.operator }

// BaseURL is the configured base address (without trailing slash).
func (c *Client) BaseURL() string { return c.base.String() }

// Counters gives the request counters this client (and its WithContext siblings) add to.
func (c *Client) Counters() *Counters { return c.counters }

// Usage is the number of requests sent today in family for this client's organization.
func (c *Client) Usage(f Family) int { return c.counters.Get(c.org, f) }

// endpoint builds an absolute URL for an API path ("/api/um/v3/…") under the base URL.
func (c *Client) endpoint(path string, q url.Values) string {
	u := *c.base
	u.Path = strings.TrimRight(c.base.Path, "/") + path
	u.RawPath = ""
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// sameOrigin reports whether link points at the configured API host, so the token is never
// sent elsewhere.
func (c *Client) sameOrigin(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, c.base.Scheme) && strings.EqualFold(u.Host, c.base.Host) &&
		strings.HasPrefix(u.Path, strings.TrimRight(c.base.Path, "/")+"/")
}

// request describes one API call.
type request struct {
	method string
	url    string // absolute
	body   any    // JSON-encoded when non-nil
	// noRetry marks a request that is not idempotent although its method is: a list DELETE
	// by filter or search deletes the next batch each time it is sent.
	noRetry bool
}

// do sends req (with retries when idempotent), checks the status and decodes a JSON body
// into out when out is non-nil. It returns the HTTP status.
func (c *Client) do(ctx context.Context, req request, out any) (int, error) {
	u, err := url.Parse(req.url)
	if err != nil {
		return 0, fmt.Errorf("%s %s: parse URL: %w", req.method, req.url, err)
	}
	if !c.sameOrigin(u) {
		return 0, fmt.Errorf("%s %s: refusing to send the token outside %s", req.method, redactURL(u), c.base.String())
	}
	fam := familyOf(u.Path)
	var payload []byte
	if req.body != nil {
		payload, err = json.Marshal(req.body)
		if err != nil {
			return 0, fmt.Errorf("%s %s: encode body: %w", req.method, u.Path, err)
		}
	}
	var ckey string
	if req.method == http.MethodGet && c.cache != nil {
		ckey = cacheKey(c.org, c.operator, u.String())
		if !isFresh(ctx) {
			if body, status, ok := c.cache.get(ckey); ok {
				c.logRequest(RequestInfo{Method: req.method, Path: u.Path, Query: u.RawQuery, Family: fam, Status: status, Cached: true})
				if out != nil && len(bytes.TrimSpace(body)) > 0 {
					if err := json.Unmarshal(body, out); err != nil {
						return status, fmt.Errorf("%s %s: decode cached response: %w", req.method, u.Path, err)
					}
				}
				return status, nil
			}
		}
	}
	idempotent := !req.noRetry && (req.method == http.MethodGet || req.method == http.MethodPut ||
		req.method == http.MethodDelete || req.method == http.MethodHead)
	for attempt := 0; ; attempt++ {
		if fam.IsAnalytics() {
			if err := c.waitLimiter(ctx, fam, req.method); err != nil {
				return 0, err
			}
		}
		started := time.Now()
		status, header, body, err := c.once(ctx, req.method, u, payload)
		c.logRequest(RequestInfo{Method: req.method, Path: u.Path, Query: u.RawQuery, Family: fam, Status: status,
			Duration: time.Since(started), Attempt: attempt, Err: c.redact(err)})
		if err == nil && status == http.StatusNotFound && attempt > 0 && req.method == http.MethodDelete {
			// An earlier attempt whose answer was lost (a connection error, a 502 or 504 from
			// a proxy) may have deleted it: what the caller asked for is done.
			status, body = http.StatusNoContent, nil
		}
		if err == nil && status < 400 {
			if c.cache != nil {
				if ckey != "" {
					c.cache.put(ckey, status, body)
				} else {
					c.cache.clear()
				}
			}
			if out != nil && status != http.StatusNoContent && len(bytes.TrimSpace(body)) > 0 {
				if err := json.Unmarshal(body, out); err != nil {
					return status, fmt.Errorf("%s %s: decode response: %w", req.method, u.Path, err)
				}
			}
			return status, nil
		}
		var apiErr *Error
		if err == nil {
			if c.token != "" {
				// A server may echo the token (an HTML error page listing headers, a detail
				// naming it); keep it out of Detail, which the UI shows.
				body = bytes.ReplaceAll(body, []byte(c.token), []byte("[redacted]"))
			}
			apiErr = newError(req.method, u.Path, status, header, body, c.now())
			err = apiErr
		} else if ctx.Err() != nil {
			return 0, c.redact(err)
		}
		retryable := idempotent && ((apiErr != nil && apiErr.retryable()) || (apiErr == nil && isConnError(err)))
		if !retryable || attempt >= c.maxRetries {
			return status, c.redact(err)
		}
		delay := backoff(attempt)
		if apiErr != nil && apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > c.maxWait {
				// Asking again before the server allows it would only waste requests
				// (a daily limit answers with hours): give up now, saying how long.
				return status, c.redact(err)
			}
			delay = c.spread(apiErr.RetryAfter)
		}
		delay = min(delay, c.maxWait)
		c.emit(Event{Kind: EventRetry, Family: fam, Method: req.method, Status: status, Attempt: attempt + 1, Delay: delay, Err: c.redact(err)})
		if err := c.sleep(ctx, delay); err != nil {
			return 0, fmt.Errorf("%s %s: %w", req.method, u.Path, err)
		}
	}
}

// once sends a single attempt and reads the whole (capped) body.
func (c *Client) once(ctx context.Context, method string, u *url.URL, payload []byte) (int, http.Header, []byte, error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	hreq, err := http.NewRequestWithContext(actx, method, u.String(), rd)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s %s: build request: %w", method, u.Path, err)
	}
	hreq.Header.Set("Authorization", c.token)
	hreq.Header.Set("Accept", "application/json")
	hreq.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		hreq.Header.Set("Content-Type", "application/json")
	}
	if c.org != 0 {
		hreq.Header.Set("Service-Organization-Id", strconv.FormatInt(c.org, 10))
	}
	if c.operator != 0 {
		hreq.Header.Set("Service-Operator-Id", strconv.FormatInt(c.operator, 10))
	}
	c.counters.add(c.org, familyOf(u.Path))
	resp, err := c.http.Do(hreq)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Err != nil {
			err = ue.Err // it would repeat the method and URL
		}
		return 0, nil, nil, fmt.Errorf("%s %s: %w", method, redactURL(u), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s %s: read response: %w", method, u.Path, err)
	}
	if int64(len(body)) > c.maxBody {
		return resp.StatusCode, resp.Header, nil, fmt.Errorf("%s %s: response larger than %d bytes", method, u.Path, c.maxBody)
	}
	return resp.StatusCode, resp.Header, body, nil
}

func (c *Client) waitLimiter(ctx context.Context, fam Family, method string) error {
	key := limiterKey{org: c.org, family: fam}
	for {
		d := c.limiter.reserve(key)
		if d <= 0 {
			return nil
		}
		c.emit(Event{Kind: EventQueued, Family: fam, Method: method, Delay: d})
		if err := c.sleep(ctx, d); err != nil {
			return fmt.Errorf("%s: waiting for the analytics limit: %w", fam, err)
		}
	}
}

// AnalyticsDelay is how long an analytics request for metric would wait right now.
func (c *Client) AnalyticsDelay(metric Metric) time.Duration {
	return c.limiter.peek(limiterKey{org: c.org, family: analyticsFamily(metric)})
}

func (c *Client) logRequest(r RequestInfo) {
	if c.onRequest != nil {
		c.onRequest(r)
	}
}

func (c *Client) emit(e Event) {
	if c.onEvent != nil {
		c.onEvent(e)
	}
}

// redact removes the token from an error's text, keeping errors.Is/As working.
func (c *Client) redact(err error) error {
	if err == nil || c.token == "" || !strings.Contains(err.Error(), c.token) {
		return err
	}
	return &redactedError{err: err, token: c.token}
}

type redactedError struct {
	err   error
	token string
}

func (r *redactedError) Error() string {
	return strings.ReplaceAll(r.err.Error(), r.token, "[redacted]")
}
func (r *redactedError) Unwrap() error { return r.err }

// redactURL drops user info from a URL before it goes into an error.
func redactURL(u *url.URL) string {
	v := *u
	v.User = nil
	return v.String()
}

// backoff is the jittered exponential wait before retry attempt+1: half fixed, half random,
// doubling from 500 ms.
func backoff(attempt int) time.Duration {
	if attempt > 10 {
		attempt = 10
	}
	d := defaultBackoffBase << attempt
	return d/2 + rand.N(d/2+1)
}

// spreadWait adds up to a quarter of d (at most a second) at random: requests refused
// together with the same Retry-After (a burst of slot requests) then do not all come
// back in the same instant and collide again.
func spreadWait(d time.Duration) time.Duration {
	return d + rand.N(min(d/4, time.Second)+1)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// isConnError reports whether err is a transport-level failure worth retrying.
func isConnError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// AnalyticsPerMinute is how many analytics requests per metric and organization the client
// sends in a minute; the rest wait.
func (c *Client) AnalyticsPerMinute() int { return c.limiter.n }

// AnalyticsFree is how many analytics requests for metric may go out now without waiting.
func (c *Client) AnalyticsFree(metric Metric) int {
	return c.limiter.free(limiterKey{org: c.org, family: analyticsFamily(metric)})
}
