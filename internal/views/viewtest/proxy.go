package viewtest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/parley-tui/parley/client"
)

// Fault is what a Proxy does to a request it was told to lose.
type Fault int

const (
	// DropAnswer forwards the request, lets the sandbox carry it out, and closes the
	// connection without answering: the client sent it and never hears back.
	DropAnswer Fault = iota + 1
	// DropRequest reads the whole request and closes the connection without forwarding
	// it: the client sent it, and the sandbox never sees it.
	DropRequest
	// EmptyAnswer forwards the request and answers 200 with an empty body, whatever the
	// sandbox answered.
	EmptyAnswer
	// EmptyInstead answers 200 with an empty body without forwarding the request.
	EmptyInstead
	// Hold forwards the request, lets the sandbox carry it out, and then answers nothing
	// until the client gives up: the client's time runs out after sending.
	Hold
)

// Proxy is an HTTP proxy in front of a sandbox, over real TCP, that loses chosen requests
// the way a network or a broken proxy does (see Fault), and may rewrite the numbers of the
// answers (Numbers); every other request passes through unchanged (the Host header too, so
// the sandbox's next links point at the proxy).
type Proxy struct {
	URL string

	target *url.URL
	tr     *http.Transport
	pass   *httputil.ReverseProxy

	mu      sync.Mutex
	faults  []*fault
	met     int
	numbers *numbers
}

type fault struct {
	method, prefix string
	what           Fault
	left           int
}

// NewProxy starts a proxy to the sandbox at target (a base URL) that lives until the test
// ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{target: u, tr: Transport(t)}
	p.pass = httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	p.pass.Transport = p.tr
	p.pass.ModifyResponse = p.rewrite
	srv := httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(srv.Close)
	p.URL = srv.URL + strings.TrimSuffix(u.Path, "/")
	return p
}

// Lose makes the next n requests whose method is method and whose path starts with prefix
// (after the base URL's path) meet f.
func (p *Proxy) Lose(method, prefix string, f Fault, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = append(p.faults, &fault{method: method, prefix: strings.TrimSuffix(p.target.Path, "/") + prefix, what: f, left: n})
}

// Heal forgets the faults not met yet: every request passes from now on.
func (p *Proxy) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = nil
}

// Met is how many requests met a fault so far.
func (p *Proxy) Met() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.met
}

// Client is a client on the proxy with token (one attempt per request when noRetry is
// set, so a lost DELETE is not sent again by the client itself).
func (p *Proxy) Client(t testing.TB, token string, noRetry bool) *client.Client {
	t.Helper()
	cfg := client.Config{Token: token}
	if noRetry {
		cfg.MaxRetries = -1
	}
	return p.ClientWith(t, cfg)
}

// ClientWith is a client on the proxy configured by cfg (its base URL and transport are the
// proxy's and a transport of the test's own; without a clock in cfg its clock is Clock).
func (p *Proxy) ClientWith(t testing.TB, cfg client.Config) *client.Client {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = Clock
	}
	cfg.BaseURL, cfg.HTTPClient = p.URL, &http.Client{Transport: Transport(t)}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// take returns the fault the request meets (0 = none) and counts it.
func (p *Proxy) take(r *http.Request) Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.faults {
		if f.left > 0 && r.Method == f.method && strings.HasPrefix(r.URL.Path, f.prefix) {
			f.left--
			p.met++
			return f.what
		}
	}
	return 0
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	f := p.take(r)
	if f == 0 {
		p.pass.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	if f == DropAnswer || f == EmptyAnswer || f == Hold {
		if err := p.forward(r, body); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
	}
	switch f {
	case DropAnswer, DropRequest:
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = conn.Close()
	case EmptyAnswer, EmptyInstead:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
	case Hold:
		<-r.Context().Done() // the client closed the connection
	}
}

// forward sends the request to the sandbox and waits for its whole answer, which is dropped.
func (p *Proxy) forward(r *http.Request, body []byte) error {
	u := *r.URL
	u.Scheme, u.Host = p.target.Scheme, p.target.Host
	out, err := http.NewRequestWithContext(r.Context(), r.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	out.Header = r.Header.Clone()
	out.Host = r.Host
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}
