// Package sandbox serves the whole Messaging Platform JSON API v3 and the Analytics API v1
// from an SQLite database filled with deterministic demo data. It backs demo mode,
// `parley sandbox` and every test above unit level. The tokens are not derived from the
// seed: every new database gets random ones (Info reports them), and a reused one keeps its
// own.
//
// The behaviour follows spec/api-v3.md, spec/analytics-v1.md and the decisions recorded in
// docs/api-notes.md.
package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parley-tui/parley/internal/netaddr"
)

// Size selects how much demo data is seeded.
type Size string

// The seed sizes.
const (
	SizeSmall  Size = "small"
	SizeMedium Size = "medium"
	SizeLarge  Size = "large"
)

// ParseSize validates a size name; "" means medium.
func ParseSize(s string) (Size, error) {
	switch Size(s) {
	case "":
		return SizeMedium, nil
	case SizeSmall, SizeMedium, SizeLarge:
		return Size(s), nil
	}
	return "", fmt.Errorf("unknown sandbox size %q (want small, medium or large)", s)
}

// Options configure a sandbox server. The zero value is usable.
type Options struct {
	DBPath             string           // "" = in-memory database
	Seed               int64            // deterministic data; default 1
	Size               Size             // default "medium"
	Now                func() time.Time // clock for seeding and for "today"/daily counters; default time.Now
	DailyLimit         int              // requests per family per org per UTC day; 0 = 5000
	BurstRate          float64          // requests per second per token+org; 0 = 20; negative = unlimited
	Burst              int              // 0 = 40
	AnalyticsPerMinute int              // per metric per org in any 60 s from when each was handled; 0 = 10
	PathPrefix         string           // serve under this prefix, e.g. "/proxy/x"; links include it
	RequestLog         io.Writer        // one JSON line per request; never the token
	OffsetCap          int              // results reachable by offset; 0 = 10,000 (the spec's cap; tests lower it)
	Latency            time.Duration    // every answer is held back this long first (a slow link); 0 = none
	// Clock times burst throttling and the analytics minute; default time.Now, apart from
	// Now so that a fixed Now does not freeze them (tests that step time pass one).
	Clock func() time.Time
	// Variants switch behaviours the spec leaves open to other plausible ones (see Variant);
	// none = the sandbox's own choices of docs/api-notes.md.
	Variants []Variant
	// Image, when set, is the database to start from (a copy of it, in memory; DBPath must
	// be empty): seeded with this Seed and Size and within a week of Now, it is served as it
	// is, tokens included; otherwise it is seeded again like any database.
	Image *Image
	// LongThread is how many messages the long conversation (Info.LongConversationID) gets
	// when the database is seeded; 0 = the size's (1,520 small, 1,600 medium, 2,000 large).
	// The other conversations share what is left of the size's messages.
	LongThread int
}

func (o Options) withDefaults() (Options, error) {
	if o.Seed == 0 {
		o.Seed = 1
	}
	sz, err := ParseSize(string(o.Size))
	if err != nil {
		return o, err
	}
	o.Size = sz
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.DailyLimit <= 0 {
		o.DailyLimit = 5000
	}
	if o.BurstRate == 0 {
		o.BurstRate = 20
	}
	if o.Burst <= 0 {
		o.Burst = 40
	}
	if o.AnalyticsPerMinute <= 0 {
		o.AnalyticsPerMinute = 10
	}
	p := strings.TrimRight(o.PathPrefix, "/")
	if p != "" && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	o.PathPrefix = p
	o.Latency = max(o.Latency, 0)
	if o.Image != nil && o.DBPath != "" {
		return o, errors.New("a sandbox opened from an image lives in memory: give no database path")
	}
	if err := checkVariants(o.Variants); err != nil {
		return o, err
	}
	if most := sizeSpecs[o.Size].messages / 2; o.LongThread < 0 || o.LongThread > most {
		return o, fmt.Errorf("long thread: %d messages; a %s sandbox takes 1 to %d (0: its own %d)",
			o.LongThread, o.Size, most, sizeSpecs[o.Size].longMessages)
	}
	return o, nil
}

// Info describes the seeded data that clients and tests need to know.
type Info struct {
	CustomerToken         string           // random per database, like the organization tokens
	OrgTokens             map[int64]string // per organization id
	DefaultOrgID          int64
	OrgIDs                []int64
	RestrictedOperatorID  int64 // the "agent" role operator (cannot delete or change other operators)
	OwnerOperatorID       int64 // of the default org
	LongConversationID    int64 // the long conversation: Options.LongThread messages (1,520 or more by default)
	HostileConversationID int64 // a conversation whose contact name and messages carry hostile text
}

// Server is the sandbox API. It is an http.Handler.
type Server struct {
	db         *sql.DB
	opts       Options
	info       Info
	reused     bool
	tokens     map[string]tokenInfo
	ownerOf    map[int64]int64 // organization id → owner operator id
	customerID int64
	offsetCap  int // results reachable by offset (10,000; lowered in tests)
	variants   variantSet
	limits     *limiter
	logMu      sync.Mutex
	writes     sync.Mutex // held by each write request for its whole handling
	// closing is closed (once, by endDelays) when the server closes: requests held back for
	// Options.Latency go on at once.
	closing   chan struct{}
	closeOnce sync.Once
	delayed   atomic.Int64 // requests being held back now
}

type tokenInfo struct {
	customer bool
	orgID    int64
}

// Open opens (creating or migrating) the database, seeds it when it is empty, was seeded with
// another seed or size, or was seeded more than 7 days before Now, and returns the server.
func Open(ctx context.Context, opts Options) (*Server, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	db, reused, err := openDB(ctx, o)
	if err != nil {
		return nil, err
	}
	s := &Server{db: db, opts: o, reused: reused, limits: newLimiter(o), offsetCap: maxOffsetTot, closing: make(chan struct{}),
		variants: newVariantSet(o.Variants)}
	if o.OffsetCap > 0 {
		s.offsetCap = o.OffsetCap
	}
	if err := s.loadInfo(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// Info returns the tokens and the notable ids of the seeded data.
func (s *Server) Info() Info {
	i := s.info
	i.OrgTokens = make(map[int64]string, len(s.info.OrgTokens))
	for k, v := range s.info.OrgTokens {
		i.OrgTokens[k] = v
	}
	i.OrgIDs = append([]int64(nil), s.info.OrgIDs...)
	return i
}

// Reused reports whether Open found an already seeded database and kept it.
func (s *Server) Reused() bool { return s.reused }

// endDelays lets every request held back for Options.Latency go on at once.
func (s *Server) endDelays() { s.closeOnce.Do(func() { close(s.closing) }) }

// Close closes the database.
func (s *Server) Close() error {
	s.endDelays()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close sandbox database: %w", err)
	}
	return nil
}

// Running is a sandbox served over HTTP in the background.
type Running struct {
	URL    string   // base URL for clients on this machine, including PathPrefix, no trailing slash
	Addr   net.Addr // the address listened on (the unspecified one for every interface)
	Server *Server

	srv  *http.Server
	done chan error
	once sync.Once
	err  error
}

// Start serves the sandbox on addr ("127.0.0.1:0" picks a free port): it listens first, so
// an address that is taken fails before the database is opened or seeded, then opens it
// and serves (StartOn). ctx bounds listening, opening and seeding only; stop the server
// with Close.
func Start(ctx context.Context, opts Options, addr string) (*Running, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return StartOn(ctx, opts, ln)
}

// StartOn opens the sandbox and serves it on ln, which it owns from then on: it is closed
// when opening fails, and by Close. ctx bounds opening and seeding only.
func StartOn(ctx context.Context, opts Options, ln net.Listener) (*Running, error) {
	s, err := Open(ctx, opts)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	r := &Running{
		URL:    "http://" + netaddr.Local(ln.Addr()) + s.opts.PathPrefix,
		Addr:   ln.Addr(),
		Server: s,
		srv:    srv,
		done:   make(chan error, 1),
	}
	go func() {
		err := srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	return r, nil
}

// Close shuts the HTTP server down gracefully (waiting up to 5 s for requests in flight) and
// closes the database.
func (r *Running) Close() error {
	r.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var errs []error
		r.Server.endDelays() // Shutdown waits for the requests in flight: not for their latency
		if err := r.srv.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("shut down sandbox server: %w", err))
		}
		if err := <-r.done; err != nil {
			errs = append(errs, fmt.Errorf("serve sandbox: %w", err))
		}
		if err := r.Server.Close(); err != nil {
			errs = append(errs, err)
		}
		r.err = errors.Join(errs...)
	})
	return r.err
}
