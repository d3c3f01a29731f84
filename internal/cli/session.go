package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
)

// session is an API client ready for use, on a configured API or on the embedded sandbox.
type session struct {
	Client *client.Client
	// Demo is true when the client talks to the embedded sandbox.
	Demo bool
	// Label names the API for the status bar ("demo" or the base URL's host).
	Label string
	// OwnerID is the demo organization's owner (the operator acting by default).
	OwnerID int64
	// token is kept only to be masked in crash reports.
	token   string
	closers []func() error
}

// Close stops what the session started (the embedded sandbox).
func (s *session) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		_ = s.closers[i]()
	}
}

// clientConfig is what a session needs to build its client.
type clientConfig struct {
	BaseURL    string
	Token      string
	OrgID      int64
	OperatorID int64
	Demo       bool
	Version    string // parley's, sent in the User-Agent
	OnEvent    func(client.Event)
	OnRequest  func(client.RequestInfo)
	// CacheTTL enables the client's response cache (the TUI uses it; scripts do not);
	// CacheMaxBytes bounds it (0: client.DefaultCacheMaxBytes).
	CacheTTL      time.Duration
	CacheMaxBytes int64
	// Timeout bounds one attempt of one request (0 = the client's default).
	Timeout time.Duration
	// LedgerDir holds the persistent request ledger (ledger.DefaultDir); "" counts in
	// memory. OnLedgerError hears of its file problems; Recover is deferred in its
	// goroutine (the process's crash guard).
	LedgerDir     string
	OnLedgerError func(error)
	Recover       func(where string)
}

func userAgent(version string) string {
	return "parley/" + version + " (+https://github.com/parley-tui/parley)"
}

// newSession connects to the configured API, or starts the embedded sandbox in demo mode.
func newSession(ctx context.Context, cfg clientConfig, stderr io.Writer) (*session, error) {
	s := &session{}
	if cfg.Demo {
		dir, err := demoDir()
		if err != nil {
			return nil, err
		}
		run, err := sandbox.Start(ctx, sandbox.Options{DBPath: filepath.Join(dir, "demo.db")}, "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("start the demo sandbox: %w", err)
		}
		s.closers = append(s.closers, run.Close)
		info := run.Server.Info()
		cfg.BaseURL = run.URL
		cfg.Token = info.CustomerToken
		s.Demo = true
		s.OwnerID = info.OwnerOperatorID
		s.Label = "demo"
	}
	if cfg.BaseURL == "" {
		return nil, errors.New("no API configured: set PARLEY_BASE_URL and PARLEY_TOKEN, run `parley auth login`, or pass --demo")
	}
	if cfg.Token == "" {
		return nil, errors.New("no token for the configured API: set PARLEY_TOKEN or run `parley auth login`")
	}
	var store client.Store
	if l := openLedger(cfg, stderr); l != nil {
		store = ledgerStore{l}
		s.closers = append(s.closers, l.Close)
	}
	c, err := client.New(client.Config{
		BaseURL:        cfg.BaseURL,
		Token:          cfg.Token,
		OrganizationID: cfg.OrgID,
		OperatorID:     cfg.OperatorID,
		UserAgent:      userAgent(cfg.Version),
		OnEvent:        cfg.OnEvent,
		CacheTTL:       cfg.CacheTTL,
		CacheMaxBytes:  int(min(cfg.CacheMaxBytes, int64(math.MaxInt))),
		OnRequest:      cfg.OnRequest,
		Timeout:        cfg.Timeout,
		Store:          store,
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	s.Client = c
	s.token = cfg.Token
	if s.Label == "" {
		s.Label = c.BaseURL()
	}
	return s, nil
}

// demoDir is where the demo database lives: the user cache dir.
func demoDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache directory for demo data: %w", err)
	}
	dir := filepath.Join(base, "parley")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	return dir, nil
}
