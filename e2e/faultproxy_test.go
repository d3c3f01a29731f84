//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// FaultKind is one way the fault proxy spoils an answer.
type FaultKind int

// The faults, in the order the figures list them. "Forwarded" faults send the request to
// the sandbox first (a write really happens there) and then lose or spoil the answer; the
// others answer without the sandbox ever seeing the request.
const (
	// FaultResetBeforeBody: the connection is reset (TCP RST) before the request body is
	// read; nothing reaches the sandbox.
	FaultResetBeforeBody FaultKind = iota
	// FaultResetAfterBody: the request is read and forwarded, the sandbox answers, and the
	// connection is reset instead of passing the answer on.
	FaultResetAfterBody
	// FaultHang: the request is forwarded and the answer is held until the client gives up
	// (its request timeout) and closes the connection.
	FaultHang
	// FaultTruncated: forwarded; the status line, the headers with the full Content-Length
	// and half of the body go out, then the connection closes.
	FaultTruncated
	// FaultEmpty: forwarded; the sandbox's status with an empty body.
	FaultEmpty
	// FaultHTML: forwarded; a 200 with an HTML page instead of the sandbox's answer (a
	// captive portal, a misconfigured gateway).
	FaultHTML
	// Fault500, Fault502, Fault503: that status from the proxy, not forwarded.
	Fault500
	Fault502
	Fault503
	// Fault429RetryAfter: 429 with Retry-After: 1, not forwarded.
	Fault429RetryAfter
	// Fault429: 429 without Retry-After (the client's own backoff), not forwarded.
	Fault429
	numFaultKinds
)

var faultNames = [numFaultKinds]string{
	"reset before body", "reset after body", "hang past timeout", "truncated body", "empty body",
	"HTML body", "500", "502", "503", "429 Retry-After: 1", "429 without Retry-After",
}

func (k FaultKind) String() string {
	if k < 0 || k >= numFaultKinds {
		return "fault " + strconv.Itoa(int(k))
	}
	return faultNames[k]
}

// faultWeights are the kinds' relative frequencies. A hang costs the client a whole request
// timeout, so it is drawn less often than the others.
var faultWeights = [numFaultKinds]int{
	FaultResetBeforeBody: 4, FaultResetAfterBody: 4, FaultHang: 2, FaultTruncated: 4, FaultEmpty: 4,
	FaultHTML: 4, Fault500: 3, Fault502: 3, Fault503: 3, Fault429RetryAfter: 3, Fault429: 3,
}

// forwarded reports whether the kind sends the request to the sandbox before it spoils
// the answer.
func (k FaultKind) forwarded() bool {
	switch k {
	case FaultResetAfterBody, FaultHang, FaultTruncated, FaultEmpty, FaultHTML:
		return true
	}
	return false
}

// FaultProxy stands between parley and the sandbox and spoils a share of the answers.
//
// Which requests fail, and how, follows from the seed: the decision for a request depends
// only on the seed, the request's method, path and query, and how many times that same
// request came before. The same seed and the same sequence of requests give the same faults.
type FaultProxy struct {
	URL string

	// Force, when set, decides instead of the seed (for the proxy's own tests): it returns
	// the fault for a request, or false for none.
	Force func(method, target string) (FaultKind, bool)

	upstream *url.URL
	seed     uint64
	rate     float64
	hangMax  time.Duration
	forward  *http.Client
	srv      *http.Server
	done     chan struct{}

	mu          sync.Mutex
	occurrences map[string]int // method, path and query → requests seen
	requests    int
	writes      int
	faults      [numFaultKinds]int
	writeFaults [numFaultKinds]int
	finished    map[string]int // method and path → requests whose answer is over (sent, spoilt or abandoned)
	recent      []string       // the last faults, for a failure report
	problems    []string       // the proxy's own failures (the sandbox not answering it)
}

// StartFaultProxy serves a proxy to upstream (the sandbox's base URL) on a free local
// port that spoils about rate of the answers, decided by seed.
func StartFaultProxy(t *testing.T, upstream string, seed uint64, rate float64) *FaultProxy {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatalf("fault proxy: upstream %q: %v", upstream, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &FaultProxy{
		URL:         "http://" + ln.Addr().String(),
		upstream:    u,
		seed:        seed,
		rate:        rate,
		hangMax:     2 * time.Minute,
		forward:     &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}},
		done:        make(chan struct{}),
		occurrences: map[string]int{},
		finished:    map[string]int{},
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	t.Cleanup(func() {
		close(p.done)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.srv.Shutdown(ctx)
		_ = p.srv.Close()
	})
	return p
}

// decide says whether the request gets a fault, and which.
func (p *FaultProxy) decide(method, target string) (FaultKind, bool) {
	if p.Force != nil {
		return p.Force(method, target)
	}
	key := method + " " + target
	p.mu.Lock()
	n := p.occurrences[key]
	p.occurrences[key]++
	p.mu.Unlock()
	h := fnv.New64a()
	_, _ = io.WriteString(h, key)
	r := rand.New(rand.NewPCG(p.seed, h.Sum64()^(uint64(n)*0x9e3779b97f4a7c15)))
	if r.Float64() >= p.rate {
		return 0, false
	}
	total := 0
	for _, w := range faultWeights {
		total += w
	}
	pick := r.IntN(total)
	for k, w := range faultWeights {
		if pick < w {
			return FaultKind(k), true
		}
		pick -= w
	}
	return 0, false
}

func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// note records what happened to a request.
func (p *FaultProxy) note(r *http.Request, kind FaultKind, faulty bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	w := isWrite(r.Method)
	if w {
		p.writes++
	}
	if !faulty {
		return
	}
	p.faults[kind]++
	if w {
		p.writeFaults[kind]++
	}
	p.recent = append(p.recent, fmt.Sprintf("%s %s %s: %s", time.Now().Format("15:04:05.000"), r.Method, r.URL.RequestURI(), kind))
	if len(p.recent) > 40 {
		p.recent = p.recent[len(p.recent)-40:]
	}
}

func (p *FaultProxy) problem(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
}

// Finished is how many requests of method to path have had their answer delivered,
// spoilt or abandoned: after that, whatever the request did on the sandbox is done.
func (p *FaultProxy) Finished(method, path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.finished[method+" "+path]
}

// ProxyFigures are the proxy's counts.
type ProxyFigures struct {
	Requests, Writes int
	Faults           [numFaultKinds]int
	WriteFaults      [numFaultKinds]int
	Recent, Problems []string
}

// TotalFaults is the number of spoilt answers.
func (f ProxyFigures) TotalFaults() int {
	n := 0
	for _, c := range f.Faults {
		n += c
	}
	return n
}

// Figures returns the counts so far.
func (p *FaultProxy) Figures() ProxyFigures {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ProxyFigures{Requests: p.requests, Writes: p.writes, Faults: p.faults, WriteFaults: p.writeFaults,
		Recent: append([]string(nil), p.recent...), Problems: append([]string(nil), p.problems...)}
}

// String lists the faults by kind.
func (f ProxyFigures) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests (%d writes), %d faults (%.0f%%)", f.Requests, f.Writes, f.TotalFaults(),
		100*float64(f.TotalFaults())/float64(max(1, f.Requests)))
	for k := FaultKind(0); k < numFaultKinds; k++ {
		fmt.Fprintf(&b, "\n  %-24s %4d  (writes %d)", k, f.Faults[k], f.WriteFaults[k])
	}
	return b.String()
}

func (p *FaultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		p.mu.Lock()
		p.finished[r.Method+" "+r.URL.Path]++
		p.mu.Unlock()
	}()
	kind, faulty := p.decide(r.Method, r.URL.RequestURI())
	p.note(r, kind, faulty)
	if !faulty {
		status, header, body, err := p.roundTrip(r)
		if err != nil {
			p.problem("%s %s: %v", r.Method, r.URL.RequestURI(), err)
			http.Error(w, "fault proxy: the sandbox did not answer", http.StatusBadGateway)
			return
		}
		writeAnswer(w, status, header, body)
		return
	}
	switch kind {
	case FaultResetBeforeBody:
		reset(w)
		return
	case Fault500, Fault502, Fault503:
		status := map[FaultKind]int{Fault500: 500, Fault502: 502, Fault503: 503}[kind]
		if kind == Fault500 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, `{"detail": "A server error occurred."}`)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		fmt.Fprintf(w, "<html><head><title>%d %s</title></head><body><center><h1>%d %s</h1></center><hr><center>nginx</center></body></html>\n",
			status, http.StatusText(status), status, http.StatusText(status))
		return
	case Fault429RetryAfter, Fault429:
		w.Header().Set("Content-Type", "application/json")
		if kind == Fault429RetryAfter {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"detail": "Request was throttled."}`)
		return
	}
	// The forwarded faults: the sandbox does the work, the answer is lost or spoilt.
	status, header, body, err := p.roundTrip(r)
	if err != nil {
		p.problem("%s %s: %v", r.Method, r.URL.RequestURI(), err)
		reset(w)
		return
	}
	switch kind {
	case FaultResetAfterBody:
		reset(w)
	case FaultHang:
		select {
		case <-r.Context().Done(): // the client gave up and closed the connection
		case <-p.done:
		case <-time.After(p.hangMax):
		}
		reset(w)
	case FaultTruncated:
		if status == http.StatusNoContent {
			status = http.StatusOK
		}
		declared := max(len(body), 2)
		cut(w, status, header.Get("Content-Type"), declared, body[:len(body)/2])
	case FaultEmpty:
		header.Set("Content-Length", "0")
		writeAnswer(w, status, header, nil)
	case FaultHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, "<!DOCTYPE html>\n<html><head><title>Sign in to the network</title></head><body><p>Please accept the terms to continue.</p></body></html>\n")
	}
}

// roundTrip sends the request to the sandbox and reads the whole answer. It does not stop
// when the client gives up: a write that started on the sandbox finishes there before the
// client can learn anything (the proxy holds its connection meanwhile).
func (p *FaultProxy) roundTrip(r *http.Request) (int, http.Header, []byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("read the request body: %w", err)
	}
	u := *p.upstream
	u.Path = strings.TrimRight(p.upstream.Path, "/") + r.URL.Path
	u.RawPath = ""
	u.RawQuery = r.URL.RawQuery
	req, err := http.NewRequestWithContext(context.Background(), r.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	for k, vs := range r.Header {
		if k == "Connection" || k == "Keep-Alive" || k == "Te" || k == "Trailer" || k == "Transfer-Encoding" || k == "Upgrade" {
			continue
		}
		req.Header[k] = append([]string(nil), vs...)
	}
	// The sandbox builds its next/previous links from these, as behind any reverse proxy:
	// parley follows them back through the proxy.
	req.Header.Set("X-Forwarded-Host", r.Host)
	req.Header.Set("X-Forwarded-Proto", "http")
	resp, err := p.forward.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("read the sandbox's answer: %w", err)
	}
	return resp.StatusCode, resp.Header.Clone(), out, nil
}

func writeAnswer(w http.ResponseWriter, status int, header http.Header, body []byte) {
	keys := make([]string, 0, len(header))
	for k := range header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "Connection" || k == "Transfer-Encoding" || k == "Content-Length" {
			continue
		}
		w.Header()[k] = header[k]
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// reset closes the client's connection with a TCP RST (SO_LINGER 0).
func reset(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// cut writes a status line and headers promising declared bytes, then only part, and
// closes the connection.
func cut(w http.ResponseWriter, status int, contentType string, declared int, part []byte) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	if contentType == "" {
		contentType = "application/json"
	}
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", status, http.StatusText(status), contentType, declared)
	_, _ = buf.Write(part)
	_ = buf.Flush()
}

// TestFaultProxy checks each fault as a client sees it, and whether the request reached
// the sandbox: what the soak's checks rely on.
func TestFaultProxy(t *testing.T) {
	sb := StartSandbox(t, "small")
	api := sb.Client(t)
	first, err := api.ListContacts(t.Context(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil || len(first.Results) == 0 {
		t.Fatalf("a contact: %v", err)
	}
	contact := first.Results[0].ID
	p := StartFaultProxy(t, sb.BaseURL, 1, 0)
	var force FaultKind
	faulty := false
	p.Force = func(string, string) (FaultKind, bool) { return force, faulty }
	hc := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	noteThere := func(body string) bool {
		t.Helper()
		n := 0
		pg, err := api.ListNotes(t.Context(), client.NoteListOptions{ContactIdentityID: contact, ListOptions: client.ListOptions{Limit: 100}})
		if err != nil {
			t.Fatal(err)
		}
		for _, note := range pg.Results {
			if note.Body == body {
				n++
			}
		}
		if n > 1 {
			t.Fatalf("note %q is there %d times", body, n)
		}
		return n == 1
	}
	type result struct {
		status       int
		header       http.Header
		body         string
		err, bodyErr error
	}
	post := func(body string) result {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, p.URL+"/api/um/v3/notes/",
			strings.NewReader(fmt.Sprintf(`{"contact_identity_id": %d, "body": %q}`, contact, body)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", sb.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return result{err: err}
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return result{status: resp.StatusCode, header: resp.Header, body: string(b), bodyErr: err}
	}

	faulty = false
	if r := post("no fault"); r.err != nil || r.bodyErr != nil || r.status != http.StatusCreated || !strings.Contains(r.body, `"no fault"`) || !noteThere("no fault") {
		t.Fatalf("without a fault: %+v", r)
	}
	cases := []struct {
		kind      FaultKind
		forwarded bool
		check     func(r result) bool
	}{
		{FaultResetBeforeBody, false, func(r result) bool { return r.err != nil }},
		{FaultResetAfterBody, true, func(r result) bool { return r.err != nil }},
		{FaultHang, true, func(r result) bool {
			var ne net.Error
			return errors.As(r.err, &ne) && ne.Timeout()
		}},
		{FaultTruncated, true, func(r result) bool {
			return r.err == nil && r.status == http.StatusCreated && errors.Is(r.bodyErr, io.ErrUnexpectedEOF)
		}},
		{FaultEmpty, true, func(r result) bool { return r.err == nil && r.status == http.StatusCreated && r.body == "" }},
		{FaultHTML, true, func(r result) bool {
			return r.err == nil && r.status == http.StatusOK && strings.HasPrefix(r.header.Get("Content-Type"), "text/html") &&
				strings.HasPrefix(r.body, "<!DOCTYPE html>")
		}},
		{Fault500, false, func(r result) bool { return r.err == nil && r.status == 500 }},
		{Fault502, false, func(r result) bool { return r.err == nil && r.status == 502 }},
		{Fault503, false, func(r result) bool { return r.err == nil && r.status == 503 }},
		{Fault429RetryAfter, false, func(r result) bool { return r.err == nil && r.status == 429 && r.header.Get("Retry-After") == "1" }},
		{Fault429, false, func(r result) bool {
			_, has := r.header["Retry-After"]
			return r.err == nil && r.status == 429 && !has
		}},
	}
	for _, c := range cases {
		force, faulty = c.kind, true
		body := "fault " + c.kind.String()
		r := post(body)
		if !c.check(r) {
			t.Errorf("%s: the client saw status %d, error %v, body error %v, body %q", c.kind, r.status, r.err, r.bodyErr, r.body)
		}
		if got := noteThere(body); got != c.forwarded || got != c.kind.forwarded() {
			t.Errorf("%s: the note reached the sandbox: %v, want %v", c.kind, got, c.forwarded)
		}
	}
	f := p.Figures()
	for _, c := range cases {
		if f.Faults[c.kind] != 1 || f.WriteFaults[c.kind] != 1 {
			t.Errorf("%s counted %d times (%d writes), want 1", c.kind, f.Faults[c.kind], f.WriteFaults[c.kind])
		}
	}

	// Links in the sandbox's answers lead back through the proxy.
	faulty = false
	req, _ := http.NewRequest(http.MethodGet, p.URL+"/api/um/v3/notes/?limit=1", nil)
	req.Header.Set("Authorization", sb.Token)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"next":"`+p.URL+"/") && !strings.Contains(string(b), `"next": "`+p.URL+"/") {
		t.Errorf("the next link does not lead through the proxy (%s): %s", p.URL, b)
	}
}

// The seed decides the faults: the same seed gives the same decisions for the same
// requests, another seed others, and about rate of them are faults.
func TestFaultProxyDecisions(t *testing.T) {
	decisions := func(seed uint64) []string {
		p := &FaultProxy{seed: seed, rate: 0.2, occurrences: map[string]int{}}
		var out []string
		for i := range 3000 {
			k, faulty := p.decide("GET", fmt.Sprintf("/api/um/v3/conversations/%d/messages/", i%300))
			if faulty {
				out = append(out, fmt.Sprintf("%d:%s", i, k))
			}
		}
		return out
	}
	a, b, c := decisions(7), decisions(7), decisions(8)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed gave other faults")
	}
	if slices.Equal(a, c) {
		t.Fatal("another seed gave the same faults")
	}
	if len(a) < 500 || len(a) > 700 {
		t.Fatalf("%d faults in 3000 requests, want about 600", len(a))
	}
	kinds := map[string]bool{}
	for _, d := range a {
		_, k, _ := strings.Cut(d, ":")
		kinds[k] = true
	}
	if len(kinds) != int(numFaultKinds) {
		t.Fatalf("only %d kinds drawn: %v", len(kinds), kinds)
	}
}
