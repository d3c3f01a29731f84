package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

// fixedNow is the clock of every test server.
var fixedNow = time.Date(2026, 11, 20, 10, 15, 30, 123456000, time.UTC)

func clock() time.Time { return fixedNow }

// start serves a small sandbox for one test; opts may override the defaults. Its data set
// is seeded once per test binary (sandboxtest); startSeeded seeds one of its own.
func start(t testing.TB, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	return sandboxtest.Start(t, defaults(opts))
}

// startSeeded is start with a database seeded for the test alone (its own tokens).
func startSeeded(t testing.TB, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	return sandboxtest.StartSeeded(t, defaults(opts))
}

// defaults are the tests' options: small, the fixed clock, no burst limit.
func defaults(opts sandbox.Options) sandbox.Options {
	if opts.Size == "" {
		opts.Size = sandbox.SizeSmall
	}
	if opts.Now == nil {
		opts.Now = clock
	}
	if opts.BurstRate == 0 {
		opts.BurstRate = -1
	}
	return opts
}

// onceServer is a small sandbox without limits, started when a test first asks for it and
// kept for the rest of the test binary.
type onceServer struct {
	once sync.Once
	r    *sandbox.Running
	err  error
}

// api is a client of the server, started now if need be; what names it in a failure.
func (s *onceServer) api(t *testing.T, what string) *api {
	t.Helper()
	s.once.Do(func() {
		s.r, s.err = sandbox.Start(context.Background(),
			sandbox.Options{Size: sandbox.SizeSmall, Now: clock, BurstRate: -1, DailyLimit: 1 << 30, AnalyticsPerMinute: 1 << 30},
			"127.0.0.1:0")
	})
	if s.err != nil {
		t.Fatalf("start the %s sandbox: %v", what, s.err)
	}
	return newAPI(t, s.r)
}

// sharedServer is one read-only small sandbox for the tests that do not write.
var sharedServer onceServer

func shared(t *testing.T) *api {
	t.Helper()
	return sharedServer.api(t, "shared")
}

// api is a tiny test client.
type api struct {
	t       testing.TB
	base    string
	info    sandbox.Info
	token   string
	headers map[string]string
	client  *http.Client
}

func newAPI(t testing.TB, r *sandbox.Running) *api { return apiFor(t, r.URL, r.Server.Info()) }

// apiFor is a client of the server at base with connections of its own, closed when the
// test ends and before a server the test started shuts down (cleanups run last first). A
// connection dialled but never used (the transport dials while another connection frees
// up, and keeps the spare) holds the server's Shutdown for 5 s, and in the shared default
// transport it could belong to any test: Close then failed with "context deadline
// exceeded".
func apiFor(t testing.TB, base string, info sandbox.Info) *api {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	return &api{t: t, base: base, info: info, token: info.CustomerToken, headers: map[string]string{},
		client: &http.Client{Transport: tr}}
}

// as returns a copy of the client with extra headers.
func (a *api) as(kv ...string) *api {
	b := *a
	b.headers = map[string]string{}
	for k, v := range a.headers {
		b.headers[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		b.headers[kv[i]] = kv[i+1]
	}
	return &b
}

func (a *api) withToken(tok string) *api {
	b := a.as()
	b.token = tok
	return b
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %q: %v", truncate(string(r.body), 300), err)
	}
}

func (r resp) detail(t testing.TB) string {
	t.Helper()
	var e struct {
		Detail *string `json:"detail"`
	}
	r.json(t, &e)
	if e.Detail == nil || *e.Detail == "" {
		t.Fatalf("error body without detail: %s", r.body)
	}
	return *e.Detail
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// url builds an absolute URL from a path (relative to the base) or returns an absolute one.
func (a *api) url(path string) string {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	return a.base + path
}

func (a *api) do(method, path string, body any, contentType string) resp {
	a.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			a.t.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, a.url(path), rd)
	if err != nil {
		a.t.Fatalf("new request: %v", err)
	}
	if a.token != "" {
		req.Header.Set("Authorization", a.token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range a.headers {
		req.Header.Set(k, v)
	}
	res, err := a.client.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		a.t.Fatalf("read body: %v", err)
	}
	if res.StatusCode >= 500 {
		a.t.Errorf("%s %s: server error %d: %s", method, path, res.StatusCode, b)
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

func (a *api) get(path string) resp { return a.do(http.MethodGet, path, nil, "") }

func (a *api) del(path string) resp { return a.do(http.MethodDelete, path, nil, "") }

func (a *api) send(method, path string, body any) resp {
	return a.do(method, path, body, "application/json")
}

// mustGet GETs and decodes a 200 response.
func (a *api) mustGet(path string, v any) {
	a.t.Helper()
	r := a.get(path)
	if r.status != http.StatusOK {
		a.t.Fatalf("GET %s: %d %s", path, r.status, truncate(string(r.body), 500))
	}
	r.json(a.t, v)
}

func expectStatus(t testing.TB, r resp, want int, what string) {
	t.Helper()
	if r.status != want {
		t.Fatalf("%s: status %d, want %d: %s", what, r.status, want, truncate(string(r.body), 500))
	}
}

// Minimal views of the resources, enough for the assertions.

type page[T any] struct {
	Count    *int    `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []T     `json:"results"`
}

type topic struct {
	ID             int64  `json:"id"`
	OrganizationID int64  `json:"organization_id"`
	Text           string `json:"text"`
}

type message struct {
	ID             string `json:"id"`
	MsgID          string `json:"msgid"`
	ConversationID int64  `json:"conversation_id"`
	PartID         int64  `json:"part_id"`
	SentAt         string `json:"sent_at"`
	Body           string `json:"body"`
	OperatorIsBot  *bool  `json:"operator_is_bot"`
	Sender         struct {
		Type string `json:"type"`
		ID   int64  `json:"id"`
	} `json:"sender"`
}

type contact struct {
	ID                 int64     `json:"id"`
	ContactUUIDs       *[]string `json:"contact_uuids"`
	ConversationCount  *int      `json:"conversation_count"`
	Name               *string   `json:"name"`
	Email              *string   `json:"email"`
	EmailVerified      bool      `json:"email_verified"`
	MobileNumber       *string   `json:"mobile_number"`
	MobileVerified     bool      `json:"is_mobile_number_verified"`
	Verified           bool      `json:"verified"`
	Street             *string   `json:"street"`
	City               *string   `json:"city"`
	Country            *string   `json:"country"`
	Locale             string    `json:"locale"`
	ExternalCustomerID *string   `json:"external_customer_id"`
	CreatedAt          string    `json:"created_at"`
	FirstMessageSentAt *string   `json:"first_message_sent_at"`
	LastMessageSentAt  *string   `json:"last_message_sent_at"`
}

type conversation struct {
	ID                        int64    `json:"id"`
	Contact                   contact  `json:"contact"`
	ContactFirstMessageSentAt *string  `json:"contact_first_message_sent_at"`
	ContactLastMessageSentAt  *string  `json:"contact_last_message_sent_at"`
	ContactLastUpdateAt       string   `json:"contact_last_update_at"`
	ConversationContactUUID   string   `json:"conversation_contact_uuid"`
	ConversationPartSet       *[]part  `json:"conversation_part_set"`
	LastMessage               *message `json:"last_message"`
	LastMessageSentAt         string   `json:"last_message_sent_at"`
	OperatorAssignedTo        *int64   `json:"operator_assigned_to"`
	OrganizationID            int64    `json:"organization_id"`
	Status                    string   `json:"status"`
	Topics                    []topic  `json:"topics"`
	UmWidget                  struct {
		ID int64 `json:"id"`
	} `json:"um_widget"`
	UpdatedAt          string `json:"updated_at"`
	MarkedReadOperator bool   `json:"marked_read_operator"`
}

type part struct {
	ID int64 `json:"id"`
}

type operator struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Email  string `json:"email"`
	Role   string `json:"role"`
	IsAway bool   `json:"is_away"`
}

type note struct {
	ID                int64  `json:"id"`
	ContactIdentityID int64  `json:"contact_identity_id"`
	Body              string `json:"body"`
	OperatorID        *int64 `json:"operator_id"`
}

// walkOffset follows next links from path and returns every item.
func walkOffset[T any](a *api, path string) (items []T, count int, pages int) {
	a.t.Helper()
	next := path
	count = -1
	for next != "" {
		var p page[T]
		a.mustGet(next, &p)
		pages++
		if p.Count == nil {
			a.t.Fatalf("offset page without count: %s", next)
		}
		if count >= 0 && *p.Count != count {
			a.t.Fatalf("count changed during the walk: %d then %d", count, *p.Count)
		}
		count = *p.Count
		items = append(items, p.Results...)
		next = ""
		if p.Next != nil {
			next = *p.Next
		}
		if pages > 10000 {
			a.t.Fatal("runaway walk")
		}
	}
	return items, count, pages
}

// walkCursor follows next links of a cursor endpoint.
func walkCursor[T any](a *api, path string) (items []T, count *int, pages int) {
	a.t.Helper()
	next := path
	for next != "" {
		var p page[T]
		a.mustGet(next, &p)
		pages++
		count = p.Count
		items = append(items, p.Results...)
		next = ""
		if p.Next != nil {
			next = *p.Next
		}
		if pages > 10000 {
			a.t.Fatal("runaway walk")
		}
	}
	return items, count, pages
}

func ids[T any](items []T, id func(T) int64) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

func convID(c conversation) int64 { return c.ID }
func contactID(c contact) int64   { return c.ID }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func q(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v.Encode()
}

// allConversations loads every conversation of the client's organization by the /all/ walk.
func allConversations(a *api) []conversation {
	a.t.Helper()
	items, _, _ := walkCursor[conversation](a, "/api/um/v3/conversations/all/?limit=100")
	return items
}

func allContacts(a *api) []contact {
	a.t.Helper()
	items, _, _ := walkCursor[contact](a, "/api/um/v3/contact_identities/all/?limit=100")
	return items
}

func parseTS(t testing.TB, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return ts
}

func sameIDs(t testing.TB, what string, got, want []int64) {
	t.Helper()
	g := map[int64]bool{}
	for _, id := range got {
		if g[id] {
			t.Fatalf("%s: id %d twice", what, id)
		}
		g[id] = true
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d ids, want %d", what, len(got), len(want))
	}
	for _, id := range want {
		if !g[id] {
			t.Fatalf("%s: missing id %d", what, id)
		}
	}
}
