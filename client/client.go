// Package client is a typed HTTP client for the Messaging Platform JSON API v3 and the
// Analytics API v1. It knows nothing about terminals or Bubble Tea.
//
// Every call takes a context. Idempotent requests (GET, PUT, DELETE) are retried with
// jittered exponential backoff on 429, 502, 503, 504 and connection errors, honouring
// Retry-After; POST and PATCH are never retried, nor is a list DELETE without delete_ids
// (each one deletes another batch). Requests are counted per family and organization for
// the current UTC day as the API counts them: attempts it answered apart from those it
// refused with 429 and those that never reached it (Counters, Tally), in the persistent
// ledger when Config.Store is set. Analytics requests pass through a limiter that keeps
// each metric of each organization under 10 requests per minute, each request's minute
// counted from its answer and lengthened by AnalyticsMargin (the API counts it from when
// it handled the request, a moment the client does not see).
//
// Answers are checked before they are believed. Every endpoint declares what its success
// answer must be (an envelope with `results`, a resource with an id, any JSON object where
// the spec shows no fields, nothing at all for the DELETEs); a 2xx whose body is empty, an
// HTML page, not valid JSON or not of that shape is a *BadResponseError ("the API answered
// 200 with an empty body"), never success, and never enters the response cache. The errors
// tell what happened:
//
//   - *Error: the API answered with an error status (Detail is its `detail`; a proxy's HTML
//     page becomes "the server answered 502 Bad Gateway with an HTML page (title: …)");
//   - *BadResponseError: a success status whose body cannot be believed;
//   - *TransportError: no complete answer; Sent tells whether the request had been written,
//     and NetworkProblem says it in words ("cannot connect to host:port (connection
//     refused); nothing was sent", "the connection to host:port was lost after the request
//     was sent; the answer did not arrive", "no answer within 30s after the request was
//     sent").
//
// errors.Is(err, ErrOutcomeUnknown) holds exactly for a write that may have been carried out
// although the client cannot tell (sent, then no answer of record): such a write must be
// checked against the server before it is reported as saved or failed, or sent again. It
// never holds for reads, for writes that were not sent, or for writes the API refused with
// a 4xx. The cause stays reachable with errors.As.
//
// The local clock is not the server's. Every successful answer's Date header, and the
// updated_at of the conversations it carries, tell the client how far apart the two are:
// ServerNow is the server's clock as far as the client can tell, ServerReached a time the
// server's clock has certainly reached (where an "updated since" window starts).
//
// One client can serve many users at once (the team hub): ShareReads derives clients whose
// reads go out under one identity and share the memory, while each writes as its own
// operator (WithContext); WithGate refuses writes before they are sent (*RefusedError);
// WithWriteHook sees every write's outcome. Identical GETs in flight at the same time are
// sent once for all their callers (a Fresh one, the user's r, sends its own), and Within lets a Fresh or polling read take what one
// of them fetched a moment ago; ShareWithin makes the operators, their slots and the
// navigation answer every one of them for a window of their own.
//
// A searched or filtered conversation list held past the time-to-live is revalidated, not
// fetched again: one changed-only read (updated_at_from_date) asks whether anything it may
// list changed since, and when nothing did the answer held stays (revalidate.go). Forecast
// tells when a family's day's budget runs out at the pace of the last hour.
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
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Defaults used when Config leaves a field zero.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRetries   = 4
	DefaultMaxRetryWait = 60 * time.Second
	DefaultMaxBodyBytes = 64 << 20
	// DefaultCacheMaxBytes bounds the client's memory of decoded data: about 850 list
	// rows' conversations with their pages, and a thread of up to about 1,900 messages
	// (an entry may take a quarter). Paging through a long list fills it to the bound, so
	// it is most of parley's heap then.
	DefaultCacheMaxBytes = 4 << 20
	defaultBackoffBase   = 500 * time.Millisecond
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
	// Now is the local clock: counters and the limiter use it, and ServerNow and
	// ServerReached correct it by what the answers tell of the server's clock. nil means
	// time.Now.
	Now func() time.Time
	// Sleep waits d, or until ctx is done (then returning its error): before a retry and
	// while the analytics limiter holds a request. nil means a timer. A client run on a
	// settable clock (Now) passes one that moves that clock.
	Sleep func(ctx context.Context, d time.Duration) error
	// CacheTTL, when positive, turns the client's memory on: conversations, their messages
	// and parts are held decoded with the version they were fetched at and answered from
	// memory while the conversation's version stays the same (LatestMessages,
	// ConversationWithParts); data without a version (list pages, contacts, notes) is
	// answered from memory for CacheTTL, and a searched or filtered conversation list past
	// it after a revalidation found it current. Nothing answered from memory is sent or
	// counted.
	// Fresh(ctx) skips the memory; any successful write clears it.
	CacheTTL time.Duration
	// CacheMaxBytes bounds the memory by the estimated size of what it holds (least
	// recently used entries go first); zero means DefaultCacheMaxBytes.
	CacheMaxBytes int
	// OnRequest, when set, is called after every attempt, every cached answer, every GET
	// answered by an identical one in flight and every write the gates refused, for a debug
	// log. It never sees the token. It must not block.
	OnRequest func(RequestInfo)
	// Store, when set, keeps the request counts (Counters) where the user's other parley
	// processes add to and read them: the persistent ledger. nil counts in memory.
	Store Store
}

// RequestInfo describes one attempt of a request (or an answer from the cache, or a write
// the gates refused). A write hook (WithWriteHook) gets one per write: its outcome, with
// Attempt the last attempt made and Duration the time of all of them.
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
	// Operator is the Service-Operator-Id the request carried (0: none, the token's own).
	Operator int64
	// Refused: a write the gates refused (WithGate); nothing was sent.
	Refused bool
	// Joined: a GET answered by an identical one in flight at the same time; nothing was
	// sent for it.
	Joined bool
	// Bypassed: a GET that did not ask the client's memory (Fresh without Within: the
	// user's r, a poll). A GET sent or joined without it is one the memory could not
	// answer.
	Bypassed bool
	// Revalidation: a changed-only read that checked whether a conversation list held in
	// the memory past its time-to-live is still current (the answer held then answers, a
	// Cached RequestInfo of its own); it is sent and counted like any request.
	Revalidation bool
}

// EventKind tells what an Event reports.
type EventKind int

const (
	// EventRetry: a request failed with a retryable status or a connection error and will be
	// sent again after Delay.
	EventRetry EventKind = iota + 1
	// EventQueued: an analytics request waits Delay for the client-side limiter.
	EventQueued
	// EventFailed: a request failed for good (no retry left, none allowed, or a limit
	// that will not lift soon) with a Problem a status bar shows: a 429 (Until: when the
	// API takes requests of the family again, when known), a 5xx or no answer. Failures
	// that are answers of the API (a 404, a refused write) and cancelled requests report
	// nothing.
	EventFailed
	// EventAnswered: the API answered a request of Family after earlier requests were
	// reported failing or retrying: a server error or an unreachable API is over, and so
	// is a limit of that family. Only the first answer after a trouble is reported.
	EventAnswered
)

// Event reports a wait inside the client, or the start and end of a trouble, for a status
// bar.
type Event struct {
	Kind    EventKind
	Family  Family
	Method  string
	Status  int // HTTP status that caused a retry or failure; 0 for connection errors and queueing
	Attempt int // 1 for the first retry; for EventFailed the retries made
	Delay   time.Duration
	Err     error // the error that caused the retry or failure, if any
	// Problem classifies the trouble of EventRetry and EventFailed.
	Problem Problem
	// Until is, for EventFailed of a limit, when the API takes requests of Family again
	// (zero when it did not say).
	Until time.Time
	// Poll: the request was a poll (Poll), made once and never retried.
	Poll bool
}

// Client talks to one API. It is safe for concurrent use. WithContext, ShareReads, WithGate
// and WithWriteHook derive clients that share its transport, counters, limiter, memory and
// GETs in flight.
type Client struct {
	base       *url.URL
	token      string
	org        int64
	operator   int64 // Service-Operator-Id of writes, and of reads unless shareReads
	shareReads bool  // reads go out as reader and are held under it (ShareReads)
	reader     int64
	windows    ShareWindows        // how long shared reads answer everyone (ShareWithin)
	gates      []WriteGate         // asked before every write, in order (WithGate)
	writeHooks []func(RequestInfo) // told every write's outcome (WithWriteHook)
	dryRun     func(DryRequest)    // told every write instead of sending it (WithDryRun)
	flights    *flights            // GETs in flight, shared with every derived client
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
	paces      *paces // the day's forecast's looks at the counters (Forecast)
	limiter    *limiter
	memo       *memo // nil when the memory is off (CacheTTL zero)
	clock      *serverClock
	health     *health // troubles reported, shared with WithContext clients
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
		clock:      &serverClock{},
		health:     &health{},
		flights:    newFlights(),
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
	if cfg.Sleep != nil {
		c.sleep = cfg.Sleep
	}
	perMinute := cfg.AnalyticsPerMinute
	if perMinute <= 0 {
		perMinute = 10
	}
	c.counters = newCounters(c.now, cfg.Store)
	c.paces = &paces{logs: map[CounterKey]*paceLog{}}
	c.limiter = newLimiter(perMinute, time.Minute+AnalyticsMargin, c.now)
	// The API limits analytics per organization it answers for, which Counters learns.
	c.limiter.answering = c.counters.Effective
	if cfg.CacheTTL > 0 {
		maxBytes := cfg.CacheMaxBytes
		if maxBytes <= 0 {
			maxBytes = DefaultCacheMaxBytes
		}
		c.memo = newMemo(cfg.CacheTTL, maxBytes, c.now)
	}
	return c, nil
}

// WithContext returns a client that acts in another organization (Service-Organization-Id)
// and as another operator (Service-Operator-Id); zero leaves the header out. The new client
// shares transport, counters, the analytics limiter and the memory with c, and keeps its
// gates, write hooks and shared reader (ShareReads: then operatorID is what writes carry).
func (c *Client) WithContext(organizationID, operatorID int64) *Client {
	d := *c
	d.org = organizationID
	d.operator = operatorID
	return &d
}

// ShareReads returns a derived client whose reads (GET) go out as operatorID (0: no
// Service-Operator-Id, the token's own operator) and are held in the client's memory under
// that identity, so every client derived with the same reader shares them: an answer one
// of them received answers the others, and an identical GET in flight is sent once for
// all. Its writes go out as the client's own operator, which WithContext changes; a write
// of any of them still clears the memory they share.
func (c *Client) ShareReads(operatorID int64) *Client {
	d := *c
	d.shareReads, d.reader = true, operatorID
	return &d
}

// readAs is the operator reads go out as (Service-Operator-Id of a GET), and the identity
// the memory holds what they answered under.
func (c *Client) readAs() int64 {
	if c.shareReads {
		return c.reader
	}
	return c.operator
}

// operatorFor is the Service-Operator-Id a request of method carries (0: none).
func (c *Client) operatorFor(method string) int64 {
	if isWrite(method) {
		return c.operator
	}
	return c.readAs()
}

// OrganizationID is the organization sent as Service-Organization-Id (0 when none).
func (c *Client) OrganizationID() int64 { return c.org }

// OperatorID is the operator sent as Service-Operator-Id (0 when none): on every request,
// or on writes only when reads are shared (ShareReads).
func (c *Client) OperatorID() int64 { return c.operator }

// BaseURL is the configured base address (without trailing slash).
func (c *Client) BaseURL() string { return c.base.String() }

// Counters gives the request counters this client (and its WithContext siblings) add to.
func (c *Client) Counters() *Counters { return c.counters }

// Usage is the number of requests of family the API counted today (answered, not refused)
// for the organization that answers this client.
func (c *Client) Usage(f Family) int { return c.counters.Get(c.org, f) }

// Restarted reports that today's counts started again from zero (the ledger's file was
// damaged; see Restart), when they did.
func (c *Client) Restarted() (Restart, bool) { return c.counters.Restarted() }

// Tally is today's tally of family for the organization that answers this client: the
// requests the API counted, and apart those it refused and those that did not reach it.
func (c *Client) Tally(f Family) Tally { return c.counters.Tally(c.org, f) }

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

// do sends req (with retries when idempotent), checks the status and, when out is non-nil,
// decodes the body into out and checks it (see checker): a success answer whose body is
// empty, not JSON or not what out promises is a *BadResponseError, and only an answer that
// passed enters the response cache. With out nil (the DELETEs) any success body is fine. A
// write that may have been carried out without the client knowing returns an error matching
// ErrOutcomeUnknown. A write the gates refuse (WithGate) is a *RefusedError, and nothing is
// sent. The write hooks (WithWriteHook) see every write's outcome. It returns the HTTP
// status.
func (c *Client) do(ctx context.Context, req request, out checker) (int, error) {
	if !isWrite(req.method) {
		return c.exchange(ctx, req, out, nil)
	}
	started := time.Now()
	info := RequestInfo{Method: req.method, Operator: c.operator}
	status, err := c.exchange(ctx, req, out, &info)
	if len(c.writeHooks) > 0 {
		info.Status, info.Err, info.Duration = status, err, time.Since(started)
		for _, fn := range c.writeHooks {
			fn(info)
		}
	}
	return status, err
}

// call does req (see do) and returns its answer decoded into a new T.
func call[T any, P interface {
	*T
	checker
}](ctx context.Context, c *Client, req request) (*T, error) {
	var out T
	if _, err := c.do(ctx, req, P(&out)); err != nil {
		return nil, err
	}
	return &out, nil
}

// remove sends a DELETE of path (below the configured API) with query q; any success
// answer is fine. noRetry as in request.
func (c *Client) remove(ctx context.Context, path string, q url.Values, noRetry bool) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, url: c.endpoint(path, q), noRetry: noRetry}, nil)
	return err
}

// exchange is do without the write hooks; info, for a write, learns its path, family,
// attempts and whether the gates refused it.
func (c *Client) exchange(ctx context.Context, req request, out checker, info *RequestInfo) (int, error) {
	u, err := url.Parse(req.url)
	if err != nil {
		return 0, fmt.Errorf("%s %s: parse URL: %w", req.method, req.url, err)
	}
	fam := familyOf(u.Path)
	if info != nil {
		info.Path, info.Query, info.Family = u.Path, u.RawQuery, fam
	}
	// The gates come first: a refused write is not counted, waits for no limiter and
	// touches neither the memory nor the health of the connection.
	if isWrite(req.method) {
		if err := c.checkGates(req.method, u); err != nil {
			info.Refused = true
			c.logRequest(RequestInfo{Method: req.method, Path: u.Path, Query: u.RawQuery, Family: fam, Refused: true, Err: err})
			return 0, err
		}
	}
	if !c.sameOrigin(u) {
		return 0, fmt.Errorf("%s %s: refusing to send the token outside %s", req.method, redactURL(u), c.base.String())
	}
	if req.method == http.MethodGet {
		return c.get(ctx, req, u, fam, out)
	}
	var payload []byte
	if req.body != nil {
		payload, err = json.Marshal(req.body)
		if err != nil {
			return 0, fmt.Errorf("%s %s: encode body: %w", req.method, u.Path, err)
		}
	}
	if c.dryRun != nil && isWrite(req.method) {
		c.describe(req.method, u, payload)
		return 0, fmt.Errorf("%s %s: %w", req.method, u.Path, ErrDryRun)
	}
	return c.send(ctx, req, u, fam, payload, out, sendOpts{info: info})
}

// get answers a GET: from the memory when it holds the answer and ctx lets it (see
// recallAge), else, for a conversation list held past its time-to-live, from the memory
// after a revalidation found it current (revalidate), else by joining an identical GET in
// flight, else by sending it. A GET answer without a version is kept, decoded, for the
// time-to-live (or its share window, when longer: ShareWithin), a conversation list until
// it is evicted (it is revalidated when it ages); the data with a version (a conversation,
// its messages) and contacts are held by the methods that read them (LatestMessages,
// ConversationWithParts, GetContact).
func (c *Client) get(ctx context.Context, req request, u *url.URL, fam Family, out checker) (int, error) {
	var akey memoKey
	changed := false // a revalidation found the answer held out of date
	keep := c.memo != nil && out != nil && !heldElsewhere(u.Path) && !isRevalidation(ctx)
	revalidates := keep && revalidated(u)
	if keep {
		akey = memoKey{kind: kindAnswer, org: c.org, operator: c.readAs(), url: u.String()}
		if v, at, ok := c.memo.getAt(akey); ok {
			a := v.(answer)
			age, recall := c.now().Sub(at), false
			if d, may := c.recallAge(ctx, u.Path); may && !at.IsZero() && age <= d && (!revalidates || age < c.memo.ttl) {
				recall = true
			} else if revalidates && !a.reached.IsZero() && !a.changed && !isFresh(ctx) {
				renewed, err := c.revalidate(ctx, u, fam, akey, a)
				if err != nil {
					return 0, err
				}
				recall, changed = renewed, !renewed
			}
			// An answer held for another type on the same URL is asked for again.
			if recall && copyAnswer(out, a.value) {
				c.observe(nil, out, nil)
				c.logRequest(RequestInfo{Method: req.method, Path: u.Path, Query: u.RawQuery, Family: fam, Status: a.status, Cached: true})
				return a.status, nil
			}
			if recall {
				c.memo.drop(akey)
			}
		}
	}
	key := flightKey{org: c.org, reader: c.readAs(), url: u.String()}
	joined := time.Now()
	// A Fresh GET (the user asked for it now: r) sends its own: the one in flight started
	// before it was asked for, and may hang on a broken connection until it times out.
	// With Within the caller takes an answer that old, and an answer in flight is newer.
	own := bypassesMemory(ctx)
	for {
		f, lead := c.flights.join(key, own)
		if lead {
			o := sendOpts{keep: keep, akey: akey, revalidates: revalidates, changed: changed}
			if keep && !revalidates {
				o.ttl = max(c.memo.ttl, c.windowFor(u.Path))
			}
			return c.lead(ctx, req, u, fam, out, key, f, o)
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			err := c.waitErr(ctx, req.method, u, joined)
			c.logRequest(RequestInfo{Method: req.method, Path: u.Path, Query: u.RawQuery, Family: fam, Joined: true, Err: err, Bypassed: own})
			return 0, err
		}
		if f.abandoned {
			continue // its sender gave up, not this caller: ask again
		}
		status, err := c.follow(req.method, u, fam, out, f, own)
		if err == nil {
			c.keepAnswer(ctx, f.body)
		}
		return status, err
	}
}

// bypassesMemory reports a GET of ctx that does not ask the memory: Fresh without Within.
func bypassesMemory(ctx context.Context) bool {
	_, within := withinOf(ctx)
	return isFresh(ctx) && !within
}

// lead sends the GET of flight f for every caller that joins it, and lets them know.
func (c *Client) lead(ctx context.Context, req request, u *url.URL, fam Family, out checker, key flightKey, f *flight, o sendOpts) (status int, err error) {
	returned := false
	defer func() {
		// A sender stopped by its own context (or by a panic on its way up) has no answer
		// for the others: they ask again.
		f.err, f.abandoned = err, !returned || (err != nil && ctx.Err() != nil)
		c.flights.finish(key, f)
	}()
	o.flight = f
	status, err = c.send(ctx, req, u, fam, nil, out, o)
	returned = true
	return status, err
}

// follow is the answer of a caller that joined flight f: its own decoding of the answer
// the sender received (so that nothing decoded is shared), or the sender's error. bypassed:
// the caller did not ask the memory (RequestInfo.Bypassed).
func (c *Client) follow(method string, u *url.URL, fam Family, out checker, f *flight, bypassed bool) (int, error) {
	if !f.answered {
		c.logRequest(RequestInfo{Method: method, Path: u.Path, Query: u.RawQuery, Family: fam, Status: f.status, Joined: true, Err: f.err,
			Bypassed: bypassed})
		return f.status, f.err
	}
	var err error
	if out != nil {
		if err = accept(method, u.Path, f.status, f.header, f.body, out); err != nil {
			err = c.redactBad(err)
		}
	}
	c.logRequest(RequestInfo{Method: method, Path: u.Path, Query: u.RawQuery, Family: fam, Status: f.status, Joined: true, Err: err,
		Bypassed: bypassed})
	if err != nil {
		return f.status, err
	}
	c.observe(nil, out, func() bool { return c.flights.current(f.epoch) })
	return f.status, nil
}

// waitErr is the error of a caller whose context ended while it waited for an identical
// GET in flight since joined.
func (c *Client) waitErr(ctx context.Context, method string, u *url.URL, joined time.Time) error {
	te := &TransportError{Method: method, URL: redactURL(u), Host: hostPort(u), Sent: true, Connected: true, Err: ctx.Err()}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		te.Limit = time.Since(joined)
	}
	return te
}

// sendOpts are what send needs beyond the request.
type sendOpts struct {
	info   *RequestInfo // a write's: the attempts made
	flight *flight      // a GET's: what its joiners learn
	keep   bool         // a GET answer the memory keeps under akey
	akey   memoKey
	// ttl is how long the memory keeps it (0: until evicted); revalidates: it is a
	// conversation list, revalidated when it ages (answer.reached).
	ttl         time.Duration
	revalidates bool
	changed     bool // its revalidation found a change (answer.changed)
}

// send makes the attempts of a request and checks and decodes its answer into out.
func (c *Client) send(ctx context.Context, req request, u *url.URL, fam Family, payload []byte, out checker, o sendOpts) (int, error) {
	write := isWrite(req.method)
	idempotent := !req.noRetry && (req.method == http.MethodGet || req.method == http.MethodPut ||
		req.method == http.MethodDelete || req.method == http.MethodHead)
	// A poll is asked once: the next poll asks again.
	poll, maxRetries := isPoll(ctx), c.maxRetries
	if poll {
		maxRetries = 0
	}
	// applied: an attempt of this write may have been carried out (sent, then no answer of
	// record); the outcome is unknown unless a later answer settles it.
	applied := false
	fail := func(status int, err error) (int, error) {
		if write && applied && !refused(err) {
			c.forget()
			err = &outcomeUnknown{err: err}
		}
		return status, c.redact(err)
	}
	for attempt := 0; ; attempt++ {
		if o.info != nil {
			o.info.Attempt = attempt
		}
		var held *slot
		if fam.IsAnalytics() {
			var err error
			if held, err = c.waitLimiter(ctx, fam, req.method); err != nil {
				return fail(0, err)
			}
		}
		started := time.Now()
		status, header, body, err := c.once(ctx, req.method, u, payload)
		if held != nil {
			c.limiter.done(held)
		}
		if err == nil && status < 500 && status != http.StatusTooManyRequests && c.health.answered(fam) {
			c.emit(Event{Kind: EventAnswered, Family: fam, Method: req.method, Status: status})
		}
		if err == nil && status == http.StatusNotFound && attempt > 0 && req.method == http.MethodDelete {
			// An earlier attempt whose answer was lost (a connection error, a 502 or 504 from
			// a proxy) may have deleted it: what the caller asked for is done.
			status, body = http.StatusNoContent, nil
		}
		if f := o.flight; f != nil {
			// The joiners decode a success answer for themselves.
			f.status, f.header, f.body, f.answered = status, header, body, err == nil && status < 400
		}
		if err == nil && status < 400 && out != nil {
			if err = accept(req.method, u.Path, status, header, body, out); err != nil {
				err = c.redactBad(err)
			}
		}
		c.logRequest(RequestInfo{Method: req.method, Path: u.Path, Query: u.RawQuery, Family: fam, Status: status,
			Duration: time.Since(started), Attempt: attempt, Err: c.redact(err), Bypassed: !write && bypassesMemory(ctx),
			Revalidation: isRevalidation(ctx)})
		if err == nil && status < 400 {
			c.keepAnswer(ctx, body)
			if write {
				c.forget() // before the answer is taken in: an edit's answer is the newest
			}
			// An answer to a GET sent before a write that ended meanwhile may show what
			// the write changed as it was before: it is the caller's, not the memory's.
			var current func() bool
			if f := o.flight; f != nil {
				current = func() bool { return c.flights.current(f.epoch) }
			}
			c.observe(header, out, current)
			if o.keep {
				a := answer{value: cloneAnswer(out), status: status, changed: o.changed}
				if o.revalidates {
					a.reached = c.ServerReached() // after observe: what this answer taught
				}
				c.memo.putIf(o.akey, a, approxSize(out), o.ttl, current)
			}
			return status, nil
		}
		applied = applied || mayHaveApplied(status, err)
		var apiErr *Error
		if err == nil {
			if c.token != "" {
				// A server may echo the token (an HTML error page listing headers, a detail
				// naming it); keep it out of Detail, which the UI shows.
				body = bytes.ReplaceAll(body, []byte(c.token), []byte("[redacted]"))
			}
			apiErr = newError(req.method, u.Path, status, header, body, c.now())
			// Decoding the body undoes JSON escapes ("\u0074ok…"): redact the detail too.
			apiErr.Detail = c.redactText(apiErr.Detail)
			err = apiErr
		} else if ctx.Err() != nil {
			c.report(fam, req.method, 0, attempt, poll, err)
			return fail(0, err)
		}
		// The daily limit is not asked again before it resets: every attempt would be
		// refused.
		// Nor is a host the resolver says does not exist: its answer will not change in
		// the seconds of a backoff.
		retryable := idempotent && ((apiErr != nil && apiErr.retryable() && !apiErr.Daily) || (apiErr == nil && isConnError(err) && !hostNotFound(err)))
		if !retryable || attempt >= maxRetries {
			c.report(fam, req.method, status, attempt, poll, err)
			return fail(status, err)
		}
		delay := backoff(attempt)
		if apiErr != nil && apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > c.maxWait {
				// Asking again before the server allows it would only waste requests
				// (a daily limit answers with hours): give up now, saying how long.
				c.report(fam, req.method, status, attempt, poll, err)
				return fail(status, err)
			}
			delay = c.spread(apiErr.RetryAfter)
		}
		delay = min(delay, c.maxWait)
		problem := ProblemOf(err)
		c.health.troubled(fam, problem)
		c.emit(Event{Kind: EventRetry, Family: fam, Method: req.method, Status: status, Attempt: attempt + 1, Delay: delay,
			Err: c.redact(err), Problem: problem})
		if err := c.sleep(ctx, delay); err != nil {
			return fail(0, fmt.Errorf("%s %s: %w", req.method, u.Path, err))
		}
	}
}

// forget clears the memory after a write that changed (or may have changed) data: nothing
// held before it answers again, and no GET in flight before it is joined or kept.
func (c *Client) forget() {
	if c.memo == nil {
		c.flights.advance()
		return
	}
	c.memo.clearWith(c.flights.advance)
}

// isWrite reports a method that changes data on the server.
func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// mayHaveApplied reports whether a failed attempt may have been carried out by the server: it
// was sent and its answer was lost, the server answered 5xx, or it answered 2xx with a body
// that could not be believed.
func mayHaveApplied(status int, err error) bool {
	var te *TransportError
	if errors.As(err, &te) {
		return te.Sent
	}
	var bad *BadResponseError
	if errors.As(err, &bad) {
		return bad.Status < 400 || bad.Status >= 500
	}
	return status >= 500
}

// refused reports an answer of record that the request was not carried out: a 4xx other than
// 408 (timeout) and 429 (rate limit), which refuse this attempt without telling anything
// about an earlier one.
func refused(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Status >= 400 && e.Status < 500 && e.Status != http.StatusRequestTimeout && e.Status != http.StatusTooManyRequests
}

// once sends a single attempt and reads the whole (capped) body. A failure without a complete
// answer is a *TransportError saying whether the request had been sent.
func (c *Client) once(ctx context.Context, method string, u *url.URL, payload []byte) (int, http.Header, []byte, error) {
	// The time this attempt is allowed: the client's timeout, or what is left of the caller's.
	start := time.Now()
	limit := c.timeout
	if dl, ok := ctx.Deadline(); ok && dl.Sub(start) < limit {
		limit = dl.Sub(start)
	}
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	// What happened before a failure: a connection was made, the request was written.
	var connected, sent atomic.Bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { connected.Store(true) },
		WroteRequest: func(i httptrace.WroteRequestInfo) {
			if i.Err == nil {
				sent.Store(true)
			}
		},
	})
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
	if op := c.operatorFor(method); op != 0 {
		hreq.Header.Set("Service-Operator-Id", strconv.FormatInt(op, 10))
	}
	transportErr := func(target *url.URL, err error) error {
		te := &TransportError{Method: method, URL: redactURL(target), Host: hostPort(target),
			Sent: sent.Load(), Connected: connected.Load(), Err: err}
		var ne net.Error
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			te.Limit = limit
		case errors.As(err, &ne) && ne.Timeout(): // a limit of the transport's own
			te.Limit = time.Since(start)
		}
		return te
	}
	fam := familyOf(u.Path)
	resp, err := c.http.Do(hreq)
	if err != nil {
		switch {
		case sent.Load():
			// Sent, and no answer: the API may well have counted it.
			c.counters.add(c.org, fam, Tally{Answered: 1})
		case ctx.Err() != nil:
			// Given up by the caller before it left: not an attempt of anyone's.
		default:
			c.counters.add(c.org, fam, Tally{Unreached: 1})
		}
		target := u
		var ue *url.Error
		if errors.As(err, &ue) && ue.Err != nil {
			err = ue.Err // it would repeat the method and URL
			if t, perr := url.Parse(ue.URL); perr == nil && t.Host != "" {
				target = t // a redirect's target
			}
		}
		return 0, nil, nil, transportErr(target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	c.counters.add(c.org, fam, outcome(resp.StatusCode, body))
	if err != nil {
		return 0, nil, nil, transportErr(resp.Request.URL, fmt.Errorf("read response: %w", err))
	}
	if int64(len(body)) > c.maxBody {
		return resp.StatusCode, resp.Header, nil, &BadResponseError{Method: method, Path: u.Path, Status: resp.StatusCode,
			Reason: fmt.Sprintf("the API answered %d with a body larger than %d bytes", resp.StatusCode, c.maxBody)}
	}
	return resp.StatusCode, resp.Header, body, nil
}

// outcome is how an HTTP answer counts. 429 is a refusal: the API did not count it. A 502,
// 503 or 504 without the API's JSON error body (an object with "detail") is a gateway's or
// proxy's page: the request did not reach the API. Every other answer came from the API,
// which counted it.
func outcome(status int, body []byte) Tally {
	switch status {
	case http.StatusTooManyRequests:
		return Tally{Refused: 1}
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		var payload struct {
			Detail json.RawMessage `json:"detail"`
		}
		if json.Unmarshal(body, &payload) != nil || len(payload.Detail) == 0 {
			return Tally{Unreached: 1}
		}
	}
	return Tally{Answered: 1}
}

// hostPort is the host and port a URL goes to: "api.example:443".
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if strings.EqualFold(u.Scheme, "https") {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// waitLimiter waits until the analytics limiter lets a request of fam go and returns its
// slot, which the caller ends when the attempt ends.
func (c *Client) waitLimiter(ctx context.Context, fam Family, method string) (*slot, error) {
	key := limiterKey{org: c.org, family: fam}
	for {
		s, d := c.limiter.reserve(key)
		if s != nil {
			return s, nil
		}
		c.emit(Event{Kind: EventQueued, Family: fam, Method: method, Delay: d})
		if err := c.sleep(ctx, d); err != nil {
			return nil, fmt.Errorf("%s: waiting for the analytics limit: %w", fam, err)
		}
	}
}

// AnalyticsDelay is how long an analytics request for metric would wait right now.
func (c *Client) AnalyticsDelay(metric Metric) time.Duration {
	return c.limiter.peek(limiterKey{org: c.org, family: analyticsFamily(metric)})
}

func (c *Client) logRequest(r RequestInfo) {
	if c.onRequest != nil {
		r.Operator = c.operatorFor(r.Method)
		c.onRequest(r)
	}
}

func (c *Client) emit(e Event) {
	if c.onEvent != nil {
		c.onEvent(e)
	}
}

// redactText removes the token from a text the UI may show.
func (c *Client) redactText(s string) string {
	if c.token == "" {
		return s
	}
	return strings.ReplaceAll(s, c.token, "[redacted]")
}

// redactBad removes the token from a BadResponseError's reason (a page title or a value the
// server sent may carry it).
func (c *Client) redactBad(err error) error {
	var bad *BadResponseError
	if errors.As(err, &bad) {
		bad.Reason = c.redactText(bad.Reason)
	}
	return err
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

// hostNotFound reports whether err is the resolver's answer that the host does not exist
// (NXDOMAIN), not a resolver that failed to answer.
func hostNotFound(err error) bool {
	var dns *net.DNSError
	return errors.As(err, &dns) && dns.IsNotFound
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
