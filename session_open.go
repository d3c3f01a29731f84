package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/credentials"
)

// openSession resolves flags, environment, config file and token into a session for CLI
// commands (no response cache; requests go to the --debug log).
func openSession(ctx context.Context, g *globalFlags, stderr io.Writer) (*session, error) {
	s, err := resolveSettings(ctx, g, os.Getenv)
	if err != nil {
		return nil, err
	}
	dl, err := openDebugLog(g.debug)
	if err != nil {
		return nil, err
	}
	sess, err := sessionFor(ctx, s, stderr, dl, nil, 0)
	if err != nil {
		_ = dl.close()
		return nil, err
	}
	sess.closers = append(sess.closers, dl.close)
	return sess, nil
}

// sessionFor builds the session of resolved settings: the embedded sandbox in demo mode,
// else the configured API with the token from env, keyring or file.
func sessionFor(ctx context.Context, s Settings, stderr io.Writer, dl *debugLog, onEvent func(client.Event), cacheTTL time.Duration) (*session, error) {
	cfg := clientConfig{BaseURL: s.BaseURL, OrgID: s.OrganizationID, OperatorID: s.OperatorID,
		Demo: s.Demo, OnEvent: func(e client.Event) {
			dl.event(e)
			if onEvent != nil {
				onEvent(e)
			}
		}, OnRequest: dl.request, CacheTTL: cacheTTL}
	dl.log.Info("start", "version", version, "demo", s.Demo, "config", s.ConfigPath)
	if s.Demo {
		fmt.Fprintln(stderr, "parley: using demo data from the embedded sandbox ("+s.DemoReason+")")
	} else {
		tok, err := lookupToken(ctx, s, stderr)
		if err != nil {
			return nil, err
		}
		cfg.Token = tok.Reveal()
	}
	return newSession(ctx, cfg, stderr)
}

// lookupToken finds the token, telling the user when the keyring is slow to answer.
func lookupToken(ctx context.Context, s Settings, stderr io.Writer) (credentials.Token, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer func() { _ = recover() }()
		select {
		case <-done:
		case <-time.After(400 * time.Millisecond):
			fmt.Fprintln(stderr, "parley: waiting for the OS keyring (at most 3 s)…")
		}
	}()
	tok, err := s.Token(ctx)
	if errors.Is(err, credentials.ErrNoToken) {
		return tok, errors.New("no token for the configured API: set PARLEY_TOKEN or run `parley auth login`")
	}
	if err != nil {
		return tok, fmt.Errorf("read the token: %w", err)
	}
	return tok, nil
}
